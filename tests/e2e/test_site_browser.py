"""`smh report site` opened from disk in headless Chromium, as a reader uses it: sort by a column
(mouse and keyboard), keep only runs on a CPU, follow a row's reproduce link to its command and
manifest hash, open a task's drill-down by its link (each tool call's result, cut where long, and
the claim check's findings), with no console error, no id naming two elements, nothing fetched but
the site's own files, and axe-core's WCAG 2 A/AA rules passing on both kinds of page.

Two sites: the sample site of ``scripts/sample_site.py`` (built here, as CI's copy of it, into
``$SMH_ARTIFACTS/sample-site/``: oracle, null, HA's Assist on a sample and the replayed published
traces of tests/fixtures/ha_traces; the local model is left out, minutes on two cores), whose
baselines and a replayed model's drill-down are read; and one adding two made-up model runs to
its oracle and null (a hostile reply, a GPU machine) for sorting and filtering.

Screenshots: ``$SMH_ARTIFACTS/site/`` (default ``artifacts/site/``; CI uploads ``artifacts/``).
Browser set-up and skip rule: :mod:`tests.e2e.ui_browser`.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sys
import time
from pathlib import Path

from playwright.async_api import Page, Route, async_playwright

from smh_core.bench.site_data import build
from smh_core.bench.site_html import write_site
from tests.bench.test_site import TASKS, make_run

from .ui_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    artifact_dir,
    require_chromium,
    run_in_own_loop,
)

sys.path.insert(0, str(ROOT / "scripts"))
import sample_site  # noqa: E402

HOSTILE = "<script>window.pwned = 1</script> I turned it off."
LONG = {"devices": [f"light.room_{k}" for k in range(100)]}  # ~2,000 characters: cut on the page
CALLS = [
    {"tool": "list_devices", "arguments": {}, "result": LONG},
    {"tool": "control_device", "arguments": {"did": "1001"}, "result": {"error": HOSTILE}},
]
DUPLICATE_IDS = """() => {
  const ids = Array.from(document.querySelectorAll('[id]'), e => e.id);
  return ids.filter((id, i) => ids.indexOf(id) !== i);
}"""
# preload off: axe would read the stylesheets again by XMLHttpRequest, which file:// refuses
# (a console error of axe's, not the site's); contrast is read from computed styles regardless
AXE_RULES = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "preload": False,
}


def _sample_site(tmp: Path, sample: sample_site.Built) -> tuple[Path, dict[str, Path]]:
    runs = {agent: sample.runs[agent] for agent in ("oracle", "null")}  # real runs of the suite
    outcomes = {t: i % 3 != 0 for i, t in enumerate(TASKS)}
    runs["cpu"] = make_run(
        tmp / "cpu", outcomes, model="small-cpu", suite="sample", reply=HOSTILE, calls=CALLS
    )
    gpu = {"cpu": "Big CPU", "cores": 32, "ram_gib": 256.0, "gpus": ["NVIDIA L4"]}
    runs["gpu"] = make_run(
        tmp / "gpu", dict.fromkeys(TASKS, True), model="big-gpu", suite="sample", machine=gpu
    )
    site = tmp / "site"
    write_site(build(list(runs.values())), site)
    return site, runs


async def _axe(page: Page) -> list[str]:
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page, options=AXE_RULES)
    checked = {p["id"] for p in results.response["passes"]}
    assert {"color-contrast", "label", "th-has-data-cells"} & checked, "axe checked nothing"
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
    ]


async def _walk(site: Path, runs: dict[str, Path], shots: Path) -> dict[str, object]:
    errors: list[str] = []
    fetched: list[str] = []
    seen: dict[str, object] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context(viewport={"width": 1440, "height": 900})

            async def outside(route: Route) -> None:  # no CDN, no server: only the site's files
                fetched.append(route.request.url)
                await route.abort()

            await context.route(lambda url: not url.startswith("file://"), outside)
            page = await context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            await page.goto((site / "index.html").as_uri())
            await page.screenshot(path=shots / "01-leaderboard.png", full_page=True)
            seen["axe_index"] = await _axe(page)
            seen["dup_index"] = await page.evaluate(DUPLICATE_IDS)

            def order() -> str:
                return "Array.from(document.querySelectorAll('#leaderboard tbody.ranked tr')).map(r => r.id)"

            button = page.locator("#leaderboard thead button.sort", has_text="sample")
            await button.click()
            seen["sorted_desc"] = await page.evaluate(order())
            seen["aria_desc"] = (
                await page.locator("#leaderboard thead th").nth(1).get_attribute("aria-sort")
            )
            await button.focus()
            await page.keyboard.press("Enter")  # the same control from the keyboard
            seen["sorted_asc"] = await page.evaluate(order())
            await page.screenshot(path=shots / "02-sorted.png", full_page=True)

            await page.locator("#cpu-only").check()
            seen["cpu_rows"] = await page.evaluate(
                "Array.from(document.querySelectorAll('#leaderboard tr[data-cpu]'))"
                ".filter(r => !r.hidden).map(r => r.id)"
            )
            seen["cpu_status"] = await page.locator("#shown").text_content()
            await page.screenshot(path=shots / "03-cpu-only.png", full_page=True)

            row = build([runs["cpu"]]).rows[0]
            await page.locator(f"#row-{row.id} a.repro").click()
            await page.wait_for_selector("#command")
            seen["repro_url"] = page.url
            seen["command"] = await page.locator("#command").text_content()
            seen["hash"] = await page.locator("#manifest-hash").text_content()
            seen["dup_run"] = await page.evaluate(DUPLICATE_IDS)
            await page.screenshot(path=shots / "04-reproduce.png", full_page=True)

            failed = page.locator("#task-table a", has_text="a0")
            await failed.click()
            await page.wait_for_selector("#task-detail:not([hidden])")
            seen["detail_url"] = page.url
            seen["reply"] = await page.locator(
                '#detail-fields dd[data-field="reply"]'
            ).text_content()
            seen["reason"] = await page.locator(
                '#detail-fields dd[data-field="reason"]'
            ).text_content()
            await page.wait_for_selector("#detail-fields ol.calls")  # data/calls.js, loaded now
            seen["results"] = await page.locator(
                "#detail-fields ol.calls .result"
            ).all_text_contents()
            seen["claim_check"] = await page.locator(
                '#detail-fields dd[data-field="claim check"] li'
            ).all_text_contents()
            seen["pwned"] = await page.evaluate("typeof window.pwned")
            await page.screenshot(path=shots / "05-task.png", full_page=True)
            seen["axe_run"] = await _axe(page)

            fresh = await context.new_page()  # the drill-down's address works on its own
            fresh.on("pageerror", lambda e: errors.append(str(e)))
            await fresh.goto(str(seen["detail_url"]))
            await fresh.wait_for_selector("#task-detail:not([hidden])")
            seen["fresh_heading"] = await fresh.locator("#h-detail").text_content()
        finally:
            await browser.close()
    seen["errors"] = errors
    seen["fetched"] = fetched
    return seen


async def _walk_sample(site: Path, replayed: str, shots: Path) -> dict[str, object]:
    """The sample site: its baselines, a replayed model's page and task, the oracle's task."""
    errors: list[str] = []
    seen: dict[str, object] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1440, "height": 900})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            await page.goto((site / "index.html").as_uri())
            await page.screenshot(path=shots / "06-sample-leaderboard.png", full_page=True)
            seen["axe_index"] = await _axe(page)
            seen["baselines"] = await page.locator(
                "#leaderboard tbody.baselines th[scope=row] a"
            ).all_text_contents()
            seen["plots"] = await page.locator("#h-plots ~ figure img").count()
            seen["dup_index"] = await page.evaluate(DUPLICATE_IDS)
            await page.locator(f"#row-{replayed} th a").click()
            await page.wait_for_selector("#replayed")
            seen["source"] = await page.locator("#replayed").text_content()
            link = page.locator("#task-table a", has_text="dim_the_desk_lamp")
            await link.first.click()
            await page.wait_for_selector("#task-detail:not([hidden])")
            await page.wait_for_selector("#detail-fields ol.calls")
            seen["results"] = await page.locator(
                "#detail-fields ol.calls .result"
            ).all_text_contents()
            seen["dup_run"] = await page.evaluate(DUPLICATE_IDS)
            for field in ("request", "reason", "tool calls"):
                seen[field] = await page.locator(
                    f'#detail-fields dd[data-field="{field}"]'
                ).text_content()
            await page.screenshot(path=shots / "07-replayed-task.png", full_page=True)
            seen["axe_run"] = await _axe(page)
            await page.goto((site / "index.html").as_uri())
            await page.locator("#leaderboard a", has_text="oracle (reference)").click()
            await page.wait_for_selector("#task-table a")
            await page.locator("#task-table a", has_text="exec-1").click()
            await page.wait_for_selector("#task-detail:not([hidden])")
            seen["oracle_request"] = await page.locator(
                '#detail-fields dd[data-field="request"]'
            ).text_content()
        finally:
            await browser.close()
    seen["errors"] = errors
    return seen


def test_site_in_a_browser(tmp_path: Path) -> None:
    require_chromium()
    shots = artifact_dir() / "site"
    shots.mkdir(parents=True, exist_ok=True)
    for old in shots.glob("*.png"):  # no stale screenshot looks current
        old.unlink()
    started = time.monotonic()
    # CI installs the local model first (make local-llm): its row answers two sample tasks
    local = sample_site.local_unavailable() is None
    sample = sample_site.build_sample(artifact_dir() / "sample-site", local_limit=2)
    print(f"sample site: {time.monotonic() - started:.1f} s, built in {sample.seconds:.1f} s")
    assert sample.site is not None and set(sample.skipped) <= {
        *([] if local else ["local model"]),
        *(["HA Assist and the replayed published models"] if sample_site.ha_unavailable() else []),
    }
    if local:
        (row,) = build([sample.runs["local"]]).rows
        assert row.baseline is None and len(row.tasks) == 2, (row.config, len(row.tasks))
    if "replayed" in sample.runs:
        from smh_core.importers.replay_site import ReplayReader

        rows = build([sample.runs["replayed"]], (ReplayReader(),)).rows
        model_a = next(r for r in rows if r.config["model"] == "model-a")
        got = run_in_own_loop(_walk_sample(sample.site, model_a.id, shots))
        assert got["axe_index"] == [] and got["axe_run"] == [] and got["errors"] == []
        assert {"oracle (reference)", "do-nothing (null)", "HA Assist (no LLM)"} <= set(
            got["baselines"]  # type: ignore[arg-type]
        )
        assert {"model-a (replayed)", "model-b (replayed)"} <= set(got["baselines"])  # type: ignore[arg-type]
        assert "home-assistant-datasets reports/assist-mini/2025.4.3" in str(got["source"])
        assert str(got["request"]).lower().startswith("dim the desk lamp")
        assert "published verdict: Good" in str(got["reason"])
        assert "HassLightSet" in str(got["tool calls"])
        assert got["results"] and all(  # what each recorded call gave when replayed in HA
            r.startswith('→ {"ok":')
            for r in got["results"]  # type: ignore[union-attr]
        )
        assert got["dup_index"] == [] and got["dup_run"] == []
        assert got["oracle_request"] == "Turn on the bedroom lamp and set it to 30%."
        assert got["plots"] >= 2  # type: ignore[operator]
    site, runs = _sample_site(tmp_path, sample)
    seen = run_in_own_loop(_walk(site, runs, shots))

    rows = {r.path.name: r for r in build(list(runs.values())).rows}
    gpu, cpu = f"row-{rows['gpu'].id}", f"row-{rows['cpu'].id}"
    assert seen["sorted_desc"] == [gpu, cpu] and seen["aria_desc"] == "descending"
    assert seen["sorted_asc"] == [cpu, gpu]
    assert gpu not in seen["cpu_rows"] and cpu in seen["cpu_rows"]
    assert seen["cpu_status"] == "3 of 4 runs shown (CPU only)"  # the baselines ran on a CPU
    manifest = (runs["cpu"] / "run.json").read_bytes()
    assert str(seen["repro_url"]).endswith("#reproduce")
    assert seen["command"] == shlex.join(json.loads(manifest)["command"])
    assert seen["hash"] == hashlib.sha256(manifest).hexdigest()[:12]
    assert str(seen["detail_url"]).endswith("#task-a0")
    assert seen["reply"] == HOSTILE and seen["pwned"] == "undefined"  # shown as text, not run
    assert seen["reason"] == "wrong device" and seen["fresh_heading"] == "Task a0"
    whole = json.dumps(LONG, separators=(",", ":"))
    assert seen["results"] == [
        f"→ {whole[:400]}…({len(whole) - 400:,} more characters)",
        "→ " + json.dumps({"error": HOSTILE}, separators=(",", ":")),  # shown as text, not run
    ]
    assert seen["claim_check"] == ["false: action \u201cDone\u201d (no change)"]
    assert seen["dup_index"] == [] and seen["dup_run"] == []  # no id names two elements
    assert seen["axe_index"] == [] and seen["axe_run"] == []
    assert seen["errors"] == [] and seen["fetched"] == []
    assert len(list(shots.glob("*.png"))) == (7 if "replayed" in sample.runs else 5)
