// smh report site: sortable tables, the CPU-only filter, and a run's task list and drill-down.
// Run data is untrusted: it is only ever put into the page as textContent, never as HTML.
"use strict";
(function () {
  function sortKey(cell) {
    var v = cell ? cell.getAttribute("data-sort") : "";
    var n = Number(v);
    return v !== "" && !isNaN(n) ? n : String(v).toLowerCase();
  }
  function cmp(a, b) {
    if (typeof a === typeof b) return a < b ? -1 : a > b ? 1 : 0;
    return typeof a === "number" ? -1 : 1;
  }
  document.querySelectorAll("button.sort").forEach(function (button) {
    button.addEventListener("click", function () {
      var th = button.closest("th");
      var table = button.closest("table");
      var col = Number(button.getAttribute("data-col"));
      var dir = th.getAttribute("aria-sort") === "descending" ? "ascending" : "descending";
      table.querySelectorAll("thead th").forEach(function (h) { h.setAttribute("aria-sort", "none"); });
      th.setAttribute("aria-sort", dir);
      table.querySelectorAll("tbody").forEach(function (body) {
        var rows = Array.prototype.filter.call(body.rows, function (r) { return !r.classList.contains("group"); });
        rows.sort(function (a, b) {
          var c = cmp(sortKey(a.cells[col]), sortKey(b.cells[col]));
          return dir === "ascending" ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });

  var cpuOnly = document.getElementById("cpu-only");
  function applyCpu() {
    var rows = document.querySelectorAll("table.runs tr[data-cpu]");
    var shown = 0, total = 0;
    rows.forEach(function (r) {
      r.hidden = cpuOnly.checked && r.getAttribute("data-cpu") !== "1";
      if (r.closest("table").id !== "leaderboard") return;
      total += 1;
      if (!r.hidden) shown += 1;
    });
    var status = document.getElementById("shown");
    if (status) status.textContent = cpuOnly.checked ? shown + " of " + total + " runs shown (CPU only)" : "";
  }
  if (cpuOnly) { cpuOnly.addEventListener("change", applyCpu); applyCpu(); }

  // A run page: window.SMH_TASKS = {s: strings, t: tasks}; each task is
  // [id, suite/category, difficulty, passed (1, 0, -1: not scored), reason, error class,
  //  turns, tool calls, tools, tokens, seconds, model calls, claims, false claims, reply]
  var data = window.SMH_TASKS;
  var table = document.getElementById("task-table");
  if (!data || !table) return;
  var S = data.s, T = data.t, PAGE = 500, limit = PAGE;
  var byId = {};
  T.forEach(function (t) { byId[t[0]] = t; });
  var catFilter = document.getElementById("cat-filter");
  var verdictFilter = document.getElementById("verdict-filter");
  var params = new URLSearchParams(window.location.search);
  if (params.get("category")) catFilter.value = params.get("category");
  function verdict(t) { return t[3] === 1 ? "passed" : t[3] === 0 ? "failed" : "not scored"; }
  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }
  function render() {
    var body = table.tBodies[0];
    body.textContent = "";
    var cat = catFilter.value, want = verdictFilter.value, n = 0, shown = 0;
    T.forEach(function (t) {
      if (cat && S[t[1]] !== cat) return;
      if (want && verdict(t) !== want) return;
      n += 1;
      if (shown >= limit) return;
      shown += 1;
      var tr = document.createElement("tr");
      var th = document.createElement("th");
      th.scope = "row";
      var a = document.createElement("a");
      a.href = "#task-" + encodeURIComponent(t[0]);
      a.textContent = t[0];
      th.appendChild(a);
      tr.appendChild(th);
      cell(tr, S[t[1]]);
      cell(tr, S[t[2]]);
      cell(tr, verdict(t), t[3] === 1 ? "pass" : "fail");
      cell(tr, S[t[5]] || "–");
      cell(tr, String(t[6]));
      cell(tr, String(t[7]));
      cell(tr, t[12] ? t[13] + " of " + t[12] : "–");
      body.appendChild(tr);
    });
    document.getElementById("task-count").textContent =
      n + " tasks" + (shown < n ? ", first " + shown + " shown" : "");
    document.getElementById("more").hidden = shown >= n;
  }
  function showTask() {
    var hash = window.location.hash;
    var section = document.getElementById("task-detail");
    if (hash.indexOf("#task-") !== 0) { section.hidden = true; return; }
    var t = byId[decodeURIComponent(hash.slice(6))];
    if (!t) { section.hidden = true; return; }
    var fields = [
      ["task", t[0]], ["suite/category", S[t[1]]], ["difficulty", S[t[2]]],
      ["verdict", verdict(t)], ["reason", S[t[4]] || "–"], ["error class", S[t[5]] || "–"],
      ["turns", String(t[6])], ["tool calls", t[7] + (S[t[8]] ? ": " + S[t[8]] : "")],
      ["tokens", String(t[9])], ["seconds", String(t[10])], ["model calls", String(t[11])],
      ["claims checked", String(t[12])], ["false claims", String(t[13])],
      ["reply", S[t[14]] || "(no reply)"]
    ];
    var dl = document.getElementById("detail-fields");
    dl.textContent = "";
    fields.forEach(function (f) {
      var dt = document.createElement("dt");
      dt.textContent = f[0];
      var dd = document.createElement("dd");
      dd.textContent = f[1];
      dd.setAttribute("data-field", f[0]);
      dl.appendChild(dt);
      dl.appendChild(dd);
    });
    document.getElementById("h-detail").textContent = "Task " + t[0];
    section.hidden = false;
    document.getElementById("h-detail").focus();
  }
  catFilter.addEventListener("change", function () { limit = PAGE; render(); });
  verdictFilter.addEventListener("change", function () { limit = PAGE; render(); });
  document.getElementById("show-more").addEventListener("click", function () { limit += PAGE; render(); });
  window.addEventListener("hashchange", showTask);
  render();
  showTask();
})();
