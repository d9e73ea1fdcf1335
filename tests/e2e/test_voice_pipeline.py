"""End to end with audio: espeak-ng speaks, a real ``hass`` runs its Assist pipeline from the
STT stage (``assist_pipeline/run`` over the websocket, binary audio), HA's own ``wyoming``
integration sends the audio to ``smh voice stt`` (pocketsphinx with the home's vocabulary),
and the transcript goes to SMH's conversation agent, whose decisions come from a scripted fake
model that acts only on what it is told (so a misheard request changes nothing); the answer is
spoken by ``smh voice tts`` through the same integration. Asserted: the transcripts, the agent's
tool calls, the simulated home's state, the memory stored for the HA user who spoke, and the
spoken answer.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from smh_core.backends.embedded import EmbeddedBackend
from smh_core.ha.runner import HaClient, HaError
from smh_core.ha.voice_pipeline import AssistSocket, add_wyoming_service, create_pipeline
from smh_core.ha.websocket import entry_entity
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.generator import generate_home
from smh_core.llm.local import free_port
from smh_core.llm.local import unavailable_reason as local_model_missing
from smh_core.voice.audio import read_wav
from smh_core.voice.espeak import synthesize, unavailable_reason
from smh_core.voice.wer import wer, word_errors
from tests.support.fake_openai import FakeOpenAI, serve_in_thread
from tests.support.voice import stt_server, voice_server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_instance  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(unavailable_reason() is not None, reason=str(unavailable_reason())),
]

LEVEL, SEED = "medium", 2  # a home with kitchen lights and a bedroom air conditioner
SAID = [
    "turn on the kitchen light",
    "remember I like the bedroom at twenty degrees",
    "set the bedroom the way I like it",
]
DEGREES = {"eighteen": 18, "nineteen": 19, "twenty": 20, "twenty one": 21, "twenty two": 22}


def _devices() -> tuple[str, str]:
    """A kitchen light (switched off before the test speaks) and the master bedroom's AC."""
    devices = EmbeddedBackend(HomeEngine(generate_home(LEVEL, SEED))).list_devices()
    lamp = next(
        d["did"] for d in devices if d["room_name"] == "Kitchen" and d["category"] == "light"
    )
    ac = next(
        d["did"] for d in devices if d["room_name"] == "Master Bedroom" and d["category"] == "ac"
    )
    return lamp, ac


def scripted_model(lamp: str, ac: str):
    """The fake model's decisions, from the text the agent got (the transcript) and the tool
    results so far: it never sees the audio or the test's intended sentence."""

    def reply(body: dict) -> dict:
        messages = body["messages"]
        heard = next(m["content"] for m in reversed(messages) if m["role"] == "user").lower()
        results = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
        if "kitchen light" in heard and "turn on" in heard:
            if not results:
                return {
                    "tool_calls": [
                        ("control_device", json.dumps({"did": lamp, "locator": "turn_on"}))
                    ]
                }
            return {"content": "The kitchen light is on."}
        if heard.startswith("remember") and "bedroom" in heard:
            if not results:
                liked = heard.split(" like ", 1)[-1]
                return {"tool_calls": [("remember", json.dumps({"content": f"I like {liked}."}))]}
            return {"content": "I will remember that."}
        if "the way i like it" in heard:
            if not results:
                return {
                    "tool_calls": [("recall_memory", json.dumps({"query": "bedroom temperature"}))]
                }
            if len(results) == 1:
                memories = " ".join(m["content"] for m in results[0].get("memories", []))
                degrees = next(
                    (
                        v
                        for k, v in sorted(DEGREES.items(), key=lambda kv: -len(kv[0]))
                        if f"{k} degrees" in memories
                    ),
                    None,
                )
                if degrees is None:
                    return {"content": "I do not know how you like the bedroom."}
                return {
                    "tool_calls": [
                        ("control_device", json.dumps({"did": ac, "locator": "turn_on"})),
                        (
                            "control_device",
                            json.dumps(
                                {
                                    "did": ac,
                                    "locator": "set_target_temperature",
                                    "arguments": {"target_temperature": degrees},
                                }
                            ),
                        ),
                    ]
                }
            return {"content": "The bedroom is set the way you like it."}
        return {"content": "Sorry, I did not catch that."}

    return reply


