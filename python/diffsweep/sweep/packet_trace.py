"""packet_trace: the packet trace of one replica of a results folder or a sweep file
(``diffsweep trace``; docs/traces.md).

``trace(source, point, seed, fmt="ns2", link=None, until_s=None, out=None, max_event_bytes=...)``
rebuilds the sweep (a folder's from the sweep text its manifest keeps), reruns replica
(point, seed) with its packet events recorded (``diffsweep.engine.events.record``), checks
its tables against the folder's stored ones (bit for bit, where the folder holds the replica)
and writes the events as an ns-2 trace or a pcap file (``trace_formats``).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES
from diffsweep.engine.events import MAX_EVENT_BYTES, Recording, record
from diffsweep.sweep.trace_formats import FORMATS, ns2_text, pcap_bytes, truncation_note

#: the tables whose rows of the replica the rerun must give exactly (the store's row order
#: and dtypes aside)
CHECKED_TABLES = TABLES


@dataclass
class PacketTrace:
    """What ``trace`` made: the file's content (``data``: str for ns-2, bytes for pcap), where
    it was written (None: not written), the recording, the replica's tables with the grid's
    columns, and how they compare with the folder's (``stored``: "same", "not stored" (a sweep
    file, or a folder without the replica) or the first difference)."""

    data: str | bytes
    path: Path | None
    recording: Recording
    tables: object
    stored: str
    fmt: str
    link: int | None

    @property
    def note(self) -> str | None:
        """The truncation note (None: the trace is whole)."""
        return truncation_note(self.recording) if self.recording.truncated else None


def _config(source: Path):
    """The sweep config of a results folder (its manifest's sweep text) or a sweep file."""
    from diffsweep.sweep.config import load_sweep, loads_sweep  # noqa: PLC0415
    from diffsweep.sweep.records import read_manifest  # noqa: PLC0415

    if source.is_file() and source.suffix == ".toml":
        return load_sweep(source), None
    if not source.exists():
        raise ConfigError(f"{source}: no such results folder or sweep file (expected a folder "
                          "of diffsweep run --out DIR, or a sweep .toml file)")
    m = read_manifest(source)
    if not m.get("sweep_text"):
        raise ConfigError(f"{source}: its manifest keeps no sweep text (a folder of a Python "
                          "run(grid, store=DIR)): trace from the sweep file instead")
    # the seeds of its last run (a --target-ci run adds rounds of seeds), as `diffsweep show`
    runs = m.get("runs") or []
    seeds = (runs[-1].get("seeds") if runs and runs[-1].get("seeds") else m.get("seeds")) or []
    cfg = loads_sweep(m["sweep_text"], source=f"{source} (its sweep)", quick=bool(m.get("quick")),
                      seeds=[int(s) for s in seeds] or None)
    return cfg, m


def _int_option(option: str, value, allowed: str) -> int:
    try:
        if isinstance(value, bool) or float(value) != int(float(value)):
            raise ValueError
        return int(float(value))
    except (TypeError, ValueError):
        raise ConfigError(f"{option}: {value!r} is not allowed (expected {allowed})") from None


def _span(values) -> str:
    values = list(values)
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return ", ".join(str(v) for v in values)


def check_replica(grid, point, seed) -> tuple[int, int]:
    """(point, seed) as integers, each one of the grid's (one clear line otherwise)."""
    n = len(grid.points)
    p = _int_option("--point", point, f"a point of the sweep: 0..{n - 1}")
    if not 0 <= p < n:
        raise ConfigError(f"--point: {point!r} is not allowed (expected a point of the sweep: "
                          f"0..{n - 1})")
    seeds = [int(s) for s in grid.seeds]
    s = _int_option("--seed", seed, f"one of the sweep's seeds: {_span(seeds)}")
    if s not in seeds:
        raise ConfigError(f"--seed: {seed!r} is not allowed (expected one of the sweep's seeds: "
                          f"{_span(seeds)})")
    return p, s


def check_link(scenario, link, point: int) -> int | None:
    """``--link``: None, or a link index of the replica's scenario (links have no names)."""
    if link is None:
        return None
    n = len(scenario.links)
    allowed = f"a link index of point {point}'s scenario: {_span(range(n))}"
    i = _int_option("--link", link, allowed)
    if not 0 <= i < n:
        raise ConfigError(f"--link: {link!r} is not allowed (expected {allowed})")
    return i


def _same_value(u, v) -> bool:
    if isinstance(u, (list, tuple, np.ndarray)) or isinstance(v, (list, tuple, np.ndarray)):
        return np.array_equal(np.asarray(u), np.asarray(v))
    return bool(u == v) or bool(pd.isna(u) and pd.isna(v))


def compare_stored(folder: Path, tables, point: int, seed: int) -> str:
    """"same" when every table's rows of (point, seed) in the folder equal the rerun's exactly
    (common columns, sorted by their identifying columns), "not stored" when the folder lacks
    the replica, else the first difference."""
    from diffsweep.sweep.store import load  # noqa: PLC0415

    import warnings  # noqa: PLC0415
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a partial folder says so; its replicas still count
        stored = load(folder)
    rep = stored.replicas
    if rep.empty or not ((rep["point"] == point) & (rep["seed"] == seed)).any():
        return "not stored"
    for name in CHECKED_TABLES:
        a, b = getattr(stored, name), getattr(tables, name)
        if a.empty or "point" not in a.columns:
            continue
        a = a[(a["point"] == point) & (a["seed"] == seed)]
        keys = [c for c in ("flow", "link", "cls_index", "source", "interval", "t_s", "traffic",
                            "slot", "start_s") if c in a.columns and c in b.columns]
        cols = [c for c in a.columns if c in b.columns]
        a = a[cols].sort_values(keys, kind="stable").reset_index(drop=True)
        b = b[cols].sort_values(keys, kind="stable").reset_index(drop=True)
        if len(a) != len(b):
            return f"table {name}: {len(a)} rows stored, {len(b)} rerun"
        for c in cols:
            x, y = a[c].to_numpy(), b[c].to_numpy()
            if x.dtype.kind in "fiub" and y.dtype.kind in "fiub":
                same = np.array_equal(x.astype(np.float64), y.astype(np.float64), equal_nan=True)
            else:  # strings, and the grid's list values (trace_flows = [0, 1])
                same = all(_same_value(u, v) for u, v in zip(x, y))
            if not same:
                return f"table {name}: column {c} differs"
    return "same"


def trace(source, point, seed, fmt: str = "ns2", link=None, until_s: float | None = None,
          out=None, max_event_bytes: int = MAX_EVENT_BYTES) -> PacketTrace:
    """The packet trace of replica (``point``, ``seed``) of a results folder, a sweep file or
    a ``Grid`` ``source``: ``fmt`` "ns2" (every link's events, or ``link``'s) or "pcap" (``link``'s
    departures, default link 0, and its TCP flows' ACKs); events before ``until_s`` (None: the
    whole run), at most ``max_event_bytes`` of them (32 bytes each; then truncated, with a
    note). Written to ``out`` when given (atomically). See docs/traces.md."""
    if fmt not in FORMATS:
        raise ConfigError(f"--format: {fmt!r} is not allowed (expected one of "
                          f"{', '.join(FORMATS)})")
    from diffsweep.sweep.grid import Grid  # noqa: PLC0415
    if isinstance(source, Grid):  # a Python grid: nothing stored to compare with
        grid, manifest, src = source, None, None
    else:
        src = Path(source)
        cfg, manifest = _config(src)
        grid = cfg.make_grid()
    p, s = check_replica(grid, point, seed)
    sc = grid.scenario(p, s)
    lk = check_link(sc, link, p)
    if fmt == "pcap" and lk is None:
        lk = 0
    rec = record(sc, s, max_event_bytes, until_s)
    from diffsweep.engine.execution import _with_keys  # noqa: PLC0415
    rows = grid.replicas
    rows = rows[(rows["point"] == p) & (rows["seed"] == s)].reset_index(drop=True)
    tables = _with_keys(rows, rec.tables, np.arange(1))
    stored = compare_stored(src, tables, p, s) if manifest is not None else "not stored"
    data = ns2_text(rec, sc, lk) if fmt == "ns2" else pcap_bytes(rec, sc, lk)
    path = None
    if out is not None:
        from diffsweep.core.errors import store_error  # noqa: PLC0415
        from diffsweep.sweep.store import atomic_write_files  # noqa: PLC0415
        path = Path(out)
        try:
            atomic_write_files({str(path): data.encode() if isinstance(data, str) else data})
        except OSError as e:
            raise store_error(e, str(path), "write the trace") from None
    return PacketTrace(data=data, path=path, recording=rec, tables=tables, stored=stored,
                       fmt=fmt, link=lk)
