"""tqdm without its monitor thread, for every progress bar of the project.

tqdm starts a monitor thread once a bar has lived ten seconds; it only tunes refresh rates, and
a thread that outlives a run trips Home Assistant's test harness (which fails a test that leaves
threads behind) and keeps a finished CLI waiting. Setting it off where each bar module imported
tqdm left it on wherever a module was used alone (an HA run without the embedded runner
imported)."""

from __future__ import annotations

from tqdm import tqdm

tqdm.monitor_interval = 0

__all__ = ["tqdm"]
