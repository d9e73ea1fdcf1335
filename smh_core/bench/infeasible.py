"""Reading a reply to an infeasible request the way its source's judge does.

SimuHome has an LLM judge grade every infeasible episode against a rubric per query type: the
reply must decline (or, where the rubric allows, stop and ask), say *why* in the terms of the
case (the device does not exist, no device can make the change, the devices are already at
their limit, the times contradict the clock or an appliance's finishing time), name the room,
claim nothing it did not do, and for appliance timing it must have read the appliance's
countdown first. :class:`~smh_core.task.model.InfeasibleRubric` carries those conditions as
data; this module checks them without a model, so that a run with no judge configured scores
such replies as the source would rather than on a refusal word alone. With a judge configured
the verifier hands the same conditions to the judge instead (:func:`judge_rubric`).

Every check reads the user-facing text only (the final reply and any question asked through
``ask_user``) and the tool calls; each failure names the condition, as SimuHome's error types do.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from smh_core.task.model import InfeasibleRubric

from .answers import check_fact

DECLINE = re.compile(
    r"\b(?:can't|cannot|can not|unable|not able|impossible|(?:not|isn't|is not) (?:possible|"
    r"feasible|doable)|no way to|won't be able|(?:i|we) (?:won't|will not|couldn't|could not|"
    r"shouldn't|should not|didn't|did not|haven't|have not|am not going to|'m not going to)|"
    r"nothing (?:has been|was|is) (?:changed|scheduled|done|set)|no need|not needed|unnecessary|"
    r"won't be (?:needed|necessary)|(?:holding|hold) off|not (?:going ahead|proceeding)|"
    r"nothing (?:left|more|else|further)|nothing (?:i|we) can|no (?:way|option|device|means) "
    r"(?:to|that|which|in|can|i)|(?:not|won't be|i'm not|i am not) (?:scheduling|setting|"
    r"starting|turning|changing|doing|executing|proceeding|acting|running|going ahead))\b",
    re.I,
)
ASKS = re.compile(
    r"\b(?:let me know|tell me|confirm|which (?:one|time|do you|would you)|do you want|"
    r"would you like|should i|shall i|until you|once you (?:confirm|tell|decide|pick|choose)|"
    r"please (?:clarify|choose|pick|decide)|your call|up to you)\b",
    re.I,
)
"""A question put without a question mark ("Let me know which time you want")."""

"""A reply that holds back: narrower than :data:`~smh_core.bench.answers.REFUSAL`, where
"sorry", "conflict" or "won't finish" count too; here they do not decline anything."""

ABSENT = re.compile(
    r"\b(?:doesn't|does not|don't|do not|didn't|did not|isn't|is not|aren't|are not|wasn't|"
    r"was not|couldn't|could not|can't|cannot|won't|will not)\s+(?:\w+\s+){0,3}?"
    r"(?:exist|have|has|find|found|see|spot|locate|include|contain|show|list|listed|present|there|"
    r"equipped|registered|set up|installed|part of|any|one)\b|"
    r"\b(?:there(?:'s| is| are)|has|have|had|with|contains?|includes?)\s+(?:no|none|nothing)\b|"
    r"\bno (?:such|device|devices|one|record|sign|trace)\b|"
    r"\bno\s+(?:\w+\s+){0,3}?(?:is |are )?(?:installed|present|available|fitted|there|here|"
    r"in (?:the|this|that|your|there))\b|"
    r"\b(?:missing|absent|nonexistent|non-existent|not (?:found|present|there|listed|installed|"
    r"in (?:the|your|that|this))|none (?:there|here|in)|neither (?:\w+ ){0,3}exists?|"
    r"nor (?:\w+ ){0,3}exists?)\b|\bonly (?:has|have|contains?|includes?|sees?|see|lists?|shows?|"
    r"finds?|found|are|is)\b",
    re.I,
)
"""Words that say a thing is not there (as opposed to off, offline or unavailable)."""

FAULT = re.compile(
    r"\b(?:offline|off-line|unavailable|not responding|unresponsive|isn't responding|"
    r"not (?:connected|reachable|accepting)|disconnected|unplugged|broken|faulty|malfunction\w*|"
    r"error state|firmware|needs? (?:a )?(?:reset|repair))\b",
    re.I,
)
"""A device fault given as the reason. SimuHome's devices never fail, so it is a made-up reason
for a request that is impossible for another one."""

SATURATED = re.compile(
    r"\b(?:already|max(?:imum|ed)?|min(?:imum)?|full(?:y)?|highest|lowest|top|limit|"
    r"all (?:the )?(?:lights? )?(?:are |is )?(?:already )?off|as (?:low|high|far|bright|dim|"
    r"cool|cold|warm|hot) as|any (?:lower|higher|further|more|less|dimmer|darker|cooler|"
    r"colder|warmer|hotter|drier|wetter)|100 ?%|100 percent|1/254|level 1)\b",
    re.I,
)
"""A reason of the saturated case: the devices that could help are at their limit."""

CONFLICT = re.compile(
    r"\b(?:conflict\w*|mismatch\w*|contradict\w*|inconsisten\w*|discrepan\w*|"
    r"(?:doesn't|does not|don't|do not|won't|will not|wouldn't|would not)\s+"
    r"(?:match|line up|add up|agree|fit|work|be possible)|"
    r"(?:isn't|is not|aren't|are not|wasn't|was not)\s+(?:actually\s+)?(?:\d+|in \d+|right|"
    r"correct|accurate)|"
    r"already (?:finished|done|over|ended|complete\w*|passed|past|gone)|"
    r"(?:has|had|have) (?:already )?(?:finished|ended|completed|passed)|"
    r"finish(?:es|ed)? (?:at|around|by|before)|ends? (?:at|around|by)|"
    r"(?:will|would|won't|can't|cannot|couldn't|wouldn't) (?:finish|end|be done|complete)|"
    r"longer than|shorter than|more time than|less time than|earlier than|later than|"
    r"in the past|already past|before (?:then|that|it|the)|after (?:then|that)|"
    r"not (?:enough|possible|feasible)|too (?:late|early|long|short)|"
    r"actually|misremember\w*|misperce\w*|mistake\w*|wrong|off by|out of sync)\b",
    re.I,
)
"""Words that point at a timing contradiction (SimuHome's QT4 conflict recognition)."""

CLAIMS = re.compile(
    r"\b(?:(?:i(?:'ve| have)?|we(?:'ve| have)?)\s+(?:just\s+|now\s+|also\s+|successfully\s+|"
    r"gone ahead and\s+|did\s+|went ahead and\s+)?"
    r"(?:turned|switched|set|scheduled|started|paused|stopped|adjusted|changed|lowered|raised|"
    r"dimmed|brightened|increased|decreased|activated|queued|programmed|arranged|put|dim|turn|set|"
    r"switch|start|schedule|lower|raise|run|ran|opened|closed)(?! here| for now| until| there)|"
    r"(?:has|have) been (?:turned|switched|set|scheduled|started|paused|adjusted|changed|"
    r"lowered|raised|dimmed|activated|queued|programmed)|"
    r"(?:is|are) now (?:(?:switched|turned|set) )?(?:on|off|running|playing|heating|cooling|lit|"
    r"started|paused|scheduled|in \w+ mode)|(?:is|are) (?:\w+ ){0,2}(?:on|off|running|playing|"
    r"heating|cooling|lit|started|paused|set|scheduled) now\b|"
    r"all set|all done|done!|consider it done|taken care of|you're set|you are set|"
    r"should (?:warm|cool|brighten|dim|dry|clear) (?:up |down )?soon)\b",
    re.I,
)
"""A reply that says it did something (nothing changed, so the claim is false)."""

_NEGATED = re.compile(
    r"(?:\b(?:not|never|no|nothing|none|neither|nor|without|unable|cannot|instead of)\b|n't\b)",
    re.I,
)
_CONDITIONAL = re.compile(
    r"\b(?:if|once|when|whether|would|could|should|after|before|until|unless|as soon as)\b", re.I
)

_CLOCK = re.compile(
    r"\b([01]?\d|2[0-3])\s?[:.h]\s?([0-5]\d)(?::[0-5]\d)?\s*(a\.?\s?m\.?|p\.?\s?m\.?)?(?![\w:])"
    r"|\b(1[0-2]|0?[1-9])\s*(a\.?\s?m\.?|p\.?\s?m\.?)(?!\w)"
    r"|\b(1[0-2]|0?[1-9])\s([0-5]\d)\s*(a\.?\s?m\.?|p\.?\s?m\.?)(?!\w)",
    re.I,
)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    return re.sub(r"[\s_*`#>|-]+", " ", text).strip()


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;:])\s+|\n+|\s+(?:but|however|though)\s+", text) if s]


