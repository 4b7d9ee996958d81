"""progress: the progress of a run in replicas -- a tqdm bar and/or a callback, moved within a
chunk by polling the engine (``runner.run``, ``runner.run_family``)."""
from __future__ import annotations

import sys
import time

import pandas as pd

from diffsweep.core.results import Results

#: seconds between two looks at the engine's progress (and at a stop request) while a chunk runs
POLL_S = 0.25


class _Progress:
    """Progress of a run in replicas (fractions of a chunk in progress included): a tqdm bar
    (replicas done / total, simulated seconds per wall-second, ETA) and/or a callback
    ``callback(done, total)``. Within a chunk, ``poll`` reads the engine's replica-slots done
    (``RunControl.progress``) every ``POLL_S``, so that the bar and its ETA move while a chunk
    runs, whatever its size."""

    def __init__(self, enabled: bool, total: int, initial: int, desc: str, callback=None):
        self.bar = None
        self.sim_s = 0.0
        self.t0 = time.perf_counter()
        self.total = total
        self.committed = float(initial)  # replicas in finished chunks (and reused)
        self.callback = callback
        if enabled:
            from tqdm.auto import tqdm  # noqa: PLC0415

            self.bar = tqdm(total=total, initial=initial, desc=desc, unit="replica",
                            dynamic_ncols=True, file=sys.stderr, smoothing=0.1)

    def _show(self, pos: float) -> None:
        pos = min(float(pos), float(self.total))
        if self.bar is not None:
            step = int(pos) - int(self.bar.n)
            if step > 0:
                self.bar.update(step)
        if self.callback is not None:
            self.callback(pos, self.total)

    def grow(self, total: int) -> None:
        self.total = total
        if self.bar is not None:
            self.bar.total = total
            self.bar.refresh()

    def poll(self, control, chunk_replicas: int) -> None:
        done, total = control.progress()
        if total > 0:
            self._show(self.committed + chunk_replicas * min(1.0, done / total))

    def skip(self, n: int) -> None:
        """``n`` replicas found done (target_ci rounds)."""
        self.committed += n
        self._show(self.committed)

    def update(self, res: Results) -> None:
        rep = res.replicas
        if "duration_s" in rep.columns:
            self.sim_s += float(pd.to_numeric(rep["duration_s"], errors="coerce").sum())
        self.committed += len(rep)
        if self.bar is not None:
            wall = max(time.perf_counter() - self.t0, 1e-9)
            self.bar.set_postfix_str(f"{self.sim_s / wall:.3g} sim-s/s", refresh=False)
        self._show(self.committed)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
