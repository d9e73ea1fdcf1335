"""``smh matter-server``: serve a home's Matter-style devices to Home Assistant's matter integration;
``smh matter-areas``: put them into their rooms' areas there."""

from __future__ import annotations

import argparse
import asyncio
import signal


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("matter-server", help="serve the home's Matter devices over python-matter-server's "
                                             "WebSocket protocol (point HA's matter integration at it)")
    p.add_argument("--home", required=True, help="HomeEnv JSON file (with Matter-style devices)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=5580, help="port (default: 5580, python-matter-server's)")
    p.add_argument("--speed", type=float, default=1.0,
                   help="simulated seconds per real second (default: 1; 60 = a minute a second)")
    p.add_argument("--save", help="write the home (state, clock, schedules, rules) here on exit")
    p.set_defaults(func=_serve)

    a = sub.add_parser("matter-areas", help="put the bridge's devices into their rooms' areas in Home Assistant "
                                            "(Matter carries no room; run after HA's matter integration found them)")
    a.add_argument("--home", required=True, help="the HomeEnv JSON file smh matter-server serves")
    a.add_argument("--url", default="http://127.0.0.1:8123", help="Home Assistant (default: http://127.0.0.1:8123)")
    a.add_argument("--token", required=True, help="a long-lived access token of an HA administrator")
    a.set_defaults(func=_areas)


def _areas(args: argparse.Namespace) -> int:
    from sim_devices.matter_bridge.areas import assign_areas
    from smh_core.ha.websocket import connect
    from smh_core.homeenv.engine import load_home

    home = load_home(args.home)

    async def main() -> dict[str, str]:
        async with connect(args.url, args.token) as call:
            return await assign_areas(call, home)

    moved = asyncio.run(main())
    print(f"moved {len(moved)} devices into their rooms' areas")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from aiohttp import web

    from sim_devices.matter_bridge.server import MatterBridge
    from smh_core.homeenv.engine import HomeEngine, dump_home
    from smh_core.sim.simulator import Simulator

    engine = HomeEngine.from_file(args.home)
    sim = Simulator(engine)
    bridge = MatterBridge(engine, sim)
    if not bridge.nodes:
        raise ValueError(f"{args.home} has no Matter-style devices to serve")

    async def main() -> None:
        runner = web.AppRunner(bridge.app(), shutdown_timeout=1.0)  # Ctrl-C stops within ~2 s
        await runner.setup()
        await web.TCPSite(runner, args.host, args.port).start()
        print(f"serving {len(bridge.nodes)} Matter nodes on ws://{args.host}:{args.port}/ws "
              f"(simulated time x{args.speed:g}); Ctrl-C to stop", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        clock = asyncio.create_task(bridge.run_clock(args.speed))
        await stop.wait()
        clock.cancel()
        await runner.cleanup()

    asyncio.run(main())
    if args.save:
        with open(args.save, "w", encoding="utf-8") as fh:
            fh.write(dump_home(sim.to_home()))
    bridge.close()
    return 0
