"""answer: how a run ends: the tables it answers (``answer``: read back from its folder, which is
released, or from the chunks computed; ``read_stored``: the same of a folder holding every
replica, without a run) with the run's ``meta`` (``run_meta``), and when it is stopped or fails
the folder's record of that and the error raised instead (``interrupted``: what is saved and
how to resume; ``failed``).
"""
from __future__ import annotations

import os
import platform
import signal
import time

import pandas as pd

from diffsweep.core.errors import StoreError, SweepInterrupted, store_error
from diffsweep.core.results import TABLES, Results
from diffsweep.engine import compiled
from diffsweep.sweep.run_plan import as_grid
from diffsweep.sweep.session import pairs_of, select_pairs


def saved_message(st, session, order, resume_hint, at_once: bool = False,
                  signum: int = signal.SIGINT) -> str:
    """What an interrupted run saved, and how to resume."""
    n_done = len(session.done.intersection(order)) if session else 0
    how = ("interrupted" if signum == signal.SIGINT
           else f"interrupted by {signal.Signals(signum).name}")
    if st is None:
        return (f"{how}: nothing is saved (no store); pass store=DIR (--out DIR) to be "
                "able to resume")
    if not st.claimed and not n_done:
        return (f"{how} before any replica finished: nothing is saved and {st.path} "
                f"is left as it was. Start again with:\n  "
                f"{resume_hint or 'the same call'}")
    hint = resume_hint or f"run the same call again with store={str(st.path)!r}"
    lost = (" (the replicas of the chunk in progress are lost)" if at_once else "")
    return (f"{how}: {n_done} of {len(order)} replicas are saved in {st.path} "
            f"({session.replicas_run if session else 0} computed by this run){lost}. "
            f"Resume with:\n  {hint}")


def interrupted(e: KeyboardInterrupt, sig, prog, st, session, order,
                resume_hint) -> SweepInterrupted:
    """A stopped run: close the bar, record the stop in the folder and release it; the
    ``SweepInterrupted`` to raise."""
    # Terminated (SIGTERM raised at once: Dask) carries its signal; a deferred stop was
    # recorded by the handler
    signum = getattr(e, "signum", sig.signum if sig.requested else signal.SIGINT)
    if prog is not None:
        prog.close()
    if st is not None:
        try:
            st.finish({"interrupted": True, "signal": signal.Signals(signum).name,
                       "replicas_run": session.replicas_run if session else 0})
        except OSError:
            pass
        st.close()
    n_done = len(session.done.intersection(order)) if session else 0
    return SweepInterrupted(saved_message(st, session, order, resume_hint, False, signum),
                            store=str(st.path) if st is not None else None,
                            done=n_done, total=len(order), resume=resume_hint,
                            signum=signum)


def failed(e: BaseException, st, session) -> BaseException | None:
    """A failed run: recorded in the folder, which is released; the error to raise instead of
    ``e`` (an OSError of the folder as a one-line StoreError), else None."""
    if st is not None:  # record the failed run; its finished chunks stay and are reused
        try:
            st.finish({"error": f"{type(e).__name__}: {e}",
                       "replicas_run": session.replicas_run if session else 0})
        except OSError:
            pass
        st.close()
    if isinstance(e, OSError) and not isinstance(e, StoreError) and st is not None:
        return store_error(e, st.path, "use the results folder")
    return None


def run_meta(session, order, backend_name: str, client, threads, t0: float, max_chunk: int,
             memory_budget_bytes: int, ci_meta: dict) -> dict:
    """The run's keys of ``meta`` (see ``run``)."""
    first = session.chunk_metas[0] if session.chunk_metas else {}
    return {
        "version": first.get("version", compiled.version()),
        "backend": (first.get("backend", backend_name) if client is None
                    else "+".join(sorted({m.get("backend", "?") for m in session.chunk_metas}))
                    or backend_name),
        "device": first.get("device", (compiled.device_name(backend_name) if client is None
                                       else "dask")),
        "threads": first.get("threads", threads or 0),
        "wall_s": time.perf_counter() - t0,
        "n_replicas": len(order),
        "host": platform.node(), "pid": os.getpid(),
        "replicas_run": session.replicas_run,
        "distinct_replicas": session.replicas_distinct,
        # found in the store (with compute=False some may be neither: not counted)
        "replicas_reused": len(session.done.intersection(order)) - session.replicas_run,
        "chunks_run": session.chunks_run,
        "chunk_replicas": max_chunk,
        "memory_budget_bytes": memory_budget_bytes,
        "bytes_per_replica": session.plan_info["bytes_per_replica"],
        "distributed": client is not None,
        **ci_meta,
    }


def answer_order(wanted: dict[int, list[int]]) -> dict[tuple[int, int], int]:
    """(point, seed) -> row of ``run``'s answer: point by point, seeds in the order given."""
    return {pr: i for i, pr in enumerate((p, s) for p in sorted(wanted) for s in wanted[p])}


def read_stored(grid, store) -> Results:
    """The tables ``run(grid, store=store)`` answers for a folder holding every replica of
    ``grid``, read without a run: no lock, nothing repaired or written (``store.load``); the
    folder's meta, not a run's. A figure worker reads a sweep so once ``reproduce`` stored it."""
    from diffsweep.sweep.store import load  # noqa: PLC0415

    grid, _ = as_grid(grid, force=True)
    order = answer_order({p: list(grid.seeds) for p in range(grid.n_points)})
    loaded = load(store)
    if set(order).difference(pairs_of(loaded.replicas)):
        raise StoreError(f"{store}: replicas of the grid are missing (a folder holding every "
                         "replica was expected)")
    return select_pairs(loaded, order, dict(loaded.meta), sort_by_request=False)


def answer(session, st, order, run_meta: dict, ident: str) -> Results:
    """The tables of the pairs in ``order``: read back from the folder (which is released), else
    from the chunks computed."""
    if st is not None:
        json_meta = {k: v for k, v in run_meta.items() if k != "ci_summary"}
        try:
            st.finish(json_meta)
            loaded = st.load()
        finally:
            st.close()
        meta = {**loaded.meta, **run_meta, "store": str(st.path), "config_hash": ident,
                "problems": list(st.problems)}
        return select_pairs(loaded, order, meta, sort_by_request=False)
    if not session.parts:  # pragma: no cover - a grid has at least one replica
        return Results(**{t: pd.DataFrame() for t in TABLES}, meta=run_meta)
    if len(session.parts) == 1:
        only = session.parts[0]
        return select_pairs(only, order, {**only.meta, **run_meta}, sort_by_request=True)
    return select_pairs(Results.concat(session.parts), order, run_meta, sort_by_request=True)

