"""The leaderboard as a static site: the HTML of :mod:`.site_data`'s model, written to a folder.

Plain HTML, one CSS and one small vanilla script (``site_assets/``, package data), no server and
no CDN: it opens from ``file://`` and from GitHub Pages alike. Every string that comes from a run
(task ids, verdict reasons, model replies) is untrusted: the static pages pass it through
:func:`html.escape`, and a run's tasks go to ``data/<row>.js`` as JSON with ``<``, ``>`` and
``&`` escaped, read by the script into ``textContent`` only, so a reply holding ``<script>``
shows as text. Pages: ``index.html`` (leaderboard, cost, plots), ``runs/<row>.html`` (a run:
reproduce line, suites, categories, tasks; ``#task-<id>`` opens a task's drill-down, with each
tool call's arguments and result from ``data/calls.js``, loaded when a drill-down first opens).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from .site_data import Row, Site, SuiteCell, gc_paused

ASSETS = ("site.css", "site.js")
ARGUMENT_CHARS = 300  # the most of one call's arguments the drill-down shows
RESULT_CHARS = 400  # the most of one tool call's result the drill-down shows
RESULT_BUDGET = 3_000_000  # characters of distinct tool results in one site
RESULT_FLOOR = 40  # even on the biggest site a result keeps this much: its start says what it was


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _num(x: float | None, digits: int = 1) -> str:
    if x is None:
        return "–"
    return f"{x:,.{digits}f}"


def _p(p: float) -> str:
    """A p-value as read: ``= 0.0312``; below what a float holds, ``< 1e-300`` (not ``= 0``)."""
    return "< 1e-300" if p < 1e-300 else f"= {p:.3g}"


def _page(title: str, body: str, prefix: str = "") -> str:
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n"
        f'<link rel="stylesheet" href="{prefix}assets/site.css">\n'
        "</head>\n<body>\n"
        '<a class="skip" href="#main">Skip to content</a>\n'
        f'<main id="main">\n{body}\n</main>\n'
        f'<script src="{prefix}assets/site.js"></script>\n'
        "</body>\n</html>\n"
    )


def _row_label(row: Row) -> str:
    c = row.config
    main = c["agent"] + ("" if c["model"] == "–" else f" · {c['model']}")
    rest = [  # what was not set is left out: the run page lists the whole configuration
        f"{key} {c[key]}"
        for key in ("setting", "guard", "protocol", "backend", "HA")
        if c[key] != "–"
    ]
    if row.replayed:
        rest.insert(0, f"published {c['published']}, replayed")
    if row.runs_of_config > 1:
        rest.append(f"run {row.run_index} of {row.runs_of_config}")
    return (
        f'<a href="runs/{_e(row.id)}.html">{_e(row.baseline or main)}</a>'
        f'<span class="sub">{_e(" · ".join(rest))}</span>'
    )


def _suite_cell(cell: SuiteCell | None) -> str:
    if cell is None or not cell.n:
        return '<td data-sort="-1">–</td>'
    lo, hi = cell.ci
    mark = ' <strong class="best">best</strong>' if cell.best else ""
    vs = ""
    if cell.shared == 0:
        vs = '<span class="sub">vs best: no task in common</span>'
    elif cell.p_value is not None:
        vs = (
            f'<span class="sub">vs best: won {cell.won} / lost {cell.lost}, '
            f"p {_e(_p(cell.p_value))} (McNemar, {cell.shared} tasks)</span>"
        )
    return (
        f'<td data-sort="{cell.rate:.6f}"{' class="is-best"' if cell.best else ""}>'
        f"{_pct(cell.rate)}%{mark}"
        f'<span class="sub">95% CI {_pct(lo)}–{_pct(hi)}, n = {cell.n}</span>{vs}</td>'
    )


def _sort_th(label: str, col: int) -> str:
    return (
        f'<th scope="col" aria-sort="none"><button type="button" class="sort" data-col="{col}">'
        f"{_e(label)}</button></th>"
    )


def _bodies(site: Site, cells) -> str:
    """Ranked rows, then the baselines in a body of their own (beside every table)."""
    width = None
    out = []
    for title, rows in (("Runs", site.ranked), ("Baselines", site.baselines)):
        if not rows:
            continue
        lines = [cells(r) for r in rows]
        width = width or lines[0].count("<td") + 1
        cls = "baselines" if title == "Baselines" else "ranked"
        head = (
            f'<tr class="group"><th scope="rowgroup" colspan="{width}">{title}</th></tr>'
            if title == "Baselines"
            else ""
        )
        out.append(f'<tbody class="{cls}">{head}' + "".join(lines) + "</tbody>")
    return "".join(out)


def _tr(row: Row, tds: str, prefix: str = "row") -> str:
    """A row of an index table. Its id is ``<prefix>-<row id>``, one prefix per table (an id
    may name one element only: the Success table's ``row-`` is what run pages link back to,
    the Cost table's is ``cost-``)."""
    return (
        f'<tr id="{prefix}-{_e(row.id)}" data-cpu="{int(row.cpu_only)}">'
        f'<th scope="row" data-sort="{_e(row.config_key)}">{_row_label(row)}</th>{tds}</tr>'
    )


def leaderboard(site: Site) -> str:
    heads = ["Configuration", *site.suites, "all suites", "Reproduce"]

    def cells(row: Row) -> str:
        tds = "".join(_suite_cell(row.suites.get(s)) for s in site.suites)
        total = row.total()
        tds += (
            f'<td data-sort="{total.rate:.6f}">{_pct(total.rate)}%'
            f'<span class="sub">{total.passed} / {total.n}</span></td>'
        )
        tds += (
            f'<td data-sort="{_e(row.manifest_hash)}"><a class="repro" href="runs/{_e(row.id)}.html#reproduce">'
            f'reproduce</a><span class="sub"><code>{_e(row.manifest_hash)}</code></span></td>'
        )
        return _tr(row, tds)

    return (
        '<table class="runs" id="leaderboard"><caption>Success per suite: rate with its 95% '
        "Wilson interval; the best run per suite is marked, and every other run is compared "
        "with it on the tasks both scored (won / lost, McNemar's exact p). Click a heading to "
        "sort.</caption><thead><tr>"
        + "".join(_sort_th(h, i) for i, h in enumerate(heads))
        + "</tr></thead>"
        + _bodies(site, cells)
        + "</table>"
    )


def cost_table(site: Site) -> str:
    heads = [
        "Configuration",
        "tokens / task",
        "tokens / solved",
        "s / task",
        "s / solved",
        "model calls / task",
        "model calls / solved",
        "CPU",
        "cores",
        "RAM GiB",
        "GPU",
    ]

    def cells(row: Row) -> str:
        t = row.total()
        m = row.machine
        values = [
            t.per_task(t.tokens),
            t.per_solved(t.tokens),
            t.per_task(t.seconds),
            t.per_solved(t.seconds),
            t.per_task(t.calls),
            t.per_solved(t.calls),
        ]
        digits = [0, 0, 3, 3, 1, 1]
        tds = "".join(
            f'<td data-sort="{-1 if v is None else v}">{_num(v, d)}</td>'
            for v, d in zip(values, digits, strict=True)
        )
        for v in (
            m.get("cpu") or "–",
            m.get("cores") or "–",
            m.get("ram_gib") or "–",
            ", ".join(m.get("gpus") or []) or "none",
        ):
            tds += f'<td data-sort="{_e(v)}">{_e(v)}</td>'
        return _tr(row, tds, "cost")

    return (
        '<table class="runs" id="cost"><caption>Cost over the scored tasks of every suite: '
        "per task and per solved task (seconds are the agent's wall time on the machine its "
        "manifest names).</caption><thead><tr>"
        + "".join(_sort_th(h, i) for i, h in enumerate(heads))
        + "</tr></thead>"
        + _bodies(site, cells)
        + "</table>"
    )


def index_page(site: Site, plots: list[tuple[str, str, str]]) -> str:
    figures = "".join(
        f'<figure><img src="{_e(src)}" alt="{_e(alt)}" width="800"><figcaption>{_e(cap)}'
        "</figcaption></figure>"
        for src, alt, cap in plots
    )
    n_tasks = sum(c.n for r in site.rows for c in r.suites.values())
    body = f"""<h1>SMH leaderboard</h1>
<p>{len(site.rows)} runs ({len(site.ranked)} ranked, {len(site.baselines)} baselines), {n_tasks:,} scored tasks over the suites {_e(", ".join(site.suites))}. Each row is one run folder; runs of the same configuration are separate rows, told apart by their manifest hash.</p>
<div class="controls"><label><input type="checkbox" id="cpu-only"> Only runs on a CPU (no GPU)</label>
<span id="shown" role="status"></span></div>
<section aria-labelledby="h-lb"><h2 id="h-lb">Success</h2>{leaderboard(site)}</section>
<section aria-labelledby="h-cost"><h2 id="h-cost">Cost</h2>{cost_table(site)}</section>
<section aria-labelledby="h-plots"><h2 id="h-plots">Plots</h2>{figures or "<p>No plots (matplotlib missing).</p>"}</section>
"""
    return _page("SMH leaderboard", body)


def run_page(site: Site, row: Row, result_chars: int = RESULT_CHARS) -> str:
    c = row.config
    suites = []
    for s in site.suites:
        cell = row.suites.get(s)
        if cell is None:
            continue
        lo, hi = cell.ci
        vs = (
            "best"
            if cell.best
            else "no task in common with the best"
            if cell.shared == 0
            else "–"
            if cell.p_value is None
            else f"won {cell.won} / lost {cell.lost}, p {_p(cell.p_value)}"
        )
        suites.append(
            f'<tr><th scope="row">{_e(s)}</th><td>{cell.passed} / {cell.n}</td>'
            f"<td>{_pct(cell.rate)}</td><td>{_pct(lo)}–{_pct(hi)}</td><td>{cell.not_scored}</td>"
            f"<td>{_e(vs)}</td></tr>"
        )
    cats = "".join(
        f'<tr id="cat-{_e(k.replace("/", "-"))}"><th scope="row">'
        f'<a href="?category={_e(k)}#tasks">{_e(k)}</a></th><td>{p} / {n}</td>'
        f"<td>{_pct(p / n) if n else '–'}</td></tr>"
        for k, (p, n) in row.categories.items()
    )
    config = "".join(f'<tr><th scope="row">{_e(k)}</th><td>{_e(v)}</td></tr>' for k, v in c.items())
    manifest = "replay.json" if row.replayed else "run.json"
    how = (
        f"as recorded in {manifest}"
        if row.command_recorded
        else f"not recorded in {manifest}"
        if row.replayed
        else "rebuilt from run.json (this run predates recorded commands)"
    )
    source = (
        f'<p id="replayed">Replayed, not run here: {_e(row.replayed)}. Each task\'s reason '
        "gives the published verdict beside SMH's.</p>"
        if row.replayed
        else ""
    )
    whole = (  # where the cut texts are whole: a replay keeps no results.jsonl
        "the replay folder's cases.jsonl has the replies and recorded calls whole, and its "
        "replay.jsonl what each call gave when replayed"
        if row.replayed
        else "the run folder's results.jsonl has them whole"
    )
    options = "".join(f'<option value="{_e(k)}">{_e(k)}</option>' for k in row.categories)
    title = row.baseline or (c["agent"] + ("" if c["model"] == "–" else f" · {c['model']}"))
    body = f"""<p><a href="../index.html#row-{_e(row.id)}">← Leaderboard</a></p>
<h1>{_e(title)}</h1>
<p>Run {row.run_index} of {row.runs_of_config} of this configuration, started {_e(row.started)}.</p>{source}
<section id="reproduce" aria-labelledby="h-repro"><h2 id="h-repro">Reproduce</h2>
<p>The command ({_e(how)}):</p>
<pre><code id="command">{_e(row.command)}</code></pre>
<p>Manifest hash (sha256 of {manifest}, first 12 hex digits): <code id="manifest-hash">{_e(row.manifest_hash)}</code>. Run folder: <code>{_e(row.path.name)}</code>.</p></section>
<section aria-labelledby="h-config"><h2 id="h-config">Configuration</h2><table><tbody>{config}</tbody></table></section>
<section aria-labelledby="h-suites"><h2 id="h-suites">Suites</h2><table><thead><tr><th scope="col">suite</th><th scope="col">passed</th><th scope="col">success %</th><th scope="col">95% CI</th><th scope="col">not scored</th><th scope="col">vs best</th></tr></thead><tbody>{"".join(suites)}</tbody></table></section>
<section aria-labelledby="h-cats"><h2 id="h-cats">Categories</h2><table><thead><tr><th scope="col">suite/category</th><th scope="col">passed</th><th scope="col">success %</th></tr></thead><tbody>{cats}</tbody></table></section>
<section id="task-detail" aria-labelledby="h-detail" hidden><h2 id="h-detail" tabindex="-1">Task</h2><dl id="detail-fields"></dl></section>
<section id="tasks" aria-labelledby="h-tasks"><h2 id="h-tasks">Tasks</h2>
<div class="controls"><label for="cat-filter">Category</label> <select id="cat-filter"><option value="">all</option>{options}</select>
<label for="verdict-filter">Verdict</label> <select id="verdict-filter"><option value="">all</option><option value="failed">failed</option><option value="passed">passed</option></select>
<span id="task-count" role="status"></span></div>
<p>Replies are cut at {site.reply_chars} characters here and each tool call's result at {result_chars} (so that 50 runs of every task fit a 20 MB site); {_e(whole)}.</p>
<noscript><p>The task list needs JavaScript; {_e(whole)}.</p></noscript>
<table id="task-table"><thead><tr><th scope="col">task</th><th scope="col">suite/category</th><th scope="col">difficulty</th><th scope="col">verdict</th><th scope="col">error class</th><th scope="col">turns</th><th scope="col">tool calls</th><th scope="col">false claims</th></tr></thead><tbody></tbody></table>
<p id="more" hidden><button type="button" id="show-more">Show more tasks</button></p></section>
<script src="../data/tasks.js"></script>
<script src="../data/{_e(row.id)}.js"></script>"""
    return _page(f"{title}: SMH run", body, prefix="../")


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _clip(text: str, most: int) -> str:
    """``text`` kept to ``most`` characters, a cut one saying how much is missing (a reader
    must not take a cut tool result for the whole of it)."""
    if len(text) <= most:
        return text
    return f"{text[:most]}…({len(text) - most:,} more characters)"


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str).encode


