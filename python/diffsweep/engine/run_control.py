"""run_control: stop an engine call from another thread and read its progress (RunControl),
and what a stopped call raises (EngineInterrupted); both re-exported by ``diffsweep.engine.execution``."""
from __future__ import annotations

import numpy as np

from diffsweep.core.results import Results


class RunControl:
    """Stop a running ``simulate``/``execute`` from another thread and read its progress.

    The compiled engine releases the GIL and polls ``request_stop`` every few thousand slots
    of a replica (about a millisecond of CPU time), so a stop takes effect within ~1 s of
    wall time at any batch size; replicas that finished keep their results
    (:class:`EngineInterrupted`). One control serves one call at a time.
    """

    def __init__(self) -> None:
        # Words shared with the engine (cuda/batch.h, ControlWord): stop, replica-slots done,
        # replicas finished. The engine only adds to them, so several batches of one call add up.
        self._words = np.zeros(12, dtype=np.int64)  # cuda/batch.h ControlWord
        self._total = 0

    def request_stop(self) -> None:
        self._words[0] = 1

    @property
    def stop_requested(self) -> bool:
        return bool(self._words[0])

    def progress(self) -> tuple[int, int]:
        """(replica-slots done, replica-slots in the call); readable while it runs."""
        return int(self._words[1]), int(self._total)

    def wave_counts(self) -> dict:
        """What the wavefront schedule's stages were handed (``run_packed(..., wavefront=True)``
        on the CPU; all 0 otherwise), exact counts over the call: ``lane_rounds`` the live
        (replica, lane) items of its rounds, ``flow_items`` those with a flow event before their
        horizon (the compacted flow stage), ``flow_events`` the events they ran,
        ``queue_items`` the live replicas the queue stage ran; with ``wave_phases`` also
        ``slot_items`` the replica-slots of the slot phases, ``arrive_items`` those with
        arrivals, ``serve_items`` those with a link past its quick step, ``source_items``
        those with a source on or switching (cuda/batch.h ControlWord)."""
        w = self._words
        return {"lane_rounds": int(w[3]), "flow_items": int(w[4]), "flow_events": int(w[5]),
                "queue_items": int(w[6]), "slot_items": int(w[7]), "arrive_items": int(w[8]),
                "serve_items": int(w[9]), "source_items": int(w[10])}

    def add_up(self, parts) -> None:
        """This control's progress set to the sum of ``parts``' (RunControls of the pieces one
        call was split into: diffsweep.engine.hybrid), for whoever reads this one."""
        done = total = 0
        for c in parts:
            d, t = c.progress()
            done, total = done + d, total + t
        self._words[1], self._total = done, total

    def _start(self, total_slots: int) -> None:
        self._words[1:] = 0
        self._total = int(total_slots)


class EngineInterrupted(RuntimeError):
    """A run stopped through :class:`RunControl`. ``partial`` holds the tables of the replicas
    that finished (same schema and order as a full call restricted to them); ``finished`` their
    positions in the call's input."""

    def __init__(self, partial: Results, finished: np.ndarray, total: int) -> None:
        super().__init__(f"stopped: {len(finished)} of {total} replicas finished")
        self.partial = partial
        self.finished = finished
        self.total = total
