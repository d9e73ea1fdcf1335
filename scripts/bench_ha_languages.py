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

``--ha newest`` runs the newest HA (2026.11, Python 3.14) instead of 2026.2.3: its hass is
started through ``scripts/ha_current.sh --python`` (the root and venv of CI's newest lane; the
tasks are generated here, so both HAs get the same sentences). ``--agent smh`` sends the tasks
to SMH's own conversation agent inside HA instead of Assist: the SMH entry's agent section is
set through its options flow (as ``make demo`` does) to ``--base-url``/``--model``, or to the
bundled local model (``make local-llm``), started here; a turn the model server failed or did
not answer in time is an infra failure, not the agent's (:mod:`smh_core.ha.language_agents`).
Each HA and agent has its own default output folder.

``--templates newest`` generates the tasks from the newest HA's sentence templates instead (its
home-assistant-intents, through the same Python as ``--ha newest``; in a child process that writes
the tasks and the home, read back and validated here): with ``--ha newest``, HA 2026.11 on the
sentences it ships. The default, ``oldest``, keeps both HAs on 2026.2.3's sentences (comparable);
HA 2026.11's templates were largely rewritten, so the two measure different things, and the
table's header names the templates' versions.

    python scripts/bench_ha_languages.py [--language de --language fr] [--limit 40] [--seed 0]
        [--ha oldest|newest] [--templates oldest|newest]
        [--agent assist|smh [--base-url URL --model NAME [--api-key KEY]]]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO))
import aiohttp  # noqa: E402
import ha_instance  # noqa: E402
from ha_assistant import AgentConfig, configure_agent  # noqa: E402

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
from smh_core.ha.language_agents import (  # noqa: E402
    AGENT_LABELS,
    AGENTS,
    ASSIST_AGENT,
    BENCH_HOME,
    default_out,
    infra_reason,
)
from smh_core.ha.runner import (  # noqa: E402
    DEFAULT_HOME_DIR,
    TURN_TIMEOUT,
    HaClient,
    HomeUnavailable,
    run_via_ha,
)
from smh_core.ha.websocket import HaSocket, entry_entity, ws_calls  # noqa: E402
from smh_core.task.model import Task  # noqa: E402

AGENT = ASSIST_AGENT
SMH_TURN_TIMEOUT = 300.0
"""Seconds per turn for SMH's agent: a small local model on a shared 2-core machine takes tens
of seconds per turn (several model calls); a turn it misses is an infra failure."""
POOL = 300
"""Tasks generated per language before sampling (the suite's default count)."""


def free_port() -> int:
    from smh_core.llm.local import free_port as port

    return port()


def generated(language: str, seed: int, pool: int = POOL) -> tuple[str, str, list[str]]:
    """The language's code as the suite spells it, its home's JSON and its ``pool`` tasks (one
    JSON line each), every task validated against the home."""
    from smh_core.homeenv.engine import dump_home
    from smh_core.suites.common import validate
    from smh_core.suites.intents.suite import IntentHomes, generate_language
    from smh_core.task.model import dump_task

    r = generate_language(language, seed, pool)
    if r.home is None or not r.tasks:
        raise SystemExit(f"{r.language}: no tasks: {r.skipped.get('*', 'no intent written')}")
    validate(r.tasks, IntentHomes({r.language: r.home}))
    return r.language, dump_home(r.home), [dump_task(t) for t in r.tasks]


