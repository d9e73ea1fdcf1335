"""Import allenporter/home-assistant-datasets (the ``assist`` format: ``assist``, ``assist-mini``).

A dataset folder holds ``_fixtures.yaml`` (a synthetic home: areas, devices, entities with their
state and attributes) and test files (``category`` and ``tests``: sentences, ``setup`` states,
``expect_changes``, ``ignore_changes``). Each fixture folder becomes one home (an entity becomes
a device of the catalog type that has its semantics, its entity id kept as the device id so
names line up with the source), and each (test, sentence) pair becomes one execute task whose
critic is the expected changes in the catalog's terms. Entities of domains the catalog cannot
act like are left out, and tests that need them are skipped, each with its reason in the report.

The format is read from the published repository (Apache-2.0); nothing of it ships here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from sim_devices.catalog import instantiate
from smh_core.homeenv.critic import device_id_text
from smh_core.homeenv.engine import dump_home
from smh_core.homeenv.model import Home, Room

from ..task import Task, dump_task
from .report import ImportReport

SUITE = "ha_datasets"


@dataclass(frozen=True)
class Mapped:
    """An HA entity state in the catalog type's terms: attribute values, and the services that
    bring a device there (the reference solution), plus what could not be carried over."""

    values: dict[str, Any]
    actions: list[dict[str, Any]]
    critic: list[str]
    notes: tuple[str, ...] = ()


def _light(state: str | None, attrs: dict[str, Any]) -> Mapped:
    """A light in HA's own terms: brightness 0-255 as is (imported lights keep that range, see
    :data:`RANGES`, so HA shows the source's value exactly), and, as the source's synthetic
    lights are built, a light with a brightness above 0 is on whatever its state says."""
    values: dict[str, Any] = {}
    actions: list[dict[str, Any]] = []
    critic: list[str] = []
    brightness = attrs.get("brightness")
    level = int(brightness) if isinstance(brightness, (int, float)) and not isinstance(brightness, bool) else None
    if level and state in (None, "off"):
        state = "on"
    if state in ("on", "off"):
        values["state"] = state
        actions.append({"locator": "turn_on" if state == "on" else "turn_off"})
        critic.append(f"state == {state}")
    elif state is not None:
        raise _Unsupported(f"light state {state!r}")
    if level is not None:
        values["brightness"] = level  # an off light keeps it, and turning it on restores it (0 too)
    if state != "off" and level:
        actions.append({"locator": "set_brightness", "arguments": {"brightness": level}})
        critic.append(f"brightness == {level}")
    other = sorted(set(attrs) - {"brightness", "color_mode", "supported_color_modes"})
    if other:
        raise _Unsupported(f"light attributes {other}")
    return Mapped(values, actions, critic)


def _lock(state: str | None, attrs: dict[str, Any]) -> Mapped:
    if state not in ("locked", "unlocked", None):
        raise _Unsupported(f"lock state {state!r}")
    if attrs:
        raise _Unsupported(f"lock attributes {sorted(attrs)}")
    if state is None:
        return Mapped({}, [], [])
    return Mapped({"state": state}, [{"locator": "lock" if state == "locked" else "open"}], [f"state == {state}"])


def _cover(state: str | None, attrs: dict[str, Any]) -> Mapped:
    attrs = dict(attrs)
    position = attrs.pop("current_position", None)
    if attrs:
        raise _Unsupported(f"cover attributes {sorted(attrs)}")
    if isinstance(position, (int, float)):
        pos = int(position)
        return Mapped({"position": pos}, [{"locator": "set_position", "arguments": {"position": pos}}],
                      [f"position == {pos}"])
    if state == "closed":
        return Mapped({"position": 0}, [{"locator": "close"}], ["position == 0"])
    if state == "open":  # HA's "open" is any position above 0
        return Mapped({"position": 100}, [{"locator": "open"}], ["position > 0"])
    if state is None:
        return Mapped({}, [], [])
    raise _Unsupported(f"cover state {state!r}")


_SPEEDS = ((33, "low"), (66, "medium"), (100, "high"))


def _fan(state: str | None, attrs: dict[str, Any]) -> Mapped:
    attrs = dict(attrs)
    percentage = attrs.pop("percentage", None)
    oscillating = attrs.pop("oscillating", None)
    if attrs:
        raise _Unsupported(f"fan attributes {sorted(attrs)}")
    if state not in ("on", "off", None):
        raise _Unsupported(f"fan state {state!r}")
    values: dict[str, Any] = {}
    actions: list[dict[str, Any]] = []
    critic: list[str] = []
    notes = []
    if state is not None:
        values["state"] = state
        actions.append({"locator": "turn_on" if state == "on" else "turn_off"})
        critic.append(f"state == {state}")
    # HA's fans go to 100 % when turned on and report 0 % when off: those are what on and off
    # mean there, not a speed the user asked for, so only another percentage is a speed goal.
    if isinstance(percentage, (int, float)) and not (state == "on" and percentage == 100) \
            and not (state == "off" and percentage == 0) and percentage > 0:
        level = next(name for top, name in _SPEEDS if percentage <= top)
        values["speed_level"] = level
        actions.append({"locator": "set_speed_level", "arguments": {"speed_level": level}})
        critic.append(f"speed_level == {level}")
        notes.append(f"percentage {percentage} compared as speed level {level}")
    elif percentage is not None:
        notes.append(f"percentage {percentage} of a fan turned {state} not compared")
    if state is not None and "speed_level" not in values:
        values["speed_level"] = "high"  # the source's fans run at 100 % when turned on without a speed
    if isinstance(oscillating, bool):
        values["oscillation_enabled"] = oscillating
        actions.append({"locator": "set_oscillation", "arguments": {"oscillation_enabled": oscillating}})
        critic.append(f"oscillation_enabled == {oscillating}")
    return Mapped(values, actions, critic, tuple(notes))


def _switch(state: str | None, attrs: dict[str, Any]) -> Mapped:
    if state not in ("on", "off", None):
        raise _Unsupported(f"switch state {state!r}")
    if state is None:
        return Mapped({}, [], [])
    return Mapped({"state": state}, [{"locator": "turn_on" if state == "on" else "turn_off"}], [f"state == {state}"])


def _stand_in(attribute: str, read: Callable[[str], Any]) -> Callable[[str | None, dict[str, Any]], Mapped]:
    """A read-only entity (a sensor): its state as the stand-in's one attribute. Nothing can
    change it, so an expectation on it is checked, never reached by a call."""
    def mapper(state: str | None, attrs: dict[str, Any]) -> Mapped:
        if state is None:
            return Mapped({}, [], [])
        value = read(state)
        return Mapped({attribute: value}, [], [f"{attribute} == {value!r}" if isinstance(value, str) else
                                                f"{attribute} == {value}"])
    return mapper


MAPPERS: dict[str, tuple[str, Callable[[str | None, dict[str, Any]], Mapped], str]] = {
    "light": ("light", _light, ""),
    "lock": ("smart_lock", _lock, ""),
    "cover": ("curtain", _cover, "a cover acts as the catalog curtain (position 0-100, 100 open)"),
    "fan": ("smart_fan", _fan, "speed as low/medium/high levels, not percent"),
    "switch": ("smart_plug", _switch, ""),
    # stand-ins: HA matches their names and areas (a binary sensor named "Smart Lock" makes
    # "unlock the smart lock" ambiguous there); their readings are not simulated
    "binary_sensor": ("binary_sensor", _stand_in("detected", lambda s: s == "on"),
                      "a stand-in for its name and area: its reading is not simulated"),
    "sensor": ("sensor", _stand_in("reading", lambda s: s[:255]),
               "a stand-in for its name and area: its reading is not simulated"),
}
STAND_INS = frozenset({"binary_sensor", "sensor"})
"""Domains imported only so that HA sees their entities' names and areas."""
RANGES: dict[str, dict[str, tuple[float, float]]] = {"light": {"brightness": (0, 255)}}
"""Per HA domain, attributes imported in HA's own units rather than the catalog's (a light's
brightness 0-255, not 1-100 %): every level the source states is kept and read back exactly."""
DESCRIPTIVE = frozenset({
    "supported_features", "device_class", "friendly_name", "icon", "supported_color_modes", "color_mode",
    "min_color_temp_kelvin", "max_color_temp_kelvin", "min_mireds", "max_mireds", "preset_modes",
    "percentage_step", "speed_count", "assumed_state", "attribution", "entity_picture", "unit_of_measurement",
})
"""Attributes that describe what an entity can do rather than its state: nothing to set or check."""


