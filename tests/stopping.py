"""Shared by the tests that stop an engine call from another thread."""
from __future__ import annotations

import threading
import time

from diffsweep.scenario.builders import kaur_vin


def short_and_long(n_short: int, n_long: int) -> list:
    """Replicas of 0.5 s (done in milliseconds) and of 20,000 s (never done in a test)."""
    short = kaur_vin(n_flows=2, rtp_ms=8.0, ef=None, duration_s=0.5, warmup_s=0.1)
    long = kaur_vin(n_flows=2, rtp_ms=8.0, ef=None, duration_s=20000.0, warmup_s=0.1)
    return [short] * n_short + [long] * n_long


def stop_soon(ctl, after_s: float, seen: list) -> threading.Thread:
    """A started thread that waits ``after_s``, notes ``ctl.progress()`` in ``seen`` and asks
    ``ctl`` to stop."""
    def go():
        time.sleep(after_s)
        seen.append(ctl.progress())
        ctl.request_stop()

    t = threading.Thread(target=go)
    t.start()
    return t


def stopped_call(call, after_s: float, within_s: float):
    """(EngineInterrupted, (replica-slots done, in the call) when stopped): ``call(ctl)`` run
    with a RunControl that a thread stops after ``after_s``; the call must raise
    EngineInterrupted, within ``within_s`` of its start."""
    import pytest

    from diffsweep.engine.execution import EngineInterrupted, RunControl

    ctl = RunControl()
    seen: list = []
    t = stop_soon(ctl, after_s, seen)
    t0 = time.perf_counter()
    with pytest.raises(EngineInterrupted) as ei:
        call(ctl)
    t.join()
    assert time.perf_counter() - t0 < within_s
    return ei.value, seen[0]
