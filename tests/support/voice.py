"""``smh voice stt`` / ``smh voice tts`` as subprocesses for tests, for the length of a block."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from smh_core.voice.process import start_voice_server, stop_voice_server

ROOT = Path(__file__).resolve().parents[2]


def stt_server(
    port: int, level: str, seed: int, log: Path
) -> contextlib.AbstractContextManager[subprocess.Popen]:
    """The Wyoming STT server for a generated home on 127.0.0.1:``port`` until the block ends."""
    return voice_server(["stt", "--level", level, "--seed", str(seed)], port, log)


@contextmanager
def voice_server(args: list[str], port: int, log: Path) -> Iterator[subprocess.Popen]:
    """``smh voice ARGS --port PORT`` until the block ends (waits for it to listen)."""
    process = start_voice_server(args, port, log, cwd=ROOT)
    try:
        yield process
    finally:
        stop_voice_server(process)
