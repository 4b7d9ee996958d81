"""sizing: how big a sweep is before any work -- points, replicas, memory and a rough time -- and
the limits above which ``Grid``, ``run`` and ``diffsweep run`` refuse unless told (``force``,
``--force``, ``Grid(..., max_points=None)``). See docs/sweeps.md ("Size checks").

* ``MAX_POINTS``: a ``Grid`` builds every point once at construction (about 0.1 ms each, and a
  few kB of Python objects), so it refuses more points than this; the count is the product of
  the axis lengths, computed before anything is built.
* ``MAX_REPLICAS``: replicas (points x seeds) of one run; checked from the counts before any
  seed list is made (a count of seeds is a ``SeedRange`` until then), and even with ``force``
  refused when their seeds and rows alone (``LIST_BYTES_PER_REPLICA``) exceed the free RAM.
* memory: the result tables of a run are held in memory (``RESULT_ROW_BYTES`` per table row);
  a run whose tables would need more than the free RAM is refused.
* time: ``NS_PER_SLOT + NS_PER_FLOW_SLOT * flows`` nanoseconds per replica-slot on one CPU core
  (measured on the CPU engine, a 2020s x86 core; rough: a GPU, other scenarios, other
  machines differ), divided by the threads. Printed, never refused. With ``probe=True``
  (``diffsweep run --dry-run``) the model is calibrated on this machine and this sweep: up to
  ``PROBE_POINTS`` of the sampled points run on the CPU engine, one thread, for their first
  ``PROBE_SLOTS`` slots at most (``probe``; about 0.1-0.5 s, kept per machine in
  ``probe_cache_path()``), and the model's time is scaled by measured / modelled; the host's
  share (packing, tables, the folder) is added from the packing times measured while sampling.
  The model alone was 5-7x too high on a 2-core VM (24 s estimated, 5.3 s run, issue 45);
  ``benchmarks/host/estimate.py`` records estimate against run (``benchmarks/host/results/``).
"""
from __future__ import annotations

import itertools
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from diffsweep.engine.chunking import MAX_CHUNK, available_memory_bytes, point_info
from diffsweep.core.errors import ConfigError
from diffsweep.engine.repeats import distinct_points

#: most points a Grid builds unless told (Grid(..., max_points=None), --force)
MAX_POINTS = 100_000
#: most replicas of one run unless told (run(..., force=True), --force)
MAX_REPLICAS = 2_000_000
#: memory of listing one replica before it runs: its seed, its row of Grid.replicas and the
#: runner's bookkeeping (about 1.3 GB for 10^7 seeds and 11.9 GB for 10^8, measured before the
#: size check came first: issue 23)
LIST_BYTES_PER_REPLICA = 130
#: Python memory per result-table row (pandas columns), for the memory estimate
RESULT_ROW_BYTES = 200
#: CPU engine cost of a replica-slot, ns (rough; see the module docstring)
NS_PER_SLOT = 250.0
NS_PER_FLOW_SLOT = 5.0
#: points packed to estimate slots, flows and rows (evenly spread over the grid)
SAMPLE_POINTS = 64
#: the probe (``estimate(probe=True)``): sampled points run, most slots each, and the most
#: seconds the model may give one probe replica (a replica of 65,000 flows is cut shorter)
PROBE_POINTS = 4
PROBE_SLOTS = 200_000
PROBE_MAX_S = 0.25
#: the host's work per replica and per point, in units of one point's packing time (measured
#: while sampling): a replica is packed again in its chunk and its tables made (about 2); a
#: point is packed by the size check, the rounding check and the sample (about 3)
HOST_PACKS_PER_REPLICA = 2.0
HOST_PACKS_PER_POINT = 3.0
#: the folder's share of a chunk: its tables written as Parquet, then read back (matta_guo m3
#: --quick, 7 tables, one chunk: 0.25 s on the 2-core VM, 2026-11-29)
HOST_S_PER_CHUNK = 0.25
#: a transfer record's share (its table row made, stored, read back and sorted): matta_guo m7,
#: 365k records, about 1.5 s of its run beyond the engine's on the 2-core VM (2026-11-29)
HOST_S_PER_RECORD = 4e-6


