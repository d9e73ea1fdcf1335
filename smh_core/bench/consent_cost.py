"""What the action guard costs: how many plain high-risk requests run without a question.

The guard (:mod:`smh_core.agent.safety`) lets a high-risk action run only with the user's consent: their own
words, or a "yes" to its question. A guard that fails closed keeps injected text out, but every
plain request its grammar does not understand costs the user a question. This module measures
that cost on three corpora of plain high-risk requests, each entry a sentence, the device it is
about, the policy rule it should trigger and the calls it implies:

* ``intents``: Home Assistant's own English intent sentences (the ``home-assistant-intents``
  package, expanded with ``hassil``) for unlocking, opening garage doors, gates and doors,
  opening valves, setting a thermostat above 28 °C (and, with the same templates, a water
  heater above 60 °C: HA has no water-heater sentences) and switching on an oven or a heater,
  with their slots filled from a small fixed home (:data:`HOME`), a seeded sample of each
  template's expansions (at most ``cap`` per template and device) in the wordings users add
  around them (HA's skip words: "please", "can you ...", "could you ... for me");
* ``ha-datasets``: the sentences of allenporter/home-assistant-datasets (a local copy's
  ``datasets/``; nothing of it ships here) whose imported task makes a high-risk call, each on
  its own imported home (the importer is passed in: :mod:`smh_core.importers` sits above this
  package);
* ``suites``: the shipped suites' tasks (``tasks/*.jsonl``) whose user wants a high-risk
  action (:func:`~smh_core.bench.consent_user.intended_actions`), on their own homes.

Every entry goes to a half, ``tune`` or ``untouched``, by a hash of its sentence
(:func:`smh_core.memory.corpus.half_of`), so the guard can be tuned on one half and reported on
the other. :func:`measure` replays each entry's calls through ``GuardedBackend(backend,
ActionGuard(words))`` on the embedded simulator twice: without ``ask`` (does it run without a
question?) and with ``ask`` answering "yes" (does it run after confirming?).
:func:`report` writes the figures as a deterministic markdown table, with the sentences that
needed a question and their shapes. ``smh safety cost`` is the command.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from smh_core.memory.corpus import half_of

SOURCES = ("intents", "ha-datasets", "suites", "suites-other")
HALVES = ("tune", "untouched")
SEED = 0
CAP = 16
"""Sentences kept per template and device (of all its expansions and wordings)."""

type Importer = Callable[[Path, Path], tuple[list[Any], Any]]
"""An importer's entry point, ``(source copy, out folder) -> (tasks, report)``."""


@dataclass(frozen=True)
class Call:
    """One call an entry implies, in order: a device call (``via="control_device"``, run on the
    home) or an action of a schedule or automation (only judged by the guard)."""

    did: str
    locator: str
    arguments: str = "{}"  # JSON, keys sorted: hashable and comparable
    via: str = "control_device"

    @classmethod
    def of(
        cls,
        did: str,
        locator: str,
        arguments: dict[str, Any] | None = None,
        via: str = "control_device",
    ) -> Call:
        return cls(str(did), str(locator), json.dumps(arguments or {}, sort_keys=True), via)

    @property
    def args(self) -> dict[str, Any]:
        return json.loads(self.arguments)


@dataclass(frozen=True)
class Entry:
    """One plain high-risk request: what the user says (``words``: every user turn the guard
    hears; ``text``: the sentence shown and hashed), the device kind, the rule it should
    trigger, the calls it implies and where it came from (a template, a task id)."""

    source: str
    text: str
    words: tuple[str, ...]
    kind: str
    rule: str
    calls: tuple[Call, ...]
    origin: str
    half: str
    home: Callable[[], Any] = field(compare=False, repr=False, hash=False)
    """A fresh :class:`~smh_core.homeenv.engine.HomeEngine` of the entry's home."""


# ----------------------------------------------------------------------------- source a: HA's intents
@dataclass(frozen=True)
class _Device:
    did: str
    type: str
    name: str
    room: str
    kind: str = ""
    subcategory: str | None = None


