"""Figures of Kaur & Vin, "Effect of Higher Priority EF Traffic on TCP Throughput and Fairness"
(UT Austin TR2001-1; ``shared/papers/kaur-vin-ef-priority-tcp.md``), families K2..K10 and Kf
of ``shared/FIGURES.md``.

Every ``figN(res)`` takes a :class:`diffsweep.Results` (``res.replicas`` / ``res.flows``, with
the grid columns of ``diffsweep.scenarios.kaur_vin``) and returns a
``matplotlib.figure.Figure`` laid out like the paper's figure: same axes and units, log x for
the mean EF burst duration T_on, error bars = 95% Student-t confidence intervals over seeds
(``diffsweep.metrics.mean_ci``).  Figures are built with ``matplotlib.figure.Figure`` directly
(no pyplot, no GUI: the Agg canvas renders them), so nothing is ever shown.

The same per-seed tables feed the claims of ``diffsweep.report``: ``prepare``,
``loss_per_seed``, ``timeouts_per_seed``, ``fairness_per_seed``, ``normalized_per_flow``,
``normalized_per_replica`` and ``padhye_per_flow`` are public for that reason.

Reading the tables
------------------
``prepare(res)`` adds canonical per-replica columns to copies of ``replicas`` and ``flows``:

* ``network``: ``network_label(row)``: "TCP-only", "TCP+UDP", "TCP+EF", "TCP+UDP+EF",
  "TCP+CBR", "TCP+UDP+CBR", from the grid columns ``ef`` (None/'onoff'/'cbr') and ``udp``
  (bool).  A fixed (non-axis) parameter is not a column: a missing ``ef`` is read as None when
  the params column ``ef_rate_bps`` is 0, a missing ``udp`` from ``udp_rate_bps > 0``;
  otherwise a ValueError names the missing column.
* ``ef_kind`` ('none'/'onoff'/'cbr'), ``has_udp`` (bool).
* ``N``: number of TCP flows of the replica (counted in ``flows``).
* ``rtp_setting``: 'unequal' when the replica has an ``rtp_intervals`` value or its flows'
  RTPs differ, else 'equal'; ``rtp``: the common RTP in ms (equal setting), NaN otherwise.
* ``f``: the EF fraction (``ef_fraction`` column, else ``ef_rate_bps`` over the link rate
  ``available_bps + ef_rate_bps + udp_rate_bps``); NaN for networks without EF/CBR.
* ``t_on``: ``t_on_ms`` (NaN when it is not a column).

Networks whose TCP flows cannot depend on T_on (no EF, or CBR) may still carry a ``t_on_ms``
axis: their values are averaged per seed over T_on (the replicas are the same experiment), so
that they count once per seed in a confidence interval.  The TCP-CBR and TCP-EF rows are
paired by seed and by (N, RTP setting, RTP, f, UDP) in ``metrics.throughput_loss``.

Tables of several runs (grids) must be joined with :func:`combine`, which renumbers
``point`` so that (point, seed) stays a unique replica key.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter, ScalarFormatter

from diffsweep import metrics
from diffsweep.results import TABLES, Results

__all__ = [
    "FIGURES", "NETWORKS", "NO_EF", "WITH_EF", "EF_PAIRS", "NEAR_FAIR", "N_LARGE",
    "network_label", "combine", "prepare", "loss_per_seed", "cbr_timeouts_per_seed",
    "timeouts_per_seed", "fairness_per_seed", "normalized_per_flow", "normalized_per_replica",
    "padhye_per_flow", "collapse_t_on", "prefer", "nearest_t_on", "save",
    "fig2", "fig3", "fig4", "fig5", "fig6", "fig7", "fig8", "fig9", "fig10", "figkf",
]

KEYS = ["point", "seed"]
CANON = ["network", "ef_kind", "has_udp", "N", "rtp_setting", "rtp", "f", "t_on"]
# Replica descriptors (besides seed and t_on) on which networks are paired.
PAIR_KEYS = ["N", "rtp_setting", "rtp", "f", "has_udp"]

NETWORKS = ("TCP-only", "TCP+UDP", "TCP+EF", "TCP+UDP+EF", "TCP+CBR", "TCP+UDP+CBR")
NO_EF = ("TCP-only", "TCP+UDP")
WITH_EF = ("TCP+EF", "TCP+UDP+EF")
EF_PAIRS = (("TCP-only", "TCP+EF"), ("TCP+UDP", "TCP+UDP+EF"))
NO_T_ON = ("TCP-only", "TCP+UDP", "TCP+CBR", "TCP+UDP+CBR")
COLORS = {"TCP-only": "tab:blue", "TCP+UDP": "tab:orange", "TCP+EF": "tab:green",
          "TCP+UDP+EF": "tab:red", "TCP+CBR": "tab:gray", "TCP+UDP+CBR": "tab:brown"}

# "Close to the fair share" (Sec. 4.1, Fig. 6, 8, 9): 0.8 <= x_i / (C/n) <= 1.2.
NEAR_FAIR = (0.8, 1.2)
# "a large number (>= 20) of flows" (Sec. 3.2).
N_LARGE = 20
# The paper's main setting: f = 30% (Sec. 2.2), RTP 8 ms for one flow (3.1.1), N = 64
# (4.1), T_on = 1 ms (4.2).
MAIN_F = 0.3
HIST_BIN = 0.2
CI_NOTE = "error bars: 95% CI over seeds"


# --------------------------------------------------------------------------------------------
# Reading the tables
# --------------------------------------------------------------------------------------------

def _missing(v) -> bool:
    """None, NaN, pd.NA or an empty / 'none' / 'nan' string."""
    if v is None:
        return True
    if isinstance(v, str):
        return v.strip().lower() in ("", "none", "nan", "null", "<na>")
    try:
        r = pd.isna(v)
    except (TypeError, ValueError):
        return False
    return bool(r) if np.ndim(r) == 0 else False


def _need(df: pd.DataFrame, cols: Iterable[str], table: str) -> None:
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"{table}.{c}: column is missing (the Kaur & Vin figures need it; "
                             f"make it a grid axis, e.g. {c}=[...], or see docs/api.md)")


def _ef_kind(row: Mapping) -> str:
    v = row.get("ef", None) if hasattr(row, "get") else None
    has_col = "ef" in row
    if has_col and not _missing(v):
        s = str(v).strip().lower()
        if s in ("onoff", "cbr", "none"):  # sweep files say "none" (TOML has no null)
            return s
        raise ValueError(f"ef: {v!r} is not allowed (expected None, 'none', 'onoff' or 'cbr')")
    # ef is None/NaN, or not a column (a fixed parameter): trust the mean EF rate if given.
    rate = row.get("ef_rate_bps", None) if hasattr(row, "get") else None
    if rate is not None and not _missing(rate):
        if float(rate) == 0.0:
            return "none"
        if not has_col:
            raise ValueError("ef: column is missing and ef_rate_bps > 0, so 'onoff' and 'cbr' "
                             "cannot be told apart (make ef a grid axis, e.g. ef=['onoff'])")
        raise ValueError(f"ef: {v!r} with ef_rate_bps = {rate!r} > 0 (expected 'onoff' or 'cbr')")
    if has_col:
        return "none"
    raise ValueError("ef: column is missing (and no ef_rate_bps column to infer it from; "
                     "make ef a grid axis, e.g. ef=['onoff'])")


def _has_udp(row: Mapping) -> bool:
    v = row.get("udp", None) if hasattr(row, "get") else None
    if "udp" in row and not _missing(v):
        if isinstance(v, str):
            s = v.strip().lower()
            if s in ("true", "1", "yes"):
                return True
            if s in ("false", "0", "no"):
                return False
            raise ValueError(f"udp: {v!r} is not allowed (expected a bool)")
        return bool(v)
    rate = row.get("udp_rate_bps", None) if hasattr(row, "get") else None
    if rate is not None and not _missing(rate):
        return float(rate) > 0.0
    raise ValueError("udp: column is missing (and no udp_rate_bps column to infer it from; "
                     "make udp a grid axis, e.g. udp=[False, True])")


def network_label(row: Mapping) -> str:
    """The Kaur & Vin network of one table row (a dict or a pandas Series).

    From ``ef`` (None -> no EF, 'onoff' -> EF, 'cbr' -> CBR) and ``udp`` (bool):
    "TCP-only", "TCP+UDP", "TCP+EF", "TCP+UDP+EF", "TCP+CBR", "TCP+UDP+CBR".  When ``ef`` or
    ``udp`` is not a column (a fixed parameter), ``ef_rate_bps == 0`` means no EF and
    ``udp_rate_bps > 0`` means UDP; otherwise a ValueError names the missing column.
    """
    kind = _ef_kind(row)
    udp = _has_udp(row)
    if kind == "none":
        return "TCP+UDP" if udp else "TCP-only"
    tail = "EF" if kind == "onoff" else "CBR"
    return f"TCP+UDP+{tail}" if udp else f"TCP+{tail}"


def _gridcol(df: pd.DataFrame, name: str) -> str | None:
    """A grid column's name: ``name``, or ``name_x`` where a merge with a result column of the
    same name suffixed it (e.g. an ``n_flows`` axis in ``replicas``, ``rtp_ms`` in ``flows``)."""
    if name in df.columns:
        return name
    if f"{name}_x" in df.columns:
        return f"{name}_x"
    return None


def combine(parts: list[Results], labels: list | None = None, label_col: str = "part") -> Results:
    """Stack the Results of several runs (e.g. the equal- and unequal-RTP grids of one family),
    renumbering ``point`` so that (point, seed) stays unique; ``labels`` (one per part) go in a
    column ``label_col`` of every table."""
    if not parts:
        raise ValueError("combine: needs at least one Results")
    if labels is not None and len(labels) != len(parts):
        raise ValueError(f"labels: {len(labels)} labels for {len(parts)} parts")
    out, offset = [], 0
    for i, r in enumerate(parts):
        tabs = {}
        top = -1
        for name in TABLES:
            df = getattr(r, name)
            df = df.copy() if df is not None else pd.DataFrame()
            if "point" in df.columns and len(df):
                top = max(top, int(df["point"].max()))
                df["point"] = df["point"].astype("int64") + offset
            if labels is not None and len(df.columns):
                df[label_col] = labels[i]
            tabs[name] = df
        out.append(Results(**tabs, meta=dict(r.meta)))
        offset += top + 1
    metas = [dict(p.meta or {}) for p in parts]
    meta = {"parts": metas}
    for k in ("version", "backend", "device"):
        vals = sorted({str(m[k]) for m in metas if m.get(k) is not None})
        if vals:
            meta[k] = ", ".join(vals)
    walls = [m["wall_s"] for m in metas if isinstance(m.get("wall_s"), (int, float))]
    if walls:
        meta["wall_s"] = float(sum(walls))
    return Results.concat(out, meta=meta)


def prepare(res: Results) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Copies of ``res.replicas`` and ``res.flows`` with the canonical columns of the module
    docstring (``network``, ``ef_kind``, ``has_udp``, ``N``, ``rtp_setting``, ``rtp``, ``f``,
    ``t_on``) and ``available_bps`` in both tables."""
    if not hasattr(res, "replicas") or not hasattr(res, "flows"):
        raise ValueError(f"res: {type(res).__name__} is not allowed (expected a diffsweep.Results)")
    rep, fl = res.replicas, res.flows
    _need(rep, KEYS, "replicas")
    _need(fl, KEYS + ["goodput_bps"], "flows")
    if rep.duplicated(subset=KEYS).any():
        raise ValueError("replicas.point: (point, seed) pairs repeat; join the Results of "
                         "several runs with diffsweep.figures.kaur_vin.combine(...)")
    rep = rep.drop(columns=[c for c in CANON if c in rep.columns]).reset_index(drop=True)
    records = rep.to_dict("records")
    rep["ef_kind"] = [_ef_kind(r) for r in records]
    rep["has_udp"] = [_has_udp(r) for r in records]
    rep["network"] = [network_label(r) for r in records]

    idx = pd.MultiIndex.from_frame(rep[KEYS])
    counts = fl.groupby(KEYS).size()
    n = counts.reindex(idx).to_numpy(dtype=float)
    nres = "n_flows_y" if "n_flows_y" in rep.columns else ("n_flows" if "n_flows" in rep.columns else None)
    if nres is not None:
        n = np.where(np.isnan(n), rep[nres].to_numpy(dtype=float), n)
    rep["N"] = n

    frtp = "rtp_ms_y" if "rtp_ms_y" in fl.columns else ("rtp_ms" if "rtp_ms" in fl.columns else None)
    if frtp is not None and len(fl):
        g = fl.groupby(KEYS)[frtp]
        lo, hi = g.min().reindex(idx).to_numpy(float), g.max().reindex(idx).to_numpy(float)
        mean = g.mean().reindex(idx).to_numpy(float)
    else:
        lo = hi = mean = np.full(len(rep), np.nan)
    spread = hi - lo
    iv = _gridcol(rep, "rtp_intervals")
    has_iv = (np.array([not _missing(v) for v in rep[iv]], dtype=bool) if iv is not None
              else np.zeros(len(rep), dtype=bool))
    unequal = has_iv | (np.nan_to_num(spread, nan=0.0) > 1e-6)
    rep["rtp_setting"] = np.where(unequal, "unequal", "equal")
    grid_rtp = _gridcol(rep, "rtp_ms")
    if grid_rtp is not None:
        gr = pd.to_numeric(rep[grid_rtp], errors="coerce").to_numpy(dtype=float)
        mean = np.where(np.isnan(mean), gr, mean)
    rep["rtp"] = np.where(unequal, np.nan, np.round(mean, 3))

    if "ef_fraction" in rep.columns:
        f = pd.to_numeric(rep["ef_fraction"], errors="coerce").to_numpy(dtype=float)
    elif {"ef_rate_bps", "available_bps"} <= set(rep.columns):
        ef_r = rep["ef_rate_bps"].to_numpy(dtype=float)
        udp_r = rep["udp_rate_bps"].to_numpy(dtype=float) if "udp_rate_bps" in rep else 0.0
        with np.errstate(invalid="ignore", divide="ignore"):
            f = ef_r / (rep["available_bps"].to_numpy(dtype=float) + ef_r + udp_r)
    else:
        f = np.full(len(rep), np.nan)
    rep["f"] = np.where(rep["ef_kind"].to_numpy() == "none", np.nan, np.round(f, 4))
    rep["t_on"] = (pd.to_numeric(rep["t_on_ms"], errors="coerce").to_numpy(dtype=float)
                   if "t_on_ms" in rep.columns else np.nan)

    carry = KEYS + CANON + (["available_bps"] if "available_bps" in rep.columns else [])
    fl = fl.drop(columns=[c for c in carry if c in fl.columns and c not in KEYS])
    fl = fl.merge(rep[carry], on=KEYS, how="left")
    return rep, fl


