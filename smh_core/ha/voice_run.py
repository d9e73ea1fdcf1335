"""``smh bench run --backend ha --voice``: each user turn spoken by espeak-ng and sent through
the HA instance's Assist pipeline, heard by SMH's Wyoming STT server, answered by the agent.

The run owns its speech plumbing for its duration: an in-process Wyoming STT server whose
language model follows the home the SMH entry hosts (switched with the tasks' homes), an entry
of HA's ``wyoming`` integration pointing at it, and a pipeline joining it to the agent under
test (prefer-local off); all three are removed at the end.

Each task also runs once as text, so a voice failure can be attributed: :func:`failure_cause`
calls it the recognizer's fault only when the transcript was wrong and the same task passed
when the agent read the words themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import aiohttp

from smh_core.homeenv.model import Home
from smh_core.llm.local import free_port
from smh_core.task.model import Task
from smh_core.voice.espeak import VoiceSettings, find_espeak, synthesize, unavailable_reason
from smh_core.voice.recognizer import Recognizer
from smh_core.voice.server import serve
from smh_core.voice.wer import word_errors
from smh_core.voice.wyoming_stt import SttHandler, stt_info

from .voice_pipeline import AssistSocket, VoiceTurn, add_wyoming_service, create_pipeline
from .websocket import entry_entity

STT_CAUSED = "STT"
"""Error class of a voice failure caused by a wrong transcript (the task passed as text)."""


@dataclass(frozen=True)
class VoiceOptions:
    """How the simulated user speaks, and where HA reaches the STT server (``stt_host``: this
    machine's address as HA sees it; ``port`` 0 picks a free one)."""

    settings: VoiceSettings = VoiceSettings()
    stt_host: str = "127.0.0.1"
    listen: str = "127.0.0.1"
    port: int = 0


class HomeRecognizer:
    """The recognizer of the home the tasks are on now (one per home, built on first use)."""

    def __init__(self) -> None:
        self._by_home: dict[str, Recognizer] = {}
        self._current: Recognizer | None = None
        self._lock = threading.Lock()

    def use(self, key: str, home: Home) -> None:
        with self._lock:
            if key not in self._by_home:
                self._by_home[key] = Recognizer(home)
            self._current = self._by_home[key]

    def transcribe(self, pcm: bytes) -> str:
        with self._lock:
            current = self._current
        if current is None:
            raise RuntimeError("no home selected for speech recognition")
        return current.transcribe(pcm)


@dataclass
class VoiceSession:
    """The run's speech plumbing in HA (use as ``async with``)."""

    session: aiohttp.ClientSession
    url: str
    token: str
    agent_id: str
    options: VoiceOptions
    home_of: Callable[[Task], Home]
    recognizer: HomeRecognizer = field(default_factory=HomeRecognizer)
    pipeline: str | None = None
    _server: asyncio.Task | None = None
    _entry: str | None = None
    _socket: AssistSocket | None = None

    async def __aenter__(self) -> VoiceSession:
        if (reason := unavailable_reason()) is not None:
            raise ValueError(f"--voice: {reason}")
        port = self.options.port or free_port()
        ready = asyncio.Event()
        self._server = asyncio.create_task(
            serve(
                partial(SttHandler, self.recognizer, stt_info("smh-bench")),
                self.options.listen,
                port,
                ready,
            )
        )
        await ready.wait()
        try:
            self._entry = await add_wyoming_service(
                self.session, self.url, self.token, self.options.stt_host, port
            )
            self._socket = await AssistSocket(self.url, self.token, self.session).__aenter__()
            stt = await entry_entity(self._socket, self._entry, "stt")
            self.pipeline = await create_pipeline(
                self._socket, f"SMH bench voice {port}", self.agent_id, stt
            )
        except BaseException:
            await self.__aexit__()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._socket is not None:
            if self.pipeline is not None:
                with contextlib.suppress(Exception):
                    await self._socket.call(
                        {"type": "assist_pipeline/pipeline/delete", "pipeline_id": self.pipeline}
                    )
            await self._socket.__aexit__()
        if self._entry is not None:
            with contextlib.suppress(aiohttp.ClientError):
                async with self.session.delete(
                    f"{self.url}/api/config/config_entries/entry/{self._entry}",
                    headers={"Authorization": f"Bearer {self.token}"},
                ):
                    pass
        if self._server is not None:
            self._server.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._server

    async def use_home(self, task: Task) -> None:
        """Recognize with the language model of ``task``'s home from now on."""
        await asyncio.get_running_loop().run_in_executor(
            None, self.recognizer.use, task.home.key(), self.home_of(task)
        )

    async def speak(
        self, text: str, conversation_id: str | None, timeout: float | None
    ) -> VoiceTurn:
        """``text`` spoken into the pipeline (deterministic audio: same text, same settings,
        same bytes)."""
        assert self._socket is not None
        espeak = find_espeak()
        pcm = await asyncio.get_running_loop().run_in_executor(
            None, synthesize, text, self.options.settings, espeak
        )
        return await self._socket.run_audio(
            pcm, self.pipeline, conversation_id, timeout=timeout or 60.0
        )


def voice_record(said: list[str], turns: list[VoiceTurn]) -> dict[str, Any]:
    """The voice part of a task's record: per turn what was said and heard, and the task's
    word errors over all its turns."""
    heard = [t.transcript or "" for t in turns]
    counts = [word_errors(s, h) for s, h in zip(said, heard, strict=False)]
    errors, words = sum(c.errors for c in counts), sum(c.reference_words for c in counts)
    return {
        "said": said[: len(turns)],
        "heard": heard,
        "word_errors": errors,
        "reference_words": words,
        "wer": round(errors / words, 4) if words else 0.0,
        "pipeline_errors": [t.error for t in turns if t.error],
    }


def failure_cause(voice_passed: bool, text_passed: bool, word_errors_: int) -> str | None:
    """Why a voice task failed: ``"stt"`` when the transcript was wrong and the task passed as
    text, ``"agent"`` otherwise (it failed on the exact words too, or was heard right);
    ``None`` when it passed."""
    if voice_passed:
        return None
    return "stt" if text_passed and word_errors_ > 0 else "agent"