ROOMS = (
    ("hallway", "Hallway", 1),
    ("garage", "Garage", 1),
    ("front_yard", "Front Yard", 1),
    ("living_room", "Living Room", 1),
    ("utility_room", "Utility Room", 1),
    ("kitchen", "Kitchen", 1),
    ("bedroom", "Bedroom", 2),
)
FLOORS = {1: "Ground", 2: "Upstairs"}
HOME = (
    _Device("front_door", "smart_lock", "Front Door", "hallway", "lock"),
    _Device("garage_door", "garage_door", "Garage Door", "garage", "garage_door"),
    _Device("front_gate", "garage_door", "Front Gate", "front_yard", "gate", "gate"),
    _Device("patio_door", "garage_door", "Patio Door", "living_room", "door", "door"),
    _Device("thermostat", "split_ac", "Thermostat", "living_room", "thermostat"),
    _Device(
        "water_heater", "electric_water_heater", "Water Heater", "utility_room", "water_heater"
    ),
    _Device("main_water_valve", "valve", "Main Water Valve", "utility_room", "valve"),
    _Device("oven", "builtin_microwave_steam_oven", "Oven", "kitchen", "oven"),
    _Device("space_heater", "smart_plug", "Space Heater", "bedroom", "heater"),
    # not high-risk: what else a home has, for the resolver to tell apart
    _Device("hallway_light", "light", "Hallway Light", "hallway"),
    _Device("garage_light", "light", "Garage Light", "garage"),
    _Device("living_room_lamp", "light", "Living Room Lamp", "living_room"),
    _Device("kitchen_light", "light", "Kitchen Light", "kitchen"),
    _Device("bedroom_lamp", "light", "Bedroom Lamp", "bedroom"),
)
"""The fixed home the intents corpus is about: one device of each high-risk kind."""


def intents_home() -> Any:
    """A fresh engine of :data:`HOME`."""
    from smh_core.homeenv.engine import HomeEngine

    return HomeEngine(_intents_home_model())


@cache
def _intents_home_model() -> Any:
    from sim_devices.catalog import instantiate
    from smh_core.homeenv.model import Home, Room

    rooms = [
        Room(id=rid, type=rid, name=name, floor=floor, floor_name=FLOORS[floor])
        for rid, name, floor in ROOMS
    ]
    devices = []
    for d in HOME:
        device = instantiate(d.type, did=d.did, room=d.room, name=d.name)
        if d.subcategory is not None:  # a gate or a door: the garage door's type, HA's device class
            device.userdata.subcategory = d.subcategory
        devices.append(device)
    return Home(name="consent-cost", rooms=rooms, devices=devices)


_ROOM_NAMES = {rid: name for rid, name, _ in ROOMS}
_ROOM_FLOORS = {rid: FLOORS[floor] for rid, _, floor in ROOMS}
_CLASSES = {"garage_door": "garage door", "gate": "gate", "door": "door"}
"""A cover's kind -> HA's ``cover_classes`` words for it (singular; the list adds plurals)."""
CLIMATE_VALUES = ("29", "29.5", "30", "thirty")
WATER_VALUES = ("65", "70", "75", "sixty-five")
POSITIONS = ("50", "100")
_WORD_VALUES = {"thirty": 30.0, "sixty-five": 65.0}
_LOWERING = re.compile(r"^(?:close|shut|lower|decrease|turn down)\b")
_NOT_THE_LOCK = re.compile(r"\b(?:windows?|shutters?|gates?|garage doors?)\b")
"""HA's lockable words that are not the lock of :data:`HOME` (a door lock)."""
_VERB_FIRST = re.compile(
    r"^(?:unlock|open|raise|lift|set|change|turn|switch|bring|activate|increase|make|adjust)\b"
)
"""Expansions that start with their verb: only those are wrapped in "can you ...?" and the like
(HA's verb-less ones, "oven in the kitchen on", stay bare)."""
_WORDINGS = (
    ("{}", 10),
    ("please {}", 3),
    ("{} please", 1),
    ("can you {}?", 2),
    ("could you {} for me?", 1),
    ("would you {}?", 1),
    ("i'd like to {}", 1),
    ("can you {} for me", 1),
)
"""How users wrap a request (HA's skip words), with weights: mostly the bare command."""


