"""folder: look at a results folder without running anything -- what ``diffsweep show``,
``diffsweep plot`` and ``diffsweep export`` do (docs/sweeps.md, "Looking at a folder").

* ``describe(DIR)``: the sweep, points and replicas done and missing, backend, per-run timings.
* ``summary_table(res, by, metric)``: mean and Student-t CI over seeds per point.
* ``plot(res, x, y, hue=None)``: a line per hue value, mean over seeds, with a CI band.
* ``export(res, folder, fmt)``: one CSV or Parquet file per table (``Results.to_csv``).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from .errors import ConfigError
from .results import TABLES, Results

#: default metric of ``show`` (a column of the replicas table)
DEFAULT_METRIC = "tcp_goodput_bps"


def dims_of(manifest: dict) -> list[str]:
    """The axis and zipped parameter names of the sweep in a manifest."""
    desc = manifest.get("effective") or manifest.get("grid") or {}
    names = [a[0] for a in desc.get("axes", []) if isinstance(a, (list, tuple)) and a]
    for g in desc.get("zip", []) or []:
        names += list(g.get("names", []))
    return names


def describe(path) -> tuple[dict, Results, dict]:
    """(manifest, the folder's tables, facts): facts has points, seeds, expected, done, missing
    (replicas), points_done (points with every seed), runs (backend, device, host, start, end,
    wall_s, replicas_run, interrupted/error)."""
    from .store import Store, read_manifest  # noqa: PLC0415

    m = read_manifest(path)
    st = Store(path)
    st.manifest = m
    res = st.load(repair=False)
    runs = m.get("runs") or []
    seeds = (runs[-1].get("seeds") if runs and runs[-1].get("seeds") else m.get("seeds")) or []
    n_points = int(m.get("n_points") or 0)
    done = set()
    if len(res.replicas):
        done = set(zip(res.replicas["point"].astype(int), res.replicas["seed"].astype(int)))
    expected = {(p, int(s)) for p in range(n_points) for s in seeds}
    per_point: dict[int, int] = {}
    for p, s in expected & done:
        per_point[p] = per_point.get(p, 0) + 1
    facts = {
        "points": n_points, "seeds": len(seeds), "expected": len(expected),
        "done": len(expected & done), "extra": len(done - expected),
        "missing": len(expected - done),
        "points_done": sum(1 for p in range(n_points) if per_point.get(p, 0) == len(seeds)),
        "problems": list(st.problems),
        "runs": [{"start": r.get("start"), "end": r.get("end"), "backend": r.get("backend"),
                  "device": r.get("device"), "host": r.get("host"),
                  "wall_s": (r.get("meta") or {}).get("wall_s"),
                  "replicas_run": (r.get("meta") or {}).get("replicas_run"),
                  "interrupted": bool((r.get("meta") or {}).get("interrupted")),
                  "error": (r.get("meta") or {}).get("error")} for r in runs],
    }
    return m, res, facts


def _table_with(res: Results, column: str, table: str | None) -> tuple[str, pd.DataFrame]:
    if table is not None:
        if table not in TABLES:
            raise ConfigError(f"--table: {table!r} is not allowed (expected one of "
                              f"{', '.join(TABLES)})")
        df = getattr(res, table)
        if column not in df.columns:
            raise ConfigError(f"{column}: not a column of the {table} table (columns: "
                              f"{', '.join(map(str, df.columns))})")
        return table, df
    for name in TABLES:
        df = getattr(res, name)
        if column in df.columns:
            return name, df
    import difflib  # noqa: PLC0415
    cols = sorted({str(c) for t in TABLES for c in getattr(res, t).columns})
    close = difflib.get_close_matches(column, cols, n=1)
    hint = f"did you mean {close[0]!r}?" if close else "columns: " + ", ".join(cols)
    raise ConfigError(f"{column}: not a column of any table in the folder ({hint})")


def per_seed(res: Results, y: str, keys: list[str], table: str | None = None) -> pd.DataFrame:
    """One value of ``y`` per (point, seed) and ``keys``: the mean over the rows of a replica
    (flows, queues, ... of one replica), so that the spread is over seeds."""
    name, df = _table_with(res, y, table)
    if df.empty:  # its columns are there but typeless: "not a numeric column" said nothing
        full = [t for t in TABLES if len(getattr(res, t))]
        what = f"--table {name}" if table is not None else f"{y} (a column of the {name} table)"
        raise ConfigError(f"{what}: the {name} table of this folder is empty (the sweep "
                          f"recorded no {name} rows); tables with rows: "
                          f"{', '.join(full) or 'none'}")
    for k in keys:
        if k not in df.columns:
            raise ConfigError(f"{k}: not a column of the {name} table (columns: "
                              f"{', '.join(map(str, df.columns))})")
    if not pd.api.types.is_numeric_dtype(df[y]):
        raise ConfigError(f"{y}: not a numeric column of the {name} table")
    by = list(dict.fromkeys(["point", "seed", *keys]))
    return df.groupby(by, sort=True, dropna=False)[y].mean().reset_index()


def summary_table(res: Results, by: list[str], metric: str = DEFAULT_METRIC,
                  level: float = 0.95, table: str | None = None) -> pd.DataFrame:
    """Mean, n and CI over seeds of ``metric`` per ``by`` group."""
    from .stats import summarize  # noqa: PLC0415

    values = per_seed(res, metric, by, table)
    out = summarize(values, by=by, metrics=[metric], level=level)
    return out[[*by, "n", "mean", "ci_low", "ci_high"]]


def plot(res: Results, x: str, y: str, hue: str | None = None, table: str | None = None,
         level: float = 0.95, logx: bool | None = None):
    """A matplotlib Figure: ``y`` (mean over seeds) against ``x``, one line per ``hue`` value,
    each with its Student-t CI band at ``level``."""
    import matplotlib  # noqa: PLC0415
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt  # noqa: PLC0415

    keys = [x] + ([hue] if hue else [])
    s = summary_table(res, keys, y, level, table)
    if s.empty:
        raise ConfigError(f"{y}: no values to plot (the folder has no finished replicas)")
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    groups = s.groupby(hue, sort=True) if hue else [(None, s)]
    for value, g in groups:
        g = g.sort_values(x)
        label = f"{hue}={value}" if hue else None
        line, = ax.plot(g[x], g["mean"], marker="o", label=label)
        ax.fill_between(g[x], g["ci_low"], g["ci_high"], alpha=0.25, color=line.get_color(),
                        linewidth=0)
    xs = pd.to_numeric(s[x], errors="coerce")
    if logx is None:
        logx = bool(xs.notna().all() and (xs > 0).all() and xs.max() >= 100 * xs.min())
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel(x)
    ax.set_ylabel(f"{y} (mean over seeds, {level:.0%} CI band)")
    if hue:
        ax.legend(title=None)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    return fig


def export(res: Results, folder, fmt: str = "csv", tables=None) -> list[Path]:
    """Write each non-empty table of ``res`` to ``folder/<table>.<fmt>`` (``csv`` or
    ``parquet``); returns the paths."""
    if fmt not in ("csv", "parquet"):
        raise ConfigError(f"--format: {fmt!r} is not allowed (expected csv or parquet)")
    return res.to_csv(folder, tables) if fmt == "csv" else res.to_parquet(folder, tables)