def language_tasks(
    language: str,
    seed: int,
    config_dir: Path,
    out: Path,
    pool: int = POOL,
    templates: str = "oldest",
) -> tuple[str, list[Task]]:
    """The language's code and its ``pool`` validated tasks, from ``templates``' sentence
    templates; its home is written to HA's home dir (where the runner points the entry) and,
    with the tasks, under ``out``.

    ``oldest``: generated here. ``newest``: generated by a child running the newest HA's Python
    (its hassil and home-assistant-intents), which prints them as JSON (its files would land in
    the newest lane's own root, not here); read back, validated again against the home it sent
    (a task it got wrong is refused) and written here as ``oldest``'s are."""
    from smh_core.homeenv.model import Home
    from smh_core.suites.common import validate
    from smh_core.suites.intents.suite import IntentHomes, home_file
    from smh_core.task.model import parse_task_line

    if templates == "oldest":
        code, text, lines = generated(language, seed, pool)
    else:
        done = subprocess.run(
            [
                *ha_instance.hass_python(templates),
                str(Path(__file__).resolve()),
                "--write-tasks",
                language,
                "--seed",
                str(seed),
                "--pool",
                str(pool),
            ],
            capture_output=True,
            text=True,
            timeout=ha_instance.NEWEST_SETUP_TIMEOUT,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        if done.returncode != 0:
            raise SystemExit(
                f"{language}: generating tasks from the {templates} HA's templates failed:\n"
                f"{done.stderr[-2000:]}"
            )
        sent = json.loads(done.stdout.strip().splitlines()[-1])
        code, text, lines = sent["language"], sent["home"], sent["tasks"]
    tasks = [parse_task_line(line, f"{code}.jsonl", n) for n, line in enumerate(lines, 1)]
    if templates != "oldest":
        validate(tasks, IntentHomes({code: Home.model_validate_json(text)}))
    home_name = Path(home_file(code)).name
    (config_dir / DEFAULT_HOME_DIR).mkdir(parents=True, exist_ok=True)
    (config_dir / DEFAULT_HOME_DIR / home_name).write_text(text, encoding="utf-8")
    (out / "tasks" / "homes").mkdir(parents=True, exist_ok=True)
    (out / "tasks" / "homes" / home_name).write_text(text, encoding="utf-8")
    (out / "tasks" / f"{code}.jsonl").write_text(
        "".join(line + "\n" for line in lines), encoding="utf-8"
    )
    return code, tasks


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
    inst: Any,
    language: str,
    asked: list[Task],
    out: Path,
    turn_timeout: float,
    quiet: bool,
    agent_id: str = AGENT,
    agent: str = "assist",
) -> LanguageRow:
    """One language's tasks through the agent ``agent_id`` (``agent``: its kind, for what of
    its failures is infra); its row (infra failures counted apart)."""
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
        agent_id,
        run_dir,
        config_entry_id=inst.entry_id,
        progress=not quiet,
        turn_timeout=turn_timeout,
        language=language,
    )
    return language_row(
        language, asked, run.log.records(), run.skipped, lambda r: infra_reason(r, agent)
    )


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


VERSIONS = (
    "import importlib.metadata as m, json; print(json.dumps({p: m.version(p) for p in "
    "('homeassistant', 'hassil', 'home-assistant-intents')}))"
)