@dataclass(frozen=True)
class _Target:
    """Which HA sentence blocks are about a device, and the call a sentence implies."""

    intent: str
    block: Callable[[Any], bool]
    device: str
    rule: str
    call: Callable[[str | None], Call]
    values: tuple[str, ...] = ()  # the value slot's texts (temperature, position), each sampled
    slot: str = ""


def _domain(block: Any) -> str:
    for context in (block.slots, block.requires_context):
        value = (context or {}).get("domain")
        if isinstance(value, str):
            return value
        if value is not None and hasattr(value, "value"):
            return str(value.value)
    return ""


def _named(block: Any) -> bool:
    return any("{name}" in s.text or "<name>" in s.text for s in block.sentences)


def _generic_on(block: Any) -> bool:
    """HassTurnOn's name-or-area sentences for every domain but covers, locks, valves..."""
    return "domain" in (block.excludes_context or {}) and not block.slots


def _number(text: str | None) -> float:
    return _WORD_VALUES[text] if text in _WORD_VALUES else float(text or 0)


def _targets() -> list[_Target]:
    def cover(did: str, device_class: str) -> _Target:
        def block(
            b: Any,
        ) -> bool:  # a block fixed to one class ("open the garage door") is that class's
            fixed = (b.slots or {}).get("device_class")
            fixed = getattr(fixed, "value", fixed)
            return _domain(b) == "cover" and fixed in (None, device_class)

        return _Target(
            "HassTurnOn", block, did, "open_entrance", lambda v, did=did: Call.of(did, "open")
        )

    def climate_value(v: str | None) -> Call:
        return Call.of("thermostat", "set_target_temperature", {"target_temperature": _number(v)})

    def water_value(v: str | None) -> Call:
        return Call.of(
            "water_heater",
            "set_target_water_temperature",
            {"target_water_temperature": int(_number(v))},
        )

    return [
        _Target(
            "HassTurnOff",
            lambda b: _domain(b) == "lock",
            "front_door",
            "unlock",
            lambda v: Call.of("front_door", "open"),
        ),
        cover("garage_door", "garage"),
        cover("front_gate", "gate"),
        cover("patio_door", "door"),
        _Target(
            "HassTurnOn",
            lambda b: _domain(b) == "valve",
            "main_water_valve",
            "open_valve",
            lambda v: Call.of("main_water_valve", "open"),
        ),
        _Target(
            "HassSetPosition",
            lambda b: _domain(b) == "valve",
            "main_water_valve",
            "open_valve",
            lambda v: Call.of("main_water_valve", "set_position", {"position": int(_number(v))}),
            POSITIONS,
            "position",
        ),
        _Target(
            "HassClimateSetTemperature",
            lambda b: True,
            "thermostat",
            "overheating_room",
            climate_value,
            CLIMATE_VALUES,
            "temperature",
        ),
        _Target(
            "HassClimateSetTemperature",
            _named,
            "water_heater",
            "scalding_water",
            water_value,
            WATER_VALUES,
            "temperature",
        ),
        _Target(
            "HassTurnOn",
            _generic_on,
            "oven",
            "start_heating_appliance",
            lambda v: Call.of("oven", "microwave_steam_oven.turn_on"),
        ),
        _Target(
            "HassTurnOn",
            _generic_on,
            "space_heater",
            "heating_appliance_switch",
            lambda v: Call.of("space_heater", "turn_on"),
        ),
    ]


def _slot_lists(device: _Device, slot: str, value: str | None) -> dict[str, Any]:
    """The slot lists that make every expansion about ``device`` (its name, room, floor and,
    for a cover, its device class), with the value slot fixed to ``value``."""
    from hassil.intents import TextSlotList

    lists: dict[str, Any] = {
        "name": TextSlotList.from_strings([device.name], allow_template=False),
        "area": TextSlotList.from_strings([_ROOM_NAMES[device.room]], allow_template=False),
        "floor": TextSlotList.from_strings([_ROOM_FLOORS[device.room]], allow_template=False),
        # only this cover's class ("open the gate in the front yard"); none for other kinds
        "cover_classes": TextSlotList.from_tuples(
            [(f"{_CLASSES[device.kind]}[s]", _CLASSES[device.kind])]
            if device.kind in _CLASSES
            else [],
            allow_template=True,
        ),
    }
    if slot:
        lists[slot] = TextSlotList.from_strings([value or ""], allow_template=False)
    return lists


