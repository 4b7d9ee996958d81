"""Type stubs of diffsweep._engine_cpu_events: the CPU engine built with its packet-event hooks
(DS_EVENT_TRACE, cuda/engine/events.h); every function of diffsweep._engine_cpu, and run_events
(diffsweep.engine.events.record runs it; docs/traces.md)."""
import numpy as np
import numpy.typing as npt

from diffsweep._engine_cpu import *  # noqa: F403

event_bytes: int  # sizeof(PacketEvent): 32

def run_events(shape: dict[str, int], arrays: dict[str, npt.NDArray[np.generic]],
               max_event_bytes: int, until_slots: float
               ) -> tuple[dict[str, npt.NDArray[np.generic]], list[tuple[bytes, bool]]]:
    """Run one batch on one thread recording each replica's packet events (PacketEvent, 32
    bytes each, at most max_event_bytes of them; those before slot time until_slots); returns
    (the output arrays, [(events as bytes, truncated) per replica])."""
