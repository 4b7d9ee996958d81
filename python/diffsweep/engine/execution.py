"""execution: an engine call: scenarios and seeds in, tables out (``simulate``), and a grid's
replicas run so, with the grid's columns on their tables (``execute``, ``execute_many``).

``simulate`` finds the replicas it holds more than once (``repeats``), groups the rest by shape
into launches (``launch_groups``; their arrays' bytes: ``arrays_bytes``), packs them, runs them
as one engine job on the backend chosen (``diffsweep.engine.compiled``; ``cuda+cpu``: split by
``hybrid``), reruns a replica whose access-link pools ran out, and turns each batch's output
arrays into tables (``diffsweep.engine.tables``).
"""
from __future__ import annotations

import os
import platform
import time
from typing import Sequence

import numpy as np
import pandas as pd

from diffsweep.core.errors import EngineError
from diffsweep.core.results import Results, sorted_tables
from diffsweep.engine import backend_choice, compiled, hybrid, repeats
from diffsweep.engine.pack import SHAPE_DIMS, Packed, layout, pack, replica_shape, shape_key
from diffsweep.engine.run_control import (EngineInterrupted,  # noqa: F401 (part of engine's API)
                                          RunControl)
from diffsweep.engine.tables import batch_tables, empty_results
from diffsweep.scenario import Scenario


def simulate(scenarios: Sequence[Scenario], seeds: Sequence[int], backend: str = "auto",
             threads: int | None = None, lanes: int | None = None,
             control: RunControl | None = None, merge_shapes: bool | None = None,
             clip_slots: int | None = None, replicas_per_task: int | None = None,
             warp_rounds: bool | None = None) -> Results:
    """Run every (scenario, seed) as one replica; tables indexed by ``replica`` (0..n-1).

    Replicas are grouped by shape bucket (``pack.shape_key``: flows rounded up to a power of
    two, links, sources), one packed batch each, and all batches run as one engine job
    (``compiled.run_family``: longest replicas first; on CUDA one launch, every replica resident);
    a replica's result does not depend on its batch, its padding or its place in the work list
    (its random numbers depend only on its seed). ``merge_shapes`` pads every group into one
    batch when that costs little memory (``_merged_groups``; off by default: the family job
    needs no padding). With a ``control`` whose stop is requested, raises
    :class:`EngineInterrupted` carrying the finished replicas' tables. ``clip_slots``,
    ``replicas_per_task`` and ``warp_rounds`` (see ``compiled.run_packed``) change how the engine
    slices the work, never a result. A replica the call holds more than once (the same
    scenario but for ``params``, the same seed: a family's sweeps share points) runs once and
    each repeat gets its tables (``diffsweep.engine.repeats``; ``meta["distinct_replicas"]``).
    """
    if len(scenarios) != len(seeds):
        raise ValueError("simulate: one seed per scenario")
    from diffsweep.engine.run_args import check_lanes, check_threads  # noqa: PLC0415
    check_threads(threads)  # a million threads crashed OpenMP
    check_lanes(lanes)
    first, twin = repeats.find_repeats(scenarios, seeds)
    args = (backend, threads, lanes, control, merge_shapes, clip_slots, replicas_per_task,
            warp_rounds)
    if len(first) == len(scenarios):
        return _simulate(scenarios, seeds, *args)
    counts = {"n_replicas": len(scenarios), "distinct_replicas": len(first)}
    try:
        res = _simulate([scenarios[i] for i in first], [seeds[i] for i in first], *args)
    except EngineInterrupted as e:  # the repeats of the replicas that finished, finished too
        done = np.nonzero(np.isin(twin, e.finished))[0]
        part = repeats.copy_to_repeats(e.partial, twin[done], done, counts)
        raise EngineInterrupted(part, done, len(scenarios)) from None
    return repeats.copy_to_repeats(res, twin, meta=counts)


