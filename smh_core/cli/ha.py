"""``smh ha check-mapping``: validate a hardware mapping before pointing a benchmark at it."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from smh_core.ha.hardware_map import HardwareMapping

TASKS_DIR = Path("tasks")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ha", help="work with a physical Home Assistant home")
    hs = p.add_subparsers(dest="ha_command", metavar="ACTION", required=True)

    c = hs.add_parser("check-mapping", help="validate a mapping file (and, with --ha-url, that its entities exist)")
    c.add_argument("file", type=Path, help="mapping YAML")
    c.add_argument("--tasks-dir", type=Path, default=TASKS_DIR,
                   help=f"directory the mapping's home file is relative to, as for tasks (default: {TASKS_DIR})")
    c.add_argument("--ha-url", default=os.environ.get("HA_URL"), help="HA base URL (env HA_URL)")
    c.add_argument("--token", default=os.environ.get("HA_TOKEN"), help="HA access token (env HA_TOKEN)")
    c.set_defaults(func=_check)


def _check(args: argparse.Namespace) -> int:
    from smh_core.bench.task_home import HomeCache
    from smh_core.ha.hardware import check_home
    from smh_core.ha.hardware_map import load_mapping

    mapping = load_mapping(args.file)
    check_home(mapping, [], HomeCache(args.tasks_dir))
    n = sum(1 for _ in mapping.items())
    print(f"{args.file}: {n} attributes of {len(mapping.devices)} devices on {len(mapping.entities())} entities")
    if args.ha_url:
        if not args.token:
            raise ValueError("--ha-url needs --token (or HA_TOKEN)")
        missing = asyncio.run(_missing(args.ha_url, args.token, mapping))
        if missing:
            print(f"not in HA: {', '.join(missing)}")
            return 1
        print(f"all {len(mapping.entities())} entities exist in {args.ha_url}")
    return 0


async def _missing(url: str, token: str, mapping: HardwareMapping) -> list[str]:
    import aiohttp

    from smh_core.ha.hardware import HardwareClient, missing_entities

    async with aiohttp.ClientSession() as session:
        return await missing_entities(HardwareClient(url.rstrip("/"), token, session), mapping)
