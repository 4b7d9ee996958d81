"""runner: run a Grid (all of it, or the replicas not yet in a store) and return Results."""
from __future__ import annotations

from .engine import execute, resolve_backend
from .results import Results


def run(grid, backend: str = "auto", threads: int | None = None,
        slots_per_launch: int = 1024) -> Results:
    """Run every (point, seed) replica of ``grid`` on ``backend`` ('auto', 'cpu' or 'cuda').

    Returns Results whose tables carry ``point``, ``seed`` and every grid column.
    """
    backend = resolve_backend(backend)
    return execute(grid, None, backend, threads, slots_per_launch)
