"""Import allenporter/home-assistant-datasets (the ``assist`` format: ``assist``, ``assist-mini``,
``intents``; pointed at ``datasets/``, every dataset under it).

A dataset folder holds ``_fixtures.yaml`` (a synthetic home: areas, devices, entities with their
state and attributes) and test files (``category`` and ``tests``: sentences, ``setup`` states,
``expect_changes``, ``ignore_changes``). Each fixture folder becomes one home (an entity becomes
a device of the catalog type that has its semantics, narrowed to the features the entity
supports, its entity id kept as the device id so names line up with the source,
:mod:`.ha_entities`), and each (test, sentence) pair becomes one execute task whose critic is
the expected changes in the catalog's terms, its reference found on the devices' own services.
A test that expects the state it set up, or no change at all (an ambiguous request should be
asked about), is a ``no_change`` goal with the wrong actions as decoys. Entities of domains the
catalog cannot act like are left out, tests that need them skipped, and a file that cannot be
read (an unknown YAML tag) skipped, each with its reason in the report.

The format is read from the published repository (Apache-2.0); nothing of it ships here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from smh_core.homeenv.critic import device_id_text
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home, Room
from smh_core.task.model import Task, dump_task

from .ha_devices import ImportedEntity, device_from_entity
from .ha_entities import Mapped, Unsupported, map_state, todo_item
from .planner import decoys, elsewhere, plan
from .report import ImportReport

SUITE = "ha_datasets"
VERDICT_DIFFERENCES = (
    "The source wants the whole HA state after the turn to equal the state before plus the "
    "expected changes; SMH's verifier checks the goal's critic and the devices outside the goal "
    "(other attributes of the expected device may change here).",
    "Replayed on the HA release in use: an intent whose handling changed between releases "
    "(vacuums, area-wide light sets) acts differently from the recorded run.",
    "A cover still moving: the source judges the state alone, SMH the position reached.",
)
"""Where an imported task's verdict can differ from home-assistant-datasets' published one (the
fidelity report lists them; docs/trace-replay.md measures them)."""


def _load_yaml(path: Path) -> Any:
    """A YAML file, or ``ValueError`` naming the file and the first line of the problem (an
    unknown tag such as ``!include_text`` included: one bad file is one skipped item)."""
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise ValueError(f"cannot read {path.name} ({str(e).splitlines()[0]})") from None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _difficulty(n_devices: int) -> str:
    return "simple" if n_devices <= 10 else "medium" if n_devices <= 40 else "complex"


@dataclass
class _Home:
    name: str
    file: str
    home: Home
    entities: dict[str, ImportedEntity]  # supported entity id -> what it became
    attributes: dict[
        str, dict[str, Any]
    ]  # its attributes in the fixture (a test's setup adds to them)


CAPABILITIES = ("supported_color_modes", "supported_features")
"""Attributes that say what an entity can do; a test's setup may declare more than the fixture
(a lamp set up in rgb mode), and the device supports everything either declares."""


def declared(docs: list[Any]) -> dict[str, dict[str, list[Any]]]:
    """Per entity, the capabilities the tests' setups declare (see :data:`CAPABILITIES`)."""
    out: dict[str, dict[str, list[Any]]] = {}
    for doc in docs:
        for test in (doc.get("tests") or []) if isinstance(doc, dict) else []:
            setup = test.get("setup") if isinstance(test, dict) else None
            for eid, state in (setup or {}).items() if isinstance(setup, dict) else ():
                attrs = (state or {}).get("attributes") or {} if isinstance(state, dict) else {}
                for key in CAPABILITIES:
                    if isinstance(attrs.get(key), list):
                        out.setdefault(str(eid), {}).setdefault(key, []).extend(attrs[key])
    return out