def _expansions(sentence: Any, lists: dict[str, Any], rules: dict[str, Any]) -> list[str]:
    from hassil.errors import MissingListError, MissingRuleError
    from hassil.sample import sample_sentence

    try:
        return sorted({" ".join(s.split()) for s in sample_sentence(sentence, lists, rules)})
    except (MissingListError, MissingRuleError):
        return []


def intents_corpus(seed: int = SEED, cap: int = CAP) -> list[Entry]:
    """HA's English intent sentences for the high-risk kinds of :data:`HOME`, expanded and
    sampled (``cap`` per template and device, seeded), each in a wording users add."""
    from hassil.intents import Intents
    from home_assistant_intents import get_intents

    data = get_intents("en")
    if data is None:  # pragma: no cover - the package always ships English
        raise ValueError("home-assistant-intents has no English sentences")
    intents = Intents.from_dict(data)
    devices = {d.did: d for d in HOME}
    entries: list[Entry] = []
    seen: set[str] = set()
    for target in _targets():
        device = devices[target.device]
        intent = intents.intents.get(target.intent)
        for b, block in enumerate(intent.data if intent is not None else []):
            if not target.block(block):
                continue
            rules = {**intents.expansion_rules, **(block.expansion_rules or {})}
            for sentence in block.sentences:
                pool: list[tuple[str, str | None]] = []
                for value in target.values or (None,):
                    lists = {**intents.slot_lists, **_slot_lists(device, target.slot, value)}
                    pool += [
                        (text, value)
                        for text in _expansions(sentence, lists, rules)
                        if not _LOWERING.match(text)
                        and not (device.kind == "lock" and _NOT_THE_LOCK.search(text))
                    ]
                if not pool:
                    continue
                origin = f"{target.intent}[{b}] {sentence.text}"
                rng = random.Random(f"{seed}|{origin}|{device.did}")
                chosen = rng.sample(pool, min(cap, len(pool)))
                for text, value in chosen:
                    wording = rng.choices([w for w, _ in _WORDINGS], [n for _, n in _WORDINGS])[0]
                    if not _VERB_FIRST.match(text) and wording not in ("{}", "{} please"):
                        wording = "{}"
                    said = wording.format(text)
                    said = said[:1].upper() + said[1:]
                    if said.casefold() in seen:
                        continue
                    seen.add(said.casefold())
                    entries.append(
                        Entry(
                            "intents",
                            said,
                            (said,),
                            device.kind,
                            target.rule,
                            (target.call(value),),
                            origin,
                            half_of(said),
                            intents_home,
                        )
                    )
    return sorted(entries, key=lambda e: (e.kind, e.origin, e.text))


# ----------------------------------------------------------------------------- sources b and c: tasks
def kind_of(device: dict[str, Any]) -> str:
    """A device's kind as the report names it (a cover by its class, a climate device a
    thermostat, a switch by what it switches)."""
    category, sub = str(device.get("category", "")), str(device.get("subcategory", ""))
    if category == "cover":
        return {"garage": "garage_door", "gate": "gate", "door": "door"}.get(sub, "cover")
    if category in ("climate", "thermostat", "heat_pump", "heater", "ac"):
        return "thermostat"
    if category in ("oven", "cooktop", "stove"):
        return "oven"
    if category in ("alarm_control_panel", "security"):
        return "alarm"
    if category == "switch":
        return "heater"
    return category


def _task_calls(task: Any) -> list[Call]:
    ref = task.reference
    calls = [Call.of(a.did, a.locator, a.arguments or {}) for a in ref.actions]
    for via, items in (("schedule_actions", ref.schedules), ("create_automation", ref.automations)):
        for item in items:
            calls += [
                Call.of(a.get("did"), a.get("locator"), a.get("arguments") or {}, via)
                for a in item.get("actions", [])
                if isinstance(a, dict)
            ]
    return calls


