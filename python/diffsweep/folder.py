"""folder: look at a results folder without running anything -- what ``diffsweep show``,
``diffsweep plot`` and ``diffsweep export`` do (docs/sweeps.md, "Looking at a folder").

* ``describe(DIR)``: the sweep, points and replicas done and missing, backend, per-run timings.
* ``summary_table(res, by, metric)``: mean and Student-t CI over seeds per point.
* ``plot(res, x, y, hue=None)``: a line per hue value, mean over seeds, with a CI band.
* ``export(res, folder, fmt)``: one CSV or Parquet file per table (``Results.to_csv``).
* ``repair_folder(DIR, sweep=None)``: rebuild a lost or damaged manifest from the chunks, move
  damaged and repeated chunks aside (``diffsweep repair``; ``repair.repair``).
"""
from __future__ import annotations

import shlex
import warnings
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
    with warnings.catch_warnings():
        # damaged and repeated chunks are reported in facts["problems"] as one line each (the
        # command line prints them), not as UserWarnings naming this file
        warnings.simplefilter("ignore")
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
        "problems": problem_lines(st, m, path),
        "damaged_replicas": sum(d["replicas"] or 0 for d in st.damaged.values()),
        "runs": [{"start": r.get("start"), "end": r.get("end"), "backend": r.get("backend"),
                  "device": r.get("device"), "host": r.get("host"),
                  "wall_s": (r.get("meta") or {}).get("wall_s"),
                  "replicas_run": (r.get("meta") or {}).get("replicas_run"),
                  "interrupted": bool((r.get("meta") or {}).get("interrupted")),
                  "error": (r.get("meta") or {}).get("error"),
                  "rebuilt": bool((r.get("meta") or {}).get("rebuilt"))} for r in runs],
    }
    return m, res, facts


def rerun_command(manifest: dict, path) -> str:
    """The command that computes a folder's missing replicas (the sweep file as recorded)."""
    sweep = manifest.get("sweep_path") or "SWEEP.toml"
    quick = ["--quick"] if manifest.get("quick") else []
    return shlex.join(["diffsweep", "run", str(sweep), *quick, "--out", str(path)])


#: columns that name a row (a replica, one of its flows, a link's class, ...): they measure
#: nothing, so ``show --metric`` and ``plot --y`` refuse them (``check_measure``)
ID_COLUMNS = ("point", "seed", "replica", "flow", "link", "cls_index", "source", "interval",
              "traffic")


def _grid_columns(res: Results, dims=()) -> set[str]:
    """The grid's columns in the folder's tables: the sweep's axes (``dims``) and every
    replicas-table column that is not one of the engine's (``runner.REPLICA_METRICS``)."""
    from .runner import REPLICA_METRICS  # noqa: PLC0415

    return {*dims, *(str(c) for c in res.replicas.columns
                     if c not in REPLICA_METRICS and c not in ID_COLUMNS)}


def check_measure(res: Results, option: str, column: str, table: str | None = None,
                  dims=()) -> None:
    """Refuse ``column`` as the measure of ``show --metric`` / ``plot --y`` when it is an
    identifier (``point``, ``seed``, ``flow``, ...) or a grid column (a parameter of the
    sweep): its "mean over seeds" measures nothing (pandas' own error was "cannot insert
    seed, already exists", an internal error). One line listing the table's measured
    columns. Columns of no table are left to the lookup that says "did you mean"."""
    grid = _grid_columns(res, dims)
    if column not in ID_COLUMNS and column not in grid:
        return
    names = [table] if table in TABLES else [t for t in TABLES if column in getattr(res, t)]
    name = names[0] if names else "replicas"
    df = getattr(res, name)
    measured = [str(c) for c in df.columns if c not in ID_COLUMNS and c not in grid
                and pd.api.types.is_numeric_dtype(df[c])]
    what = ("an identifier of the rows" if column in ID_COLUMNS
            else "a grid column: a parameter of the sweep, the same for every seed")
    raise ConfigError(f"{option}: {column!r} is not a metric ({what}); expected a measured "
                      f"column of the {name} table: {', '.join(measured) or 'none'}")


