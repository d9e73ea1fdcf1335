"""``smh bench run|report``: run agents on task files and summarise the results."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import Any

from smh_core.bench.task import load_tasks

TASKS_DIR = Path("tasks")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run the benchmark and write reports")
    bs = p.add_subparsers(dest="bench_command", metavar="ACTION", required=True)

    r = bs.add_parser("run", help="run an agent on tasks; resumable (re-run the same command to continue)")
    src = r.add_mutually_exclusive_group(required=True)
    src.add_argument("--suite", action="append", help=f"suite name: reads {TASKS_DIR}/SUITE.jsonl (repeatable)")
    src.add_argument("--tasks", action="append", type=Path, help="task JSONL file (repeatable)")
    r.add_argument("--agent", choices=["oracle", "null", "openai", "replay"], default="oracle",
                   help="default: oracle; replay re-scores --replay-from without calling a model")
    r.add_argument("--replay-from", type=Path, help="results.jsonl of an earlier run (for --agent replay)")
    r.add_argument("--setting", choices=["eia", "dr"], default="eia",
                   help="openai agent: environment-interactive tool loop or direct reasoning (default: eia)")
    r.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL"),
                   help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (env OPENAI_BASE_URL)")
    r.add_argument("--model", default=os.environ.get("SMH_MODEL", "gpt-4o-mini"), help="model name (env SMH_MODEL)")
    r.add_argument("--budget", type=int, default=10, help="tool calls per task for EIA (default: 10)")
    r.add_argument("--timeout", type=float, default=120.0, help="seconds per LLM call (default: 120)")
    r.add_argument("--judge-base-url", help="endpoint of an optional LLM judge for free-text answers")
    r.add_argument("--judge-model", default="gpt-4o-mini", help="judge model (default: gpt-4o-mini)")
    r.add_argument("--workers", type=int, default=4, help="tasks in flight at once (default: 4)")
    r.add_argument("--limit", type=int, help="run only the first K tasks")
    r.add_argument("--out", type=Path, required=True, help="output directory (results.jsonl, report.*)")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.add_argument("--backend", choices=["embedded", "ha"], default="embedded",
                   help="embedded simulator (default) or a Home Assistant instance running the smh integration")
    r.add_argument("--ha-url", default=os.environ.get("HA_URL"), help="HA base URL for --backend ha (env HA_URL)")
    r.add_argument("--token", default=os.environ.get("HA_TOKEN"), help="HA access token (env HA_TOKEN)")
    r.add_argument("--agent-id", default="conversation.home_assistant",
                   help="HA conversation agent for --backend ha (default: Assist, conversation.home_assistant)")
    r.add_argument("--config-entry", help="the SMH config entry when HA has several")
    r.add_argument("--ha-home-dir", default="smh_homes",
                   help="--backend ha: folder under HA's config dir holding the task home files, matched by "
                        "file name (homes/sage-0.json -> smh_homes/sage-0.json; default: smh_homes)")
    r.add_argument("--turn-timeout", type=float, default=30.0,
                   help="--backend ha: seconds per user turn before the task counts as unanswered (default: 30)")
    r.add_argument("--mapping", type=Path,
                   help="--backend ha on a physical home: YAML mapping of task devices to HA entities")
    r.set_defaults(func=_run)

    rep = bs.add_parser("report", help="write report.md/.csv/.png for a run directory and print the summary")
    rep.add_argument("dir", type=Path)
    rep.set_defaults(func=_report)


def _agent(args: argparse.Namespace):
    from smh_core.bench.agents import NullAgent, OracleAgent, ReplayAgent

    if args.agent == "replay":
        if args.replay_from is None or not args.replay_from.exists():
            raise FileNotFoundError(f"--agent replay needs --replay-from RESULTS.jsonl (got {args.replay_from})")
        return ReplayAgent(args.replay_from)
    if args.agent == "oracle":
        return OracleAgent()
    if args.agent == "null":
        return NullAgent()
    from smh_core.agent.llm import LLMConfig
    from smh_core.bench.llm_agents import DRBenchAgent, EIABenchAgent

    config = LLMConfig(base_url=args.base_url, model=args.model, timeout=args.timeout)
    return EIABenchAgent(config, budget=args.budget) if args.setting == "eia" else DRBenchAgent(config)


def _run(args: argparse.Namespace) -> int:
    from smh_core.bench.runner import HomeCache, run_suite

    files = args.tasks or [TASKS_DIR / f"{s}.jsonl" for s in args.suite]
    for f in files:
        if not f.exists():
            raise FileNotFoundError(f"no task file {f}")
    tasks = load_tasks(files)
    if args.limit is not None:
        tasks = tasks[: args.limit]
    if args.mapping is not None:
        return _run_hardware(args, tasks, files[0].parent)
    if args.backend == "ha":
        return _run_ha(args, tasks)
    judge = None
    if args.judge_base_url:
        from smh_core.agent.llm import LLMClient, LLMConfig
        from smh_core.bench.judge import Judge

        judge = Judge(LLMClient(LLMConfig(base_url=args.judge_base_url, model=args.judge_model)))
    homes = HomeCache(files[0].parent)
    log = asyncio.run(run_suite(tasks, _agent(args), args.out, workers=args.workers, homes=homes, judge=judge,
                                progress=not args.quiet))
    passed = sum(r["passed"] for r in log.records())
    print(f"{len(log)} tasks recorded in {args.out / 'results.jsonl'}: {passed} passed")
    return _report(argparse.Namespace(dir=args.out))


def _run_ha(args: argparse.Namespace, tasks: list) -> int:
    from smh_core.bench.ha_runner import run_via_ha

    if not args.ha_url or not args.token:
        raise ValueError("--backend ha needs --ha-url and --token (or HA_URL / HA_TOKEN)")
    run = asyncio.run(run_via_ha(tasks, args.ha_url, args.token, args.agent_id, args.out,
                                 config_entry_id=args.config_entry, progress=not args.quiet,
                                 home_dir=args.ha_home_dir, turn_timeout=args.turn_timeout))
    return _summarize_ha_run(args.out, run.log, run.skipped, {f"home {k}": w for k, w in run.skipped_homes.items()})


def _run_hardware(args: argparse.Namespace, tasks: list, base: Path) -> int:
    from smh_core.bench.ha_hardware import run_on_hardware
    from smh_core.bench.ha_mapping import load_mapping
    from smh_core.bench.runner import HomeCache

    if args.backend != "ha" or not args.ha_url or not args.token:
        raise ValueError("--mapping needs --backend ha, --ha-url and --token (or HA_URL / HA_TOKEN)")
    run = asyncio.run(run_on_hardware(tasks, args.ha_url, args.token, args.agent_id, load_mapping(args.mapping),
                                      args.out, HomeCache(base), progress=not args.quiet))
    return _summarize_ha_run(args.out, run.log, run.skipped, run.skipped_tasks)


def _summarize_ha_run(out: Path, log: Any, skipped: dict[str, int], skipped_items: dict[str, str]) -> int:
    """Print what an HA-backed run recorded and skipped, then the report (1: nothing recorded)."""
    passed = sum(r["passed"] for r in log.records())
    counts = ", ".join(f"{n} {why}" for why, n in skipped.items()) or "none"
    print(f"{len(log)} tasks recorded in {out / 'results.jsonl'}: {passed} passed (skipped: {counts})")
    for what, why in skipped_items.items():
        print(f"  skipped {what}: {why}")
    return _report(argparse.Namespace(dir=out)) if len(log) else 1


def _report(args: argparse.Namespace) -> int:
    from smh_core.bench.report import load_records, markdown, summarize, write_report

    paths = write_report(args.dir)
    print(markdown(summarize(load_records(args.dir))).split("\n## ")[0].rstrip())
    print(f"\nreport: {paths['markdown']}  {paths['csv']}  {paths['png']}")
    return 0
