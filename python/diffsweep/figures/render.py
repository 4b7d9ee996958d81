"""Drawing a reproduction's figures in parallel processes: ``render(tasks, workers)``.

A task is a callable with no arguments that draws one figure (matplotlib's Agg canvas, no
pyplot state) and saves it, returning what the caller needs (the paths written, a note). The
tasks run in ``workers`` processes forked from this one, so that they read the tables this
process holds (and any per-seed table computed before the fork) without copying them; each
returns its answer and the seconds it took. ``meanwhile`` runs in this process while they
draw (``reproduce`` rates the claims there). Figures drawn in a worker are the same files as
drawn here (the same code on the same data; ``tests/test_host_side.py`` compares them).

Serial fallback: ``workers`` <= 1, a single task, or a platform without ``fork`` (the tasks
are closures over the tables, which a spawned process would have to receive pickled) run
every task here, in order. The default number of workers is the number of cores this process
may use (``default_workers``).
"""
from __future__ import annotations

import os
import signal
import time
import warnings
from typing import Any, Callable

__all__ = ["default_workers", "render"]

#: the tasks of the ``render`` call in progress: a forked worker finds them here by index
_TASKS: list[Callable[[], Any]] = []


def default_workers() -> int:
    """The number of cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _timed(task: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = task()
    return out, time.perf_counter() - t0


def _run(i: int) -> tuple[Any, float]:
    return _timed(_TASKS[i])


def _worker_init() -> None:
    # a Ctrl-C is the parent's to handle (it waits for the figures in progress, then stops)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _fork_context():
    import multiprocessing as mp  # noqa: PLC0415

    try:
        return mp.get_context("fork")
    except ValueError:  # pragma: no cover - Windows
        return None


def render(tasks: list[Callable[[], Any]], workers: int | None = None,
           meanwhile: Callable[[], Any] | None = None) -> tuple[list[tuple[Any, float]], Any]:
    """Run ``tasks`` (see the module docstring) in up to ``workers`` processes (None: one per
    core) while ``meanwhile()`` runs here. Returns ([(task's answer, seconds)] in task order,
    meanwhile's answer). A task's exception is raised here once the others are done."""
    global _TASKS
    workers = default_workers() if workers is None else int(workers)
    ctx = _fork_context()
    if workers <= 1 or len(tasks) <= 1 or ctx is None:
        extra = meanwhile() if meanwhile is not None else None
        return [_timed(t) for t in tasks], extra
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    _TASKS = list(tasks)
    ex = ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=ctx,
                             initializer=_worker_init)
    try:
        with warnings.catch_warnings():
            # Python 3.12+ warns that fork() in a process with threads (pyarrow's, an idle
            # OpenMP pool) may deadlock; the workers only draw, with none of those threads' locks
            warnings.simplefilter("ignore", DeprecationWarning)
            futures = [ex.submit(_run, i) for i in range(len(tasks))]
        extra = meanwhile() if meanwhile is not None else None
        return [f.result() for f in futures], extra
    except BaseException:
        ex.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        ex.shutdown(wait=True)
        _TASKS = []
