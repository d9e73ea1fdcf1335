"""``make bench-languages``: HA's built-in Assist agent (``conversation.home_assistant``) on the
``intents`` suite, language by language, inside one real Home Assistant (issue 41, item 2).

Per language: the suite's tasks are generated (seeded, every one validated as ``smh tasks
generate`` does) and a stratified sample of ``--limit`` taken over the intents; the language's
home is written into HA's config dir and the SMH entry switched to it (HA's options flow);
HA's own language is set to the task language (``config/core/update``), the areas no device
uses any more (the previous language's, onboarding's English ones) are deleted, and what HA
exposes to Assist is checked against the task home (every device one exposed entity of its
domain, named and placed as the tasks name it). Only then are the tasks sent to
``/api/conversation/process`` with ``language`` set to the task's, and scored inside HA by
``smh.verify`` (:func:`smh_core.ha.runner.run_via_ha`). A language whose home HA does not
show as the tasks name it is not run: its tasks count as infra failures, with why.

Writes ``<out>/<lang>/results.jsonl`` per language (re-running resumes), the per-language
table in ``<out>/languages.md`` and its figures in ``<out>/languages.json``.

    python scripts/bench_ha_languages.py [--language de --language fr] [--limit 40] [--seed 0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO))
import aiohttp  # noqa: E402
import ha_instance  # noqa: E402

from smh_core.ha.assist_languages import (  # noqa: E402
    DEFAULT_LANGUAGES,
    Expected,
    LanguageRow,
    device_entities,
    exposure_problems,
    language_row,
    markdown,
    sample_tasks,
)
from smh_core.ha.runner import (  # noqa: E402
    DEFAULT_HOME_DIR,
    TURN_TIMEOUT,
    HaClient,
    HomeUnavailable,
    run_via_ha,
)
from smh_core.ha.websocket import ws_calls  # noqa: E402
from smh_core.task.model import Task  # noqa: E402

AGENT = "conversation.home_assistant"
POOL = 300
"""Tasks generated per language before sampling (the suite's default count)."""


def free_port() -> int:
    from smh_core.llm.local import free_port as port

    return port()


def language_tasks(
    language: str, seed: int, config_dir: Path, out: Path, pool: int = POOL
) -> tuple[str, list[Task]]:
    """The language's code as the suite spells it and its ``pool`` validated tasks; its home is
    written to HA's home dir (where the runner points the entry) and, with the tasks, under
    ``out``."""
    from smh_core.homeenv.engine import dump_home
    from smh_core.suites.common import validate
    from smh_core.suites.intents.suite import IntentHomes, generate_language, home_file
    from smh_core.task.model import dump_task

    r = generate_language(language, seed, pool)
    if r.home is None or not r.tasks:
        raise SystemExit(f"{r.language}: no tasks: {r.skipped.get('*', 'no intent written')}")
    validate(r.tasks, IntentHomes({r.language: r.home}))
    text = dump_home(r.home)
    home_name = Path(home_file(r.language)).name
    (config_dir / DEFAULT_HOME_DIR).mkdir(parents=True, exist_ok=True)
    (config_dir / DEFAULT_HOME_DIR / home_name).write_text(text, encoding="utf-8")
    (out / "tasks" / "homes").mkdir(parents=True, exist_ok=True)
    (out / "tasks" / "homes" / home_name).write_text(text, encoding="utf-8")
    (out / "tasks" / f"{r.language}.jsonl").write_text(
        "".join(dump_task(t) + "\n" for t in r.tasks), encoding="utf-8"
    )
    return r.language, r.tasks


def expected_devices(language: str) -> list[Expected]:
    """Per device of the language's home: id, name, HA domain, area name, device class."""
    from smh_core.suites.intents.home import language_home

    lh = language_home(language)
    return [
        (e.did, e.name, e.domain, lh.areas.get(e.area or ""), e.device_class) for e in lh.entities
    ]


async def registries(url: str, token: str) -> dict[str, Any]:
    """HA's registries, states and Assist exposure, as :func:`exposure_problems` reads them."""
    devices, entities, areas, exposed = await ws_calls(
        url,
        token,
        [
            {"type": "config/device_registry/list"},
            {"type": "config/entity_registry/list"},
            {"type": "config/area_registry/list"},
            {"type": "homeassistant/expose_entity/list"},
        ],
    )
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{url}/api/states", headers={"Authorization": f"Bearer {token}"}) as r,
    ):
        states = await r.json()
    return {
        "devices": devices,
        "entities": entities,
        "areas": areas,
        "states": states,
        "exposed": exposed.get("exposed_entities", {}),
    }


CONFIG_LANGUAGE = {"zh-CN": "zh-Hans", "zh-HK": "zh-Hant", "zh-TW": "zh-Hant"}
"""Intents languages HA's own language setting spells otherwise (it takes ``zh-Hans``, not
``zh-CN``; the conversation API takes the intents code)."""


async def drop_areas(url: str, token: str) -> None:
    """Delete every area, so the next home's are created under its own names: an area of the
    same name but another case ("Garage", the German home's, for the French "garage") would
    otherwise be reused as it is, and Assist would show the old spelling."""
    [areas] = await ws_calls(url, token, [{"type": "config/area_registry/list"}])
    await ws_calls(
        url,
        token,
        [{"type": "config/area_registry/delete", "area_id": a["area_id"]} for a in areas],
    )