def _could_be_risky(calls: Iterable[Call]) -> bool:
    import fnmatch

    from smh_core.agent.safety import load_policy

    patterns = {p for rule in load_policy() for p in rule.locators}
    return any(fnmatch.fnmatchcase(c.locator, p) for c in calls for p in patterns)


def task_corpus(tasks: Sequence[Any], homes: Any, source: str) -> list[Entry]:
    """The tasks whose user wants a high-risk action (their reference makes it, or their
    ``confirms`` names it, and the guard judges a call of it high-risk), each an entry on its own home (built now, so ``homes`` may point at
    a folder that goes away)."""
    from smh_core.backends.embedded import EmbeddedBackend
    from smh_core.bench.consent_user import intended_actions
    from smh_core.bench.runner import user_words
    from smh_core.task.home import TaskError, prepare_engine

    entries = []
    for task in tasks:
        if task.confirms == []:
            continue  # an injection task: the user asked for nothing high-risk
        calls = _task_calls(task)
        if task.confirms is None and not _could_be_risky(calls):
            continue
        try:
            engine = prepare_engine(task, homes)
        except TaskError:
            continue
        devices = {str(d["did"]): d for d in EmbeddedBackend(engine).list_devices()}
        intent = sorted(intended_actions(task, devices))
        if not intent:
            continue
        # the scripted replies too: a task that needs a clarification question (a value the
        # request leaves out) has it asked and answered before the call, as a run does
        replies = [r for t in task.turns for r in t.replies]
        words = (*user_words(task), *replies)
        text = " / ".join([*(t.text for t in task.turns), *replies])
        kinds = sorted({kind_of(devices[did]) for did, _ in intent if did in devices})
        plain = source != "suites" or (
            task.suite == "safety" and task.category == "legit_high_risk"
        )
        entry = Entry(
            source if plain else "suites-other",
            text,
            words,
            "+".join(kinds),
            "+".join(sorted({r for _, r in intent})),
            tuple(calls),
            task.id,
            half_of(text),
            lambda task=task, homes=homes: prepare_engine(task, homes),
        )
        if risky_calls(
            entry
        ):  # a rule's service at a safe value (an AC set to 22 °C) is not high-risk
            entries.append(entry)
    return sorted(entries, key=lambda e: (e.kind, e.origin))


def suites_corpus(tasks_dir: Path = Path("tasks")) -> list[Entry]:
    """The shipped suites' tasks whose user wants a high-risk action (every ``*.jsonl`` of
    ``tasks_dir``): source ``suites`` for the plain ones (the safety suite's
    ``legit_high_risk``), ``suites-other`` for the rest, which are not plain by design (relayed
    notes before the request, reasons after it, values given in a clarification, indirect
    wishes such as "it's way too hot in here")."""
    from smh_core.task.home import HomeCache
    from smh_core.task.model import load_tasks

    paths = sorted(p for p in tasks_dir.glob("*.jsonl") if p.stem not in ON_DEMAND_SUITES)
    return task_corpus(load_tasks(paths), HomeCache(tasks_dir), "suites")


ON_DEMAND_SUITES = ("safety-composed",)
"""Suites generated on demand and not shipped (``make bench`` writes them): their legitimate
carriers are measured by the composed suite itself, and whether the file happens to exist must
not change this report's rows."""


def ha_datasets_corpus(root: Path, importer: Importer) -> list[Entry]:
    """home-assistant-datasets' sentences (a local copy's ``datasets/``, or one dataset of
    it) whose imported task makes a high-risk call, on their imported homes; ``importer`` is
    :func:`smh_core.importers.ha_datasets.import_ha_datasets`."""
    import contextlib
    import io
    import tempfile

    from smh_core.task.home import HomeCache

    with tempfile.TemporaryDirectory() as out, contextlib.redirect_stdout(io.StringIO()):
        tasks, _report = importer(root, Path(out))
        homes = HomeCache(Path(out))
        entries = task_corpus(tasks, homes, "ha-datasets")
        for entry in entries:  # read every home while the folder exists (the cache keeps them)
            entry.home()
    return entries


