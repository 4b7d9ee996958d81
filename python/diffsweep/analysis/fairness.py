"""Fairness of the flows' throughputs: Jain's index F and the min-max ratio M (Kaur & Vin,
Sec. 2.3(2); Fig. 5, 7) of one allocation, per replica (``fairness``) and per interval and
group of flows (``interval_fairness``: Matta & Guo's fairness per class over intervals).
Degenerate inputs (no flow, every flow at 0) give NaN.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep.analysis.replicas import (KEYS, _as_float_array, _need, _replica_frame,
                                         grid_columns, group_blocks)

#: The range of the min-max ratio M (and of any share): give it to ``mean_ci(bounds=...)``.
M_BOUNDS = (0.0, 1.0)


def jain_index(x) -> float:
    """Jain's fairness index F (Kaur & Vin Sec. 2.3(2), after Jain, Chiu & Hawe [15]).

    ``F = (sum_i x_i)^2 / (n * sum_i x_i^2)`` for throughputs ``x_i >= 0``; it lies in
    ``[1/n, 1]``.  An empty input or all-zero throughputs make the ratio 0/0: NaN is returned
    (no allocation to judge).  NaN entries propagate.
    """
    a = _as_float_array(x)
    n = a.size
    if n == 0:
        return float("nan")
    s2 = float(np.sum(a * a))
    if s2 == 0.0:
        return float("nan")
    s = float(np.sum(a))
    return s * s / (n * s2)


def min_max_ratio(x) -> float:
    """Min-max ratio M (Kaur & Vin Sec. 2.3(2), after Marsan & Gerla [18]).

    ``M = min_{i,j} x_i / x_j = min_i x_i / max_i x_i``, in ``[0, 1]``.  The paper uses M as
    its fairness measure (Sec. 4) because one starved flow drives it to 0 while F stays near 1.
    Empty input or ``max x == 0`` (0/0) gives NaN; NaN entries propagate.
    """
    a = _as_float_array(x)
    if a.size == 0 or np.isnan(a).any():
        return float("nan")
    hi = float(np.max(a))
    if hi == 0.0:
        return float("nan")
    return float(np.min(a)) / hi


def fairness(flows: pd.DataFrame, value: str = "goodput_bps") -> pd.DataFrame:
    """Per replica min-max ratio M and Jain index F of the flows' ``value`` (Kaur & Vin
    Sec. 2.3(2)).

    Columns: ``point``, ``seed``, grid columns, ``min_max_ratio`` (M), ``jain_index`` (F) and
    ``n_tcp`` (number of flows in the replica).  The paper plots M (Fig. 5, 7), averaged over
    repetitions with different RTP draws; F is given for comparison with other papers.
    Computed on all replicas at once (``group_blocks``), the same numbers as
    ``per_replica(flows, min_max_ratio)`` and ``per_replica(flows, jain_index)``.
    """
    _need(flows, KEYS + [value], "flows")
    out = _replica_frame(flows, exclude=[value])
    g = flows.groupby(KEYS, sort=False, dropna=False)
    codes = g.ngroup().to_numpy()
    m = np.full(g.ngroups, np.nan)
    f = np.full(g.ngroups, np.nan)
    n = np.zeros(g.ngroups, dtype=np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        for groups, a in group_blocks(codes, flows[value].to_numpy(dtype=float), g.ngroups):
            hi, s, s2 = a.max(axis=1), a.sum(axis=1), (a * a).sum(axis=1)
            m[groups] = np.where(np.isnan(a).any(axis=1) | (hi == 0.0), np.nan,
                                 a.min(axis=1) / hi)
            f[groups] = np.where(s2 == 0.0, np.nan, s * s / (a.shape[1] * s2))
            n[groups] = a.shape[1]
    first = np.flatnonzero(np.r_[True, np.diff(np.sort(codes, kind="stable")) != 0])
    keys = flows[KEYS].to_numpy()[np.argsort(codes, kind="stable")][first]
    at = pd.MultiIndex.from_arrays([keys[:, 0], keys[:, 1]])
    want = pd.MultiIndex.from_frame(out[KEYS])
    out["min_max_ratio"] = pd.Series(m, index=at).reindex(want).to_numpy()
    out["jain_index"] = pd.Series(f, index=at).reindex(want).to_numpy()
    out["n_tcp"] = pd.Series(n, index=at).reindex(want).fillna(0).to_numpy(dtype=np.int64)
    return out


def interval_fairness(intervals: pd.DataFrame, groups: dict | None = None,
                      value: str = "goodput_bps") -> pd.DataFrame:
    """Jain's index of the flows' per-interval ``value`` (the ``intervals`` table, from
    ``Scenario.interval_s``), per replica and interval and, with ``groups`` (flow index ->
    group name, e.g. a class: "short", "long"), per group: Matta & Guo's fairness per class
    over 20-s intervals. Columns: the replica keys (``point``/``seed`` or ``replica``), grid
    columns, ``interval``, ``t_start_s``, ``group`` (with ``groups``), ``jain_index``,
    ``n_flows`` and ``goodput_bps`` (the group's total in the interval). Flows missing from
    ``groups`` are left out."""
    keys = [k for k in (*KEYS, "replica") if k in intervals.columns]
    _need(intervals, keys + ["flow", "interval", "t_start_s", value], "intervals")
    df = intervals
    by = keys + ["interval", "t_start_s"]
    if groups is not None:
        df = df.assign(group=df["flow"].map(groups)).dropna(subset=["group"])
        by = by + ["group"]
    carried = [c for c in df.columns if c not in set(by) | {"flow", value}
               and c in grid_columns(intervals)] if all(k in df.columns for k in KEYS) else []
    g = df.groupby(by + carried, sort=True, dropna=False)[value]
    out = g.agg(jain_index=jain_index, n_flows="size", total="sum").reset_index()
    return out.rename(columns={"total": value})
