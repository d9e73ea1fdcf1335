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

  // A run page: window.SMH_INDEX = {s: strings, t: [[id, suite/category, difficulty, request]]} (every
  // task of the site once) and window.SMH_TASKS = {s: strings, t: tasks}, each task
  // [place in SMH_INDEX, passed (1, 0, -1: not scored), reason, error class, turns, tool calls,
  //  calls, tokens, seconds, model calls, claims, false claims, reply, findings], the calls
  //  [call, its result (-1: not recorded), call, result, ...] as places in window.SMH_CALLS (data/calls.js,
  //  the site's call texts, loaded when a drill-down first opens) and each finding a claim
  //  check, as a string
  var index = window.SMH_INDEX, data = window.SMH_TASKS;
  var table = document.getElementById("task-table");
  if (!data || !index || !table) return;
  var PAGE = 500, limit = PAGE;
  var T = data.t.map(function (r) {
    var k = index.t[r[0]], s = data.s;
    return {
      id: k[0], cat: index.s[k[1]], diff: index.s[k[2]], request: index.s[k[3]], v: r[1], reason: s[r[2]],
      error: s[r[3]], turns: r[4], calls: r[5], tools: r[6], tokens: r[7], secs: r[8],
      model: r[9], claims: r[10], fc: r[11], reply: s[r[12]], findings: r[13] || []
    };
  });
  var byId = {};
  T.forEach(function (t) { byId[t.id] = t; });
  var catFilter = document.getElementById("cat-filter");
  var verdictFilter = document.getElementById("verdict-filter");
  var params = new URLSearchParams(window.location.search);
  if (params.get("category")) catFilter.value = params.get("category");
  function verdict(t) { return t.v === 1 ? "passed" : t.v === 0 ? "failed" : "not scored"; }
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
      if (cat && t.cat !== cat) return;
      if (want && verdict(t) !== want) return;
      n += 1;
      if (shown >= limit) return;
      shown += 1;
      var tr = document.createElement("tr");
      var th = document.createElement("th");
      th.scope = "row";
      var a = document.createElement("a");
      a.href = "#task-" + encodeURIComponent(t.id);
      a.textContent = t.id;
      th.appendChild(a);
      tr.appendChild(th);
      cell(tr, t.cat);
      cell(tr, t.diff);
      cell(tr, verdict(t), t.v === 1 ? "pass" : "fail");
      cell(tr, t.error || "–");
      cell(tr, String(t.turns));
      cell(tr, String(t.calls));
      cell(tr, t.claims ? t.fc + " of " + t.claims : "–");
      body.appendChild(tr);
    });
    document.getElementById("task-count").textContent =
      n + " tasks" + (shown < n ? ", first " + shown + " shown" : "");
    document.getElementById("more").hidden = shown >= n;
  }
  // A task's tool calls, one item each: the call, then what it gave (cut results say how much
  // is missing; every part is text, never markup).
  var callsState = "";  // "", "loading", "failed" (or window.SMH_CALLS is there)
  function loadCalls() {
    if (callsState) return;
    callsState = "loading";
    var tag = document.querySelector('script[src$="data/tasks.js"]');
    var script = document.createElement("script");
    script.src = tag.getAttribute("src").replace(/tasks\.js$/, "calls.js");
    script.onload = function () { callsState = "done"; showTask(); };
    script.onerror = function () { callsState = "failed"; showTask(); };
    document.body.appendChild(script);
  }
  function callList(t) {
    if (!t.tools.length) return null;
    var C = window.SMH_CALLS;
    if (!C) {
      var p = document.createElement("p");
      p.textContent = callsState === "failed" ? "(the calls could not be loaded: data/calls.js is missing)" : "(loading the calls…)";
      loadCalls();
      return p;
    }
    var ol = document.createElement("ol");
    ol.className = "calls";
    for (var i = 0; i < t.tools.length; i += 2) {
      var li = document.createElement("li");
      var code = document.createElement("code");
      code.className = "call";
      code.textContent = C[t.tools[i]];
      li.appendChild(code);
      var res = document.createElement("span");
      res.className = "result";
      res.textContent = t.tools[i + 1] === -1 ? "result not recorded" : "→ " + C[t.tools[i + 1]];
      li.appendChild(res);
      ol.appendChild(li);
    }
    return ol;
  }
  function textList(items) {
    if (!items.length) return null;
    var ul = document.createElement("ul");
    items.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      ul.appendChild(li);
    });
    return ul;
  }
  function showTask() {
    var hash = window.location.hash;
    var section = document.getElementById("task-detail");
    if (hash.indexOf("#task-") !== 0) { section.hidden = true; return; }
    var t = byId[decodeURIComponent(hash.slice(6))];
    if (!t) { section.hidden = true; return; }
    var fields = [
      ["task", t.id], ["request", t.request || "(not found: the task file this run read is missing or has changed since)"],
      ["suite/category", t.cat], ["difficulty", t.diff],
      ["verdict", verdict(t)], ["reason", t.reason || "–"], ["error class", t.error || "–"],
      ["turns", String(t.turns)], ["tool calls", String(t.calls), callList(t)],
      ["tokens", String(t.tokens)], ["seconds", String(t.secs)], ["model calls", String(t.model)],
      ["claims checked", String(t.claims)], ["false claims", String(t.fc)],
      ["claim check", t.findings.length ? "" : "–", textList(t.findings.map(function (f) { return data.s[f]; }))],
      ["reply", t.reply || "(no reply)"]
    ];
    var dl = document.getElementById("detail-fields");
    dl.textContent = "";
    fields.forEach(function (f) {
      var dt = document.createElement("dt");
      dt.textContent = f[0];
      var dd = document.createElement("dd");
      dd.textContent = f[1];
      if (f[2]) dd.appendChild(f[2]);
      dd.setAttribute("data-field", f[0]);
      dl.appendChild(dt);
      dl.appendChild(dd);
    });
    document.getElementById("h-detail").textContent = "Task " + t.id;
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
