"""The LLM paths under the openai client version the HACS manifest pins (HA 2026.2.3's own
constraint, 2.x) as well as the venv's 3.x: the integration runs inside HA with the former,
the CLI with the latter. `make test` puts the pinned version beside the venv (bootstrap)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PINNED = REPO / ".venv" / "openai-manifest"


def _manifest_pin() -> str:
    manifest = json.loads((REPO / "custom_components" / "smh" / "manifest.json").read_text())
    return next(r for r in manifest["requirements"] if r.startswith("openai==")).split("==")[1]


@pytest.mark.skipif(not PINNED.is_dir(), reason="the manifest's openai is not installed beside the venv "
                                                "(scripts/bootstrap.sh puts it in .venv/openai-manifest)")
def test_llm_tests_pass_with_the_manifest_openai_version() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PINNED), str(REPO)])}
    version = subprocess.run([sys.executable, "-c", "import openai; print(openai.__version__)"], env=env,
                             capture_output=True, text=True, cwd=REPO, check=True).stdout.strip()
    assert version == _manifest_pin()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "tests/test_llm_fallbacks.py", "tests/test_llm_client.py", "tests/test_agent_eia.py",
                          "tests/test_agent_dr.py", "tests/test_infra_records.py"],
                         env=env, capture_output=True, text=True, cwd=REPO, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
