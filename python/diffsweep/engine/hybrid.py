"""hybrid: the ``cuda+cpu`` backend, one engine call run on the CUDA device and the CPU cores at
once (docs/design.md, "Choosing a backend").

A replica's result depends only on its scenario and seed, never on what runs it or beside what
(CPU = CUDA bit for bit), so a call's replicas can be split between the two engines and their
tables put back together in the call's order: the answer is the same bits as on either alone.
``backend_choice.assign`` splits them so that both are predicted to finish together (longest
first, each to the side that would finish first); the device's part runs in a thread (the
compiled engines release the GIL), the CPU's in this one, on ``threads`` OpenMP threads. A
``RunControl`` given to the call sees both parts' progress, and its stop reaches both.
"""
from __future__ import annotations

import threading
import time

import numpy as np

from diffsweep.engine.backend_choice import assign, slots_of
from diffsweep.engine.repeats import copy_to_repeats
from diffsweep.core.results import Results, sorted_tables
from diffsweep.engine.run_control import EngineInterrupted, RunControl

#: seconds between two passes of the thread that relays stop and progress to the parts
RELAY_S = 0.05


def simulate_both(simulate, scenarios, seeds, threads: int, lanes, control, engine_kw: dict,
                  device: str) -> Results:
    """``engine.simulate(scenarios, seeds, "cuda+cpu", threads, lanes, control, **engine_kw)``,
    given that ``simulate`` (engine's, called here with "cuda" and with "cpu"), the CPU
    threads (``threads``: all of them when the caller gave none) and the two engines' names
    (``device``)."""
    t0 = time.perf_counter()
    n_threads = int(threads)
    parts = {b: idx for b, idx in zip(("cuda", "cpu"),
                                      assign([slots_of(sc) for sc in scenarios], n_threads)) if idx}
    subs = {b: RunControl() for b in parts}
    if control is not None and control.stop_requested:  # stopped before it began
        for c in subs.values():
            c.request_stop()
    out: dict[str, Results] = {}
    errors: dict[str, BaseException] = {}
    wall: dict[str, float] = {}

    def run(b: str) -> None:
        t = time.perf_counter()
        try:
            out[b] = simulate([scenarios[i] for i in parts[b]], [seeds[i] for i in parts[b]], b,
                              n_threads if b == "cpu" else None, lanes, subs[b], **engine_kw)
        except BaseException as e:  # noqa: BLE001  (handed to the caller below)
            errors[b] = e
            for c in subs.values():  # a failed part stops the other
                c.request_stop()
        finally:
            wall[b] = time.perf_counter() - t

    workers = [threading.Thread(target=run, args=(b,), daemon=True) for b in parts if b != "cpu"]
    done = threading.Event()
    relay = threading.Thread(target=_relay, args=(control, subs, done), daemon=True)
    for w in workers:
        w.start()
    relay.start()
    try:
        if "cpu" in parts:
            run("cpu")
        for w in workers:
            w.join()
    finally:
        done.set()
        relay.join()
    failed = [e for e in errors.values() if not isinstance(e, EngineInterrupted)]
    if failed:
        raise failed[0]
    stopped = {b: e for b, e in errors.items() if isinstance(e, EngineInterrupted)}
    pieces = {b: (stopped[b].partial if b in stopped else out[b]) for b in parts}
    tables = sorted_tables([_renumbered(r, parts[b]) for b, r in pieces.items()])
    first = pieces.get("cuda", pieces.get("cpu"))
    meta = {**first.meta, "backend": "cuda+cpu", "device": device,
            "threads": n_threads, "wall_s": time.perf_counter() - t0,
            "n_replicas": len(scenarios),
            "slot_s": sorted({s for r in pieces.values() for s in r.meta.get("slot_s", [])}),
            "delay_rounding_ms_max": max(r.meta.get("delay_rounding_ms_max", 0.0)
                                         for r in pieces.values()),
            "split": {b: {"replicas": len(parts[b]), "wall_s": wall.get(b, 0.0)} for b in parts}}
    if "cuda" in pieces:
        for k in ("cuda_kernel", "cuda_plan"):
            if k in pieces["cuda"].meta:
                meta[k] = pieces["cuda"].meta[k]
    res = Results(**tables, meta=meta)
    if stopped:
        finished = [parts[b][int(i)] for b in parts
                    for i in (stopped[b].finished if b in stopped else range(len(parts[b])))]
        raise EngineInterrupted(res, np.sort(np.asarray(finished, dtype=np.int64)),
                                len(scenarios))
    return res


def _renumbered(res: Results, idx: list[int]) -> dict:
    """``res``'s tables with each row's replica (its place in its part) turned into its place
    in the whole call: each replica its own twin, under its call's number."""
    return copy_to_repeats(res, np.arange(len(idx), dtype=np.int64), idx).tables()


def _relay(control, subs: dict, done: threading.Event) -> None:
    """Until ``done``: the caller's stop to every part, the parts' progress to the caller."""
    while True:
        finished = done.wait(RELAY_S)
        if control is not None:
            if control.stop_requested:
                for c in subs.values():
                    c.request_stop()
            control.add_up(subs.values())
        if finished:
            return
