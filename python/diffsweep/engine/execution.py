"""engine: choose a backend, run packed batches, turn the output arrays into tables.

The compiled modules are ``diffsweep._engine_cpu`` (always built) and
``diffsweep._engine_cuda`` (built when nvcc was found). Both take the same arrays
(``cuda/batch.h``) and give bit-identical results per replica.
"""
from __future__ import annotations

import importlib
import os
import platform
import time
from typing import Sequence

import numpy as np
import pandas as pd

from diffsweep.engine import backend_choice, hybrid, repeats
from diffsweep.core.errors import BackendError, ConfigError, EngineError
from diffsweep.engine.pack import SHAPE_DIMS, Packed, layout, pack, replica_shape, shape_key
from diffsweep.core.results import Results, sorted_tables
from diffsweep.engine.rounding import rtp_run_ms
from diffsweep.engine.run_control import (EngineInterrupted,  # noqa: F401 (part of engine's API)
                                          RunControl)
from diffsweep.scenario import COLOURS, Scenario

BACKENDS = ("auto", "cpu", "cuda", "cuda+cpu")


def _module(name: str):
    try:
        return importlib.import_module(f"diffsweep._engine_{name}")
    except ImportError:
        return None


def version() -> str:
    """The installed package's version; from a source tree (PYTHONPATH=python, not installed)
    pyproject.toml's with "+source" (reports and stores say which code made them)."""
    try:
        from importlib.metadata import version as v
        return v("diffsweep")
    except Exception:  # running from a source tree
        import re  # noqa: PLC0415
        from pathlib import Path  # noqa: PLC0415
        try:
            text = (Path(__file__).resolve().parents[3] / "pyproject.toml").read_text()
            m = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
        except OSError:
            m = None
        return f"{m.group(1)}+source" if m else "0+unknown"


def cuda_devices() -> int:
    m = _module("cuda")
    return int(m.device_count()) if m is not None else 0


def cuda_free_bytes() -> int:
    """Free memory of CUDA device 0 in bytes; 0 without a CUDA engine or device."""
    m = _module("cuda")
    return int(m.memory_info()[0]) if m is not None and m.device_count() > 0 else 0


def resolve_backend(backend: str, work=None, threads: int | None = None) -> str:
    """The backend that runs: ``choose_backend``'s."""
    return choose_backend(backend, work, threads)[0]


def choose_backend(backend: str, work=None, threads: int | None = None) -> tuple[str, str]:
    """(backend, why). 'auto' runs on the CPU without a CUDA engine or device; with both, on
    what ``backend_choice`` predicts fastest for ``work`` (cpu, cuda or cuda+cpu; ``work``: a
    ``backend_choice.Work``, or a function making one, called only then) on ``threads`` CPU
    threads (None: all), with its reason as ``why``; without ``work``, on the device."""
    if backend not in BACKENDS:
        raise ConfigError(f"backend: {backend!r} is not allowed (expected one of {', '.join(BACKENDS)})")
    if backend == "cpu":
        return "cpu", ""
    m = _module("cuda")
    if backend != "auto":  # cuda, or cuda+cpu: both at once (diffsweep.engine.hybrid)
        if m is None:
            raise BackendError(f"backend {backend!r}: this diffsweep was built without the CUDA "
                               "engine (no nvcc at build time); use backend='cpu' or rebuild with the CUDA toolkit")
        if m.device_count() == 0:
            raise BackendError(f"backend {backend!r}: the CUDA engine is built but no CUDA device "
                               "is visible (driver missing or no GPU); use backend='cpu'")
        return backend, ""
    if m is None or m.device_count() == 0:
        return "cpu", ""
    cpu = _module("cpu")
    if work is None or cpu is None:
        return "cuda", ""
    return backend_choice.choose(work() if callable(work) else work,
                                 int(threads or cpu.max_threads()))