def _fmt_bytes(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if abs(n) < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"  # pragma: no cover


def _fmt_s(s: float) -> str:
    if s < 10:  # ("0 s" said nothing of a sweep of a second)
        return f"{s:.1f} s"
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.0f} min"
    if s < 2 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} days"


def check_points(n_points: int, max_points: int | None, dims: str = "", what: str = "grid",
                 force_hint: str = "max_points=None (or --force)") -> None:
    """Refuse ``n_points`` above ``max_points`` (None: no limit), before anything is built."""
    if max_points is not None and n_points > max_points:
        raise ConfigError(
            f"{what}: {n_points:,} points{f' ({dims})' if dims else ''} is above the limit of "
            f"{max_points:,} points (each point is built and packed before the run: about "
            f"{_fmt_s(n_points * 1.1e-4)} and {_fmt_bytes(n_points * 3e3)} just for that); use "
            f"fewer axis values, or pass {force_hint} to go ahead")


def check_replicas(n_replicas: int, force: bool, what: str = "grid",
                   force_hint: str = "force=True (or --force)", limit: int | None = None) -> None:
    """Refuse ``n_replicas`` above ``limit`` (default ``MAX_REPLICAS``) unless ``force``, and,
    even with ``force``, more than the free memory can list: call it with the counts, before
    any seed list or replica table is made."""
    limit = MAX_REPLICAS if limit is None else limit
    if not force and n_replicas > limit:
        raise ConfigError(
            f"{what}: {n_replicas:,} replicas (points x seeds) is above the limit of "
            f"{limit:,} replicas of one run; use fewer points or seeds, or pass "
            f"{force_hint} to go ahead")
    need = n_replicas * LIST_BYTES_PER_REPLICA
    if need > 1 << 30 and need > available_memory_bytes():  # (reads /proc only when large)
        raise ConfigError(
            f"{what}: {n_replicas:,} replicas (points x seeds) cannot even be listed in the free "
            f"memory (about {_fmt_bytes(need)} for their seeds and rows, "
            f"{_fmt_bytes(available_memory_bytes())} free); use fewer points or seeds")


class SeedRange(Sequence):
    """Seeds 0..n-1 given as a count (``seeds = n``, ``--seeds n``), listed only when iterated:
    equal to ``list(range(n))``, with ``len`` at no cost, so that the size check refuses 10^12
    seeds within a second (building their list first took 105 s and 11.9 GB for 10^8 and ended
    in a MemoryError for 10^12)."""

    __slots__ = ("n",)
    __hash__ = None  # (equal to a list, which is unhashable)

    def __init__(self, n: int):
        self.n = int(n)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        r = range(self.n)[i]
        return list(r) if isinstance(i, slice) else r

    def __iter__(self):
        return iter(range(self.n))

    def __eq__(self, other):
        if isinstance(other, SeedRange):
            return self.n == other.n
        if isinstance(other, (list, tuple, range)):
            return len(other) == self.n and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return repr(list(self)) if self.n <= 20 else f"SeedRange({self.n:_})"


