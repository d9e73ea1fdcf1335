"""``smh voice stt`` as a subprocess for tests: started, waited for, stopped."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def stt_server(port: int, level: str, seed: int, log: Path, timeout: float = 60.0) -> Iterator[subprocess.Popen]:
    """The Wyoming STT server for a generated home on 127.0.0.1:``port`` until the block ends."""
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "smh_core.cli.main", "voice", "stt", "--port", str(port),
                                    "--level", level, "--seed", str(seed)], cwd=ROOT, stdout=out,
                                   stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + timeout
        while b"listening on" not in log.read_bytes():
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"smh voice stt did not start: {log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
