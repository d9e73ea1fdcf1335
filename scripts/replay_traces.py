"""Replay home-assistant-datasets' recorded traces inside a real Home Assistant running SMH and
report how often SMH's verdicts agree with the published ones.

    smh tasks import --from ha-datasets ~/src/home-assistant-datasets/datasets --out runs/had
    python scripts/replay_traces.py --tasks runs/had/ha_datasets.jsonl --out runs/had-replay [--half tune]

The import writes the tasks and, from the checkout's ``reports/``, ``ha_datasets.traces.jsonl``
beside them. This script starts ``hass`` on a free loopback port (config in ``<out>/ha-config``,
the imported homes copied into its ``smh_homes/``, simulated time frozen) unless ``--ha-url``
and ``--token`` name a running one, replays every case an imported task can judge
(:mod:`smh_core.ha.trace_replay`), always stops the hass it started, and writes
``agreement.md/.json/.csv`` (:mod:`smh_core.importers.trace_agreement`). Re-running resumes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO))
import ha_instance  # noqa: E402

from smh_core.ha.trace_replay import replay_and_report  # noqa: E402
from smh_core.importers.ha_history import HISTORY_TASKS  # noqa: E402
from smh_core.importers.ha_traces import load_cases  # noqa: E402
from smh_core.task.home import HomeCache  # noqa: E402
from smh_core.task.model import load_tasks  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", type=Path, required=True, help="the imported ha_datasets.jsonl")
    p.add_argument(
        "--traces",
        type=Path,
        help="the traces file (default: ha_datasets.traces.jsonl beside --tasks)",
    )
    p.add_argument(
        "--out", type=Path, required=True, help="folder for replay.jsonl and agreement.*"
    )
    p.add_argument(
        "--half", choices=["tune", "holdout"], help="only the cases of one half (default: both)"
    )
    p.add_argument(
        "--limit", type=int, help="only the first K cases (after --half), for a quick look"
    )
    p.add_argument(
        "--ha-url", help="a running Home Assistant with the SMH integration (default: start one)"
    )
    p.add_argument("--token", help="its access token (with --ha-url)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    traces = args.traces or args.tasks.with_name("ha_datasets.traces.jsonl")
    cases = [c for c in load_cases(traces) if args.half is None or c.half == args.half][
        : args.limit
    ]
    history = args.tasks.with_name(HISTORY_TASKS)  # tests of past revisions some reports ran on
    tasks = {t.id: t for t in load_tasks([args.tasks, *([history] if history.is_file() else [])])}
    homes = HomeCache(args.tasks.parent)
    args.out.mkdir(parents=True, exist_ok=True)
    inst = None
    url, token = args.ha_url, args.token
    if url is None:
        config_dir = (args.out / "ha-config").resolve()
        started = time.monotonic()
        ha_instance.install_homes(config_dir, args.tasks.parent / "homes")
        inst = asyncio.run(ha_instance.launch(config_dir, free_port(), "simple", 0, time_scale=0.0))
        url, token = inst.url, inst.token
        print(
            f"Home Assistant {url} up in {time.monotonic() - started:.1f} s (log: {config_dir / 'hass.log'})"
        )
    try:
        started = time.monotonic()
        run, paths = asyncio.run(
            replay_and_report(
                cases,
                tasks,
                homes.get,
                url,
                token,
                args.out,
                command=[
                    "python",
                    "scripts/replay_traces.py",
                    *(sys.argv[1:] if argv is None else argv),
                ],
                progress=not args.quiet,
            )
        )
    finally:
        if inst is not None:
            inst.stop()
    summary = json.loads(paths["json"].read_text())
    for judge, s in summary.items():
        t = s["all"]
        print(
            f"{judge}: agree on {t['agree']}/{t['cases']} cases, {t['agree']}/{t['judgeable']} judgeable"
        )
    print(
        f"{run.ran} cases replayed now in {time.monotonic() - started:.0f} s; report: {paths['md']}"
    )
    for key, why in run.skipped_homes.items():
        print(f"  skipped home {key}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(ha_instance.exit_code(main))