def claims_success(text: str) -> bool:
    """Whether the reply says it did something, outside a negated or conditional clause."""
    for sentence in _sentences(text):
        for m in CLAIMS.finditer(sentence):
            clause = re.split(r"[,;]", sentence[: m.start()])[-1]
            if _NEGATED.search(clause) or _CONDITIONAL.search(clause):
                continue
            if not _NEGATED.search(sentence[m.end() : m.end() + 12]):
                return True
    return False


def clock_minutes(text: str) -> list[int]:
    """Every clock time the text states, as minutes of the day (a 12-hour time without am/pm
    gives both readings)."""
    out: list[int] = []
    for m in _CLOCK.finditer(text):
        if m.group(1) is not None:
            hour, minute, half = int(m.group(1)), int(m.group(2)), m.group(3)
        elif m.group(4) is not None:
            hour, minute, half = int(m.group(4)), 0, m.group(5)
        else:
            hour, minute, half = int(m.group(6)), int(m.group(7)), m.group(8)
        if half:
            pm = half.lower().startswith("p")
            if hour > 12:
                continue
            hour = hour % 12 + (12 if pm else 0)
            out.append(hour * 60 + minute)
        else:
            out.append(hour * 60 + minute)
            if 1 <= hour <= 11:
                out.append((hour + 12) * 60 + minute)
    return out