def map_state(domain: str, state: Any, attrs: dict[str, Any]) -> Mapped:
    """An HA state of ``domain`` in catalog terms. YAML reads a bare ``on``/``off`` as a
    boolean, so booleans are taken back as those words."""
    if isinstance(state, bool):
        state = "on" if state else "off"
    kept = {k: v for k, v in attrs.items() if k not in DESCRIPTIVE and domain not in STAND_INS}
    return MAPPERS[domain][1](None if state is None else str(state), kept)


class _Unsupported(Exception):
    pass


def _load_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise ValueError(f"{path}: cannot read ({str(e).splitlines()[0]})") from None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _difficulty(n_devices: int) -> str:
    return "simple" if n_devices <= 10 else "medium" if n_devices <= 40 else "complex"


@dataclass
class _Home:
    name: str
    file: str
    home: Home
    entities: dict[str, str]  # supported entity id -> HA domain
    attributes: dict[str, dict[str, Any]]  # its attributes in the fixture (a test's setup adds to them)


def _build_home(folder: Path, name: str, report: ImportReport) -> _Home:
    fixture = _load_yaml(folder / "_fixtures.yaml") or {}
    if not isinstance(fixture, dict):
        raise ValueError(f"{folder / '_fixtures.yaml'}: expected a mapping with areas, devices and entities")
    areas = {a["id"]: a.get("name") or a["id"] for a in fixture.get("areas") or [] if isinstance(a, dict) and "id" in a}
    device_area = {d["id"]: d.get("area") for d in fixture.get("devices") or [] if isinstance(d, dict) and "id" in d}
    floors = {a["id"]: str(a["floor"]) for a in fixture.get("areas") or []
              if isinstance(a, dict) and "id" in a and a.get("floor")}
    levels = {f: n for n, f in enumerate(dict.fromkeys(floors.values()), 1)}  # in order of appearance
    rooms = {aid: Room(id=aid, type=aid, name=label, floor=levels.get(floors.get(aid, ""), 1),
                       floor_name=floors.get(aid)) for aid, label in areas.items()}
    devices, entities, attributes = [], {}, {}
    for ent in fixture.get("entities") or []:
        if not isinstance(ent, dict) or "id" not in ent:
            report.skip(f"{name}: entity {ent!r}", "an entity without an id")
            continue
        eid = str(ent["id"])
        domain = eid.split(".", 1)[0]
        if domain not in MAPPERS:
            report.skip(f"{name}: {eid}", f"no catalog type acts like HA's {domain} entities")
            continue
        type_name, _, how = MAPPERS[domain]
        try:
            mapped = map_state(domain, ent.get("state"), dict(ent.get("attributes") or {}))
        except _Unsupported as e:
            report.skip(f"{name}: {eid}", f"initial {e} not modelled")
            continue
        area = ent.get("area") or device_area.get(ent.get("device"))
        if area not in rooms:
            area = None  # HA allows a device in no area; so does a home file
        if how:
            report.approximate(f"{name}: {eid}", how)
        devices.append(instantiate(type_name, did=eid, room=area, name=str(ent.get("name") or eid),
                                   values=mapped.values or None, ranges=RANGES.get(domain)))
        entities[eid] = domain
        attributes[eid] = dict(ent.get("attributes") or {})
    room_list = list(rooms.values())
    home = Home(name=f"ha-datasets {name}", rooms=room_list, devices=devices)
    return _Home(name, f"homes/had-{_slug(name)}.json", home, entities, attributes)