@dataclass
class Estimate:
    """Size of a run (``estimate``)."""

    points: int
    seeds: int
    replicas: int
    replica_slots: float = 0.0      # slots summed over replicas
    longest_slots: int = 0          # the longest sampled replica's slots
    result_rows: float = 0.0        # rows of all result tables
    result_bytes: float = 0.0       # their memory (RESULT_ROW_BYTES per row)
    chunk_bytes_per_replica: int = 0  # engine memory of one replica in a chunk (largest point)
    seconds: float = 0.0            # rough wall time on ``threads`` CPU threads
    threads: int = 1
    sampled_points: int = 0
    notes: list[str] = field(default_factory=list)
    distinct_replicas: int = 0      # those that run (repeats run once: diffsweep.engine.repeats)
    distinct_slots: float = 0.0     # their slots
    calibrated: str = ""            # how the time was calibrated (estimate(probe=True))
    engine_s: float = 0.0           # with probe=True: the engine's share of ``seconds``
    host_s: float = 0.0             # and the host's (packing, tables, the folder)

    def lines(self) -> list[str]:
        return [
            f"points      : {self.points:,}",
            f"seeds       : {self.seeds:,}",
            f"replicas    : {self.replicas:,}",
            f"slots       : {self.replica_slots:.3g} replica-slots",
            f"memory      : {_fmt_bytes(self.result_bytes)} of result tables "
            f"({self.result_rows:.3g} rows); {_fmt_bytes(self.chunk_bytes_per_replica)} per "
            "replica in a chunk",
            f"time (rough): {_fmt_s(self.seconds)} on {self.threads} CPU thread(s) "
            f"(from {self.sampled_points} sampled point(s)"
            + (f"; {self.calibrated})" if self.calibrated else ")"),
        ] + self.notes


