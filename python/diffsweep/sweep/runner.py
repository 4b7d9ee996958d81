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
* **Store.** ``store=DIR`` writes each finished chunk atomically
  (``diffsweep.sweep.store.Store``) and skips the (point, seed) pairs already there: a rerun
  resumes, a finished sweep recomputes nothing. The folder is identified by
  ``SweepConfig.points_sha256`` when ``run`` is given a ``SweepConfig``, else by
  ``grid_identity(grid)``: the sha256 of the canonical JSON of the builder's
  ``module:qualname``, the fixed parameters, the axes and the zip groups -- seeds are not part
  of it, so adding seeds resumes into the folder. A run into a folder holding another sweep is
  a ``ConfigError``. With a store, the tables returned are always read back from the folder
  (the requested pairs only, sorted by point and seed), so a first run and a resumed run return
  identical tables.
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

``run`` is its steps, each in the module that owns it: ``run_plan`` (what it was given, the
tables kept, backend, memory budget and chunk size, the size checks), ``run_folder`` (the
folder's identity, what it holds, the folder opened), ``session`` (the chunks computed and
stored; ``run_chunk``), ``answer`` (the tables answered and the run's meta, or what a stopped
or failed run raises). Its other parts: ``chunking`` (memory budget, point sizes and engine
limits, the split into chunks), ``progress`` (the bar), ``interrupt`` (Ctrl-C and SIGTERM),
``ci_target`` (the rounds of target_ci) and ``family_run`` (``run_family``); their public names
are importable from here.
"""
from __future__ import annotations

import sys
import time
import warnings
from typing import Any

from diffsweep.analysis.throughput import window_limited_warning
from diffsweep.core.results import TABLES, Results
from diffsweep.engine import rounding
from diffsweep.engine.chunking import (CPU_MEMORY_FRACTION,  # noqa: F401 (re-exported)
                                       CUDA_MEMORY_BUDGET, CUDA_MEMORY_FRACTION, MAX_CHUNK,
                                       TABLE_ROW_BYTES, available_memory_bytes,
                                       default_memory_budget, plan_chunks, point_info,
                                       replica_bytes)
from diffsweep.engine.run_args import (MAX_THREADS,  # noqa: F401 (re-exported)
                                       _check_positive_int, check_lanes, check_threads,
                                       int_range)
from diffsweep.sweep.answer import (answer, answer_order, failed, interrupted,
                                    read_stored,  # noqa: F401 (re-exported)
                                    run_meta, saved_message)
from diffsweep.sweep.ci_target import (REPLICA_METRICS,  # noqa: F401 (re-exported)
                                      _check_target_ci, _target_ci_rounds)
from diffsweep.core.errors import StoreError
from diffsweep.sweep.family_run import run_family  # noqa: F401 (re-exported)
from diffsweep.sweep.interrupt import _Sigint
from diffsweep.sweep.progress import POLL_S, _Progress  # noqa: F401 (re-exported)
from diffsweep.sweep.run_folder import (grid_identity, left_to_compute,  # noqa: F401 (re-exported)
                                        open_folder, read_only_answer, READ_ONLY_ERRNOS)
from diffsweep.sweep.run_plan import (as_grid, check_client_and_backend, check_size, check_tables,
                                      plan_run)
from diffsweep.sweep.session import Session, pairs_of, run_chunk  # noqa: F401 (re-exported)

#: default cap of seeds per point for target_ci
DEFAULT_MAX_SEEDS = 100
#: default metric of target_ci
DEFAULT_TARGET_METRIC = "tcp_goodput_bps"


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
    in its engine calls, each repeat in a chunk a copy, ``diffsweep.engine.repeats``; a
    ``precomputed`` replica counts as one that ran), replicas_reused (found in the store),
    chunks_run, chunk_replicas, memory_budget_bytes, bytes_per_replica, and with a store: store,
    config_hash, problems; with target_ci: ci_* keys.
    """
    t0 = time.perf_counter()
    # check: what it was given and its own arguments
    grid, cfg = as_grid(grid, force)
    tables = check_tables(tables, cfg)
    chunk_size = _check_positive_int("chunk_size", chunk_size)
    memory_budget_bytes = _check_positive_int("memory_budget_bytes", memory_budget_bytes)
    threads = check_threads(threads)
    lanes = check_lanes(lanes)
    check_client_and_backend(client, backend)
    from diffsweep.engine.sizing import MAX_REPLICAS  # noqa: PLC0415
    metric, max_seeds, seeds_per_round = _check_target_ci(
        grid, target_ci, target_metric, max_seeds, seeds_per_round, ci_level, MAX_REPLICAS, force)

    # plan: backend, budget, chunk size; sizes and engine limits, before the folder is touched
    backend_name, chosen, memory_budget_bytes, max_chunk = plan_run(grid, backend, client,
                                                                    threads, memory_budget_bytes,
                                                                    chunk_size)
    # the results folder
    st = None
    ident, fields = grid_identity(grid, cfg)
    if store is not None:
        from diffsweep.sweep.store import Store  # noqa: PLC0415
        st = store if isinstance(store, Store) else Store(store)
    # every point packed once (engine limits) only when something may be computed: a
    # reproduction's rerun, or its sweeps stored after the family's engine call, pack nothing
    todo = metric is not None or bool(left_to_compute(grid, st, ident, precomputed, compute))
    packs: dict = {}
    pinfo = check_size(grid, threads, force, packed=todo, keep=packs)
    if todo:  # times the slots round far off, short windows; points the engine cannot tell apart
        for line in rounding.check(grid, packs):
            warnings.warn(line, UserWarning, stacklevel=2)
    if st is not None:
        try:
            st = open_folder(st, ident, fields, tables, manifest, backend_name, client, threads,
                             break_lock)
        except StoreError as e:  # read-only storage: a finished folder needs no lock
            if e.errno not in READ_ONLY_ERRNOS:
                raise
            res = read_only_answer(grid, st, e, ident, precomputed, compute, backend_name)
            res.meta["axes"] = list(grid._dim_names)
            return res

    callback = progress if callable(progress) else None
    show = ((not quiet and sys.stderr.isatty()) if progress is None or callback is not None
            else bool(progress))
    wanted: dict[int, list[int]] = {p: list(grid.seeds) for p in range(grid.n_points)}
    order: dict[tuple[int, int], int] = {pr: i for i, pr in enumerate(pairs_of(grid.replicas))}
    sig = _Sigint(defer=client is None, hard_exit=exit_on_second_interrupt)
    prog = None
    session = None
    ci_meta: dict[str, Any] = {"backend_choice": chosen} if chosen else {}

    def hard_exit() -> None:
        try:
            if prog is not None:
                prog.close()
            msg = saved_message(st, session, order, resume_hint, True, sig.signum)
            sys.stderr.write(f"\ndiffsweep: {msg}\n")
            sys.stderr.flush()
        finally:
            if st is not None:
                st.close()

    sig.on_hard_exit = hard_exit
    try:
        with sig:
            session = Session(grid, backend_name, threads, lanes, tables, st,
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
        raise interrupted(e, sig, prog, st, session, order, resume_hint) from None
    except BaseException as e:
        err = failed(e, st, session)
        if err is not None:
            raise err from None
        raise
    finally:
        if prog is not None:
            prog.close()

    # assemble the answer; without a store, the rows come point by point, each point's seeds in
    # the grid's order then in the order target_ci added them (engine.execute's order for a plain
    # run); with a store, sorted by point and seed
    order = answer_order(wanted)
    meta = run_meta(session, order, backend_name, client, threads, t0, max_chunk,
                    memory_budget_bytes, ci_meta)
    res = answer(session, st, order, meta, ident)
    # goodputs that measure max_window_pkts, not the network (issue 53: ns-2's window_ 20
    # capped two 100-ms flows at 3.2 Mb/s of a 10 Mb/s link, without a word)
    line = window_limited_warning(res.flows) if "flows" in (tables or TABLES) else None
    if line is not None:
        warnings.warn(line, UserWarning, stacklevel=2)
    # the grid's axes and zipped parameters: what summarize and where group and filter by
    res.meta["axes"] = list(grid._dim_names)
    return res
