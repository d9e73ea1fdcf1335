"""SimuHome's devices exactly as its episodes give them: the Matter catalog type, with the
episode's own attribute values, the clusters and attributes the catalog does not model carried
as read-only attributes (a light's BasicInformation.ProductID, a covering's SafetyStatus), the
modes each mode cluster lists (SimuHome numbers a robot's run modes Idle 1, Cleaning 2, Mapping 3;
the catalog 0, 1, 2), and SimuHome's robot vacuum: a session of 1,800 s cleaning, 10 s seeking
its dock and 5 s docked, after which it stops, whichever clean mode it runs, and sent home (or
told to idle mid-session) it seeks its dock first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from smh_core.homeenv.dynamics import Cycle, Phase
from smh_core.homeenv.model import (
    Attribute,
    AttrType,
    Component,
    Device,
    Effect,
    Requirement,
    mode_tag_normalizer,
)
from smh_core.homeenv.narrowing import Narrowing, narrow
from smh_core.homeenv.validation import compile_checker

ROBOT_PROGRAM = [
    Phase(name="cleaning", seconds=1800),
    Phase(name="seeking charger", seconds=10, state=64),
    Phase(name="docked", seconds=5, state=66),
]
"""SimuHome's RVCOperationalState phases (``_phase_durations_sec``): the same for every clean mode."""
IDLE_TAG = 0x4000


_TYPES = (
    (bool, AttrType.BOOL),
    (int, AttrType.INT),
    (float, AttrType.FLOAT),
    (str, AttrType.STR),
    (list, AttrType.LIST),
    (dict, AttrType.DICT),
)
"""Python type -> attribute type, bool before int (a bool is an int)."""


def _type_of(value: Any) -> AttrType | None:
    return next((kind for py, kind in _TYPES if isinstance(value, py)), None)


def carry(
    device: Device,
    extras: Mapping[str, Any],
    components: Mapping[str, str],
    dropped: Counter,
    type_name: str,
) -> Device:
    """``device`` with the source's attributes the catalog does not model, read-only, in their
    cluster (``components``: the catalog's component names by lower-case name, so SimuHome's
    ``RVCOperationalState`` lands in ``RvcOperationalState``). A value of no type (null) is
    counted in ``dropped``."""
    added: dict[str, list[Attribute]] = {}
    for key, value in extras.items():
        cluster, _, name = key.rpartition(".")
        kind = _type_of(value)
        if not cluster or kind is None:
            dropped[(type_name, f"{key.split('.', 1)[-1]} = {value!r}")] += 1
            continue
        cluster = components.get(cluster.casefold(), cluster)
        added.setdefault(cluster, []).append(
            Attribute(
                name=name,
                type=kind,
                value=value,
                description="As the source device reports it (read-only).",
            )
        )
    out = []
    for c in device.components:
        more = added.pop(c.name, [])
        out.append(c.model_copy(update={"attributes": [*c.attributes, *more]}) if more else c)
    out += [Component(name=name, attributes=attrs) for name, attrs in sorted(added.items())]
    return device.model_copy(update={"components": out})


def _modes(value: Any) -> list[tuple[int, str]] | None:
    if not isinstance(value, list) or not value:
        return None
    modes = [(m.get("mode"), str(m.get("label", ""))) for m in value if isinstance(m, dict)]
    return (
        modes
        if modes and all(isinstance(m, int) and not isinstance(m, bool) for m, _ in modes)
        else None
    )


def source_modes(device: Device, values: Mapping[str, Any]) -> Device:
    """Each mode cluster (``…Mode.SupportedModes`` in ``values``) with the source's modes: its
    ``CurrentMode`` and its ``ChangeToMode`` argument take the modes the source lists, and their
    descriptions name them (an agent reads "1 Idle, 2 Cleaning, 3 Mapping", not the catalog's)."""
    out = []
    for c in device.components:
        listed = _modes(values.get(f"{c.name}.SupportedModes"))
        if listed is None or not any(a.name == "CurrentMode" for a in c.attributes):
            out.append(c)
            continue
        modes = [m for m, _ in listed]
        words = ", ".join(f"{m} {label}" for m, label in listed)
        attrs = [
            a.model_copy(
                update={
                    "options": modes,
                    "value": a.value if a.value in modes else modes[0],
                    "description": f"Current mode: {words}.",
                }
            )
            if a.name == "CurrentMode"
            else a
            for a in c.attributes
        ]
        services = [
            _change_to_mode(s, modes, words) if s.name == "ChangeToMode" else s for s in c.services
        ]
        out.append(c.model_copy(update={"attributes": attrs, "services": services}))
    return device.model_copy(update={"components": out})


def _change_to_mode(s: Any, modes: list[int], words: str) -> Any:
    """ChangeToMode with the source's modes; the catalog's sentences that name its own mode
    numbers are left out of the description."""
    kept = [
        t.strip()
        for t in s.description.split(";")
        if t.strip() and not any(ch.isdigit() for ch in t)
    ]
    arguments = [
        a.model_copy(update={"options": modes, "description": f"Mode: {words}."})
        if a.name == "newMode"
        else a
        for a in s.arguments
    ]
    return s.model_copy(
        update={
            "arguments": arguments,
            "description": "; ".join([f"Change to one of the modes {words}", *kept]).rstrip(".")
            + ".",
        }
    )


LIMITS = {
    "TemperatureControl": ("MinTemperature", "MaxTemperature", "TemperatureSetpoint"),
    "LevelControl": ("MinLevel", "MaxLevel", "CurrentLevel"),
}
"""Clusters whose setting takes its range from two of the cluster's own attributes: a SimuHome
freezer that goes from -23 to -15 °C, where the catalog's goes from -24 to -16 °C."""