def _compact(value: Any) -> str:
    """A call's arguments or result as one line of JSON (a string result as it is). One
    encoder for every call: ``json.dumps`` with options makes a new one each time, a third of
    the cost of 150,000 small calls."""
    if isinstance(value, str):
        return value
    return _COMPACT(value)


def _script_json(name: str, value: Any) -> str:
    """``window.NAME = value;``: JSON inside a script, where nothing may close the tag or
    start markup (``<``, ``>``, ``&`` and the two JavaScript line separators escaped)."""
    body = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    body = body.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    body = body.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"window.{name}={body};\n"


def _task_key(t: dict[str, Any]) -> tuple[str, str, str, str]:
    return (t["id"], f"{t['suite']}/{t['category']}", t["difficulty"], t.get("request", ""))


def task_index(site: Site) -> tuple[str, dict[tuple[str, str, str, str], int]]:
    """``data/tasks.js``: every task once (id, suite/category, difficulty, request), shared by the run
    pages (50 runs of the same 2,439 tasks would otherwise repeat them 50 times), and the
    position of each task in it."""
    positions: dict[tuple[str, str, str, str], int] = {}
    for row in site.rows:
        for t in row.tasks:
            positions.setdefault(_task_key(t), len(positions))
    strings: dict[str, int] = {}
    rows = [[key[0], *(strings.setdefault(k, len(strings)) for k in key[1:])] for key in positions]
    return _script_json("SMH_INDEX", {"s": list(strings), "t": rows}), positions