def test_spoken_requests_reach_the_smh_agent_through_hass_and_wyoming(tmp_path, socket_enabled):
    lamp, ac = _devices()
    server = FakeOpenAI(default=scripted_model(lamp, ac))
    stt_port, tts_port = free_port(), free_port()
    loop = asyncio.new_event_loop()
    try:
        inst = loop.run_until_complete(
            ha_instance.launch(tmp_path / "ha", free_port(), LEVEL, SEED, time_scale=0.0)
        )
        try:
            with (
                serve_in_thread(server),
                stt_server(stt_port, LEVEL, SEED, tmp_path / "stt.log"),
                voice_server(["tts"], tts_port, tmp_path / "tts.log"),
            ):
                turns, traces, state, user, answer = loop.run_until_complete(
                    _talk(
                        inst,
                        server.base_url,
                        (stt_port, tts_port),
                        [synthesize(s) for s in SAID],
                        lamp,
                        ac,
                    )
                )
        finally:
            inst.stop()
        log = (tmp_path / "ha" / "hass.log").read_text(encoding="utf-8", errors="replace")
    finally:
        loop.close()

    transcripts = [t.transcript for t in turns]
    assert all(t.error is None for t in turns), [t.error for t in turns]
    assert transcripts[0] == "turn on the kitchen light", transcripts
    assert (
        sum(wer(s, t or "") for s, t in zip(SAID, transcripts, strict=True)) / len(SAID) <= 0.15
    ), transcripts
    calls = [[(c["tool"], c["arguments"]) for c in trace["tool_calls"]] for trace in traces]
    assert calls[0] == [("control_device", {"did": lamp, "locator": "turn_on"})], calls[0]
    assert [name for name, _ in calls[1]] == ["remember"], calls[1]
    assert "twenty degrees" in calls[1][0][1]["content"]
    assert [name for name, _ in calls[2]] == [
        "recall_memory",
        "control_device",
        "control_device",
    ], calls[2]
    assert turns[0].speech == "The kitchen light is on." and turns[2].speech.startswith(
        "The bedroom is set"
    )
    # the pipeline answered aloud with SMH's TTS: its stage ran on the wyoming TTS entity, and HA
    # serves that entity's audio of the answer as espeak-ng spoke it (WAV: this machine has no
    # ffmpeg for the pipeline's default mp3)
    engines = [e["data"].get("engine") for t in turns for e in t.events if e["type"] == "tts-start"]
    assert engines == ["tts.smh_tts"] * 3 and all(t.tts_url for t in turns)
    assert answer == synthesize("The kitchen light is on.")
    # the simulated home changed: the light is on, the bedroom AC runs at the remembered 20 degrees
    assert state["devices"][lamp]["state"] == "on"
    assert (
        state["devices"][ac]["state"] == "on" and state["devices"][ac]["target_temperature"] == 20
    )
    # the memory belongs to the HA user who spoke (one SQLite file per entry, one row per memory)
    with sqlite3.connect(tmp_path / "ha" / ".storage" / f"smh_memory.{inst.entry_id}.db") as db:
        rows = db.execute("SELECT user, content FROM memories").fetchall()
    liked = transcripts[1].split(" like ", 1)[-1]
    assert (
        rows == [(user, f"I like {liked}.")] and "bedroom" in liked and "twenty degrees" in liked
    ), rows
    assert "Error processing audio stream" not in log


