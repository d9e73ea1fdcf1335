"""The ``intents`` suite: tasks written in Home Assistant's own sentence templates, per language.

For one language: the home named in that language (:mod:`.home`), HA's templates for every
intent on a device SMH simulates (``home-assistant-intents``, parsed by hassil as HA parses
them), one seeded sentence at a time (:mod:`.sampling`) with the home's names and areas in the
slots, and the goal derived from the intent and slots (:mod:`.goals`). A sentence is kept only
if it is new and HA's matcher reads it back as the intended intent with the same slots
(:mod:`.roundtrip`); what was dropped, and why, is counted for the summary, as are the intents
left out. Same language and seed, same tasks (the sampling draws from one
``random.Random`` seeded with both, and walks the templates in their file order).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hassil.expression import Sentence
from hassil.intents import IntentData, SlotList, WildcardSlotList
from home_assistant_intents import get_intents, get_languages

from smh_core.homeenv.model import Home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from .goals import BOUNDS, NoGoal, derive, fits, skip_reason
from .home import Entity, LanguageHome, NoHome, language_home
from .roundtrip import language_intents, mismatch, slot_lists
from .sampling import Unfit, Walker

DEFAULT_COUNT = 300
"""Tasks per language the suite aims for (fewer where HA's templates and the home allow fewer)."""

MAX_MISSES = 60
"""Draws in a row that add nothing (a repeat, a misread, no fit) before an intent is done."""

SUITE = "intents"


class UnknownLanguage(ValueError):
    """A language code home-assistant-intents does not ship; the message lists the known ones."""

    def __init__(self, language: str) -> None:
        known = ", ".join(get_languages())
        super().__init__(f"unknown language {language!r}; home-assistant-intents has: {known}")


def resolve_language(language: str) -> str:
    """The package's spelling of ``language`` (``zh-cn`` -> ``zh-CN``)."""
    for code in get_languages():
        if code.casefold() == language.casefold().replace("_", "-"):
            return code
    raise UnknownLanguage(language)


def home_file(language: str) -> str:
    """Where a task names its language's home, relative to the task file."""
    return f"homes/{language}.json"


@dataclass(frozen=True)
class Template:
    """One sentence template of one intent block, with what it needs."""

    intent: str
    block: IntentData
    sentence: Sentence
    rules: dict[str, Sentence]
    lists: dict[str, SlotList]
    uses: frozenset[str]
    """The list names the sentence refers to."""


@dataclass
class LanguageResult:
    """One language's tasks, counts, intents left out and sentences dropped (with why)."""

    language: str
    tasks: list[Task] = field(default_factory=list)
    home: Home | None = None
    source: str = ""
    skipped: dict[str, str] = field(default_factory=dict)
    dropped: Counter[str] = field(default_factory=Counter)
    per_intent: Counter[str] = field(default_factory=Counter)


def _block_reason(block: IntentData) -> str | None:
    """Why a block of sentences cannot be used, or None. Blocks that need the speaking
    satellite's area (``requires_context: area``) need a voice device SMH does not place."""
    for key in block.requires_context:
        if key != "domain":
            return f"needs the speaker's {key} (a voice satellite's context)"
    return None


def templates(language: str) -> tuple[dict[str, list[Template]], dict[str, str]]:
    """Usable templates per supported intent, and the intents left out with why."""
    data = get_intents(language) or {}
    intents = language_intents(language)
    wildcard = {n for n, sl in intents.slot_lists.items() if isinstance(sl, WildcardSlotList)}
    usable: dict[str, list[Template]] = {}
    skipped: dict[str, str] = {}
    for name in sorted(data.get("intents", {})):
        reason = skip_reason(name)
        if reason is not None:
            skipped[name] = reason
            continue
        found: list[Template] = []
        for block in intents.intents[name].data:
            if _block_reason(block) is not None:
                continue
            rules = {**intents.expansion_rules, **block.expansion_rules}
            lists = {**intents.slot_lists, **block.slot_lists}
            for sentence in block.sentences:
                uses = frozenset(sentence.list_names(rules))
                if any(
                    n in wildcard or (n not in lists and n not in ("name", "area")) for n in uses
                ):
                    continue  # floors, zones, free text: not in an SMH home
                found.append(Template(name, block, sentence, rules, lists, uses))
        if found:
            usable[name] = found
        else:
            skipped[name] = (
                "no template usable without a voice satellite's area, floors or free text"
            )
    return usable, skipped


def _as_set(value: Any) -> set[Any] | None:
    if value is None:
        return None
    return set(value) if isinstance(value, list) else {value}


def candidates(t: Template, lh: LanguageHome) -> list[Entity]:
    """Entities a sentence of ``t`` can be about: the intent can act on them and the block's
    context (required domain, fixed domain and device class, excluded domains) admits them."""
    block = t.block
    domains = _as_set(block.requires_context.get("domain"))
    fixed_domains = _as_set(block.slots.get("domain"))
    classes = _as_set(block.slots.get("device_class"))
    excluded = _as_set(block.excludes_context.get("domain")) or set()
    out = []
    for e in lh.entities:
        if not fits(t.intent, e) or e.domain in excluded:
            continue
        if (domains and e.domain not in domains) or (
            fixed_domains and e.domain not in fixed_domains
        ):
            continue
        if classes and e.device_class not in classes:
            continue
        if "area" in t.uses and e.area is None:
            continue
        out.append(e)
    return out


def _slots(t: Template, walked: dict[str, Any], e: Entity) -> dict[str, Any]:
    """The block's fixed slots (one value: the entity's where the block allows several),
    overridden by what the sentence says."""
    fixed: dict[str, Any] = {}
    for key, value in t.block.slots.items():
        if isinstance(value, list):
            own = getattr(e, key, None)
            value = own if own in value else value[0]
        fixed[key] = value
    return {**fixed, **walked}


def generate_language(language: str, seed: int = 0, count: int = DEFAULT_COUNT) -> LanguageResult:
    """Up to ``count`` tasks in ``language`` (see the module docstring). Raises
    :class:`UnknownLanguage` for a code the package lacks; a language without names gets no
    tasks and says why in ``skipped``."""
    language = resolve_language(language)
    result = LanguageResult(language)
    try:
        lh = language_home(language)
    except NoHome as e:
        result.skipped["*"] = str(e)
        return result
    result.home, result.source = lh.home, lh.source
    usable, result.skipped = templates(language)
    lists = slot_lists(lh)
    rng = random.Random(f"intents:{seed}:{language}")
    seen: set[str] = set()
    misses = dict.fromkeys(usable, 0)
    made: list[dict[str, Any]] = []
    while len(made) < count and any(m < MAX_MISSES for m in misses.values()):
        for intent in usable:
            if misses[intent] >= MAX_MISSES or len(made) >= count:
                continue
            item = _draw(usable[intent], lh, lists, rng, seen, result.dropped)
            if item is None:
                misses[intent] += 1
                continue
            misses[intent] = 0
            made.append(item)
    for intent in usable:
        if not any(m["intent"] == intent for m in made):
            result.skipped[intent] = _no_task_reason(intent, usable[intent], lh)
    for n, m in enumerate(made):
        result.per_intent[m["intent"]] += 1
        result.tasks.append(
            Task.model_validate(
                {
                    "id": f"intents-{language}-{n:04d}",
                    "suite": SUITE,
                    "category": "ha_intent",
                    "subcategory": m["intent"],
                    "difficulty": "simple",
                    "home": {"file": home_file(language)},
                    "overrides": m["overrides"],
                    "turns": [{"text": m["text"]}],
                    "goal": m["goal"],
                    "reference": m["reference"],
                }
            )
        )
    return result


def _no_task_reason(intent: str, found: list[Template], lh: LanguageHome) -> str:
    if not any(candidates(t, lh) for t in found):
        return "the language's home has no device this intent's templates can target"
    return "no sentence could be drawn that HA's matcher reads back as this intent"


def _draw(
    found: list[Template],
    lh: LanguageHome,
    lists: dict[str, SlotList],
    rng: random.Random,
    seen: set[str],
    dropped: Counter[str],
) -> dict[str, Any] | None:
    """One new, round-tripping task of one intent, or None (the reason counted in ``dropped``)."""
    t = rng.choice(found)
    pool = candidates(t, lh)
    if not pool:
        dropped["template targets no device of the home"] += 1
        return None
    e = rng.choice(pool)
    fixed = {"name": e.name, **({"area": lh.areas[e.area]} if e.area else {})}
    # a language's own lists may fill the name or area slot (Finnish inflects area names in
    # lists of its own): they must say the chosen device's, as the domain and class lists do
    wanted = {"domain": e.domain, "device_class": e.device_class, **fixed}
    walker = Walker(rng, t.lists, t.rules, fixed=fixed, wanted=wanted, bounds=BOUNDS)
    try:
        sampled = walker.sample(t.sentence)
        slots = _slots(t, sampled.slots, e)
        derived = derive(t.intent, slots, e, lh, rng, t.block.response)
    except (Unfit, NoGoal):
        dropped["template cannot say a task on this home"] += 1
        return None
    if sampled.text.casefold() in seen:
        dropped["repeat of an earlier sentence"] += 1
        return None
    why = mismatch(lh, sampled.text, t.intent, slots, lists)
    if why is not None:
        dropped[f"HA's matcher: {why.split(':')[0]}"] += 1
        return None
    seen.add(sampled.text.casefold())
    return {
        "intent": t.intent,
        "text": sampled.text,
        "slots": slots,
        "overrides": derived.overrides,
        "goal": derived.goal,
        "reference": derived.reference,
    }


class IntentHomes(HomeCache):
    """A home cache serving the built language homes (validation needs no files)."""

    def __init__(self, homes: dict[str, Home]) -> None:
        super().__init__(None)
        self._built = {f"file:{home_file(lang)}": home for lang, home in homes.items()}

    def get(self, task: Task) -> Home:
        return self._built.get(task.home.key()) or super().get(task)