def _task_for(home: _Home, stem: str, category: str, i: int, j: int, sentence: str, test: dict[str, Any],
              report: ImportReport) -> Task | None:
    item = source_item(home.name, stem, i, j)
    expect = test.get("expect_changes") or {}
    if not expect:
        report.skip(item, "no expected change (a question or a no-op test): not imported yet")
        return None
    ignore = test.get("ignore_changes") or {}
    overrides, actions, clauses = [], [], []
    for eid, state in (test.get("setup") or {}).items():
        if eid not in home.entities:
            report.skip(item, f"its setup needs {eid}, which is not imported")
            return None
        try:
            # the source builds the entity from the fixture with the setup merged in
            attrs = {**home.attributes.get(eid, {}), **(state.get("attributes") or {})}
            mapped = map_state(home.entities[eid], state.get("state"), attrs)
        except _Unsupported as e:
            report.skip(item, f"setup {e} not modelled")
            return None
        if mapped.values:
            overrides.append({"did": eid, "values": mapped.values})
    for eid, change in expect.items():
        if eid not in home.entities:
            report.skip(item, f"expects a change of {eid}, which is not imported")
            return None
        change = change or {}
        attrs = {k: v for k, v in (change.get("attributes") or {}).items() if k not in (ignore.get(eid) or [])}
        state = None if "state" in (ignore.get(eid) or []) else change.get("state")
        try:
            mapped = map_state(home.entities[eid], state, attrs)
        except _Unsupported as e:
            report.skip(item, f"expected {e} not modelled")
            return None
        for note in mapped.notes:
            report.approximate(item, note)
        if not mapped.critic:
            continue
        ref = f"device({device_id_text(eid)})"
        clauses.append(f"{ref}.{mapped.critic[0]}" + "".join(f" and {c}" for c in mapped.critic[1:]))
        actions += [{"did": eid, **a} for a in mapped.actions]
    if not clauses:
        report.skip(item, "nothing left to check once ignored attributes are dropped")
        return None
    return Task.model_validate({
        "id": task_id(home.name, stem, i, j), "suite": SUITE,
        "category": category, "subcategory": _slug(stem), "difficulty": _difficulty(len(home.home.devices)),
        "home": {"file": home.file}, "overrides": overrides, "turns": [{"text": sentence}],
        "goal": {"kind": "execute", "critic": "; ".join(clauses)},
        "reference": {"mode": "execute", "response": "Done.", "actions": actions},
    })


