"""Results folder: Parquet chunks + manifest, with resume and corruption checks.

Layout of a results folder ``DIR``::

    DIR/manifest.json                    sweep text + hashes, diffsweep version, git commit,
                                         backend, device, host, start/end times, one entry per run
    DIR/chunks/<chunk>.<table>.parquet   one file per table (replicas, flows, queues, sources,
                                         intervals) per finished chunk; every table has
                                         ``point`` and ``seed`` columns
    DIR/chunks/<chunk>.done.json         written last: the chunk's (point, seed) pairs and each
                                         file's sha256, size and row count
    DIR/corrupt/                         chunks found incomplete or damaged, moved aside

Every file is written atomically: to a temporary file in the same folder, flushed, fsync'ed,
renamed over its final name with ``os.replace``, and the folder fsync'ed. A chunk counts as done
only when its ``.done.json`` exists and every file it lists is present with the recorded size and
sha256; anything else (a crash between files, a truncated or modified file) is reported with
``warnings.warn`` and in ``Store.problems``, moved to ``DIR/corrupt/`` and its replicas are
computed again by the next run.

Resume: ``Store.open(config_hash, ...)`` on a folder whose manifest has the same ``config_hash``
continues it (``done_replicas()`` tells the runner what to skip). A folder holding another sweep
(another hash) is refused with a ``ConfigError`` that names both sweeps: results of different
sweeps are never mixed silently; choose another output folder or delete the old one. The hash to
pass is ``SweepConfig.points_sha256`` (see ``diffsweep.sweep.config``), so that adding seeds
resumes.

**Self-describing chunks.** A chunk's ``.done.json`` also records the folder's manifest as it was
when the chunk was written (without its runs) and the record of the run that wrote it, so that a
lost or damaged ``manifest.json`` is rebuilt from the chunks by ``diffsweep.sweep.repair.repair``
(``diffsweep repair DIR``). Reading a folder whose manifest is missing or damaged while it holds
chunks is a ConfigError that says to run it; reading never repairs (the folder may be read-only,
shared, or locked by a run).

**One writer at a time.** ``Store.open`` takes the lock ``DIR/.diffsweep.lock`` (created with
``O_EXCL``; it holds the owner's pid, host, start time and command); ``Store.close`` removes it. A
second run into a locked folder is refused with a ``FolderBusy`` error naming the owner. A lock
whose owner is gone (same host, pid no longer running) is stale and is broken with a warning; a
lock from another host cannot be checked from here: ``Store.open(..., break_lock=True)``
(``--break-lock``) breaks it, or delete the file. ``break_lock`` is refused (FolderBusy) while
the owner runs on this host: two writers would each rewrite the manifest (one run's record lost)
and compute every replica twice (repeated chunks).

**Claimed on the first chunk.** A new folder gets its ``manifest.json`` only when its first chunk is
written. A run that fails or is stopped before that leaves nothing behind (``Store.close`` removes
the lock, and the folder itself when the run created it and it is empty), so the corrected sweep
can use the same folder.

**I/O errors** (read-only file system, disk full, no permission, a path through a regular file)
are raised as ``diffsweep.core.errors.StoreError``: one line naming the path, the reason and what to
do. Chunks written before the error stay valid and are reused by the next run.

Here: the ``Store`` (opening, chunks written, checked and moved aside, loading) and ``load``; the
folder's file names, manifest and chunk records read without a Store: ``diffsweep.sweep.records``;
the lock: ``diffsweep.sweep.lock``.
"""
from __future__ import annotations

import json
import os
import platform
import shlex
import shutil
import socket
import uuid
import warnings
from pathlib import Path

import pandas as pd

from diffsweep.core.version import diffsweep_version  # noqa: F401 (re-exported)
from diffsweep.core.atomic import (TMP_PREFIX, _fsync_dir, _fsync_file,  # noqa: F401 (re-exported)
                                   _sha256_file, _tmp_path, atomic_write_bytes, atomic_write_files,
                                   atomic_write_json, jsonable)
from diffsweep.core.axes import dims_of
from diffsweep.core.errors import (ConfigError,  # noqa: F401 (StoreError: documented raise)
                                   FolderBusy, StoreError, store_error)
from diffsweep.core.results import LATER_TABLES, TABLES, Results
from diffsweep.sweep.lock import LOCK_SETTLE_S, FolderLock  # noqa: F401 (re-exported)
from diffsweep.sweep.records import (CHUNKS, CORRUPT, DONE, FORMAT,  # noqa: F401 (re-exported)
                                     LOCK, MANIFEST, RUN_KEYS, Chunk, _pairs, _repair_hint,
                                     _rows_of, check_chunk, count_chunks, git_commit,
                                     read_manifest, recorded_pairs, utc_now)