def _simulate(scenarios, seeds, backend, threads, lanes, control, merge_shapes, clip_slots,
              replicas_per_task, warp_rounds) -> Results:
    """``simulate`` of distinct replicas."""
    name, why = compiled.choose_backend(backend,
                                        lambda: backend_choice.work_of_scenarios(scenarios),
                                        threads)
    if name == "cuda+cpu":  # the replicas split between the device and the cores
        kw = dict(merge_shapes=merge_shapes, clip_slots=clip_slots,
                  replicas_per_task=replicas_per_task, warp_rounds=warp_rounds)
        return hybrid.simulate_both(_simulate, scenarios, seeds,
                                    threads or compiled.cpu_threads(), lanes, control, kw,
                                    compiled.device_name(name))
    t0 = time.perf_counter()
    groups = launch_groups(scenarios, name, merge_shapes)
    parts = []
    packed = []
    for idx in groups.values():
        scs = [scenarios[i] for i in idx]
        k = lanes or compiled.default_lanes(name, max(s.n_flows for s in scs), len(scenarios))
        packed.append((idx, pack(scs, [int(seeds[i]) for i in idx], lanes=k)))
    if control is not None:
        control._start(sum(int(p.arrays["end_slot"].sum()) for _, p in packed))
    plan = (compiled.cuda_plan([p for _, p in packed], replicas_per_task) if name == "cuda"
            else None)
    finished: list[int] = []
    while packed:
        if control is not None and control.stop_requested:
            break
        jobs, packed = packed, []
        outs = compiled.run_family([p for _, p in jobs], name, threads, control, clip_slots,
                                   replicas_per_task, warp_rounds)
        for (idx, p), out in zip(jobs, outs):
            part = _finished_part(idx, p, out, scenarios, seeds, packed, finished, control)
            if part is not None:
                parts.append(part)
    stopped = len(finished) < len(scenarios)
    if stopped and not parts:
        raise EngineInterrupted(empty_results(name), np.zeros(0, dtype=np.int64),
                                len(scenarios))
    tables = sorted_tables(parts)
    meta = {"version": compiled.version(), "backend": name,
            **({"backend_choice": why} if why else {}),
            "device": compiled.device_name(name),
            "threads": int(threads or (compiled.cpu_threads() if name == "cpu" else 0)),
            "wall_s": time.perf_counter() - t0, "n_replicas": len(scenarios),
            "slot_s": sorted(set(float(v) for v in tables["replicas"]["slot_s"])),
            "delay_rounding_ms_max": float(tables["replicas"]["delay_rounding_ms"].max()),
            "host": platform.node(), "pid": os.getpid()}
    if plan is not None:
        meta["cuda_kernel"] = plan["kernel"]  # which build of the CUDA kernel ran (cuda_kernel)
        meta["cuda_plan"] = plan  # replicas per warp, tasks, resident warps (cuda_plan)
    res = Results(**tables, meta=meta)
    if stopped:
        raise EngineInterrupted(res, np.sort(np.asarray(finished, dtype=np.int64)), len(scenarios))
    return res


def _finished_part(idx: list[int], p: Packed, out: dict, scenarios, seeds, packed: list,
                   finished: list[int], control: RunControl | None) -> dict | None:
    """The tables of one batch's finished replicas (None: none finished). Replicas to run
    again go to ``packed``; those done to ``finished``; an engine limit raises EngineError."""
    pool_bit = _overflow_bit("access-link pool")
    done = out["slots_run"] >= p.arrays["end_slot"]
    if not done.all():
        if not done.any():
            return None
        keep = np.nonzero(done)[0]
        idx = [idx[int(r)] for r in keep]
        p, out = _select_replicas(p, out, keep)
    # A replica whose lanes' access-link pools ran out (pack's "compact" sizing) runs again
    # with pools that cannot run out: its results are those of the rerun, bit for bit the
    # same as with any large enough pool (docs/design.md, "Capacities").
    again = np.nonzero(out["overflow"] == pool_bit)[0] if p.nic_pool == "compact" else []
    if len(again):
        rerun = [idx[int(r)] for r in again]
        q = pack([scenarios[i] for i in rerun], [int(seeds[i]) for i in rerun],
                 lanes=p.shape["lanes"], nic_pool="full")
        packed.append((rerun, q))
        if control is not None:
            control._total += int(q.arrays["end_slot"].sum())
        keep = np.setdiff1d(np.arange(len(idx)), again)
        idx = [idx[int(r)] for r in keep]
        p, out = _select_replicas(p, out, keep)
        if not idx:
            return None
    finished.extend(idx)
    bad = np.nonzero(out["overflow"])[0]
    if len(bad):
        r = int(bad[0])
        what = [t for b, t in layout().overflow_bits.items() if out["overflow"][r] & b]
        raise EngineError(f"replica {idx[r]} (seed {seeds[idx[r]]}) exceeded an engine limit: "
                          f"{', '.join(what)}; {len(bad)} replica(s) affected. This is a bug in "
                          "the capacity planning of diffsweep.engine.pack; please report it.")
    return batch_tables(p, out, [scenarios[i] for i in idx], idx)


