"""tqdm without its monitor thread or a multiprocessing lock, for every progress bar of the project.

tqdm starts a monitor thread once a bar has lived ten seconds; it only tunes refresh rates, and
a thread that outlives a run trips Home Assistant's test harness (which fails a test that leaves
threads behind) and keeps a finished CLI waiting. Setting it off where each bar module imported
tqdm left it on wherever a module was used alone (an HA run without the embedded runner
imported).

The first bar also makes tqdm's write lock, which by default includes a multiprocessing lock
(12 ms: ``multiprocessing`` imported and a semaphore made) so that processes sharing a terminal
do not interleave their bars. SMH's bars are each written by one process, so a thread lock is
enough.
"""

from __future__ import annotations

import threading

from tqdm import tqdm

tqdm.monitor_interval = 0
tqdm.set_lock(threading.RLock())

__all__ = ["tqdm"]
