"""Import HomeBench (BITHLP/HomeBench: ``dataset/home_status_method.jsonl`` and its instruction
files such as ``test_data.jsonl``).

``home_status_method.jsonl`` holds one home per line: ``home_id``, ``home_status`` (rooms ->
devices -> ``state`` and ``attributes`` with their value and limits) and ``method`` (the calls
each device offers). An instruction line holds ``id``, ``input`` (the request), ``output`` (the
gold calls, ``'''room.device.method(arg),...'''``, with ``error_input`` for a request the home
cannot do), ``home_id`` and ``type`` (``normal``, ``unexist_device``, ``unexist_attribute``,
``multiN_normal``, ``multiN_mix``, ``multiN_error``).

Each home becomes a home of catalog devices (:mod:`.homebench_devices`); a valid request
becomes an execute goal on the state its gold calls ask for (reached by the planner on the
device's own services, so an agent is scored on the state, not on HomeBench's call syntax);
a request that is all ``error_input`` becomes an infeasible goal, and a mixed one both (a task
of two goals, each scored, passing when both pass). HomeBench has no licence:
nothing of it ships here, it is read from the user's copy.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim_devices.catalog import instantiate, load_catalog
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home, Room
from smh_core.homeenv.narrowing import narrow
from smh_core.homeenv.validation import compile_checker
from smh_core.task.model import Task, dump_task

from .homebench_devices import HOUSE_WIDE, KINDS, Kind, Unsupported, kind_of, method_targets
from .homebench_invalid import invalid_requests, lands
from .planner import decoys, elsewhere, plan
from .report import ImportReport

SUITE = "homebench_import"
HOMES_FILE = "home_status_method.jsonl"
DEFAULT_INSTRUCTIONS = "test_data.jsonl"
ERROR = "error_input"
VERDICT_DIFFERENCES = (
    "HomeBench compares the model's call strings with the gold's; SMH judges the home the calls "
    "leave: another sequence of calls reaching the same state passes here and fails there.",
    "An impossible request: HomeBench wants its error_input output; SMH wants a reply that "
    "declines and no change.",
    "A request the home already satisfies with several services (a multi-service no_change "
    "task): doing nothing passes here, the gold's calls are wanted there.",
    "Label conflicts (the source calls impossible what its own home can do) are scored as the "
    "source scores them and counted apart (with / without in the report).",
)
"""Where an imported task's verdict can differ from HomeBench's scorer (the fidelity report
lists them)."""

INFEASIBLE_REASONS = {
    "unexist_device": "the request names a device the home does not have (HomeBench unexist_device)",
    "unexist_attribute": "the device has no such setting or method (HomeBench unexist_attribute)",
    "multi": "none of the requested devices or settings exist in the home (HomeBench multi, all invalid)",
}
LABEL_CONFLICT = "label conflict, the home does it: "
"""Prefix of a replay verdict where HomeBench's own home carries out a request it labels
impossible: the task keeps that home and the label and is marked ``label_conflict``."""
_CALL = re.compile(r"^(?:(?P<room>\w+)\.)?(?P<device>\w+)\.(?P<method>\w+)\((?P<arg>.*)\)$", re.S)


class HomeBenchFormatError(ValueError):
    """A line of a HomeBench file that does not have the published shape: ``file:line: field:``."""

    def __init__(self, path: Path, line: int, field: str, message: str) -> None:
        self.where, self.what = f"{path.name}:{line}", f"{field}: {message}"
        super().__init__(f"{self.where}: {self.what}")


def _skip_bad_line(report: ImportReport, where: str, error: ValueError) -> None:
    """A line that cannot be read is one skipped item: ``file:line`` and ``field: problem``."""
    if isinstance(error, HomeBenchFormatError):
        report.skip(error.where, error.what)
    else:
        report.skip(where, str(error))


@dataclass(frozen=True)
class Call:
    """One gold call: ``room.device.method(argument)`` (the argument already typed)."""

    room: str
    device: str
    method: str
    argument: Any


# ---------------------------------------------------------------------------------- reading
def json_lines(path: Path) -> list[tuple[int, Any]]:
    """``(line number, parsed line)`` for each non-blank line; a line that is not JSON is
    returned as the :class:`HomeBenchFormatError` it raises, so one bad line costs one item."""
    out: list[tuple[int, Any]] = []
    for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            out.append((n, json.loads(text)))
        except json.JSONDecodeError as e:
            out.append(
                (
                    n,
                    HomeBenchFormatError(
                        path, n, "(line)", f"not JSON ({e.msg} at column {e.colno})"
                    ),
                )
            )
    return out


def _field(path: Path, n: int, line: Any, name: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(line, dict):
        raise HomeBenchFormatError(
            path, n, "(line)", f"expected an object, got {type(line).__name__}"
        )
    if name not in line:
        raise HomeBenchFormatError(path, n, name, "missing")
    value = line[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise HomeBenchFormatError(
            path, n, name, f"expected {names}, got {type(value).__name__} {value!r:.60}"
        )
    return value


def _typed(raw: str, declared: str | None) -> Any:
    """A gold argument as its method declares it (``int``, ``str``, ``typing.Tuple[int, int, int]``)."""
    raw = raw.strip()
    if raw == "":
        return None
    if declared == "int" or (declared is None and re.fullmatch(r"-?\d+", raw)):
        return int(raw)
    if (declared or "").startswith(("typing.Tuple", "tuple", "list")) or raw[:1] in "([":
        return [int(x) for x in re.findall(r"-?\d+", raw)]
    return raw.strip("'\"")


def split_gold(output: str) -> list[str]:
    """The gold answer's items: ``'''a.b.c(1),error_input,'''`` -> ``["a.b.c(1)", "error_input"]``
    (commas inside a call's parentheses, as in a colour, do not split)."""
    text = output.strip().strip("'").strip()
    items, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth == 0:
            items.append(cur.strip())
            cur = ""
        else:
            cur += ch
    items.append(cur.strip())
    return [i for i in items if i]


# ---------------------------------------------------------------------------------- homes
@dataclass
class HomeBenchHome:
    """One HomeBench home as imported: the home, where each HomeBench device went, and the
    argument type each of its methods declares (gold arguments are typed by it)."""

    home_id: int
    home: Home
    devices: dict[tuple[str, str], tuple[str, Kind]]  # (room, HomeBench device) -> (did, kind)
    params: dict[tuple[str, str], str | None]  # (device, method) -> declared argument type
    file: str


def _limits(spec: dict[str, Any]) -> tuple[float, float] | None:
    try:
        return float(spec["lowest"]), float(spec["highest"])
    except (KeyError, TypeError, ValueError):
        return None


def _widened(type_name: str, locator: str, bounds: tuple[float, float]) -> tuple[float, float]:
    """HomeBench's limits, never narrower than the catalog's: its water heaters go to 100 °C,
    but some of its heating units declare 30-100 °C while its own gold sets them to 20."""
    low, high = load_catalog()[type_name].attribute_specs()[locator].range or bounds
    return min(low, bounds[0]), max(high, bounds[1])


def _device(
    home_id: int,
    room: str | None,
    name: str,
    raw: dict[str, Any],
    report: ImportReport,
    kind_name: str | None = None,
) -> tuple[Any, Kind] | None:
    """One HomeBench device as a catalog device narrowed to what HomeBench gives it
    (``room`` None for the house-wide robot vacuum)."""
    item = f"home {home_id}: {room}.{name}" if room else f"home {home_id}: {name}"
    attrs = {
        str(k).strip(): v for k, v in (raw.get("attributes") or {}).items() if isinstance(v, dict)
    }
    kind = KINDS.get(kind_name) if kind_name else kind_of(name, attrs)
    if kind is None:
        report.approximate(item, f"left out: no catalog type acts like HomeBench's {name}")
        return None
    values: dict[str, Any] = {}
    ranges: dict[str, tuple[float, float]] = {}
    try:
        values.update(kind.state(str(raw.get("state"))))
    except Unsupported as e:
        report.approximate(item, f"{e} not modelled: the catalog default is used")
    for attr, spec in attrs.items():
        setting = kind.settings.get(attr)
        if setting is None:
            report.approximate(item, f"attribute {attr!r} not modelled: left out")
            continue
        try:
            values.update(setting.values(spec.get("value")))
        except (Unsupported, TypeError, ValueError) as e:
            report.approximate(
                item,
                f"{attr} = {spec.get('value')!r} not modelled ({e}): the catalog default is used",
            )
        if setting.own_range and (bounds := _limits(spec)) is not None:
            for loc in setting.keeps:
                ranges[loc] = _widened(kind.type, loc, bounds)
    for note in (kind.notes.get(""),) if "" in kind.notes else ():
        report.approximate(item, note)
    did = f"{room}_{name}" if room else name
    label = f"{(room or '').replace('_', ' ')} {name.replace('_', ' ')}".strip().title()
    narrowing = kind.narrowing(attrs, ranges)
    specs = dict(instantiate(kind.type, did, room, ranges=ranges).attributes_by_locator())
    kept: dict[str, Any] = {}
    for loc, value in values.items():  # keep every value the narrowed type accepts, note the others
        options = narrowing.options.get(loc)
        if (
            loc not in specs
            or compile_checker(specs[loc], loc)(value) is not None
            or (options is not None and value not in options)
        ):
            report.approximate(
                item, f"{loc} = {value!r} is outside the catalog's {kind.type}: the default is used"
            )
            continue
        kept[loc] = value
    for loc, options in narrowing.options.items():  # a default the source's options do not have
        if loc not in kept and specs[loc].value not in options:
            kept[loc] = options[0]
    return narrow(
        instantiate(kind.type, did, room, name=label, values=kept, ranges=ranges), narrowing
    ), kind


def build_home(path: Path, n: int, line: Any, report: ImportReport) -> HomeBenchHome:
    """One line of ``home_status_method.jsonl`` as a home of catalog devices."""
    home_id = _field(path, n, line, "home_id", int)
    status = _field(path, n, line, "home_status", dict)
    methods = _field(path, n, line, "method", list)
    rooms, devices, index = [], [], {}
    for room_name, room in status.items():
        if not isinstance(room, dict):
            raise HomeBenchFormatError(
                path,
                n,
                f"home_status.{room_name}",
                f"expected an object, got {type(room).__name__}",
            )
        if (
            "state" in room and "attributes" in room
        ):  # a house-wide device (HomeBench's VacuumRobot)
            kind_name = HOUSE_WIDE.get(room_name)
            device_name = kind_name or room_name
            made = _device(home_id, None, device_name, room, report, kind_name or room_name)
            if made is not None:
                devices.append(made[0])
                index[("", device_name)] = (made[0].userdata.did, made[1])
            continue
        rooms.append(Room(id=room_name, type=room_name, name=room_name.replace("_", " ").title()))
        for dev_name, raw in room.items():
            if dev_name == "room_name":
                continue
            if not isinstance(raw, dict) or not isinstance(raw.get("attributes", {}), dict):
                raise HomeBenchFormatError(
                    path, n, f"home_status.{room_name}.{dev_name}", "expected {state, attributes}"
                )
            made = _device(home_id, room_name, dev_name, raw, report)
            if made is not None:
                devices.append(made[0])
                index[(room_name, dev_name)] = (made[0].userdata.did, made[1])
    params: dict[tuple[str, str], str | None] = {}
    for i, m in enumerate(methods):
        if not isinstance(m, dict) or not isinstance(m.get("parameters", []), list):
            raise HomeBenchFormatError(
                path, n, f"method.{i}", "expected {room_name, device_name, operation, parameters}"
            )
        declared = [p.get("type") for p in m.get("parameters") or [] if isinstance(p, dict)]
        params[(str(m.get("device_name")), str(m.get("operation")))] = (
            declared[0] if declared else None
        )
    home = Home(name=f"homebench home {home_id}", rooms=rooms, devices=devices)
    return HomeBenchHome(home_id, home, index, params, f"homes/hb-home-{home_id}.json")


# ---------------------------------------------------------------------------------- instructions
def spaceless_names(item: str) -> str:
    """A gold call with the spaces of its names dropped, as HomeBench's scorer drops every
    space before it compares (``code/eval.py``): its generator writes the curtain's
    ``set_ degree(N)``. The argument keeps its words ("living room")."""
    head, paren, rest = item.strip().partition("(")
    return "".join(head.split()) + paren + rest


def call_parts(item: str) -> re.Match[str] | None:
    """``room``, ``device``, ``method`` and ``arg`` of ``room.device.method(arg)`` (no room for a
    house-wide device), or None."""
    return _CALL.match(spaceless_names(item))


def parse_call(text: str, params: dict[tuple[str, str], str | None]) -> Call:
    """``room.device.method(arg)`` (or ``device.method(arg)`` for a house-wide device), read by
    :func:`call_parts`."""
    m = call_parts(text)
    if m is None:
        raise ValueError(f"{text!r} is not room.device.method(argument)")
    declared = params.get((m["device"], m["method"]))
    return Call(m["room"] or "", m["device"], m["method"], _typed(m["arg"], declared))


def mixed_instruction(made: dict[str, Any], invalid: int, total: int) -> dict[str, Any]:
    """A mixed instruction (valid and invalid requests in one) as a task of two goals: the valid
    part's execute goal, and an infeasible goal for the rest (the agent must do the first and
    say it cannot do the second). The reference does the valid part and says so."""
    reason = (
        f"{invalid} of the {total} requests name a device or setting the home does not have "
        "(HomeBench mix)"
    )
    return {
        "goals": [made["goal"], {"kind": "infeasible", "reason": reason}],
        "reference": {
            **made["reference"],
            "response": "Done, but I cannot do the rest: this home has no such device or setting.",
        },
        **({"required_actions": made["required_actions"]} if "required_actions" in made else {}),
    }


def _execute_goal(home: HomeBenchHome, calls: list[Call]) -> tuple[dict[str, Any], list[str]]:
    """The goal and reference for gold calls; later calls on the same attribute win (HomeBench
    writes "to 80 degrees, then to 0" as two calls). Raises Unsupported with the reason."""
    targets: dict[str, dict[str, Any]] = {}
    notes: list[str] = []
    asked: list[tuple[str, tuple[str, ...]]] = []  # (did, the services of each gold call)
    for call in calls:
        found = home.devices.get((call.room, call.device))
        if found is None:
            raise Unsupported(f"needs {call.room}.{call.device}, which is not imported")
        did, kind = found
        for loc, value in method_targets(kind, call.method, call.argument):
            targets.setdefault(did, {})[loc] = value
        if call.method in kind.methods:
            asked.append((did, kind.methods[call.method].services))
        if call.method in kind.notes:
            notes.append(f"{call.device}.{call.method}: {kind.notes[call.method]}")
    engine = HomeEngine(home.home)
    actions: list[dict[str, Any]] = []
    clauses: list[str] = []
    for did, wanted in targets.items():
        found_calls = plan(engine, did, list(wanted.items()))
        if found_calls is None:
            raise Unsupported(f"no calls of {did} reach {sorted(wanted.items())}")
        actions += found_calls
        clauses += [
            f"device({did}).{loc} == {json.dumps(v) if isinstance(v, str) else v}"
            for loc, v in wanted.items()
        ]
    goal: dict[str, Any] = {"kind": "execute", "critic": "; ".join(clauses)}
    if not actions:  # the home already is as asked: doing nothing is right, acting wrongly is not
        fresh = HomeEngine(home.home)
        wrong = [
            d for did, wanted in targets.items() for d in decoys(fresh, did, list(wanted.items()))
        ]
        if not wrong and (other := elsewhere(fresh, set(targets))) is not None:
            wrong = [other]  # the device has no wrong value to move to: touching another is wrong
        if not wrong:
            raise Unsupported("the home is already as asked and no wrong action could tell")
        goal.update(no_change=True, decoys=wrong)
        notes.append("the home is already as asked: a no_change goal, wrong actions as decoys")
        # HomeBench's gold is the call whatever the state (its scorer compares calls): the call
        # (turn_on of a light that is on, set_brightness(57) at 57) must still be made, changing
        # nothing; a method of several services cannot be pinned to one call and stays a plain
        # no_change goal
        required = [
            (did, s[0], args)
            for did, s in asked
            if len(s) == 1 and (args := _same_call(fresh, did, s[0], targets[did])) is not None
        ]
        if required:
            return (
                {
                    "goal": goal,
                    "reference": {
                        "mode": "execute",
                        "response": "Done.",
                        "actions": [
                            {"did": d, "locator": s, "arguments": a} for d, s, a in required
                        ],
                    },
                    "required_actions": [
                        {"tool": "control_device", "arguments": {"did": d, "locator": s}}
                        for d, s, _ in required
                    ],
                },
                [*notes, "HomeBench wants the call although the home is as asked: required"],
            )
    return (
        {"goal": goal, "reference": {"mode": "execute", "response": "Done.", "actions": actions}},
        notes,
    )


def _same_call(
    engine: HomeEngine, did: str, service: str, wanted: dict[str, Any]
) -> dict[str, Any] | None:
    """The arguments of a ``service`` call asking for what the device already has: none for a
    service that needs none, the wanted value for one whose single needed argument names a
    wanted attribute; None where no such call can be told."""
    spec = (engine.spec(did).get("services") or {}).get(service)
    if not isinstance(spec, dict):
        return None
    args = spec.get("arguments") or {}
    needed = [n for n, a in args.items() if isinstance(a, dict) and a.get("required", True)]
    if not needed:
        return {}
    if len(needed) == 1 and needed[0] in wanted:
        return {needed[0]: wanted[needed[0]]}
    return None


def _infeasible(kind: str) -> dict[str, Any]:
    return {
        "goal": {"kind": "infeasible", "reason": INFEASIBLE_REASONS[kind]},
        "reference": {
            "mode": "refuse",
            "response": "Sorry, this home has no such device or setting.",
        },
    }


def task_for(
    path: Path, n: int, line: Any, homes: dict[int, HomeBenchHome], report: ImportReport
) -> tuple[Task, Home] | None:
    """One instruction line as a task and the home it runs in, or None (reported) when it
    cannot be imported. Every task runs in HomeBench's home as declared; a request HomeBench
    labels impossible that the home can carry out marks the task ``label_conflict`` (see
    :mod:`.homebench_invalid`)."""
    item = f"{path.name}:{n}"
    hb_id = _field(path, n, line, "id", str)
    text = _field(path, n, line, "input", str)
    output = _field(path, n, line, "output", str)
    home_id = _field(path, n, line, "home_id", int)
    kind = _field(path, n, line, "type", str)
    item = f"{item} ({hb_id})"
    home = homes.get(home_id)
    if home is None:
        report.skip(item, f"home {home_id} is not in {HOMES_FILE} (or could not be read)")
        return None
    multi = kind.startswith("multi")
    gold = split_gold(output)
    valid_text = [g for g in gold if g != ERROR]
    try:
        calls = [parse_call(g, home.params) for g in valid_text]
    except ValueError as e:
        raise HomeBenchFormatError(path, n, "output", str(e)) from None
    invalid = len(gold) - len(valid_text)
    notes: list[str] = []
    if not calls:
        made = _infeasible(
            "multi" if multi else kind if kind in INFEASIBLE_REASONS else "unexist_device"
        )
    else:
        try:
            made, more = _execute_goal(home, calls)
        except Unsupported as e:
            report.skip(item, f"no counterpart here: {e}")
            return None
        notes += more
        if invalid:
            made = mixed_instruction(made, invalid, len(gold))
    conflicts = _label_conflicts(home, text, gold, item, report)
    sub = re.sub(r"\d+", "", kind)
    task = Task.model_validate(
        {
            "id": f"hb-{hb_id}",
            "suite": SUITE,
            "category": "multi" if multi else "single",
            "subcategory": sub,
            "difficulty": "medium" if multi else "simple",
            "home": {"file": home.file},
            "turns": [{"text": text}],
            **made,
            **({"label_conflict": "; ".join(conflicts)} if conflicts else {}),
        }
    )
    for note in notes:
        report.approximate(item, note)
    return task, home.home


def _label_conflicts(
    home: HomeBenchHome, text: str, gold: list[str], item: str, report: ImportReport
) -> list[str]:
    """Each request of the line that HomeBench labels impossible, replayed on HomeBench's own
    home and reported; those the home carries out are returned as label conflicts (why, in
    words). The home is never changed to make a label hold: the task keeps the source's home
    and label and is scored as the source scores it (the agent must say it cannot)."""
    conflicts = []
    for request in invalid_requests(text, gold, ERROR, [r.id for r in home.home.rooms]):
        if request is None:
            report.unread.append(
                (item, "its words do not name one device call (or its parts do not line up)")
            )
            continue
        how = lands(home.home, home.devices, request)
        report.replayed(item, str(request), f"{LABEL_CONFLICT}{how}" if how else None)
        if how:
            conflicts.append(
                f"HomeBench labels {request} impossible (error_input), but its home carries it "
                f"out ({how})"
            )
    return conflicts


# ---------------------------------------------------------------------------------- import
def sources(root: Path) -> tuple[Path, list[Path]]:
    """The homes file and the instruction files: a folder (its ``test_data.jsonl``, or every
    other ``*.jsonl`` when there is none) or one instruction file next to the homes file."""
    if not root.exists():
        raise FileNotFoundError(2, "No such file or directory", str(root))
    folder = root if root.is_dir() else root.parent
    if (folder / "dataset" / HOMES_FILE).is_file() and root.is_dir():
        folder = root = folder / "dataset"  # a checkout of the repository
    homes = folder / HOMES_FILE
    if not homes.is_file():
        raise ValueError(
            f"{folder}: no {HOMES_FILE} (point at HomeBench's dataset/ folder or an instruction file in it)"
        )
    if root.is_file():
        return homes, [root]
    if (folder / DEFAULT_INSTRUCTIONS).is_file():
        return homes, [folder / DEFAULT_INSTRUCTIONS]
    files = sorted(p for p in folder.glob("*.jsonl") if p.name != HOMES_FILE)
    if not files:
        raise ValueError(f"{folder}: no instruction files (*.jsonl) next to {HOMES_FILE}")
    return homes, files


def load_homes(homes_file: Path, report: ImportReport) -> dict[int, HomeBenchHome]:
    """Every readable home of ``home_status_method.jsonl`` by HomeBench id; each line that cannot
    be read is a skipped item of ``report`` (``file:line``, ``field: problem``)."""
    homes: dict[int, HomeBenchHome] = {}
    for n, line in json_lines(homes_file):
        try:
            if isinstance(line, Exception):
                raise line
            home = build_home(homes_file, n, line, report)
        except ValueError as e:
            _skip_bad_line(report, f"{homes_file.name}:{n}", e)
            continue
        homes[home.home_id] = home
    return homes


def import_homebench(root: Path, out: Path) -> tuple[list[Task], ImportReport]:
    """Write the homes used, ``homebench_import.jsonl`` and the report under ``out``."""
    from smh_core.suites.common import validate
    from smh_core.task.home import HomeCache

    homes_file, instruction_files = sources(root)
    report = ImportReport("HomeBench", str(root))
    homes = load_homes(homes_file, report)
    (out / "homes").mkdir(parents=True, exist_ok=True)
    cache = HomeCache(out)
    tasks: list[Task] = []
    written: set[str] = set()
    for path in instruction_files:
        for n, line in json_lines(path):
            report.items += 1
            try:
                if isinstance(line, Exception):
                    raise line
                made = task_for(path, n, line, homes, report)
            except ValueError as e:
                _skip_bad_line(report, f"{path.name}:{n}", e)
                continue
            if made is None:
                continue
            task, model = made
            if task.home.file not in written:
                (out / task.home.file).write_text(dump_home(model), encoding="utf-8")
                written.add(task.home.file)
            try:
                validate([task], cache)
            except ValueError as e:
                why = str(e)
                if why.endswith("doing nothing passes"):
                    why = "the home is already as asked (doing nothing passes)"
                report.skip(f"{path.name}:{n} ({line['id']})", f"does not validate: {why}")
                continue
            tasks.append(task)
            report.imported.append(task.id)
    for file in sorted(written - {t.home.file for t in tasks}):
        (out / file).unlink()
    (out / f"{SUITE}.jsonl").write_text(
        "".join(dump_task(t) + "\n" for t in tasks), encoding="utf-8"
    )
    report.write(out, SUITE)
    return tasks, report