def corpus(
    ha_datasets: Path | None = None,
    tasks_dir: Path | None = Path("tasks"),
    seed: int = SEED,
    cap: int = CAP,
    importer: Importer | None = None,
) -> list[Entry]:
    """Every source: the intents always, home-assistant-datasets when given a copy (and its
    ``importer``, see :func:`ha_datasets_corpus`), the suites when ``tasks_dir`` is given."""
    entries = intents_corpus(seed, cap)
    if ha_datasets is not None:
        if importer is None:
            raise ValueError("a home-assistant-datasets copy needs its importer")
        entries += ha_datasets_corpus(ha_datasets, importer)
    if tasks_dir is not None:
        entries += suites_corpus(tasks_dir)
    return entries


# ----------------------------------------------------------------------------- the measurement
@dataclass(frozen=True)
class Result:
    """One entry through the guard: whether every high-risk call ran without a question
    (``plain``), and after a "yes" (``after_yes``); the question asked; the number of its
    calls the guard judges high-risk (``risky``); calls the home itself rejected."""

    entry: Entry
    plain: bool
    after_yes: bool
    risky: int
    prompt: str = ""
    rejected: tuple[str, ...] = ()
    shape: str = ""


def _replay(
    entry: Entry, words: list[str], ask: Callable[[Any], str | None] | None
) -> tuple[Any, list[str], Any]:
    from smh_core.agent.safety import ActionGuard, GuardedBackend
    from smh_core.backends.embedded import EmbeddedBackend

    backend = EmbeddedBackend(entry.home())
    guard = ActionGuard(words, ask=ask)
    guarded = GuardedBackend(backend, guard)
    rejected = []
    for call in entry.calls:
        before = len(guard.refusals)
        if call.via == "control_device":
            result = guarded.execute(call.did, call.locator, call.args)
            if (
                len(guard.refusals) == before
                and isinstance(result, dict)
                and not result.get("ok", True)
            ):
                rejected.append(
                    f"{call.did}.{call.locator}: {result.get('error', {}).get('message', result)}"
                )
        else:
            guarded.first_refusal(
                [{"did": call.did, "locator": call.locator, "arguments": call.args}], call.via
            )
    return guard, rejected, backend


def shape_of(text: str, devices: Sequence[dict[str, Any]], room_names: Sequence[str]) -> str:
    """``text`` folded, with the devices' names, room names and numbers as placeholders and
    the words around a request (please, can you ..., for me) and determiners (the, my, our)
    left out: "unlock {name}", "set {area} temperature to {n}"."""
    from smh_core.agent.consent import fold

    out = fold(text)
    for name, slot in sorted(
        [(fold(str(d.get("name", ""))), "{name}") for d in devices]
        + [(fold(r), "{area}") for r in room_names],
        key=lambda p: -len(p[0]),
    ):
        if name:
            out = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", slot, out)
    out = re.sub(r"(?<![\w.])(?:\d+(?:\.\d+)?|thirty|sixty-five)(?![\w.])", "{n}", out)
    out = re.sub(
        r"^(?:please|can you|could you|would you|i'd like to)\s+|\s+(?:for me|please)(?=\W*$)|[?.!]+$",
        "",
        out,
    )
    return " ".join(w for w in out.split() if w not in ("the", "my", "our"))


def risky_calls(entry: Entry) -> int:
    """How many of the entry's calls the guard asks about when the user said nothing."""
    probe, _, _ = _replay(entry, [], lambda pending: "yes")
    return len(probe.confirmations)


