"""run_plan: what a run will do, decided and checked before its results folder is touched: what
it was given (a Grid, a SweepConfig or a sweep file), the tables it keeps, its backend and
client, memory budget and chunk size, and its size against ``diffsweep.engine.sizing``'s limits
(every point packed once: the engine's limits). See the module docstring of
``diffsweep.sweep.runner`` ("Chunks", "Size").
"""
from __future__ import annotations

import math
import os

from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES
from diffsweep.engine import compiled
from diffsweep.engine.backend_choice import work_of_grids
from diffsweep.engine.chunking import (CUDA_MEMORY_BUDGET, MAX_CHUNK, default_memory_budget,
                                       point_info)


def as_grid(grid, force: bool):
    """(Grid, SweepConfig or None) of what ``run`` was given: a Grid, a SweepConfig or the path
    of a sweep file."""
    from diffsweep.sweep.config import SweepConfig, load_sweep  # noqa: PLC0415
    from diffsweep.sweep.grid import Grid  # noqa: PLC0415

    cfg = None
    if isinstance(grid, (str, os.PathLike)):
        grid = load_sweep(grid)
    if not isinstance(grid, (Grid, SweepConfig)):
        raise ConfigError(f"grid: {grid!r} is not allowed (expected a diffsweep.Grid, a "
                          "SweepConfig from diffsweep.sweep.config.load_sweep, or the path of a "
                          "sweep file)")
    if isinstance(grid, SweepConfig):
        cfg = grid
        # (its replicas counted before its seeds are listed; force lifts the limit here too)
        grid = cfg.make_grid(max_replicas=None if force else "default")
    return grid, cfg


def check_tables(tables, cfg) -> list[str] | None:
    """The tables to keep (None: all), checked; ``replicas`` is always kept."""
    if tables is None and cfg is not None:
        tables = list(cfg.outputs.get("tables") or TABLES)
    if tables is not None:
        if isinstance(tables, str):
            tables = [tables]
        tables = list(tables)
        for t in tables:
            if t not in TABLES:
                raise ConfigError(f"tables: {t!r} is not allowed (expected names among "
                                  f"{', '.join(TABLES)})")
        if "replicas" not in tables:
            tables = ["replicas", *tables]  # the store and target_ci need it
        if set(tables) == set(TABLES):
            tables = None
    return tables


def check_client_and_backend(client, backend: str) -> None:
    """``client`` is a ``distributed.Client`` (or None) and ``backend`` one of ``BACKENDS``."""
    if client is not None and not all(hasattr(client, a) for a in ("submit", "scatter",
                                                                     "scheduler_info")):
        # an address given as the client failed in the middle of the run ("'str' object has
        # no attribute 'scatter'")
        raise ConfigError(f"client: {client!r} is not allowed (expected a distributed.Client: "
                          "connect with distributed.Client('tcp://HOST:PORT') and pass that)")
    if backend not in compiled.BACKENDS:
        raise ConfigError(f"backend: {backend!r} is not allowed (expected one of "
                          f"{', '.join(compiled.BACKENDS)})")


def plan_run(grid, backend: str, client, threads, memory_budget_bytes: int | None,
             chunk_size: int | None) -> tuple[str, str, int, int]:
    """(backend, why 'auto' chose it or '', memory budget, most replicas per chunk) of a run."""
    if client is None:
        backend_name, chosen = compiled.choose_backend(backend, lambda: work_of_grids([grid]),
                                                       threads)
        plan_backend = "cpu" if backend_name == "cpu" else "cuda"  # cuda+cpu: the device's limits
    else:
        backend_name, chosen = backend, ""
        plan_backend = "cuda" if backend != "cpu" else "cpu"
        try:
            n_workers = max(1, len(client.scheduler_info(n_workers=-1).get("workers", {})))
        except TypeError:  # older distributed: no n_workers argument
            n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        except Exception:
            n_workers = 1
    if memory_budget_bytes is None:
        # a Dask driver cannot see its workers' memory: the conservative CUDA budget
        memory_budget_bytes = (default_memory_budget(plan_backend) if client is None
                               else CUDA_MEMORY_BUDGET)
    max_chunk = chunk_size or MAX_CHUNK[plan_backend]
    if client is not None and chunk_size is None:
        # several chunks per worker, so that the cluster is balanced and a lost worker costs
        # little
        max_chunk = max(1, min(max_chunk, math.ceil(len(grid) / (4 * n_workers))))
    return backend_name, chosen, memory_budget_bytes, max_chunk


def check_size(grid, threads, force: bool, packed: bool = True,
               keep: dict | None = None) -> dict[int, tuple[tuple, int]]:
    """Refuse a run above ``diffsweep.engine.sizing``'s limits (unless ``force``) and pack every
    point once (engine limits); returns point -> ``point_info``. ``packed=False`` (nothing left to
    compute) checks the number of replicas only: the points were checked when computed."""
    from diffsweep.engine import sizing  # noqa: PLC0415
    sizing.check_replicas(len(grid), force)
    if not packed:
        return {}
    pinfo: dict[int, tuple[tuple, int]] = {p: point_info(grid, p, keep)
                                           for p in range(grid.n_points)}
    if not force:
        sizing.check_estimate(sizing.estimate(grid, threads), force)
    return pinfo