def _build_home(
    folder: Path,
    name: str,
    report: ImportReport,
    capabilities: dict[str, dict[str, list[Any]]] | None = None,
) -> _Home:
    fixture = _load_yaml(folder / "_fixtures.yaml") or {}
    if not isinstance(fixture, dict):
        raise ValueError("_fixtures.yaml: expected a mapping with areas, devices and entities")
    areas = {
        a["id"]: a.get("name") or a["id"]
        for a in fixture.get("areas") or []
        if isinstance(a, dict) and "id" in a
    }
    device_area = {
        d["id"]: d.get("area")
        for d in fixture.get("devices") or []
        if isinstance(d, dict) and "id" in d
    }
    floors = {
        a["id"]: str(a["floor"])
        for a in fixture.get("areas") or []
        if isinstance(a, dict) and "id" in a and a.get("floor")
    }
    levels = {
        f: n for n, f in enumerate(dict.fromkeys(floors.values()), 1)
    }  # in order of appearance
    rooms = {
        aid: Room(
            id=aid,
            type=aid,
            name=label,
            floor=levels.get(floors.get(aid, ""), 1),
            floor_name=floors.get(aid),
        )
        for aid, label in areas.items()
    }
    devices, entities, attributes = [], {}, {}
    for ent in fixture.get("entities") or []:
        if not isinstance(ent, dict) or "id" not in ent:
            report.skip(f"{name}: entity {ent!r:.80}", "an entity without an id")
            continue
        area = ent.get("area") or device_area.get(ent.get("device"))
        made = device_from_entity(
            name,
            ent,
            area if area in rooms else None,
            report,  # HA allows no area; so does a home
            (capabilities or {}).get(str(ent["id"]), {}),
        )
        if made is not None:
            devices.append(made[0])
            entities[str(ent["id"])] = made[1]
            attributes[str(ent["id"])] = dict(ent.get("attributes") or {})
    home = Home(name=f"ha-datasets {name}", rooms=list(rooms.values()), devices=devices)
    return _Home(name, f"homes/had-{_slug(name)}.json", home, entities, attributes)


class _Skip(Exception):
    """A test sentence that cannot be imported (the message is the reason)."""


def _mapped(home: _Home, eid: str, state: Any, attrs: dict[str, Any], what: str) -> Mapped:
    entity = home.entities.get(eid)
    if entity is None:
        raise _Skip(f"{what} {eid}, which is not imported")
    try:
        mapped = map_state(entity.domain, state, attrs, entity.garage)
    except Unsupported as e:
        raise _Skip(f"{what.split()[0]} {e} not modelled") from None
    missing = sorted(set(mapped.goals()) - entity.attributes)
    if missing:
        raise _Skip(f"{what} {eid} to have {missing}, which the entity does not support")
    if set(mapped.values) - entity.attributes:  # background the entity has no place for
        mapped = replace(
            mapped, values={k: v for k, v in mapped.values.items() if k in entity.attributes}
        )
    return mapped


def _setup(home: _Home, test: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Mapped]]:
    overrides, mapped = [], {}
    for eid, state in (test.get("setup") or {}).items():
        state = state or {}
        # the source builds the entity from the fixture with the setup merged in
        attrs = {**home.attributes.get(eid, {}), **(state.get("attributes") or {})}
        mapped[eid] = _mapped(home, eid, state.get("state"), attrs, "its setup needs")
        if mapped[eid].values:
            overrides.append({"did": eid, "values": mapped[eid].values})
    return overrides, mapped


def _expected(
    home: _Home, test: dict[str, Any], setup: dict[str, Mapped]
) -> tuple[dict[str, Mapped], bool]:
    """What each entity must become, and whether the test expects nothing to change (then the
    setup's states are what must hold)."""
    expect = test.get("expect_changes") or {}
    if not expect:
        if not setup:
            raise _Skip("no expected change and no setup to keep: nothing to check")
        return setup, True
    ignore = test.get("ignore_changes") or {}
    out = {}
    for eid, change in expect.items():
        change, ignored = change or {}, ignore.get(eid) or []
        attrs = {k: v for k, v in (change.get("attributes") or {}).items() if k not in ignored}
        state = None if "state" in ignored else change.get("state")
        out[eid] = _mapped(home, eid, state, attrs, "expects a change of")
    return out, False


def _reference(
    engine: HomeEngine, home: _Home, wanted: dict[str, Mapped], sentence: str
) -> list[dict[str, Any]]:
    """The calls that bring each entity to its wanted values (found on ``engine``)."""
    actions: list[dict[str, Any]] = []
    for eid, mapped in wanted.items():
        targets = list(mapped.goals().items())
        if home.entities[eid].domain == "todo":  # an item to add: the request's words name it
            more = mapped.values.get("open_items", 0) - engine.value(eid, "open_items")
            targets = []
            for _ in range(max(0, more)):
                call = {
                    "did": eid,
                    "locator": "add_item",
                    "arguments": {"item": todo_item(sentence)},
                }
                if not engine.execute(eid, call["locator"], call["arguments"]).ok:
                    raise _Skip(f"{eid} takes no new item")
                actions.append(call)
        found = plan(engine, eid, targets) if targets else []
        if found is None:
            raise _Skip(f"no calls of {eid} reach {sorted(mapped.values.items())}")
        actions += found
    return actions


