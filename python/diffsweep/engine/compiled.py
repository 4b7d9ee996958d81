"""compiled: the compiled engine modules, wrapped: which are built and what they report, which
runs a call, and packed batches run on them.

The compiled modules are ``diffsweep._engine_cpu`` (always built) and
``diffsweep._engine_cuda`` (built where nvcc and a CUDA device were found, or when asked:
CMakeLists.txt's DIFFSWEEP_CUDA). Both take the same arrays
(``cuda/batch.h``) and give bit-identical results per replica. Here: loading them
(``_module``), the version, ``info()``, the CUDA devices and their free memory, the state sizes,
the backend that runs (``choose_backend``), the team size per replica (``default_lanes``), the
CPU engine's build, the CUDA kernel and the plan of a job (``cpu_engine``, ``cuda_kernel``,
``cuda_plan``) and one engine job of packed batches (``run_family``, ``run_packed``). A call of
scenarios is ``diffsweep.engine.execution``'s.
"""
from __future__ import annotations

import importlib
import platform
from typing import Sequence

import numpy as np

from diffsweep.core.errors import BackendError, ConfigError
from diffsweep.engine import backend_choice
from diffsweep.engine.pack import Packed, layout
from diffsweep.engine.run_control import RunControl

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
            text = (Path(__file__).resolve().parents[3] / "pyproject.toml").read_text(
                encoding="utf-8-sig")
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


def cpu_threads():
    """The CPU engine's OpenMP threads (all of them: what a call given no ``threads`` uses)."""
    return _module("cpu").max_threads()


def resolve_backend(backend: str, work=None, threads: int | None = None) -> str:
    """The backend that runs: ``choose_backend``'s."""
    return choose_backend(backend, work, threads)[0]


def choose_backend(backend: str, work=None, threads: int | None = None) -> tuple[str, str]:
    """(backend, why). 'auto' runs on the CPU without a CUDA engine or device; with both, on
    what ``backend_choice`` predicts fastest for ``work`` (cpu, cuda or cuda+cpu; ``work``: a
    ``backend_choice.Work``, or a function making one, called only then) on ``threads`` CPU
    threads (None: all), with its reason as ``why``; without ``work``, on the device."""
    if backend not in BACKENDS:
        raise ConfigError(f"backend: {backend!r} is not allowed (expected one of "
                          f"{', '.join(BACKENDS)})")
    if backend == "cpu":
        return "cpu", ""
    m = _module("cuda")
    if backend != "auto":  # cuda, or cuda+cpu: both at once (diffsweep.engine.hybrid)
        if m is None:
            raise BackendError(f"backend {backend!r}: this diffsweep was built without the CUDA "
                               "engine (by default it is built only where nvcc and a CUDA device "
                               "were found at build time); use the CPU (--backend cpu; "
                               "backend='cpu' from Python) or rebuild with `pip install . -C "
                               "cmake.define.DIFFSWEEP_CUDA=ON`")
        if m.device_count() == 0:
            raise BackendError(f"backend {backend!r}: the CUDA engine is built but no CUDA device "
                               "is visible (driver missing or no GPU); use the CPU (--backend "
                               "cpu; backend='cpu' from Python)")
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


# wave_phases: the engine's mode (cuda/batch.h BatchShape::wave_phases); True is "block"
_WAVE_PHASES = {False: 0, True: 1, "block": 1, "kernels": 2}


