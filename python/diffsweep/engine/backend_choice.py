"""backend_choice: what ``backend="auto"`` runs on when the machine has both a CUDA device and
CPU cores: the backend predicted to finish the engine's work first, the cores, the device, or
both at once (``cuda+cpu``, diffsweep.engine.hybrid, with the replicas split by ``assign``;
docs/design.md, "Choosing a backend"). Results never depend on it (CPU = CUDA bit for bit),
only the wall time does.

Why a prediction and not "the GPU when there is one": a GPU steps one replica's slots one
after another, each ~75x slower than a CPU core does (the slot is one bottleneck packet's
serial work), so it wins only with enough replicas in flight. On one H100 with its host's 16
cores (benchmarks/gpu/gpu.md, 2026-11-26) the quick Kaur & Vin family (1,104 replicas) took
5.94 s on cuda against 5.37 s (the other papers' quick families, 18-64 replicas, spent 3.5-8x
longer in their engine calls on an H200 than on its 16 cores), while the full Kaur & Vin
family (10,560 replicas) took 56.8 s on cuda, which these constants put ~1.5x ahead of the
16 cores (not timed on that machine: predicted 85 s).

The model, with the constants below measured on that machine (H100 80GB HBM3, its 16 cores):

    cpu_s      = replica_slots x CPU_CORE_US_PER_SLOT / threads
    cuda_s     = max(longest_slots x CUDA_SLOT_LATENCY_US,  replica_slots / CUDA_SLOTS_PER_S)
    cuda+cpu_s = max(replica_slots / (CUDA_SLOTS_PER_S + threads / CPU_CORE_US_PER_SLOT),
                     longest_slots x CUDA_SLOT_LATENCY_US)

The first CUDA term is a launch's floor: every replica resident, it lasts as long as its
longest replica's chain of slots. The second is the device full: warps share its issue slots.
Both at once add the two rates (``predict_both``), and are chosen only when SPLIT_GAIN times
faster than the better one alone. Other GPUs and processors differ (the model is a rough guide: ``backend="cuda"`` or ``"cpu"``
names one outright); ``benchmarks/gpu/gpu.sh`` measures the three constants again
(``benchmarks/gpu/auto_backend.py``), and the environment variable ``DIFFSWEEP_AUTO_MODEL`` sets
a machine's own, e.g. ``cpu_us_per_slot=0.075,cuda_slot_us=11.4,cuda_slots_per_s=1.6e8``
(any of the three; the others keep the values below).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

from diffsweep.core.errors import ConfigError
from diffsweep.engine.pack import end_slot
from diffsweep.engine.repeats import distinct_points

#: one replica-slot on one CPU core, microseconds: the quick Kaur & Vin family (5.76e8
#: replica-slots) in 5.37 s on the H100 machine's 16 cores
CPU_CORE_US_PER_SLOT = 0.149
#: one slot of one replica on the GPU when replicas do not compete, microseconds: the same
#: family's longest replica (520,833 slots) took 5.94 s on the H100, one replica a warp
CUDA_SLOT_LATENCY_US = 11.4
#: replica-slots per second with the device full: the full Kaur & Vin family (9.17e9
#: replica-slots, 10,560 replicas) in 56.82 s of engine time on the H100
CUDA_SLOTS_PER_S = 1.6e8


#: the environment variable that overrides the constants (model())
ENV = "DIFFSWEEP_AUTO_MODEL"


def model() -> tuple[float, float, float]:
    """(CPU us per replica-slot and thread, GPU us per slot of a lone replica, GPU replica-slots
    per second with the device full): the constants above, or those ``DIFFSWEEP_AUTO_MODEL``
    gives ("key=value,..."); ConfigError naming the variable, the keys and what is allowed."""
    vals = {"cpu_us_per_slot": CPU_CORE_US_PER_SLOT, "cuda_slot_us": CUDA_SLOT_LATENCY_US,
            "cuda_slots_per_s": CUDA_SLOTS_PER_S}
    for item in filter(None, (x.strip() for x in os.environ.get(ENV, "").split(","))):
        key, _, value = item.partition("=")
        try:
            v = float(value)
        except ValueError:
            v = math.nan
        if key.strip() not in vals or not (math.isfinite(v) and v > 0):
            raise ConfigError(f"{ENV}: {item!r} is not allowed (expected key=value pairs "
                              f"separated by commas, keys among {', '.join(vals)}, each value "
                              "a number > 0)")
        vals[key.strip()] = v
    return vals["cpu_us_per_slot"], vals["cuda_slot_us"], vals["cuda_slots_per_s"]


@dataclass(frozen=True)
class Work:
    """What an engine call has to do."""

    replicas: int
    replica_slots: float  # slots summed over replicas
    longest_slots: int    # the longest replica's slots


#: a scenario's slots, as ``pack`` counts them
slots_of = end_slot


def work_of_scenarios(scenarios) -> Work:
    slots = [slots_of(sc) for sc in scenarios]
    return Work(len(slots), float(sum(slots)), max(slots, default=0))


#: points of a grid whose scenarios are built to count its work; a larger grid is sampled
#: evenly (a point is ~0.1 ms to build: a choice should not cost seconds)
SAMPLE_POINTS = 4096


def work_of_grids(grids) -> Work:
    """Every replica of ``grids`` (Grids), from each point's first-seed scenario (a seed changes
    a point's draws, never its duration or slot); above SAMPLE_POINTS points a grid's are
    sampled evenly and scaled. A replica that grids built whole share (the same scenario and
    seed, run once: ``diffsweep.engine.repeats``) counts once."""
    total, longest, n = 0.0, 0, 0
    whole, seeds_of = [], []  # the points of grids built whole, and each point's seeds
    for g in grids:
        k, points = len(g.seeds), range(0, g.n_points, max(1, g.n_points // SAMPLE_POINTS))
        scs = [g.scenario(p, g.seeds[0]) for p in points]
        s = [slots_of(sc) for sc in scs]
        longest = max([longest, *s])
        if len(scs) == g.n_points:
            whole += scs
            seeds_of += [g.seeds] * len(scs)
            continue
        total += sum(s) * k * g.n_points / len(s)
        n += k * g.n_points
    for i, k in distinct_points(whole, seeds_of):  # points that build the same scenario
        total += slots_of(whole[i]) * k
        n += k
    return Work(n, total, longest)


def work_of_packed(packed) -> Work:
    ends = [int(e) for p in packed for e in p.arrays["end_slot"]]
    return Work(len(ends), float(sum(ends)), max(ends, default=0))


def predict(work: Work, threads: int) -> dict[str, float]:
    """Predicted engine seconds of ``work`` on ``threads`` CPU threads and on the CUDA device."""
    c_us, l_us, g = model()
    return {"cpu": work.replica_slots * c_us * 1e-6 / max(1, threads),
            "cuda": cuda_s(work.replica_slots, work.longest_slots, l_us, g)}


def cuda_s(replica_slots: float, longest_slots: int, l_us: float, g: float) -> float:
    """Predicted seconds on the device (``l_us`` and ``g``: model()'s second and third): its
    longest replica's chain of slots, or the device full, whichever is longer."""
    return max(longest_slots * l_us * 1e-6, replica_slots / g)


def choose(work: Work, threads: int) -> tuple[str, str]:
    """(backend, why) for ``work`` on a machine with a CUDA device and ``threads`` CPU
    threads: "cuda" only when predicted faster than the CPU; "cuda+cpu" (both at once, the
    replicas split by ``assign``) when predicted SPLIT_GAIN times faster than either."""
    t = predict(work, threads)
    name = "cuda" if t["cuda"] < t["cpu"] else "cpu"
    both = predict_both(work, threads)
    if both * SPLIT_GAIN < t[name]:
        name, t["cuda+cpu"] = "cuda+cpu", both
    others = " and ".join(f"{t[b]:.3g} s on {b}" for b in t if b != name)
    return name, (f"auto chose {name}: {work.replicas:,} replicas, {work.replica_slots:.3g} "
                  f"replica-slots, predicted {t[name]:.3g} s on {name} against {others} "
                  f"({threads} CPU threads); --backend cpu|cuda|cuda+cpu names one")


#: running both (``cuda+cpu``) must be predicted this much faster than the better one alone:
#: two engine calls share the host, and the prediction is rough
SPLIT_GAIN = 1.15


def predict_both(work: Work, threads: int) -> float:
    """Predicted seconds of ``work`` split between the device and ``threads`` CPU threads
    (``assign``): their rates added, but never under the device's floor (its longest replica's
    slots, when it holds that replica)."""
    c_us, l_us, g = model()  # the device as fast as itself and the threads together
    return cuda_s(work.replica_slots, work.longest_slots, l_us, g + max(1, threads) / (c_us * 1e-6))


def assign(slots, threads: int) -> tuple[list[int], list[int]]:
    """(replicas for the device, replicas for the CPU threads), indices into ``slots`` (each
    replica's slots): longest first, each to the side that would then finish first by the
    model, so that both finish about together."""
    c_us, l_us, g = model()
    per_slot_cpu = c_us * 1e-6 / max(1, threads)
    gpu, cpu = [], []
    g_sum = c_sum = 0.0
    g_long = 0
    for i in sorted(range(len(slots)), key=lambda k: -slots[k]):
        s = slots[i]
        t_gpu = cuda_s(g_sum + s, max(g_long, s), l_us, g)
        if t_gpu < (c_sum + s) * per_slot_cpu:
            gpu.append(i)
            g_sum += s
            g_long = max(g_long, s)
        else:
            cpu.append(i)
            c_sum += s
    return sorted(gpu), sorted(cpu)
