"""Raw audio as the Assist pipeline wants it: 16 kHz, 16-bit, mono PCM.

Kept apart from the synthesizer so the benchmark, the Wyoming servers and the tests share one
conversion; everything here is deterministic (linear resampling, noise from a seeded generator).
"""

from __future__ import annotations

import io
import wave

import numpy as np

RATE = 16_000
"""Sample rate of the PCM the pipeline carries (HA's ``assist_pipeline`` expects it)."""
WIDTH = 2
"""Bytes per sample (16-bit signed little-endian)."""
CHANNELS = 1


def read_wav(data: bytes) -> tuple[np.ndarray, int]:
    """Samples (int16, mono) and the rate of a 16-bit PCM WAV file's bytes (anything else is
    refused with a ``ValueError`` naming the problem)."""
    try:
        with wave.open(io.BytesIO(data)) as w:
            if w.getsampwidth() != WIDTH:
                raise ValueError(f"expected 16-bit PCM WAV, got {8 * w.getsampwidth()}-bit")
            frames = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
            if w.getnchannels() > 1:
                frames = frames.reshape(-1, w.getnchannels()).mean(axis=1).astype(np.int16)
            return frames, w.getframerate()
    except (wave.Error, EOFError) as err:
        raise ValueError(f"not a PCM WAV file: {err or 'too short'}") from None


def to_wav(pcm: bytes, rate: int = RATE) -> bytes:
    """A WAV file around 16-bit mono PCM (for listening to what the benchmark sent)."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(CHANNELS)
        w.setsampwidth(WIDTH)
        w.setframerate(rate)
        w.writeframes(pcm)
    return out.getvalue()


def resample(samples: np.ndarray, rate: int, target: int = RATE) -> np.ndarray:
    """Linear-interpolation resampling to ``target`` Hz (enough for speech recognition; exact
    and deterministic, no filter library needed)."""
    if rate == target or len(samples) == 0:
        return samples.astype(np.int16)
    n = int(len(samples) * target / rate)
    positions = np.arange(n) * (rate / target)
    return (
        np.interp(positions, np.arange(len(samples)), samples.astype(np.float64))
        .round()
        .astype(np.int16)
    )


def add_noise(samples: np.ndarray, level: float, seed: int) -> np.ndarray:
    """White noise at ``level`` times the speech's RMS (0 = none, 0.1 = a quiet room), from a
    generator seeded by ``seed`` so the same call gives the same bytes."""
    if level < 0:
        raise ValueError(f"noise level must be >= 0, got {level}")
    if level == 0 or len(samples) == 0:
        return samples
    x = samples.astype(np.float64)
    rms = float(np.sqrt(np.mean(x * x))) or 1.0
    noise = np.random.default_rng(seed).normal(0.0, level * rms, size=len(x))
    return np.clip(x + noise, -32768, 32767).round().astype(np.int16)


def chunks(pcm: bytes, seconds: float = 0.1) -> list[bytes]:
    """``pcm`` cut into pieces of ``seconds`` (what a microphone would stream)."""
    size = int(RATE * seconds) * WIDTH
    return [pcm[i : i + size] for i in range(0, len(pcm), size)]
