"""A local model server that crashes is named, never left as a bare "connection error".

On AVX-512/AMX Xeons a natively built llama.cpp listed its models, then died of a general-
protection fault on the first real prompt. These tests play that server
(:mod:`tests.support.crashing_model_server`) behind the real :class:`LocalModelServer` process
handling, so they run with or without ``make local-llm``; tests/llm/test_local_model.py does the same
with the real engine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from smh_core.llm import local
from smh_core.llm.client import LLMClient, LLMConfig
from smh_core.llm.errors import InfraError
from smh_core.llm.local import check_status, record_check, server_death
from tests.support.crashing_model_server import StandIn

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of the test's own (status files, check stamp) and an engine that counts as
    installed: the stand-in server needs no llama.cpp."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("SMH_CACHE", str(cache))
    monkeypatch.setattr(local, "unavailable_reason", lambda model=None: None)
    (tmp_path / "model.gguf").write_bytes(b"GGUF")
    monkeypatch.chdir(REPO)  # the stand-in runs as `python -m tests.support...`
    return cache


def test_check_fails_on_a_server_that_dies_on_its_first_real_prompt(
    tmp_path: Path, socket_enabled
) -> None:
    server = StandIn(tmp_path)
    try:
        with pytest.raises(RuntimeError) as err:
            server.start(check=True)  # it lists its models: only the completion shows the crash
    finally:
        server.stop()
    assert "killed by signal SIGSEGV (11)" in str(err.value)
    assert str(tmp_path / "server.log") in str(
        err.value
    ) and "crashing on the first real prompt" in str(err.value)


def test_check_passes_and_is_recorded_for_this_machine_only(
    tmp_path: Path, socket_enabled, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert check_status()[0] is False and "not yet checked" in check_status()[1]
    server = StandIn(tmp_path, healthy=True)
    try:
        result = server.start(check=True).check()
    finally:
        server.stop()
    assert result["completion_tokens"] == 5
    record_check(result)
    ready, said = check_status()
    assert ready and said.startswith("ready (checked ") and "5 tokens" in said
    key = local.machine_key()
    monkeypatch.setattr(
        local, "machine_key", lambda: {**key, "cpu": "Intel(R) Xeon(R) Platinum 8480+ (flags x)"}
    )
    ready, said = check_status()
    assert not ready and "checked with another cpu" in said


async def test_the_client_names_a_server_that_died_mid_run(tmp_path: Path, socket_enabled) -> None:
    """What the bench records and HA's Assist answer with: signal and log, kind "connection"
    (an infrastructure failure, never the model's)."""
    server = StandIn(tmp_path).start()
    client = LLMClient(
        LLMConfig(base_url=server.base_url, model="stand-in", max_retries=1, timeout=20)
    )
    try:
        with pytest.raises(InfraError) as err:
            await client.chat([{"role": "user", "content": "hello"}])
    finally:
        await client.aclose()
        server.stop()
    assert err.value.kind == "connection"
    assert (
        "killed by signal SIGSEGV" in err.value.message
        and str(tmp_path / "server.log") in err.value.message
    )


def test_another_process_learns_the_death_from_the_status_file(
    tmp_path: Path, socket_enabled
) -> None:
    """HA runs the agent; `make demo` started the server: the status file bridges the two."""
    server = StandIn(tmp_path, healthy=True).start()
    try:
        assert server_death(server.base_url) is None  # alive
        os.kill(server.process.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while server_death(server.base_url) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from smh_core.llm.local import server_death; "
                "print(server_death(sys.argv[1]))",
                server.base_url,
            ],
            capture_output=True,
            text=True,
            env={**os.environ},
            check=True,
        )
    finally:
        server.stop()
    assert (
        "killed by signal SIGKILL (9)" in probe.stdout
        and str(tmp_path / "server.log") in probe.stdout
    )
    assert server_death(server.base_url) is None  # stopped by us: the status file is gone


def test_a_status_whose_process_vanished_counts_as_dead(
    private_cache: Path, socket_enabled
) -> None:
    """The process that watched the server was killed too (kill -9 of the whole group)."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    status = private_cache / "run" / "llama-server-45678.json"
    status.parent.mkdir(parents=True)
    status.write_text(json.dumps({"pid": gone.pid, "state": "running", "log": "/x/server.log"}))
    said = server_death("http://127.0.0.1:45678/v1")
    assert (
        said
        == "the local model server on 127.0.0.1:45678 is gone (its process no longer exists); its log: /x/server.log"
    )
    assert (
        server_death("http://example.com:45678/v1") is None
    )  # not on this machine: not ours to say
    assert server_death("http://127.0.0.1:45679/v1") is None  # no server of ours there


def test_the_server_s_idle_threads_sleep_unless_the_user_chose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenMP threads that spin while they wait starve each other on a busy machine: the server
    gets OMP_WAIT_POLICY=PASSIVE, and a user's own choice is kept."""
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    server = local.LocalModelServer(tmp_path / "model.gguf", port=1)
    assert server.environment()["OMP_WAIT_POLICY"] == "PASSIVE"
    assert server.environment()["SMH_CACHE"] == os.environ["SMH_CACHE"]  # the rest passed on
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    assert server.environment()["OMP_WAIT_POLICY"] == "ACTIVE"


async def test_a_death_record_does_not_name_the_next_server_on_its_port(
    private_cache: Path, socket_enabled
) -> None:
    """A crashed server's record outlives it; the port is then free and another server (CI: a
    test's fake server) may take it. That server's own 500 is its own, a server error, and the
    stale record is dropped (CI once scored a fake server's schema refusal as our crash)."""
    from tests.support.fake_openai import FakeOpenAI, serve_in_thread

    server = FakeOpenAI(script=[{"status": 500}], default={"content": "unused"})
    with serve_in_thread(server):
        port = int(server.base_url.split(":")[2].split("/")[0])
        status = private_cache / "run" / f"llama-server-{port}.json"
        status.parent.mkdir(parents=True)
        status.write_text(
            json.dumps({"pid": 1, "state": "died", "returncode": -11, "log": "/x/server.log"})
        )
        client = LLMClient(LLMConfig(base_url=server.base_url, model="m", max_retries=0))
        try:
            with pytest.raises(InfraError) as err:
                await client.chat([{"role": "user", "content": "hello"}])
        finally:
            await client.aclose()
    assert err.value.kind == "server_error" and "SIGSEGV" not in err.value.message
    assert not status.exists()
    # with nothing on the port, the same record names the crash
    status.write_text(json.dumps({"pid": 1, "state": "died", "returncode": -11, "log": "/x/l"}))
    assert "killed by signal SIGSEGV (11)" in str(server_death(f"http://127.0.0.1:{port}/v1"))
