"""Per-seed tables of Kaur & Vin, "Effect of Higher Priority EF Traffic on TCP Throughput and
Fairness" (UT Austin TR2001-1): what the figures (``figures``) draw and the claims (``claims``)
check, so that both read the same numbers.

Every function takes a :class:`diffsweep.Results` (``res.replicas`` / ``res.flows``, with the
grid columns of the builder ``diffsweep.papers.kaur_vin.scenario.kaur_vin``): ``prepare``,
``loss_per_seed``, ``timeouts_per_seed``, ``fairness_per_seed``, ``normalized_per_flow``,
``normalized_per_replica`` and ``padhye_per_flow``; ``select`` keeps the paper's setting.

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

Tables of several runs (grids) must be joined with :func:`diffsweep.report.figures.combine`, which renumbers
``point`` so that (point, seed) stays a unique replica key.
"""
from __future__ import annotations

from typing import Iterable, Mapping

import numpy as np
import pandas as pd

from diffsweep.analysis import metrics
from diffsweep.core.results import Results, per_results

__all__ = [
    "NETWORKS", "NO_EF", "WITH_EF", "EF_PAIRS", "NEAR_FAIR", "N_LARGE", "MAIN_F",
    "network_label", "prepare", "loss_per_seed", "cbr_timeouts_per_seed",
    "timeouts_per_seed", "fairness_per_seed", "normalized_per_flow", "normalized_per_replica",
    "padhye_per_flow", "collapse_t_on", "prefer", "nearest_t_on", "select", "need",
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

# "Close to the fair share" (Sec. 4.1, Fig. 6, 8, 9): 0.8 <= x_i / (C/n) <= 1.2.
NEAR_FAIR = (0.8, 1.2)
# "a large number (>= 20) of flows" (Sec. 3.2).
N_LARGE = 20
# The paper's main setting: f = 30% (Sec. 2.2), RTP 8 ms for one flow (3.1.1), N = 64
# (4.1), T_on = 1 ms (4.2).
MAIN_F = 0.3


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


def need(df: pd.DataFrame, cols: Iterable[str], table: str) -> None:
    """ValueError naming the first of ``cols`` that is not a column of ``df``."""
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


_LABEL_COLUMNS = ("ef", "ef_rate_bps", "udp", "udp_rate_bps")


def _labels(rep: pd.DataFrame) -> tuple[list, list, list]:
    """``_ef_kind``, ``_has_udp`` and ``network_label`` of every row of ``rep``, each computed
    once per distinct setting of the columns they read (a handful per table, not one per
    replica)."""
    cols = [c for c in _LABEL_COLUMNS if c in rep.columns]
    rows = list(zip(*(rep[c].tolist() for c in cols))) if cols else [()] * len(rep)
    keys = [tuple((type(v), repr(v)) for v in values) for values in rows]
    distinct = {k: dict(zip(cols, values)) for k, values in zip(keys, rows)}
    out = []
    for fn in (_ef_kind, _has_udp, network_label):  # in this order, as row by row before
        got = {k: fn(row) for k, row in distinct.items()}
        out.append([got[k] for k in keys])
    return out[0], out[1], out[2]


def _gridcol(df: pd.DataFrame, name: str) -> str | None:
    """A grid column's name: ``name``, or ``name_x`` where a merge with a result column of the
    same name suffixed it (e.g. an ``n_flows`` axis in ``replicas``, ``rtp_ms`` in ``flows``)."""
    if name in df.columns:
        return name
    if f"{name}_x" in df.columns:
        return f"{name}_x"
    return None


@per_results
def _tcp_flows(rep: pd.DataFrame, fl: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``fl`` of the paper's TCP flows: the telnet share of family Kt (params
    ``telnet_flows``, the first flows of a replica) is background, not one of the N flows."""
    if "telnet_flows" not in rep.columns or "flow" not in fl.columns:
        return fl
    tel = pd.to_numeric(rep["telnet_flows"], errors="coerce").fillna(0)
    if not (tel > 0).any():
        return fl
    per = pd.Series(tel.to_numpy(dtype=np.int64), index=pd.MultiIndex.from_frame(rep[KEYS]))
    t = per.reindex(pd.MultiIndex.from_frame(fl[KEYS])).fillna(0).to_numpy(dtype=np.int64)
    return fl[fl["flow"].to_numpy(dtype=np.int64) >= t]


def prepare(res: Results) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Copies of ``res.replicas`` and ``res.flows`` with the canonical columns of the module
    docstring (``network``, ``ef_kind``, ``has_udp``, ``N``, ``rtp_setting``, ``rtp``, ``f``,
    ``t_on``) and ``available_bps`` in both tables."""
    if not hasattr(res, "replicas") or not hasattr(res, "flows"):
        raise ValueError(f"res: {type(res).__name__} is not allowed (expected a diffsweep.Results)")
    rep, fl = res.replicas, res.flows
    need(rep, KEYS, "replicas")
    need(fl, KEYS + ["goodput_bps"], "flows")
    if rep.duplicated(subset=KEYS).any():
        raise ValueError("replicas.point: (point, seed) pairs repeat; join the Results of "
                         "several runs with diffsweep.report.figures.kaur_vin.combine(...)")
    fl = _tcp_flows(rep, fl)
    rep = rep.drop(columns=[c for c in CANON if c in rep.columns]).reset_index(drop=True)
    rep["ef_kind"], rep["has_udp"], rep["network"] = _labels(rep)

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
        tel_r = (np.nan_to_num(rep["telnet_rate_bps"].to_numpy(dtype=float))
                 if "telnet_rate_bps" in rep else 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            f = ef_r / (rep["available_bps"].to_numpy(dtype=float) + ef_r + udp_r + tel_r)
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
# Per-seed tables (shared with diffsweep.report.paper_report)
# --------------------------------------------------------------------------------------------

def _pair_key(df: pd.DataFrame) -> pd.Series:
    parts = [df[k].astype(str) for k in PAIR_KEYS]
    out = parts[0]
    for p in parts[1:]:
        out = out + "|" + p
    return out


@per_results
def loss_per_seed(res: Results, value: str = "U") -> pd.DataFrame:
    """Loss in TCP throughput ``U_CBR - U_EF`` per seed and EF point (Sec. 2.3(1); Fig. 2a, 3,
    4a): ``metrics.utilization`` per replica, the CBR replicas averaged per seed over any T_on
    axis (CBR does not depend on T_on), then ``metrics.throughput_loss`` pairing each EF replica
    with the CBR replica of the same seed, N, RTP setting, RTP, f and UDP.  Columns: the
    canonical ones, ``U_cbr``, ``U_ef``, ``loss``, ``point_ef``, ``point_cbr``."""
    rep, fl = prepare(res)
    need(rep, ["available_bps"], "replicas")
    need(fl, ["segment_bytes", "header_bytes"], "flows")
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


@per_results
def timeouts_per_seed(res: Results) -> pd.DataFrame:
    """``metrics.timeouts_per_flow`` per replica (Fig. 2b: ``timeouts_total``; Fig. 4b:
    ``timeouts_per_flow``) with the canonical columns."""
    rep, fl = prepare(res)
    need(fl, ["timeouts"], "flows")
    tp = metrics.timeouts_per_flow(fl)
    tp = tp[KEYS + ["timeouts_total", "timeouts_per_flow", "n_tcp"]]
    return tp.merge(rep[KEYS + CANON], on=KEYS, how="left")


def cbr_timeouts_per_seed(res: Results) -> pd.DataFrame:
    """Timeouts in the TCP-CBR network, averaged per seed over T_on (reference level)."""
    tp = timeouts_per_seed(res)
    return collapse_t_on(tp[tp["ef_kind"] == "cbr"], ["timeouts_total", "timeouts_per_flow"])


@per_results
def fairness_per_seed(res: Results) -> pd.DataFrame:
    """``metrics.fairness`` per replica: ``min_max_ratio`` (M), ``jain_index`` (F), ``n_tcp``,
    with the canonical columns (Sec. 2.3(2); Fig. 5, 7)."""
    rep, fl = prepare(res)
    fr = metrics.fairness(fl)[KEYS + ["min_max_ratio", "jain_index", "n_tcp"]]
    return fr.merge(rep[KEYS + CANON], on=KEYS, how="left")


@per_results
def normalized_per_flow(res: Results) -> pd.DataFrame:
    """Per-flow normalised throughput ``x_i / (C/n)`` (``metrics.normalized_throughputs`` with
    C = ``available_bps``), column ``normalized`` (Sec. 4.1; Fig. 6, 8, 9)."""
    rep, fl = prepare(res)
    need(fl, ["available_bps"], "flows")
    return metrics.normalized_throughputs(fl, capacity="available_bps")


def normalized_per_replica(res_or_flows) -> pd.DataFrame:
    """Per replica: ``spread`` = max - min of x_i/(C/n) (the paper's "maximum difference in
    the throughput", in fair shares) and ``near_fair`` = fraction of flows with
    NEAR_FAIR[0] <= x_i/(C/n) <= NEAR_FAIR[1]. Of a Results: once per Results."""
    if isinstance(res_or_flows, pd.DataFrame):
        return _normalized_per_replica(res_or_flows)
    return _normalized_per_replica_of(res_or_flows)


@per_results
def _normalized_per_replica_of(res: Results) -> pd.DataFrame:
    return _normalized_per_replica(normalized_per_flow(res))


def _normalized_per_replica(nf: pd.DataFrame) -> pd.DataFrame:
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


@per_results
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


def select(df: pd.DataFrame, **prefs) -> tuple[pd.DataFrame, list[str]]:
    """``prefer`` for each ``col=value`` in turn (log distance for t_on, N and rtp): the rows of
    the paper's setting, or the nearest one; returns (rows, notes naming what was kept)."""
    notes = []
    for col, value in prefs.items():
        df, note = prefer(df, col, value, log=(col in ("t_on", "N", "rtp")))
        if note:
            notes.append(note)
    return df, notes
