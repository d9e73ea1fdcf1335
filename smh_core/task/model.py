"""The task format: one pydantic schema for every suite (SMH-Bench, SimuHome, MemHome, SAGE).

A task is self-contained: which home (generated or a file), how its state differs from the
home's defaults, the simulated time, the dialogue so far, the user's memory, the user turn(s)
with scripted replies to clarification questions, the goal to verify and a reference solution
that an oracle can replay. Tasks are stored one per line in JSONL files under ``tasks/``;
:func:`load_tasks` reports a malformed line by file, line number and field path, and a task id
that appears twice (in one file or across files) by both places.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from smh_core.homes.ref import Difficulty as Difficulty  # the task format uses both
from smh_core.homes.ref import HomeRef as HomeRef


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StateOverride(_Strict):
    """Attribute values set on one device before the task starts."""

    did: str
    values: dict[str, Any]


class RoomClimate(_Strict):
    """A room's climate at the start of one task (SimuHome sets it per episode); a field left
    out keeps the home's value. Air quality follows from ``pm25``. ``base_lux`` is the room's
    own light, to which daylight through its windows (``window_factor``) and lamps add; the
    ranges are the engine's for room variables."""

    temperature: float | None = Field(default=None, ge=-50, le=80)
    humidity: float | None = Field(default=None, ge=0, le=100)
    pm25: float | None = Field(default=None, ge=0, le=2000)
    pm10: float | None = Field(default=None, ge=0, le=2000)
    base_lux: float | None = Field(default=None, ge=0, le=200000)
    window_factor: float | None = Field(default=None, ge=0)


class OutdoorClimate(_Strict):
    """The weather the rooms drift towards during one task, and the daylight per hour (24
    values); a field left out keeps the home's."""

    temperature: float | None = Field(default=None, ge=-50, le=80)
    humidity: float | None = Field(default=None, ge=0, le=100)
    pm25: float | None = Field(default=None, ge=0, le=2000)
    pm10: float | None = Field(default=None, ge=0, le=2000)
    daylight: list[Annotated[float, Field(ge=0, le=200000)]] | None = Field(
        default=None, min_length=24, max_length=24
    )


class TaskClimate(_Strict):
    """Per-task room climates (by room id) and outdoor weather, applied to a copy of the home
    when the task is prepared (:func:`smh_core.task.climate.apply_climate`), so tasks on one
    home may start in different weather."""

    rooms: dict[str, RoomClimate] = Field(default_factory=dict)
    outdoor: OutdoorClimate | None = None


class Message(_Strict):
    """A past dialogue turn."""

    role: Literal["user", "assistant"]
    content: str


class UserTurn(_Strict):
    """What the user says, plus the scripted answers a simulated user gives, in order, if the
    agent asks a clarification question during this turn."""

    text: str
    replies: list[str] = Field(default_factory=list)