def info() -> dict:
    """What `diffsweep info` prints: version, backends built, threads, CUDA device."""
    cpu = _module("cpu")
    cuda = _module("cuda")
    return {
        "version": version(),
        "python": platform.python_version(),
        "backends_built": [b for b, m in (("cpu", cpu), ("cuda", cuda)) if m is not None],
        "openmp_threads": int(cpu.max_threads()) if cpu is not None else 0,
        "cuda_built": cuda is not None,
        "cuda_devices": int(cuda.device_count()) if cuda is not None else 0,
        "cuda_device": (cuda.device_name() if cuda is not None and cuda.device_count() else ""),
        "auto_backend": ("none" if cpu is None and cuda is None else "cpu" if not cuda_devices()
                         else "per run, the predicted fastest of cpu, cuda and cuda+cpu"),
        # backend_choice's constants (DIFFSWEEP_AUTO_MODEL overrides them)
        "auto_model": dict(zip(("cpu_us_per_slot", "cuda_slot_us", "cuda_slots_per_s"),
                               backend_choice.model())),
    }


def state_bytes(packed_shape: dict) -> int:
    """Engine state per replica in bytes for a batch shape."""
    return int(_module("cpu").state_bytes(packed_shape))


def state_sections(packed_shape: dict) -> dict[str, int]:
    """Engine state per running replica, part by part (bytes, in the block's order)."""
    return {str(k): int(v) for k, v in _module("cpu").state_sections(packed_shape)}


def device_name(backend: str) -> str:
    """What runs a backend's replicas: the CUDA device's name, else the processor's."""
    if backend == "cuda+cpu":
        return f"{device_name('cuda')} + {device_name('cpu')}"
    if backend == "cuda":
        m = _module("cuda")
        return str(m.device_name() or "cuda") if m is not None else "cuda"
    return platform.processor() or platform.machine()


def _resident_warps(full: bool) -> int:
    """Warps CUDA device 0 keeps resident at once on the full (else slim) kernel; 0 without
    a CUDA build or device."""
    m = _module("cuda")
    return int(m.resident_warps(full)) if m is not None else 0


def default_lanes(backend: str, max_flows: int, n_replicas: int = 0,
                  resident_warps: int | None = None) -> int:
    """Team size per replica. The CPU runs a team as a loop, so one lane is fastest there. On
    a GPU, lanes share the flows of a replica: one thread for 1-2 flows, up to a warp for
    many, while a job fills the device. Measured (benchmarks/gpu/gpu.md): on an H100 64-flow Kaur
    & Vin replicas ran at 25 / 63 / 103 M replica-slots/s with 1 / 4 / 16 lanes at 4,096
    replicas (2026-11-25), and the full family's engine call (10,560 replicas, shared rounds)
    took 56.8 s with teams (the engine's choice: 3,618 tasks of up to 32 replicas, two to a
    64-flow warp, for 3,168 resident warps), 62.5 s with one lane each at 8 per warp (1,323
    tasks) (2026-11-26; :func:`cuda_plan`).

    A job of ``n_replicas`` that the device keeps resident one per warp on the full kernel
    (``resident_warps``; default: the CUDA module's count, 2,640 warps on an H100) runs
    one lane per replica of up to 128 flows instead: each replica then has a warp of its
    own and a team would only add its syncs: the quick Kaur & Vin family (1,104 replicas)
    6.85 -> 5.94 s on an H100 (2026-11-26), 8.16 -> 7.66 s on an H200. Above 128 flows the
    teams stay (unmeasured with one lane)."""
    if backend != "cuda" or max_flows <= 2:
        return 1
    if max_flows <= 128 and n_replicas > 0:
        if n_replicas <= (_resident_warps(True) if resident_warps is None else resident_warps):
            return 1
    return 4 if max_flows <= 8 else 8 if max_flows <= 32 else 16 if max_flows <= 128 else 32


