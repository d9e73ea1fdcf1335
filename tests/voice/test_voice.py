"""The voice pieces on their own: spoken-word normalisation and WER, deterministic speech,
the home language model, and both Wyoming servers spoken to by wyoming's own client."""

from __future__ import annotations

import asyncio
import io
import wave
from functools import partial

import pytest
from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.info import Describe, Info
from wyoming.tts import Synthesize

from smh_core.homes.generator import generate_home
from smh_core.llm.local import free_port
from smh_core.voice.audio import add_noise, chunks, resample, to_wav
from smh_core.voice.espeak import VoiceSettings, fix_stream_header, synthesize, unavailable_reason
from smh_core.voice.recognizer import Recognizer
from smh_core.voice.server import serve
from smh_core.voice.vocabulary import arpa, corpus, home_language_model
from smh_core.voice.wer import corpus_wer, wer, word_errors
from smh_core.voice.words import number_words, spoken_words

needs_espeak = pytest.mark.skipif(
    unavailable_reason() is not None, reason=str(unavailable_reason())
)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Set it to 22%.", "set it to twenty two percent"),
        ("Heat the water to 45°C", "heat the water to forty five degrees"),
        ("5181 K", "five thousand one hundred eighty one k"),
        ("change its sleep state to fall_asleep", "change its sleep state to fall asleep"),
        (
            "the Temperature-Humidity Sensor and 1,000",
            "the temperature humidity sensor one thousand",
        ),
        ("21.5", "twenty one point five"),
        ("The Kitchen Fan's speed", "the kitchen fan's speed"),
    ],
)
def test_spoken_words_read_numbers_and_symbols_as_a_speaker_would(text, words):
    assert spoken_words(text) == words.split()


def test_number_words_cover_the_range_and_refuse_outside_it():
    assert number_words(0) == ["zero"] and number_words(105) == ["one", "hundred", "five"]
    assert number_words(20000) == ["twenty", "thousand"]
    with pytest.raises(ValueError, match="out of range"):
        number_words(-1)


def test_word_error_rate_counts_each_edit_once_and_agrees_on_numbers():
    assert wer("Set the AC to 20 degrees", "set the ac to twenty degrees") == 0.0
    errors = word_errors("turn on the kitchen light", "turn the kitchen lights on")
    assert (errors.substitutions, errors.deletions, errors.insertions) == (1, 1, 1)
    assert errors.rate == pytest.approx(3 / 5)
    assert wer("turn on the light", "") == 1.0 and wer("", "") == 0.0 and wer("", "hello") == 1.0
    # corpus WER weighs by reference length, not per sentence
    assert corpus_wer([("a b c d", "a b c d"), ("x", "y")]) == pytest.approx(1 / 5)


def test_noise_is_seeded_and_resampling_keeps_duration():
    import numpy as np

    tone = (np.sin(np.arange(22050) / 10) * 8000).astype(np.int16)
    assert len(resample(tone, 22050)) == 16000
    a, b = add_noise(tone, 0.2, seed=1), add_noise(tone, 0.2, seed=1)
    assert (
        (a == b).all() and not (a == add_noise(tone, 0.2, seed=2)).all() and not (a == tone).all()
    )
    assert (add_noise(tone, 0.0, seed=1) == tone).all()
    with pytest.raises(ValueError, match=">= 0"):
        add_noise(tone, -0.1, seed=1)
    assert [len(c) for c in chunks(bytes(7000))] == [3200, 3200, 600]


def test_espeak_pipe_header_gets_real_sizes():
    wav = to_wav(bytes(100))
    broken = wav[:4] + b"\xff\xff\xff\x7f" + wav[8:40] + b"\xff\xff\xff\x7f" + wav[44:]
    fixed = fix_stream_header(broken)
    assert fixed == wav


@pytest.mark.parametrize(
    "bad", [dict(speed=10), dict(noise=-1.0), dict(voice="-w /tmp/x"), dict(voice="")]
)
def test_voice_settings_refuse_bad_values(bad):
    with pytest.raises(ValueError):
        VoiceSettings(**bad)


@needs_espeak
def test_speech_is_deterministic_and_noise_changes_it():
    plain = synthesize("turn on the kitchen light")
    assert (
        plain == synthesize("turn on the kitchen light") and len(plain) > 16000
    )  # over half a second
    noisy = synthesize("turn on the kitchen light", VoiceSettings(noise=0.1, seed=3))
    assert (
        noisy == synthesize("turn on the kitchen light", VoiceSettings(noise=0.1, seed=3)) != plain
    )
    with pytest.raises(ValueError, match="empty"):
        synthesize("   ")
    with pytest.raises(ValueError, match="no voice 'xx-nonexistent'"):
        synthesize("hello", VoiceSettings(voice="xx-nonexistent"))


def test_cli_refuses_files_that_are_not_wav(tmp_path, capsys):
    from smh_core.cli.main import main

    (tmp_path / "x.wav").write_text("hello")
    assert main(["voice", "transcribe", str(tmp_path / "x.wav")]) == 2
    assert "not a PCM WAV file" in capsys.readouterr().err