_UNDO = {"turn_on": "turn_off", "turn_off": "turn_on", "lock": "open", "close": "open"}


def _as_no_change(task: Task) -> Task | None:
    """The task as a ``no_change`` goal (the source expects the state it set up: "lock the lock"
    with two locks should ask which one, not lock either), with the action that would leave
    that state as a decoy that must fail; None when an action has no such opposite here. A
    setting with no opposite of its own (a lit light's brightness) needs none when its device
    already has a decoy (turning that light off)."""
    decoys = []
    for action in task.reference.actions:
        if action.locator == "set_position":
            opposite = "close" if action.arguments.get("position", 0) > 0 else "open"
        elif action.locator == "open":  # a lock's unlock or a curtain's open: both undone by the other verb
            opposite = "lock" if action.did.startswith("lock.") else "close"
        else:
            opposite = _UNDO.get(action.locator)
        if opposite is None and any(d["did"] == action.did for d in decoys):
            continue
        if opposite is None:
            return None
        decoys.append({"did": action.did, "locator": opposite})
    goal = {**task.goal.model_dump(), "no_change": True, "decoys": decoys}
    return Task.model_validate({**task.model_dump(mode="json"), "goal": goal,
                                "reference": {"mode": "execute", "response": "Nothing to change."}})


def home_name(folder: Path, root: Path) -> str:
    """The name a fixture folder's home gets: its path below the imported ``root``."""
    return str(folder.relative_to(root)) if folder != root else folder.name


def source_item(home: str, stem: str, i: int, j: int) -> str:
    """How the import report names sentence ``j`` of test ``i`` in test file ``stem``."""
    return f"{home}/{stem} test {i} sentence {j}"


def task_id(home: str, stem: str, i: int, j: int) -> str:
    """The id of the task imported from that sentence (the trace import finds it by this)."""
    return f"had-{_slug(home)}-{_slug(stem)}-{i:02d}-{j}"


def fixture_folders(root: Path) -> list[Path]:
    """Every dataset folder under ``root`` (one holding ``_fixtures.yaml``), in a stable order."""
    if (root / "_fixtures.yaml").is_file():
        return [root]
    return sorted(p.parent for p in root.rglob("_fixtures.yaml"))


def import_ha_datasets(root: Path, out: Path) -> tuple[list[Task], ImportReport]:
    """Write homes, ``ha_datasets.jsonl`` and the import report under ``out``; returns the
    tasks written (each validated) and the report."""
    from smh_core.bench.suites.smh_suite import validate
    from smh_core.bench.task_home import HomeCache

    if not root.exists():
        raise FileNotFoundError(2, "No such file or directory", str(root))
    folders = fixture_folders(root)
    if not folders:
        raise ValueError(f"{root}: no _fixtures.yaml below it (point at home-assistant-datasets or its datasets/)")
    report = ImportReport("home-assistant-datasets", str(root))
    (out / "homes").mkdir(parents=True, exist_ok=True)
    tasks: list[Task] = []
    for folder in folders:
        name = home_name(folder, root)
        home = _build_home(folder, name, report)
        if not home.entities:
            report.skip(name, "no entity of a supported domain")
            continue
        (out / home.file).write_text(dump_home(home.home), encoding="utf-8")
        cache = HomeCache(out)
        for path in sorted(folder.glob("*.yaml")):
            if path.name == "_fixtures.yaml":
                continue
            doc = _load_yaml(path) or {}
            tests = doc.get("tests") if isinstance(doc, dict) else None
            if not isinstance(tests, list):
                report.skip(f"{name}/{path.name}", "not a test file (no 'tests' list)")
                continue
            category = str(doc.get("category") or path.stem)
            for i, test in enumerate(tests):
                for j, sentence in enumerate((test or {}).get("sentences") or []):
                    task = _task_for(home, path.stem, category, i, j, str(sentence), test, report)
                    if task is None:
                        continue
                    item = source_item(name, path.stem, i, j)
                    try:
                        validate([task], cache)
                    except ValueError as e:
                        still = _as_no_change(task) if str(e).endswith("doing nothing passes") else None
                        try:
                            if still is None:
                                raise
                            validate([still], cache)
                        except ValueError as e2:
                            report.skip(item, f"does not validate: {e2}")
                            continue
                        report.approximate(item, "expects the state it sets up: a no_change goal, the opposite "
                                                 "actions as decoys")
                        task = still
                    tasks.append(task)
                    report.imported.append(task.id)
    (out / f"{SUITE}.jsonl").write_text("".join(dump_task(t) + "\n" for t in tasks), encoding="utf-8")
    report.write(out, SUITE)
    return tasks, report
