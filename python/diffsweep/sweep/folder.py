"""folder: look at a results folder without running anything -- what ``diffsweep show``,
``diffsweep plot`` and ``diffsweep export`` do (docs/sweeps.md, "Looking at a folder").

* ``describe(DIR)``: the sweep, points and replicas done and missing, backend, per-run timings.
* ``summary_table(res, by, metric)``: mean and Student-t CI over seeds per ``by`` group; a
  ``by`` that would pool one of the sweep's axes is refused (``diffsweep.core.axes``).
* ``select(res, ["AXIS=VALUE"])``: ``--where``, the values matched against the folder's.
* ``plot(res, x, y, hue=None, facet=None)``: a line per hue value, a panel per facet value,
  mean over seeds, with a CI band; every other axis must keep one value.
* ``export(res, folder, fmt)``: one CSV or Parquet file per table (``Results.to_csv``).
* ``repair_folder(DIR, sweep=None)``: rebuild a lost or damaged manifest from the chunks, move
  damaged and repeated chunks aside (``diffsweep repair``; ``repair.repair``).
"""
from __future__ import annotations

import shlex
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep.core import axes as ax
from diffsweep.core.axes import dims_of  # noqa: F401 (the CLI's and callers' name for it)
from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES, Results
from diffsweep.sweep.store import partial_note, rerun_command  # noqa: F401 (the CLI's names)

#: default metric of ``show`` (a column of the replicas table)
DEFAULT_METRIC = "tcp_goodput_bps"


def describe(path) -> tuple[dict, Results, dict]:
    """(manifest, the folder's tables, facts): facts has points, seeds, expected, done, missing
    (replicas), points_done (points with every seed), locked (a lock file is there), runs (backend, device, host, start, end,
    wall_s, replicas_run, interrupted/error)."""
    from diffsweep.sweep.store import Store, read_manifest  # noqa: PLC0415

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
        "locked": _locked(st),
        "runs": [{"start": r.get("start"), "end": r.get("end"), "backend": r.get("backend"),
                  "device": r.get("device"), "host": r.get("host"),
                  "wall_s": (r.get("meta") or {}).get("wall_s"),
                  "replicas_run": (r.get("meta") or {}).get("replicas_run"),
                  "interrupted": bool((r.get("meta") or {}).get("interrupted")),
                  "error": (r.get("meta") or {}).get("error"),
                  "rebuilt": bool((r.get("meta") or {}).get("rebuilt"))} for r in runs],
    }
    return m, res, facts


def _locked(st) -> bool:
    """Whether a run may hold the folder now: its lock file is there (or cannot be read),
    unless its owner was a process of this host that is gone (a killed run's stale lock)."""
    import socket  # noqa: PLC0415

    try:
        owner = st.lock_owner()
    except OSError:
        return True
    if owner is None:
        return False
    return not (owner.get("host") == socket.gethostname() and "pid" in owner
                and not st._alive(owner["pid"]))


#: columns that name a row (a replica, one of its flows, a link's class, ...): they measure
#: nothing, so ``show --metric`` and ``plot --y`` refuse them (``check_measure``)
ID_COLUMNS = ("point", "seed", "replica", "flow", "link", "cls_index", "source", "interval",
              "traffic")


def _grid_columns(res: Results, dims=()) -> set[str]:
    """The grid's columns in the folder's tables: the sweep's axes (``dims``) and every
    replicas-table column that is not one of the engine's (``ci_target.REPLICA_METRICS``)."""
    from diffsweep.sweep.ci_target import REPLICA_METRICS  # noqa: PLC0415

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
        # a metric that is no column: checked now (a malformed expression, an unknown name),
        # before anything is printed or drawn
        if not any(column in getattr(res, t).columns for t in TABLES):
            with_table, at = with_metric(res, column, table)
            _table_with(with_table, column, at)
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
    from diffsweep.analysis.registry import METRICS  # noqa: PLC0415
    cols = sorted({str(c) for t in TABLES for c in getattr(res, t).columns})
    close = difflib.get_close_matches(column, [*METRICS, *cols], n=1)
    hint = f"did you mean {close[0]!r}?" if close else "columns: " + ", ".join(cols)
    raise ConfigError(f"{column}: not a metric nor a column of any table in the folder ({hint}; "
                      "`diffsweep metrics` lists the metrics)")


