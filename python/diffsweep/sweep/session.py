"""session: the computation of one run: the replicas it is asked for that are not done, split
into chunks (``chunking.plan_chunks``), each run in an engine thread (``run_chunk``; with a Dask
client, as a task) while the main thread moves the progress bar and passes a Ctrl-C on, and
stored (or kept) as it finishes. See the module docstring of ``diffsweep.sweep.runner``
("Chunks", "Ctrl-C", "Dask").
"""
from __future__ import annotations

import hashlib
import json
import signal
import threading
from typing import Any

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES, Results, sort_table
from diffsweep.engine import execution as _engine
from diffsweep.engine.chunking import _limit_error, plan_chunks
from diffsweep.sweep.ci_target import REPLICA_METRICS
from diffsweep.sweep.progress import POLL_S


# ---------- one chunk (what a Dask worker runs) ---------------------------------------------
def keep_tables(res: Results, tables) -> Results:
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
    return keep_tables(res, tables)


# ---------- the pairs of a table, and the rows of some pairs -------------------------------
def pairs_of(df: pd.DataFrame) -> list[tuple[int, int]]:
    """The (point, seed) of each row of ``df`` ([] for a table without them)."""
    if df.empty or "point" not in df.columns:
        return []
    return list(zip(df["point"].astype("int64").tolist(), df["seed"].astype("int64").tolist()))


def select_pairs(res: Results, order: dict[tuple[int, int], int], meta: dict,
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
class Session:
    """The chunks one run computes and what became of them (the pairs done, the parts kept
    without a store, the counts and metas its answer reports, the target metric's values)."""

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
        from diffsweep.sweep.records import CHUNKS  # noqa: PLC0415

        if self.metric not in REPLICA_METRICS:  # a metric of several tables: all of them
            import warnings  # noqa: PLC0415
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # damaged chunks: the run reports them
                res = self.store.load(repair=False)
            if len(res.replicas):
                self.values.append(self._metric_of(res))
            return
        for c in self.store.chunks():
            info = c.files.get("replicas")
            if info is None:
                continue
            path = self.store.path / CHUNKS / info["file"]
            df = pd.read_parquet(path)
            if self.metric in df.columns:
                self.values.append(df[["point", "seed", self.metric]])

    def _metric_of(self, res) -> pd.DataFrame:
        """(point, seed, the target metric) of ``res``'s replicas."""
        if self.metric in res.replicas.columns:
            return res.replicas[["point", "seed", self.metric]]
        from diffsweep.analysis.registry import values  # noqa: PLC0415
        return values(res, self.metric)[["point", "seed", self.metric]]

    def metric_table(self) -> pd.DataFrame:
        if not self.values:
            return pd.DataFrame(columns=["point", "seed", self.metric])
        df = pd.concat(self.values, ignore_index=True)
        return df.drop_duplicates(["point", "seed"], keep="first")

    # -- running ---------------------------------------------------------------------------
    def run_rows(self, rows: pd.DataFrame) -> None:
        """Compute the replicas of ``rows`` that are not done yet."""
        pairs = pairs_of(rows)
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
            order = {pr: i for i, pr in enumerate(pairs_of(chunk))}
            meta = {k: v for k, v in self.precomputed.meta.items() if k != "distinct_replicas"}
            part = select_pairs(self.precomputed, order, meta, sort_by_request=True)
            got = set(pairs_of(part.replicas))
            if got:
                self._accept(keep_tables(part, self.tables))
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
            self._accept(keep_tables(err.partial, self.tables))  # the replicas that finished
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
                text = json.dumps([self.backend, self.tables, pairs_of(chunk)])
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
        pairs = pairs_of(res.replicas)
        dup = self.done.intersection(pairs)
        if dup:
            res = select_pairs(res, {p: i for i, p in enumerate(pairs) if p not in dup}, res.meta,
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
        self.replicas_distinct += min(int(res.meta.get("distinct_replicas", len(pairs))),
                                      len(pairs))
        self.chunks_run += 1
        self.chunk_metas.append(res.meta)
        if self.metric is not None and len(res.replicas):
            self.values.append(self._metric_of(res))
        self.progress.update(res)

