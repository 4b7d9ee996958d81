"""One engine call for the replicas of many sweeps (``runner.run_family``): a GPU launch lasts
as long as its slowest replica, so one call rather than one per sweep. The call is made when
its arrays fit in ``FAMILY_MEMORY_FRACTION`` of a chunk's memory budget
(``family_arrays_bytes``); its backend is chosen once for all of them (``auto_backend``).
Used by ``reproduce`` (the sweeps with nothing stored yet: ``_unstored_grids``,
``_family_call``) and the atlas.
"""
from __future__ import annotations

import time
from pathlib import Path

#: the family's one engine call is made when its replicas' arrays fit in this fraction of
#: the memory budget of a chunk (runner.default_memory_budget); else each sweep runs alone
FAMILY_MEMORY_FRACTION = 0.5
#: the call holds its arrays about twice: on the host and the device (CUDA), or the engine's
#: outputs and the tables made from them (CPU)
FAMILY_COPIES = 2


def _unstored_grids(cfgs: dict, out: Path) -> dict:
    """name -> Grid of the sweeps of ``cfgs`` with nothing stored under ``out`` yet."""
    from diffsweep.sweep.store import CHUNKS  # noqa: PLC0415

    return {name: cfg.make_grid() for name, cfg in cfgs.items()
            if not ((out / name / CHUNKS).is_dir() and any((out / name / CHUNKS).iterdir()))}


def _family_call(grids: dict, backend: str, threads, progress, timings: dict, log):
    """Every replica of ``grids`` (the sweeps with nothing stored yet: ``_unstored_grids``) in
    one engine call (``runner.run_family``): a GPU launch lasts as long as its slowest replica,
    so one per sweep (a family of 20 sweeps) would cost 20 such spans. Sweeps with results
    already (a resumed reproduction) run on their own. Skipped when the replicas' arrays would
    not fit in FAMILY_MEMORY_FRACTION of a chunk's memory budget. Returns (name -> Results,
    stopped)."""
    if not grids:
        return {}, False
    pre, stopped, seconds = one_engine_call(grids, backend, threads, progress, log,
                                            "[family]", f"{len(grids)} sweeps", "each sweep")
    if seconds is not None:
        timings["family engine call"] = seconds
    return pre, stopped


def auto_backend(backend: str, grids, threads, log, tag: str = "[backend]") -> str:
    """``backend`` resolved once for all the replicas of ``grids`` (Grids, made only when
    'auto' has a device and CPU cores to choose between: ``engine.choose_backend``), the
    choice logged."""
    from diffsweep import engine  # noqa: PLC0415
    from diffsweep.engine.backend_choice import work_of_grids  # noqa: PLC0415

    name, why = engine.choose_backend(backend, lambda: work_of_grids(grids), threads)
    if why:
        log(f"{tag} {why}")
    return name


def one_engine_call(grids: dict, backend, threads, progress, log, tag: str, what: str,
                    alone: str):
    """Every replica of ``grids`` (name -> Grid) in one ``runner.run_family`` call, when their
    arrays fit in FAMILY_MEMORY_FRACTION of a chunk's memory budget (``reproduce`` and
    ``atlases``). Returns (name -> Results, stopped, the call's seconds); ({}, False, None)
    when it does not fit, and ``alone`` (what then runs on its own) is said."""
    from diffsweep import engine
    from diffsweep.sweep import runner  # noqa: PLC0415

    need = FAMILY_COPIES * family_arrays_bytes(grids, backend)
    budget = runner.default_memory_budget(engine.resolve_backend(backend))
    if need > FAMILY_MEMORY_FRACTION * budget:
        log(f"{tag} {need / 2**20:.0f} MiB of arrays: above {FAMILY_MEMORY_FRACTION:g} of the "
            f"{budget / 2**20:.0f} MiB budget, so {alone} runs alone")
        return {}, False, None
    n = sum(len(g) for g in grids.values())
    log(f"{tag} {what}, {n} replicas in one engine call")
    t0 = time.perf_counter()
    pre, stopped = runner.run_family(grids, backend, threads, progress)
    seconds = time.perf_counter() - t0
    meta = next(iter(pre.values())).meta if pre else {}
    log(f"{tag} {sum(len(r.replicas) for r in pre.values())} replicas in {seconds:.1f} s"
        + (" (stopped)" if stopped else "")
        + (f"; {meta['distinct_replicas']} of {meta['n_replicas']} distinct: each run once, its "
           "repeats copied" if "distinct_replicas" in meta else "")
        + plan_note(meta.get("cuda_plan"))
        + "".join(f"; {v['replicas']} on {b} in {v['wall_s']:.1f} s"
                  for b, v in meta.get("split", {}).items()))
    return pre, stopped, seconds


def plan_note(plan: dict | None) -> str:
    """How a CUDA call spread its replicas (``engine.cuda_plan``), for the log: '' on the CPU."""
    if not plan:
        return ""
    waves = plan.get("waves") or 1
    return (f"; cuda {plan['kernel']} kernel: {plan['warps']} tasks of up to {plan['per_warp']} "
            f"replicas for {plan['resident_warps']} resident warps"
            + (f", {waves} waves (tasks wait for a warp to finish)" if waves > 1 else ""))


def family_arrays_bytes(grids: dict, backend: str = "auto") -> int:
    """Input and output bytes of the arrays of one engine call over every replica of ``grids``
    (name -> Grid), as ``engine.simulate`` lays them out (``engine.arrays_bytes``: its launches,
    each padded to its largest replica), from each point's first-seed scenario, which stands
    for its seeds: a seed changes a point's delays or draws, not its dimensions. (The former
    estimate, a chunk's bytes per replica of the first and last points, doubled, counted 1 kB
    per transfer record as a table row: 8,044 MiB for a paper's quick sweeps with a web
    background, whose arrays are 227 MiB, so their one call was skipped.) A replica the
    grids share (the same scenario and seed) is counted once: the call runs it once
    (``diffsweep.engine.repeats``)."""
    from diffsweep import engine  # noqa: PLC0415
    from diffsweep.engine import repeats  # noqa: PLC0415

    points = [g.scenario(p, g.seeds[0]) for g in grids.values() for p in range(g.n_points)]
    seeds = [g.seeds for g in grids.values() for _ in range(g.n_points)]
    return engine.arrays_bytes([points[i] for i, k in repeats.distinct_points(points, seeds)
                                for _ in range(k)], backend)
