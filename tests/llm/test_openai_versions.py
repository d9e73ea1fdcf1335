"""The LLM paths under the oldest openai client the integration meets in HA (the one HA 2026.2.3,
the oldest supported release, pins: 2.x) as well as the venv's 3.x (HA 2026.11 pins 3.x): the
integration runs inside HA with HA's pin, the CLI with the venv's. `make test` puts the oldest
pin beside the venv (bootstrap)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PINNED = REPO / ".venv" / "openai-oldest-ha"


def _oldest_pin() -> str:
    """The openai version HA's oldest supported release pins (tests/fixtures/ha_constraints)."""
    from custom_components.smh.compat import OLDEST_SUPPORTED

    constraints = REPO / "tests" / "fixtures" / "ha_constraints" / f"{OLDEST_SUPPORTED}.txt"
    return next(
        line for line in constraints.read_text().splitlines() if line.startswith("openai==")
    ).split("==")[1]


@pytest.mark.skipif(
    not PINNED.is_dir(),
    reason="the oldest HA's openai is not installed beside the venv "
    "(scripts/bootstrap.sh puts it in .venv/openai-oldest-ha)",
)
@pytest.mark.slow  # 20-45 s
def test_llm_tests_pass_with_the_manifest_openai_version() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PINNED), str(REPO)])}
    version = subprocess.run(
        [sys.executable, "-c", "import openai; print(openai.__version__)"],
        env=env,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    ).stdout.strip()
    assert version == _oldest_pin()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "tests/llm/test_llm_fallbacks.py",
            "tests/llm/test_llm_client.py",
            "tests/agent/test_agent_eia.py",
            "tests/agent/test_agent_dr.py",
            "tests/bench/test_infra_records.py",
        ],
        env=env,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-4000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
