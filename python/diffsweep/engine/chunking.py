"""chunking: what a chunk of replicas may hold -- the memory budget, each point's shape and
bytes per replica (from a packed sample, checked against the engine's limits) and the split of
replica rows into chunks. Below ``runner`` and ``sizing``, which both use it (see the module
docstring of ``diffsweep.sweep.runner``, "Chunks" and "Size")."""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from diffsweep.engine import compiled as _engine
from diffsweep.core.errors import ConfigError
from diffsweep.engine.pack import layout, pack, shape_key
from diffsweep.engine.repeats import find_repeats

#: default upper bound of replicas per chunk, per backend
MAX_CHUNK = {"cpu": 4096, "cuda": 65536}
#: Python-side bytes per table row of results (DataFrame columns, Parquet buffers)
TABLE_ROW_BYTES = 1024
#: fraction of the free RAM a CPU run may use by default
CPU_MEMORY_FRACTION = 0.5
#: default budget of a Dask run (the driver cannot see its workers' devices)
CUDA_MEMORY_BUDGET = 4 << 30
#: fraction of the device's free memory a CUDA run's arrays may use
CUDA_MEMORY_FRACTION = 0.5


def available_memory_bytes() -> int:
    """Free RAM: ``MemAvailable`` of /proc/meminfo, else ``os.sysconf``, else 4 GiB."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return 4 << 30


def default_memory_budget(backend: str) -> int:
    """The budget a chunk may use when ``memory_budget_bytes`` is not given."""
    host = max(64 << 20, int(CPU_MEMORY_FRACTION * available_memory_bytes()))
    if backend == "cpu":
        return host
    free = _engine.cuda_free_bytes()
    return min(host, int(CUDA_MEMORY_FRACTION * free)) if free else CUDA_MEMORY_BUDGET


def replica_bytes(scenario, seed: int = 0, packed=None) -> int:
    """Estimated memory one replica of ``scenario`` needs in a chunk: its input and output
    arrays (twice: host and device or copies), plus its result rows. ``packed``: the replica
    already packed (``pack([scenario], [seed])``)."""
    p = pack([scenario], [int(seed)]) if packed is None else packed
    s = p.shape
    inputs = sum(int(a.nbytes) for a in p.arrays.values())
    lay = layout()
    outputs = sum(dt.itemsize * int(np.prod(lay.axes(dim, s))) for dt, dim in lay.outputs.values())
    rows = (1 + s["max_flows"] + s["max_links"] * 4 + s["max_sources"]
            + s["max_flows"] * s["max_intervals"] + s.get("max_transfers", 0) + s.get("max_gens", 0))
    return 2 * (inputs + outputs) + TABLE_ROW_BYTES * rows


#: what the engine's batch-shape limits mean for a scenario: shape field -> (name, what)
_LIMIT_FIELDS = {"max_flows": ("n_flows", "TCP flows per scenario"),
                 "max_links": ("links", "links per scenario"),
                 "max_sources": ("sources", "traffic sources per scenario")}


def _limit_error(text: str, grid=None, point: int | None = None) -> ConfigError:
    """A ConfigError for the engine's ``batch shape: FIELD = V is not allowed (expected A..B)``."""
    body = text.split(":", 1)[1].strip() if text.startswith("batch shape:") else text
    field, _, rest = body.partition(" = ")
    value, _, allowed = rest.partition(" is not allowed ")
    name, what = _LIMIT_FIELDS.get(field, (field, f"the engine's {field}"))
    if name == "n_flows" and grid is not None and "n_flows" not in grid.columns \
            and "n_flows" not in grid.fixed:
        name = "flows"
    where = f" ({grid._where(point, grid.seeds[0])})" if grid is not None and point is not None \
        else ""
    return ConfigError(f"{name}: {value} is above the engine's limit on {what} "
                       f"{allowed.strip()}{where}")