# --------------------------------------------------------------------------------------------
# Per-seed tables (shared with diffsweep.report)
# --------------------------------------------------------------------------------------------

def _pair_key(df: pd.DataFrame) -> pd.Series:
    parts = [df[k].astype(str) for k in PAIR_KEYS]
    out = parts[0]
    for p in parts[1:]:
        out = out + "|" + p
    return out


def loss_per_seed(res: Results, value: str = "U") -> pd.DataFrame:
    """Loss in TCP throughput ``U_CBR - U_EF`` per seed and EF point (Sec. 2.3(1); Fig. 2a, 3,
    4a): ``metrics.utilization`` per replica, the CBR replicas averaged per seed over any T_on
    axis (CBR does not depend on T_on), then ``metrics.throughput_loss`` pairing each EF replica
    with the CBR replica of the same seed, N, RTP setting, RTP, f and UDP.  Columns: the
    canonical ones, ``U_cbr``, ``U_ef``, ``loss``, ``point_ef``, ``point_cbr``."""
    rep, fl = prepare(res)
    _need(rep, ["available_bps"], "replicas")
    _need(fl, ["segment_bytes", "header_bytes"], "flows")
    util = metrics.utilization(rep, fl)
    util = util[[c for c in util.columns if c in KEYS + CANON + [value]]].copy()
    util["pair_key"] = _pair_key(util)
    cbr, ef = util[util["ef_kind"] == "cbr"], util[util["ef_kind"] == "onoff"]
    if cbr.empty or ef.empty:
        raise ValueError("ef: the loss U_CBR - U_EF needs rows with ef='cbr' and rows with "
                         f"ef='onoff' (found {sorted(util['ef_kind'].unique())})")
    cbr = (cbr.groupby(["seed", "pair_key"], as_index=False, dropna=False)
           .agg(point=("point", "min"), **{value: (value, "mean")}))
    cbr["ef_kind"] = "cbr"
    both = pd.concat([cbr, ef], ignore_index=True)
    out = metrics.throughput_loss(both, network_col="ef_kind", cbr="cbr", ef="onoff",
                                  on=["pair_key"], value=value)
    return out.drop(columns=["pair_key"])