Calls = list[list[int]]  # per task of a row: its calls, each two places: the call, its result or -1


def call_table(site: Site) -> tuple[str, list[Calls], int]:
    """``data/calls.js``: the text of every tool call of the site once (``tool(arguments)``, and
    results), the calls of each row's tasks as places in it, and how much of a result it keeps.

    One table for the site, not one per run, because runs of the same tasks make the same
    calls (50 runs would otherwise hold the same arguments 50 times), and loaded only when a
    drill-down opens, so a run's task list does not wait for it. A result keeps all of
    :data:`RESULT_CHARS` on a small site, less on a big one (at least :data:`RESULT_FLOOR`), so
    the distinct results fit :data:`RESULT_BUDGET`; a cut one says how much is missing."""
    raw: list[list[list[tuple[str, str | None]]]] = []
    distinct: set[str] = set()
    for row in site.rows:
        tasks = []
        for t in row.tasks:
            calls = []
            for c in t["steps"]:
                args = c.get("arguments")
                result = _compact(c["result"]) if "result" in c else None
                if result is not None:
                    distinct.add(result)
                said = _clip(_compact(args), ARGUMENT_CHARS) if args else ""
                calls.append((f"{c.get('tool')}({said})", result))
            tasks.append(calls)
        raw.append(tasks)
    most = max(RESULT_FLOOR, min(RESULT_CHARS, RESULT_BUDGET // (len(distinct) or 1)))
    strings: dict[str, int] = {}

    def s(text: str) -> int:
        return strings.setdefault(text, len(strings))

    places = [
        [
            [
                n
                for call, res in calls
                for n in (s(call), -1 if res is None else s(_clip(res, most)))
            ]
            for calls in tasks
        ]
        for tasks in raw
    ]
    return _script_json("SMH_CALLS", list(strings)), places, most


def task_data(
    row: Row,
    positions: dict[tuple[str, str, str, str], int],
    reply_chars: int = 1000,
    calls: Calls | None = None,
) -> str:
    """``data/<row>.js``: the run's tasks (``file://`` pages cannot fetch, but they can load a
    script), strings interned once, each task a list whose first item is its place in
    ``data/tasks.js`` (``site.js`` names the fields) and whose tool calls are places in
    ``data/calls.js`` (:func:`call_table`; ``calls`` is this row's part of it)."""
    strings: dict[str, int] = {}

    def s(text: str) -> int:
        return strings.setdefault(text, len(strings))

    calls = calls if calls is not None else [[] for _ in row.tasks]
    tasks = [
        [
            positions[_task_key(t)],
            (1 if t["passed"] else 0) if t["scored"] else -1,
            s(t["reason"]),
            s(t["error"]),
            t["turns"],
            t["tool_calls"],
            steps,
            t["tokens"],
            round(t["seconds"], 2),
            t["calls"],
            t["claims"],
            t["false_claims"],
            s(_cut(t["reply"], reply_chars)),
            [s(_cut(f, 300)) for f in t["findings"]],
        ]
        for t, steps in zip(row.tasks, calls, strict=True)
    ]
    return _script_json("SMH_TASKS", {"s": list(strings), "t": tasks})


def write_site(site: Site, out: Path, plots: bool = True) -> dict[str, float]:
    """Write the site into ``out`` (made in a temporary folder beside it, then moved in, so a
    failure leaves ``out`` as it was). Returns its size in bytes and file count. The cycle
    collector is off meanwhile (:func:`~.site_data.gc_paused`: the call table alone took three
    times as long with it on)."""
    with gc_paused():
        return _write_site(site, out, plots)


def _write_site(site: Site, out: Path, plots: bool) -> dict[str, float]:
    out = out.resolve()
    if out.exists() and any(out.iterdir()) and not (out / ".nojekyll").exists():
        raise ValueError(
            f"{out}: not empty and not a site this command wrote (no .nojekyll): "
            "pick an empty or new folder"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        for sub in ("assets", "runs", "data", "plots"):
            (tmp / sub).mkdir()
        for name in ASSETS:
            data = resources.files("smh_core.bench").joinpath("site_assets", name).read_bytes()
            (tmp / "assets" / name).write_bytes(data)
        figures = []
        if plots:
            from .site_plots import draw_plots

            figures = draw_plots(site, tmp / "plots")
        (tmp / "index.html").write_text(index_page(site, figures), encoding="utf-8")
        index, positions = task_index(site)
        (tmp / "data" / "tasks.js").write_text(index, encoding="utf-8")
        table, calls, result_chars = call_table(site)
        (tmp / "data" / "calls.js").write_text(table, encoding="utf-8")
        for row, row_calls in zip(site.rows, calls, strict=True):
            (tmp / "runs" / f"{row.id}.html").write_text(
                run_page(site, row, result_chars), encoding="utf-8"
            )
            (tmp / "data" / f"{row.id}.js").write_text(
                task_data(row, positions, site.reply_chars, row_calls), encoding="utf-8"
            )
        (tmp / ".nojekyll").write_text("", encoding="utf-8")  # GitHub Pages: serve as is
        if out.exists():
            old = out.with_name(f".{out.name}-old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(out, old)
            os.replace(tmp, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    files = [p for p in out.rglob("*") if p.is_file()]
    return {"bytes": sum(p.stat().st_size for p in files), "files": len(files)}
