"""``smh voice stt|tts`` as a child process (tests, ``make demo VOICE=1``): started, waited for
until it listens, stopped."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def start_voice_server(
    args: list[str], port: int, log: Path, timeout: float = 60.0, cwd: Path | None = None
) -> subprocess.Popen:
    """``smh voice ARGS --port PORT`` with its output in ``log``; returns once it listens (raises
    ``RuntimeError`` with the log's tail if it exits or does not listen within ``timeout``)."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "smh_core.cli.main", "voice", *args, "--port", str(port)],
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + timeout
    while b"listening on" not in log.read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            stop_voice_server(process)
            raise RuntimeError(
                f"smh voice {args[0]} did not start: {log.read_text(errors='replace')[-2000:]}"
            )
        time.sleep(0.1)
    return process


def stop_voice_server(process: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL after 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