def timeouts_per_seed(res: Results) -> pd.DataFrame:
    """``metrics.timeouts_per_flow`` per replica (Fig. 2b: ``timeouts_total``; Fig. 4b:
    ``timeouts_per_flow``) with the canonical columns."""
    rep, fl = prepare(res)
    _need(fl, ["timeouts"], "flows")
    tp = metrics.timeouts_per_flow(fl)
    tp = tp[KEYS + ["timeouts_total", "timeouts_per_flow", "n_tcp"]]
    return tp.merge(rep[KEYS + CANON], on=KEYS, how="left")


def cbr_timeouts_per_seed(res: Results) -> pd.DataFrame:
    """Timeouts in the TCP-CBR network, averaged per seed over T_on (reference level)."""
    tp = timeouts_per_seed(res)
    return collapse_t_on(tp[tp["ef_kind"] == "cbr"], ["timeouts_total", "timeouts_per_flow"])


def fairness_per_seed(res: Results) -> pd.DataFrame:
    """``metrics.fairness`` per replica: ``min_max_ratio`` (M), ``jain_index`` (F), ``n_tcp``,
    with the canonical columns (Sec. 2.3(2); Fig. 5, 7)."""
    rep, fl = prepare(res)
    fr = metrics.fairness(fl)[KEYS + ["min_max_ratio", "jain_index", "n_tcp"]]
    return fr.merge(rep[KEYS + CANON], on=KEYS, how="left")