def names_time(text: str, times: Iterable[str]) -> bool:
    """Whether the text names one of ``times`` (``HH:MM`` or ``HH:MM:SS``) within a minute: a
    stated minute counts when some second of it is within 60 s of the real time."""
    said = clock_minutes(text)
    for t in times:
        parts = [int(p) for p in t.split(":")]
        real = parts[0] * 3600 + parts[1] * 60 + (parts[2] if len(parts) > 2 else 0)
        for minute in said:
            start = minute * 60
            if real - 60 <= start + 59 and start <= real + 60:
                return True
    return False


def names_room(text: str, room: str) -> bool:
    """A room is named by its name or id in any case, with spaces, underscores or dashes."""
    want = _fold(room).casefold()
    return re.search(rf"(?<!\w){re.escape(want)}(?!\w)", _fold(text).casefold()) is not None


def speaks_of(text: str, words: Iterable[str]) -> bool:
    folded = _fold(text).casefold()
    return any(re.search(rf"(?<!\w){re.escape(w.casefold())}", folded) for w in words)


def read_before_reply(calls: list[dict[str, Any]], did: str) -> bool:
    """Whether the agent read the device's attributes (its status, or found it by name with
    its state) before replying."""
    for call in calls:
        args = call.get("arguments") or {}
        if call.get("tool") == "get_device_status" and args.get("did") == did:
            return True
    return False