async def host_language(url: str, token: str, entry_id: str, language: str, task: Task) -> None:
    """Make HA speak ``language`` and host its home, with its areas only; raises
    :class:`HomeUnavailable` with every difference when Assist would not see the home as the
    tasks name it."""
    setting = CONFIG_LANGUAGE.get(language, language)
    await ws_calls(url, token, [{"type": "config/core/update", "language": setting}])
    await drop_areas(url, token)
    async with aiohttp.ClientSession() as session:
        client = HaClient(url, token, session)
        if await client.switch_home(entry_id, task.home) is None:  # hosted already: reload
            await client.reload_entry(entry_id)
            await client.wait_for_home(entry_id, task.home.ha_key())
    expected = expected_devices(language)
    found, _ = device_entities(entry_id, expected, await registries(url, token))
    if found:  # HA exposes no lock or valve to Assist by default: the user of this home would
        await ws_calls(
            url,
            token,
            [
                {
                    "type": "homeassistant/expose_entity",
                    "assistants": ["conversation"],
                    "entity_ids": sorted(e["entity_id"] for e in found.values()),
                    "should_expose": True,
                }
            ],
        )
    problems = exposure_problems(entry_id, expected, await registries(url, token))
    if problems:
        raise HomeUnavailable(
            f"HA does not expose the {language} home as its tasks name it: " + "; ".join(problems)
        )


async def run_language(
    inst: Any, language: str, asked: list[Task], out: Path, turn_timeout: float, quiet: bool
) -> LanguageRow:
    """One language's tasks through HA's agent; its row (infra failures counted apart)."""
    run_dir = out / language
    run_dir.mkdir(parents=True, exist_ok=True)
    try:
        await host_language(inst.url, inst.token, inst.entry_id, language, asked[0])
    except (HomeUnavailable, RuntimeError) as err:
        print(f"{language}: not run: {err}", file=sys.stderr)
        return language_row(language, asked, [], {f"home not hosted: {err}": len(asked)})
    run = await run_via_ha(
        asked,
        inst.url,
        inst.token,
        AGENT,
        run_dir,
        config_entry_id=inst.entry_id,
        progress=not quiet,
        turn_timeout=turn_timeout,
        language=language,
    )
    return language_row(language, asked, run.log.records(), run.skipped)


def row_json(row: LanguageRow) -> dict[str, Any]:
    rate = row.rate()
    return {
        "language": row.language,
        "tasks": row.tasks,
        "scored": row.scored,
        "passed": row.passed,
        "rate": rate[0] if rate else None,
        "wilson95": list(rate[1:]) if rate else None,
        "outcomes": dict(row.outcomes),
        "per_intent": {k: dict(v) for k, v in sorted(row.per_intent.items())},
        "infra": row.infra,
        "infra_reasons": row.infra_reasons,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--language",
        action="append",
        help=f"language code (repeatable; default: {' '.join(DEFAULT_LANGUAGES)})",
    )
    p.add_argument("--limit", type=int, default=40, help="tasks per language (0: all; default 40)")
    p.add_argument("--seed", type=int, default=0, help="generation and sampling seed (default 0)")
    p.add_argument(
        "--out", type=Path, default=REPO / "runs" / "bench-languages", help="output folder"
    )
    p.add_argument("--port", type=int, default=0, help="hass port on 127.0.0.1 (default: free)")
    p.add_argument("--turn-timeout", type=float, default=TURN_TIMEOUT, help="seconds per turn")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    args = p.parse_args(argv)
    if args.limit < 0:
        p.error("--limit must be 0 (all) or more")
    out: Path = args.out.resolve()
    config_dir = out / "ha-config"
    config_dir.mkdir(parents=True, exist_ok=True)
    asked: dict[str, list[Task]] = {}
    for lang in args.language or DEFAULT_LANGUAGES:
        code, tasks = language_tasks(lang, args.seed, config_dir, out)
        asked[code] = sample_tasks(tasks, args.limit, args.seed)
        print(f"{code}: {len(tasks)} tasks generated, {len(asked[code])} sampled")
    ha_instance.stop_on_sigterm()
    started = time.monotonic()
    inst = asyncio.run(
        ha_instance.launch(config_dir, args.port or free_port(), "simple", 0, time_scale=0.0)
    )
    rows: list[LanguageRow] = []
    try:

        async def version() -> str | None:
            async with aiohttp.ClientSession() as session:
                return await HaClient(inst.url, inst.token, session).version()

        ha_version = asyncio.run(version())
        print(f"Home Assistant {ha_version} on {inst.url} (log: {config_dir / 'hass.log'})")
        for code, tasks in asked.items():
            rows.append(
                asyncio.run(run_language(inst, code, tasks, out, args.turn_timeout, args.quiet))
            )
            print(markdown(rows[-1:]).splitlines()[2])
    finally:
        inst.stop()
    command = "python scripts/bench_ha_languages.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    header = (
        f"HA {ha_version}, agent {AGENT}, seed {args.seed}, limit {args.limit} per language; "
        f"`{command.strip()}`; {time.monotonic() - started:.0f} s.\n"
    )
    table = markdown(rows, header)
    (out / "languages.md").write_text(table, encoding="utf-8")
    (out / "languages.json").write_text(
        json.dumps(
            {
                "ha_version": ha_version,
                "agent": AGENT,
                "seed": args.seed,
                "limit": args.limit,
                "command": command.strip(),
                "languages": [row_json(r) for r in rows],
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print("\n" + table)
    return 0 if any(r.scored for r in rows) else 1


if __name__ == "__main__":
    sys.exit(ha_instance.exit_code(main))
