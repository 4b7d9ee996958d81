"""The Kaur & Vin replica every per-slot yardstick of issue 21 runs: an EF on-off source (T_on
10 ms) beside 1 TCP flow, or 64 flows with RTPs of 12-26 ms (`kv_replica`). slot_cost.py,
hot_sass.py, coalesce.py and ab.py run it in a child process (`child_env` puts this folder on
the child's path); gpu.py's `--case slot` runs it on a GPU. One definition, so that their
numbers are of the same replicas."""
from __future__ import annotations

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def kv_replica(n_flows: int, duration_s: float, warmup_s: float = 1.0, t_on_ms: float = 10.0,
               **kw):
    """The replica: `n_flows` TCP flows (RTPs spread over 12-26 ms from 8 flows on) and an EF
    on-off source of `t_on_ms` bursts over the Kaur & Vin dumbbell; `kw` to kaur_vin."""
    from diffsweep.scenario.builders import kaur_vin
    return kaur_vin(n_flows=n_flows, rtp_intervals=(12, 26, 8) if n_flows >= 8 else None,
                    ef="onoff", t_on_ms=t_on_ms, duration_s=duration_s, warmup_s=warmup_s, **kw)


def child_env(*paths: str, inherit: bool = True, threads: int | None = 1) -> dict:
    """The environment of a child run: PYTHONPATH this folder, then `paths`, then (`inherit`)
    the caller's own; OMP_NUM_THREADS `threads` (None: the caller's)."""
    env = dict(os.environ)
    own = [env["PYTHONPATH"]] if inherit and env.get("PYTHONPATH") else []
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), *paths, *own])
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    return env


def speed(p, runs: int = 3) -> dict:
    """A packed batch `p` run on the CPU with one thread, best of `runs`: replica-slots and
    bottleneck packets (link 0's departures) per second, and their counts (ab.py,
    cubic_cost.py)."""
    import time  # noqa: PLC0415

    from diffsweep.engine.compiled import run_packed  # noqa: PLC0415
    best = 1e9
    for _ in range(runs):
        t0 = time.perf_counter()
        out = run_packed(p, "cpu", threads=1)
        best = min(best, time.perf_counter() - t0)
    slots = int(out["slots_run"].sum())
    pkts = int(out["q_departures"][:, 0, :].sum())
    return {"replica_slots_per_s": slots / best, "bottleneck_pkts_per_s": pkts / best,
            "slots": slots, "bottleneck_pkts": pkts}