class Action(_Strict):
    did: str
    locator: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class RequiredAction(_Strict):
    """A tool call the trace must contain (SimuHome): the tool name and a subset of its
    arguments that must match."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class Fact(_Strict):
    """One checkable fact of an expected answer: a number, a yes/no, a device or room name
    that must be mentioned, or free text left to the judge."""

    kind: Literal["number", "yesno", "name", "text"]
    value: Any
    tolerance: float = 0.0


class ExecuteGoal(_Strict):
    """The final state must satisfy ``critic``; with ``preserve`` no device outside the
    critic's devices (and ``may_change``) may change.

    ``no_change`` marks a request the home already satisfies (HomeBench asks to turn on a light
    that is on): doing nothing is then correct, so validation requires that doing nothing
    passes and that each of the ``decoys`` (plausible wrong actions) fails instead."""

    kind: Literal["execute"]
    critic: str
    preserve: bool = True
    may_change: list[str] = Field(default_factory=list)
    no_change: bool = False
    decoys: list[Action] = Field(default_factory=list)

    @model_validator(mode="after")
    def _decoys_with_no_change(self) -> ExecuteGoal:
        if self.no_change and not self.decoys:
            raise ValueError("a no_change goal needs decoys: wrong actions that must fail it")
        if self.decoys and not self.no_change:
            raise ValueError("decoys are for no_change goals only")
        return self


class QueryGoal(_Strict):
    """A non-mutating question: the answer must state the facts and nothing may change."""

    kind: Literal["query"]
    facts: list[Fact]
    answer: str = ""


class ClarifyGoal(_Strict):
    """The agent must ask a clarification question; if ``then`` is given the task continues
    with the scripted reply and ``then`` is verified, else nothing may change."""

    kind: Literal["clarify"]
    about: list[str] = Field(default_factory=list)
    then: ExecuteGoal | None = None


class AutomationGoal(_Strict):
    """A rule must be stored whose triggers (and conditions) are equivalent to these (same
    firing times and states, see :mod:`smh_core.sim.equivalence`) and whose actions, run on a
    copy of the final home, satisfy ``critic``. Nothing may change now: the rule acts later."""

    kind: Literal["automation"]
    triggers: list[dict[str, Any]] = Field(min_length=1)
    conditions: list[dict[str, Any]] = Field(default_factory=list)
    critic: str


class MissingDevice(_Strict):
    """A device the request names and the home lacks: ``words`` are the nouns a reply may call
    its kind by ("light", "washer"), so a reply can be seen to speak of it."""

    device: str
    words: list[str] = Field(min_length=1)
    room: str = ""


class InfeasibleRubric(_Strict):
    """What a reply to an infeasible request must do beyond declining, as the source's judge
    asks it (SimuHome's per-query-type rubrics, made checkable; see
    :mod:`smh_core.bench.infeasible`). ``case`` says why the request cannot be done:

    - ``missing_device``: the named devices do not exist; the reply must say so of each.
    - ``no_actuator``: no device in the room can make the wished change; the reply must say so.
    - ``saturated``: the devices that could help are already at their limit; the reply must
      give that reason.
    - ``time_conflict``: the request's times contradict the clock or an appliance's real
      finishing time; the reply must point at the conflict (a contradiction word or one of the
      real ``times``, HH:MM within a minute) and, with ``clarify_ok``, may ask instead of
      refusing.

    ``rooms`` must each be named in the reply; ``room_facts`` are room readings a question also
    asked (stated as the home gives them, in SimuHome's raw hundredths or converted);
    ``read_first`` are devices whose status must be read before the reply (an appliance's
    countdown); ``topics`` words that speak of this goal's part when other goals of the task
    may act (a claim of action that names them is false)."""

    source: str
    case: Literal["missing_device", "no_actuator", "saturated", "time_conflict"]
    rooms: list[str] = Field(default_factory=list)
    missing: list[MissingDevice] = Field(default_factory=list)
    room_facts: list[Fact] = Field(default_factory=list)
    read_first: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list)
    times: list[str] = Field(default_factory=list)
    clarify_ok: bool = False
    context: str = ""

    @field_validator("times")
    @classmethod
    def _clock_times(cls, value: list[str]) -> list[str]:
        for t in value:
            if not re.fullmatch(r"(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?", t):
                raise ValueError(f"times: {t!r} is not a 24-hour HH:MM or HH:MM:SS")
        return value


class InfeasibleGoal(_Strict):
    """The request cannot be done (missing device, physical limit, contradictory timing): the
    agent must say so, and nothing may change. With a ``rubric`` the reply must also meet it
    (the source's judging of such replies); without one a refusal is enough."""

    kind: Literal["infeasible"]
    reason: str
    rubric: InfeasibleRubric | None = None


class Checkpoint(_Strict):
    """``critic`` must hold at some moment of the window ``at_seconds ± tolerance_seconds``
    after the task starts (SimuHome's tolerance: a state reached inside the window counts even
    if a later schedule changes it again before the window closes) and, with ``not_before``,
    must not hold yet ``tolerance_seconds + 1`` s before ``at_seconds`` (so acting at once does
    not pass for scheduling). With no tolerance the window is the instant ``at_seconds``."""

    at_seconds: float = Field(ge=0)
    critic: str
    tolerance_seconds: float = Field(default=0.0, ge=0)
    not_before: bool = True


class TimedGoal(_Strict):
    """State over simulated time, checked by running the home forward from the agent's final
    state (schedules and rules included): every checkpoint must hold, and at the last one no
    device outside the critics (and ``may_change``) may differ from the same home left alone."""

    kind: Literal["timed"]
    checkpoints: list[Checkpoint] = Field(min_length=1)
    preserve: bool = True
    may_change: list[str] = Field(default_factory=list)


class MemoryGoal(_Strict):
    """MemHome: the agent's memory decision must carry ``prefix`` (``memory`` for an add, update
    or delete, ``rewrite`` when a stored memory turns the request into a command, ``no-rewrite``
    otherwise), the user's memory bank after the turn must equal ``bank_after`` (entries of
    ``Task.memory`` verbatim; a newly stored entry must contain every word of ``key_terms``), and
    the home must satisfy ``then`` (the executed command), or stay unchanged without it."""

    kind: Literal["memory"]
    prefix: Literal["memory", "rewrite", "no-rewrite"]
    bank_after: list[str] = Field(default_factory=list)
    key_terms: list[str] = Field(default_factory=list)
    then: ExecuteGoal | None = None

    @property
    def passive(self) -> bool:
        """Doing nothing is the correct behaviour (no memory change, no rewrite, no action)."""
        return self.prefix == "no-rewrite" and self.then is None


Goal = Annotated[
    ExecuteGoal
    | QueryGoal
    | ClarifyGoal
    | AutomationGoal
    | InfeasibleGoal
    | TimedGoal
    | MemoryGoal,
    Field(discriminator="kind"),
]

SubGoal = Annotated[
    ExecuteGoal | QueryGoal | InfeasibleGoal | TimedGoal, Field(discriminator="kind")
]
"""The goal kinds a multi-goal task combines: each is judged on its own part of the home and
the reply. Clarify, automation and memory goals decide the mode of the whole turn (ask, store
a rule, rewrite the request), so they stay single goals."""


class Confirmation(_Strict):
    """A high-risk action the simulated user confirms when the action guard asks ("Unlock ...?
    Say yes to confirm"): the device and the guard's rule (``safety_policy.yaml``: ``unlock``,
    ``disarm``, ``scalding_water`` ...); ``*`` for any rule on that device."""

    did: str
    rule: str


class Reference(_Strict):
    """A solution the oracle replays: the DR-style output (mode, response, actions,
    automations, schedules) and, for SimuHome, the tool calls it makes."""

    mode: Literal["execute", "clarify", "answer", "automation", "refuse"]
    response: str = ""
    actions: list[Action] = Field(default_factory=list)
    automations: list[dict[str, Any]] = Field(default_factory=list)
    schedules: list[dict[str, Any]] = Field(default_factory=list)
    tool_calls: list[RequiredAction] = Field(default_factory=list)
    memory_output: str | None = None
    """MemHome: the expected decision text (``memory: ...``, ``rewrite: ...``, ``no-rewrite``)."""


_LOCAL_DATE_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?"
)


def check_local_date_time(text: str) -> str:
    """``text`` if it is an ISO 8601 local date-time (``2024-06-27T09:00:00``; seconds and
    fractions optional, no UTC offset): the simulated clock is a naive local clock, and a
    value like ``yesterday`` would otherwise only fail when the task runs."""
    if not _LOCAL_DATE_TIME.fullmatch(text):
        raise ValueError(
            "must be an ISO 8601 local date-time such as 2024-06-27T09:00:00 (no time zone)"
        )
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            "is not a valid date and time (month, day, hour or minute out of range)"
        ) from None
    return text