def problem_lines(store, manifest: dict, path) -> list[str]:
    """One line per damaged or repeated chunk that ``store`` met while loading: what is wrong,
    what it costs and what to do (the command line prints them as ``diffsweep: warning: ...``)."""
    rerun = rerun_command(manifest, path)
    repair = shlex.join(["diffsweep", "repair", str(path)])
    out = []
    for cid, d in store.damaged.items():
        n = d["replicas"]
        count = f"its {n} replica{'s' if n != 1 else ''} are" if n is not None else \
            "its replicas are"
        out.append(f"chunk {cid} is damaged ({d['why']}); {count} missing: rerun `{rerun}` to "
                   "recompute them")
    for cid, d in store.duplicates.items():
        if d["repeated"] == d["replicas"]:
            out.append(f"chunk {cid} repeats all its {d['replicas']} replicas from older chunks "
                       "(two runs wrote into the folder at once); the older rows are used: "
                       f"`{repair}` moves it aside")
        else:
            out.append(f"chunk {cid} repeats {d['repeated']} of its {d['replicas']} replicas "
                       "from older chunks (two runs wrote into the folder at once); the older "
                       "rows are used")
    return out


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


def sweep_identity(cfg) -> tuple[str, dict]:
    """(config hash, manifest fields) that ``runner.run`` records for the sweep ``cfg``."""
    from .runner import grid_identity  # noqa: PLC0415

    ident, fields = grid_identity(None, cfg)
    tables = list(cfg.outputs.get("tables") or TABLES)
    if "replicas" not in tables:
        tables = ["replicas", *tables]
    return ident, {**fields, "tables": list(TABLES) if set(tables) == set(TABLES) else tables}


def chunk_checker(cfg):
    """``verify(chunk, replicas) -> reason | None``: whether a chunk's replicas are of the sweep
    ``cfg``: each point index is one of its points with the same grid column values, and the
    run's duration and warm-up are the sweep's (to the engine's slot, which rounds them). Other
    fixed parameters cannot be checked: the replicas table does not repeat them, or holds the
    engine's own value under the name (``n_flows`` counts every TCP flow a builder made)."""
    grid = cfg.make_grid()
    points = grid.points.reset_index(drop=True)

    def verify(chunk, rep: pd.DataFrame) -> str | None:
        if rep.empty or "point" not in rep.columns:
            return "no replicas table"
        idx = rep["point"].astype("int64").to_numpy()
        bad = idx[(idx < 0) | (idx >= len(points))]
        if len(bad):
            return f"point {int(bad[0])} is not one of the sweep's {len(points)} points"
        for col in points.columns:
            # a grid column the engine also reports, with other values, is kept as <col>_grid
            have = f"{col}_grid" if f"{col}_grid" in rep.columns else col
            if col == "point" or have not in rep.columns:
                continue
            want = points[col].iloc[idx].reset_index(drop=True).astype(object)
            got = rep[have].reset_index(drop=True).astype(object)
            same = (want == got) | (want.isna() & got.isna())
            if not same.all():
                i = int((~same).to_numpy().argmax())
                return (f"{col} of point {int(idx[i])} is {got[i]!r} in the chunk, "
                        f"{want[i]!r} in the sweep")
        for name in ("duration_s", "warmup_s"):
            value = grid.fixed.get(name)
            if not isinstance(value, (int, float)) or name not in rep or "slot_s" not in rep:
                continue
            off = (rep[name].astype(float) - float(value)).abs() > rep["slot_s"].astype(float)
            if off.any():
                return (f"{name} is {float(rep[name][off].iloc[0]):.9g} in the chunk (on the "
                        f"engine's slot grid), {value!r} in the sweep")
        return None

    return verify


def repair_folder(path, sweep=None, quick: bool = False, seeds: int | None = None,
                  argv=None) -> dict:
    """``repair.repair`` of the folder ``path``; ``sweep`` (a sweep file) supplies the identity
    that chunks written before diffsweep recorded it lack, and each such chunk is checked
    against its grid."""
    from .repair import repair  # noqa: PLC0415

    identity = verify = None
    if sweep is not None:
        from .config import load_sweep  # noqa: PLC0415
        from .sizing import check_replicas  # noqa: PLC0415
        cfg = load_sweep(sweep, quick=quick, seeds=seeds)
        # seeds no run could have listed (--seeds 10^12 was a MemoryError): refused from the
        # count; as many as a --force run may have are allowed (repair has no --force)
        check_replicas(cfg.n_replicas, True, f"sweep '{cfg.name}'")
        identity, verify = sweep_identity(cfg), chunk_checker(cfg)
    return repair(path, identity, verify, argv)