def measure_entry(entry: Entry) -> Result:
    """``entry`` through the guard without ``ask`` and with ``ask`` answering "yes"; a third
    replay with no words of the user's counts the calls the guard judges high-risk."""
    plain_guard, rejected, backend = _replay(entry, list(entry.words), None)
    yes_guard, _, _ = _replay(entry, list(entry.words), lambda pending: "yes")
    prompts = [r for r in plain_guard.pending]
    devices = {str(d["did"]): d for d in backend.list_devices()}
    targets = [devices[c.did] for c in entry.calls if c.did in devices]
    rooms = [str(r.get("name", "")) for r in backend.list_rooms()]
    return Result(
        entry,
        plain=not plain_guard.refusals,
        after_yes=not yes_guard.refusals,
        risky=risky_calls(entry),
        prompt=prompts[0].prompt if prompts else "",
        rejected=tuple(rejected),
        shape=shape_of(entry.text, targets, rooms),
    )


def measure(entries: Iterable[Entry]) -> list[Result]:
    return [measure_entry(e) for e in entries]


# ----------------------------------------------------------------------------- the report
@dataclass(frozen=True)
class Figures:
    n: int
    plain: int
    after_yes: int

    def share(self, count: int) -> str:
        return f"{count} ({100 * count / self.n:.1f}%)" if self.n else "-"


def figures(results: Iterable[Result]) -> Figures:
    results = list(results)
    return Figures(len(results), sum(r.plain for r in results), sum(r.after_yes for r in results))


def grouped(results: Sequence[Result]) -> Iterator[tuple[str, str, list[Result]]]:
    """(source, half, results) for every source and half present, in a fixed order."""
    for source in SOURCES:
        for half in HALVES:
            mine = [r for r in results if r.entry.source == source and r.entry.half == half]
            if mine:
                yield source, half, mine


def report(results: Sequence[Result], shapes: int = 25) -> str:
    """The figures per source and half and per device kind, the most common shapes of the
    sentences that needed a question and every such sentence, as markdown (deterministic)."""
    lines = [
        "# The action guard's cost: plain high-risk requests",
        "",
        '| source | half | N | run without a question | run after "yes" |',
        "|---|---|---:|---:|---:|",
    ]
    for source, half, mine in grouped(results):
        f = figures(mine)
        lines.append(f"| {source} | {half} | {f.n} | {f.share(f.plain)} | {f.share(f.after_yes)} |")
    lines += [
        "",
        "## Per device kind (both halves)",
        "",
        '| source | kind | rule | N | run without a question | run after "yes" |',
        "|---|---|---|---:|---:|---:|",
    ]
    for source in SOURCES:
        keys = sorted({(r.entry.kind, r.entry.rule) for r in results if r.entry.source == source})
        for kind, rule in keys:
            f = figures(
                r
                for r in results
                if r.entry.source == source and (r.entry.kind, r.entry.rule) == (kind, rule)
            )
            lines.append(
                f"| {source} | {kind} | {rule} | {f.n} | {f.share(f.plain)} | {f.share(f.after_yes)} |"
            )
    asked = [r for r in results if not r.plain]
    lines += [
        "",
        f"## Shapes that needed a question (the {shapes} most common)",
        "",
        "| shape | sentences | sources |",
        "|---|---:|---|",
    ]
    counts = Counter(r.shape for r in asked)
    for shape, n in sorted(counts.items(), key=lambda p: (-p[1], p[0]))[:shapes]:
        where = ", ".join(sorted({r.entry.source for r in asked if r.shape == shape}))
        lines.append(f"| `{shape}` | {n} | {where} |")
    odd = [r for r in results if r.rejected or not r.risky]
    if odd:
        lines += [
            "",
            "## Entries whose calls the home rejected or the guard does not judge high-risk",
            "",
        ]
        lines += [
            f"- {r.entry.source} `{r.entry.origin}`: {r.entry.text!r}: "
            + ("; ".join(r.rejected) if r.rejected else "no high-risk call")
            for r in odd
        ]
    lines += ["", "## Sentences that needed a question", ""]
    for source, half, mine in grouped(asked):
        lines += [f"### {source}, {half} ({len(mine)})", ""]
        lines += [
            f"- {r.entry.text!r} ({r.entry.kind}, {r.entry.rule}"
            + (f", {r.entry.origin}" if source != "intents" else "")
            + ")"
            for r in sorted(mine, key=lambda r: (r.entry.kind, r.entry.text))
        ]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
