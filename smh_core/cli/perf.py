"""``smh perf ...``: measured speed figures (the README records them)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perf", help="measure performance (figures recorded in the README)")
    ps = p.add_subparsers(dest="perf_command", metavar="TARGET", required=True)
    e = ps.add_parser("engine", help="validated service calls/s and snapshot+diff time on the complex home")
    e.add_argument("--calls", type=int, default=200_000, help="service calls to time (default: 200000)")
    e.add_argument("--seed", type=int, default=0, help="home seed (default: 0)")
    e.set_defaults(func=_engine)
    h = ps.add_parser("ha", help="complex-home config-entry setup time and service calls/s through Home Assistant")
    h.add_argument("--rounds", type=int, default=5, help="measured setups after one warm-up (default: 5)")
    h.add_argument("--calls", type=int, default=5000, help="service calls to time (default: 5000)")
    h.set_defaults(func=_ha)


def _engine(args: argparse.Namespace) -> int:
    from smh_core.perf.engine import measure_engine

    r = measure_engine(seed=args.seed, calls=args.calls)
    print(f"complex home: {r.devices} devices, {r.calls} validated calls ({r.ok_fraction:.0%} accepted)")
    print(f"  service calls/s (1 core): {r.calls_per_second:,.0f}   target >= 50,000")
    print(f"  snapshot + diff: {r.snapshot_diff_ms:.4f} ms (snapshot {r.snapshot_ms:.4f} ms, "
          f"diff {r.diff_ms:.4f} ms)   target <= 1 ms")
    print(f"  diff against the initial state ({r.wide_diff_changes} changed attributes): "
          f"{r.wide_diff_ms:.4f} ms")
    met = r.calls_per_second >= 50_000 and r.snapshot_diff_ms <= 1.0
    print("  targets met" if met else "  TARGET MISSED")
    return 0


def _ha(args: argparse.Namespace) -> int:
    from smh_core.perf.ha import measure_ha

    r = measure_ha(rounds=args.rounds, calls=args.calls)
    runs = ", ".join(f"{x:.0f}" for x in r.setup_ms_runs)
    print(f"complex home in Home Assistant: {r.entities} entities")
    print(f"  warm config-entry setup (median of {len(r.setup_ms_runs)}): {r.setup_ms_median:.0f} ms "
          f"[{runs}]   target <= 250 ms")
    print(f"  service calls/s through HA (switch on/off, engine validation on the path): "
          f"{r.calls_per_second:,.0f}   target >= 15,000")
    return 0
