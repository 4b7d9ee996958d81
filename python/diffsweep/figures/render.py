"""Drawing a reproduction's figures in parallel processes: ``render(tasks, workers)``.

A task is a callable with no arguments that draws one figure (matplotlib's Agg canvas, no
pyplot state) and saves it, returning what the caller needs (the paths written, a note). The
tasks are drawn by ``workers`` processes: ``workers - 1`` forked from this one, so that they
read the tables this process holds (and any per-seed table computed before the fork) without
copying them, and this one. This process first runs ``meanwhile`` (``reproduce`` rates the
claims there), then draws too: the workers take the tasks from the front of the list, this
process from the back, each task once (a task no worker has started yet is this process's to
take). What it draws reads the per-seed tables ``meanwhile`` computed here instead of
computing them again in a worker, and no process waits idle beside the workers (with one
worker per core, the claims were rated in a third process on two cores). Each task returns
its answer and the seconds it took. Figures drawn in a worker are the same files as drawn
here (the same code on the same data; ``tests/test_host_side.py`` compares them).

Serial fallback: ``workers`` <= 1, a single task, or a platform without ``fork`` (the tasks
are closures over the tables, which a spawned process would have to receive pickled) run
every task here, in order. The default number of processes is the number of cores this
process may use (``default_workers``).
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
    """Run ``tasks`` (see the module docstring) in up to ``workers`` processes, this one
    included (None: one per core), ``meanwhile()`` here first. Returns ([(task's answer,
    seconds)] in task order, meanwhile's answer). A task's exception is raised here once the
    tasks in progress are done (no task is started after it)."""
    global _TASKS
    workers = default_workers() if workers is None else int(workers)
    ctx = _fork_context()
    if workers <= 1 or len(tasks) <= 1 or ctx is None:
        extra = meanwhile() if meanwhile is not None else None
        return [_timed(t) for t in tasks], extra
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    _TASKS = list(tasks)
    ex = ProcessPoolExecutor(max_workers=min(workers - 1, len(tasks)), mp_context=ctx,
                             initializer=_worker_init)
    try:
        with warnings.catch_warnings():
            # Python 3.12+ warns that fork() in a process with threads (pyarrow's, an idle
            # OpenMP pool) may deadlock; the workers only draw, with none of those threads' locks
            warnings.simplefilter("ignore", DeprecationWarning)
            futures = [ex.submit(_run, i) for i in range(len(tasks))]
        extra = meanwhile() if meanwhile is not None else None
        here = {}
        # from the back, every task no worker has started (a future not yet handed to a
        # worker can be cancelled; the pool hands a worker at most its next one in advance)
        for i in reversed(range(len(tasks))):
            if futures[i].cancel():
                here[i] = _timed(tasks[i])
        return [here[i] if i in here else f.result() for i, f in enumerate(futures)], extra
    except BaseException:
        ex.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        ex.shutdown(wait=True)
        _TASKS = []
