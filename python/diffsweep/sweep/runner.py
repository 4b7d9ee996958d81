"""runner: run a Grid in chunks -- into a results folder (resume), with a progress bar, adaptive
seeds (``target_ci``) and, optionally, on a Dask cluster. See docs/sweeps.md ("Running a sweep")
and docs/distributed.md.

``run(grid)`` with no other argument runs every (point, seed) replica in memory and returns the
tables, exactly as ``engine.execute(grid)`` does (same rows, same order). The rest is opt-in:

* **Chunks.** The replicas to compute are split into chunks. A chunk holds at most
  ``chunk_size`` replicas (default ``MAX_CHUNK[backend]``: 4096 on the CPU, 65536 on CUDA, so
  that the progress bar moves) and at most ``memory_budget_bytes / bytes_per_replica`` of them,
  where ``bytes_per_replica = inputs + outputs + tables`` estimated from a packed sample of
  each point (``replica_bytes``); the engine's working state is one block per worker (CPU
  thread, GPU team), not per replica, and the engine sizes it itself. The budget defaults to
  ``CPU_MEMORY_FRACTION`` of the free RAM (``MemAvailable`` in /proc/meminfo) on the CPU, and
  on CUDA to the smaller of that and ``CUDA_MEMORY_FRACTION`` of the device's free memory;
  on a Dask cluster (whose workers may have GPUs) to ``CUDA_MEMORY_BUDGET``. Replicas of
  points with the same shape (flows, links, sources) are kept together, and repeats (points
  building the same scenario, same seed) in one chunk, which runs them once; a replica's
  result does not depend on its chunk.
* **Store.** ``store=DIR`` writes each finished chunk atomically (``diffsweep.sweep.store.Store``) and
  skips the (point, seed) pairs already there: a rerun resumes, a finished sweep recomputes
  nothing. The folder is identified by ``SweepConfig.points_sha256`` when ``run`` is given a
  ``SweepConfig``, else by ``grid_identity(grid)``: the
  sha256 of the canonical JSON of the builder's ``module:qualname``, the fixed parameters, the
  axes and the zip groups -- seeds are not part of it, so adding seeds resumes into the folder. A
  run into a folder holding another sweep is a ``ConfigError``. With a store, the tables returned
  are always read back from the folder (the requested pairs only, sorted by point and seed), so a
  first run and a resumed run return identical tables.
* **Ctrl-C.** A chunk runs in an engine thread (the compiled call releases the GIL) with an
  ``engine.RunControl``; the first Ctrl-C asks the engine to stop (it does within about a
  second, at any chunk size), the replicas that finished are saved as a chunk, and
  ``SweepInterrupted`` (a ``KeyboardInterrupt``) is raised saying what is saved and how to
  resume. A second Ctrl-C stops at once (``exit_on_second_interrupt``: the process exits with
  status 130 after saying what is saved). The main thread polls the engine's progress every
  ``POLL_S`` seconds, so the progress bar and its ETA move within a chunk.
* **Folder.** The results folder is locked while a run uses it (``diffsweep.sweep.store``: a second
  writer is refused, a stale lock is broken) and claimed (given its manifest) by its first
  chunk: a run that fails before that leaves the folder as it was.
* **Size.** Before the folder is touched, every point is packed once (engine limits: flows,
  links, sources, the slot clock; a ConfigError names the field, the limit and the point), and
  the run is refused above ``diffsweep.engine.sizing``'s limits (replicas, result memory) unless
  ``force=True``.
* **target_ci.** Seeds are added in rounds until the Student-t CI half-width of
  ``target_metric`` (a column of the replicas table) is at most ``target_ci`` at every point --
  relative to |mean| by default (``target_relative=True``: 0.05 means +-5 %), absolute in the
  metric's unit otherwise -- or the point has ``max_seeds`` seeds. Each round gives every unmet
  point ``seeds_per_round`` new seeds (default: as many as the grid has; consecutive seeds after
  the point's largest). ``meta["ci_capped_points"]`` lists the points that hit the cap unmet.
* **Dask.** ``client=`` (a ``distributed.Client``): every chunk is a task ``run_chunk(grid,
  rows, ...)`` with a deterministic key, so a chunk resubmitted (or recomputed after a lost
  worker) is computed once and written once; the driver alone writes the store.

Its parts: ``chunking`` (memory budget, point sizes and engine limits, the split into chunks),
``progress`` (the bar), ``interrupt`` (Ctrl-C and SIGTERM), ``ci_target`` (the rounds of
target_ci) and ``family_run`` (``run_family``); their public names are importable from here.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import signal
import sys
import threading
import time
import warnings
from typing import Any

import numpy as np
import pandas as pd

from diffsweep.engine import compiled, execution as _engine
from diffsweep.engine import rounding
from diffsweep.engine.backend_choice import work_of_grids
from diffsweep.engine.chunking import (CPU_MEMORY_FRACTION,  # noqa: F401 (re-exported)
                                       CUDA_MEMORY_BUDGET, CUDA_MEMORY_FRACTION, MAX_CHUNK,
                                       TABLE_ROW_BYTES, _limit_error, available_memory_bytes,
                                       default_memory_budget, plan_chunks, point_info,
                                       replica_bytes)
from diffsweep.sweep.ci_target import _target_ci_rounds
from diffsweep.core.errors import ConfigError, StoreError, SweepInterrupted, store_error
from diffsweep.sweep.family_run import run_family  # noqa: F401 (re-exported)
from diffsweep.core.identity import canon, digest
from diffsweep.sweep.interrupt import _Sigint
from diffsweep.sweep.progress import POLL_S, _Progress
from diffsweep.core.results import LATER_TABLES, TABLES, Results, sort_table
from diffsweep.engine.run_args import (MAX_THREADS, REPLICA_METRICS,  # noqa: F401 (re-exported)
                                       _check_positive_int, _check_target_ci, check_lanes,
                                       check_threads, int_range)

#: default cap of seeds per point for target_ci
DEFAULT_MAX_SEEDS = 100
#: default metric of target_ci
DEFAULT_TARGET_METRIC = "tcp_goodput_bps"


# ---------- identity of a results folder ----------------------------------------------------
def grid_identity(grid, cfg=None) -> tuple[str, dict]:
    """(config hash, manifest fields) of the results folder of ``grid``.

    A run of a ``SweepConfig`` ``cfg`` uses its ``points_sha256`` (as the CLI does). Else the
    hash is ``diffsweep.core.identity.digest`` (sha256 of the canonical JSON) of
    ``{"builder": "module:qualname", "fixed": {...}, "axes": [[name, values]], "zip": [...]}``:
    what each (point, seed) replica computes, without the seeds."""
    if cfg is not None:
        return cfg.points_sha256, cfg.manifest_fields()
    b = grid.builder
    name = f"{getattr(b, '__module__', '?')}:{getattr(b, '__qualname__', repr(b))}"
    desc = {"builder": name, "fixed": dict(sorted(grid.fixed.items())),
            "axes": [[k, list(v)] for k, v in grid.axes.items()],
            "zip": [{"names": list(g), "values": [list(v) for v in g.values()]}
                    for g in getattr(grid, "zips", [])]}
    fields = {"name": getattr(b, "__name__", "grid"), "builder": name,
              "grid": canon(desc), "points_sha256": digest(desc),
              "seeds": list(grid.seeds), "n_points": grid.n_points}
    return fields["points_sha256"], fields


# ---------- one chunk (what a Dask worker runs) ---------------------------------------------
def _keep(res: Results, tables) -> Results:
    """Only the tables in ``tables`` (others become empty, column-less frames, never stored)."""
    if tables is None:
        return res
    out = {t: (getattr(res, t) if t in tables else pd.DataFrame()) for t in TABLES}
    return Results(**out, meta=res.meta)


def run_chunk(grid, rows: pd.DataFrame, backend: str = "auto", threads: int | None = None,
              lanes: int | None = None, tables=None, control=None) -> Results:
    """Run the replicas ``rows`` of ``grid`` (a pure function of its arguments: the task of one
    chunk). ``backend='auto'``: the machine's predicted faster (``engine.choose_backend``).
    ``control``: an ``engine.RunControl`` (stop and progress from another thread); a stopped
    chunk raises ``engine.EngineInterrupted`` whose ``partial`` holds the finished replicas."""
    try:
        res = _engine.execute(grid, rows, backend, threads, lanes, control=control)
    except ValueError as e:
        if isinstance(e, ConfigError) or not str(e).startswith("batch shape:"):
            raise
        raise _limit_error(str(e)) from None
    return _keep(res, tables)


# ---------- helpers -------------------------------------------------------------------------
def _pairs(df: pd.DataFrame) -> list[tuple[int, int]]:
    if df.empty or "point" not in df.columns:
        return []
    return list(zip(df["point"].astype("int64").tolist(), df["seed"].astype("int64").tolist()))



def _select(res: Results, order: dict[tuple[int, int], int], meta: dict,
            sort_by_request: bool) -> Results:
    """The rows of the pairs in ``order``; sorted by request order (``sort_by_request``: what
    ``engine.execute`` gives) or by (point, seed, ...) (what the store gives)."""
    od = pd.DataFrame({"point": np.fromiter((p for p, _ in order), dtype="int64", count=len(order)),
                       "seed": np.fromiter((s for _, s in order), dtype="int64", count=len(order)),
                       "_order": np.fromiter(order.values(), dtype="int64", count=len(order))})
    out = {}
    for name in TABLES:
        df = getattr(res, name)
        if "point" in df.columns and len(df):
            keys = df[["point", "seed"]].astype("int64")
            pos = keys.merge(od, on=["point", "seed"], how="left")["_order"].to_numpy()
            keep = ~np.isnan(pos) if pos.dtype.kind == "f" else np.ones(len(df), dtype=bool)
            if not keep.all():
                df, pos = df[keep], pos[keep]
            if sort_by_request:
                cols = [c for c in ("flow", "link", "cls_index", "source", "interval")
                        if c in df.columns]
                df = df.assign(_order=pos.astype("int64"))
                df = df.sort_values(["_order", *cols], kind="stable").drop(columns="_order")
                df = df.reset_index(drop=True)
            else:
                df = sort_table(df)
        out[name] = df
    return Results(**out, meta=meta)


# ---------- the session: plan, compute, write -----------------------------------------------
class _Session:
    def __init__(self, grid, backend, threads, lanes, tables, store, client,
                 budget, max_chunk, ident, progress, sig, metric):
        self.grid, self.backend, self.threads = grid, backend, threads
        self.lanes, self.tables, self.store, self.client = lanes, tables, store, client
        self.budget, self.max_chunk, self.ident = budget, max_chunk, ident
        self.progress, self.sig, self.metric = progress, sig, metric
        self.done: set[tuple[int, int]] = set()
        self.parts: list[Results] = []
        self.values: list[pd.DataFrame] = []
        self.replicas_run = self.replicas_distinct = 0
        self.chunks_run = 0
        self.chunk_metas: list[dict] = []
        self.plan_info: dict = {"bytes_per_replica": 0, "chunks": 0}
        self._grid_future = None
        self.point_info: dict[int, tuple[tuple, int]] = {}
        self.precomputed: Results | None = None  # replicas computed beforehand (run_family)
        self.compute = True                      # False: store only what was precomputed

    # -- what is there ---------------------------------------------------------------------
    def load_store_values(self) -> None:
        """The target metric of the replicas already in the store (read from its chunks)."""
        if self.metric is None or self.store is None:
            return
        from diffsweep.sweep.store import CHUNKS  # noqa: PLC0415

        for c in self.store.chunks():
            info = c.files.get("replicas")
            if info is None:
                continue
            path = self.store.path / CHUNKS / info["file"]
            df = pd.read_parquet(path)
            if self.metric in df.columns:
                self.values.append(df[["point", "seed", self.metric]])

    def metric_table(self) -> pd.DataFrame:
        if not self.values:
            return pd.DataFrame(columns=["point", "seed", self.metric])
        df = pd.concat(self.values, ignore_index=True)
        return df.drop_duplicates(["point", "seed"], keep="first")

    # -- running ---------------------------------------------------------------------------
    def run_rows(self, rows: pd.DataFrame) -> None:
        """Compute the replicas of ``rows`` that are not done yet."""
        pairs = _pairs(rows)
        todo_mask = np.array([p not in self.done for p in pairs], dtype=bool)
        todo = rows[todo_mask].reset_index(drop=True) if len(rows) else rows
        if todo.empty:
            return
        todo = self._store_precomputed(todo)
        if todo.empty:
            return
        chunks, info = plan_chunks(self.grid, todo, self.budget, self.max_chunk, self.point_info)
        self.plan_info["bytes_per_replica"] = max(self.plan_info["bytes_per_replica"],
                                                  info["bytes_per_replica"])
        self.plan_info["chunks"] += info["chunks"]
        if info.get("over_budget"):
            import warnings  # noqa: PLC0415
            warnings.warn(f"memory_budget_bytes={self.budget}: one replica needs about "
                          f"{info['bytes_per_replica']} bytes; running one replica per chunk",
                          stacklevel=3)
        if self.client is None:
            for chunk in chunks:
                if self.sig.requested:
                    raise KeyboardInterrupt
                self._run_local(chunk)
                if self.sig.requested:
                    raise KeyboardInterrupt
        else:
            self._run_dask(chunks)

    def _store_precomputed(self, rows: pd.DataFrame) -> pd.DataFrame:
        """Store the replicas of ``rows`` computed beforehand (a family's one engine call) in
        chunks of at most ``max_chunk`` rows in their order, with no point packed to size them
        for an engine (that was ~40% of storing a reproduction's sweeps); the rows left."""
        if self.precomputed is None:
            return rows
        left = [rows.iloc[:0]]
        for a in range(0, len(rows), self.max_chunk):
            if self.sig.requested:
                raise KeyboardInterrupt
            chunk = rows.iloc[a:a + self.max_chunk]
            order = {pr: i for i, pr in enumerate(_pairs(chunk))}
            meta = {k: v for k, v in self.precomputed.meta.items() if k != "distinct_replicas"}
            part = _select(self.precomputed, order, meta, sort_by_request=True)
            got = set(_pairs(part.replicas))
            if got:
                self._accept(_keep(part, self.tables))
                self.plan_info["chunks"] += 1
            if self.compute:
                left.append(chunk[np.array([pr not in got for pr in order], dtype=bool)])
        return pd.concat(left, ignore_index=True)

    def _run_local(self, chunk: pd.DataFrame) -> None:
        """One chunk in an engine thread (the compiled call releases the GIL), while this thread
        moves the progress bar and passes a Ctrl-C on to the engine. A stopped chunk saves the
        replicas that finished and raises KeyboardInterrupt."""
        control = _engine.RunControl()
        box: dict[str, Any] = {}

        def work():
            try:
                box["res"] = run_chunk(self.grid, chunk, self.backend, self.threads, self.lanes,
                                       self.tables, control=control)
            except BaseException as e:  # noqa: BLE001 - handed to the main thread
                box["err"] = e

        worker = threading.Thread(target=work, name="diffsweep-engine", daemon=True)
        self.sig.control = control
        try:
            worker.start()
            while worker.is_alive():
                try:
                    worker.join(POLL_S)
                except KeyboardInterrupt as e:  # without our handler (not the main thread...)
                    if self.sig.requested:
                        raise
                    self.sig.first(getattr(e, "signum", signal.SIGINT))
                if self.sig.requested and not control.stop_requested:
                    control.request_stop()
                if self.progress is not None:
                    self.progress.poll(control, len(chunk))
        finally:
            self.sig.control = None
        err = box.get("err")
        if isinstance(err, _engine.EngineInterrupted):
            self._accept(_keep(err.partial, self.tables))  # the replicas that finished
            raise KeyboardInterrupt
        if err is not None:
            raise err
        self._accept(box["res"])

    def _run_dask(self, chunks: list[pd.DataFrame]) -> None:
        from distributed import as_completed  # noqa: PLC0415

        client = self.client
        if self._grid_future is None:
            from diffsweep.scenario.registry import check_builder_on_workers  # noqa: PLC0415
            check_builder_on_workers(client, self.grid.builder)
            self._grid_future = client.scatter(self.grid, broadcast=True, hash=False)
        futures = []
        try:
            for chunk in chunks:
                text = json.dumps([self.backend, self.tables, _pairs(chunk)])
                key = ("diffsweep-chunk-" + self.ident[:16] + "-"
                       + hashlib.sha256(text.encode()).hexdigest()[:24])
                futures.append(client.submit(run_chunk, self._grid_future, chunk, self.backend,
                                             self.threads, self.lanes, self.tables, key=key,
                                             retries=0))
            for fut in as_completed(futures):
                res = fut.result()
                self._accept(res)
                fut.release()
        except BaseException:
            client.cancel([f for f in futures if not f.done()])
            raise

    def _accept(self, res: Results) -> None:
        """A finished chunk: drop pairs already done (never expected), write, count."""
        pairs = _pairs(res.replicas)
        dup = self.done.intersection(pairs)
        if dup:
            res = _select(res, {p: i for i, p in enumerate(pairs) if p not in dup}, res.meta,
                          sort_by_request=True)
            pairs = [p for p in pairs if p not in dup]
        if not pairs:
            return
        with self.sig.critical():
            if self.store is not None:
                self.store.write_chunk(res)
            else:
                self.parts.append(res)
            self.done.update(pairs)
        self.replicas_run += len(pairs)
        # (a stored part of a family's call has no count of its own: each of its replicas counts)
        self.replicas_distinct += min(int(res.meta.get("distinct_replicas", len(pairs))), len(pairs))
        self.chunks_run += 1
        self.chunk_metas.append(res.meta)
        if self.metric is not None and self.metric in res.replicas.columns:
            self.values.append(res.replicas[["point", "seed", self.metric]])
        self.progress.update(res)


# ---------- run -----------------------------------------------------------------------------
def run(grid, backend: str = "auto", threads: int | None = None, lanes: int | None = None,
        *, chunk_size: int | None = None, store=None, progress: bool | None = None,
        target_ci: float | None = None, target_metric: str = DEFAULT_TARGET_METRIC,
        target_relative: bool = True, max_seeds: int = DEFAULT_MAX_SEEDS,
        seeds_per_round: int | None = None, ci_level: float = 0.95, client=None,
        memory_budget_bytes: int | None = None, quiet: bool = False, tables=None,
        manifest: dict | None = None, resume_hint: str | None = None, force: bool = False,
        break_lock: bool = False, exit_on_second_interrupt: bool = False,
        precomputed: Results | None = None, compute: bool = True) -> Results:
    """Run every (point, seed) replica of ``grid`` and return Results whose tables carry
    ``point``, ``seed`` and every grid column (see the module docstring for the details).

    grid: a ``Grid``, a ``diffsweep.sweep.config.SweepConfig`` (whose ``outputs.tables`` then
        default ``tables``) or the path of a sweep file (loaded with ``load_sweep``).
    backend: 'auto', 'cpu' or 'cuda' (with ``client``: resolved on each worker).
    threads, lanes: passed to the engine (threads None = all OpenMP threads; lanes None = the
    backend's team size per replica, engine.default_lanes).
    chunk_size: most replicas per chunk (default ``MAX_CHUNK[backend]``).
    store: a results folder (path or ``diffsweep.sweep.store.Store``): resume, atomic chunks.
    progress: show a tqdm bar (None: when stderr is a terminal and not ``quiet``), or a callable
        ``progress(done, total)`` called about every ``POLL_S`` seconds with the replicas done
        (a float: a chunk in progress counts by its replica-slots done) and the total.
    target_ci, target_metric, target_relative, max_seeds, seeds_per_round, ci_level: adaptive
        seeds (module docstring).
    client: a ``distributed.Client``: chunks run as Dask tasks.
    memory_budget_bytes: memory a chunk may use (default ``default_memory_budget``).
    tables: names of the tables to keep (default all); the others come back empty.
    manifest: extra fields for the store's manifest (e.g. the CLI's argv).
    resume_hint: how to resume, for the message of ``SweepInterrupted``.
    force: run even above the size limits (``diffsweep.engine.sizing``: replicas, result memory).
    break_lock: take the results folder even if its lock says another run holds it.
    exit_on_second_interrupt: a second Ctrl-C ends the process at once (status 130) after
        saying what is saved (the command line); else it raises KeyboardInterrupt at once.
    precomputed: Results of some of the grid's replicas computed beforehand (``run_family``):
        stored as chunks of this run instead of computed; ``compute=False`` stores them and
        computes nothing else (the family's run was stopped).

    ``meta``: the engine's keys (version, backend, device, threads, wall_s of this call,
    n_replicas returned) plus replicas_run (computed by this call; distinct_replicas of them ran
    in its engine calls, each repeat in a chunk a copy, ``diffsweep.engine.repeats``; a ``precomputed``
    replica counts as one that ran), replicas_reused (found in the store), chunks_run,
    chunk_replicas, memory_budget_bytes, bytes_per_replica, and with a store: store,
    config_hash, problems; with target_ci: ci_* keys.
    """
    t0 = time.perf_counter()
    grid, cfg = _as_grid(grid, force)
    tables = _check_tables(tables, cfg)
    chunk_size = _check_positive_int("chunk_size", chunk_size)
    memory_budget_bytes = _check_positive_int("memory_budget_bytes", memory_budget_bytes)
    threads = check_threads(threads)
    lanes = check_lanes(lanes)
    if client is not None and not all(hasattr(client, a) for a in ("submit", "scatter",
                                                                     "scheduler_info")):
        # an address given as the client failed in the middle of the run ("'str' object has
        # no attribute 'scatter'")
        raise ConfigError(f"client: {client!r} is not allowed (expected a distributed.Client: "
                          "connect with distributed.Client('tcp://HOST:PORT') and pass that)")
    if backend not in compiled.BACKENDS:
        raise ConfigError(f"backend: {backend!r} is not allowed (expected one of "
                          f"{', '.join(compiled.BACKENDS)})")
    from diffsweep.engine.sizing import MAX_REPLICAS  # noqa: PLC0415
    metric, max_seeds, seeds_per_round = _check_target_ci(
        grid, target_ci, target_metric, max_seeds, seeds_per_round, ci_level, MAX_REPLICAS, force)

    # plan: backend, budget, chunk size; sizes and engine limits, before the folder is touched
    backend_name, chosen, memory_budget_bytes, max_chunk = _plan(grid, backend, client, threads,
                                                                 memory_budget_bytes, chunk_size)
    # the results folder
    st = None
    ident, fields = grid_identity(grid, cfg)
    if store is not None:
        from diffsweep.sweep.store import Store  # noqa: PLC0415
        st = store if isinstance(store, Store) else Store(store)
    # every point packed once (engine limits) only when something may be computed: a
    # reproduction's rerun, or its sweeps stored after the family's engine call, pack nothing
    todo = metric is not None or bool(_left_to_compute(grid, st, ident, precomputed, compute))
    packs: dict = {}
    pinfo = _check_size(grid, threads, force, packed=todo, keep=packs)
    if todo:  # times the slots round far off, short windows; points the engine cannot tell apart
        for line in rounding.check(grid, packs):
            warnings.warn(line, UserWarning, stacklevel=2)
    if st is not None:
        st = _open_folder(st, ident, fields, tables, manifest, backend_name, client, threads,
                          break_lock)

    callback = progress if callable(progress) else None
    show = ((not quiet and sys.stderr.isatty()) if progress is None or callback is not None
            else bool(progress))
    wanted: dict[int, list[int]] = {p: list(grid.seeds) for p in range(grid.n_points)}
    order: dict[tuple[int, int], int] = {pr: i for i, pr in enumerate(_pairs(grid.replicas))}
    sig = _Sigint(defer=client is None, hard_exit=exit_on_second_interrupt)
    prog = None
    session = None
    ci_meta: dict[str, Any] = {"backend_choice": chosen} if chosen else {}

    def hard_exit() -> None:
        try:
            if prog is not None:
                prog.close()
            msg = _saved_message(st, session, order, resume_hint, True, sig.signum)
            sys.stderr.write(f"\ndiffsweep: {msg}\n")
            sys.stderr.flush()
        finally:
            if st is not None:
                st.close()

    sig.on_hard_exit = hard_exit
    try:
        with sig:
            session = _Session(grid, backend_name, threads, lanes, tables, st,
                               client, memory_budget_bytes, max_chunk, ident, None, sig,
                               metric)
            session.point_info = pinfo
            session.precomputed, session.compute = precomputed, compute
            if st is not None:
                session.done = st.done_replicas()
                session.load_store_values()
            reused = len(session.done.intersection(order))
            prog = _Progress(show, len(order), reused,
                             desc=(cfg.name if cfg is not None else "diffsweep"),
                             callback=callback)
            session.progress = prog
            # compute the chunks, store each as it finishes, move the progress bar
            session.run_rows(grid.replicas)
            if metric is not None:  # CI targeting: more seeds where the CI is too wide
                ci_meta |= _target_ci_rounds(session, grid, wanted, order, prog, target_ci,
                                             metric, target_relative, max_seeds,
                                             seeds_per_round or len(grid.seeds), ci_level)
    except KeyboardInterrupt as e:
        raise _interrupted(e, sig, prog, st, session, order, resume_hint) from None
    except BaseException as e:
        err = _failed(e, st, session)
        if err is not None:
            raise err from None
        raise
    finally:
        if prog is not None:
            prog.close()

    # assemble the answer; without a store, the rows come point by point, each point's seeds in
    # the grid's order then in the order target_ci added them (engine.execute's order for a plain
    # run); with a store, sorted by point and seed
    order = _answer_order(wanted)
    run_meta = _run_meta(session, order, backend_name, client, threads, t0, max_chunk,
                         memory_budget_bytes, ci_meta)
    res = _answer(session, st, order, run_meta, ident)
    # the grid's axes and zipped parameters: what summarize and where group and filter by
    res.meta["axes"] = list(grid._dim_names)
    return res


# ---------- the steps of run ----------------------------------------------------------------
def _as_grid(grid, force: bool):
    """(Grid, SweepConfig or None) of what ``run`` was given: a Grid, a SweepConfig or the path
    of a sweep file."""
    from diffsweep.sweep.config import SweepConfig, load_sweep  # noqa: PLC0415
    from diffsweep.sweep.grid import Grid  # noqa: PLC0415

    cfg = None
    if isinstance(grid, (str, os.PathLike)):
        grid = load_sweep(grid)
    if not isinstance(grid, (Grid, SweepConfig)):
        raise ConfigError(f"grid: {grid!r} is not allowed (expected a diffsweep.Grid, a "
                          "SweepConfig from diffsweep.sweep.config.load_sweep, or the path of a sweep "
                          "file)")
    if isinstance(grid, SweepConfig):
        cfg = grid
        # (its replicas counted before its seeds are listed; force lifts the limit here too)
        grid = cfg.make_grid(max_replicas=None if force else "default")
    return grid, cfg


def _check_tables(tables, cfg) -> list[str] | None:
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


def _plan(grid, backend: str, client, threads, memory_budget_bytes: int | None,
          chunk_size: int | None) -> tuple[str, str, int, int]:
    """(backend, why 'auto' chose it or '', memory budget, most replicas per chunk) of a run."""
    if client is None:
        backend_name, chosen = compiled.choose_backend(backend, lambda: work_of_grids([grid]), threads)
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
        memory_budget_bytes = default_memory_budget(plan_backend) if client is None else CUDA_MEMORY_BUDGET
    max_chunk = chunk_size or MAX_CHUNK[plan_backend]
    if client is not None and chunk_size is None:
        # several chunks per worker, so that the cluster is balanced and a lost worker costs
        # little
        max_chunk = max(1, min(max_chunk, math.ceil(len(grid) / (4 * n_workers))))
    return backend_name, chosen, memory_budget_bytes, max_chunk


def _check_size(grid, threads, force: bool, packed: bool = True,
                keep: dict | None = None) -> dict[int, tuple[tuple, int]]:
    """Refuse a run above ``diffsweep.engine.sizing``'s limits (unless ``force``) and pack every point
    once (engine limits); returns point -> ``point_info``. ``packed=False`` (nothing left to
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


def _left_to_compute(grid, st, ident: str, precomputed, compute: bool) -> set:
    """The (point, seed) pairs of ``grid`` that neither the folder ``st`` (a Store or None; its
    chunks' records, read without the lock or checking the files: a hint, since a pair left
    out wrongly is still computed, its point packed when planned) nor ``precomputed`` holds;
    empty when ``compute`` is False."""
    if not compute:
        return set()
    left = set(_pairs(grid.replicas))
    if precomputed is not None:
        left.difference_update(_pairs(precomputed.replicas))
    if left and st is not None:
        from diffsweep.sweep.store import MANIFEST, read_manifest, recorded_pairs  # noqa: PLC0415
        try:
            same = (st.path / MANIFEST).is_file() and read_manifest(st.path).get(
                "config_hash") == ident
        except (ConfigError, OSError):
            same = False
        if same:
            left.difference_update(recorded_pairs(st.path))
    return left


def _open_folder(store, ident: str, fields: dict, tables, manifest, backend_name: str, client,
                 threads, break_lock: bool):
    """The results folder as a locked ``Store`` (claimed, given its manifest, by its first
    chunk)."""
    from diffsweep.sweep.store import Store  # noqa: PLC0415

    st = store if isinstance(store, Store) else Store(store)
    _check_folder_tables(st, ident, tables)
    fields = {**fields, **(manifest or {}), "backend": backend_name,
              "device": (compiled.device_name(backend_name) if client is None else "dask"),
              "threads": threads or 0, "tables": list(tables or TABLES)}
    st.open(ident, fields, break_lock=break_lock)
    return st


def _saved_message(st, session, order, resume_hint, at_once: bool = False,
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


def _interrupted(e: KeyboardInterrupt, sig, prog, st, session, order,
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
    return SweepInterrupted(_saved_message(st, session, order, resume_hint, False, signum),
                            store=str(st.path) if st is not None else None,
                            done=n_done, total=len(order), resume=resume_hint,
                            signum=signum)


def _failed(e: BaseException, st, session) -> BaseException | None:
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


def _run_meta(session, order, backend_name: str, client, threads, t0: float, max_chunk: int,
              memory_budget_bytes: int, ci_meta: dict) -> dict:
    """The run's keys of ``meta`` (see ``run``)."""
    first = session.chunk_metas[0] if session.chunk_metas else {}
    return {
        "version": first.get("version", compiled.version()),
        "backend": (first.get("backend", backend_name) if client is None
                    else "+".join(sorted({m.get("backend", "?") for m in session.chunk_metas}))
                    or backend_name),
        "device": first.get("device", compiled.device_name(backend_name) if client is None else "dask"),
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


def _answer_order(wanted: dict[int, list[int]]) -> dict[tuple[int, int], int]:
    """(point, seed) -> row of ``run``'s answer: point by point, seeds in the order given."""
    return {pr: i for i, pr in enumerate((p, s) for p in sorted(wanted) for s in wanted[p])}


def read_stored(grid, store) -> Results:
    """The tables ``run(grid, store=store)`` answers for a folder holding every replica of
    ``grid``, read without a run: no lock, nothing repaired or written (``store.load``); the
    folder's meta, not a run's. A figure worker reads a sweep so once ``reproduce`` stored it."""
    from diffsweep.sweep.store import load  # noqa: PLC0415

    grid, _ = _as_grid(grid, force=True)
    order = _answer_order({p: list(grid.seeds) for p in range(grid.n_points)})
    loaded = load(store)
    if set(order).difference(_pairs(loaded.replicas)):
        raise StoreError(f"{store}: replicas of the grid are missing (a folder holding every "
                         "replica was expected)")
    return _select(loaded, order, dict(loaded.meta), sort_by_request=False)


def _answer(session, st, order, run_meta: dict, ident: str) -> Results:
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
        return _select(loaded, order, meta, sort_by_request=False)
    if not session.parts:  # pragma: no cover - a grid has at least one replica
        return Results(**{t: pd.DataFrame() for t in TABLES}, meta=run_meta)
    if len(session.parts) == 1:
        only = session.parts[0]
        return _select(only, order, {**only.meta, **run_meta}, sort_by_request=True)
    return _select(Results.concat(session.parts), order, run_meta, sort_by_request=True)


def _check_folder_tables(st, ident: str, tables) -> None:
    """A resumed folder keeps the tables it was started with (else some chunks would lack
    tables that others have)."""
    from diffsweep.sweep.store import MANIFEST, read_manifest  # noqa: PLC0415

    if not (st.path / MANIFEST).is_file():
        return
    m = read_manifest(st.path)
    if m.get("config_hash") != ident:
        return  # Store.open reports the other sweep
    have = sorted(m.get("tables") or TABLES)
    want = sorted(tables or TABLES)
    if tables is None:  # a folder written before some tables existed resumes with all it had
        have = [t for t in have if t not in LATER_TABLES]
        want = [t for t in want if t not in LATER_TABLES]
    if have != want:
        raise ConfigError(
            f"tables: {sorted(tables or TABLES)} differ from the tables kept in {st.path} "
            f"({have}); a resumed sweep keeps the same tables: keep [outputs] tables as "
            "before, or use another output folder")