async def _talk(
    inst, base_url: str, ports: tuple[int, int], audio: list[bytes], lamp: str, ac: str
):
    """Wire HA (SMH agent on the fake model, the Wyoming STT and TTS servers, a pipeline joining
    them), then speak each clip as its own conversation; also fetch HA's audio of the first answer."""
    async with aiohttp.ClientSession() as session:
        client, agent, wyoming = await _wire(session, inst, base_url, "fake", ports[0])
        speaker = await add_wyoming_service(session, inst.url, inst.token, "127.0.0.1", ports[1])
        await client.service(
            "smh", "execute", {"config_entry_id": inst.entry_id, "did": lamp, "locator": "turn_off"}
        )
        before = await client.service("smh", "snapshot", {"config_entry_id": inst.entry_id})
        assert before["devices"][lamp]["state"] == "off" and before["devices"][ac]["state"] == "off"
        async with AssistSocket(inst.url, inst.token, session) as socket:
            stt = await entry_entity(socket, wyoming, "stt")
            tts = await entry_entity(socket, speaker, "tts")
            pipeline = await create_pipeline(socket, "SMH voice", agent, stt, tts)
            user = (await socket.call({"type": "auth/current_user"}))["id"]
            turns = [await socket.run_audio(pcm, pipeline, end_stage="tts") for pcm in audio]
        traces = [await client.agent_trace(t.conversation_id, inst.entry_id) for t in turns]
        state = await client.service("smh", "snapshot", {"config_entry_id": inst.entry_id})
        answer = await _spoken(session, inst, tts, turns[0].speech)
    return turns, traces, state, user, answer


async def _spoken(session: aiohttp.ClientSession, inst, engine: str, text: str) -> bytes:
    """HA's audio of ``text`` from ``engine`` as 16 kHz PCM (``/api/tts_get_url``, WAV)."""
    async with session.post(
        f"{inst.url}/api/tts_get_url",
        headers={"Authorization": f"Bearer {inst.token}"},
        json={
            "engine_id": engine,
            "message": text,
            "language": "en",
            "options": {"preferred_format": "wav"},
        },
    ) as r:
        path = (await r.json())["path"]
    async with session.get(f"{inst.url}{path}") as r:
        assert r.status == 200 and r.content_type == "audio/x-wav"
        samples, rate = read_wav(await r.read())
    assert rate == 16000
    return samples.tobytes()


async def _wire(
    session: aiohttp.ClientSession, inst, base_url: str, model: str, stt_port: int, **agent: object
) -> tuple[HaClient, str, str]:
    """SMH's agent on ``model`` (tools on the simulated home, and ``agent``'s other options) and
    HA's wyoming entry for the STT server: the client, the agent's entity id and the wyoming entry id."""
    client = HaClient(inst.url, inst.token, session)
    await client.reconfigure(
        inst.entry_id,
        {"agent": {"base_url": base_url, "model": model, "api_key": "k", "tools": "home", **agent}},
    )
    for _ in range(150):  # the entry reloads with the agent option and its entity appears
        if agents := await client.traced_agents(inst.entry_id):
            (agent,) = agents
            wyoming = await add_wyoming_service(
                session, inst.url, inst.token, "127.0.0.1", stt_port
            )
            return client, agent, wyoming
        await asyncio.sleep(0.2)
    raise AssertionError("SMH's conversation agent did not appear")


