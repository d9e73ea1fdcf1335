"""``smh perf ...``: measured speed figures (docs/performance.md records them)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perf", help="measure performance (figures recorded in docs/performance.md)")
    ps = p.add_subparsers(dest="perf_command", metavar="TARGET", required=True)
    e = ps.add_parser(
        "engine", help="validated service calls/s and snapshot+diff time on the complex home"
    )
    e.add_argument(
        "--calls", type=int, default=200_000, help="service calls to time (default: 200000)"
    )
    e.add_argument("--seed", type=int, default=0, help="home seed (default: 0)")
    e.set_defaults(func=_engine)
    s = ps.add_parser(
        "sim", help="wall time to fast-forward 24 h of the complex home with physics and rules"
    )
    s.add_argument("--hours", type=float, default=24.0, help="simulated hours (default: 24)")
    s.add_argument("--seed", type=int, default=0, help="home seed (default: 0)")
    s.add_argument(
        "--scale",
        action="store_true",
        help="the size curve instead: build, 24 h, memory and per-tick cost from 142 to 19,880 "
        "devices",
    )
    s.add_argument(
        "--copies",
        type=_copies,
        default=None,
        metavar="K,K,...",
        help="with --scale: home sizes as numbers of complex homes (default: "
        "1,2,4,9,18,35,70,140, up to 19,880 devices)",
    )
    s.add_argument(
        "--homes",
        choices=("copies", "different", "both"),
        default="both",
        help="with --scale: the large home as copies of one home, as different homes (seeds 0, "
        "1, 2 ...: each its own event times), or both curves (default)",
    )
    s.add_argument(
        "--peer-simuhome",
        type=Path,
        default=None,
        metavar="PATH",
        help="instead: per-tick cost of exact stepping beside SimuHome's own tick loop on the "
        "same episode's home, same process (PATH: a SimuHome checkout, from `git clone "
        "https://github.com/standardwish/SimuHome`; its simulator needs Python >= 3.13 and "
        "pydantic)",
    )
    s.add_argument(
        "--episode",
        type=Path,
        default=None,
        help="with --peer-simuhome: the episode file (a path, or a name under "
        "PATH/data/benchmark; default: the first with 27 devices)",
    )
    s.add_argument(
        "--ticks",
        type=_positive,
        default=20_000,
        help="with --peer-simuhome: ticks per side per round (default: 20000)",
    )
    s.add_argument(
        "--rounds",
        type=_positive,
        default=5,
        help="with --peer-simuhome: interleaved rounds (default: 5)",
    )
    s.set_defaults(func=_sim)
    b = ps.add_parser(
        "bench", help="wall time for the oracle to run and verify every shipped suite"
    )
    b.add_argument(
        "--tasks-dir", type=Path, default=Path("tasks"), help="suite folder (default: tasks/)"
    )
    b.set_defaults(func=_bench)
    c = ps.add_parser(
        "cold",
        help="cold start: median wall and CPU time (children included) of fresh `smh --help` and "
        "`smh bench run --suite sample --agent oracle` processes",
    )
    c.add_argument(
        "--tasks-dir", type=Path, default=Path("tasks"), help="suite folder (default: tasks/)"
    )
    c.add_argument(
        "--repeats", type=int, default=5, help="fresh processes per command (default: 5)"
    )
    c.set_defaults(func=_cold)
    lo = ps.add_parser(
        "local",
        help="wall time of `smh bench run --suite sample --agent local` (the bundled model; "
        "target <= 3 min on two idle cores), with each task's seconds, calls and stop",
    )
    lo.add_argument(
        "--tasks-dir", type=Path, default=Path("tasks"), help="suite folder (default: tasks/)"
    )
    lo.add_argument(
        "--setting", choices=["eia", "dr"], default="eia", help="agent setting (default: eia)"
    )
    lo.set_defaults(func=_local)
    h = ps.add_parser(
        "ha",
        help="SMH's HA figures as ratios against plain entities (light calls/s, cold and warm "
        "setup; needs a checkout: runs scripts/perf_ha.py)",
    )
    h.add_argument(
        "--rounds", type=int, default=5, help="interleaved rounds per figure (default: 5)"
    )
    h.add_argument(
        "--calls",
        type=int,
        default=5000,
        help="light calls per side, over all rounds (default: 5000)",
    )
    h.add_argument("--json", action="store_true", help="print the figures as JSON")
    h.add_argument(
        "--peer-synthetic-home",
        type=Path,
        metavar="PATH",
        help="also measure the real peer, in the same rounds: a checkout of allenporter's "
        "home-assistant-synthetic-home (git clone "
        "https://github.com/allenporter/home-assistant-synthetic-home)",
    )
    h.add_argument(
        "--peer-lib",
        type=Path,
        metavar="DIR",
        help="with --peer-synthetic-home: a folder holding its synthetic-home library, kept out "
        "of SMH's environment (pip install --no-deps --target DIR synthetic-home==<the "
        "version its manifest.json pins>); without it the library must be importable",
    )
    h.add_argument(
        "--model-layer-bound",
        action="store_true",
        help="instead: cold setup as it is and with the home model layer paid before the clock "
        "(how far a model layer that cost nothing would get; with --peer-synthetic-home beside "
        "the peer)",
    )
    h.set_defaults(func=_ha)


def _engine(args: argparse.Namespace) -> int:
    from smh_core.perf.engine import measure_engine

    r = measure_engine(seed=args.seed, calls=args.calls)
    print(
        f"complex home: {r.devices} devices, {r.calls} validated calls ({r.ok_fraction:.0%} accepted)"
    )
    print(f"  service calls/s (1 core): {r.calls_per_second:,.0f}   target >= 50,000")
    print(
        f"  snapshot + diff: {r.snapshot_diff_ms:.4f} ms (snapshot {r.snapshot_ms:.4f} ms, "
        f"diff {r.diff_ms:.4f} ms)   target <= 1 ms"
    )
    print(
        f"  diff against the initial state ({r.wide_diff_changes} changed attributes): "
        f"{r.wide_diff_ms:.4f} ms"
    )
    met = r.calls_per_second >= 50_000 and r.snapshot_diff_ms <= 1.0
    print("  targets met" if met else "  TARGET MISSED")
    return 0


def _cold(args: argparse.Namespace) -> int:
    from smh_core.perf.cold import TARGET_SECONDS, measure_cold, median_timing

    if args.repeats < 1:
        raise ValueError(f"--repeats must be at least 1, got {args.repeats}")
    r = measure_cold(args.tasks_dir, args.repeats)
    cache = (
        "bytecode cached"
        if r.bytecode_cached
        else "PYTHONDONTWRITEBYTECODE set: only bytecode cached before is read"
    )
    print(f"cold start, median of {args.repeats} fresh processes ({cache}):")
    for name, runs in (
        ("smh --help", r.help_runs),
        ("smh bench run --suite sample --agent oracle", r.run_runs),
    ):
        m = median_timing(runs)
        print(
            f"  {name}: {m.wall:.2f} s wall, {m.cpu:.2f} s CPU with its children"
            f"   target <= {TARGET_SECONDS} s"
        )
        print(f"    wall: {', '.join(f'{t.wall:.2f}' for t in runs)}")
        print(f"    CPU:  {', '.join(f'{t.cpu:.2f}' for t in runs)}")
    print("  targets met" if r.met else "  TARGET MISSED")
    return 0


def _local(args: argparse.Namespace) -> int:
    import sys

    from smh_core.llm.local import unavailable_reason
    from smh_core.perf.local import TARGET_SECONDS, measure_local

    missing = unavailable_reason()
    if missing is not None:
        print(f"smh perf local: {missing}", file=sys.stderr)
        return 2
    r = measure_local(args.tasks_dir, args.setting)
    load = "load {:.2f} {:.2f} {:.2f}"
    print(
        f"smh bench run --suite sample --agent local --setting {args.setting}: "
        f"{r.wall_seconds:.1f} s wall ({load.format(*r.load_before)} before, "
        f"{load.format(*r.load_after)} after)"
    )
    print(f"{'task':<16} {'s':>6} {'calls':>5} {'prompt':>7} {'written':>7}  stop")
    for t in r.tasks:
        print(
            f"{t.task_id:<16} {t.seconds:>6.1f} {t.calls:>5} {t.prompt_tokens:>7} "
            f"{t.completion_tokens:>7}  {t.stop}"
        )
    print(
        f"  {len(r.tasks)} tasks, {r.agent_seconds:.1f} s in the agent, {r.tokens_per_second:.0f} "
        f"tokens/s; the rest is the model server's start and the report   "
        f"target <= {TARGET_SECONDS:.0f} s"
    )
    print("  target met" if r.wall_seconds <= TARGET_SECONDS else "  TARGET MISSED")
    return 0


def _copies(text: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected copies like 1,2,4, got {text!r}") from None
    if not out or min(out) < 1 or list(out) != sorted(set(out)):
        raise argparse.ArgumentTypeError(
            f"copies must be increasing whole numbers >= 1, got {text!r}"
        )
    return out


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return n


def _sim(args: argparse.Namespace) -> int:
    if args.peer_simuhome is not None:
        return _sim_peer(args)
    if args.scale:
        return _sim_scale(args)
    from smh_core.perf.sim import measure_sim

    r = measure_sim(seed=args.seed, hours=args.hours)
    print(f"complex home: {r.devices} devices in {r.rooms} simulated rooms, {r.rules} automations")
    print(
        f"  {r.simulated_hours:g} simulated hours ({r.ticks:,} ticks of 0.1 s) in {r.wall_seconds:.3f} s wall "
        f"({r.windows} event windows; {r.rule_firings} rule firings, {r.schedules_run} schedules run, "
        f"{r.programmes_completed} appliance programmes completed; temperature moved in {r.rooms_changed} "
        f"rooms)   target <= 2 s"
    )
    print("  target met" if r.wall_seconds <= 2.0 else "  TARGET MISSED")
    return 0


def _sim_peer(args: argparse.Namespace) -> int:
    import os
    import sys

    from smh_core.perf.peer import PeerUnavailable, measure_peer

    if args.scale:
        print("smh perf sim: --peer-simuhome and --scale are separate runs", file=sys.stderr)
        return 2
    try:
        r = measure_peer(args.peer_simuhome, args.episode, ticks=args.ticks, rounds=args.rounds)
    except PeerUnavailable as e:
        print(f"smh perf sim --peer-simuhome: {e}", file=sys.stderr)
        return 2
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"SimuHome episode {r.episode}: {r.simuhome_devices} devices in {r.rooms} rooms "
        f"(SMH's import of it: {r.smh_devices} devices); {r.ticks:,} ticks of 0.1 s per side "
        f"per round, {len(r.rounds)} interleaved rounds, CPU time of this process, load {load}"
    )
    for why in r.left_out:
        print(f"  not carried over by the importer: {why}")
    print(
        f"{'round':>5} {'SimuHome loop us':>16} {'its step us':>11} {'SMH exact us':>12} "
        f"{'ratio':>6} {'SMH listened us':>15} {'ratio':>6}"
    )
    for i, p in enumerate(r.rounds, 1):
        print(
            f"{i:>5} {p.simuhome_us:>16.1f} {p.simuhome_step_us:>11.1f} {p.smh_us:>12.1f} "
            f"{p.ratio:>5.2f}x {p.smh_listened_us:>15.1f} {p.listened_ratio:>5.2f}x"
        )
    print(
        f"median: SimuHome's loop {r.simuhome_us:.1f} us/tick (its fast-forward step "
        f"{r.simuhome_step_us:.1f}), SMH exact=True {r.smh_us:.1f} us/tick: SMH {r.ratio:.2f}x "
        f"as fast per tick ({r.step_ratio:.2f}x against the step; {r.listened_ratio:.2f}x with "
        f"a second listener on the engine, {r.smh_listened_us:.1f} us/tick)   target >= 3x"
    )
    print("  target met" if r.ratio >= 3.0 else "  TARGET MISSED")
    return 0


def _sim_scale(args: argparse.Namespace) -> int:
    from smh_core.perf.scale import (
        DEFAULT_COPIES,
        GROWTH_FROM,
        matter_home_tick,
        measure_point,
        per_doubling,
    )

    print(
        f"{args.hours:g} simulated hours of k complex homes in one (busy day: everything on, 20 "
        "automations, 10 schedules); copies = k copies of one home (shared event times), "
        "different = k homes of seeds 0..k-1 (each its own); exact = advance(exact=True) per tick; "
        "plain = the plain per-tick loop on the same home, same process; times are CPU time of "
        "this process"
    )
    kinds = ("copies", "different") if args.homes == "both" else (args.homes,)
    met = True
    for kind in kinds:
        print(
            f"{kind}:\n{'devices':>8} {'rooms':>6} {'build s':>8} {'24 h s':>7} {'windows':>7} "
            f"{'x/doubling':>10} {'KiB/dev':>8} {'exact us':>9} {'plain us':>9} {'vs plain':>8}"
        )
        points = []
        for k in args.copies or DEFAULT_COPIES:
            p = measure_point(k, seed=args.seed, hours=args.hours, kind=kind)
            growth = (
                f"{per_doubling(points[-1], p, points[-1].day_s, p.day_s):.2f}" if points else "-"
            )
            points.append(p)
            print(
                f"{p.devices:>8,} {p.rooms:>6} {p.build_s:>8.3f} {p.day_s:>7.2f} {p.windows:>7} "
                f"{growth:>10} {p.kib_per_device:>8.1f} {p.exact_us:>9.0f} {p.reference_us:>9.0f} "
                f"{p.reference_ratio:>7.2f}x",
                flush=True,
            )
        first, last = points[0], points[-1]
        # the target's range starts at ~1,250 devices: below it a day costs too little for the
        # fixed costs (rules, schedules, the write at the end) not to dominate
        start = next((p for p in points if p.devices >= GROWTH_FROM), first)
        day_growth = per_doubling(first, last, first.day_s, last.day_s) if len(points) > 1 else 1.0
        growth_from = (
            per_doubling(start, last, start.day_s, last.day_s) if last is not start else 1.0
        )
        build_growth = (
            per_doubling(first, last, first.build_s, last.build_s) if len(points) > 1 else 1.0
        )
        at_5000 = next((p for p in points if p.devices >= 4_900), None)
        print(
            f"{kind}: 24 h of {at_5000.devices:,} devices in {at_5000.day_s:.2f} s"
            if at_5000 is not None
            else f"{kind}: no home of ~5,000 devices in this curve",
            f"(target <= 3 s); cost per device grows {growth_from:.2f}x per doubling from "
            f"{start.devices:,} to {last.devices:,} devices (target <= 1.05; {day_growth:.2f}x "
            f"over the whole curve), build {build_growth:.2f}x; "
            f"{max(p.kib_per_device for p in points):.1f} KiB/device at most (target <= 15)",
        )
        met = met and (
            (at_5000 is None or at_5000.day_s <= 3.0)
            and growth_from <= 1.05
            and max(p.kib_per_device for p in points) <= 15.0
        )
    devices, exact, plain = matter_home_tick(seed=args.seed)
    print(
        f"SimuHome's {devices}-device Matter home, exact=True: {exact:.1f} us/tick; the plain loop "
        f"{plain:.1f} us/tick ({plain / exact:.2f}x)   target <= 25 us"
    )
    met = met and exact <= 25.0
    print("  targets met" if met else "  TARGET MISSED")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from smh_core.perf.bench import measure_bench

    r = measure_bench(args.tasks_dir)
    suites = ", ".join(f"{s} {n} in {r.seconds_per_suite[s]:.1f} s" for s, n in r.per_suite.items())
    print(f"oracle over every shipped suite: {r.tasks} tasks ({suites})")
    print(
        f"  {r.passed}/{r.tasks} passed; {r.wall_seconds:.1f} s wall, one process "
        f"({r.tasks_per_second:,.0f} tasks/s)   target <= 60 s"
    )
    print("  target met" if r.wall_seconds <= 60 and r.passed == r.tasks else "  TARGET MISSED")
    return 0 if r.passed == r.tasks else 1


def _ha(args: argparse.Namespace) -> int:
    """HA's core and the test plugin are not dependencies of ``smh_core``: the measurement lives
    beside ``custom_components`` in the checkout and runs in its own interpreter."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "scripts" / "perf_ha.py"
    if not script.is_file():
        print(
            f"smh perf ha runs from a checkout of the repository: {script} is missing",
            file=sys.stderr,
        )
        return 2
    argv = [sys.executable, str(script), "--rounds", str(args.rounds), "--calls", str(args.calls)]
    argv += ["--json"] if args.json else []
    argv += ["--model-layer-bound"] if args.model_layer_bound else []
    for flag, value in (
        ("--peer-synthetic-home", args.peer_synthetic_home),
        ("--peer-lib", args.peer_lib),
    ):
        argv += [flag, str(value)] if value is not None else []
    return subprocess.run(argv, check=False).returncode
