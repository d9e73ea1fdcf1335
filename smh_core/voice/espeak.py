"""Text to speech with espeak-ng: the deterministic "user" of the voice tests and benchmark.

espeak-ng is a formant synthesizer: the same text, voice and speed give the same samples on
every run, which is what a benchmark needs. The binary is the system's when on PATH, else the
copy ``scripts/ensure_espeak.sh`` unpacks from Debian's packages into the SMH cache (run with
its own library and data paths).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


def cache_root() -> Path:
    """Where ``scripts/ensure_espeak.sh`` unpacks espeak-ng (same rule as the bootstrap's cache)."""
    base = (
        os.environ.get("SMH_CACHE")
        or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "smh"
    )
    return Path(base) / "espeak-ng" / "root"


@dataclass(frozen=True)
class Espeak:
    """A runnable espeak-ng: the binary and the environment it needs."""

    binary: Path
    env: dict[str, str]

    def version(self) -> str:
        out = subprocess.run(
            [str(self.binary), "--version"],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=30,
            check=True,
        )
        return out.stdout.strip()


def find_espeak() -> Espeak | None:
    """The system's espeak-ng, else the unpacked one in the cache, else ``None``."""
    system = shutil.which("espeak-ng")
    if system:
        return Espeak(Path(system), dict(os.environ))
    root = cache_root()
    binary = root / "usr" / "bin" / "espeak-ng"
    if not binary.is_file():
        return None
    lib = root / "usr" / "lib" / "x86_64-linux-gnu"
    env = {
        **os.environ,
        "ESPEAK_DATA_PATH": str(lib),
        "LD_LIBRARY_PATH": os.pathsep.join(
            p for p in (str(lib), os.environ.get("LD_LIBRARY_PATH", "")) if p
        ),
    }
    return Espeak(binary, env)


def unavailable_reason() -> str | None:
    """Why speech cannot be synthesized here (``None`` when it can)."""
    espeak = find_espeak()
    if espeak is None:
        return (
            "espeak-ng is not installed: run `bash scripts/ensure_espeak.sh` (fetches Debian's "
            "package into the SMH cache) or install espeak-ng"
        )
    try:
        espeak.version()
    except (OSError, subprocess.SubprocessError) as err:
        return f"espeak-ng at {espeak.binary} does not run: {err}"
    return None


@dataclass(frozen=True)
class VoiceSettings:
    """How the simulated user speaks: espeak-ng voice, words per minute, white-noise level
    (times the speech's RMS) and the noise seed."""

    voice: str = "en-us+m2"  # of the voices tried, pocketsphinx hears this one best (docs/voice.md)
    speed: int = 150
    noise: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        if not 80 <= self.speed <= 450:
            raise ValueError(f"speed must be 80-450 words per minute, got {self.speed}")
        if self.noise < 0:
            raise ValueError(f"noise level must be >= 0, got {self.noise}")
        if not self.voice or any(c.isspace() for c in self.voice) or self.voice.startswith("-"):
            raise ValueError(f"not an espeak-ng voice name: {self.voice!r}")

    def describe(self) -> str:
        """One line naming the speaker (a run's identity: a resumed run must speak the same)."""
        return f"espeak-ng {self.voice} {self.speed} wpm noise {self.noise:g} seed {self.seed}"


def synthesize_wav(
    text: str, settings: VoiceSettings = VoiceSettings(), espeak: Espeak | None = None
) -> bytes:
    """espeak-ng's WAV file for ``text`` (its native 22,050 Hz)."""
    espeak = espeak or find_espeak()
    if espeak is None:
        raise RuntimeError(unavailable_reason() or "espeak-ng is not installed")
    if not text.strip():
        raise ValueError("nothing to say: the text is empty")
    # the text goes on stdin, never on the command line: a text starting with "-" stays text
    out = subprocess.run(
        [
            str(espeak.binary),
            "-v",
            settings.voice,
            "-s",
            str(settings.speed),
            "--stdin",
            "--stdout",
        ],
        input=text.encode(),
        capture_output=True,
        env=espeak.env,
        timeout=60,
    )
    error = out.stderr.decode(errors="replace").strip()
    if "voice does not exist" in error:
        raise ValueError(
            f"espeak-ng has no voice {settings.voice!r} (espeak-ng --voices lists them)"
        )
    if out.returncode != 0 or not out.stdout.startswith(b"RIFF"):
        raise RuntimeError(f"espeak-ng failed ({out.returncode}): {error}")
    return fix_stream_header(out.stdout)


def fix_stream_header(wav: bytes) -> bytes:
    """espeak-ng writing to a pipe cannot seek back, so its RIFF and data sizes are left at
    0x7fffffff-ish placeholders; put the real sizes in so any WAV reader accepts the file."""
    data_at = wav.find(b"data", 12)
    if data_at < 0:
        raise RuntimeError("espeak-ng wrote no WAV data chunk")
    body = len(wav) - (data_at + 8)
    return (
        wav[:4]
        + (len(wav) - 8).to_bytes(4, "little")
        + wav[8 : data_at + 4]
        + body.to_bytes(4, "little")
        + wav[data_at + 8 :]
    )


def synthesize(
    text: str, settings: VoiceSettings = VoiceSettings(), espeak: Espeak | None = None
) -> bytes:
    """``text`` spoken as 16 kHz 16-bit mono PCM, with the settings' noise mixed in."""
    from .audio import add_noise, read_wav, resample  # numpy: only when speech is made

    samples, rate = read_wav(synthesize_wav(text, settings, espeak))
    return add_noise(resample(samples, rate), settings.noise, settings.seed).tobytes()