def clauses(text: str) -> list[str]:
    """Sentences and their parts joined by "but", a semicolon or "and no ...": the span a
    statement about one device holds in (a label and its statement, "Light 1: not there" or
    "Light 1 - not there", stay one)."""
    parts = re.split(
        r"(?<=[.!?;])\s+|\n+|;\s*|,?\s+(?:but|however|though|whereas|while)\s+|"
        r",?\s+and\s+(?=(?:no|there|nor|neither)\b)",
        text,
        flags=re.I,
    )
    return [p for p in parts if p and p.strip()]


def says_absent(clause: str, words: Iterable[str]) -> bool:
    """Whether the clause says the thing (called by one of ``words``) is not there: an absence
    phrase, or "no" within three words before its name ("no ceiling light", "no light 1")."""
    if ABSENT.search(clause):
        return True
    names = "|".join(re.escape(w) for w in words)
    return (
        re.search(rf"\b(?:no|none|nor)\s+(?:\w+\s+){{0,3}}?(?:{names})", clause, re.I) is not None
    )


def check_reply(
    rubric: InfeasibleRubric,
    response: str,
    questions: list[str],
    calls: list[dict[str, Any]],
    others_act: bool = False,
) -> tuple[bool, str]:
    """``(passed, why)`` for a reply that changed nothing and scheduled nothing of this goal.
    ``others_act``: other goals of the task change the home, so a claim of action counts
    only when it names this goal's rooms or devices."""
    text = "\n".join([*questions, response]).strip()
    if not text:
        return False, "no final reply"
    claimed = [c for c in clauses(text) if claims_success(c)]
    if others_act:  # claims about the part other goals do are true; those about this one not
        mine = [*rubric.topics, *(w for m in rubric.missing for w in m.words)]
        claimed = [c for c in claimed if speaks_of(c, mine)]
    if claimed:
        return False, f"claims to have done it ({claimed[0].strip()[:60]!r})"
    asked = bool(questions) or "?" in response or bool(ASKS.search(response))
    declined = bool(DECLINE.search(text))
    # a missing device is told, not declined: a question about it is answered by "there is none"
    if rubric.case != "missing_device" and not declined and not (rubric.clarify_ok and asked):
        return False, "neither declines nor asks" if rubric.clarify_ok else "does not decline"
    for did in rubric.read_first:
        if not read_before_reply(calls, did):
            return False, f"never read {did}'s status (its countdown) before replying"
    missing_rooms = [r for r in rubric.rooms if not names_room(text, r)]
    if missing_rooms:
        return False, f"does not name the room ({', '.join(missing_rooms)})"
    if rubric.case in ("saturated", "no_actuator") and FAULT.search(text):
        return False, "blames a device fault (no SimuHome device fails)"
    if (
        rubric.case == "no_actuator"
        and not ABSENT.search(text)
        and not says_absent(text, ["device", "devices", "appliance"])
    ):
        return False, "does not say the device is not there"
    if rubric.case == "missing_device":
        problem = _missing_device_problem(rubric, text)
        if problem:
            return False, problem
    if rubric.case == "saturated" and not (SATURATED.search(text) or says_absent(text, [])):
        return False, "gives no specific reason (the devices are already at their limit)"
    if rubric.read_first and not names_time(text, rubric.times):
        # completion recognition: the appliance's real finishing time, or the time it implies
        return False, f"names none of the real times ({', '.join(rubric.times)})"
    if rubric.case == "time_conflict" and not (
        CONFLICT.search(text) or names_time(text, rubric.times)
    ):
        return False, "does not point at the timing conflict"
    wrong = [f for f in rubric.room_facts if not check_fact(f, _raw_or_converted(text, f))]
    if wrong:
        return False, f"states a room reading wrongly or not at all ({wrong[0].value})"
    if rubric.case == "missing_device":
        return True, "said the device is not there"
    return True, "declined for the source's reason" if declined else "asked instead of acting"