def test_language_model_is_built_from_the_home_and_is_deterministic():
    home = generate_home("medium", 2)
    sentences = corpus(home)
    assert any(s.endswith("turn on the kitchen downlight") for s in sentences)
    assert any(
        s.endswith("remember i like the bedroom at " + s.split(" at ")[-1]) for s in sentences
    )
    model = home_language_model(home)
    assert model == home_language_model(generate_home("medium", 2))
    assert model != home_language_model(generate_home("medium", 3))
    assert model.startswith("\\data\\\nngram 1=") and model.rstrip().endswith("\\end\\")


def test_arpa_probabilities_are_normalised_for_a_history():
    text = arpa(
        [
            ["turn", "on", "the", "light"],
            ["turn", "off", "the", "light"],
            ["turn", "on", "the", "fan"],
        ],
        order=2,
    )
    bigrams = {
        tuple(line.split()[1:3]): 10 ** float(line.split()[0])
        for line in text.split("\\2-grams:")[1].split("\\end")[0].strip().splitlines()
    }
    unigrams = {
        line.split()[1]: (
            10 ** float(line.split()[0]),
            float(line.split()[2]) if len(line.split()) > 2 else 0.0,
        )
        for line in text.split("\\1-grams:")[1].split("\\2-grams")[0].strip().splitlines()
    }
    # P(w | "the") over the whole vocabulary sums to 1: seen bigrams + back-off mass on the rest
    seen = {w: p for (h, w), p in bigrams.items() if h == "the"}
    backoff = 10 ** unigrams["the"][1]
    total = sum(seen.values()) + backoff * sum(
        p for w, (p, _) in unigrams.items() if w not in seen and w != "<s>"
    )
    assert total == pytest.approx(1.0, abs=1e-4)


async def _served(factory, body):
    port = free_port()
    ready = asyncio.Event()
    task = asyncio.create_task(serve(factory, "127.0.0.1", port, ready))
    await ready.wait()
    try:
        return await body(port)
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


@needs_espeak
async def test_wyoming_stt_server_transcribes_what_home_assistant_sends(socket_enabled):
    from smh_core.voice.wyoming_stt import SttHandler, stt_info

    home = generate_home("medium", 2)
    recognizer = Recognizer(home)
    pcm = synthesize("turn on the kitchen spotlight")

    async def talk(port: int):
        async with AsyncTcpClient("127.0.0.1", port) as client:
            await client.write_event(Describe().event())
            info = Info.from_event(await client.read_event())
        async with AsyncTcpClient("127.0.0.1", port) as client:  # what HA's wyoming STT entity does
            await client.write_event(Transcribe(language="en").event())
            await client.write_event(AudioStart(rate=16000, width=2, channels=1).event())
            for piece in chunks(pcm):
                await client.write_event(
                    AudioChunk(rate=16000, width=2, channels=1, audio=piece).event()
                )
            await client.write_event(AudioStop().event())
            transcript = Transcript.from_event(await client.read_event())
        async with AsyncTcpClient("127.0.0.1", port) as client:
            await client.write_event(AudioStart(rate=44100, width=2, channels=2).event())
            refusal = await client.read_event()
        return info, transcript, refusal

    info, transcript, refusal = await _served(
        partial(SttHandler, recognizer, stt_info(home.name)), talk
    )
    assert info.asr[0].models[0].languages == ["en", "en-US"] and info.asr[0].installed
    assert transcript.text == "turn on the kitchen spotlight"
    assert refusal.type == "error" and "16000 Hz" in refusal.data["text"]


@needs_espeak
async def test_wyoming_tts_server_speaks_and_its_audio_is_recognized(socket_enabled):
    from smh_core.voice.espeak import find_espeak
    from smh_core.voice.wyoming_tts import TtsHandler, tts_info

    settings = VoiceSettings()

    async def talk(port: int):
        async with AsyncTcpClient("127.0.0.1", port) as client:
            await client.write_event(Synthesize(text="turn off the kitchen spotlight").event())
            events = []
            while True:
                event = await client.read_event()
                events.append(event)
                if event.type == "audio-stop":
                    return events

    events = await _served(partial(TtsHandler, find_espeak(), settings, tts_info(settings)), talk)
    assert events[0].type == "audio-start" and events[0].data["rate"] == 16000
    pcm = b"".join(AudioChunk.from_event(e).audio for e in events if e.type == "audio-chunk")
    assert pcm == synthesize("turn off the kitchen spotlight", settings)
    assert (
        Recognizer(generate_home("medium", 2)).transcribe(pcm) == "turn off the kitchen spotlight"
    )
    with wave.open(io.BytesIO(to_wav(pcm))) as w:
        assert w.getframerate() == 16000 and w.getnframes() == len(pcm) // 2


def test_noise_floor_is_deterministic_and_small():
    import numpy as np

    from smh_core.voice.recognizer import NOISE_FLOOR, with_noise_floor

    silence = bytes(32000)
    floored = with_noise_floor(silence, NOISE_FLOOR)
    assert floored == with_noise_floor(silence, NOISE_FLOOR) != silence
    assert np.frombuffer(floored, dtype="<i2").std() == pytest.approx(NOISE_FLOOR, rel=0.05)
