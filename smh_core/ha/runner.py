"""Run benchmark tasks inside a Home Assistant instance, through its public HTTP API.

Per task: ``smh.load_task`` puts the entry's home in the task's initial state, each user turn
goes to a conversation agent through ``/api/conversation/process`` (HA's built-in Assist,
or any agent: OpenAI, Ollama, SMH's own), and ``smh.verify`` scores the result with the same
verifier the embedded runner uses. Results go to the same append-only log, so ``smh bench
report`` and resuming work as for embedded runs.

One SMH entry simulates one home, so tasks are grouped by home (:func:`ha_home_key`) and the
entry is reconfigured through HA's options-flow REST API between groups (a reload per home,
not per task); at the end the entry gets its original home back. A group whose home HA cannot
host (say its file is not in HA's config dir) is skipped and counted with HA's reason, and
goals that need simulated time or a memory bank are judged by the embedded runner only
(skipped here and counted).

File homes are matched by file name: a task's ``file: homes/sage-0.json`` runs in an entry
whose file is ``<home_dir>/sage-0.json`` under HA's config dir (``home_dir`` defaults to
``smh_homes``; ``scripts/ha_instance.py`` copies ``tasks/homes/*.json`` there). HA's REST API
cannot upload files, so a remote instance needs the files copied there by hand.

With ``voice`` (``smh bench run --voice``) every task runs typed and then spoken through an
Assist pipeline; see :mod:`.voice_run`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from smh_core.bench.asking import asks, scripted_user, unreported
from smh_core.bench.report import SKIPPED
from smh_core.bench.results import ResultsLog
from smh_core.homeenv.model import Home
from smh_core.progress import tqdm
from smh_core.task.home import entry_options
from smh_core.task.model import HomeRef, Task

from .voice_pipeline import VoiceTurn
from .voice_run import STT_CAUSED, VoiceOptions, VoiceSession, failure_cause, voice_record

_LOGGER = logging.getLogger(__name__)

HA_GOALS = ("execute", "query", "clarify", "infeasible")
NO_TRACE = "needs the agent's tool trace (only SMH's own agent reports one)"
"""Why a task with required actions is skipped for an agent that reports no tool calls."""
"""Goal kinds HA-backed runs judge (timed and automation goals need the simulator's futures)."""

CLIMATE_SKIP = "per-task climate (embedded runner only)"
"""Why a task with ``climate`` is skipped: HA hosts one home in one weather, and a task's room
climates and outdoor weather are applied to a copy of the home by the embedded runner."""

DEFAULT_HOME_DIR = "smh_homes"
"""Where, under HA's config dir, the runner expects task home files (by file name)."""

TURN_TIMEOUT = 30.0
"""Seconds an agent gets per user turn. Assist answers in ~0.1 s, but HA's sentence matcher
takes minutes on some long time-phrased SimuHome requests ("In 12 minutes, at 11:52 AM, ...");
such a task is recorded as failed (no answer), with ``timed_out`` set."""

READY_TIMEOUT = 180.0
"""Seconds to wait for the entry to come back with a new home (a complex home is ~1 s)."""

_STUCK_STATES = ("loaded", "setup_error", "setup_retry", "not_loaded", "failed_unload")
_STUCK_AFTER = 5.0  # seconds unchanged in one of those, without the home, before a reload


def ha_home_key(home: HomeRef) -> str:
    """The key under which an SMH entry hosts ``home`` (:meth:`HomeRef.ha_key`)."""
    return home.ha_key()


def entry_home_options(home: HomeRef, home_dir: str = DEFAULT_HOME_DIR) -> dict[str, Any]:
    """The options-flow fields that make an SMH entry host ``home`` (:func:`entry_options`)."""
    return entry_options(home, home_dir)


def form_defaults(schema: list[dict[str, Any]]) -> dict[str, Any]:
    """A flow form's current values: the defaults HA serialized into its ``data_schema``
    (the SMH options form defaults to the entry's options, sections included)."""
    out: dict[str, Any] = {}
    for item in schema:
        if "default" in item:
            out[item["name"]] = item["default"]
        elif item.get("type") == "expandable":
            out[item["name"]] = form_defaults(item.get("schema", []))
    return out


class HaError(RuntimeError):
    """An HA API call failed; the message carries HA's own explanation."""

    def __init__(self, path: str, status: int, text: str) -> None:
        super().__init__(f"{path}: HTTP {status}: {text}")
        self.status, self.text = status, text


class TraceUnreadable(RuntimeError):
    """HA refused ``smh.agent_trace`` after SMH's agent answered: the task cannot be scored
    (its tool calls and questions are unknown), so it is skipped, not failed."""

    def __init__(self, err: HaError) -> None:
        super().__init__(
            f"smh.agent_trace failed (HTTP {err.status}): the agent's tool calls could not be "
            "read, so the task is not scored"
        )


class HomeUnavailable(RuntimeError):
    """HA cannot host a home (the options flow refused it, or the entry did not come back)."""


class ConversationFailed(RuntimeError):
    """Sending a turn or a scripted reply to HA failed (an HTTP error, a dropped connection):
    the transport's failure, never the agent's, so the task is recorded as not scored
    (``kind`` as :class:`~smh_core.llm.errors.InfraError` names it)."""

    def __init__(self, what: str, err: BaseException) -> None:
        super().__init__(f"{what} failed: {err}")
        self.status = err.status if isinstance(err, HaError) else None
        self.kind = (
            "connection"
            if self.status is None
            else "server_error"
            if self.status >= 500
            else "protocol"
        )


@dataclass(frozen=True)
class AssistReply:
    """One answer of ``/api/conversation/process``: the speech, the conversation, and HA's own
    account of the turn (``response_type``: ``action_done``, ``query_answer`` or ``error``;
    ``error_code`` for an error: ``no_intent_match``, ``no_valid_targets``, ...)."""

    speech: str
    conversation_id: str | None
    response_type: str | None = None
    error_code: str | None = None
    continue_conversation: bool | None = None
    """HA's own "the agent asked, the user is expected to answer" (``ConversationResult``'s
    ``continue_conversation``, in HA 2026.2 to 2026.11 set when the reply ends with ``?``,
    ``？`` or ``;``, or by the agent); ``None`` when the answer does not carry it."""

    def asks(self) -> bool:
        """Whether the agent asked the user something (:func:`smh_core.bench.asking.asks`): HA's
        flag when it is set, else the reply's last mark, as the embedded runner reads a reply."""
        return asks(self.continue_conversation, self.speech)


@dataclass
class HaClient:
    url: str
    token: str
    session: aiohttp.ClientSession

    @property
    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def _post(self, path: str, body: dict[str, Any], timeout: float | None = None) -> Any:
        limit = {"timeout": aiohttp.ClientTimeout(total=timeout)} if timeout else {}
        async with self.session.post(
            f"{self.url}{path}", json=body, headers=self._headers, **limit
        ) as r:
            if r.status >= 400:
                raise HaError(path, r.status, await r.text())
            return await r.json()

    async def _get(self, path: str) -> Any:
        async with self.session.get(f"{self.url}{path}", headers=self._headers) as r:
            if r.status >= 400:
                raise HaError(path, r.status, await r.text())
            return await r.json()

    async def _delete(self, path: str) -> None:
        async with self.session.delete(f"{self.url}{path}", headers=self._headers) as r:
            if r.status >= 400 and r.status != 404:
                raise HaError(path, r.status, await r.text())

    async def service(self, domain: str, name: str, data: dict[str, Any]) -> dict[str, Any]:
        """Call a service and return its response."""
        out = await self._post(f"/api/services/{domain}/{name}?return_response", data)
        return out.get("service_response", {}) if isinstance(out, dict) else {}

    async def converse(
        self,
        text: str,
        agent_id: str,
        conversation_id: str | None,
        timeout: float | None = None,
        language: str = "en",
    ) -> tuple[str, str | None]:
        """Send one user turn; returns the agent's speech and the conversation id. Raises
        ``TimeoutError`` after ``timeout`` s (HA then cancels the request: no late action)."""
        reply = await self.converse_reply(text, agent_id, conversation_id, timeout, language)
        return reply.speech, reply.conversation_id

    async def converse_reply(
        self,
        text: str,
        agent_id: str,
        conversation_id: str | None,
        timeout: float | None = None,
        language: str = "en",
    ) -> AssistReply:
        """One user turn in ``language`` (HA's default agent matches the sentence with that
        language's templates, whatever HA's own language), with what HA said it did: its
        response type and error code tell "no sentence matched" from "matched, acted on the
        wrong thing" when a task fails."""
        body: dict[str, Any] = {"text": text, "language": language, "agent_id": agent_id}
        if conversation_id:
            body["conversation_id"] = conversation_id
        out = await self._post("/api/conversation/process", body, timeout)
        response = out.get("response", {}) if isinstance(out, dict) else {}
        data = response.get("data")
        data = data if isinstance(data, dict) else {}
        flag = out.get("continue_conversation") if isinstance(out, dict) else None
        return AssistReply(
            speech=response.get("speech", {}).get("plain", {}).get("speech", ""),
            conversation_id=out.get("conversation_id") if isinstance(out, dict) else None,
            response_type=response.get("response_type"),
            error_code=data.get("code"),
            continue_conversation=flag if isinstance(flag, bool) else None,
        )

    async def agent_trace(
        self, conversation_id: str, entry_id: str | None = None
    ) -> dict[str, Any]:
        """What SMH's own agent did in a conversation (``smh.agent_trace``): turns, usage, tool
        calls, questions, and which conversation entities are SMH's. Raises :class:`HaError`
        when HA refuses: it is asked only about an agent :meth:`traced_agents` listed, so a
        refusal is HA's or SMH's failure, never an empty trace to score the model on."""
        data: dict[str, Any] = {"conversation_id": conversation_id}
        if entry_id:
            data["config_entry_id"] = entry_id
        return await self.service("smh", "agent_trace", data)

    async def version(self) -> str | None:
        """Home Assistant's version (``/api/config``), for the run's manifest."""
        try:
            config = await self._get("/api/config")
        except HaError:
            return None
        return (
            str(config.get("version"))
            if isinstance(config, dict) and config.get("version")
            else None
        )

    async def traced_agents(self, entry_id: str | None = None) -> set[str]:
        """The conversation agents whose tool trace HA can report (SMH's own); none when HA has
        no SMH integration (a physical home without it) or no loaded entry ``entry_id``."""
        try:
            return set((await self.agent_trace("", entry_id)).get("agent_entity_ids") or [])
        except HaError:
            return set()

    # --- the SMH entry: which one, which home it hosts, switching homes ---

    async def smh_entries(self) -> list[dict[str, Any]]:
        """Every SMH config entry (entry_id, title, state, reason ...)."""
        return await self._get("/api/config/config_entries/entry?domain=smh")

    async def smh_entry_id(self) -> str:
        """The only SMH entry; with several, the caller must say which."""
        entries = await self.smh_entries()
        if len(entries) != 1:
            raise ValueError(
                f"Home Assistant has {len(entries)} SMH entries "
                f"({', '.join(e['entry_id'] for e in entries) or 'none'}); "
                "add one or pass --config-entry"
            )
        return entries[0]["entry_id"]

    async def hosted_key(self, entry_id: str) -> str | None:
        """The key of the home the entry hosts now (``None`` while it is not loaded)."""
        try:
            return (await self.service("smh", "snapshot", {"config_entry_id": entry_id})).get(
                "home_key"
            )
        except HaError:
            return None

    async def settled_key(self, entry_id: str, timeout: float = READY_TIMEOUT) -> str | None:
        """The entry's home once it has finished setting up (at HA start-up the runner must not
        change options under a setup in progress); ``None`` if it failed or did not settle."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            entry = next((e for e in await self.smh_entries() if e["entry_id"] == entry_id), None)
            if entry is None:
                raise ValueError(f"no SMH entry {entry_id} in Home Assistant")
            if entry["state"] == "loaded" and (key := await self.hosted_key(entry_id)) is not None:
                return key
            if entry["state"] in ("setup_error", "setup_retry", "migration_error", "failed_unload"):
                return None
            await asyncio.sleep(0.1)
        return None

    async def reconfigure(self, entry_id: str, fields: dict[str, Any]) -> dict[str, Any]:
        """Submit the entry's options flow with its current options updated by ``fields``;
        returns the options it had before. Raises :class:`HomeUnavailable` with the form's
        errors when HA refuses (a missing file, a bad seed)."""
        form = await self._post("/api/config/config_entries/options/flow", {"handler": entry_id})
        flow_id = form["flow_id"]
        before = form_defaults(form.get("data_schema", []))
        try:
            result = await self._post(
                f"/api/config/config_entries/options/flow/{flow_id}", {**before, **fields}
            )
        except HaError as err:
            await self._delete(f"/api/config/config_entries/options/flow/{flow_id}")
            raise HomeUnavailable(f"options flow refused {fields}: {err}") from err
        if result.get("type") != "create_entry":
            await self._delete(f"/api/config/config_entries/options/flow/{flow_id}")
            errors = ", ".join(f"{k}: {v}" for k, v in (result.get("errors") or {}).items())
            raise HomeUnavailable(f"HA refused {fields}: {errors or result.get('type')}")
        return before

    async def wait_for_home(self, entry_id: str, key: str, timeout: float = READY_TIMEOUT) -> None:
        """Wait until the entry is loaded with the home ``key`` (it reloads after an options
        change). An entry that sits unloaded, failed, or loaded with another home for a while
        (an options change that landed while it was still setting up is not acted on) is
        reloaded once, then given up on."""
        deadline = time.monotonic() + timeout
        seen: tuple[str, str | None] | None = None
        since, reloaded = time.monotonic(), False
        while True:
            entry = next((e for e in await self.smh_entries() if e["entry_id"] == entry_id), None)
            if entry is None:
                raise HomeUnavailable(f"the SMH entry {entry_id} is gone")
            hosted = await self.hosted_key(entry_id) if entry["state"] == "loaded" else None
            if hosted == key:
                return
            if (entry["state"], hosted) != seen:
                seen, since = (entry["state"], hosted), time.monotonic()
            elif entry["state"] in _STUCK_STATES and time.monotonic() - since > _STUCK_AFTER:
                if reloaded:
                    raise HomeUnavailable(
                        f"the SMH entry is {entry['state']} (hosting {hosted}): "
                        f"{entry.get('reason') or 'see the HA log'}"
                    )
                await self._post(f"/api/config/config_entries/entry/{entry_id}/reload", {})
                seen, since, reloaded = None, time.monotonic(), True
            if time.monotonic() > deadline:
                raise HomeUnavailable(
                    f"the SMH entry did not load home {key} within {timeout:.0f} s "
                    f"(state {entry['state']}, hosting {hosted})"
                )
            await asyncio.sleep(0.1)

    async def reload_entry(self, entry_id: str) -> None:
        """Reload the entry (its home built anew: areas, devices, entities)."""
        await self._post(f"/api/config/config_entries/entry/{entry_id}/reload", {})

    async def switch_home(
        self,
        entry_id: str,
        home: HomeRef,
        home_dir: str = DEFAULT_HOME_DIR,
        timeout: float = READY_TIMEOUT,
    ) -> dict[str, Any] | None:
        """Make the entry host ``home``; returns the options it had before, or ``None`` when it
        already hosted it (nothing changed)."""
        key = ha_home_key(home)
        if await self.hosted_key(entry_id) == key:
            return None
        before = await self.reconfigure(entry_id, entry_home_options(home, home_dir))
        await self.wait_for_home(entry_id, key, timeout)
        return before


@dataclass
class HaRun:
    log: ResultsLog
    skipped: dict[str, int] = field(default_factory=dict)
    """Reason -> how many tasks were not run for it."""
    skipped_homes: dict[str, str] = field(default_factory=dict)
    """Home key -> why HA could not host it (its tasks are counted in ``skipped``)."""
    homes: int = 0
    """Homes whose tasks ran."""
    ran: int = 0
    """Tasks run and recorded by this call (not those a resumed log already had)."""
    timeouts: int = 0
    """Of those, tasks whose agent did not answer a turn within the turn timeout."""
    switch_seconds: float = 0.0
    """Time spent reconfiguring the entry between homes."""
    task_seconds: float = 0.0
    """Time spent on tasks (load, conversation, verify, snapshot)."""

    def skip(self, reason: str, n: int = 1) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + n


def write_skipped(out_dir: Path, skipped: dict[str, int]) -> None:
    """The reasons tasks were not run, for the report (``skipped.json``)."""
    (out_dir / SKIPPED).write_text(
        json.dumps(skipped, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )


SKIPPED_TASKS = "skipped_tasks.json"


def write_skipped_tasks(out_dir: Path, skipped: dict[str, str]) -> None:
    """Why each task was not run (task id -> reason, ``skipped_tasks.json``): what a twin and
    real comparison names for a task the real home did not run."""
    (out_dir / SKIPPED_TASKS).write_text(
        json.dumps(skipped, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


def group_by_home(tasks: Sequence[Task]) -> dict[str, list[Task]]:
    """Tasks per :func:`ha_home_key`, homes in order of first appearance, tasks in file order."""
    groups: dict[str, list[Task]] = {}
    for task in tasks:
        groups.setdefault(ha_home_key(task.home), []).append(task)
    return groups


async def run_via_ha(
    tasks: Sequence[Task],
    url: str,
    token: str,
    agent_id: str,
    out_dir: Path,
    config_entry_id: str | None = None,
    progress: bool = True,
    home_dir: str = DEFAULT_HOME_DIR,
    ready_timeout: float = READY_TIMEOUT,
    turn_timeout: float | None = TURN_TIMEOUT,
    voice: VoiceOptions | None = None,
    home_of: Callable[[Task], Home] | None = None,
    language: str = "en",
) -> HaRun:
    """Run ``tasks`` (every home they need, one reload per home) and append their records to
    ``out_dir/results.jsonl``; tasks already there are not run again. With ``voice`` (and
    ``home_of``, the task's home model, for the recognizer's vocabulary) every task is also
    spoken through an Assist pipeline (:mod:`.voice_run`). ``language``: the language the
    typed turns are sent in (``/api/conversation/process``), the tasks' own."""
    out_dir.mkdir(parents=True, exist_ok=True)
    log = ResultsLog(out_dir / "results.jsonl")
    run = HaRun(log)
    async with aiohttp.ClientSession() as session, contextlib.AsyncExitStack() as stack:
        client = HaClient(url.rstrip("/"), token, session)
        entry_id = config_entry_id or await client.smh_entry_id()
        traced = agent_id in await client.traced_agents(entry_id)
        todo: list[Task] = []
        for task in tasks:
            if log.done(task.id):
                continue
            kind = next((k for k in task.goal_kinds if k not in HA_GOALS), None)
            if kind is not None:
                run.skip(f"{kind} goal (embedded runner only)")
            elif task.climate is not None:
                run.skip(CLIMATE_SKIP)
            elif task.required_actions and not traced:
                run.skip(NO_TRACE)
            else:
                todo.append(task)
        original_key = await client.settled_key(entry_id, ready_timeout)
        original: dict[str, Any] | None = None
        # the user's home as it is now: loading tasks replaces its state, so it is put back after
        saved = (
            (await client.service("smh", "snapshot", {"config_entry_id": entry_id})) if todo else {}
        )
        speech = None
        if voice is not None and todo:
            if home_of is None:
                raise ValueError("voice mode needs the tasks' home models (home_of)")
            speech = await stack.enter_async_context(
                VoiceSession(session, url.rstrip("/"), token, agent_id, voice, home_of)
            )
        try:
            with tqdm(
                total=len(todo), disable=not progress, unit="task", desc=f"ha:{agent_id}"
            ) as bar:
                for key, group in group_by_home(todo).items():
                    bar.set_postfix_str(key)
                    started = time.monotonic()
                    try:
                        before = await client.switch_home(
                            entry_id, group[0].home, home_dir, ready_timeout
                        )
                    except HomeUnavailable as err:
                        run.skipped_homes[key] = str(err)
                        run.skip("home HA cannot host", len(group))
                        bar.update(len(group))
                        continue
                    finally:
                        run.switch_seconds += time.monotonic() - started
                    if original is None and before is not None:
                        original = before
                    run.homes += 1
                    started = time.monotonic()
                    if speech is not None:
                        await speech.use_home(group[0])
                    for task in group:
                        await _run_task(
                            client,
                            entry_id,
                            task,
                            agent_id,
                            run,
                            turn_timeout,
                            traced,
                            speech,
                            language,
                        )
                        bar.update(1)
                    run.task_seconds += time.monotonic() - started
        finally:
            if original is not None:
                await restore_entry(client, entry_id, original, original_key, ready_timeout)
            if run.homes and saved.get("devices"):
                await restore_device_states(client, entry_id, saved)
    write_skipped(out_dir, run.skipped)
    return run


@dataclass
class _Attempt:
    """One pass of a task through the agent: what it said, what HA verified, the final state."""

    response: str = ""
    speeches: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    """What the user said, in order: the task's turns and the scripted replies sent."""
    questions: list[str] = field(default_factory=list)
    """The agent's replies that asked (:meth:`AssistReply.asks`)."""
    replies: list[str] = field(default_factory=list)
    """The scripted replies sent to those questions."""
    asked: list[str] = field(default_factory=list)
    """Everything the agent asked, as it is verified (:func:`questions_asked`)."""
    asked_state: dict[str, Any] | None = None
    """The home's devices when the agent first asked (``smh.snapshot``): what it changed before
    asking fails a clarify goal."""
    verdict: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    trace: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    timed_out: bool = False
    heard: list[VoiceTurn] = field(default_factory=list)
    assist: dict[str, str] = field(default_factory=dict)
    """HA's account of the last typed turn: ``response_type`` and ``error_code`` (when HA gave
    them), so a failure can be put down to "no sentence matched" or "acted, but wrongly"."""


async def _say(
    client: HaClient,
    out: _Attempt,
    text: str,
    agent_id: str,
    conversation: str | None,
    turn_timeout: float | None,
    voice: VoiceSession | None,
    language: str,
) -> tuple[str | None, bool]:
    """One thing the user says (a turn or a scripted reply), typed or spoken, into ``out``;
    returns the conversation id and whether the agent's reply asks. Raises ``TimeoutError``
    when the agent does not answer in time, :class:`ConversationFailed` when HA cannot be
    talked to."""
    out.said.append(text)
    if voice is None:
        try:
            reply = await client.converse_reply(
                text, agent_id, conversation, turn_timeout, language
            )
        except (HaError, aiohttp.ClientError) as err:
            raise ConversationFailed("/api/conversation/process", err) from err
        out.response, conversation = reply.speech, reply.conversation_id
        out.assist = {
            k: v
            for k, v in (("response_type", reply.response_type), ("error_code", reply.error_code))
            if v
        }
        return conversation, reply.asks()
    heard = await voice.speak(text, conversation, turn_timeout)
    out.heard.append(heard)
    out.response, conversation = heard.speech, heard.conversation_id or conversation
    if heard.error and heard.error.get("code") == "timeout":
        raise TimeoutError
    return conversation, asks(None, heard.speech)


async def _attempt(
    client: HaClient,
    entry_id: str,
    task: Task,
    agent_id: str,
    turn_timeout: float | None,
    traced: bool,
    voice: VoiceSession | None = None,
    language: str = "en",
) -> _Attempt:
    """Load the task, send its turns (typed, or spoken into ``voice``'s pipeline), verify.
    When the agent's reply asks (:meth:`AssistReply.asks`, the rule of
    :mod:`smh_core.bench.asking`), the task's next scripted reply is sent in the same
    conversation, as the embedded runner's simulated user answers (replies in order, whichever
    turn asked); the home's state at the first question goes to ``smh.verify``. Raises
    :class:`HaError` when ``smh.load_task`` refuses the task, :class:`ConversationFailed` when a
    turn or a reply could not be sent."""
    entry = {"config_entry_id": entry_id}
    await client.service("smh", "load_task", {**entry, "task": task.model_dump(mode="json")})
    out, conversation = _Attempt(), None
    user = scripted_user(task)
    started = time.perf_counter()
    try:
        for turn in task.turns:
            text: str | None = turn.text
            while text is not None:
                conversation, asked = await _say(
                    client, out, text, agent_id, conversation, turn_timeout, voice, language
                )
                out.speeches.append(out.response)
                text = None
                if not asked:
                    continue
                waiting = (
                    await _awaiting(client, conversation, entry_id)
                    if traced and conversation
                    else []
                )
                if waiting:  # the action guard's question, not the agent's: as on the simulator
                    text = confirmation_answer(language, waiting)
                    out.replies.append(text)
                    continue
                out.questions.append(out.response)
                if out.asked_state is None:
                    out.asked_state = await _devices(client, entry)
                text = user(out.response)
                if text is not None:
                    out.replies.append(text)
    except TimeoutError:
        out.response, out.timed_out = "", True
    out.seconds = time.perf_counter() - started
    if traced and conversation:
        try:
            out.trace = await client.agent_trace(conversation, entry_id)
        except HaError as err:
            raise TraceUnreadable(err) from err
    out.asked = questions_asked(out, traced)
    verify_data: dict[str, Any] = {**entry, "response": out.response, "questions": out.asked}
    if out.asked_state is not None:
        verify_data["asked_state"] = out.asked_state
    if traced:
        verify_data["tool_calls"] = out.trace.get("tool_calls", [])
    out.verdict = await client.service("smh", "verify", verify_data)
    out.state = await client.service("smh", "snapshot", entry)
    return out


async def _awaiting(client: HaClient, conversation: str, entry_id: str) -> list[dict[str, Any]]:
    """The high-risk calls SMH's agent's last reply asks the user to confirm (the action
    guard's question), each with whether the task's user wants it; empty when it asked
    something else."""
    try:
        trace = await client.agent_trace(conversation, entry_id)
    except HaError as err:
        raise TraceUnreadable(err) from err
    waiting = trace.get("awaiting")
    return [w for w in waiting if isinstance(w, dict)] if isinstance(waiting, list) else []


def confirmation_answer(language: str | None, waiting: list[dict[str, Any]]) -> str:
    """The simulated user's answer to the action guard's question inside HA, as on the simulator
    (:func:`smh_core.bench.consent_user.simulated_confirmation`): yes when the task's user wants every
    call it asks about, else no, in the conversation's ``language`` (the one the guard asked in
    and reads the answer in). Not a scripted clarification reply: those answer the agent's own
    questions."""
    from smh_core.agent.guard_language import language_code, load_wording

    wording = load_wording(language_code(language))
    wanted = all(w.get("intended") is True for w in waiting)
    return wording.answer_yes if wanted else wording.answer_no


def questions_asked(out: _Attempt, traced: bool) -> list[str]:
    """What the agent asked, as the embedded runner counts it: another agent's replies that
    asked; SMH's agent's own questions (``ask_user``, DR's clarify mode) and, for its EIA, a
    reply that asked in words which it did not report (a final answer that is a question). DR's
    text is not read for a question: its mode says whether it asks. The action guard's
    confirmation questions are not the agent's: on the simulator the simulated user answers
    them inside the call, and here the runner does (:func:`confirmation_answer`)."""
    if not traced:
        return out.questions
    from smh_core.agent.guard_language import question_endings

    guards = question_endings()
    reported = [q for q in out.trace.get("questions") or [] if not str(q).endswith(guards)]
    turns = out.trace.get("turns") or []
    dr = bool(turns) and all((t.get("protocol") or {}).get("tools") == "dr" for t in turns)
    return reported if dr else [*reported, *unreported(reported, out.questions)]


async def _devices(client: HaClient, entry: dict[str, Any]) -> dict[str, Any]:
    """The hosted home's device states now; a failure to read them is HA's, never the agent's."""
    try:
        snapshot = await client.service("smh", "snapshot", entry)
    except (HaError, aiohttp.ClientError) as err:
        raise ConversationFailed("smh.snapshot (when the agent asked)", err) from err
    return dict(snapshot.get("devices") or {})


async def _run_task(
    client: HaClient,
    entry_id: str,
    task: Task,
    agent_id: str,
    run: HaRun,
    turn_timeout: float | None,
    traced: bool = False,
    voice: VoiceSession | None = None,
    language: str = "en",
) -> None:
    """One task through the agent. With ``traced`` (SMH's own agent) its usage, tool calls and
    questions come back through ``smh.agent_trace`` and are verified as on the simulator; for
    another agent only its replies are known, so tasks that need a tool trace are skipped.
    With ``voice`` the task runs twice, typed then spoken; the spoken run is the one scored,
    and a spoken failure is put down to speech recognition (error class ``STT``) only when the
    transcript was wrong and the typed run passed."""
    try:
        text = await _attempt(
            client, entry_id, task, agent_id, turn_timeout, traced, language=language
        )
        spoken = (
            await _attempt(client, entry_id, task, agent_id, turn_timeout, traced, voice)
            if voice
            else None
        )
    except TraceUnreadable as err:
        run.skip(str(err))
        return
    except ConversationFailed as err:  # not scored; a resumed run tries the task again
        run.log.append(_infra_record(task, agent_id, err))
        run.ran += 1
        return
    except HaError as err:
        # HA's REST API hides the service's message (HTTP 500): see the HA log for it
        run.skip(f"smh.load_task failed (HTTP {err.status}; see the HA log)")
        return
    scored = spoken or text
    if scored.timed_out:
        run.timeouts += 1
    verdict = {
        k: scored.verdict.get(k)
        for k in ("passed", "reason", "error_class", "decided_by", "details")
    }
    record: dict[str, Any] = {
        **task.record_header(),
        "agent": f"ha:{agent_id}",
        "backend": "ha",
        "passed": bool(scored.verdict.get("passed")),
        "verdict": verdict,
        "response": scored.response,
        "speeches": scored.speeches,
        "final_state": scored.state.get("devices", {}),
        "seconds": round(scored.seconds, 4),
        "usage": scored.trace.get("usage", {}),
        **({"timed_out": True} if scored.timed_out else {}),
        **({"assist": scored.assist} if scored.assist else {}),
    }
    if scored.verdict.get("claims"):  # said versus did, checked inside HA by smh.verify
        record["claims"] = scored.verdict["claims"]
        record["false_claims"] = int(scored.verdict.get("false_claims") or 0)
    if spoken is not None:
        record["voice"] = voice_record(spoken.said, spoken.heard)
        text_passed = bool(text.verdict.get("passed"))
        cause = failure_cause(record["passed"], text_passed, record["voice"]["word_errors"])
        record["voice"] |= {
            "text_passed": text_passed,
            "text_error_class": text.verdict.get("error_class"),
            "failure_cause": cause,
        }
        if cause == "stt":
            verdict["agent_error_class"], verdict["error_class"] = (
                verdict["error_class"],
                STT_CAUSED,
            )
    if traced:
        record["outcome"] = {
            "response": scored.response,
            "questions": scored.asked,
            "tool_calls": scored.trace.get("tool_calls", []),
        }
    elif scored.asked:
        record["outcome"] = {"response": scored.response, "questions": scored.asked}
    if scored.replies:
        record["replies_sent"] = scored.replies
    run.log.append(record)
    run.ran += 1


def _infra_record(task: Task, agent_id: str, err: ConversationFailed) -> dict[str, Any]:
    """The record of a task HA could not be talked to about: not scored (``infra``), as the
    embedded runner records an endpoint's failure."""
    return {
        **task.record_header(),
        "agent": f"ha:{agent_id}",
        "backend": "ha",
        "passed": False,
        "infra": {"kind": err.kind, "message": str(err)[:500], "status": err.status},
        "verdict": {
            "passed": False,
            "reason": f"not scored: {err.kind}: {str(err)[:500]}",
            "error_class": "INFRA",
            "decided_by": "harness",
            "details": {},
        },
    }


async def restore_device_states(client: HaClient, entry_id: str, saved: dict[str, Any]) -> None:
    """Put the devices of the user's home back as they were before the run (logged, not raised,
    like :func:`restore_entry`). Only when the entry hosts that home again."""
    try:
        if await client.hosted_key(entry_id) != saved.get("home_key"):
            _LOGGER.warning(
                "the SMH entry does not host %s again; its device states were not put back",
                saved.get("home_key"),
            )
            return
        await client.service(
            "smh", "restore_state", {"config_entry_id": entry_id, "devices": saved["devices"]}
        )
    except (HaError, aiohttp.ClientError, TimeoutError) as err:
        _LOGGER.warning("could not put the SMH home's device states back: %s", err)


async def restore_entry(
    client: HaClient, entry_id: str, original: dict[str, Any], key: str | None, timeout: float
) -> None:
    """Give the entry its original options (home included) back, and wait for that home. A
    failure is logged, not raised: it must not hide the run's own error."""
    try:
        await client.reconfigure(entry_id, original)
        if key is not None:
            await client.wait_for_home(entry_id, key, timeout)
    except (HaError, HomeUnavailable, aiohttp.ClientError, TimeoutError) as err:
        _LOGGER.warning("could not give the SMH entry its original home back: %s", err)
