"""The sample homes the HA integration ships are what ``scripts/sample_homes.py`` writes from this
checkout's sources (the same bytes), each loads as a home, and the HACS zip carries them all."""

from __future__ import annotations

import sys
from pathlib import Path

from custom_components.smh.samples import SAMPLE_DIR, SAMPLES
from smh_core.homeenv.engine import load_home

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import build_hacs  # noqa: E402
import sample_homes  # noqa: E402


def test_shipped_samples_are_what_the_script_writes() -> None:
    wanted = sample_homes.sample_bytes()
    files = {s.file for s in SAMPLES.values() if s.file}
    assert set(wanted) == files == {p.name for p in SAMPLE_DIR.glob("*.json")}
    for name, data in wanted.items():
        assert (SAMPLE_DIR / name).read_bytes() == data, (
            f"{name} is stale: run python scripts/sample_homes.py"
        )
        assert load_home(SAMPLE_DIR / name).devices


def test_the_hacs_zip_carries_the_samples() -> None:
    entries = build_hacs.collect()
    assert {f"sample_homes/{s.file}" for s in SAMPLES.values() if s.file} <= set(entries)
