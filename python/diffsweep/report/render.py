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

__all__ = ["Drawing", "default_workers", "forks", "render", "start"]

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


def forks() -> bool:
    """Whether this platform can fork the workers (else every task is drawn here)."""
    return _fork_context() is not None


def _fork_context():
    import multiprocessing as mp  # noqa: PLC0415

    try:
        return mp.get_context("fork")
    except ValueError:  # pragma: no cover - Windows
        return None


class Drawing:
    """Tasks being drawn (``start``): the workers forked and given their tasks; ``finish``
    draws here too and gathers the answers, ``close`` stops early (a failure of the caller
    before ``finish``: the tasks no worker has started are dropped, those in progress are
    waited for)."""

    def __init__(self, tasks: list[Callable[[], Any]], workers: int | None):
        global _TASKS
        self.tasks = list(tasks)
        #: the caller's: e.g. the position of each task in the caller's own order, and how
        #: its answers are put together (``reproduce``: a family drawn as several tasks)
        self.order = list(range(len(self.tasks)))
        self.joins: list = []
        self.t0 = time.perf_counter()
        self._ex = None
        self._futures: list = []
        workers = default_workers() if workers is None else int(workers)
        ctx = _fork_context()
        if workers <= 1 or len(self.tasks) <= 1 or ctx is None:
            return  # serial: every task here, in ``finish``
        if _TASKS:
            raise RuntimeError("figures.render: another drawing is in progress")
        from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

        _TASKS = self.tasks
        self._ex = ProcessPoolExecutor(max_workers=min(workers - 1, len(self.tasks)),
                                       mp_context=ctx, initializer=_worker_init)
        try:
            with warnings.catch_warnings():
                # Python 3.12+ warns that fork() in a process with threads (pyarrow's, an idle
                # OpenMP pool) may deadlock; the workers only draw, with none of those threads'
                # locks
                warnings.simplefilter("ignore", DeprecationWarning)
                self._futures = [self._ex.submit(_run, i) for i in range(len(self.tasks))]
        except BaseException:
            self.close()
            raise

    def finish(self, meanwhile: Callable[[], Any] | None = None
               ) -> tuple[list[tuple[Any, float]], Any]:
        """``meanwhile()`` here, then the tasks no worker has started, from the back (all of
        them, in order, when drawing serially). Returns ([(task's answer, seconds)] in task
        order, meanwhile's answer); a task's exception is raised here once the tasks in
        progress are done (no task is started after it)."""
        if self._ex is None:
            extra = meanwhile() if meanwhile is not None else None
            return [_timed(t) for t in self.tasks], extra
        try:
            extra = meanwhile() if meanwhile is not None else None
            here = {}
            # from the back, every task no worker has started (a future not yet handed to a
            # worker can be cancelled; the pool hands a worker at most its next one in advance)
            for i in reversed(range(len(self.tasks))):
                if self._futures[i].cancel():
                    here[i] = _timed(self.tasks[i])
            return [here[i] if i in here else f.result()
                    for i, f in enumerate(self._futures)], extra
        finally:
            self.close()

    def close(self) -> None:
        """Drop the tasks no worker has started, wait for those in progress, end the workers."""
        global _TASKS
        if self._ex is not None:
            self._ex.shutdown(wait=True, cancel_futures=True)
            self._ex = None
        if _TASKS is self.tasks:
            _TASKS = []


def start(tasks: list[Callable[[], Any]], workers: int | None = None) -> Drawing:
    """Fork the workers that draw ``tasks`` (up to ``workers`` processes with this one; None:
    one per core) and hand them the tasks, which they take from the front at once; then
    ``Drawing.finish``. ``reproduce`` starts them before it stores the sweeps: the workers'
    tasks read the sweeps from their folders as they are stored."""
    return Drawing(tasks, workers)


def render(tasks: list[Callable[[], Any]], workers: int | None = None,
           meanwhile: Callable[[], Any] | None = None) -> tuple[list[tuple[Any, float]], Any]:
    """Run ``tasks`` (see the module docstring) in up to ``workers`` processes, this one
    included (None: one per core), ``meanwhile()`` here first. Returns ([(task's answer,
    seconds)] in task order, meanwhile's answer). A task's exception is raised here once the
    tasks in progress are done (no task is started after it)."""
    return start(tasks, workers).finish(meanwhile)
