"""Issue 37: Home Assistant sets up an SMH entry whose home is a file without importing pydantic
(about 100 ms of a cold start): the home is read and validated by pydantic-core alone into the
model's plain form (:mod:`smh_core.homeenv.plain`). Checked in a fresh interpreter running a real
Home Assistant with Assist (``scripts/perf_ha.py``'s cold set-up, which asserts the entry set up),
since this test process has pydantic loaded already."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from smh_core.homeenv import plain
from smh_core.homeenv.engine import dump_home
from smh_core.homes.simulated import simulated_home

ROOT = Path(__file__).resolve().parents[2]


def test_an_entry_with_a_home_file_is_set_up_without_pydantic(tmp_path: Path) -> None:
    home_file = tmp_path / "complex.json"  # rooms with climates, programmes: the simulator runs
    home_file.write_text(dump_home(simulated_home("complex", 0)), encoding="utf-8")
    code = (
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        f"sys.path.insert(0, {str(ROOT / 'scripts')!r})\n"
        "import perf_ha\n"
        f"asyncio.run(perf_ha._cold('smh', {{}}, Path({str(home_file)!r}), None, True))\n"
        "print('LOADED', ' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr[-3000:]
    loaded = set(out.stdout.split("LOADED", 1)[1].split())
    assert "smh_core.homeenv.plain" in loaded and "custom_components.smh.light" in loaded
    pydantic_models = {"smh_core.homeenv.model", "smh_core.homeenv.rules"}
    if plain.usable():  # the schema was written for this pydantic-core
        assert not {m for m in loaded if m.split(".")[0] == "pydantic"}
        assert not pydantic_models & loaded
    else:  # another Home Assistant's pydantic-core: the entry set up with the pydantic models
        assert pydantic_models <= loaded