def normalized_per_flow(res: Results) -> pd.DataFrame:
    """Per-flow normalised throughput ``x_i / (C/n)`` (``metrics.normalized_throughputs`` with
    C = ``available_bps``), column ``normalized`` (Sec. 4.1; Fig. 6, 8, 9)."""
    rep, fl = prepare(res)
    _need(fl, ["available_bps"], "flows")
    return metrics.normalized_throughputs(fl, capacity="available_bps")


def normalized_per_replica(res_or_flows) -> pd.DataFrame:
    """Per replica: ``spread`` = max - min of x_i/(C/n) (the paper's "maximum difference in
    the throughput", in fair shares) and ``near_fair`` = fraction of flows with
    NEAR_FAIR[0] <= x_i/(C/n) <= NEAR_FAIR[1]."""
    nf = res_or_flows if isinstance(res_or_flows, pd.DataFrame) else normalized_per_flow(res_or_flows)
    lo, hi = NEAR_FAIR
    work = nf[KEYS + ["normalized"]].copy()
    work["_near"] = ((work["normalized"] >= lo) & (work["normalized"] <= hi)).astype(float)
    g = work.groupby(KEYS, as_index=False)
    out = g.agg(spread_max=("normalized", "max"), spread_min=("normalized", "min"),
                near_fair=("_near", "mean"))
    out["spread"] = out["spread_max"] - out["spread_min"]
    out = out.drop(columns=["spread_max", "spread_min"])
    canon = nf[KEYS + CANON].drop_duplicates(subset=KEYS)
    return out.merge(canon, on=KEYS, how="left")


def padhye_per_flow(res: Results) -> pd.DataFrame:
    """``metrics.padhye_error`` per flow (Sec. 5, Fig. 10), with the canonical columns."""
    rep, fl = prepare(res)
    return metrics.padhye_error(fl)


def collapse_t_on(df: pd.DataFrame, values, networks=NO_T_ON) -> pd.DataFrame:
    """Average ``values`` per seed over T_on for the rows of ``networks`` (those whose TCP flows
    do not depend on T_on), so that each seed counts once; their ``t_on`` becomes NaN and
    ``point`` the smallest of the averaged points.  Other rows are returned unchanged."""
    values = [values] if isinstance(values, str) else list(values)
    mask = df["network"].isin(networks)
    if not mask.any():
        return df.copy()
    keys = ["seed", "network", "ef_kind"] + PAIR_KEYS
    agg = {v: (v, "mean") for v in values}
    if "point" in df.columns:
        agg["point"] = ("point", "min")
    a = df[mask].groupby(keys, as_index=False, dropna=False).agg(**agg)
    a["t_on"] = np.nan
    return pd.concat([df[~mask], a], ignore_index=True)


def prefer(df: pd.DataFrame, col: str, value, log: bool = False) -> tuple[pd.DataFrame, str | None]:
    """Keep the rows whose ``col`` equals ``value`` (the paper's setting) when ``col`` takes
    several values; if ``value`` is absent, the nearest value (in log distance if ``log``).
    Rows with NaN in ``col`` (where it does not apply) are kept.  Returns (rows, note)."""
    if col not in df.columns or df.empty:
        return df, None
    vals = np.array(sorted(pd.to_numeric(df[col], errors="coerce").dropna().unique()), dtype=float)
    if len(vals) <= 1:
        return df, None
    if log:
        d = np.abs(np.log(np.maximum(vals, 1e-300) / float(value)))
    else:
        d = np.abs(vals - float(value))
    keep = vals[int(np.argmin(d))]
    col_vals = pd.to_numeric(df[col], errors="coerce")
    sel = np.isclose(col_vals, keep, rtol=1e-9, atol=1e-12) | col_vals.isna()
    return df[sel], f"{col} = {keep:g}"


def nearest_t_on(df: pd.DataFrame, target: float = 1.0) -> tuple[pd.DataFrame, str | None]:
    """Per network, keep the rows at the T_on nearest to ``target`` ms (log distance)."""
    if "t_on" not in df.columns or df["t_on"].isna().all():
        return df, None
    parts, chosen = [], set()
    for _, g in df.groupby("network", sort=False):
        sub, note = prefer(g, "t_on", target, log=True)
        parts.append(sub)
        vals = sub["t_on"].dropna().unique()
        if len(vals) == 1:
            chosen.add(float(vals[0]))
    out = pd.concat(parts, ignore_index=True) if parts else df
    note = (f"T_on = {', '.join(f'{v:g}' for v in sorted(chosen))} ms" if chosen else None)
    return out, note


def _select(df: pd.DataFrame, **prefs) -> tuple[pd.DataFrame, list[str]]:
    notes = []
    for col, value in prefs.items():
        df, note = prefer(df, col, value, log=(col in ("t_on", "N", "rtp")))
        if note:
            notes.append(note)
    return df, notes


# --------------------------------------------------------------------------------------------
# Drawing helpers
# --------------------------------------------------------------------------------------------

def _new_figure(ncols: int, title: str, width: float = 5.4, height: float = 4.2) -> tuple[Figure, list]:
    fig = Figure(figsize=(width * ncols, height), layout="constrained")
    FigureCanvasAgg(fig)            # the Agg canvas: no GUI backend, no pyplot state
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    fig.suptitle(title, fontsize=11)
    return fig, list(axes)


def _yerr(c: pd.DataFrame) -> np.ndarray:
    m = c["mean"].to_numpy(dtype=float)
    lo = np.nan_to_num(m - c["ci_low"].to_numpy(dtype=float), nan=0.0)
    hi = np.nan_to_num(c["ci_high"].to_numpy(dtype=float) - m, nan=0.0)
    return np.vstack([np.maximum(lo, 0), np.maximum(hi, 0)])


def _errorbar(ax, c: pd.DataFrame, x: str, label: str, **kw) -> None:
    c = c.sort_values(x)
    kw.setdefault("marker", "o")
    kw.setdefault("ms", 4)
    kw.setdefault("capsize", 3)
    ax.errorbar(c[x].to_numpy(dtype=float), c["mean"].to_numpy(dtype=float), yerr=_yerr(c),
                label=label, **kw)


