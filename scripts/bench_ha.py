"""``make bench BACKEND=ha``: the benchmark suites inside a real Home Assistant, answered by HA's
built-in Assist agent (``conversation.home_assistant``) - the no-LLM baseline a model run
through HA can be compared with.

Starts ``hass`` (:mod:`ha_instance`: config dir ``runs/bench-ha/ha-config``, a free loopback
port, simulated time frozen so a task's state does not drift while Assist answers), runs the
tasks with :func:`smh_core.ha.runner.run_via_ha` (one entry reload per home, file homes
from ``<config>/smh_homes``), writes and prints the same report as ``smh bench report`` and
always stops hass, on errors and Ctrl-C too. The folder gets a ``run.json`` as ``smh bench run``
writes one (so ``make site`` shows HA's Assist as a baseline row). Results go to ``runs/bench-ha/<suite>`` (one
suite) or ``runs/bench-ha/all``; re-running the same command resumes.

    python scripts/bench_ha.py --suite sage --suite sample [--limit 20] [--out runs/bench-ha]

A sample is deterministic: a suite's HA-judgeable tasks taken round-robin over its homes
(first task of every home, then the second ...), the first K of them. By default every task
runs except SimuHome's, sampled to 20 (one per home): its long compound or time-phrased requests
("In 11 minutes, at 5:31 PM, turn the air conditioner 1 ... on, switch it to cooling mode and
...") take HA's sentence matcher 5-30 s, some minutes (cut at the 30 s turn timeout). ``--limit
K`` samples K of every suite, ``--limit 0`` runs everything.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO))
import aiohttp  # noqa: E402
import ha_instance  # noqa: E402

from smh_core.bench.manifest import RunManifest, finish_run  # noqa: E402
from smh_core.bench.sampling import stratified_sample  # noqa: E402
from smh_core.ha.runner import HA_GOALS, TURN_TIMEOUT, run_via_ha  # noqa: E402
from smh_core.task.model import Task, iter_tasks  # noqa: E402

SUITES = ["smh", "simuhome", "memhome", "sage", "safety", "sample"]
AGENT = "conversation.home_assistant"
DEFAULT_LIMITS = {"simuhome": 20}
"""Per-suite sample sizes without ``--limit`` (see the module docstring for why)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sample(tasks: list[Task], limit: int | None) -> list[Task]:
    """All tasks without a limit; else ``limit`` HA-judgeable tasks spread over category,
    subcategory, difficulty and home (a deterministic stratified sample)."""
    if not limit:
        return tasks
    return stratified_sample(
        [t for t in tasks if set(t.goal_kinds) <= set(HA_GOALS) and t.climate is None], limit
    )