def run_packed(p: Packed, backend: str, threads: int | None = None,
               control: RunControl | None = None, clip_slots: int | None = None,
               replicas_per_task: int | None = None, warp_rounds: bool | None = None) -> dict:
    """Run one packed batch; returns the engine's output arrays, reshaped per dimension.

    ``clip_slots``: rounds end at least every so many slots (0: never; default: the engine's
    stop-poll interval, ``info()["poll_slots"]``). ``replicas_per_task``: on the CPU, replicas
    one thread steps together, piece by piece (default 1; 32 runs them grouped as a GPU warp
    does); on CUDA, at most so many replicas per warp (default: the fewest with which every
    warp of the job is resident at once, cuda/engine/family.h ``spread_per_warp``).
    ``warp_rounds``: the replicas a warp (on the CPU: a task of ``replicas_per_task``) steps
    together share each round, its horizon the nearest of theirs, so that they run the same
    slots in the same phase (default: on for cuda, where it measured 1.45x on the full Kaur &
    Vin family; off on the CPU, where each replica's own rounds are 5-7% cheaper). No
    result depends on any of the three: tests run one batch under many schedules
    (tests/test_schedule.py)."""
    return run_family([p], backend, threads, control, clip_slots, replicas_per_task,
                      warp_rounds)[0]


def cuda_kernel(ps: Sequence[Packed]) -> str:
    """The CUDA kernel that runs these packed batches as one job (:func:`run_family`): "slim"
    (every rare model compiled out, a kernel of ~16k instructions against ~36k) when no
    replica uses an edge conditioner, AQM, traffic generator, application, traced flow,
    TCP-aware tag, a non-green packet, a validation hook (a lossy link, injected drops) or a
    SACK sender; else "full". The CUDA backend's own decision
    (cuda/engine/features.h ``family_kernel_name``); ``DIFFSWEEP_CUDA_KERNEL=full`` in the
    environment forces the full one. No result depends on it."""
    m = _module("cpu") or _module("cuda")
    return str(m.cuda_kernel([p.shape for p in ps], [_flat(p) for p in ps]))