def with_metric(res: Results, metric: str, table: str | None = None) -> tuple[Results, str | None]:
    """(``res``, ``table``) ready to summarise ``metric``: a column of a table is left to that
    table; any other name that is a metric (``diffsweep.analysis.registry``: ``jain_index``,
    an expression, a user's ``module:function``) becomes a column of the replicas table. A
    name that is neither is left for ``_table_with``'s did-you-mean."""
    from diffsweep.analysis import expressions, registry  # noqa: PLC0415

    if table is not None and table != "replicas":
        return res, table
    if metric in res.replicas.columns or (table is None and any(
            metric in getattr(res, t).columns for t in TABLES)):
        return res, table
    try:
        registry.resolve(metric)
    except ConfigError:
        if expressions.looks_like(metric) or metric in registry.METRICS:
            raise  # a malformed expression or reference: its own message
        return res, table
    return registry.with_metrics(res, [metric]), "replicas"


def per_seed(res: Results, y: str, keys: list[str], table: str | None = None) -> pd.DataFrame:
    """One value of ``y`` per (point, seed) and ``keys``: the mean over the rows of a replica
    (flows, queues, ... of one replica), so that the spread is over seeds. A key named like one
    of the sweep's axes is the axis (the grid's ``<name>_grid`` where an engine column shares
    the name: ``diffsweep.core.axes``)."""
    name, df = _table_with(res, y, table)
    if df.empty:  # its columns are there but typeless: "not a numeric column" said nothing
        full = [t for t in TABLES if len(getattr(res, t))]
        what = f"--table {name}" if table is not None else f"{y} (a column of the {name} table)"
        raise ConfigError(f"{what}: the {name} table of this folder is empty (the sweep "
                          f"recorded no {name} rows); tables with rows: "
                          f"{', '.join(full) or 'none'}")
    for k in keys:
        if not ax.has(df, k):
            from diffsweep.core.errors import did_you_mean as _suggest  # noqa: PLC0415
            hint = _suggest(k, ax.column_names(df))
            hint = hint if hint.startswith("did you mean") else \
                "columns: " + ", ".join(ax.column_names(df))
            raise ConfigError(f"{k}: not a column of the {name} table ({hint})")
    if y in keys or y in ("point", "seed"):  # pandas' own error: "cannot insert ..."
        raise ConfigError(f"{y}: not allowed as the measured column (expected a column other "
                          f"than those grouped by: point, seed{''.join(', ' + k for k in keys)})")
    if not pd.api.types.is_numeric_dtype(df[y]):
        raise ConfigError(f"{y}: not a numeric column of the {name} table")
    keys = list(dict.fromkeys(k for k in keys if k not in ("point", "seed")))
    cols = [c for c in df.columns
            if c in ("point", "seed", y) or c in keys or c in {f"{k}{ax.GRID_SUFFIX}" for k in keys}]
    df = ax.with_grid_values(df[cols], keys)
    by = ["point", "seed", *keys]
    return df.groupby(by, sort=True, dropna=False)[y].mean().reset_index()


#: what a grouping that would pool axes suggests, from Python
POOL_REMEDY = "group by them too, or keep one value of each with Results.where(AXIS=VALUE)"


def summary_table(res: Results, by: list[str], metric: str = DEFAULT_METRIC,
                  level: float = 0.95, table: str | None = None,
                  remedy: str = POOL_REMEDY) -> pd.DataFrame:
    """Mean, n and CI over seeds of ``metric`` per ``by`` group (``by`` names axes as the sweep
    does: ``diffsweep.core.axes``). A grouping that leaves one of the sweep's axes (``res.meta
    ["axes"]``) with several values in a group is refused (ConfigError naming them and
    ``remedy``): its interval would mix different points as if they were seeds."""
    from diffsweep.analysis.stats import summarize  # noqa: PLC0415

    axes = ax.axes_of(res) or []
    res, table = with_metric(res, metric, table)
    name, df = _table_with(res, metric, table)
    extra = [a for a in axes if a not in by and ax.has(df, a)]
    values = per_seed(res, metric, [*by, *extra], table)
    spread = ax.pooled(values, list(by), extra)
    if spread:
        what = f"grouping by {', '.join(by)}" if by else "one group of every row"
        raise ax.pooling_error(what, spread, remedy)
    out = summarize(values, by=by, metrics=[metric], level=level)
    return out[[*by, "n", "mean", "ci_low", "ci_high"]]


