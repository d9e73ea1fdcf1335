"""``smh matter-server``: serve a home's Matter-style devices to Home Assistant's matter integration;
``smh matter-areas``: put them into their rooms' areas there."""

from __future__ import annotations

import argparse
import os
import signal
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "matter-server",
        help="serve the home's Matter devices over python-matter-server's "
        "WebSocket protocol (point HA's matter integration at it)",
    )
    p.add_argument("--home", required=True, help="HomeEnv JSON file (with Matter-style devices)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument(
        "--port", type=int, default=5580, help="port (default: 5580, python-matter-server's)"
    )
    p.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="simulated seconds per real second (default: 1; 60 = a minute a second)",
    )
    p.add_argument("--save", help="write the home (state, clock, schedules, rules) here on exit")
    p.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="DID:FAULT",
        help="a device that misbehaves, as physical ones do: DID:unavailable, DID:drop (reports lost), "
        "DID:delay=SECONDS (slow answers and reports), DID:alter=LOCATOR=JSON (reports another "
        "value); repeatable; also settable while running (the smh_set_fault command)",
    )
    p.add_argument(
        "--trace",
        help="append every device change to this JSONL file (time, did, locator, value), "
        "after a first line with the whole state: the devices' own truth, to compare "
        "with what Home Assistant shows",
    )
    p.set_defaults(func=_serve)

    a = sub.add_parser(
        "matter-areas",
        help="put the bridge's devices into their rooms' areas in Home Assistant "
        "(Matter carries no room; run after HA's matter integration found them)",
    )
    a.add_argument("--home", required=True, help="the HomeEnv JSON file smh matter-server serves")
    a.add_argument(
        "--url",
        default="http://127.0.0.1:8123",
        help="Home Assistant (default: http://127.0.0.1:8123)",
    )
    who = a.add_mutually_exclusive_group(required=True)
    who.add_argument("--token", help="an access token of an HA administrator")
    who.add_argument(
        "--username",
        help="log in as this HA administrator instead (password from $HA_PASSWORD, "
        "else asked); no long-lived token needed",
    )
    place = a.add_mutually_exclusive_group()
    place.add_argument(
        "--area-prefix",
        help='name the areas "<prefix> <room>" (default: the rooms\' own names, or "Matter <room>" '
        "when an area of that name already holds other devices)",
    )
    place.add_argument(
        "--share-areas",
        action="store_true",
        help="join existing areas of the rooms' names even when they hold other devices "
        "(another home's, your own)",
    )
    a.set_defaults(func=_areas)


def _areas(args: argparse.Namespace) -> int:
    import asyncio

    from sim_devices.matter_bridge.areas import AreaAssignment, assign_areas
    from smh_core.ha.login import access_token
    from smh_core.ha.websocket import connect
    from smh_core.homeenv.engine import load_home

    home = load_home(args.home)

    async def main() -> AreaAssignment:
        token = await access_token(args.url, args.token, args.username)
        async with connect(args.url, token) as call:
            return await assign_areas(call, home, args.area_prefix, args.share_areas)

    done = asyncio.run(main())
    named = f' (named "{done.prefix} <room>")' if done.prefix else ""
    print(f"moved {len(done.moved)} devices into their rooms' areas{named}")
    if done.prefix and args.area_prefix is None:
        print(
            "areas of the rooms' names already hold other devices: this home keeps its own "
            "(--share-areas joins them)"
        )
    return 0


def _serve(args: argparse.Namespace) -> int:
    import asyncio

    from aiohttp import web

    from sim_devices.matter_bridge.faults import parse_fault
    from sim_devices.matter_bridge.server import MatterBridge
    from sim_devices.matter_bridge.trace import DeviceTrace
    from smh_core.homeenv.engine import HomeEngine, dump_home
    from smh_core.sim.simulator import Simulator

    faults = [parse_fault(spec) for spec in args.fault]
    engine = HomeEngine.from_file(args.home)
    sim = Simulator(engine)
    bridge = MatterBridge(engine, sim)
    if not bridge.nodes:
        raise ValueError(f"{args.home} has no Matter-style devices to serve")
    for did, fault in faults:
        bridge.set_fault(did, fault)
    trace = DeviceTrace(engine, args.trace) if args.trace else None

    async def main() -> None:
        # Ctrl-C: 0.01-0.04 s from the signal to the exit with HA's client connected (test_bridge_exit.py)
        runner = web.AppRunner(bridge.app(), shutdown_timeout=0.25)
        await runner.setup()
        await web.TCPSite(runner, args.host, args.port).start()
        print(
            f"serving {len(bridge.nodes)} Matter nodes on ws://{args.host}:{args.port}/ws "
            f"(simulated time x{args.speed:g}); Ctrl-C to stop",
            flush=True,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        clock = asyncio.create_task(bridge.run_clock(args.speed))
        await stop.wait()
        clock.cancel()
        await runner.cleanup()

    try:
        asyncio.run(main())
    finally:
        if trace is not None:
            trace.close()
    if args.save:
        with open(args.save, "w", encoding="utf-8") as fh:
            fh.write(dump_home(sim.to_home()))
    bridge.close()
    # Everything is closed and saved: leave without the interpreter's teardown of every loaded
    # module, which on a loaded machine made Ctrl-C take over a second.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
