"""``smh voice stt`` / ``smh voice tts`` as subprocesses for tests: started, waited for, stopped."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def stt_server(port: int, level: str, seed: int, log: Path) -> contextlib.AbstractContextManager[subprocess.Popen]:
    """The Wyoming STT server for a generated home on 127.0.0.1:``port`` until the block ends."""
    return voice_server(["stt", "--level", level, "--seed", str(seed)], port, log)


@contextmanager
def voice_server(args: list[str], port: int, log: Path, timeout: float = 60.0) -> Iterator[subprocess.Popen]:
    """``smh voice ARGS --port PORT`` until the block ends (waits for it to listen)."""
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "smh_core.cli.main", "voice", *args, "--port", str(port)],
                                   cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + timeout
        while b"listening on" not in log.read_bytes():
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"smh voice {args[0]} did not start: {log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