def select(res: Results, filters, option: str = "--where") -> tuple[Results, dict]:
    """``res`` restricted to the ``filters`` (``["n_flows=10", ...]``, NAME=VALUE each: an axis
    of the sweep or a column of its tables), and {name: the value matched}. A VALUE is matched
    against the values the folder holds (as a number, true/false, a [list] or the text, or the
    label ``show`` prints); a NAME or VALUE the folder does not hold is a ConfigError naming
    what it holds."""
    axes = ax.axes_of(res) or []
    tables = [df for df in res.tables().values() if len(df.columns)]
    columns = list(dict.fromkeys(n for df in tables for n in ax.column_names(df)))
    chosen: dict = {}
    for f in filters or []:
        name, eq, text = str(f).partition("=")
        name, text = name.strip(), text.strip()
        if not eq or not name or not text:
            example = f"{axes[0]}=VALUE" if axes else "NAME=VALUE"
            raise ConfigError(f"{option}: {f!r} is not allowed (expected AXIS=VALUE, e.g. "
                              f"{example})")
        if name in chosen:
            raise ConfigError(f"{option}: {name!r} is given twice (expected one value per axis)")
        if name not in axes and name not in columns:
            raise ConfigError(f"{option}: {name!r} is not an axis or a column of the folder "
                              f"({ax.suggest(name, axes, columns)})")
        held = [ax.grid_values(df, name) for df in tables if len(df) and ax.has(df, name)]
        values = ax.distinct(pd.concat(held, ignore_index=True)) if held else []
        want = ax.parse(text)
        hit = [v for v in values if ax.key(v) == ax.key(want)]
        if not hit:  # the label show printed, or the text of a text column
            hit = [v for v, lab in zip(values, ax.labels(values)) if text in (lab, str(v))]
        if not hit:
            raise ConfigError(f"{option}: {name}={text} matches no row ({name} takes "
                              f"{ax.listing(values) if values else 'no values'})")
        chosen[name] = hit[0]
    return (res.where(**chosen) if chosen else res), chosen


