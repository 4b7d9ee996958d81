"""repair: make a results folder usable again (``diffsweep repair DIR``): rebuild a lost or
damaged ``manifest.json`` from the records its chunks keep, and move damaged and repeated chunks
aside. See ``diffsweep.sweep.store`` ("Self-describing chunks")."""
from __future__ import annotations

import datetime as _dt
import os
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from diffsweep.core.errors import ConfigError, FolderBusy, store_error
from diffsweep.core.atomic import atomic_write_json, jsonable
from diffsweep.sweep.records import (CHUNKS, DONE, FORMAT, MANIFEST, Chunk, count_chunks,
                                     read_manifest, utc_now)
from diffsweep.sweep.store import Store


# --------------------------------------------------------------------------------------------
# repair: rebuild a lost manifest from the chunks
# --------------------------------------------------------------------------------------------
def repair(path: str | Path, identity: tuple[str, dict] | None = None, verify=None,
           argv=None) -> dict:
    """Make the results folder ``path`` usable again (``diffsweep repair DIR``), under its lock:

    * a missing or damaged ``manifest.json`` is rebuilt from the chunks: each chunk records the
      folder's manifest (without its runs) and the run that wrote it, so the sweep, its config
      hash and the runs that wrote chunks come back; what chunks do not record (each run's end,
      wall time, and whether it finished, was interrupted or failed) is left unknown and the
      rebuilt runs say so (``meta["rebuilt"]``). The damaged manifest is kept in ``corrupt/``.
      Chunks written before diffsweep recorded this cannot tell which sweep they belong to:
      ``identity`` (config hash, manifest fields) from the sweep file is needed then, and
      ``verify(chunk, replicas) -> reason | None`` checks each chunk against it.
    * damaged chunks are moved to ``corrupt/`` (as a run would; their replicas are missing until
      the sweep is run again), and so are chunks whose every replica is also in an older chunk.

    Nothing is changed when the manifest cannot be rebuilt (ConfigError naming why). Returns what
    was done: manifest ("kept" or "rebuilt"), previous (where the damaged one went), chunks,
    replicas, runs, damaged ({id: why, replicas}), redundant ({id: replicas}), overlapping
    ({id: pairs also in older chunks}), legacy (chunks without the record)."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ConfigError(f"{p}: is a file, not a results folder")
    if not p.is_dir():
        raise ConfigError(f"{p}: no such results folder")
    if not (p / MANIFEST).exists() and not count_chunks(p):
        raise ConfigError(f"{p}: not a diffsweep results folder (no {MANIFEST} and no chunks in "
                          f"{p / CHUNKS}): nothing to repair")
    st = Store(p)
    try:
        st._acquire(False, argv)  # a run writing into the folder must finish first
    except FolderBusy as e:
        # the generic message offers --break-lock, which repair has not: a live run's lock is
        # not to be broken, and a dead run's lock on this host was broken above
        owner = str(e).split(";")[0]
        raise FolderBusy(f"{owner}; repair the folder once that run has ended (if it is gone, "
                         f"delete {st.lock_path})") from None
    try:
        return _repair(st, identity, verify)
    finally:
        st.close()


def _stamp() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _hash_of(c: Chunk) -> str | None:
    return c.manifest.get("config_hash") if isinstance(c.manifest, dict) else None


def _rebuilt_manifest(kept: list[Chunk], identity) -> dict:
    """A manifest from the chunks' records (newest last): the newest recorded folder state,
    one run per run that wrote chunks."""
    by_time = sorted(kept, key=lambda c: (c.created, c.id))
    recorded = [c for c in by_time if _hash_of(c)]
    if recorded:
        m = dict(recorded[-1].manifest)
    else:
        h, fields = identity
        meta = by_time[-1].meta if by_time else {}
        m = {"format": FORMAT, "config_hash": h, **jsonable(fields),
             "backend": meta.get("backend"), "device": meta.get("device"),
             "threads": meta.get("threads"),
             "start": by_time[0].created if by_time else utc_now(), "end": None}
    runs: dict[Any, dict] = {}
    for c in by_time:
        r = c.run if isinstance(c.run, dict) else None
        key = (r.get("start"), r.get("host"), r.get("pid")) if r else None
        entry = runs.get(key)
        if entry is None:
            entry = dict(r) if r else {"start": c.created}
            entry["end"] = None
            entry["meta"] = {"replicas_run": 0, "rebuilt": (
                "by diffsweep repair from its chunks: its end, wall time and whether it "
                "finished, was interrupted or failed are not recorded in chunks")
                + ("" if r else "; written by a diffsweep that did not record its runs")}
            runs[key] = entry
        entry["meta"]["replicas_run"] += len(c.pairs)
        entry["meta"]["last_chunk"] = c.created
    m["runs"] = sorted(runs.values(), key=lambda r: str(r.get("start") or ""))
    m["end"] = None
    return m


def _repair(st, identity, verify) -> dict:
    """``repair`` of the folder of ``st`` (a ``Store``) with its lock held."""
    mf = st.path / MANIFEST
    try:
        current = read_manifest(st.path) if mf.exists() else None
    except ConfigError:
        current = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reported in the answer (damaged)
        chunks = st.chunks(repair=False)  # nothing moves before the checks below pass
    # chunks whose every replica an older chunk holds (two runs into one folder) go aside;
    # those that overlap only in part stay (load keeps the older rows)
    seen: set[tuple[int, int]] = set()
    kept: list[Chunk] = []
    redundant: dict[str, int] = {}
    overlapping: dict[str, int] = {}
    for c in chunks:
        mine = set(c.pairs)
        dup = seen & mine
        if mine and dup == mine:
            redundant[c.id] = len(mine)
            continue
        if dup:
            overlapping[c.id] = len(dup)
        seen |= mine
        kept.append(c)
    hashes = sorted({h for h in map(_hash_of, kept) if h})
    legacy = [c for c in kept if not _hash_of(c)]
    if len(hashes) > 1:
        raise ConfigError(f"{st.path}: its chunks belong to {len(hashes)} different sweeps "
                          f"(config hashes {', '.join(h[:12] for h in hashes)}); one manifest "
                          "cannot describe them: nothing was changed")
    if identity is not None and hashes and identity[0] != hashes[0]:
        raise ConfigError(f"--sweep: the sweep file is another sweep (config hash "
                          f"{identity[0][:12]}) than the folder's chunks ({hashes[0][:12]}): "
                          "nothing was changed")
    if current is not None:
        h = current["config_hash"]
        if (hashes and hashes[0] != h) or (identity is not None and identity[0] != h):
            other = hashes[0] if hashes and hashes[0] != h else identity[0]
            by = "the chunks" if hashes and hashes[0] != h else "--sweep"
            raise ConfigError(f"{mf}: the manifest is of another sweep (config hash "
                              f"{h[:12]}) than {by} ({other[:12]}): nothing was changed")
    elif not hashes and identity is None:
        if not kept:
            raise ConfigError(f"{st.path}: {MANIFEST} is lost and no chunk is intact; "
                              "nothing can be rebuilt: delete the folder and run the sweep "
                              "again")
        raise ConfigError(f"{st.path}: its chunks were written by a diffsweep that did not "
                          "record the sweep in them, so they cannot tell which sweep they are "
                          "of: run `diffsweep repair DIR --sweep SWEEP.toml` (with --quick if "
                          "the runs used it) to rebuild the manifest from the sweep file")
    if verify is not None:  # chunks that record their sweep were checked by its hash
        for c in legacy:
            info = c.files.get("replicas")
            rep = pd.read_parquet(st.chunk_dir / info["file"]) if info else pd.DataFrame()
            why = verify(c, rep)
            if why:
                raise ConfigError(f"--sweep: chunk {c.id} is not of this sweep ({why}): "
                                  "nothing was changed")

    # the checks passed: move aside, then write
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            st.chunks(repair=True)
        by_id = {c.id: c for c in chunks}
        for cid in redundant:
            c = by_id[cid]
            paths = [st.chunk_dir / f"{cid}.{DONE}"] + [st.chunk_dir / i["file"]
                                                           for i in c.files.values()]
            st._move_aside(cid, paths, f"all its {redundant[cid]} replicas are also in older "
                                         "chunks (two runs wrote into the folder at once)")
        report = {"manifest": "kept", "previous": None, "chunks": len(kept),
                  "replicas": len(seen), "runs": None, "legacy": len(legacy),
                  "damaged": {k: {"why": v["why"], "replicas": v["replicas"]}
                              for k, v in st.damaged.items()},
                  "redundant": redundant, "overlapping": overlapping}
        if current is not None:
            report["runs"] = len(current.get("runs") or [])
            return report
        m = _rebuilt_manifest(kept, identity)
        if mf.exists():
            st.corrupt_dir.mkdir(exist_ok=True)
            previous = st.corrupt_dir / f"{MANIFEST}.{_stamp()}"
            os.replace(mf, previous)
            report["previous"] = str(previous)
        m["repaired"] = {"at": utc_now(), "chunks": len(kept), "previous": report["previous"]}
        atomic_write_json(mf, m)
    except OSError as e:
        raise store_error(e, st.path, "repair the folder") from None
    st.manifest = m
    report.update(manifest="rebuilt", runs=len(m["runs"]))
    return report