class Store(FolderLock):
    """A results folder (see the module docstring)."""

    def __init__(self, path: str | Path):
        # run(store=123) and load(123) were a bare TypeError from Path
        if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
            raise ConfigError(f"store: {path!r} is not allowed (expected a folder path, a str or "
                              "a pathlib.Path)")
        self.path = Path(path)
        self.chunk_dir = self.path / CHUNKS
        self.corrupt_dir = self.path / CORRUPT
        self.manifest: dict | None = None
        #: messages about incomplete or damaged chunks found so far (also given as warnings)
        self.problems: list[str] = []
        #: the same, by chunk id, for messages that name the chunk and its replicas (the CLI):
        #: damaged[id] = {"why", "replicas" (None: unknown), "moved"};
        #: duplicates[id] = {"repeated", "replicas"} (pairs also in an older chunk, of all)
        self.damaged: dict[str, dict] = {}
        self.duplicates: dict[str, dict] = {}
        self._verified: dict[str, tuple] = {}  # chunk id -> stat signature of its checked files
        self._pending: dict | None = None  # manifest of a new folder, written with chunk 1
        self._created = False              # this Store made the folder
        self._locked = False

    # -- the lock (FolderLock: lock_path, lock_owner, _acquire) and closing ---------------
    def close(self) -> None:
        """Release the lock; a folder claimed by no chunk (``open`` but nothing written) is rolled
        back: its lock removed, and the folder too when this Store created it and it is empty."""
        self._release()
        if self._pending is not None:
            self._pending = None
            if self._created:
                for d in (self.chunk_dir, self.path):
                    try:
                        d.rmdir()  # only when empty
                    except OSError:
                        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def claimed(self) -> bool:
        """Whether the folder has its manifest (a first chunk was written, now or before)."""
        return self._pending is None and (self.path / MANIFEST).is_file()

    # -- opening --------------------------------------------------------------------------
    def open(self, config_hash: str, manifest_fields: dict | None = None,
             break_lock: bool = False) -> dict:
        """Lock the folder (created if needed) and resume it if it holds the same sweep; a new
        folder gets its manifest with its first chunk (``write_chunk``). Call ``close()`` at the
        end (or use the Store as a context manager).

        ``manifest_fields``: recorded in the manifest (e.g. ``SweepConfig.manifest_fields()``
        plus ``backend``, ``device``, ``threads``). ConfigError if the folder holds another sweep
        (other ``config_hash``), is not a results folder, or its manifest is unreadable;
        FolderBusy if another run holds its lock (``break_lock``: break it anyway);
        StoreError if it cannot be created or written.
        """
        if not isinstance(config_hash, str) or not config_hash:
            raise ConfigError(f"config_hash: {config_hash!r} is not allowed (expected a "
                              "non-empty string)")
        fields = jsonable(dict(manifest_fields or {}))
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(f"{self.path}: exists and is not a folder; choose another "
                              "output folder")
        try:
            self._created = not self.path.exists()
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise store_error(e, self.path, "create the results folder") from None
        self._acquire(break_lock, fields.get("argv"))
        try:
            return self._open_locked(config_hash, fields)
        except BaseException:
            if not (self.path / MANIFEST).exists():
                self._pending = self._pending or {}  # roll back what this open created
            self.close()
            raise

    def _open_locked(self, config_hash: str, fields: dict) -> dict:
        mf = self.path / MANIFEST
        now = utc_now()
        run = {"start": now, "end": None, "host": socket.gethostname(),
               "platform": platform.platform(), "diffsweep_version": diffsweep_version(),
               "git_commit": git_commit(), "pid": os.getpid()}
        run.update({k: fields[k] for k in RUN_KEYS if k in fields})
        if mf.exists():
            m = read_manifest(self.path)
            if m["config_hash"] != config_hash:
                old = m.get("name") or "?"
                new = fields.get("name") or "?"
                raise ConfigError(
                    f"{self.path}: this folder holds results of another sweep ('{old}', config "
                    f"hash {m['config_hash'][:12]}) than this run ('{new}', config hash "
                    f"{config_hash[:12]}); results of different sweeps are never mixed: choose "
                    f"another output folder (--out) or delete {self.path} to start over")
        else:
            if count_chunks(self.path):  # chunks whose manifest was lost: never start over them
                raise ConfigError(_repair_hint(self.path, "is missing"))
            others = [e.name for e in self.path.iterdir() if e.name not in (LOCK, CHUNKS)]
            if (self.chunk_dir.is_dir() and any(self.chunk_dir.iterdir())):
                others.append(CHUNKS)
            if others:
                raise ConfigError(
                    f"{self.path}: the folder is not empty ({', '.join(sorted(others)[:5])}) and "
                    f"has no {MANIFEST}, so it is not a diffsweep results folder; choose another "
                    "output folder (--out) or empty it")
            m = {"format": FORMAT, "config_hash": config_hash, **fields, "start": now,
                 "end": None, "runs": []}
        m.setdefault("runs", []).append(run)
        for k in ("backend", "device", "threads", "host", "diffsweep_version", "git_commit"):
            if k in run:
                m[k] = run[k]
        m["end"] = None
        self.manifest = m
        if not mf.exists():  # a new folder: claimed by its first chunk (write_chunk)
            self._pending = m
            return m
        try:
            self.chunk_dir.mkdir(exist_ok=True)
            _fsync_dir(self.path)
            for stale in self.chunk_dir.glob(TMP_PREFIX + "*"):  # left by an interrupted write
                stale.unlink(missing_ok=True)
            atomic_write_json(mf, m)
        except OSError as e:
            raise store_error(e, self.path, "write the manifest") from None
        return m

    def finish(self, meta: dict | None = None) -> dict:
        """Record the end time (and ``meta``: wall_s, n_replicas, ...) of the current run. A folder
        not claimed yet (no chunk written) is left without a manifest."""
        if self._pending is not None:
            return self._pending
        m = self.manifest if self.manifest is not None else read_manifest(self.path)
        now = utc_now()
        runs = m.setdefault("runs", [])
        if not runs:
            runs.append({"start": m.get("start")})
        runs[-1]["end"] = now
        if meta:
            runs[-1]["meta"] = jsonable(meta)
        m["end"] = now
        try:
            atomic_write_json(self.path / MANIFEST, m)
        except OSError as e:
            raise store_error(e, self.path, "write the manifest") from None
        self.manifest = m
        return m

    # -- chunks ---------------------------------------------------------------------------
    def write_chunk(self, results: Results) -> str | None:
        """Write one finished chunk (all its non-empty-schema tables) atomically; return its id
        (None if the chunk has no replicas). The ``.done.json`` is written last."""
        tables = results.tables()
        rep = tables["replicas"]
        for name, df in tables.items():
            if len(df.columns) and not {"point", "seed"} <= set(df.columns):
                raise ValueError(f"write_chunk: table {name!r} has no point/seed columns")
        if not len(rep.columns) or rep.empty:
            return None
        claiming = self._pending
        try:
            return self._write_chunk(tables, rep, results.meta)
        except OSError as e:
            if claiming is not None and self._pending is None:  # un-claim: no chunk was written
                try:
                    (self.path / MANIFEST).unlink(missing_ok=True)
                except OSError:
                    pass
                self._pending = claiming
            raise store_error(e, self.chunk_dir, "write a chunk") from None

    def _write_chunk(self, tables: dict, rep: pd.DataFrame, meta: dict) -> str:
        pairs = _pairs(rep)
        if len(set(pairs)) != len(pairs):
            raise ValueError("write_chunk: a (point, seed) pair appears twice in the replicas "
                             "table")
        pair_set = set(pairs)
        for name, df in tables.items():
            if len(df.columns) and not set(_pairs(df)) <= pair_set:
                raise ValueError(f"write_chunk: table {name!r} has (point, seed) pairs that are "
                                 "not in the replicas table")
        self.chunk_dir.mkdir(parents=True, exist_ok=True)
        if self._pending is not None:  # the first chunk claims the folder
            atomic_write_json(self.path / MANIFEST, self._pending)
            self._pending = None
        chunk_id = f"c{pairs[0][0]:06d}s{pairs[0][1]}-{uuid.uuid4().hex[:8]}"
        try:
            return self._write_files(chunk_id, tables, pairs, meta)
        except BaseException:  # leave no part of this chunk behind
            for f in self.chunk_dir.glob(f"{chunk_id}.*"):
                f.unlink(missing_ok=True)
            raise

    def _write_files(self, chunk_id: str, tables: dict, pairs: list, meta: dict) -> str:
        files = {}
        for name, df in tables.items():
            # A table added after 0.2 (transfers, traffic) is written only when it has rows: a
            # sweep without short-lived traffic keeps its chunks as they were.
            if not len(df.columns) or (name in LATER_TABLES and df.empty):
                continue
            final = self.chunk_dir / f"{chunk_id}.{name}.parquet"
            tmp = _tmp_path(final)
            try:
                df.to_parquet(tmp, index=False)
                _fsync_file(tmp)
                digest = _sha256_file(tmp)
                size = tmp.stat().st_size
                os.replace(tmp, final)
            finally:
                if tmp.exists():
                    tmp.unlink()
            files[name] = {"file": final.name, "sha256": digest, "bytes": size, "rows": len(df)}
        _fsync_dir(self.chunk_dir)
        done = {"format": FORMAT, "chunk": chunk_id, "created": utc_now(), "pairs": pairs,
                "files": files, "meta": meta}
        if self.manifest is not None:
            # Each chunk carries the folder's identity (config hash, sweep text, tables, ...)
            # and its run's record, so that a lost or damaged manifest.json can be rebuilt from
            # the chunks (``repair``, ``diffsweep repair DIR``) instead of the results being lost.
            done["manifest"] = {k: v for k, v in self.manifest.items() if k != "runs"}
            runs = self.manifest.get("runs") or []
            if runs:
                done["run"] = runs[-1]
        atomic_write_json(self.chunk_dir / f"{chunk_id}.{DONE}", done)
        return chunk_id

    def chunks(self, repair: bool = True) -> list[Chunk]:
        """The valid chunks, oldest first. Incomplete/damaged ones are reported (warning and
        ``problems``) and, with ``repair``, moved to ``DIR/corrupt/``."""
        if not self.chunk_dir.is_dir():
            return []
        by_id: dict[str, list[Path]] = {}
        try:
            listing = sorted(self.chunk_dir.iterdir())
        except OSError as e:
            raise store_error(e, self.chunk_dir, "list the chunks") from None
        for f in listing:
            if f.name.startswith(TMP_PREFIX) or not f.is_file():
                continue
            by_id.setdefault(f.name.split(".", 1)[0], []).append(f)
        out = []
        for cid, paths in by_id.items():
            chunk, why, n_pairs = check_chunk(self.chunk_dir, cid, paths, self._verified)
            if chunk is not None:
                out.append(chunk)
                continue
            self._verified.pop(cid, None)
            if n_pairs is None:
                n_pairs = _rows_of(self.chunk_dir / f"{cid}.replicas.parquet")
            moved = self._move_aside(cid, paths, why) if repair else False
            self.damaged[cid] = {"why": why, "replicas": n_pairs, "moved": moved}
            msg = (f"{self.chunk_dir / cid}: {why}; "
                   + ("moved to " + str(self.corrupt_dir) if moved else "ignored")
                   + "; its replicas will be computed again")
            if msg not in self.problems:
                self.problems.append(msg)
                warnings.warn(msg, stacklevel=2)
        out.sort(key=lambda c: (c.created, c.id))
        return out

    def _move_aside(self, cid: str, paths: list[Path], why: str) -> bool:
        try:
            self.corrupt_dir.mkdir(exist_ok=True)
            for p in paths:
                dest = self.corrupt_dir / p.name
                if dest.exists():
                    dest = self.corrupt_dir / f"{p.name}.{uuid.uuid4().hex[:6]}"
                shutil.move(str(p), str(dest))
            (self.corrupt_dir / f"{cid}.reason.txt").write_text(f"{utc_now()} {why}\n")
            _fsync_dir(self.chunk_dir)
            return True
        except OSError:
            return False

    def done_replicas(self, repair: bool = True) -> set[tuple[int, int]]:
        """The (point, seed) pairs of all valid chunks."""
        done: set[tuple[int, int]] = set()
        for c in self.chunks(repair=repair):
            done.update(c.pairs)
        return done

    # -- loading --------------------------------------------------------------------------
    def load(self, repair: bool = True) -> Results:
        """All valid chunks as one Results (sorted; ``meta`` from the manifest). A (point, seed)
        pair found in several chunks (never expected) keeps the oldest chunk's rows and is
        reported."""
        manifest = self.manifest if self.manifest is not None else read_manifest(self.path)
        parts: list[Results] = []
        seen: set[tuple[int, int]] = set()
        wall = 0.0
        calls: dict[str, dict] = {}  # the engine calls that computed the chunks, once each
        chunks = self.chunks(repair=repair)
        for c in chunks:
            dup = seen.intersection(c.pairs)
            frames = {}
            for name in TABLES:
                info = c.files.get(name)
                if info is None:
                    frames[name] = pd.DataFrame()
                    continue
                df = pd.read_parquet(self.chunk_dir / info["file"])
                if dup and not df.empty:
                    keys = pd.MultiIndex.from_arrays([df["point"].astype("int64"),
                                                      df["seed"].astype("int64")])
                    df = df[~keys.isin(list(dup))].reset_index(drop=True)
                frames[name] = df
            if dup:
                self.duplicates[c.id] = {"repeated": len(dup), "replicas": len(c.pairs)}
                msg = (f"{self.chunk_dir / c.id}: {len(dup)} (point, seed) pairs also in an older "
                       "chunk; the older rows are kept")
                if msg not in self.problems:
                    self.problems.append(msg)
                    warnings.warn(msg, stacklevel=2)
            seen.update(c.pairs)
            try:
                wall += float(c.meta.get("wall_s") or 0.0)
            except (TypeError, ValueError):
                pass
            call = {k: c.meta.get(k) for k in ("host", "pid", "wall_s", "n_replicas")}
            calls.setdefault(json.dumps(call, sort_keys=True, default=str), call)
            parts.append(Results(**frames))
        meta = {
            "version": manifest.get("diffsweep_version"),
            "backend": manifest.get("backend"),
            "device": manifest.get("device"),
            "threads": manifest.get("threads"),
            "wall_s": wall,
            "n_replicas": len(seen),
            "name": manifest.get("name"),
            "config_hash": manifest.get("config_hash"),
            "store": str(self.path),
            "n_chunks": len(chunks),
            "problems": list(self.problems),
            # one per engine call (the chunks' host, pid, wall_s and n_replicas): the calls of
            # a reproduction's family computed many sweeps' chunks
            "engine_calls": list(calls.values()),
            # the sweep's axes and zipped parameters: what show, plot, summarize and where
            # group and filter by (diffsweep.core.axes)
            "axes": dims_of(manifest),
            "completeness": completeness(manifest, seen, self.path),
        }
        if not parts:
            return Results(**{name: pd.DataFrame() for name in TABLES}, meta=meta)
        return Results.concat(parts, meta=meta)