def point_info(grid, p: int, keep: dict | None = None) -> tuple[tuple, int]:
    """(shape key, bytes per replica) of point ``p``, from a packed sample (its first seed). A
    scenario the engine cannot run (too many flows, links or sources; a duration beyond its slot
    clock) is a ConfigError naming the field, the limit and the grid point. ``keep``: a dict
    given the packed sample as ``keep[p]`` (for ``rounding.check``, which then packs nothing)."""
    seed = grid.seeds[0]
    sc = grid.scenario(p, seed)
    limits = _engine_limits()
    for key, n in (("max_flows", sc.engine_flows),
                   ("max_links", len(sc.links)),
                   ("max_sources", len(sc.sources))):
        top = limits.get(key)
        if top is not None and n > top:
            raise _limit_error(f"batch shape: {key} = {n} is not allowed (expected at most {top})",
                               grid, p)
    try:
        if keep is None:
            return shape_key(sc), replica_bytes(sc, seed)
        keep[p] = pk = pack([sc], [int(seed)])
        return shape_key(sc), replica_bytes(sc, seed, pk)
    except ConfigError as e:
        raise ConfigError(f"{e} ({grid._where(p, seed)})") from None
    except ValueError as e:
        if str(e).startswith("batch shape:"):
            raise _limit_error(str(e), grid, p) from None
        raise


def _engine_limits() -> dict:
    try:
        from diffsweep.engine.pack import layout  # noqa: PLC0415
        return dict(layout().limits)
    except Exception:  # pragma: no cover - an engine without the limits table
        return {}


def plan_chunks(grid, rows: pd.DataFrame, memory_budget_bytes: int,
                max_replicas: int, info: dict | None = None,
                group_repeats: bool = True) -> tuple[list[pd.DataFrame], dict]:
    """Split ``rows`` (replica rows: point, seed, grid columns) into chunks of at most
    ``max_replicas`` replicas whose estimated memory fits ``memory_budget_bytes``; rows of points
    with the same shape are kept together (groups in order of first appearance, the given row
    order within a group). Repeats (rows of points that build the same scenario, an axis moot
    there, with the same seed) are put side by side and kept in one chunk where they fit, since
    ``engine.simulate`` runs a chunk's repeats once (``diffsweep.engine.repeats``); a grid without
    repeats keeps the given order, as does every grid with ``group_repeats`` False (what
    benchmarks/cpu/repeats.py counts as before the grouping). ``info``: a cache point ->
    ``point_info`` (filled as needed).
    Returns the chunks and facts for ``meta``."""
    if rows.empty:
        return [], {"bytes_per_replica": 0, "chunks": 0}
    info = {} if info is None else info
    points = rows["point"].to_numpy()
    upoints = list(dict.fromkeys(points.tolist()))
    for p in upoints:
        if p not in info:
            info[p] = point_info(grid, p)
    group_of: dict[tuple, int] = {}
    for p in upoints:
        group_of.setdefault(info[p][0], len(group_of))
    group = np.array([group_of[info[p][0]] for p in points.tolist()])
    twin = _twins(grid, upoints) if group_repeats else None
    run = None  # per row: its repeats' class (same scenario, same seed), when there are repeats
    if twin is not None:
        cls = np.array([twin[p] for p in points.tolist()], dtype=np.int64)
        seeds = rows["seed"].to_numpy().astype(np.int64)
        order = np.lexsort((np.arange(len(rows)), seeds, cls, group))
        run = (cls[order], seeds[order])
    else:
        order = np.argsort(group, kind="stable")
    rows = rows.iloc[order].reset_index(drop=True)
    chunks, start, n, worst = [], 0, 0, 0
    over = False
    run_start = 0  # the first row of the current class and seed
    for i, p in enumerate(rows["point"].tolist()):
        b = info[p][1]
        if run is not None and i and (run[0][i] != run[0][i - 1] or run[1][i] != run[1][i - 1]):
            run_start = i
        w = max(worst, b)
        if n and (n >= max_replicas or (n + 1) * w > memory_budget_bytes):
            # close before this row's repeats when the chunk holds more than them
            cut = run_start if start < run_start < i else i
            chunks.append(rows.iloc[start:cut].reset_index(drop=True))
            start = cut
            w = max(info[q][1] for q in rows["point"].iloc[start:i + 1].tolist())
            n = i - start
        over |= b > memory_budget_bytes
        n, worst = n + 1, w
    chunks.append(rows.iloc[start:].reset_index(drop=True))
    biggest = max(info[p][1] for p in upoints)
    return chunks, {"bytes_per_replica": biggest, "chunks": len(chunks),
                    "over_budget": over}


def _twins(grid, points: list[int]) -> dict[int, int] | None:
    """point -> the number of its scenario among ``points``' (their first seed's; the same
    number for points that build the same one), or None when all differ."""
    first, twin = find_repeats([grid.scenario(p, grid.seeds[0]) for p in points],
                               [0] * len(points))
    return None if len(first) == len(points) else dict(zip(points, twin.tolist()))