def ha_packages(python: Sequence[str]) -> dict[str, str]:
    """The versions of HA, hassil and home-assistant-intents that ``python`` (the command
    that starts hass, :func:`ha_instance.hass_python`) has: what HA matches sentences with.
    Asked before hass starts (the newest lane runs one process at a time)."""
    done = subprocess.run(
        [*python, "-c", VERSIONS], capture_output=True, text=True, check=True, timeout=900
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line; ``out`` and ``turn_timeout`` filled in for the HA and agent chosen."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--language",
        action="append",
        help=f"language code (repeatable; default: {' '.join(DEFAULT_LANGUAGES)})",
    )
    p.add_argument("--limit", type=int, default=40, help="tasks per language (0: all; default 40)")
    p.add_argument("--seed", type=int, default=0, help="generation and sampling seed (default 0)")
    p.add_argument(
        "--ha",
        choices=ha_instance.HA_RELEASES,
        default="oldest",
        help="oldest: HA 2026.2.3 in this venv (default); newest: HA 2026.11 "
        "(scripts/ha_current.sh's Python 3.14 venv; set up on first use, ~6-9 min)",
    )
    p.add_argument(
        "--templates",
        choices=ha_instance.HA_RELEASES,
        default="oldest",
        help="whose sentence templates the tasks come from: oldest (HA 2026.2.3's, the default, "
        "so both HAs get the same sentences) or newest (HA 2026.11's own)",
    )
    p.add_argument(
        "--agent",
        choices=AGENTS,
        default="assist",
        help="assist: HA's built-in agent (default); smh: SMH's agent inside HA, on --base-url/"
        "--model or the bundled local model",
    )
    p.add_argument("--base-url", default="", help="OpenAI-compatible endpoint for --agent smh")
    p.add_argument("--model", default="", help="model name at --base-url")
    p.add_argument("--api-key", default="", help="API key for --base-url (blank: none)")
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output folder (default: runs/bench-languages, or runs/bench-languages-<ha>[-smh])",
    )
    p.add_argument("--port", type=int, default=0, help="hass port on 127.0.0.1 (default: free)")
    p.add_argument(
        "--turn-timeout",
        type=float,
        default=None,
        help=f"seconds per turn (default {TURN_TIMEOUT:g}; {SMH_TURN_TIMEOUT:g} for --agent smh)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument("--write-tasks", help=argparse.SUPPRESS)  # the child of --templates newest
    p.add_argument("--pool", type=int, default=POOL, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.limit < 0:
        p.error("--limit must be 0 (all) or more")
    if args.agent != "smh" and (args.base_url or args.model or args.api_key):
        p.error("--base-url, --model and --api-key are for --agent smh")
    if bool(args.base_url) != bool(args.model):
        p.error("--base-url and --model go together (neither: the bundled local model)")
    if args.base_url:
        try:
            AgentConfig(args.base_url, args.model, args.api_key)
        except ValueError as err:
            p.error(str(err))
    if args.out is None:
        args.out = default_out(REPO / "runs", args.ha, args.agent)
        if args.templates != "oldest":
            args.out = args.out.with_name(args.out.name + f"-{args.templates}-templates")
    if args.turn_timeout is None:
        args.turn_timeout = SMH_TURN_TIMEOUT if args.agent == "smh" else TURN_TIMEOUT
    return args


def check_run_key(out: Path, ha: str, agent: str, model: str, templates: str = "oldest") -> None:
    """Refuse a folder with another HA's, agent's, model's or templates' results: a re-run
    resumes the tasks found there, and would mix them into this run's table. (A folder of
    2026.2.3's templates keeps its key without the field.)"""
    key: dict[str, str] = {"ha": ha, "agent": agent, "model": model}
    if templates != "oldest":
        key["templates"] = templates
    path = out / "run-key.json"
    if path.exists():
        was = json.loads(path.read_text(encoding="utf-8"))
        if was != key:
            raise SystemExit(f"{out} holds the results of {was}, not {key}: use another --out")
    path.write_text(json.dumps(key) + "\n", encoding="utf-8")


async def smh_agent(inst: Any, agent: AgentConfig) -> str:
    """Point the SMH entry's agent at ``agent`` through the options flow (as ``make demo``
    does) and return the conversation entity it then has."""
    async with aiohttp.ClientSession() as session:
        await configure_agent(session, inst.url, inst.token, inst.entry_id, BENCH_HOME, agent)
        if await HaClient(inst.url, inst.token, session).settled_key(inst.entry_id) is None:
            raise RuntimeError("the SMH entry did not load with the agent; see the hass log")
        async with HaSocket(inst.url, inst.token, session) as socket:
            return await entry_entity(socket, inst.entry_id, "conversation")


def local_agent(out: Path) -> tuple[Any, AgentConfig]:
    """The bundled local model's server, started (a real completion checked), and its config."""
    from smh_core.llm.local import LocalModelServer, unavailable_reason

    if (why := unavailable_reason()) is not None:
        raise SystemExit(f"--agent smh without --base-url needs the local model: {why}")
    server = LocalModelServer(log_path=out / "local-model.log")
    try:
        server.start(check=True)
    except RuntimeError:
        server.stop()
        raise
    return server, AgentConfig(server.base_url, server.model)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.write_tasks:  # the child of --templates newest: its tasks and home, as one JSON line
        code, text, lines = generated(args.write_tasks, args.seed, args.pool)
        print(json.dumps({"language": code, "home": text, "tasks": lines}))
        return 0
    out: Path = args.out.resolve()
    config_dir = out / "ha-config"
    config_dir.mkdir(parents=True, exist_ok=True)
    python = ha_instance.hass_python(args.ha)
    packages = ha_packages(python)
    model_name = args.model or ("bundled local model" if args.agent == "smh" else "")
    check_run_key(out, args.ha, args.agent, model_name, args.templates)
    templates = (
        packages
        if args.templates == args.ha
        else ha_packages(ha_instance.hass_python(args.templates))
    )
    asked: dict[str, list[Task]] = {}
    for lang in args.language or DEFAULT_LANGUAGES:
        code, tasks = language_tasks(lang, args.seed, config_dir, out, templates=args.templates)
        asked[code] = sample_tasks(tasks, args.limit, args.seed)
        print(f"{code}: {len(tasks)} tasks generated, {len(asked[code])} sampled")
    ha_instance.stop_on_sigterm()
    started = time.monotonic()
    server = None
    agent_cfg = None
    if args.agent == "smh":
        if args.base_url:
            agent_cfg = AgentConfig(args.base_url, args.model, args.api_key)
        else:
            server, agent_cfg = local_agent(out)
        model_name = agent_cfg.model if args.base_url else f"{agent_cfg.model} (local)"
    rows: list[LanguageRow] = []
    try:
        inst = asyncio.run(
            ha_instance.launch(
                config_dir,
                args.port or free_port(),
                str(BENCH_HOME["level"]),
                int(BENCH_HOME["seed"]),
                time_scale=float(BENCH_HOME["time_scale"]),
                timeout=ha_instance.NEWEST_SETUP_TIMEOUT if args.ha == "newest" else 120.0,
                python=python,
            )
        )
        try:

            async def version() -> str | None:
                async with aiohttp.ClientSession() as session:
                    return await HaClient(inst.url, inst.token, session).version()

            ha_version = asyncio.run(version())
            agent_id = asyncio.run(smh_agent(inst, agent_cfg)) if agent_cfg else AGENT
            print(
                f"Home Assistant {ha_version} ({packages}) on {inst.url}, agent {agent_id} "
                f"(log: {config_dir / 'hass.log'})"
            )
            for code, tasks in asked.items():
                rows.append(
                    asyncio.run(
                        run_language(
                            inst,
                            code,
                            tasks,
                            out,
                            args.turn_timeout,
                            args.quiet,
                            agent_id,
                            args.agent,
                        )
                    )
                )
                print(markdown(rows[-1:], agent=AGENT_LABELS[args.agent]).splitlines()[2])
        finally:
            inst.stop()
    finally:
        if server is not None:
            server.stop()
    command = "python scripts/bench_ha_languages.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    versions = (
        f"hassil {packages.get('hassil')}, home-assistant-intents "
        f"{packages.get('home-assistant-intents')}"
    )
    if templates != packages:
        versions += (
            f"; tasks from HA {templates.get('homeassistant')}'s templates (hassil "
            f"{templates.get('hassil')}, home-assistant-intents "
            f"{templates.get('home-assistant-intents')})"
        )
    header = (
        f"HA {ha_version} ({versions}), agent {agent_id}"
        + (f" on {model_name}" if model_name else "")
        + f", seed {args.seed}, limit {args.limit} per language; "
        f"`{command.strip()}`; {time.monotonic() - started:.0f} s.\n"
    )
    table = markdown(rows, header, agent=AGENT_LABELS[args.agent])
    (out / "languages.md").write_text(table, encoding="utf-8")
    (out / "languages.json").write_text(
        json.dumps(
            {
                "ha_version": ha_version,
                "packages": packages,
                "templates": templates,
                "agent": agent_id,
                "model": model_name or None,
                "seed": args.seed,
                "limit": args.limit,
                "turn_timeout": args.turn_timeout,
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
