"""Replay HomeBench's gold calls one by one on the imported homes: how many land in the state
they ask for, and why each of the others does not.

This measures the catalog against HomeBench's device semantics independently of which
instructions validate as tasks: every valid gold call of every instruction line (single,
multi, mixed) is mapped to the attribute values it asks for and planned on a fresh copy of
its home with the device's own services.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from smh_core.homeenv.engine import HomeEngine

from .homebench import ERROR, HomeBenchHome, json_lines, load_homes, parse_call, sources, split_gold
from .homebench_devices import Unsupported, method_targets
from .planner import plan
from .report import ImportReport


@dataclass
class GoldReplay:
    """Gold calls replayed, those landing in their state, and each disagreement with its reason."""

    calls: int = 0
    landed: int = 0
    by_method: Counter = field(default_factory=Counter)
    landed_by_method: Counter = field(default_factory=Counter)
    disagreements: list[tuple[str, str, str]] = field(default_factory=list)
    """``(file:line, call, reason)`` for each gold call that does not land."""


def replay_gold(root: Path) -> GoldReplay:
    """Replay every valid gold call under ``root`` (see :func:`.homebench.sources`)."""
    homes_file, files = sources(root)
    homes = load_homes(
        homes_file, ImportReport("HomeBench", str(root))
    )  # the import's notes are not this measure's
    out = GoldReplay()
    for path in files:
        for n, line in json_lines(path):
            if not isinstance(line, dict) or not isinstance(line.get("output"), str):
                continue
            home = homes.get(line.get("home_id"))
            for text in split_gold(line["output"]):
                if text == ERROR:
                    continue
                where = f"{path.name}:{n}"
                out.calls += 1
                reason = _replay_one(home, text)
                method = ".".join(
                    text.split("(", 1)[0].split(".")[-2:]
                )  # device.method, room or not
                out.by_method[method] += 1
                if reason is None:
                    out.landed += 1
                    out.landed_by_method[method] += 1
                else:
                    out.disagreements.append((where, text, reason))
    return out


def _replay_one(home: HomeBenchHome | None, text: str) -> str | None:
    """Why one gold call does not land in its state on a fresh copy of its home, or None."""
    if home is None:
        return "its home is not imported"
    try:
        call = parse_call(text, home.params)
    except ValueError as e:
        return str(e)
    found = home.devices.get((call.room, call.device))
    if found is None:
        return f"no catalog type acts like HomeBench's {call.device}"
    did, kind = found
    try:
        targets = method_targets(kind, call.method, call.argument)
    except Unsupported as e:
        return f"no counterpart: {e}"
    if plan(HomeEngine(home.home), did, targets) is None:
        return f"refused: no calls of the {kind.type} reach {targets}"
    return None
