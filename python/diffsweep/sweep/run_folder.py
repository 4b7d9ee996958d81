"""run_folder: a run's results folder: its identity (``grid_identity``), what it already holds
(``left_to_compute``, read without its lock), and the folder opened for the run: locked, the
tables it keeps checked against those it was started with, claimed by its first chunk
(``open_folder``). See the module docstring of ``diffsweep.sweep.runner`` ("Store", "Folder").
"""
from __future__ import annotations

import errno
import os

from diffsweep.core.errors import ConfigError
from diffsweep.core.identity import canon, digest
from diffsweep.core.results import LATER_TABLES, TABLES
from diffsweep.engine import compiled
from diffsweep.sweep.session import pairs_of


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


def left_to_compute(grid, st, ident: str, precomputed, compute: bool) -> set:
    """The (point, seed) pairs of ``grid`` that neither the folder ``st`` (a Store or None; its
    chunks' records, read without the lock or checking the files: a hint, since a pair left
    out wrongly is still computed, its point packed when planned) nor ``precomputed`` holds;
    empty when ``compute`` is False."""
    if not compute:
        return set()
    left = set(pairs_of(grid.replicas))
    if precomputed is not None:
        left.difference_update(pairs_of(precomputed.replicas))
    if left and st is not None:
        from diffsweep.sweep.records import MANIFEST, read_manifest, recorded_pairs  # noqa: PLC0415
        try:
            same = (st.path / MANIFEST).is_file() and read_manifest(st.path).get(
                "config_hash") == ident
        except (ConfigError, OSError):
            same = False
        if same:
            left.difference_update(recorded_pairs(st.path))
    return left


def open_folder(store, ident: str, fields: dict, tables, manifest, backend_name: str, client,
                threads, break_lock: bool):
    """The results folder as a locked ``Store`` (claimed, given its manifest, by its first
    chunk)."""
    from diffsweep.sweep.store import Store  # noqa: PLC0415

    st = store if isinstance(store, Store) else Store(store)
    check_folder_tables(st, ident, tables)
    fields = {**fields, **(manifest or {}), "backend": backend_name,
              "device": (compiled.device_name(backend_name) if client is None else "dask"),
              "threads": threads or 0, "tables": list(tables or TABLES)}
    st.open(ident, fields, break_lock=break_lock)
    return st


def check_folder_tables(st, ident: str, tables) -> None:
    """A resumed folder keeps the tables it was started with (else some chunks would lack
    tables that others have)."""
    from diffsweep.sweep.records import MANIFEST, read_manifest  # noqa: PLC0415

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


#: what creating the lock file fails with on read-only storage (or a folder one may not write)
READ_ONLY_ERRNOS = (errno.EROFS, errno.EACCES, errno.EPERM)


def read_only_answer(grid, st, err, ident: str, precomputed, compute: bool, backend_name: str):
    """The run of ``grid`` into the folder ``st`` that cannot be locked (``err``: the lock
    file cannot be created, read-only storage). Nothing to compute: the folder's tables, read
    without the lock (reading changes nothing); else a ConfigError naming the folder, that it
    is read-only and how many replicas are left; nothing is written (issue 53)."""
    from diffsweep.sweep.records import read_manifest  # noqa: PLC0415

    left = left_to_compute(grid, st, ident, precomputed, compute)
    if left:
        raise ConfigError(
            f"{st.path}: the folder is read-only ({os.strerror(err.errno)}): {len(left)} of "
            f"{len(grid.replicas)} replicas are left to compute and cannot be written there; "
            "nothing was changed: copy the folder to writable storage, or choose another --out")
    st.manifest = read_manifest(st.path)
    res = st.load(repair=False)
    res.meta.update(n_replicas=len(res.replicas), replicas_run=0,
                    replicas_reused=len(res.replicas), backend=backend_name, wall_s=0.0,
                    read_only=True)
    return res
