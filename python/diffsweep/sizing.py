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
  machines differ), divided by the threads. Printed, never refused.
"""
from __future__ import annotations

import itertools
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from .chunking import available_memory_bytes, point_info
from .errors import ConfigError
from .repeats import distinct_points

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


def _fmt_bytes(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if abs(n) < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"  # pragma: no cover


def _fmt_s(s: float) -> str:
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
    distinct_replicas: int = 0      # those that run (repeats run once: diffsweep.repeats)
    distinct_slots: float = 0.0     # their slots

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
            f"(from {self.sampled_points} sampled point(s))",
        ] + self.notes


def estimate(grid, threads: int | None = None, sample: int = SAMPLE_POINTS) -> Estimate:
    """Points, replicas, replica-slots, result rows and memory, and a rough CPU time of running
    every replica of ``grid``, from up to ``sample`` points packed with their first seed."""
    from .pack import pack  # noqa: PLC0415

    n_points, seeds = grid.n_points, len(grid.seeds)
    if threads is None or threads == 0:
        threads = os.cpu_count() or 1
    step = max(1, n_points // max(1, sample))
    picked = list(range(0, n_points, step))[:sample]
    rows = 0.0
    worst = longest = 0
    scs, point_ns, point_slots = [], [], []
    for p in picked:
        sc = grid.scenario(p, grid.seeds[0])
        scs.append(sc)
        _, b = point_info(grid, p)  # engine limits, with the point named
        worst = max(worst, b)
        pk = pack([sc], [grid.seeds[0]])
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
    return est


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