def completeness(manifest: dict, pairs, path) -> dict:
    """How much of the sweep the (point, seed) ``pairs`` are: points (with every seed) and
    replicas, done and expected, and the command that computes the rest (Results.meta
    "completeness": plot and export warn on a partial folder, issue 53)."""

    runs = manifest.get("runs") or []
    seeds = (runs[-1].get("seeds") if runs and runs[-1].get("seeds")
             else manifest.get("seeds")) or []
    n_points = int(manifest.get("n_points") or 0)
    expected = {(p, int(s)) for p in range(n_points) for s in seeds}
    done = expected & {(int(p), int(s)) for p, s in pairs}
    per_point: dict[int, int] = {}
    for p, _ in done:
        per_point[p] = per_point.get(p, 0) + 1
    return {"points": n_points, "points_done": sum(1 for n in per_point.values()
                                                   if n == len(seeds)),
            "expected": len(expected), "done": len(done), "missing": len(expected - done),
            "rerun": rerun_command(manifest, path)}


def load(path: str | Path) -> Results:
    """Load a results folder (``diffsweep.load``). Damaged chunks are reported and skipped, not
    moved (loading never changes the folder). ConfigError if ``path`` is not a results folder."""
    store = Store(path)
    store.manifest = read_manifest(path)
    return store.load(repair=False)


def rerun_command(manifest: dict, path) -> str:
    """The command that computes a folder's missing replicas (the sweep file as recorded)."""
    sweep = manifest.get("sweep_path") or "SWEEP.toml"
    quick = ["--quick"] if manifest.get("quick") else []
    return shlex.join(["diffsweep", "run", str(sweep), *quick, "--out", str(path)])


def partial_note(res: Results) -> str | None:
    """One line for a Results whose folder lacks replicas of its sweep (``Results.meta``
    "completeness", set by ``Store.load``), None when it is complete or not a folder's: a
    figure or an export of it would otherwise look like the whole sweep (issue 53)."""
    c = res.meta.get("completeness") or {}
    if not c.get("missing"):
        return None
    return (f"{res.meta.get('store')}: partial results: {c['points_done']} of {c['points']} "
            f"points complete, {c['missing']} of {c['expected']} replicas missing; rerun "
            f"`{c['rerun']}` to compute them")
