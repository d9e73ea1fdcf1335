"""``smh home generate|show|from-ha|probe``: make deterministic homes, summarise home files, make
a live Home Assistant home's simulated twin, and teach a twin how its real devices move."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from .ha import add_login, read_live

if TYPE_CHECKING:
    from smh_core.homeenv.model import Home


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("home", help="generate or inspect HomeEnv homes")
    hs = p.add_subparsers(dest="home_command", metavar="ACTION", required=True)

    g = hs.add_parser("generate", help="generate a home (same seed, same bytes)")
    g.add_argument(
        "--level",
        choices=["simple", "medium", "complex"],
        default=None,
        help="home size, as in SMH-Bench (default: medium)",
    )
    g.add_argument(
        "--matter",
        action="store_true",
        help="a SimuHome-style home of Matter devices instead (27 devices; what `smh matter-server` "
        "serves and the simuhome suite's tasks run in: --seed N is their home {seed: N, generator: matter})",
    )
    g.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    g.add_argument("--out", type=Path, required=True, help="output JSON file")
    g.set_defaults(func=_generate)

    t = hs.add_parser(
        "from-ha",
        help="the simulated twin of a live Home Assistant home (or of a copy of its .storage "
        "folder and a states dump): its areas, floors, aliases, devices and Assist exposure",
        description="Write the simulated twin of a Home Assistant home: every entity SMH can "
        "simulate becomes a device under its entity id, in its area, with its name, aliases, "
        "device class, features and current state; the rest are listed with reasons in "
        "OUT's .import.md beside it. Read live over the websocket API (an admin's token: "
        "exposure settings are admin-only) or offline with --storage and --states. With "
        "--matter, each device HA's matter integration serves becomes one Matter device under "
        "its HA device id, from its node's clusters (SimuHome's query types act on those).",
    )
    t.add_argument("--out", type=Path, required=True, help="the twin's home JSON file to write")
    add_login(t.add_argument_group("live"))
    offline = t.add_argument_group("offline")
    offline.add_argument(
        "--storage", type=Path, help="a copy of HA's config/.storage folder (its registries)"
    )
    offline.add_argument(
        "--states", type=Path, help="with --storage: the JSON that GET /api/states answers"
    )
    t.add_argument(
        "--matter",
        action="store_true",
        help="keep each device HA's matter integration serves as the Matter device it is (its "
        "endpoints and clusters, from the integration's diagnostics), as SimuHome's query types "
        "need; the other suites want the default twin (every entity a device)",
    )
    offline.add_argument(
        "--matter-diagnostics",
        type=Path,
        help="with --matter: the JSON the matter integration's 'Download diagnostics' gives "
        "(live, it is read from HA)",
    )
    t.set_defaults(func=_from_ha)

    pr = hs.add_parser(
        "probe",
        help="teach a twin how its real devices move: drive each settable number of each device "
        "that is not high-risk through two calls, put it back, and write the steps and speeds seen",
        description="With your consent (asked, or --yes), ask each settable number of each "
        "device of the twin that is not high-risk (never locks, alarms, garage doors, valves, "
        "thermostats...) for 44 %% and 67 %% of its range, one call each, watch where it stops "
        "and how fast it gets there, and put it back as it was. A device that holds only a grid "
        "of values (HA's demo windows: steps of 10) gets that grid in the twin (the task "
        "generators honour it) and the way it takes a value off it (the demo's: to the nearest "
        "step; one more call where the two leave it open), which the twin then does too; one "
        "that travels gets its speed (the twin-vs-real report expects it). A thermostat opted in is "
        "also set to two of its modes and turned off and on from each: where it comes on in "
        "one mode (HA's default turn-on), the twin's turn_on sets that mode too. Devices HA shows "
        "unavailable are not moved. A high-risk device is probed only where named with "
        "--allow-high-risk, as you opt it in for real runs. What was seen goes to OUT's "
        ".probe.md beside it.",
    )
    pr.add_argument("--home", type=Path, required=True, help="the twin (from `smh home from-ha`)")
    pr.add_argument("--out", type=Path, help="the calibrated twin to write (default: --home)")
    pr.add_argument(
        "--yes", action="store_true", help="move the listed devices without asking first"
    )
    pr.add_argument(
        "--allow-high-risk",
        action="append",
        default=[],
        metavar="DEVICE",
        help="probe this high-risk device (its entity id) too, as one opted in for real runs "
        "(repeatable; an id that is not a high-risk device of the twin is refused)",
    )
    add_login(pr.add_argument_group("live"))
    pr.set_defaults(func=_probe)

    s = hs.add_parser("show", help="print a readable summary of a home file")
    s.add_argument("file", type=Path, help="home JSON file")
    s.set_defaults(func=_show)


def _generate(args: argparse.Namespace) -> int:
    from smh_core.homeenv.engine import dump_home

    if args.matter and args.level is not None:
        raise ValueError("--matter homes have one size: leave out --level")
    if args.matter:
        from smh_core.homes.simulated import generate_matter_home

        home = generate_matter_home(args.seed)
    else:
        from smh_core.homes.generator import generate_home

        home = generate_home(args.level or "medium", args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(dump_home(home), encoding="utf-8")
    print(f"wrote {args.out}: {len(home.rooms)} rooms, {len(home.devices)} devices")
    return 0


def _from_ha(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses

    from smh_core.ha.login import access_token
    from smh_core.ha.twin import Registries, read_registries, registries_from_storage, twin_from
    from smh_core.ha.twin_matter import matter_nodes_file, read_matter_nodes
    from smh_core.ha.websocket import WsCall
    from smh_core.homeenv.engine import dump_home

    if args.matter_diagnostics is not None and not args.matter:
        raise ValueError("--matter-diagnostics is read with --matter (the twin of Matter devices)")
    offline = args.storage is not None or args.states is not None
    if offline:
        if args.storage is None or args.states is None:
            raise ValueError("offline, give both --storage (HA's .storage folder) and --states")
        if args.matter and args.matter_diagnostics is None:
            raise ValueError(
                "offline, --matter needs --matter-diagnostics (the matter integration's "
                "'Download diagnostics' JSON)"
            )
        regs = registries_from_storage(args.storage, args.states)
        source = str(args.storage)
    elif args.ha_url:
        token = asyncio.run(access_token(args.ha_url, args.token, args.username))
        args.token, args.username = token, None
        live_matter = args.matter and args.matter_diagnostics is None

        async def read(call: WsCall) -> Registries:
            regs = await read_registries(call)
            if live_matter:
                nodes = await read_matter_nodes(call, args.ha_url, token)
                regs = dataclasses.replace(regs, matter=nodes)
            return regs

        regs = read_live(args, read)
        source = args.ha_url
    else:
        raise ValueError(
            "smh home from-ha needs --ha-url (with --token or --username), or --storage and --states"
        )
    if args.matter_diagnostics is not None:
        regs = dataclasses.replace(regs, matter=matter_nodes_file(args.matter_diagnostics))
    twin = twin_from(regs, source)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(dump_home(twin.home), encoding="utf-8")
    md, _ = twin.report.write(args.out.parent, args.out.stem)
    print(f"wrote {args.out}: {twin.summary()}")
    reasons = Counter(why for _, why in twin.report.skipped)
    for why, n in reasons.most_common(8):
        print(f"  not simulated: {n} x {why}")
    if len(reasons) > 8:
        print(f"  ... {len(reasons) - 8} more reasons")
    print(f"every entity and its reason: {md}")
    return 0


def _probe(args: argparse.Namespace) -> int:
    import asyncio
    import sys

    import aiohttp

    from smh_core.ha.ha_inventory import read_inventory
    from smh_core.ha.hardware import HardwareClient
    from smh_core.ha.login import access_token
    from smh_core.ha.twin_map import twin_mapping
    from smh_core.ha.twin_probe import NOTHING_TO_PROBE, Probe, calibrated, probe_home, probed
    from smh_core.ha.twin_turn_on import nothing_to_learn, turn_on_targets
    from smh_core.homeenv.engine import HomeEngine, dump_home, load_home
    from smh_core.task.model import HomeRef

    if not args.ha_url:
        raise ValueError("smh home probe needs --ha-url (with --token or --username)")
    home = load_home(args.home)
    token = asyncio.run(access_token(args.ha_url, args.token, args.username))
    args.token, args.username = token, None
    inventory = read_live(args, read_inventory)
    allowed = args.allow_high_risk
    proposal = twin_mapping(home, HomeRef(file=f"homes/{args.home.name}"), inventory, allowed)
    # a home of only high-risk devices (a lone lock) maps nothing, and a mapping needs a device
    targets = probed(home, proposal.mapping(), allowed) if proposal.devices() else []
    turned = (
        [
            (device, modes)
            for device, modes in turn_on_targets(home, proposal.mapping(), allowed)
            if nothing_to_learn(device.did, modes, proposal.mapping()) is None
        ]
        if proposal.devices()
        else []
    )
    out = args.out or args.home
    report = out.with_name(f"{out.stem}.probe.md")
    if not targets and not turned:
        print(NOTHING_TO_PROBE)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(dump_home(home), encoding="utf-8")  # the twin as it was, where asked
        report.write_text(Probe().markdown(), encoding="utf-8")
        print(f"wrote {out}: the twin unchanged; {report}")
        return 0
    mapping = proposal.mapping()
    print(
        f"the probe moves {len(targets) + len(turned)} settings of devices in {args.ha_url}, "
        "then puts them back:"
    )
    for device, locator, lo, hi in targets:
        print(f"  {device.did} {locator} ({lo:g}-{hi:g})")
    for device, modes in turned:
        print(f"  {device.did} turn_on (set to {modes[0]}, then {modes[1]}; each off and on)")
    if not args.yes:
        if not sys.stdin.isatty():
            raise ValueError(
                "the probe moves real devices: confirm with --yes (no terminal to ask)"
            )
        if input("move them now? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing moved")
            return 1
    like = HomeEngine(home).snapshot()

    async def run():
        async with aiohttp.ClientSession() as session:
            client = HardwareClient(args.ha_url.rstrip("/"), token, session)
            return await probe_home(client, home, mapping, like, allow_high_risk=allowed)

    probe = asyncio.run(run())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump_home(calibrated(home, probe.learnt, probe.turn_on)), encoding="utf-8")
    report.write_text(probe.markdown(), encoding="utf-8")
    for line in [i.describe() for i in probe.learnt] + [i.describe() for i in probe.turn_on]:
        print(f"  {line}")
    learnt = sum(1 for i in probe.learnt if i.step is not None or i.rate is not None)
    learnt += sum(1 for i in probe.turn_on if i.lands is not None or i.resumes)
    seen = len(probe.learnt) + len(probe.turn_on)
    print(f"wrote {out}: {learnt} of {seen} settings learnt; what was seen: {report}")
    for problem in probe.restore_problems:
        print(f"NOT PUT BACK: {problem}", file=sys.stderr)
    return 2 if probe.restore_problems else 0


def summarize(home: Home) -> str:
    """Rooms as a tree (with device counts) and device counts by type."""
    per_room = Counter(d.userdata.room for d in home.devices)
    children: dict[str | None, list] = {}
    for r in home.rooms:
        children.setdefault(r.parent, []).append(r)
    lines = [f"{home.name}: {len(home.rooms)} rooms, {len(home.devices)} devices", "", "Rooms:"]

    def walk(parent: str | None, depth: int) -> None:
        for r in sorted(children.get(parent, []), key=lambda r: (r.floor, r.id)):
            lines.append(
                f"{'  ' * (depth + 1)}{r.name} [{r.id}, {r.type}, floor {r.floor}]"
                f" — {per_room.get(r.id, 0)} devices"
            )
            walk(r.id, depth + 1)

    walk(None, 0)
    if per_room.get(None):
        lines.append(f"  (no room) — {per_room[None]} devices")
    by_type = Counter(d.userdata.subcategory for d in home.devices)
    lines += ["", f"Devices by type ({len(by_type)} types):"]
    width = max((len(t) for t in by_type), default=0)
    lines += [
        f"  {t:<{width}}  {n}" for t, n in sorted(by_type.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    return "\n".join(lines)


def _show(args: argparse.Namespace) -> int:
    from smh_core.homeenv.engine import load_home

    print(summarize(load_home(args.file)))
    return 0