class Task(_Strict):
    id: str
    suite: Literal[
        "smh",
        "simuhome",
        "memhome",
        "sage",
        "safety",
        "safety-adversarial",
        "safety-composed",
        "intents",
        "ha_datasets",
        "simuhome_import",
        "homebench_import",
    ]
    category: str
    subcategory: str
    difficulty: Difficulty
    home: HomeRef
    overrides: list[StateOverride] = Field(default_factory=list)
    climate: TaskClimate | None = None
    start_time: str = "2024-06-27T09:00:00"
    history: list[Message] = Field(default_factory=list)
    memory: list[str] = Field(default_factory=list)
    entry_room: str | None = None
    entry_device: str | None = None
    turns: list[UserTurn] = Field(min_length=1)
    goal: Goal | None = None
    goals: list[SubGoal] = Field(default_factory=list)
    """Several requests in one turn (HomeBench's multi-device and mixed instructions): the task
    passes only if every goal does. Exactly one of ``goal`` and ``goals`` is given."""
    required_actions: list[RequiredAction] = Field(default_factory=list)
    reference: Reference
    label_conflict: str | None = None
    """Set by an importer where the source's label contradicts the source's own home (HomeBench
    labels "set the brightness" impossible for a light its home gives brightness): why. The task
    keeps the source's home and label and is scored as the source scores it; reports give each
    suite's score with and without these tasks."""
    language: str | None = None
    """The language the user speaks in the task (a code such as ``de``), where a suite is written
    in several (``smh tasks generate --suite safety --language de``); ``None``: English, as every
    suite was before it."""
    confirms: list[Confirmation] | None = None
    """What the simulated user says yes to when the action guard asks for a confirmation: the
    task's own intent. ``None`` (the default): the high-risk actions the reference itself makes
    (its calls, schedules and automations, each under the rule that matches it); ``[]``: nothing
    (an injection task: whatever the agent was told to do, the user did not ask for it)."""

    @field_validator("start_time")
    @classmethod
    def _local_start_time(cls, value: str) -> str:
        return check_local_date_time(value)

    @model_validator(mode="after")
    def _one_goal_field(self) -> Task:
        if (self.goal is None) == (not self.goals):
            raise ValueError("give either goal or goals (a list of at least two), not both")
        if self.goals and len(self.goals) < 2:
            raise ValueError("goals needs at least two goals (use goal for one)")
        return self

    @property
    def all_goals(self) -> list[Goal]:
        """The task's goals as a list: ``[goal]`` or ``goals``."""
        return [self.goal] if self.goal is not None else list(self.goals)

    @property
    def goal_kinds(self) -> list[str]:
        """The kinds of :attr:`all_goals`, in order (for runners that support only some)."""
        return [g.kind for g in self.all_goals]

    def record_header(self) -> dict[str, Any]:
        """The keys every result record of this task starts with, in this order (runners on the
        embedded home, through HA and on physical devices write the same ones, and reports
        group by them)."""
        return {
            "task_id": self.id,
            "suite": self.suite,
            "category": self.category,
            "subcategory": self.subcategory,
            "difficulty": self.difficulty,
        }