def run_packed(p: Packed, backend: str, threads: int | None = None,
               control: RunControl | None = None, clip_slots: int | None = None,
               replicas_per_task: int | None = None, warp_rounds: bool | None = None,
               wavefront: bool | None = None, wave_cap: int | None = None,
               wave_order: str | None = None, wave_phases: bool | str | None = None) -> dict:
    """Run one packed batch; returns the engine's output arrays, reshaped per dimension.

    ``clip_slots``: rounds end at least every so many slots (0: never; default: the engine's
    stop-poll interval, ``info()["poll_slots"]``). ``replicas_per_task``: on the CPU, replicas
    one thread steps together, piece by piece (default 1; 32 runs them grouped as a GPU warp
    does); on CUDA, at most so many replicas per warp (default: the fewest with which every
    warp of the job is resident at once, cuda/engine/family.h ``spread_per_warp``).
    ``warp_rounds``: the replicas a warp (on the CPU: a task of ``replicas_per_task``) steps
    together share each round, its horizon the nearest of theirs, so that they run the same
    slots in the same phase (default: on for cuda, where it measured 1.45x on the full Kaur &
    Vin family; off on the CPU, where each replica's own rounds are 5-7% cheaper).
    ``wavefront`` (default off): the replicas advance stage by stage, each round the
    compacted (replica, lane) items with flow events, then every live replica's queue side:
    on the CPU a task's replicas (cuda/backend_cpu.cpp ``run_wavefront``), on CUDA every
    replica of a launch, by stage kernels (cuda/kernel_wave.cuh); docs/design.md, "The
    wavefront schedule". On the CPU ``wave_cap`` is the items its work queue takes at a time
    (0: all), ``wave_order`` "forward" or "reverse" the order of the replicas through each
    stage, and a ``control``'s :meth:`RunControl.wave_counts` holds what each stage was
    handed (CUDA: the atomics order its queues; no counts). ``wave_phases`` (with
    ``wavefront``; default off): the queue stage too by slot phases, a slot of every live
    replica at a time, the arrivals and the links' service past their quick steps each over
    the replicas that need them (docs/design.md, "The slot phases"); on CUDA True or
    "block" runs the phases in one kernel over block-local queues, "kernels" a kernel per
    phase over device-wide queues (the CPU runs one loop for both). No result depends
    on any of these: tests run one batch under many schedules (tests/test_schedule.py)."""
    return run_family([p], backend, threads, control, clip_slots, replicas_per_task,
                      warp_rounds, wavefront, wave_cap, wave_order, wave_phases)[0]


def cpu_engine(ps: Sequence[Packed]) -> str:
    """The build of the CPU engine that runs these packed batches as one job
    (:func:`run_family` on "cpu"): "classic" (every model after ns-2's compiled out, as the
    CUDA classic kernel) when no replica uses CUBIC, CoDel, PIE, FQ-CoDel, ECN, DCTCP or a
    device queue, else "full". The CPU backend's own decision (cuda/backend_cpu.cpp
    ``cpu_engine_name``); ``DIFFSWEEP_CPU_ENGINE=full`` in the environment forces the full one.
    No result depends on it."""
    m = _module("cpu")
    if m is None:
        raise RuntimeError("the CPU engine module is not built")
    return str(m.cpu_engine([p.shape for p in ps], [_flat(p) for p in ps]))


def cuda_kernel(ps: Sequence[Packed]) -> str:
    """The CUDA kernel that runs these packed batches as one job (:func:`run_family`): "slim"
    (every rare model compiled out, a kernel of ~16k instructions against ~36k) when no
    replica uses an edge conditioner, AQM, traffic generator, application, traced flow,
    TCP-aware tag, a non-green packet, a validation hook (a lossy link, injected drops), a
    SACK or a CUBIC sender; "full" (every model) when a replica uses a model after ns-2's
    (CUBIC, CoDel, PIE, FQ-CoDel, ECN, DCTCP); else "classic" (ns-2's rare models, the others
    compiled out). The CUDA backend's own decision (cuda/engine/features.h
    ``family_kernel_name``); ``DIFFSWEEP_CUDA_KERNEL=full`` in the environment forces the full
    one. No result depends on it."""
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
        resident_warps = _resident_warps(kernel != "slim")  # (classic: as full, 96 registers)
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
               warp_rounds: bool | None = None, wavefront: bool | None = None,
               wave_cap: int | None = None, wave_order: str | None = None,
               wave_phases: bool | str | None = None) -> list[dict]:
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
    if wavefront is not None:
        if not isinstance(wavefront, (bool, np.bool_)):
            raise ValueError(f"wavefront = {wavefront!r} is not allowed (expected True or False)")
        extra["wavefront"] = int(wavefront)
    if wave_cap is not None:
        extra["wave_cap"] = _checked_count("wave_cap", wave_cap,
                                           "an integer >= 0; 0: a round's items at once")
    if wave_order is not None:
        if wave_order not in ("forward", "reverse"):
            raise ValueError(f"wave_order = {wave_order!r} is not allowed (expected 'forward' "
                             "or 'reverse')")
        extra["wave_order"] = int(wave_order == "reverse")
    if wave_phases is not None:
        mode = _WAVE_PHASES.get(wave_phases) if isinstance(
            wave_phases, (bool, np.bool_, str)) else None
        if mode is None:
            raise ValueError(f"wave_phases = {wave_phases!r} is not allowed (expected True, "
                             "False, 'block' or 'kernels')")
        if mode and not wavefront:
            raise ValueError(f"wave_phases = {wave_phases!r} is not allowed without wavefront = "
                             "True (the slot phases are the wavefront's queue stage)")
        extra["wave_phases"] = mode
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