#: a merged launch may pad its arrays to at most this factor of the groups' own bytes ...
MERGE_PAD_FACTOR = 2.0
#: ... or by this many bytes, whichever is more
MERGE_PAD_BYTES = 256 << 20


def launch_groups(scenarios: Sequence[Scenario], backend: str,
                  merge_shapes: bool | None = None) -> dict:
    """The replicas (indices into ``scenarios``) of each batch ``simulate`` packs on the
    resolved ``backend``: one per shape bucket (``pack.shape_key``), merged into one with
    ``merge_shapes`` when padding costs little (``_merged_groups``)."""
    groups: dict[tuple, list[int]] = {}
    for i, sc in enumerate(scenarios):
        groups.setdefault(shape_key(sc), []).append(i)
    if merge_shapes:
        groups = _merged_groups(groups, scenarios)
    return groups


def _shapes(scenarios) -> list[dict]:
    """``pack.replica_shape`` of each scenario, once per distinct object (a point's seeds
    share theirs)."""
    memo: dict[int, dict] = {}
    return [memo.get(id(sc)) or memo.setdefault(id(sc), replica_shape(sc)) for sc in scenarios]


def _group_shape(shapes: list[dict], idx) -> dict:
    """The dimensions of one batch of the replicas ``idx``: each the largest of theirs."""
    return {k: max(shapes[i][k] for i in idx) for k in SHAPE_DIMS}


def _merged_groups(groups: dict, scenarios) -> dict:
    """One group of every replica when padding them to the largest shape costs little: at most
    MERGE_PAD_FACTOR times the groups' own input and output bytes, or MERGE_PAD_BYTES more
    (from every dimension pack sizes by the largest replica: a Rossi replica's 16,384 pool
    flows, or a web background's 384,504 transfer records, keep small replicas out of its
    launch)."""
    if len(groups) < 2:
        return groups
    shapes = _shapes(scenarios)
    own = sum(len(idx) * batch_bytes(_group_shape(shapes, idx)) for idx in groups.values())
    every = [i for idx in groups.values() for i in idx]
    merged = len(every) * batch_bytes(_group_shape(shapes, every))
    if merged > max(MERGE_PAD_FACTOR * own, own + MERGE_PAD_BYTES):
        return groups
    return {"all": sorted(every)}


def batch_bytes(dims: dict, n_replicas: int = 1) -> int:
    """Input and output bytes of ``n_replicas`` replicas in a batch of dimensions ``dims``
    (SHAPE_DIMS; any not given is 1): what pack's arrays and the engine's outputs take."""
    lay = layout()
    shape = {**{k: 1 for k in SHAPE_DIMS}, **dims, "n_replicas": 1}
    return n_replicas * sum(int(np.dtype(dt).itemsize) * int(np.prod(lay.axes(dim, shape)))
                            for dt, dim in (*lay.inputs.values(), *lay.outputs.values()))


def arrays_bytes(scenarios: Sequence[Scenario], backend: str = "auto",
                 merge_shapes: bool | None = None) -> int:
    """Input and output bytes of the arrays ``simulate(scenarios, ...)`` makes on ``backend``:
    its launches (``launch_groups``), each padded to its largest replica in every dimension,
    from ``pack.replica_shape`` (nothing packed). A replica rerun with full access-link pools
    adds a launch later, after the others' arrays are gone."""
    name = compiled.resolve_backend(backend, lambda: backend_choice.work_of_scenarios(scenarios))
    shapes = _shapes(scenarios)
    return sum(batch_bytes(_group_shape(shapes, idx), len(idx))
               for idx in launch_groups(scenarios, name, merge_shapes).values())


def _select_replicas(p: Packed, out: dict, keep: np.ndarray) -> tuple[Packed, dict]:
    """The rows ``keep`` of a batch and of its outputs (every array is replica-major)."""
    arrays = {k: v[keep] for k, v in p.arrays.items()}
    shape = dict(p.shape, n_replicas=len(keep))
    return (Packed(shape=shape, arrays=arrays, slot_s=p.slot_s[keep],
                   delay_rounding_ms=p.delay_rounding_ms[keep], nic_pool=p.nic_pool),
            {k: v[keep] for k, v in out.items()})