def _hline_band(ax, c: pd.DataFrame, label: str, color: str, ls: str = "--") -> None:
    if c.empty:
        return
    r = c.iloc[0]
    ax.axhline(float(r["mean"]), color=color, ls=ls, lw=1.5, label=f"{label} (no T_on dependence)")
    if np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"]):
        ax.axhspan(float(r["ci_low"]), float(r["ci_high"]), color=color, alpha=0.15, lw=0)


def _log_ton(ax) -> None:
    ax.set_xscale("log")
    ax.set_xlabel("Average EF burst duration T_on (ms)")
    ax.grid(True, which="both", alpha=0.3)


def _log2_n(ax, ns) -> None:
    ax.set_xscale("log", base=2)
    ns = sorted({int(n) for n in ns if np.isfinite(n)})
    if ns:
        ax.set_xticks(ns)
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("Number of TCP flows N")
    ax.grid(True, alpha=0.3)


def _no_data(ax, what: str) -> None:
    ax.text(0.5, 0.5, f"not measured\n({what})", ha="center", va="center",
            transform=ax.transAxes, color="0.4")


def _note(fig: Figure, notes: list[str], n_seeds=None) -> None:
    bits = [CI_NOTE + (f" (n = {n_seeds})" if n_seeds else "")] + [n for n in notes if n]
    fig.supxlabel("; ".join(bits), fontsize=7, color="0.35")


def _nseeds(df: pd.DataFrame) -> str | None:
    if "seed" not in df.columns or df.empty:
        return None
    n = df.groupby([c for c in ("network", "t_on", "N") if c in df.columns], dropna=False)["seed"].nunique()
    lo, hi = int(n.min()), int(n.max())
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _require_t_on(res: Results) -> None:
    _need(res.replicas, ["t_on_ms"], "replicas")


def _fmt_n(n) -> str:
    return f"{int(n)}" if np.isfinite(n) else "?"


# --------------------------------------------------------------------------------------------
# Fig. 2: one flow, EF vs CBR
# --------------------------------------------------------------------------------------------

def fig2(res: Results) -> Figure:
    """Fig. 2: (a) loss in TCP throughput U_CBR - U_EF vs T_on; (b) total number of timeouts
    of the TCP flow vs T_on in the TCP-EF network (TCP-CBR level dashed, for reference).
    Paper setting: 1 flow, RTP 8 ms, f = 30%."""
    _require_t_on(res)
    loss = loss_per_seed(res)
    loss, notes = _select(loss, N=1, rtp=8.0, f=MAIN_F, has_udp=0)
    tp = timeouts_per_seed(res)
    tp, _ = _select(tp, N=1, rtp=8.0, f=MAIN_F, has_udp=0)
    fig, (a, b) = _new_figure(2, "Kaur & Vin Fig. 2: effect of EF burstiness on TCP (one flow)")
    c = metrics.mean_ci(loss, "t_on", "loss")
    _errorbar(a, c, "t_on", "U_CBR - U_EF", color="tab:green")
    a.axhline(0.0, color="0.6", lw=0.8)
    _log_ton(a)
    a.set_ylabel("Loss in TCP throughput U_CBR - U_EF")
    a.set_title("(a) Loss in TCP throughput")
    ef = tp[tp["ef_kind"] == "onoff"]
    _errorbar(b, metrics.mean_ci(ef, "t_on", "timeouts_total"), "t_on", "TCP-EF", color="tab:green")
    cb = collapse_t_on(tp[tp["ef_kind"] == "cbr"], "timeouts_total")
    if not cb.empty:
        _hline_band(b, metrics.mean_ci(cb, None, "timeouts_total"), "TCP-CBR", COLORS["TCP+CBR"])
    _log_ton(b)
    b.set_ylabel("Number of timeouts (after warm-up)")
    b.set_title("(b) Number of timeouts")
    b.legend(fontsize=8)
    _note(fig, notes, _nseeds(loss))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 3: one flow, per RTP
# --------------------------------------------------------------------------------------------

def fig3(res: Results) -> Figure:
    """Fig. 3: loss in TCP throughput U_CBR - U_EF vs T_on, one curve per RTP (1 flow)."""
    _require_t_on(res)
    loss = loss_per_seed(res)
    loss, notes = _select(loss, N=1, f=MAIN_F, has_udp=0)
    loss = loss[loss["rtp_setting"] == "equal"]
    if loss.empty:
        raise ValueError("rtp_ms: Fig. 3 needs equal-RTP rows (rtp_ms = one number per point)")
    fig, (a,) = _new_figure(1, "Kaur & Vin Fig. 3: effect of RTT on loss in TCP throughput",
                            width=6.4)
    c = metrics.mean_ci(loss, ["rtp", "t_on"], "loss")
    for rtp, g in c.groupby("rtp"):
        _errorbar(a, g, "t_on", f"RTP = {rtp:g} ms")
    a.axhline(0.0, color="0.6", lw=0.8)
    _log_ton(a)
    a.set_ylabel("Loss in TCP throughput U_CBR - U_EF")
    a.legend(fontsize=8)
    _note(fig, notes, _nseeds(loss))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 4: N flows
# --------------------------------------------------------------------------------------------

def fig4(res: Results) -> Figure:
    """Fig. 4: (a) loss in aggregate TCP throughput vs T_on per N; (b) number of timeouts per
    flow vs T_on per N (TCP-EF network).  Paper: unequal RTPs 12-26 ms, f = 30%."""
    _require_t_on(res)
    loss = loss_per_seed(res)
    loss, notes = _select(loss, f=MAIN_F, has_udp=0)
    tp = timeouts_per_seed(res)
    tp, _ = _select(tp, f=MAIN_F, has_udp=0)
    tp = tp[tp["ef_kind"] == "onoff"]
    fig, (a, b) = _new_figure(2, "Kaur & Vin Fig. 4: bursty EF traffic and many TCP flows")
    for n, g in metrics.mean_ci(loss, ["N", "t_on"], "loss").groupby("N"):
        _errorbar(a, g, "t_on", f"N = {_fmt_n(n)}")
    a.axhline(0.0, color="0.6", lw=0.8)
    _log_ton(a)
    a.set_ylabel("Loss in aggregate TCP throughput U_CBR - U_EF")
    a.set_title("(a) Aggregate TCP throughput")
    a.legend(fontsize=8)
    for n, g in metrics.mean_ci(tp, ["N", "t_on"], "timeouts_per_flow").groupby("N"):
        _errorbar(b, g, "t_on", f"N = {_fmt_n(n)}")
    _log_ton(b)
    b.set_ylabel("Number of timeouts per flow")
    b.set_title("(b) Number of timeouts per flow")
    b.legend(fontsize=8)
    _note(fig, notes, _nseeds(loss))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 5: M vs T_on for the four networks