def plot(res: Results, x: str, y: str, hue: str | None = None, table: str | None = None,
         level: float = 0.95, logx: bool | None = None, facet: str | None = None,
         remedy: str | None = None):
    """A matplotlib Figure: ``y`` (mean over seeds) against ``x``, one line per ``hue`` value,
    each with its Student-t CI band at ``level``; with ``facet``, one panel per value of that
    axis. Every other axis of the sweep must keep one value (``select``/``Results.where``
    first), else a ConfigError names it: pooled, its values would pass for seeds."""
    import matplotlib  # noqa: PLC0415
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt  # noqa: PLC0415

    keys = list(dict.fromkeys([x] + [k for k in (hue, facet) if k]))
    if len(keys) < 1 + bool(hue) + bool(facet):
        raise ConfigError(f"facet: {facet!r} is not allowed (expected an axis other than x's "
                          "and hue's)")
    s = summary_table(res, keys, y, level, table, remedy=remedy or (
        "plot it with hue= or facet=, or keep one value of each with Results.where(AXIS=VALUE)"))
    if s.empty:
        raise ConfigError(f"{y}: no values to plot (the folder has no finished replicas)")
    numeric_x = pd.api.types.is_numeric_dtype(s[x]) and not pd.api.types.is_bool_dtype(s[x])
    if not numeric_x:  # text, true/false or lists: one category per value, labelled apart
        order = {ax.key(v): i for i, v in enumerate(ax.distinct(s[x]))}
        s = s.assign(_x=s[x].map(lambda v: order[ax.key(v)]))
        s[x] = ax.labels(s[x])
    panels = ax.distinct(s[facet]) if facet else [None]
    ncols = min(len(panels), 3)
    nrows = -(-len(panels) // ncols)
    fig, axs = plt.subplots(nrows, ncols, figsize=(6.4 if ncols == 1 else 4.6 * ncols,
                                                    4.2 if nrows == 1 else 3.6 * nrows),
                            squeeze=False, sharey=True)
    hue_label = dict(zip(map(ax.key, ax.distinct(s[hue])), ax.labels(ax.distinct(s[hue])))) \
        if hue else {}
    panel_label = dict(zip(map(ax.key, panels), ax.labels(panels))) if facet else {}
    colours: dict = {}
    for i, pv in enumerate(panels):
        a = axs[i // ncols][i % ncols]
        part = s if facet is None else s[ax.same(s[facet], pv).to_numpy()]
        groups = ([(hv, part[ax.same(part[hue], hv).to_numpy()]) for hv in ax.distinct(s[hue])]
                  if hue else [(None, part)])
        for hv, g in groups:
            if g.empty:
                continue
            g = g.sort_values(x if numeric_x else "_x")
            label = f"{hue}={hue_label[ax.key(hv)]}" if hue else None
            line, = a.plot(g[x], g["mean"], marker="o", label=label,
                           color=colours.get(ax.key(hv)))
            colours[ax.key(hv)] = line.get_color()  # one colour per hue value in every panel
            a.fill_between(g[x], g["ci_low"], g["ci_high"], alpha=0.25, color=line.get_color(),
                           linewidth=0)
        if facet:
            a.set_title(f"{facet} = {panel_label[ax.key(pv)]}", fontsize=10)
        a.set_xlabel(x)
        a.grid(True, alpha=0.3)
        if i % ncols == 0:
            a.set_ylabel(f"{y} (mean over seeds, {level:.0%} CI band)")
        if hue and i == 0:
            a.legend(title=None)
    for j in range(len(panels), nrows * ncols):
        axs[j // ncols][j % ncols].set_visible(False)
    xs = pd.to_numeric(s[x], errors="coerce") if numeric_x else pd.Series([np.nan])
    if logx is None:
        logx = bool(xs.notna().all() and (xs > 0).all() and xs.max() >= 100 * xs.min())
    if logx:
        for row in axs:
            for a in row:
                a.set_xscale("log")
    note = partial_note(res)
    if note is not None:  # said, and marked in the figure: the x axis may stop short
        warnings.warn(note, UserWarning, stacklevel=2)
        c = res.meta["completeness"]
        fig.suptitle(f"partial: {c['points_done']} of {c['points']} points "
                     f"({c['missing']} replicas missing)", fontsize=9, color="tab:red")
    fig.tight_layout()
    return fig


def export(res: Results, folder, fmt: str = "csv", tables=None) -> list[Path]:
    """Write each non-empty table of ``res`` to ``folder/<table>.<fmt>`` (``csv`` or
    ``parquet``); returns the paths."""
    if fmt not in ("csv", "parquet"):
        raise ConfigError(f"--format: {fmt!r} is not allowed (expected csv or parquet)")
    note = partial_note(res)
    if note is not None:
        warnings.warn(note, UserWarning, stacklevel=2)
    return res.to_csv(folder, tables) if fmt == "csv" else res.to_parquet(folder, tables)


def sweep_identity(cfg) -> tuple[str, dict]:
    """(config hash, manifest fields) that ``runner.run`` records for the sweep ``cfg``."""
    from diffsweep.sweep.run_folder import grid_identity  # noqa: PLC0415

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
    from diffsweep.sweep.repair import repair  # noqa: PLC0415

    identity = verify = None
    if sweep is not None:
        from diffsweep.sweep.config import load_sweep  # noqa: PLC0415
        from diffsweep.engine.sizing import check_replicas  # noqa: PLC0415
        cfg = load_sweep(sweep, quick=quick, seeds=seeds)
        # seeds no run could have listed (--seeds 10^12 was a MemoryError): refused from the
        # count; as many as a --force run may have are allowed (repair has no --force)
        check_replicas(cfg.n_replicas, True, f"sweep '{cfg.name}'")
        identity, verify = sweep_identity(cfg), chunk_checker(cfg)
    return repair(path, identity, verify, argv)