@pytest.mark.skipif(
    local_model_missing() is not None, reason=f"local model not installed: {local_model_missing()}"
)
def test_spoken_request_reaches_the_real_local_model(tmp_path, socket_enabled):
    """The same path with the bundled local model deciding (SmolLM2-135M: a pipeline check, not
    a capable agent): the transcript reaches the model, which answers through the pipeline."""
    from smh_core.llm.local import LocalModelServer

    loop = asyncio.new_event_loop()
    stt_port = free_port()
    try:
        inst = loop.run_until_complete(
            ha_instance.launch(tmp_path / "ha", free_port(), LEVEL, SEED, time_scale=0.0)
        )
        try:
            with (
                LocalModelServer() as model,
                stt_server(stt_port, LEVEL, SEED, tmp_path / "stt.log"),
            ):
                turn, trace = loop.run_until_complete(
                    _talk_once(inst, model.base_url, model.model, stt_port, synthesize(SAID[0]))
                )
        finally:
            inst.stop()
    finally:
        loop.close()
    assert turn.error is None and turn.transcript == SAID[0]
    usage = trace[
        "usage"
    ]  # the model was asked (an empty trace: the turn ended before the model answered)
    assert usage.get("calls", 0) >= 1 and usage.get("prompt_tokens", 0) > 0, (trace, turn.speech)
    assert turn.speech  # and its answer came back through the pipeline


async def _talk_once(inst, base_url: str, model: str, stt_port: int, pcm: bytes):
    """One spoken turn. The agent may make one tool call: the check is that the model is asked and
    answers through the pipeline, and a tiny model left to its default budget of 10 calls can
    spend the pipeline's whole timeout on a busy machine (CI failed so twice: an intent stage that
    timed out gives no conversation id, a model call that timed out leaves no trace). Each model
    call may take 240 s (the entry's model_timeout; its default of 60 s timed out on a 2-core
    machine running three test jobs, 2026-11-29): two calls fit in the pipeline's 600 s."""
    async with aiohttp.ClientSession() as session:
        client, agent, wyoming = await _wire(
            session, inst, base_url, model, stt_port, tool_budget=1, model_timeout=240
        )
        async with AssistSocket(inst.url, inst.token, session) as socket:
            pipeline = await create_pipeline(
                socket, "SMH voice", agent, await entry_entity(socket, wyoming, "stt")
            )
            turn = await socket.run_audio(pcm, pipeline, timeout=600)
        return turn, await _trace(client, inst, turn)


async def _trace(client: HaClient, inst, turn) -> dict:
    """``smh.agent_trace`` of the turn's conversation: a pipeline error or a refusal fails the test
    with HA's words, the pipeline's events and the log's tail. A refusal while the entry is not
    loaded (``no_home``) is retried for 30 s."""

    def log_tail() -> str:
        return (inst.config_dir / "hass.log").read_text(encoding="utf-8", errors="replace")[-4000:]

    conversation_id = turn.conversation_id
    assert conversation_id, (
        f"the pipeline's intent stage gave no conversation id: error {turn.error}, "
        f"transcript {turn.transcript!r}, events {[e.get('type') for e in turn.events]}"
        f"\n--- hass.log (tail) ---\n{log_tail()}"
    )
    for _ in range(60):
        try:
            return await client.agent_trace(conversation_id, inst.entry_id)
        except HaError as err:
            problem = err
            if "No loaded SMH home" not in err.text:
                break
            await asyncio.sleep(0.5)
    raise AssertionError(
        f"smh.agent_trace refused: {problem}\n--- hass.log (tail) ---\n{log_tail()}"
    )