def _overflow_bit(name: str) -> int:
    return next(b for b, t in layout().overflow_bits.items() if t == name)



def execute(grid, rows: pd.DataFrame | None = None, backend: str = "auto",
            threads: int | None = None, lanes: int | None = None,
            control: RunControl | None = None) -> Results:
    """Run the replicas ``rows`` (a subset of ``grid.replicas``; all when None) and return
    tables that carry ``point``, ``seed`` and every grid column. When stopped through
    ``control``, raises :class:`EngineInterrupted` whose ``partial`` holds the finished
    replicas' tables in the same form."""
    rows = grid.replicas if rows is None else rows
    rows = rows.reset_index(drop=True)
    scs = [grid.scenario(int(r.point), int(r.seed)) for r in rows.itertuples()]
    try:
        res = simulate(scs, rows["seed"].tolist(), backend, threads, lanes, control)
    except EngineInterrupted as e:
        done = rows.iloc[e.finished].reset_index(drop=True)
        e.partial = _with_keys(done, e.partial, e.finished) if len(done) else e.partial
        raise
    return _with_keys(rows, res, np.arange(len(rows)))


def execute_many(jobs, backend: str = "auto", threads: int | None = None,
                 lanes: int | None = None, control: RunControl | None = None) -> list[Results]:
    """The replicas of several grids in one engine call: ``jobs`` is a list of (grid, rows or
    None for all); one Results per job, as ``execute`` gives it. One ``simulate`` call, so on
    CUDA a whole figure family is as few launches as its shapes and memory allow. Stopped
    through ``control``: EngineInterrupted whose ``partial`` is the list of per-job Results of
    the replicas that finished."""
    spans, scs, seeds = [], [], []
    for grid, rows in jobs:
        rows = (grid.replicas if rows is None else rows).reset_index(drop=True)
        spans.append((rows, len(scs)))
        scs += [grid.scenario(int(r.point), int(r.seed)) for r in rows.itertuples()]
        seeds += rows["seed"].tolist()
    try:
        res = simulate(scs, seeds, backend, threads, lanes, control)
    except EngineInterrupted as e:
        e.partial = [_job_part(e.partial, rows, a, e.finished) for rows, a in spans]
        raise
    every = np.arange(len(scs))
    return [_job_part(res, rows, a, every) for rows, a in spans]


def _job_part(res: Results, rows: pd.DataFrame, first: int, finished: np.ndarray) -> Results:
    """Job rows ``first .. first + len(rows) - 1`` of a joint run, those of them in
    ``finished``, with the job's grid columns."""
    ids = finished[(finished >= first) & (finished < first + len(rows))]
    tabs = {}
    for name, df in res.tables().items():
        if "replica" in df.columns and len(df):
            df = df[df["replica"].isin(ids)]
        tabs[name] = df
    return _with_keys(rows.iloc[ids - first].reset_index(drop=True),
                      Results(**tabs, meta=res.meta), ids)


def _with_keys(rows: pd.DataFrame, res: Results, replica_ids: np.ndarray) -> Results:
    """Join the grid's columns onto engine tables whose ``replica`` ids are ``replica_ids``."""
    keys = rows.assign(replica=replica_ids)
    out = {}
    for name, df in res.tables().items():
        if df.empty and "replica" not in df.columns:
            df = pd.DataFrame(columns=["replica"])
        merged = keys.merge(df, on="replica", how="inner" if name != "replicas" else "left",
                            suffixes=("_grid", ""))
        out[name] = _resolve_clashes(merged, set(keys.columns) & set(df.columns) - {"replica"})
    return Results(**out, meta=res.meta)


def _resolve_clashes(df: pd.DataFrame, clashing: set[str]) -> pd.DataFrame:
    """A grid column named like an engine column (``n_flows``, ``rtp_ms``): one column when
    they agree on every row; otherwise the engine's per-row value keeps the name and the
    grid's is kept as ``<name>_grid`` (docs/api.md)."""
    df = df.drop(columns=["replica"])
    for c in sorted(clashing):
        g = f"{c}_grid"
        try:
            same = bool((df[g].astype(object).to_numpy()
                         == df[c].astype(object).to_numpy()).all())
        except (ValueError, TypeError):
            same = False
        if same:
            df = df.drop(columns=[g])
    return df