def estimate(grid, threads: int | None = None, sample: int = SAMPLE_POINTS,
             probe: bool = False) -> Estimate:
    """Points, replicas, replica-slots, result rows and memory, and a rough CPU time of running
    every replica of ``grid``, from up to ``sample`` points packed with their first seed;
    ``probe``: the time calibrated by running a few of them briefly (module docstring)."""
    import time  # noqa: PLC0415

    from diffsweep.engine.pack import pack  # noqa: PLC0415

    n_points, seeds = grid.n_points, len(grid.seeds)
    if threads is None or threads == 0:
        threads = os.cpu_count() or 1
    step = max(1, n_points // max(1, sample))
    picked = list(range(0, n_points, step))[:sample]
    rows = 0.0
    worst = longest = 0
    scs, point_ns, point_slots, packs, pack_s = [], [], [], [], 0.0
    for p in picked:
        sc = grid.scenario(p, grid.seeds[0])
        scs.append(sc)
        _, b = point_info(grid, p)  # engine limits, with the point named
        worst = max(worst, b)
        t0 = time.perf_counter()
        pk = pack([sc], [grid.seeds[0]])
        pack_s += time.perf_counter() - t0
        packs.append(pk)
        sh = pk.shape
        n = float(pk.arrays["end_slot"][0])
        longest = max(longest, int(n))
        flows = len(sc.flows)
        point_slots.append(n)
        point_ns.append(n * (NS_PER_SLOT + NS_PER_FLOW_SLOT * flows))
        rows += (1 + flows + sum(len(link.classes) for link in sc.links) + len(sc.sources)
                 + flows * sh["max_intervals"])
    slots, ns = sum(point_slots), sum(point_ns)
    scale = n_points * seeds / max(1, len(picked))
    est = Estimate(points=n_points, seeds=seeds, replicas=n_points * seeds,
                   replica_slots=slots * scale, longest_slots=longest, result_rows=rows * scale,
                   result_bytes=rows * scale * RESULT_ROW_BYTES,
                   chunk_bytes_per_replica=worst, seconds=ns * scale * 1e-9 / threads,
                   threads=threads, sampled_points=len(picked),
                   distinct_replicas=n_points * seeds, distinct_slots=slots * scale)
    if len(picked) == n_points:  # every point built: those that build the same scenario
        first = [i for i, _ in distinct_points(scs, [grid.seeds] * len(scs))]
        if len(first) < n_points:
            est.distinct_replicas = len(first) * seeds
            est.distinct_slots = sum(point_slots[i] for i in first) * seeds
            est.seconds = sum(point_ns[i] for i in first) * seeds * 1e-9 / threads
            est.notes.append(f"distinct    : {est.distinct_replicas:,} of {est.replicas:,} "
                             "replicas run, the time theirs (a point that builds another's "
                             "scenario gets its tables)")
    if probe:
        ratio, how, records = probe_ratio(packs, point_ns, point_slots)
        if records:  # the transfers table's rows, which the sample's shapes do not count
            est.result_rows += records * est.replicas
            est.result_bytes = est.result_rows * RESULT_ROW_BYTES
        longest_s = max(point_ns) * 1e-9 * ratio if point_ns else 0.0
        # the engine's share: replicas spread over the threads the machine has free now (the
        # probe ran under the same load), no faster than the longest replica
        free = free_threads(threads)
        engine_s = max(est.seconds * ratio * threads / max(1.0, min(free,
                                                                    est.distinct_replicas)),
                       longest_s)
        if free < threads:
            how += f"; about {free:.3g} of the {threads} threads free (load average)"
        per_pack = pack_s / max(1, len(picked))
        chunks = math.ceil(est.replicas / MAX_CHUNK["cpu"])
        host_s = (per_pack * (HOST_PACKS_PER_REPLICA * est.replicas
                              + HOST_PACKS_PER_POINT * n_points) + HOST_S_PER_CHUNK * chunks
                  + HOST_S_PER_RECORD * records * est.replicas)
        est.seconds, est.engine_s, est.host_s = engine_s + host_s, engine_s, host_s
        est.calibrated = how
    return est


def free_threads(threads: int) -> float:
    """Of ``threads``, how many the machine has free now: its cores less the 1-minute load
    average of the other processes (this one counts 1), at least 1. On a VM shared by others
    (2 cores, load 4) an engine on 2 threads ran no faster than on 1."""
    try:
        load = os.getloadavg()[0]
    except (OSError, AttributeError):  # not on every OS
        return float(threads)
    return max(1.0, min(float(threads), (os.cpu_count() or 1) - max(0.0, load - 1.0)))


def probe_ratio(packs, point_ns, point_slots) -> tuple[float, str, float]:
    """(measured / modelled engine time, how it was had, transfer records per replica) of up to
    PROBE_POINTS of the sampled points (``packs``, their modelled ns and slots): each run on the
    CPU engine, one thread, for its first slots (at most PROBE_SLOTS, and what the model gives
    PROBE_MAX_S), or what was kept for them on this machine (``probe_cache_path``). The
    records (rows of the transfers table) are the probe's, scaled to the whole replica."""
    import time  # noqa: PLC0415

    from diffsweep.engine import compiled as engine  # noqa: PLC0415

    if not packs or "cpu" not in engine.info()["backends_built"]:
        return 1.0, "the model alone (no CPU engine to probe)", 0.0
    step = max(1, len(packs) // PROBE_POINTS)
    chosen = list(range(0, len(packs), step))[:PROBE_POINTS]
    runs, model_s = [], 0.0
    for i in chosen:
        per_slot_ns = point_ns[i] / max(1.0, point_slots[i])
        n = int(min(point_slots[i], PROBE_SLOTS, max(1000, PROBE_MAX_S * 1e9 / per_slot_ns)))
        # the point's first n slots, and its first n/2: the second half's time is what a slot
        # costs once the flows run (a slow start is cheaper), without the call's own cost
        runs.append((int(point_slots[i]), _cut(packs[i], n // 2), _cut(packs[i], n)))
        model_s += point_ns[i] * 1e-9
    key = _probe_key([pk for _, half, full in runs for pk in (half, full)])
    cached = _probe_cache().get(key)
    if (isinstance(cached, list) and len(cached) == 2
            and all(isinstance(v, (int, float)) and math.isfinite(v) for v in cached)
            and cached[0] > 0 and cached[1] >= 0):
        return (float(cached[0]), "calibrated on this machine (a probe kept from an earlier "
                "run)", float(cached[1]))
    t_start = time.perf_counter()
    measured = records = 0.0
    for end, half, full in runs:
        times = []
        for pk in (half, full):
            t0 = time.perf_counter()
            out = engine.run_packed(pk, "cpu", threads=1)
            times.append(time.perf_counter() - t0)
        n = int(full.arrays["end_slot"][0])
        per_slot = max((times[1] - times[0]) / max(1, n - n // 2), 0.5 * times[1] / n)
        measured += times[1] + (end - n) * per_slot  # the whole replica, extrapolated
        started = out.get("gen_started")
        if started is not None:
            records += float(np.sum(started)) * end / n / len(runs)
    ratio = max(1e-3, measured / max(model_s, 1e-9))
    _probe_cache_put(key, [ratio, records])
    return ratio, (f"calibrated on this machine: {len(runs)} point(s) run for "
                   f"{time.perf_counter() - t_start:.2f} s"), records


def _cut(pk, n: int):
    """The packed replica ``pk`` cut to its first ``n`` slots (the same arrays otherwise)."""
    arrays = dict(pk.arrays)
    arrays["end_slot"] = np.minimum(arrays["end_slot"], max(1, n))
    arrays["warmup_slot"] = np.minimum(arrays["warmup_slot"], max(0, n - 1))
    return type(pk)(shape=pk.shape, arrays=arrays, slot_s=pk.slot_s,
                    delay_rounding_ms=pk.delay_rounding_ms, nic_pool=pk.nic_pool)


def probe_cache_path():
    """Where the probes' ratios are kept: $DIFFSWEEP_CACHE_DIR, else $XDG_CACHE_HOME/diffsweep,
    else ~/.cache/diffsweep; ``estimate-probes.json`` there (a damaged file is ignored and
    written again; one that cannot be written is left alone)."""
    from pathlib import Path  # noqa: PLC0415

    base = os.environ.get("DIFFSWEEP_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "diffsweep")
    return Path(base) / "estimate-probes.json"


#: most probes kept (the oldest go first)
PROBE_CACHE_SIZE = 256


def _probe_key(probes) -> str:
    """The machine (host, cores, processor), this diffsweep and the probes' arrays."""
    import hashlib  # noqa: PLC0415
    import platform  # noqa: PLC0415

    from diffsweep.engine import compiled as engine  # noqa: PLC0415

    h = hashlib.sha256(f"{platform.node()}|{os.cpu_count()}|{platform.processor()}|"
                       f"{platform.machine()}|{engine.version()}".encode())
    for pk in probes:
        for k in sorted(pk.arrays):
            h.update(k.encode())
            h.update(np.ascontiguousarray(pk.arrays[k]).tobytes())
    return h.hexdigest()[:32]


def _probe_cache() -> dict:
    import json  # noqa: PLC0415

    try:
        data = json.loads(probe_cache_path().read_text())
    except (OSError, ValueError):  # none yet, unreadable or damaged: probe again
        return {}
    return data if isinstance(data, dict) else {}


def _probe_cache_put(key: str, ratio) -> None:
    import json  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    data = _probe_cache()
    data.pop(key, None)
    data[key] = ratio
    data = dict(list(data.items())[-PROBE_CACHE_SIZE:])
    path = probe_cache_path()
    try:  # written whole and renamed: a reader never sees half a file
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home: the next dry-run probes again


def check_estimate(est: Estimate, force: bool, what: str = "grid",
                   force_hint: str = "force=True (or --force)") -> None:
    """Refuse a run whose result tables would not fit the free RAM, unless ``force``."""
    check_replicas(est.replicas, force, what, force_hint)
    if force:
        return
    free = available_memory_bytes()
    if est.result_bytes > free:
        raise ConfigError(
            f"{what}: the result tables of {est.replicas:,} replicas need about "
            f"{_fmt_bytes(est.result_bytes)}, more than the free memory "
            f"({_fmt_bytes(free)}); keep fewer tables ([outputs] tables), use fewer points or "
            f"seeds, or pass {force_hint} to go ahead")


def first_points(dims: list[tuple[tuple[str, ...], list[tuple]]], n: int) -> list[dict]:
    """The first ``n`` points of a cartesian product of dimensions, without expanding it."""
    out = []
    for combo in itertools.islice(itertools.product(*(vals for _, vals in dims)), n):
        point: dict = {}
        for (names, _), values in zip(dims, combo):
            point.update(zip(names, values))
        out.append(point)
    return out


def product(lengths) -> int:
    return math.prod(int(n) for n in lengths)