# --------------------------------------------------------------------------------------------

def _m_vs_t_on(ax, fr: pd.DataFrame) -> None:
    for net in NO_EF:
        g = collapse_t_on(fr[fr["network"] == net], "min_max_ratio")
        if not g.empty:
            _hline_band(ax, metrics.mean_ci(g, None, "min_max_ratio"), net, COLORS[net])
    for net in WITH_EF:
        g = fr[fr["network"] == net]
        if not g.empty:
            _errorbar(ax, metrics.mean_ci(g, "t_on", "min_max_ratio"), "t_on", net,
                      color=COLORS[net])
    _log_ton(ax)
    ax.set_ylabel("Min-max ratio M")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=7)


def fig5(res: Results) -> Figure:
    """Fig. 5: min-max ratio M vs T_on for TCP-only, TCP+UDP (horizontal lines with CI bands:
    no T_on dependence), TCP+EF and TCP+UDP+EF; (a) equal RTPs, (b) unequal RTPs.
    Paper: N = 64, f = 30%."""
    _require_t_on(res)
    fr = fairness_per_seed(res)
    fr, notes = _select(fr, N=64, f=MAIN_F)
    fig, axes = _new_figure(2, "Kaur & Vin Fig. 5: effect of burstiness in EF traffic on TCP fairness")
    for ax, setting, tag in zip(axes, ("equal", "unequal"), ("(a) Equal RTPs", "(b) Unequal RTPs")):
        ax.set_title(tag)
        sub = fr[fr["rtp_setting"] == setting]
        if sub.empty:
            _no_data(ax, f"no {setting}-RTP rows")
            _log_ton(ax)
            ax.set_ylabel("Min-max ratio M")
            continue
        _m_vs_t_on(ax, sub)
    _note(fig, notes, _nseeds(fr))
    return fig


# --------------------------------------------------------------------------------------------
# Histograms (Fig. 6, 8, 9)
# --------------------------------------------------------------------------------------------

def _edges(values: np.ndarray) -> np.ndarray:
    v = values[np.isfinite(values)]
    top = float(np.quantile(v, 0.99)) if v.size else 2.0
    upper = min(max(2.0, math.ceil(top / HIST_BIN) * HIST_BIN), 6.0)
    return np.round(np.arange(0.0, upper + HIST_BIN / 2, HIST_BIN), 10)


def hist_per_replica(nf: pd.DataFrame, edges: np.ndarray) -> pd.DataFrame:
    """Percentage of a replica's flows in each bin of x_i/(C/n) (values beyond the last edge go
    in the last bin): one row per (replica, bin), columns point, seed, bin, pct."""
    x = np.clip(nf["normalized"].to_numpy(dtype=float), 0.0, edges[-1] - 1e-9)
    b = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, len(edges) - 2)
    work = pd.DataFrame({"point": nf["point"].to_numpy(), "seed": nf["seed"].to_numpy(), "bin": b})
    cnt = work.groupby(KEYS + ["bin"]).size().rename("count").reset_index()
    reps = work[KEYS].drop_duplicates()
    full = reps.merge(pd.DataFrame({"bin": np.arange(len(edges) - 1)}), how="cross")
    full = full.merge(cnt, on=KEYS + ["bin"], how="left").fillna({"count": 0})
    tot = work.groupby(KEYS).size().rename("total").reset_index()
    full = full.merge(tot, on=KEYS)
    full["pct"] = 100.0 * full["count"] / full["total"]
    return full


def _hist_panel(ax, series: list[tuple[str, pd.DataFrame, str | None]], edges: np.ndarray,
                empty: str) -> None:
    """Bars of the mean % of flows per bin, one series per label; ``empty`` is shown when
    there is no series."""
    if not series:
        _no_data(ax, empty)
        ax.set_xlabel("Normalized throughput x_i / (C/n)")
        ax.set_ylabel("% of flows")
        return
    k = max(1, len(series))
    w = HIST_BIN / k
    centers = (edges[:-1] + edges[1:]) / 2
    for i, (label, nf, color) in enumerate(series):
        h = hist_per_replica(nf, edges)
        c = metrics.mean_ci(h, "bin", "pct")
        xs = centers[c["bin"].to_numpy(dtype=int)] - HIST_BIN / 2 + w * (i + 0.5)
        m = c["mean"].to_numpy(dtype=float)
        err = _yerr(c)
        err[0] = np.minimum(err[0], m)              # a percentage is >= 0 ...
        err[1] = np.minimum(err[1], 100.0 - m)      # ... and <= 100
        ax.bar(xs, m, width=w * 0.95, label=label, color=color, alpha=0.8)
        show = (err.sum(axis=0) > 0)
        if show.any():
            ax.errorbar(xs[show], m[show], yerr=err[:, show], fmt="none", ecolor="0.2",
                        elinewidth=0.7, capsize=1.5)
    ax.axvspan(NEAR_FAIR[0], NEAR_FAIR[1], color="0.85", alpha=0.5, lw=0, zorder=0)
    ax.axvline(1.0, color="0.4", lw=0.8, ls=":")
    ax.set_xlim(edges[0], edges[-1])
    ax.set_xlabel(f"Normalized throughput x_i / (C/n) (last bin: >= {edges[-2]:g})")
    ax.set_ylabel("% of flows")
    ax.set_ylim(bottom=0)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)


