"""``smh ha map``: propose a hardware mapping from a live Home Assistant;
``smh ha check-mapping``: validate one before pointing a benchmark at it."""

from __future__ import annotations

import argparse
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from smh_core.ha.hardware_map import HardwareMapping
    from smh_core.ha.websocket import WsCall

TASKS_DIR = Path("tasks")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ha", help="work with a physical Home Assistant home")
    hs = p.add_subparsers(dest="ha_command", metavar="ACTION", required=True)

    c = hs.add_parser(
        "check-mapping",
        help="validate a mapping file (and, with --ha-url, that its entities exist)",
    )
    c.add_argument("file", type=Path, help="mapping YAML")
    c.add_argument(
        "--tasks-dir",
        type=Path,
        default=TASKS_DIR,
        help=f"directory the mapping's home file is relative to, as for tasks (default: {TASKS_DIR})",
    )
    c.add_argument("--ha-url", default=os.environ.get("HA_URL"), help="HA base URL (env HA_URL)")
    c.add_argument(
        "--token", default=os.environ.get("HA_TOKEN"), help="HA access token (env HA_TOKEN)"
    )
    c.set_defaults(func=_check)

    m = hs.add_parser(
        "map",
        help="propose a mapping of a task home's devices to a live HA's entities (by name, "
        "area, domain and features); writes the file check-mapping and --mapping read",
    )
    src = m.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--suite",
        help="the tasks' suite (tasks/SUITE.jsonl): their home is mapped, and the tasks "
        "that cannot run on it are listed",
    )
    src.add_argument("--tasks", type=Path, help="a task file (as --suite)")
    src.add_argument("--home-file", type=Path, help="a HomeEnv home file to map, without tasks")
    m.add_argument(
        "--home",
        help="which home, when the tasks use several: its key (matter:1, simple:0, "
        "file:homes/tiny.json) or file name; the choices are listed otherwise",
    )
    m.add_argument(
        "--tasks-dir",
        type=Path,
        default=TASKS_DIR,
        help=f"where --suite is read (default: {TASKS_DIR})",
    )
    m.add_argument(
        "--out",
        type=Path,
        required=True,
        help="mapping YAML to write; if it exists, the devices it maps or skips are kept as they are",
    )
    m.add_argument(
        "--interactive",
        action="store_true",
        help="confirm or change each device's match in the terminal",
    )
    m.add_argument(
        "--twin",
        action="store_true",
        help="with --home-file TWIN (from `smh home from-ha`, or tasks on it): map each device "
        "onto the entity it was made from, no name matching; high-risk devices (locks, alarms, "
        "valves, ovens...) are left out unless named with --allow-high-risk",
    )
    m.add_argument(
        "--allow-high-risk",
        action="append",
        default=[],
        metavar="DEVICE",
        help="with --twin: include this high-risk device (its entity id) in real runs (repeatable)",
    )
    add_login(m)
    m.set_defaults(func=_map)

    t = hs.add_parser(
        "compare-twin",
        help="put a run on a home's twin and a run of the same tasks on the real home side by "
        "side: verdicts per task, and each device that behaved differently from its twin",
    )
    t.add_argument("twin_run", type=Path, help="the run folder of `smh bench run` on the twin")
    t.add_argument("real_run", type=Path, help="the run folder of the same tasks on the real home")
    t.add_argument(
        "--home", type=Path, help="the twin's home file: values it never knew are not compared"
    )
    t.add_argument("--out", type=Path, help="write the Markdown report here (default: print it)")
    t.set_defaults(func=_compare_twin)


def add_login(parser: Any) -> None:
    """``--ha-url`` and either ``--token`` or ``--username``: how a command reaches a live HA
    (a parser or an argument group)."""
    parser.add_argument(
        "--ha-url", default=os.environ.get("HA_URL"), help="HA base URL (env HA_URL)"
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--token", default=os.environ.get("HA_TOKEN"), help="HA access token (env HA_TOKEN)"
    )
    who.add_argument(
        "--username", help="log in as this HA user instead (password from $HA_PASSWORD, else asked)"
    )


def read_live[T](args: argparse.Namespace, read: Callable[[WsCall], Awaitable[T]]) -> T:
    """``read`` over one websocket to the HA of ``args`` (see :func:`add_login`)."""
    import asyncio

    from smh_core.ha.login import access_token
    from smh_core.ha.websocket import connect

    async def run() -> T:
        token = await access_token(args.ha_url, args.token, args.username)
        async with connect(args.ha_url, token) as call:
            return await read(call)

    return asyncio.run(run())


def _check(args: argparse.Namespace) -> int:
    import asyncio

    from smh_core.ha.hardware import check_home
    from smh_core.ha.hardware_map import load_mapping
    from smh_core.task.home import HomeCache

    mapping = load_mapping(args.file)
    check_home(mapping, [], HomeCache(args.tasks_dir))
    n = sum(1 for _ in mapping.items())
    print(
        f"{args.file}: {n} attributes of {len(mapping.devices)} devices on {len(mapping.entities())} entities"
    )
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