def test_stt_server_command_refuses_a_missing_home_file(tmp_path):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "voice",
            "stt",
            "--port",
            "1",
            "--home",
            str(tmp_path / "nope.json"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "nope.json" in run.stderr and "Traceback" not in run.stderr


def test_bench_voice_mode_records_transcripts_and_cleans_up(tmp_path, socket_enabled):
    """``smh bench run --backend ha --voice`` on a real hass with Assist: every task gets a
    typed and a spoken verdict, the transcript and its WER; the report shows the comparison; the
    run's wyoming entry and pipeline are gone afterwards."""
    from smh_core.task.model import dump_task, iter_tasks

    tasks = [
        t
        for t in iter_tasks(ROOT / "tasks" / "smh.jsonl")
        if t.home.level == "simple" and t.home.seed == 0 and t.category == "atomic_control"
    ][:4]
    task_file = tmp_path / "tasks.jsonl"
    task_file.write_text("".join(dump_task(t) + "\n" for t in tasks), encoding="utf-8")
    loop = asyncio.new_event_loop()
    try:
        inst = loop.run_until_complete(
            ha_instance.launch(tmp_path / "ha", free_port(), "simple", 0, time_scale=0.0)
        )
        try:
            run = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "smh_core.cli.main",
                    "bench",
                    "run",
                    "--backend",
                    "ha",
                    "--voice",
                    "--tasks",
                    str(task_file),
                    "--ha-url",
                    inst.url,
                    "--token",
                    inst.token,
                    "--out",
                    str(tmp_path / "out"),
                    "--quiet",
                ],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=600,
            )
            entries, pipelines = loop.run_until_complete(
                ha_instance.ws_calls(
                    inst.url,
                    inst.token,
                    [
                        {"type": "config_entries/get", "domain": "wyoming"},
                        {"type": "assist_pipeline/pipeline/list"},
                    ],
                )
            )
        finally:
            inst.stop()
    finally:
        loop.close()
    assert run.returncode == 0, run.stderr
    assert (
        "voice (typed vs spoken):" in run.stdout and "| failed: STT | failed: agent |" in run.stdout
    )
    records = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert len(records) == len(tasks)
    for r, task in zip(records, tasks, strict=True):
        voice = r["voice"]
        assert voice["said"] == [t.text for t in task.turns] and all(voice["heard"])
        counts = [word_errors(s, h) for s, h in zip(voice["said"], voice["heard"], strict=True)]
        assert voice["word_errors"] == sum(c.errors for c in counts)
        assert voice["wer"] == round(
            voice["word_errors"] / sum(c.reference_words for c in counts), 4
        )
        assert voice["failure_cause"] == (
            None
            if r["passed"]
            else "stt"
            if voice["text_passed"] and voice["word_errors"]
            else "agent"
        )
        assert (r["verdict"]["error_class"] == "STT") == (voice["failure_cause"] == "stt")
    manifest = json.loads((tmp_path / "out" / "run.json").read_text())
    assert manifest["identity"]["voice"] == "espeak-ng en-us+m2 150 wpm noise 0 seed 0"
    assert "## Voice: typed vs spoken" in (tmp_path / "out" / "report.md").read_text()
    assert entries == [] and not any(
        p["name"].startswith("SMH bench voice") for p in pipelines["pipelines"]
    )


def test_demo_voice_wiring_answers_through_the_preferred_pipeline(tmp_path, socket_enabled):
    """``make demo VOICE=1`` (``ha_instance.add_voice``): HA's preferred pipeline hears through
    SMH's STT, answers with Assist and speaks through SMH's TTS; the servers stop with the demo."""
    from smh_core.voice.process import stop_voice_server

    loop = asyncio.new_event_loop()
    try:
        inst = loop.run_until_complete(
            ha_instance.launch(tmp_path / "ha", free_port(), "simple", 0, time_scale=0.0)
        )
        servers: list = []
        try:
            servers, pipeline = loop.run_until_complete(ha_instance.add_voice(inst, "simple", 0))

            async def talk():
                async with (
                    aiohttp.ClientSession() as session,
                    AssistSocket(inst.url, inst.token, session) as socket,
                ):
                    listed = await socket.call({"type": "assist_pipeline/pipeline/list"})
                    turn = await socket.run_audio(
                        synthesize("turn on the living room light strip"), end_stage="tts"
                    )
                return listed, turn

            listed, turn = loop.run_until_complete(talk())
        finally:
            for server in servers:
                stop_voice_server(server)
            inst.stop()
    finally:
        loop.close()
    assert listed["preferred_pipeline"] == pipeline
    assert turn.error is None and turn.transcript == "turn on the living room light strip"
    assert turn.speech and turn.tts_url
    assert [e["data"]["engine"] for e in turn.events if e["type"] == "tts-start"] == ["tts.smh_tts"]
    assert all(server.poll() is not None for server in servers)
