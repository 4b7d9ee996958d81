"""Per-seed tables of Lee & Jeong (Balancing Marker): what the figures (``figures``) draw and
the claims (``claims``) check, so that both read the same numbers.

Every function takes a :class:`diffsweep.Results` with the grid columns of the builder
``diffsweep.papers.lee_jeong.scenario.lee_jeong`` (its ``params`` put ``cir_mbps``,
``bucket_pkts``, ``method``, ``udp``, ``bab_mbps``, ``atb_mbps`` and ``atb_be_mbps`` in every
table, axis or not).

Rates are in Mb/s of 1000-B packets on the wire (the paper's packet size; the bucket and the
RIO thresholds count the same packets): a flow's rate is its ``goodput_bps`` (payload) times
``(segment_bytes + header_bytes) / segment_bytes``. The UDP rate is what the UDP sources got
through the bottleneck (the sources table's ``throughput_bps``: bytes that left their last
link).

* ``per_connection(res)``: one row per (replica, flow 0..6): ``conn`` (1..7), ``rate_mbps``.
* ``per_seed(res)``: one row per replica: ``jain`` (Jain's index over S1..S7), ``total_mbps``
  (their sum), ``be_mbps`` (best effort total), ``udp_mbps`` (UDP total), ``tcp7_mbps``,
  ``others_mbps`` (mean of S1..S6), and the cell columns ``CELL_COLS``.
* ``jain(x)``: (sum x)^2 / (n sum x^2).
* ``table2()``: the paper's Table 2 (``data/table2.csv``).
* ``max_jain_given(total, top, n)``: the largest Jain index of n rates summing to ``total`` with
  one of them equal to ``top`` (the others equal), used to check the paper's own numbers.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from diffsweep.core.results import Results, per_results

__all__ = ["N_AGG", "CELLS", "CELL_COLS", "FIGURE_CELLS", "need", "jain", "per_connection",
           "per_seed", "cell_label", "table2", "max_jain_given", "rates_mbps"]

N_AGG = 7
#: The four (CIR Mb/s, bucket packets) cells, in Table 2's row order (by its labels).
CELLS = ((7.0, 70), (3.5, 70), (7.0, 35), (3.5, 35))
CELL_COLS = ["cir_mbps", "bucket_pkts", "udp", "method"]
#: Figure number -> (cir, bucket, udp): Figs. 4/5 = (7, 70), 6/7 = (3.5, 35), 8/9 = (7, 35),
#: 10/11 = (3.5, 70) (the text's cases 1..4); odd-numbered figures are the UDP ones.
FIGURE_CELLS = {4: (7.0, 70, False), 5: (7.0, 70, True), 6: (3.5, 35, False),
                7: (3.5, 35, True), 8: (7.0, 35, False), 9: (7.0, 35, True),
                10: (3.5, 70, False), 11: (3.5, 70, True)}
KEYS = ["point", "seed"]


def need(df: pd.DataFrame, cols: Iterable[str], table: str) -> None:
    """ValueError naming the first of ``cols`` that is not a column of ``df``."""
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"{table}.{c}: column is missing (the Lee & Jeong tables need it; "
                             "build the runs with the lee_jeong builder, whose params carry it)")


def jain(x) -> float:
    """Jain's fairness index (sum x)^2 / (n sum x^2) of the rates ``x`` (NaN if all are 0)."""
    x = np.asarray(x, dtype=float)
    s2 = float(np.sum(x * x))
    return float(np.sum(x) ** 2 / (len(x) * s2)) if s2 > 0 else float("nan")


def max_jain_given(total: float, top: float, n: int = N_AGG) -> float:
    """Largest Jain index of ``n`` non-negative rates summing to ``total`` with one of them
    equal to ``top``: the other n - 1 equal at (total - top) / (n - 1)."""
    rest = (total - top) / (n - 1)
    return jain([top] + [rest] * (n - 1))


def cell_label(cir, bucket) -> str:
    """"(7M, 70)", as Table 2 labels its rows."""
    return f"({float(cir):g}M, {int(bucket)})"


def _bool(v) -> bool:
    if isinstance(v, str):
        return v.strip().lower() in ("true", "1", "yes")
    return bool(v)


def rates_mbps(flows: pd.DataFrame) -> pd.Series:
    """Each flow row's rate in Mb/s of wire packets (goodput x wire / segment)."""
    need(flows, ["goodput_bps", "segment_bytes", "header_bytes"], "flows")
    seg = flows["segment_bytes"].astype(float)
    return flows["goodput_bps"].astype(float) * (seg + flows["header_bytes"]) / seg / 1e6