def fig6(res: Results) -> Figure:
    """Fig. 6: frequency distribution of the normalised throughput x_i/(C/n) with and without
    EF (T_on nearest 1 ms) for every network present; (a) equal, (b) unequal RTPs.  Bars: mean
    % of a replica's flows per bin, with 95% CI over seeds; shaded: 0.8..1.2 (fair share)."""
    nf = normalized_per_flow(res)
    nf, notes = _select(nf, N=64, f=MAIN_F)
    nf, note = nearest_t_on(nf, 1.0)
    notes.append(note)
    fig, axes = _new_figure(2, "Kaur & Vin Fig. 6: normalized throughput of TCP flows "
                               "(EF T_on = 1 ms)")
    edges = _edges(nf["normalized"].to_numpy(dtype=float))
    for ax, setting, tag in zip(axes, ("equal", "unequal"), ("(a) Equal RTPs", "(b) Unequal RTPs")):
        ax.set_title(tag)
        sub = nf[nf["rtp_setting"] == setting]
        series = [(net, sub[sub["network"] == net], COLORS[net]) for net in NO_EF + WITH_EF
                  if (sub["network"] == net).any()]
        _hist_panel(ax, series, edges, f"no {setting}-RTP rows")
    _note(fig, notes, _nseeds(nf.drop_duplicates(KEYS)))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 7: M vs N
# --------------------------------------------------------------------------------------------

def fig7(res: Results) -> Figure:
    """Fig. 7: min-max ratio M vs the number of TCP flows N for TCP-only, TCP+UDP, TCP+EF and
    TCP+UDP+EF (EF T_on nearest 1 ms); (a) equal, (b) unequal RTPs."""
    fr = fairness_per_seed(res)
    fr, notes = _select(fr, f=MAIN_F)
    fr, note = nearest_t_on(fr, 1.0)
    notes.append(note)
    fr = collapse_t_on(fr, "min_max_ratio", networks=NO_EF)
    fig, axes = _new_figure(2, "Kaur & Vin Fig. 7: effect of increasing the number of TCP "
                               "flows on fairness")
    for ax, setting, tag in zip(axes, ("equal", "unequal"), ("(a) Equal RTPs", "(b) Unequal RTPs")):
        ax.set_title(tag)
        sub = fr[fr["rtp_setting"] == setting]
        if sub.empty:
            _no_data(ax, f"no {setting}-RTP rows")
        for net in NO_EF + WITH_EF:
            g = sub[sub["network"] == net]
            if not g.empty:
                _errorbar(ax, metrics.mean_ci(g, "N", "min_max_ratio"), "N", net,
                          color=COLORS[net], ls="--" if net in NO_EF else "-")
        _log2_n(ax, sub["N"].unique() if not sub.empty else [])
        ax.set_ylabel("Min-max ratio M")
        ax.set_ylim(-0.02, 1.02)
        if not sub.empty:
            ax.legend(fontsize=7)
    _note(fig, notes, _nseeds(fr))
    return fig


# --------------------------------------------------------------------------------------------
# Fig. 8, 9: histograms per N for TCP+UDP and TCP+UDP+EF
# --------------------------------------------------------------------------------------------

def _fig89(res: Results, setting: str, number: int) -> Figure:
    nf = normalized_per_flow(res)
    nf, notes = _select(nf, f=MAIN_F)
    nf, note = nearest_t_on(nf, 1.0)
    notes.append(note)
    nf = nf[nf["rtp_setting"] == setting]
    title = "equal" if setting == "equal" else "unequal"
    fig, axes = _new_figure(2, f"Kaur & Vin Fig. {number}: normalized throughput of TCP flows "
                               f"with {title} round-trip propagation latencies")
    edges = _edges(nf["normalized"].to_numpy(dtype=float)) if not nf.empty else _edges(np.array([]))
    ns = sorted(nf["N"].dropna().unique())
    cmap = {n: f"C{i % 10}" for i, n in enumerate(ns)}
    for ax, net, tag in zip(axes, ("TCP+UDP", "TCP+UDP+EF"), ("(a) TCP+UDP", "(b) TCP+UDP+EF")):
        ax.set_title(tag)
        sub = nf[nf["network"] == net]
        series = [(f"N = {_fmt_n(n)}", sub[sub["N"] == n], cmap[n]) for n in ns
                  if (sub["N"] == n).any()]
        _hist_panel(ax, series, edges, f"no {net} rows with {title} RTPs")
    _note(fig, notes, _nseeds(nf.drop_duplicates(KEYS)) if not nf.empty else None)
    return fig


def fig8(res: Results) -> Figure:
    """Fig. 8: normalised-throughput histograms per N, equal RTPs: (a) TCP+UDP,
    (b) TCP+UDP+EF (EF T_on nearest 1 ms)."""
    return _fig89(res, "equal", 8)


def fig9(res: Results) -> Figure:
    """Fig. 9: as Fig. 8 with unequal RTPs (12-26 ms)."""
    return _fig89(res, "unequal", 9)


# --------------------------------------------------------------------------------------------
# Fig. 10: Padhye model error
# --------------------------------------------------------------------------------------------

def fig10(res: Results) -> Figure:
    """Fig. 10: cumulative distribution over all flows of the PFTK (Padhye et al.) prediction
    error (predicted - observed) / observed (``metrics.padhye_error``; flows without losses
    have no prediction and are left out).  The shaded band is |error| < 10%."""
    pe = padhye_per_flow(res)
    err = pe["padhye_error"].to_numpy(dtype=float)
    ok = np.isfinite(err)
    fig, (a,) = _new_figure(1, "Kaur & Vin Fig. 10: error in prediction by the model of "
                               "Padhye et al.", width=6.4)
    if not ok.any():
        _no_data(a, "no flow with losses")
    else:
        e = np.sort(err[ok])
        y = np.arange(1, e.size + 1) / e.size
        a.step(e, y, where="post", color="tab:purple", label="all flows")
        lo, hi = np.quantile(e, [0.005, 0.995])
        pad = 0.05 * max(hi - lo, 0.2)
        a.set_xlim(min(lo, -0.15) - pad, max(hi, 0.15) + pad)
        frac = float(np.mean(np.abs(e) >= 0.1))
        a.text(0.02, 0.95, f"|error| >= 10%: {100 * frac:.0f}% of {e.size} flows",
               transform=a.transAxes, va="top", fontsize=8)
    a.axvspan(-0.1, 0.1, color="0.85", alpha=0.6, lw=0, zorder=0)
    a.axvline(0.0, color="0.4", lw=0.8, ls=":")
    a.set_xlabel("(predicted - observed) / observed throughput")
    a.set_ylabel("Cumulative fraction of flows")
    a.set_ylim(0, 1.02)
    a.grid(True, alpha=0.3)
    notes = [f"{int((~ok).sum())} flows without losses left out"] if (~ok).any() else []
    fig.supxlabel("; ".join(["empirical CDF over all flows of all seeds"] + notes),
                  fontsize=7, color="0.35")
    return fig