def open_manifest(
    out: Path, asked: dict[str, list[Task]], args: argparse.Namespace, inst: Any, argv: Any
) -> RunManifest:
    """``run.json`` for the run, as ``smh bench run --backend ha`` writes one (the agent is
    HA's conversation agent, HA's version asked from the instance, the command and machine
    recorded), so ``smh report site`` shows it as HA's Assist baseline row. A folder holding
    another run is refused (:class:`~smh_core.bench.manifest.RunMismatch`), not mixed."""
    from smh_core.bench.manifest import identity_for, open_run
    from smh_core.ha.runner import HaClient

    async def version() -> str | None:
        async with aiohttp.ClientSession() as session:
            return await HaClient(inst.url, inst.token, session).version()

    tasks = [t for ts in asked.values() for t in ts]
    agent = f"ha:{args.agent_id}"
    voice = None
    if args.voice:
        from smh_core.voice.espeak import VoiceSettings

        voice = VoiceSettings(noise=args.voice_noise).describe()
    return open_run(
        out,
        identity_for(tasks, agent=agent, backend="ha", voice=voice),
        agent,
        {s: len(ts) for s, ts in asked.items()},
        ha_version=asyncio.run(version()),
        task_source=[f"{s} (tasks/{s}.jsonl)" for s in asked],
        suite_names={t.id: s for s, ts in asked.items() for t in ts if t.suite != s},
        command=["python", "scripts/bench_ha.py", *(sys.argv[1:] if argv is None else argv)],
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--suite", action="append", choices=SUITES, help="suite (repeatable; default: all)"
    )
    p.add_argument(
        "--limit",
        type=int,
        help="per suite: a deterministic sample of K tasks; 0: all "
        f"(default: all, except {', '.join(f'{s} {k}' for s, k in DEFAULT_LIMITS.items())})",
    )
    p.add_argument(
        "--out", type=Path, default=REPO / "runs" / "bench-ha", help="default: runs/bench-ha"
    )
    p.add_argument("--agent-id", default=AGENT, help=f"HA conversation agent (default: {AGENT})")
    p.add_argument(
        "--port", type=int, default=0, help="hass port on 127.0.0.1 (default: a free one)"
    )
    p.add_argument(
        "--turn-timeout",
        type=float,
        default=TURN_TIMEOUT,
        help=f"seconds per user turn before a task counts as unanswered (default: {TURN_TIMEOUT:g})",
    )
    p.add_argument(
        "--voice",
        action="store_true",
        help="also speak every task through an Assist pipeline (espeak-ng -> SMH's Wyoming STT): "
        "transcripts, WER, typed vs spoken (results under <out>/<suite>-voice)",
    )
    p.add_argument(
        "--voice-noise",
        type=float,
        default=0.0,
        help="--voice: white noise x speech RMS (default: 0)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    suites = args.suite or SUITES
    limits = {s: DEFAULT_LIMITS.get(s) if args.limit is None else args.limit for s in suites}
    asked = {s: sample(list(iter_tasks(REPO / "tasks" / f"{s}.jsonl")), limits[s]) for s in suites}
    tasks = [t for s in suites for t in asked[s]]
    out = args.out / ((suites[0] if len(suites) == 1 else "all") + ("-voice" if args.voice else ""))
    voice = None
    if args.voice:
        from smh_core.ha.voice_run import VoiceOptions
        from smh_core.task.home import HomeCache
        from smh_core.voice.espeak import VoiceSettings, unavailable_reason

        if (reason := unavailable_reason()) is not None:
            p.error(f"--voice: {reason}")
        voice = VoiceOptions(VoiceSettings(noise=args.voice_noise))
    config_dir = (args.out / "ha-config").resolve()
    ha_instance.stop_on_sigterm()

    from smh_core.cli.bench import _report

    started = time.monotonic()
    inst = asyncio.run(
        ha_instance.launch(config_dir, args.port or free_port(), "medium", 0, time_scale=0.0)
    )
    try:
        print(
            f"Home Assistant {inst.url} up in {time.monotonic() - started:.1f} s (log: {config_dir / 'hass.log'})"
        )
        manifest = open_manifest(out, asked, args, inst, argv)
        started = time.monotonic()
        run = asyncio.run(
            run_via_ha(
                tasks,
                inst.url,
                inst.token,
                args.agent_id,
                out,
                progress=not args.quiet,
                turn_timeout=args.turn_timeout,
                voice=voice,
                home_of=HomeCache(REPO / "tasks").get if voice else None,
            )
        )
        elapsed = time.monotonic() - started
        finish_run(out, manifest, complete=len(run.log) >= len(tasks))
    finally:
        inst.stop()
    records = list(run.log.records())
    timing = {
        "suites": suites,
        "limits": limits,
        "tasks_selected": len(tasks),
        "tasks_run": run.ran,
        "timeouts": run.timeouts,
        "homes": run.homes,
        "seconds": round(elapsed, 1),
        "switch_seconds": round(run.switch_seconds, 1),
        "task_seconds": round(run.task_seconds, 1),
        "tasks_per_second": round(run.ran / run.task_seconds, 2) if run.task_seconds else None,
        "skipped": run.skipped,
        "skipped_homes": run.skipped_homes,
    }
    (out / "timing.json").write_text(json.dumps(timing, indent=2) + "\n", encoding="utf-8")
    skipped = ", ".join(f"{n} {why}" for why, n in run.skipped.items()) or "none"
    print(
        f"{len(records)} tasks recorded in {out / 'results.jsonl'} ({run.ran} now): "
        f"{sum(r['passed'] for r in records)} passed (skipped: {skipped}); {run.homes} homes, {elapsed:.0f} s "
        f"({run.switch_seconds:.0f} s switching homes, {timing['tasks_per_second']} tasks/s, "
        f"{run.timeouts} unanswered within {args.turn_timeout:g} s)"
    )
    for key, why in run.skipped_homes.items():
        print(f"  skipped home {key}: {why}")
    return _report(argparse.Namespace(dir=out)) if records else 1


if __name__ == "__main__":
    sys.exit(ha_instance.exit_code(main))