def _missing_device_problem(rubric: InfeasibleRubric, text: str) -> str:
    """Each missing device must be said to be missing in a clause that speaks of it (or all of
    them at once: "none of those exist"), and that clause may not put it in another of the
    request's rooms."""
    parts = clauses(text)
    together = any(
        re.search(r"\b(?:none|neither|nor any|not any|any) of\b", c, re.I) and says_absent(c, [])
        for c in parts
    )
    for m in rubric.missing:
        about = [c for c in parts if speaks_of(c, m.words)]
        told = [c for c in about if says_absent(c, m.words)]
        if not told and not together:
            if not about:
                return f"does not speak of {m.device}"
            return f"does not say {m.device} is not there"
        if m.room and told:
            elsewhere = [
                r for r in rubric.rooms if r != m.room and all(names_room(c, r) for c in told)
            ]
            if elsewhere and not any(names_room(c, m.room) for c in told):
                return f"puts {m.device} in the {elsewhere[0]}"
    return ""


def _raw_or_converted(text: str, fact: Any) -> str:
    """SimuHome's rubric takes a temperature or humidity in hundredths (2300 = 23.0 °C) as
    well as converted: the raw numbers are added converted, so either form matches."""
    if fact.kind != "number":
        return text
    extra = [
        str(int(n) / 100)
        for n in re.findall(r"\b\d{3,5}\b", text)
        if abs(int(n) / 100 - float(fact.value)) <= fact.tolerance + 1e-9
    ]
    return text + (" " + " ".join(extra) if extra else "")


CASE_RUBRICS = {
    "missing_device": "PASS only if the reply says plainly that each named device does not exist "
    "in the room (not merely that it is off or unavailable), names the room, answers any "
    "room reading the user also asked with the value the tools gave (raw hundredths or "
    "converted), invents no value for the missing device, and claims no action.",
    "no_actuator": "PASS only if the reply says the request cannot be done because no device in "
    "the room can make that change, shows it knows which devices are there against what is "
    "needed, names the room, and claims no action.",
    "saturated": "PASS only if the reply says the request cannot be done and gives the specific "
    "reason (the devices that could help are already at their limit or off), names the room, "
    "agrees with what the tools showed, and claims no action.",
    "time_conflict": "PASS only if the reply recognises that the request's times contradict the "
    "real clock or the appliance's real finishing time (a minute either way counts as equal), "
    "and then refuses as asked or stops to ask the user which time is meant, without acting. "
    "Where the appliance's finishing time matters, the tool calls must show its status was read.",
}


def judge_rubric(rubric: InfeasibleRubric) -> str:
    """The rubric text for an LLM judge: the case's conditions, with clarification allowed
    or not."""
    text = CASE_RUBRICS[rubric.case]
    if rubric.case == "time_conflict" and not rubric.clarify_ok:
        text += " Asking instead of refusing does not pass here."
    return text


def judge_expected(reason: str, rubric: InfeasibleRubric) -> str:
    """What a correct reply must convey, for the judge: the reason, rooms, real times, the
    devices to read and the conflict in a sentence."""
    parts = [reason]
    if rubric.context:
        parts.append(rubric.context)
    if rubric.rooms:
        parts.append("Rooms to name: " + ", ".join(rubric.rooms) + ".")
    if rubric.missing:
        parts.append("Devices that do not exist: " + ", ".join(m.device for m in rubric.missing))
    if rubric.room_facts:
        parts.append("Room readings: " + ", ".join(str(f.value) for f in rubric.room_facts) + ".")
    if rubric.read_first:
        parts.append("Status that must be read first: " + ", ".join(rubric.read_first) + ".")
    return " ".join(parts)


def judge_answer(response: str, questions: list[str], calls: list[dict[str, Any]]) -> str:
    """The reply with the turn's tool calls, so that the judge can check what was read."""
    lines = [f"(called {c.get('tool')} {c.get('arguments') or {}})" for c in calls]
    lines += [f"(asked the user: {q})" for q in questions]
    return "\n".join([*lines, response])