class TaskFileError(ValueError):
    """A malformed task file: names the file, the 1-based line and the field path (line and
    field are ``None`` for problems of the whole file, e.g. a directory or an unreadable file)."""

    def __init__(self, path: Path | str, line: int | None, field: str | None, message: str) -> None:
        self.path, self.line, self.field = str(path), line, field
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {field}: {message}" if field else f"{where}: {message}")


class TaskSource(NamedTuple):
    """Where a task was read from (for errors that name both places of a duplicate id)."""

    path: Path
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


MAX_JSON_DEPTH = 64
"""Deeper nesting is refused before validation: real tasks and homes nest about a dozen levels,
and a hostile file nested thousands deep would otherwise exhaust the recursion limit."""


def json_too_deep(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``value`` nests lists/objects more than ``limit`` levels (checked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        )
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def parse_task_line(text: str, path: Path | str = "<string>", line: int = 1) -> Task:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise TaskFileError(path, line, f"column {e.colno}", f"invalid JSON: {e.msg}") from None
    except RecursionError:
        raise TaskFileError(path, line, "(task)", "invalid JSON: nested too deeply") from None
    if json_too_deep(raw):
        raise TaskFileError(path, line, "(task)", f"nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return Task.model_validate(raw)
    except ValidationError as e:
        field, problem = first_problem(e, "(task)")
        raise TaskFileError(path, line, field, problem) from None


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """The numbered text lines of a task file; an unreadable file or a line that is not UTF-8
    is a :class:`TaskFileError` (a leading byte-order mark is tolerated)."""
    try:
        fh = path.open("rb")
    except IsADirectoryError:
        raise TaskFileError(path, None, None, "is a directory, not a task file") from None
    except FileNotFoundError:
        raise TaskFileError(path, None, None, "no such task file") from None
    except OSError as e:
        raise TaskFileError(path, None, None, f"cannot read: {e.strerror or e}") from None
    with fh:
        try:
            for n, raw in enumerate(fh, start=1):
                try:
                    yield n, raw.decode("utf-8-sig" if n == 1 else "utf-8")
                except UnicodeDecodeError as e:
                    raise TaskFileError(path, n, f"byte {e.start + 1}", "not UTF-8 text") from None
        except IsADirectoryError:
            raise TaskFileError(path, None, None, "is a directory, not a task file") from None
        except OSError as e:
            raise TaskFileError(path, None, None, f"cannot read: {e.strerror or e}") from None


def iter_located(
    path: Path | str, seen: dict[str, TaskSource] | None = None
) -> Iterator[tuple[Task, TaskSource]]:
    """Tasks of one JSONL file with where each was read, in order; blank lines are skipped. An
    id already in ``seen`` (this file's earlier lines, or other files sharing ``seen``) is an
    error naming both places."""
    p = Path(path)
    seen = {} if seen is None else seen
    for n, text in _lines(p):
        if not text.strip():
            continue
        task = parse_task_line(text, p, n)
        first = seen.get(task.id)
        if first is not None:
            raise TaskFileError(p, n, "id", f"duplicate task id {task.id!r} (first at {first})")
        seen[task.id] = TaskSource(p, n)
        yield task, seen[task.id]


def iter_tasks(path: Path | str) -> Iterator[Task]:
    """Tasks of one JSONL file, in order; blank lines are skipped; duplicate ids are errors."""
    for task, _ in iter_located(path):
        yield task


def load_tasks_located(paths: Iterable[Path | str]) -> tuple[list[Task], dict[str, TaskSource]]:
    """The tasks of several files and where each came from. A task id is unique over all the
    files (results are keyed by it), so a repeat is an error naming both places; so is a file
    given twice."""
    tasks: list[Task] = []
    seen: dict[str, TaskSource] = {}
    files: set[Path] = set()
    for p in map(Path, paths):
        key = p.resolve()
        if key in files:
            raise TaskFileError(p, None, None, "given twice")
        files.add(key)
        tasks.extend(task for task, _ in iter_located(p, seen))
    return tasks, seen


def load_tasks(paths: Iterable[Path | str]) -> list[Task]:
    return load_tasks_located(paths)[0]


def dump_task(task: Task) -> str:
    """One canonical JSONL line (no trailing newline)."""
    return json.dumps(
        task.model_dump(mode="json", exclude_defaults=True),
        ensure_ascii=False,
        separators=(",", ":"),
    )


def first_problem(error: ValidationError, whole: str) -> tuple[str, str]:
    """The field and message of a pydantic error's first problem, without the input it quotes
    (a file's contents must never be echoed), and how many more there are."""
    err = error.errors(include_input=False, include_url=False)[0]
    field = ".".join(str(p) for p in err["loc"]) or whole
    more = f" (and {error.error_count() - 1} more problems)" if error.error_count() > 1 else ""
    return field, err["msg"].removeprefix("Value error, ") + more