def _home_to_map(args: argparse.Namespace) -> tuple[Any, Any, list, Any]:
    """``(home model, its reference as tasks write it, the tasks in it, the home cache)``."""
    from smh_core.importers.suites import suite_file
    from smh_core.task.home import HomeCache, read_home_file
    from smh_core.task.model import HomeRef, load_tasks

    if args.home_file is not None:
        try:
            name = args.home_file.resolve().relative_to(args.tasks_dir.resolve()).as_posix()
        except ValueError:
            name = args.home_file.as_posix()
        return read_home_file(args.home_file), HomeRef(file=name), [], None
    path = args.tasks or suite_file(args.suite, args.tasks_dir)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no task file")
    tasks = load_tasks([path])
    homes: dict[str, list] = {}
    for task in tasks:
        homes.setdefault(task.home.key(), []).append(task)
    if args.home is not None:
        wanted = [
            k for k in homes if args.home in (k, k.removeprefix("file:"), k.rsplit("/", 1)[-1])
        ]
        if not wanted:
            raise ValueError(
                f"--home {args.home}: no task of {path} is in it; homes: {_homes_list(homes)}"
            )
        key = wanted[0]
    elif len(homes) == 1:
        key = next(iter(homes))
    else:
        raise ValueError(
            f"{path} has tasks in {len(homes)} homes: pick one with --home ({_homes_list(homes)})"
        )
    cache = HomeCache(path.parent)
    group = homes[key]
    return cache.get(group[0]), group[0].home, group, cache


def _homes_list(homes: dict[str, list]) -> str:
    return ", ".join(
        f"{k} ({len(v)} tasks)" for k, v in sorted(homes.items(), key=lambda kv: -len(kv[1]))[:12]
    )


def _map(args: argparse.Namespace) -> int:
    from smh_core.ha.ha_inventory import read_inventory
    from smh_core.ha.hardware import cannot_run
    from smh_core.ha.hardware_map import load_mapping
    from smh_core.ha.map_propose import check_earlier, propose, render, summary
    from smh_core.ha.map_review import review

    if not args.ha_url:
        raise ValueError(
            "smh ha map needs --ha-url (or HA_URL) and --token (or HA_TOKEN, or --username)"
        )
    home, ref, tasks, cache = _home_to_map(args)
    earlier = load_mapping(args.out) if args.out.exists() else None
    if earlier is not None:
        check_earlier(earlier, ref)

    found = read_live(args, read_inventory)
    if args.twin:
        from smh_core.ha.twin_map import twin_mapping

        if args.interactive:
            raise ValueError("--twin writes the mapping the twin implies: no --interactive")
        if earlier is not None:
            raise ValueError(
                f"--twin: {args.out} exists; the twin implies its mapping, so write it to a new "
                "file (or remove this one)"
            )
        proposal = twin_mapping(home, ref, found, args.allow_high_risk)
    else:
        if args.allow_high_risk:
            raise ValueError("--allow-high-risk goes with --twin")
        proposal = propose(home, ref, found, earlier)
    if args.interactive:
        proposal = review(proposal, found, input, print)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(proposal, args.ha_url), encoding="utf-8")
    for line in summary(proposal) + proposal.notes:
        print(line)
    mapping = proposal.mapping()
    n = sum(1 for _ in mapping.items())
    print(
        f"wrote {args.out}: {n} attributes of {len(mapping.devices)} devices on {len(mapping.entities())} entities; "
        f"{len(proposal.unmatched())} device parts not mapped"
    )
    if tasks:
        _print_cannot_run(cannot_run(tasks, mapping, cache, traced=True), len(tasks))
    return 0


def _compare_twin(args: argparse.Namespace) -> int:
    from smh_core.ha.twin_compare import compare_runs
    from smh_core.homeenv.engine import load_home

    home = load_home(args.home) if args.home is not None else None
    result = compare_runs(args.twin_run, args.real_run, home)
    text = result.markdown()
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        print(text.splitlines()[2])
        print(f"report: {args.out}")
    else:
        print(text, end="")
    return 0


def _print_cannot_run(reasons: dict[str, str], total: int, most: int = 20) -> None:
    """How many of the home's tasks can run on the mapping, and why the others cannot."""
    from collections import Counter

    print(
        f"tasks of this home: {total - len(reasons)} of {total} can run on this mapping (with the oracle or an "
        f"agent that reports its tool calls)"
    )
    by_reason = Counter(
        r.split(": ")[0] if r.startswith("not mapped") else r for r in reasons.values()
    )
    for reason, count in by_reason.most_common():
        print(f"  cannot run: {count} x {reason}")
    for task_id, reason in list(reasons.items())[:most]:
        print(f"    {task_id}: {reason}")
    if len(reasons) > most:
        print(f"    ... and {len(reasons) - most} more")