def cuda_plan(ps: Sequence[Packed], replicas_per_task: int | None = None,
              resident_warps: int | None = None) -> dict:
    """How the CUDA backend spreads these packed batches over the warps as one job
    (cuda/engine/family.h): ``kernel`` (:func:`cuda_kernel`), ``resident_warps`` (that
    kernel's on CUDA device 0; 0 without one), ``per_warp`` (the most replicas a warp takes; a
    shape's team of lanes allows 32 / lanes), ``warps`` (the tasks that makes) and ``waves``
    (tasks over resident warps, rounded up: above 1, tasks wait for a warp to finish). No
    result depends on it; a run's ``meta["cuda_plan"]``."""
    kernel = cuda_kernel(ps)
    if resident_warps is None:
        resident_warps = _resident_warps(kernel == "full")
    plan = dict((_module("cpu") or _module("cuda")).family_plan(
        [p.shape for p in ps], int(resident_warps), int(replicas_per_task or 0)))
    return {"kernel": kernel, "resident_warps": int(resident_warps), **plan,
            "waves": -(-plan["warps"] // resident_warps) if resident_warps else None}


def _flat(p: Packed) -> dict:
    """A packed batch's arrays as the compiled module takes them: flat, C-contiguous."""
    return {k: np.ascontiguousarray(v).reshape(-1) for k, v in p.arrays.items()}


def _checked_count(name: str, v, allowed: str, lo: int = 0, hi: int = 2**31) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= int(v) < hi:
        raise ValueError(f"{name} = {v!r} is not allowed (expected {allowed})")
    return int(v)


def run_family(ps: Sequence[Packed], backend: str, threads: int | None = None,
               control: RunControl | None = None, clip_slots: int | None = None,
               replicas_per_task: int | None = None,
               warp_rounds: bool | None = None) -> list[dict]:
    """Run several packed batches (a figure family, one batch per shape) as one engine job:
    one work list over all their replicas, longest first (cuda/engine/family.h); on CUDA one
    launch while their state fits the device. Returns each batch's output arrays, as
    :func:`run_packed` does; options as there."""
    name = resolve_backend(backend, lambda: backend_choice.work_of_packed(ps), threads)
    m = _module(name)
    if m is None:
        raise BackendError(f"backend {name!r} is not built")
    extra = {}
    if clip_slots is not None:
        extra["clip_slots"] = _checked_count("clip_slots", clip_slots,
                                             "an integer >= 0; 0: rounds not clipped")
    if warp_rounds is not None:
        if not isinstance(warp_rounds, (bool, np.bool_)):
            raise ValueError(f"warp_rounds = {warp_rounds!r} is not allowed (expected True or "
                             "False)")
        extra["warp_rounds"] = int(warp_rounds)
    per_task = 0 if replicas_per_task is None else _checked_count(
        "replicas_per_task", replicas_per_task, "an integer in 1..1024", 1, 1025)
    shapes = [{**p.shape, **extra} for p in ps]
    arrays = [_flat(p) for p in ps]
    kw = {}
    if control is not None:
        kw["control"] = control._words
    outs = m.run_family(shapes, arrays, threads=int(threads or 0), replicas_per_task=per_task, **kw)
    lay = layout()
    return [{k: np.asarray(v).reshape(lay.axes(lay.outputs[k][1], p.shape)) for k, v in out.items()}
            for p, out in zip(ps, outs)]


def simulate(scenarios: Sequence[Scenario], seeds: Sequence[int], backend: str = "auto",
             threads: int | None = None, lanes: int | None = None,
             control: RunControl | None = None, merge_shapes: bool | None = None,
             clip_slots: int | None = None, replicas_per_task: int | None = None,
             warp_rounds: bool | None = None) -> Results:
    """Run every (scenario, seed) as one replica; tables indexed by ``replica`` (0..n-1).

    Replicas are grouped by shape bucket (``pack.shape_key``: flows rounded up to a power of
    two, links, sources), one packed batch each, and all batches run as one engine job
    (:func:`run_family`: longest replicas first; on CUDA one launch, every replica resident);
    a replica's result does not depend on its batch, its padding or its place in the work list
    (its random numbers depend only on its seed). ``merge_shapes`` pads every group into one
    batch when that costs little memory (``_merged_groups``; off by default: the family job
    needs no padding). With a ``control`` whose stop is requested, raises
    :class:`EngineInterrupted` carrying the finished replicas' tables. ``clip_slots``,
    ``replicas_per_task`` and ``warp_rounds`` (see :func:`run_packed`) change how the engine
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
    name, why = choose_backend(backend, lambda: backend_choice.work_of_scenarios(scenarios), threads)
    if name == "cuda+cpu":  # the replicas split between the device and the cores
        kw = dict(merge_shapes=merge_shapes, clip_slots=clip_slots,
                  replicas_per_task=replicas_per_task, warp_rounds=warp_rounds)
        return hybrid.simulate_both(_simulate, scenarios, seeds,
                                    threads or _module("cpu").max_threads(), lanes, control, kw,
                                    device_name(name))
    t0 = time.perf_counter()
    groups = launch_groups(scenarios, name, merge_shapes)
    parts = []
    packed = []
    for idx in groups.values():
        scs = [scenarios[i] for i in idx]
        k = lanes or default_lanes(name, max(s.n_flows for s in scs), len(scenarios))
        packed.append((idx, pack(scs, [int(seeds[i]) for i in idx], lanes=k)))
    if control is not None:
        control._start(sum(int(p.arrays["end_slot"].sum()) for _, p in packed))
    plan = cuda_plan([p for _, p in packed], replicas_per_task) if name == "cuda" else None
    finished: list[int] = []
    while packed:
        if control is not None and control.stop_requested:
            break
        jobs, packed = packed, []
        outs = run_family([p for _, p in jobs], name, threads, control, clip_slots,
                          replicas_per_task, warp_rounds)
        for (idx, p), out in zip(jobs, outs):
            part = _finished_part(idx, p, out, scenarios, seeds, packed, finished, control)
            if part is not None:
                parts.append(part)
    stopped = len(finished) < len(scenarios)
    if stopped and not parts:
        raise EngineInterrupted(_empty_results(name), np.zeros(0, dtype=np.int64), len(scenarios))
    tables = sorted_tables(parts)
    meta = {"version": version(), "backend": name, **({"backend_choice": why} if why else {}),
            "device": device_name(name),
            "threads": int(threads or (_module("cpu").max_threads() if name == "cpu" else 0)),
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
    return _tables(p, out, [scenarios[i] for i in idx], idx)


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
    name = resolve_backend(backend, lambda: backend_choice.work_of_scenarios(scenarios))
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


def _empty_results(backend: str) -> Results:
    cols = {"replicas": ["replica"], "flows": ["replica", "flow"], "queues": ["replica", "link"],
            "sources": ["replica", "source"], "intervals": ["replica", "flow", "interval"],
            "transfers": ["replica", "traffic"], "traffic": ["replica", "traffic"],
            "cwnd_trace": ["replica", "flow", "t_s", "cwnd_pkts"]}
    return Results(**{k: pd.DataFrame(columns=v) for k, v in cols.items()},
                   meta={"backend": backend, "n_replicas": 0})


def _tables(p: Packed, out: dict, scs: list[Scenario], idx: list[int]) -> dict:
    a = p.arrays
    R = len(scs)
    slot = p.slot_s
    end = a["end_slot"].astype(float)
    warm = a["warmup_slot"].astype(float)
    measured = (end - warm) * slot
    rep = np.asarray(idx)

    rows_f = [(r, f) for r, sc in enumerate(scs) for f in range(len(sc.flows))]
    fr = np.array([r for r, _ in rows_f], dtype=int)
    ff = np.array([f for _, f in rows_f], dtype=int)
    delivered = out["flow_delivered_bytes"][fr, ff]
    samples = out["flow_rtt_samples"][fr, ff]
    with np.errstate(invalid="ignore", divide="ignore"):
        rtt_mean = out["flow_rtt_sum_slots"][fr, ff] / samples * slot[fr]
        rto_mean = out["flow_rto_sum_slots"][fr, ff] / samples * slot[fr]
    finish = out["flow_finish_slot"][fr, ff].astype(float)
    flows = pd.DataFrame({
        "replica": rep[fr], "flow": ff,
        "variant": [scs[r].flows[f].variant for r, f in rows_f],
        "rtp_ms": [scs[r].flow_rtp_ms(f) for r, f in rows_f],
        # the round trip as it ran, in whole slots (docs/model.md, "Time"; diffsweep.engine.rounding)
        "rtp_ms_run": rtp_run_ms(a, slot)[fr, ff],
        "segment_bytes": a["flow_payload_bytes"][fr, ff].astype(np.int64),
        "header_bytes": (a["flow_wire_bytes"][fr, ff] - a["flow_payload_bytes"][fr, ff]).astype(np.int64),
        "max_window_pkts": a["flow_max_window"][fr, ff].astype(np.int64),
        "delivered_bytes": delivered,
        "goodput_bps": delivered * 8.0 / measured[fr],
        "pkts_sent": out["flow_pkts_sent"][fr, ff],
        "retransmits": out["flow_retransmits"][fr, ff],
        "timeouts": out["flow_timeouts"][fr, ff],
        "fast_retransmits": out["flow_fast_retransmits"][fr, ff],
        "drops": out["flow_drops"][fr, ff],
        "rtt_mean_s": rtt_mean, "rto_mean_s": rto_mean,
        "finish_s": np.where(finish >= 0, finish * slot[fr], np.nan),
    })
    # The aggregate (edge conditioner) a flow belongs to: "" for none; a flow conditioned in
    # two domains belongs to the conditioner it meets first.
    member = []
    for sc in scs:
        m: dict[int, tuple[int, str]] = {}
        for mk in sc.markers:
            for i in mk.flows:
                route = sc.flows[i].route
                at = route.index(mk.link) if mk.link in route else len(route)
                if i not in m or at < m[i][0]:
                    m[i] = (at, mk.name)
        member.append({i: name for i, (_, name) in m.items()})
    flows["aggregate"] = [member[r].get(f, "") for r, f in rows_f]
    if any(fl.telnet_interval_s is not None for sc in scs for fl in sc.flows):
        # Telnet-like flows: each segment's delay from its write to its delivery (the engine
        # sums them less the constant delays after the last link and the access delay).
        n_app = out["flow_app_delivered"][fr, ff]
        post_s = np.array([scs[r].after_last_link_ms(scs[r].flows[f]) / 1e3 for r, f in rows_f])
        total_s = out["flow_app_delay_sum_slots"][fr, ff] * slot[fr] + n_app * post_s
        flows["app_segments"] = n_app
        flows["app_delay_sum_s"] = total_s
        with np.errstate(invalid="ignore", divide="ignore"):
            flows["app_delay_mean_s"] = np.where(n_app > 0, total_s / n_app, np.nan)
    # DiffServ colours (green, yellow, red): packets into the network after marking, early
    # (RED) and forced (RED beyond max_th, or the buffer) drops.
    for k, col in enumerate(COLOURS):
        flows[f"pkts_{col}"] = out["flow_colour_pkts"][fr, ff, k]
    for kind in ("early", "forced"):
        for k, col in enumerate(COLOURS):
            flows[f"{kind}_drops_{col}"] = out[f"flow_{kind}_drops"][fr, ff, k]
    goodput = np.zeros(R)
    np.add.at(goodput, fr, flows["goodput_bps"].to_numpy())
    replicas = pd.DataFrame({
        "replica": rep, "slot_s": slot, "duration_s": end * slot, "warmup_s": warm * slot,
        "measured_s": measured, "n_flows": np.array([sc.n_flows for sc in scs], dtype=np.int64),
        "tcp_goodput_bps": goodput, "delay_rounding_ms": p.delay_rounding_ms,
        "slots_run": out["slots_run"],
    })

    rows_q = [(r, l, c) for r, sc in enumerate(scs) for l, link in enumerate(sc.links)
              for c in range(len(link.classes))]
    qr, ql, qc = (np.array(v, dtype=int) for v in zip(*rows_q))
    msl = measured[qr] / slot[qr]
    queues = pd.DataFrame({
        "replica": rep[qr], "link": ql, "cls_index": qc,
        "cls": [scs[r].links[l].classes[c].name for r, l, c in rows_q],
        "rate_bps": [scs[r].links[l].rate_bps for r, l, c in rows_q],
        "arrivals": out["q_arrivals"][qr, ql, qc], "departures": out["q_departures"][qr, ql, qc],
        "drops": out["q_drops"][qr, ql, qc], "random_drops": out["q_random_drops"][qr, ql, qc],
        "bytes_departed": out["q_bytes_departed"][qr, ql, qc],
        "mean_queue_pkts": out["q_pkt_slots"][qr, ql, qc] / msl,
        "mean_queue_bytes": out["q_byte_slots"][qr, ql, qc] / msl,
        "max_delay_s": out["q_max_delay_slots"][qr, ql, qc] * slot[qr],
        "aqm": [scs[r].links[l].classes[c].aqm for r, l, c in rows_q],
    })
    for k, col in enumerate(COLOURS):
        queues[f"arrivals_{col}"] = out["q_colour_arrivals"][qr, ql, qc, k]
    for kind in ("early", "forced"):
        for k, col in enumerate(COLOURS):
            queues[f"{kind}_drops_{col}"] = out[f"q_{kind}_drops"][qr, ql, qc, k]
    has_aqm = (queues["aqm"] != "droptail").to_numpy()
    for k, col in enumerate(COLOURS):  # time average of the RED average governing the colour
        avg = out["q_red_avg_slots"][qr, ql, qc, k] / msl
        queues[f"red_avg_{col}"] = np.where(has_aqm, avg, np.nan)

    rows_s = [(r, s) for r, sc in enumerate(scs) for s in range(len(sc.sources))]
    if rows_s:
        sr, ss = (np.array(v, dtype=int) for v in zip(*rows_s))
        on = out["src_on_slots"][sr, ss] * slot[sr]
        bursts = out["src_bursts"][sr, ss]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_on = np.where(bursts > 0, on / bursts, np.nan)
        sources = pd.DataFrame({
            "replica": rep[sr], "source": ss, "name": [scs[r].sources[s].name for r, s in rows_s],
            "pkts_emitted": out["src_pkts"][sr, ss], "bytes_emitted": out["src_bytes"][sr, ss],
            "on_fraction": on / measured[sr], "bursts": bursts, "mean_on_s": mean_on,
            "delivered_bytes": out["src_delivered_bytes"][sr, ss],
            "throughput_bps": out["src_delivered_bytes"][sr, ss] * 8.0 / measured[sr],
        })
    else:
        sources = pd.DataFrame(columns=["replica", "source", "name", "pkts_emitted", "bytes_emitted",
                                        "on_fraction", "bursts", "mean_on_s", "delivered_bytes",
                                        "throughput_bps"])

    rows_i = []
    for r, sc in enumerate(scs):
        ivs = int(a["interval_slots"][r])
        if ivs <= 0:
            continue
        for k in range(p.shape["max_intervals"]):
            start, stop = k * ivs, (k + 1) * ivs
            if start >= a["warmup_slot"][r] and stop <= a["end_slot"][r]:
                for f in range(len(sc.flows)):
                    rows_i.append((r, f, k, start, ivs))
    if rows_i:
        ir, fi, ki, st, ln = (np.array(v) for v in zip(*rows_i))
        intervals = pd.DataFrame({
            "replica": rep[ir], "flow": fi, "interval": ki, "t_start_s": st * slot[ir],
            "goodput_bps": out["interval_bytes"][ir, fi, ki] * 8.0 / (ln * slot[ir]),
        })
    else:
        intervals = pd.DataFrame(columns=["replica", "flow", "interval", "t_start_s", "goodput_bps"])
    transfers, traffic = _traffic_tables(out, scs, rep, slot)
    return {"replicas": replicas, "flows": flows, "queues": queues, "sources": sources,
            "intervals": intervals, "transfers": transfers, "traffic": traffic,
            "cwnd_trace": _trace_table(a, out, scs, rep, slot)}


def _trace_table(a: dict, out: dict, scs: list[Scenario], rep: np.ndarray,
                 slot: np.ndarray) -> pd.DataFrame:
    """One row per traced flow and sample: ``t_s`` (k x trace_interval_s) and ``cwnd_pkts``,
    the window in force at that time (engine/flow_side.h: trace_until)."""
    parts = []
    for r, sc in enumerate(scs):
        n = int(a["trace_samples"][r])
        if n <= 0:
            continue
        t = np.arange(n) * a["trace_interval_slots"][r] * slot[r]
        for j, f in enumerate(sc.trace_flows):
            parts.append(pd.DataFrame({"replica": rep[r], "flow": f, "t_s": t,
                                       "cwnd_pkts": out["trace_cwnd"][r, :n, j].astype(float)}))
    if not parts:
        return pd.DataFrame(columns=["replica", "flow", "t_s", "cwnd_pkts"])
    return pd.concat(parts, ignore_index=True)


TRANSFER_COLUMNS = ["replica", "traffic", "slot", "cls", "size_pkts", "start_s", "end_s",
                    "completion_s", "first_s",
                    "pkts_sent", "retransmits", "timeouts", "drops", "early_drops", "pkts_red"]
TRAFFIC_COLUMNS = ["replica", "traffic", "cls", "kind", "pool", "started", "completed",
                   "unfinished", "refused", "records_lost", "peak_active"]


def _traffic_tables(out: dict, scs: list[Scenario], rep: np.ndarray, slot: np.ndarray):
    """The transfer records (one row per transfer, started before the end) and the per-generator
    counts. ``start_s`` is the arrival (the connection opens at the sender); ``end_s`` is when
    the receiver has every packet: the engine's slot of the last departure from the last link,
    plus the constant delays after it (last link, egress) and the access delay, which the
    engine folds into the sender's clock (docs/model.md, "Delays"); NaN if still running."""
    rows_g = [(r, g) for r, sc in enumerate(scs) for g in range(len(sc.traffic))]
    if not rows_g:
        return pd.DataFrame(columns=TRANSFER_COLUMNS), pd.DataFrame(columns=TRAFFIC_COLUMNS)
    gr, gg = (np.array(v, dtype=int) for v in zip(*rows_g))
    started, completed = out["gen_started"][gr, gg], out["gen_completed"][gr, gg]
    traffic = pd.DataFrame({
        "replica": rep[gr], "traffic": [scs[r].traffic[g].name for r, g in rows_g],
        "cls": [scs[r].traffic[g].flow.cls for r, g in rows_g],
        "kind": [scs[r].traffic[g].kind for r, g in rows_g],
        "pool": [scs[r].traffic[g].pool for r, g in rows_g],
        "started": started, "completed": completed, "unfinished": started - completed,
        "refused": out["gen_refused"][gr, gg], "records_lost": out["gen_records_lost"][gr, gg],
        "peak_active": out["gen_peak_active"][gr, gg],
    })
    n = out["n_records"].astype(np.int64)
    tr_r = np.repeat(np.arange(len(scs)), n)
    tr_k = np.concatenate([np.arange(k) for k in n]) if len(n) else np.zeros(0, dtype=int)
    g = out["tr_gen"][tr_r, tr_k].astype(int)
    # delays after the last link of each generator's route, per replica: seconds
    after = {(r, j): sc.after_last_link_ms(t.flow) / 1e3
             for r, sc in enumerate(scs) for j, t in enumerate(sc.traffic)}
    post = np.array([after[(r, j)] for r, j in zip(tr_r, g)], dtype=float)
    start = out["tr_start_slot"][tr_r, tr_k] * slot[tr_r]
    end_slot = out["tr_end_slot"][tr_r, tr_k]
    end = np.where(end_slot >= 0, end_slot * slot[tr_r] + post, np.nan)
    first_slot = out["tr_first_slot"][tr_r, tr_k]
    first = np.where(first_slot >= 0, first_slot * slot[tr_r] + post, np.nan)
    transfers = pd.DataFrame({
        "replica": rep[tr_r], "traffic": [scs[r].traffic[j].name for r, j in zip(tr_r, g)],
        "slot": out["tr_slot"][tr_r, tr_k].astype(np.int64),
        "cls": [scs[r].traffic[j].flow.cls for r, j in zip(tr_r, g)],
        "size_pkts": out["tr_size_pkts"][tr_r, tr_k].astype(np.int64),
        "start_s": start, "end_s": end, "completion_s": end - start, "first_s": first,
        **{c: out[f"tr_{c}"][tr_r, tr_k].astype(np.int64)
           for c in ("pkts_sent", "retransmits", "timeouts", "drops", "early_drops", "pkts_red")},
    })
    return transfers, traffic


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
    return _with_keys(rows.iloc[ids - first].reset_index(drop=True), Results(**tabs, meta=res.meta),
                      ids)


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
            same = bool((df[g].astype(object).to_numpy() == df[c].astype(object).to_numpy()).all())
        except (ValueError, TypeError):
            same = False
        if same:
            df = df.drop(columns=[g])
    return df
