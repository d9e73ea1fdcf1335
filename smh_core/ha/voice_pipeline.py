"""Speech through a Home Assistant's Assist pipeline, over HA's public websocket API.

``assist_pipeline/run`` from the ``stt`` stage: HA answers with a ``run-start`` event naming a
binary handler id; the audio (16 kHz 16-bit mono PCM) goes up as binary messages prefixed with
that id, an id-only message ends it; HA runs its STT engine, the pipeline's conversation agent
and (when the pipeline has one and ``end_stage`` asks) TTS, and reports each stage as an event.
The pipeline's VAD is switched off: the caller sends exactly one utterance, and its end is the
end of the audio, so no timing decision of the segmenter changes what is heard.

Also here: adding a Wyoming speech server to HA through its own ``wyoming`` integration's config
flow, and creating the pipeline that joins it to a conversation agent.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from .websocket import HaSocket

CHUNK_BYTES = 3200
"""Audio per binary message: 0.1 s at 16 kHz, 16-bit (what a satellite streams)."""


class PipelineFailed(RuntimeError):
    """HA refused to run the pipeline (an unknown pipeline, a missing engine)."""


@dataclass
class VoiceTurn:
    """What one spoken turn produced: HA's transcript (``None`` when STT produced nothing), the
    agent's speech, the conversation id, the pipeline's error (code, message) if it stopped
    early, and every event for debugging."""

    transcript: str | None
    speech: str
    conversation_id: str | None
    error: dict[str, Any] | None = None
    tts_url: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)


class AssistSocket(HaSocket):
    """One authenticated websocket to HA (use as ``async with``) that also runs pipelines."""

    failure = PipelineFailed

    def __init__(self, url: str, token: str, session: aiohttp.ClientSession) -> None:
        super().__init__(url, token, session)
        self._sending: set[asyncio.Task] = (
            set()
        )  # audio uploads in flight (kept from garbage collection)

    async def run_audio(
        self,
        pcm: bytes,
        pipeline: str | None = None,
        conversation_id: str | None = None,
        end_stage: str = "intent",
        timeout: float = 60.0,
    ) -> VoiceTurn:
        """Speak ``pcm`` into ``pipeline`` (HA's preferred one when ``None``)."""
        assert self.ws is not None
        msg_id = next(self._ids)
        body: dict[str, Any] = {
            "id": msg_id,
            "type": "assist_pipeline/run",
            "start_stage": "stt",
            "end_stage": end_stage,
            "input": {"sample_rate": 16000, "no_vad": True},
            "timeout": timeout,
        }
        if pipeline:
            body["pipeline"] = pipeline
        if conversation_id:
            body["conversation_id"] = conversation_id
        await self.ws.send_json(body)
        turn = VoiceTurn(None, "", conversation_id)
        async with asyncio.timeout(timeout + 10):
            while True:
                msg = await self.ws.receive_json()
                if msg.get("id") != msg_id:
                    continue
                if msg["type"] == "result":
                    if not msg.get("success"):
                        raise PipelineFailed(f"assist_pipeline/run: {msg.get('error')}")
                    continue
                event = msg["event"]
                turn.events.append(event)
                if self._take(event, turn, pcm):
                    return turn

    async def _send_audio(self, handler: int, pcm: bytes) -> None:
        assert self.ws is not None
        prefix = bytes([handler])
        for i in range(0, len(pcm), CHUNK_BYTES):
            await self.ws.send_bytes(prefix + pcm[i : i + CHUNK_BYTES])
        await self.ws.send_bytes(prefix)  # the end of the audio

    def _take(self, event: dict[str, Any], turn: VoiceTurn, pcm: bytes) -> bool:
        """Record ``event`` into ``turn``; True once the run is over."""
        data = event.get("data") or {}
        kind = event.get("type")
        if kind == "run-start":
            handler = (data.get("runner_data") or {}).get("stt_binary_handler_id")
            if handler is None:
                raise PipelineFailed(
                    "the pipeline run gave no audio handler (is its start stage stt?)"
                )
            task = asyncio.get_running_loop().create_task(self._send_audio(handler, pcm))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        elif kind == "stt-end":
            turn.transcript = (data.get("stt_output") or {}).get("text")
        elif kind == "intent-end":
            output = data.get("intent_output") or {}
            turn.conversation_id = output.get("conversation_id") or turn.conversation_id
            speech = ((output.get("response") or {}).get("speech") or {}).get("plain") or {}
            turn.speech = speech.get("speech", "")
        elif kind == "tts-end":
            turn.tts_url = (data.get("tts_output") or {}).get("url")
        elif kind == "error":
            turn.error = {"code": data.get("code"), "message": data.get("message")}
            return True
        return kind == "run-end"


async def add_wyoming_service(
    session: aiohttp.ClientSession, url: str, token: str, host: str, port: int
) -> str:
    """Add a Wyoming server through HA's ``wyoming`` config flow; returns the entry id."""
    headers = {"Authorization": f"Bearer {token}"}
    async with session.post(
        f"{url}/api/config/config_entries/flow", json={"handler": "wyoming"}, headers=headers
    ) as r:
        flow = await r.json()
    async with session.post(
        f"{url}/api/config/config_entries/flow/{flow['flow_id']}",
        json={"host": host, "port": port},
        headers=headers,
    ) as r:
        result = await r.json()
    if result.get("type") != "create_entry":
        raise PipelineFailed(
            f"HA's wyoming integration did not add {host}:{port}: "
            f"{result.get('errors') or result.get('reason') or result}"
        )
    return result["result"]["entry_id"]


def pipeline_fields(
    name: str,
    conversation_engine: str,
    stt_engine: str | None = None,
    tts_engine: str | None = None,
    language: str = "en",
) -> dict[str, Any]:
    """An Assist pipeline's fields: the agent, optional STT and TTS, no wake word, prefer-local
    off (so every request reaches the agent, not HA's sentence matcher first)."""
    return {
        "name": name,
        "language": language,
        "conversation_engine": conversation_engine,
        "conversation_language": language,
        "stt_engine": stt_engine,
        "stt_language": language if stt_engine else None,
        "tts_engine": tts_engine,
        "tts_language": language if tts_engine else None,
        "tts_voice": None,
        "wake_word_entity": None,
        "wake_word_id": None,
        "prefer_local_intents": False,
    }


async def create_pipeline(
    socket: HaSocket,
    name: str,
    conversation_engine: str,
    stt_engine: str,
    tts_engine: str | None = None,
    language: str = "en",
) -> str:
    """A new Assist pipeline (STT -> agent -> optional TTS, see :func:`pipeline_fields`);
    returns its id."""
    result = await socket.call(
        {
            "type": "assist_pipeline/pipeline/create",
            **pipeline_fields(name, conversation_engine, stt_engine, tts_engine, language),
        }
    )
    return result["id"]
