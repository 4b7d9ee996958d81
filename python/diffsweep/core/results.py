"""Results: the tables one run produces (see docs/api.md for every column)."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import pandas as pd

TABLES = ("replicas", "flows", "queues", "sources", "intervals", "transfers", "traffic",
          "cwnd_trace", "queue_trace", "queue_delay")
#: tables added after results folders of 0.2 were written: such a folder lacks them (empty)
LATER_TABLES = ("transfers", "traffic", "cwnd_trace", "queue_trace", "queue_delay")


def per_results(fn):
    """Compute ``fn(res, *args, **kwargs)`` once per Results object and arguments while its tables are the
    same frames, and hand each caller its own copy: a paper's per-seed tables are read by many
    claims and figures (Kaur & Vin's fairness table was computed 61 times per report)."""
    @functools.wraps(fn)
    def wrapper(res, *args, **kwargs):
        if not isinstance(res, Results):
            return fn(res, *args, **kwargs)
        memo = res.__dict__.setdefault("_per_results", {})
        key = (fn.__module__, fn.__qualname__, args, tuple(sorted(kwargs.items())),
               *((id(t), len(t), len(t.columns)) for t in (res.replicas, res.flows, res.queues)))
        if key not in memo:
            memo[key] = fn(res, *args, **kwargs)
        return _copied(memo[key])
    return wrapper


def _copied(v):
    if isinstance(v, (pd.DataFrame, pd.Series)):
        return v.copy()
    if isinstance(v, tuple):
        return tuple(_copied(x) for x in v)
    return v


@dataclass
class Results:
    """Tables of one run; every table carries ``point``, ``seed`` and the grid columns."""

    replicas: pd.DataFrame
    flows: pd.DataFrame
    queues: pd.DataFrame
    sources: pd.DataFrame
    intervals: pd.DataFrame
    transfers: pd.DataFrame = field(default_factory=pd.DataFrame)  # short-lived transfers
    traffic: pd.DataFrame = field(default_factory=pd.DataFrame)    # per traffic generator
    cwnd_trace: pd.DataFrame = field(default_factory=pd.DataFrame)  # Scenario.trace_flows
    queue_trace: pd.DataFrame = field(default_factory=pd.DataFrame)  # queue_trace_interval_s
    queue_delay: pd.DataFrame = field(default_factory=pd.DataFrame)  # queue_delay_hist
    meta: dict = field(default_factory=dict)

    def tables(self) -> dict[str, pd.DataFrame]:
        return {name: getattr(self, name) for name in TABLES}

    @staticmethod
    def concat(parts: list["Results"], meta: dict | None = None) -> "Results":
        """Stack several runs' tables, sorted by (point, seed, ...) so that the order of chunks
        does not show in the result."""
        if not parts:
            raise ValueError("Results.concat needs at least one part")
        out = {}
        for name in TABLES:
            frames = [getattr(p, name) for p in parts]
            frames = [f for f in frames if len(f.columns)]
            if any(len(f) for f in frames):
                # A part without rows has columns of dtype object; left in, it would turn the
                # result's columns to object, so that the dtypes would depend on how replicas
                # were split into parts (chunks).
                frames = [f for f in frames if len(f)]
            df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
            out[name] = sort_table(df)
        return Results(**out, meta=dict(meta if meta is not None else parts[0].meta))

    def where(self, **values) -> "Results":
        """The rows whose columns equal ``values`` (e.g. ``res.where(send_jitter_s=1e-4)``), in
        every table that has those columns; a table without them is kept whole. A name is the
        sweep's axis when the grid has one of that name, even where an engine column shares it
        (``where(n_flows=10)`` of a matta_guo ``n_flows`` axis: the grid's ``n_flows_grid``,
        not the engine's count of flows); values compare as grid points (4 == 4.0,
        ``diffsweep.core.axes.same``). A name no table holds, a value no row holds, or values no
        row holds together, is a ConfigError naming what is there."""
        from diffsweep.core import axes as ax  # noqa: PLC0415
        from diffsweep.core.errors import ConfigError  # noqa: PLC0415

        tables = {name: getattr(self, name) for name in TABLES}
        for c in values:
            if not any(ax.has(df, c) for df in tables.values()):
                columns = [n for df in tables.values() for n in ax.column_names(df)]
                raise ConfigError(f"where: no column {c!r} in any table "
                                  f"({ax.suggest(c, ax.axes_of(self) or [], columns)})")
        for c, v in values.items():
            held = [ax.grid_values(df, c) for df in tables.values() if len(df) and ax.has(df, c)]
            if not any(ax.same(s, v).any() for s in held):
                there = ax.listing(pd.concat(held, ignore_index=True)) if held else "no rows"
                raise ConfigError(f"where: {c}={ax.labels([v])[0]} matches no row ({c} takes "
                                  f"{there})")
        out, kept = {}, False
        for name, df in tables.items():
            if len(df) and all(ax.has(df, c) for c in values):
                keep = pd.Series(True, index=df.index)
                for c, v in values.items():
                    keep &= ax.same(ax.grid_values(df, c), v).to_numpy()
                df = df[keep.to_numpy()].reset_index(drop=True)
                kept = kept or len(df) > 0
            out[name] = df
        if len(values) > 1 and not kept:
            both = ", ".join(f"{c}={ax.labels([v])[0]}" for c, v in values.items())
            raise ConfigError(f"where: no row has {both} together")
        return Results(**out, meta=dict(self.meta))

    def __len__(self) -> int:
        return len(self.replicas)

    def _write(self, folder, tables, ext: str, write) -> list:
        from pathlib import Path  # noqa: PLC0415

        from diffsweep.core.errors import ConfigError, store_error  # noqa: PLC0415

        names = list(TABLES if tables is None else ([tables] if isinstance(tables, str)
                                                    else tables))
        for t in names:
            if t not in TABLES:
                raise ConfigError(f"tables: {t!r} is not allowed (expected names among "
                                  f"{', '.join(TABLES)})")
        folder = Path(folder)
        out = []
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for t in names:
                df = getattr(self, t)
                if not len(df.columns):
                    continue
                path = folder / f"{t}.{ext}"
                write(df, path)
                out.append(path)
        except OSError as e:
            raise store_error(e, folder, f"write the {ext} files") from None
        return out

    def to_csv(self, folder, tables=None) -> list:
        """Write each table with columns (``tables``: some of TABLES, default all) to
        ``folder/<table>.csv``; returns the paths written."""
        return self._write(folder, tables, "csv", lambda df, p: df.to_csv(p, index=False))

    def to_parquet(self, folder, tables=None) -> list:
        """As ``to_csv``, as ``folder/<table>.parquet``."""
        return self._write(folder, tables, "parquet",
                           lambda df, p: df.to_parquet(p, index=False))


_ORDER = ("point", "seed", "flow", "link", "cls_index", "source", "interval", "traffic",
          "start_s", "t_s")


#: an engine call's tables: by replica (its place in the call), then as _ORDER
_ENGINE_ORDER = ("replica", "flow", "link", "cls_index", "source", "interval")


def sort_table(df: pd.DataFrame, order=_ORDER) -> pd.DataFrame:
    keys = [c for c in order if c in df.columns]
    if not keys or df.empty:
        return df.reset_index(drop=True)
    return df.sort_values(keys, kind="stable").reset_index(drop=True)


def sorted_tables(parts: list[dict]) -> dict:
    """Each table of ``parts`` (dicts of tables of one engine call, indexed by ``replica``)
    stacked and sorted by replica, flow, link, class, source, interval: the order of the parts
    does not show. A part without rows would turn numeric columns into objects: left out
    unless all are empty."""
    return {k: sort_table(pd.concat([pt[k] for pt in parts if len(pt[k])] or [parts[0][k]],
                                    ignore_index=True), _ENGINE_ORDER) for k in parts[0]}