def source_limits(device: Device, values: Mapping[str, Any]) -> Device:
    """``device`` with each limited setting (:data:`LIMITS`) ranging over the episode's limits;
    the services writing it follow (see :mod:`smh_core.homeenv.narrowing`)."""
    ranges: dict[str, tuple[float, float]] = {}
    for c in device.components:
        cluster = c.name.rsplit(".", 1)[-1]
        if cluster not in LIMITS:
            continue
        low_name, high_name, setting = LIMITS[cluster]
        low, high = values.get(f"{c.name}.{low_name}"), values.get(f"{c.name}.{high_name}")
        if (
            isinstance(low, int)
            and isinstance(high, int)
            and low <= high
            and any(a.name == setting for a in c.attributes)
        ):
            ranges[f"{c.name}.{setting}"] = (low, high)
    if not ranges:
        return device
    return narrow(
        device,
        Narrowing.of(
            [loc for loc, _ in device.attributes_by_locator()],
            [loc for loc, _ in device.services_by_locator()],
            ranges=ranges,
        ),
    )


def _written(device: Device) -> set[str]:
    """Locators some service of ``device`` writes."""
    out = set()
    for loc, s in device.services_by_locator():
        ns = loc.rpartition(".")[0]
        out |= {
            e.set[1:] if e.set.startswith("/") else (f"{ns}.{e.set}" if ns else e.set)
            for e in s.effects
        }
    return out


def with_values(
    device: Device, values: Mapping[str, Any], dropped: Counter, type_name: str
) -> Device:
    """``device`` with each of ``values`` its attribute accepts. A read-only attribute whose
    source value has another shape takes the source's (SimuHome lists a washer's spin speeds
    as numbers, the catalog as words); the other values are counted in ``dropped``."""
    written = _written(device)

    def attrs(ns: str, items: list[Attribute]) -> list[Attribute]:
        out = []
        for a in items:
            loc = f"{ns}.{a.name}" if ns else a.name
            if loc in values:
                normalize = mode_tag_normalizer(a)  # SimuHome writes mode tags as bare ids
                value = normalize(values[loc]) if normalize is not None else values[loc]
                if compile_checker(a, loc)(value) is None:
                    a = a.model_copy(update={"value": value})
                elif (
                    not a.writable and loc not in written and (kind := _type_of(value)) is not None
                ):
                    a = Attribute(
                        name=a.name,
                        type=kind,
                        value=value,
                        description=a.description,
                        matter_id=a.matter_id,
                    )
                else:
                    dropped[(type_name, f"{loc} = {values[loc]!r}")] += 1
            out.append(a)
        return out

    return device.model_copy(
        update={
            "attributes": attrs("", device.attributes),
            "components": [
                c.model_copy(update={"attributes": attrs(c.name, c.attributes)})
                for c in device.components
            ],
        }
    )


def simuhome_robot(device: Device) -> Device:
    """The catalog's robot vacuum as SimuHome runs it (see the module docstring)."""
    idle = _idle(device)
    out = []
    for c in device.components:
        if c.name == "1.RvcRunMode":
            c = c.model_copy(
                update={
                    "services": [
                        s.model_copy(update={"behavior": "rvc_change_run_mode_then_dock"})
                        if s.name == "ChangeToMode"
                        else s
                        for s in c.services
                    ]
                }
            )
        elif c.name == "1.RvcOperationalState":
            c = c.model_copy(
                update={
                    "attributes": [_robot_attribute(a) for a in c.attributes],
                    "services": [_robot_service(s, idle) for s in c.services],
                }
            )
        out.append(c)
    cycle = device.dynamics.cycle if device.dynamics is not None else None
    if cycle is None:
        return device.model_copy(update={"components": out})
    robot = Cycle(
        **{
            **cycle.model_dump(exclude={"programs", "on_complete"}),
            "programs": {"*": ROBOT_PROGRAM},
            "on_complete": {
                **cycle.on_complete,
                "1.RvcOperationalState.OperationalState": 0,
                "1.RvcRunMode.CurrentMode": idle,
            },
        }
    )
    return device.model_copy(
        update={"components": out, "dynamics": device.dynamics.model_copy(update={"cycle": robot})}
    )


def _idle(device: Device) -> Any:
    run = next((c for c in device.components if c.name == "1.RvcRunMode"), None)
    supported = (
        next((a.value for a in run.attributes if a.name == "SupportedModes"), None) if run else None
    )
    for option in supported or ():
        if IDLE_TAG in [
            t.get("value") if isinstance(t, dict) else t for t in option.get("modeTags") or ()
        ]:
            return option.get("mode")
    return 0


def _robot_attribute(a: Attribute) -> Attribute:
    if a.name == "PhaseList":
        return a.model_copy(update={"value": [p.name for p in ROBOT_PROGRAM]})
    if a.name == "CurrentPhase":
        return a.model_copy(update={"range": (0, len(ROBOT_PROGRAM) - 1)})
    return a


def _robot_service(s: Any, idle: Any) -> Any:
    if s.name == "Pause":  # SimuHome pauses a robot seeking its dock too
        return s.model_copy(
            update={
                "requires": [
                    Requirement(
                        attr="OperationalState",
                        in_=[1, 64],
                        message="the robot is neither cleaning nor going home",
                    )
                ]
            }
        )
    if s.name == "GoHome":  # it seeks its dock (10 s), docks (5 s), then stops
        return s.model_copy(
            update={
                "effects": [
                    Effect(set="OperationalState", value=64),
                    Effect(set="/1.RvcRunMode.CurrentMode", value=idle),
                ]
            }
        )
    return s