def _canon(df: pd.DataFrame, table: str) -> pd.DataFrame:
    need(df, KEYS + CELL_COLS, table)
    df = df.copy()
    df["cir_mbps"] = df["cir_mbps"].astype(float)
    df["bucket_pkts"] = df["bucket_pkts"].astype(int)
    df["udp"] = df["udp"].map(_bool)
    df["method"] = df["method"].astype(str)
    return df


@per_results
def per_connection(res: Results) -> pd.DataFrame:
    """One row per (replica, connection S1..S7): cell columns, ``conn``, ``rate_mbps``,
    ``bab_mbps``, ``atb_mbps``."""
    f = _canon(res.flows, "flows")
    f = f[f["flow"] < N_AGG].copy()
    f["conn"] = f["flow"].astype(int) + 1
    f["rate_mbps"] = rates_mbps(f)
    extra = [c for c in ("bab_mbps", "atb_mbps") if c in f.columns]
    return f[KEYS + CELL_COLS + ["conn", "rate_mbps"] + extra].reset_index(drop=True)


@per_results
def per_seed(res: Results) -> pd.DataFrame:
    """One row per replica: ``jain``, ``total_mbps``, ``tcp7_mbps``, ``others_mbps``,
    ``be_mbps``, ``udp_mbps`` and the cell, BAB and ATB columns."""
    f = _canon(res.flows, "flows")
    f["rate_mbps"] = rates_mbps(f)
    need(f, ["pkts_sent", "drops"], "flows")
    out = _aggregate_rates(f[f["flow"] < N_AGG])
    be = f[f["flow"] >= N_AGG].groupby(KEYS)["rate_mbps"].sum().rename("be_mbps")
    if res.sources is not None and len(res.sources) > 0:
        src = _canon(res.sources, "sources")
        need(src, ["throughput_bps"], "sources")
        udp = (src.groupby(KEYS)["throughput_bps"].sum() / 1e6).rename("udp_mbps")
    else:
        udp = pd.Series(dtype=float, name="udp_mbps", index=pd.MultiIndex.from_arrays(
            [[], []], names=KEYS))
    out = out.merge(be.reset_index(), on=KEYS, how="left").merge(udp.reset_index(), on=KEYS,
                                                                 how="left")
    out["udp_mbps"] = out["udp_mbps"].fillna(0.0)
    cols = CELL_COLS + [c for c in ("bab_mbps", "atb_mbps", "atb_be_mbps") if c in f.columns]
    cells = f.drop_duplicates(KEYS)[KEYS + cols]
    return cells.merge(out, on=KEYS, how="inner").reset_index(drop=True)


def _aggregate_rates(agg: pd.DataFrame) -> pd.DataFrame:
    """Per replica of the aggregate's connections (rows ordered by ``flow``): ``jain``,
    ``total_mbps``, ``tcp7_mbps`` (the last), ``tcp1_mbps`` (the first) and ``others_mbps``
    (the mean of all but the last), for all replicas at once (``metrics.group_blocks``: the
    same numbers as ``jain(x)``, ``x.sum()``, ``x[:-1].mean()`` of each replica's rates)."""
    from diffsweep.analysis.metrics import group_blocks  # noqa: PLC0415

    cols = KEYS + ["jain", "total_mbps", "tcp7_mbps", "tcp1_mbps", "others_mbps"]
    if agg.empty:
        return pd.DataFrame(columns=cols)
    agg = agg.sort_values(KEYS + ["flow"], kind="stable")
    g = agg.groupby(KEYS, sort=True)
    codes = g.ngroup().to_numpy()
    out = g.size().reset_index()[KEYS]
    vals = {c: np.full(g.ngroups, np.nan) for c in cols[2:]}
    for groups, x in group_blocks(codes, agg["rate_mbps"].to_numpy(float), g.ngroups):
        total, sq = x.sum(axis=1), (x * x).sum(axis=1)
        # jain's scalar arithmetic (np.float64 ** 2 is pow(), not x * x: other last bits)
        vals["jain"][groups] = [float(t ** 2 / (x.shape[1] * q)) if q > 0 else float("nan")
                                for t, q in zip(total, sq)]
        vals["total_mbps"][groups] = total
        vals["tcp7_mbps"][groups], vals["tcp1_mbps"][groups] = x[:, -1], x[:, 0]
        vals["others_mbps"][groups] = np.ascontiguousarray(x[:, :-1]).sum(axis=1) / (
            x.shape[1] - 1)
    for c in cols[2:]:
        out[c] = vals[c]
    return out


def table2() -> pd.DataFrame:
    """The paper's Table 2: columns ``case``, ``cir_mbps``, ``bucket_pkts``, ``udp``,
    ``method``, ``jain``, ``total_mbps`` (one row per cell)."""
    from diffsweep.papers import get  # noqa: PLC0415
    df = pd.read_csv(get("lee-jeong").data_file("table2.csv"))
    df["udp"] = df["udp"].map(_bool)
    return df