def _task_for(
    home: _Home,
    stem: str,
    category: str,
    i: int,
    j: int,
    sentence: str,
    test: dict[str, Any],
    report: ImportReport,
) -> Task | None:
    item = source_item(home.name, stem, i, j)
    try:
        overrides, setup = _setup(home, test)
        wanted, keep = _expected(home, test, setup)
        engine = HomeEngine(home.home)
        for o in overrides:
            if not engine.set_values(o["did"], o["values"]).ok:
                raise _Skip(f"its setup of {o['did']} is not a state the device can have")
        actions = _reference(engine, home, wanted, sentence)
    except _Skip as e:
        report.skip(item, str(e))
        return None
    clauses = []
    for eid, mapped in wanted.items():
        for note in mapped.notes:
            report.approximate(item, note)
        if mapped.critic:
            ref = f"device({device_id_text(eid)})"
            clauses.append(
                f"{ref}.{mapped.critic[0]}" + "".join(f" and {c}" for c in mapped.critic[1:])
            )
    if not clauses:
        report.skip(item, "nothing left to check once ignored attributes are dropped")
        return None
    goal: dict[str, Any] = {"kind": "execute", "critic": "; ".join(clauses)}
    if (
        not actions
    ):  # the source expects the state it set up: "lock the lock" with two locks should ask
        fresh = HomeEngine(home.home)
        for o in overrides:
            fresh.set_values(o["did"], o["values"])
        # the setting a careless agent would change comes after the power state: try it first
        wrong = [
            d
            for eid, m in wanted.items()
            for d in decoys(fresh, eid, list(m.goals().items())[::-1], limit=1)
        ]
        if not wrong and (other := elsewhere(fresh, set(wanted))) is not None:
            wrong = [other]
        if not wrong:
            report.skip(item, "expects the state it sets up, and no wrong action could tell")
            return None
        goal.update(no_change=True, decoys=wrong)
        report.approximate(
            item,
            "expects the state it sets up: a no_change goal, wrong actions as decoys"
            if not keep
            else "expects no change (it should ask): a no_change goal, wrong actions as decoys",
        )
    return Task.model_validate(
        {
            "id": task_id(home.name, stem, i, j),
            "suite": SUITE,
            "category": category,
            "subcategory": _slug(stem),
            "difficulty": _difficulty(len(home.home.devices)),
            "home": {"file": home.file},
            "overrides": overrides,
            "turns": [{"text": sentence}],
            "goal": goal,
            "reference": {
                "mode": "execute",
                "response": "Done." if actions else "Nothing to change.",
                "actions": actions,
            },
        }
    )


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
    from smh_core.suites.common import validate
    from smh_core.task.home import HomeCache

    if not root.exists():
        raise FileNotFoundError(2, "No such file or directory", str(root))
    folders = fixture_folders(root)
    if not folders:
        raise ValueError(
            f"{root}: no _fixtures.yaml below it (point at home-assistant-datasets or its datasets/)"
        )
    report = ImportReport("home-assistant-datasets", str(root))
    (out / "homes").mkdir(parents=True, exist_ok=True)
    tasks: list[Task] = []
    for folder in folders:
        name = home_name(folder, root)
        docs: list[tuple[Path, Any]] = []
        for path in sorted(folder.glob("*.yaml")):
            if path.name == "_fixtures.yaml":
                continue
            try:
                docs.append((path, _load_yaml(path) or {}))
            except ValueError as e:
                report.skip(f"{name}/{path.name}", str(e))
        try:
            home = _build_home(folder, name, report, declared([d for _, d in docs]))
        except ValueError as e:
            report.skip(name, str(e))
            continue
        if not home.entities:
            report.skip(name, "no entity of a supported domain")
            continue
        (out / home.file).write_text(dump_home(home.home), encoding="utf-8")
        cache = HomeCache(out)
        for path, doc in docs:
            tests = doc.get("tests") if isinstance(doc, dict) else None
            if not isinstance(tests, list):
                report.skip(f"{name}/{path.name}", "not a test file (no 'tests' list)")
                continue
            category = str(doc.get("category") or path.stem)
            for i, test in enumerate(tests):
                if not isinstance(test, dict):
                    report.skip(f"{name}/{path.stem} test {i}", "a test that is not a mapping")
                    continue
                for j, sentence in enumerate(test.get("sentences") or []):
                    report.items += 1
                    task = _task_for(home, path.stem, category, i, j, str(sentence), test, report)
                    if task is None:
                        continue
                    try:
                        validate([task], cache)
                    except ValueError as e:
                        report.skip(source_item(name, path.stem, i, j), f"does not validate: {e}")
                        continue
                    tasks.append(task)
                    report.imported.append(task.id)
    (out / f"{SUITE}.jsonl").write_text(
        "".join(dump_task(t) + "\n" for t in tasks), encoding="utf-8"
    )
    report.write(out, SUITE)
    return tasks, report