# --------------------------------------------------------------------------------------------
# Kf: other EF fractions
# --------------------------------------------------------------------------------------------

def figkf(res: Results) -> Figure:
    """Kf (text of Sec. 2.2): the K2, K4 and K5 measures for each EF fraction f present:
    (a) one-flow loss vs T_on, (b) aggregate loss vs T_on averaged over N >= 20,
    (c) M vs T_on of TCP+EF (dashed: TCP-only level).  Panels without data say so."""
    _require_t_on(res)
    rep, _ = prepare(res)
    fs = sorted(rep["f"].dropna().unique())
    if not fs:
        raise ValueError("ef_fraction: Kf needs EF or CBR rows (ef = 'onoff'/'cbr')")
    cmap = {f: f"C{i % 10}" for i, f in enumerate(fs)}
    fig, (a, b, c) = _new_figure(3, "Kaur & Vin, EF fractions f (Sec. 2.2: conclusions hold for "
                                    "5-30%)", width=4.8)
    try:
        loss = loss_per_seed(res)
    except ValueError:
        loss = pd.DataFrame(columns=CANON + ["loss"])
    one = loss[loss["N"] == 1]
    if one.empty:
        _no_data(a, "no one-flow EF/CBR rows")
    for f, g in one.groupby("f"):
        _errorbar(a, metrics.mean_ci(g, "t_on", "loss"), "t_on", f"f = {100 * f:g}%", color=cmap[f])
    _log_ton(a)
    a.set_ylabel("Loss U_CBR - U_EF (1 flow)")
    a.set_title("(a) One flow (Fig. 2a)")
    many = loss[loss["N"] >= N_LARGE]
    if many.empty:
        _no_data(b, f"no EF/CBR rows with N >= {N_LARGE}")
    else:
        m = many.groupby(["f", "seed", "t_on"], as_index=False)["loss"].mean()
        for f, g in m.groupby("f"):
            _errorbar(b, metrics.mean_ci(g, "t_on", "loss"), "t_on", f"f = {100 * f:g}%",
                      color=cmap[f])
    _log_ton(b)
    b.set_ylabel(f"Aggregate loss U_CBR - U_EF (N >= {N_LARGE})")
    b.set_title("(b) Many flows (Fig. 4a)")
    fr = fairness_per_seed(res)
    fr = fr[fr["N"] > 1]
    ef = fr[fr["network"] == "TCP+EF"]
    if ef.empty:
        _no_data(c, "no TCP+EF rows with N > 1")
    for f, g in ef.groupby("f"):
        _errorbar(c, metrics.mean_ci(g, "t_on", "min_max_ratio"), "t_on", f"TCP+EF, f = {100 * f:g}%",
                  color=cmap[f])
    base = collapse_t_on(fr[fr["network"] == "TCP-only"], "min_max_ratio")
    if not base.empty:
        _hline_band(c, metrics.mean_ci(base, None, "min_max_ratio"), "TCP-only", "0.3")
    _log_ton(c)
    c.set_ylabel("Min-max ratio M")
    c.set_ylim(-0.02, 1.02)
    c.set_title("(c) Fairness (Fig. 5)")
    for ax in (a, b, c):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    _note(fig, [], None)
    return fig


FIGURES = {"K2": fig2, "K3": fig3, "K4": fig4, "K5": fig5, "K6": fig6, "K7": fig7,
           "K8": fig8, "K9": fig9, "K10": fig10, "Kf": figkf}


def save(fig: Figure, path_stem) -> tuple[Path, Path]:
    """Write ``path_stem.png`` (dpi 120) and ``path_stem.pdf``; returns both paths."""
    stem = Path(path_stem)
    if stem.suffix.lower() in (".png", ".pdf"):
        stem = stem.with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    png, pdf = stem.with_name(stem.name + ".png"), stem.with_name(stem.name + ".pdf")
    fig.savefig(png, dpi=120)
    fig.savefig(pdf)
    return png, pdf


# --------------------------------------------------------------------------------------------
# Fig. 2 variants: why the single-flow loss differs from the paper
# --------------------------------------------------------------------------------------------

def fig2_variants(variants: Mapping[str, Results], ns2: pd.DataFrame | None = None) -> Figure:
    """Fig. 2a under several model settings, one curve each (``variants``: label -> Results of
    a K2-like sweep), plus ns-2.35 on the matched scenario when ``ns2`` (columns ``t_on_ms``,
    ``loss``, ``loss_ci``) is given. Shows whether TCP variant or timer defaults explain a
    claim that does not hold, without tuning anything to agree."""
    fig, (a, b) = _new_figure(2, "Fig. 2 under other settings: loss and timeouts vs T_on (one flow)")
    colors = ["tab:green", "tab:blue", "tab:purple", "tab:brown", "tab:olive"]
    for (label, res), color in zip(variants.items(), colors):
        loss, _ = _select(loss_per_seed(res), N=1, rtp=8.0, f=MAIN_F, has_udp=0)
        _errorbar(a, metrics.mean_ci(loss, "t_on", "loss"), "t_on", label, color=color)
        tp, _ = _select(timeouts_per_seed(res), N=1, rtp=8.0, f=MAIN_F, has_udp=0)
        ef = tp[tp["ef_kind"] == "onoff"]
        _errorbar(b, metrics.mean_ci(ef, "t_on", "timeouts_total"), "t_on", label, color=color)
    if ns2 is not None and not ns2.empty:
        a.errorbar(ns2["t_on_ms"], ns2["loss"], yerr=ns2["loss_ci"], color="black", marker="s",
                   ls=":", capsize=3, label="ns-2.35, matched scenario")
    a.axhline(0.0, color="0.6", lw=0.8)
    a.set_ylabel("Loss in TCP throughput U_CBR - U_EF")
    a.set_title("(a) Loss in TCP throughput")
    b.set_ylabel("Number of timeouts (after warm-up)")
    b.set_title("(b) Number of timeouts, TCP-EF")
    for ax in (a, b):
        _log_ton(ax)
        ax.legend(fontsize=8)
    return fig
