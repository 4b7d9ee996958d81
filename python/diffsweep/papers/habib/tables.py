"""Per-seed tables of Habib et al.: what the figures draw and the claims check.

Flows are numbered aggregate by aggregate (``n_micro`` micro-flows, or telnet sessions, each):
``AGGREGATES_2A`` = F1, F2 on topology 2(a), ``scenario.AGGREGATES_2B`` = F1..F5 on 2(b).

* ``per_aggregate(res)``: one row per (point, seed, aggregate): the grid columns,
  ``goodput_mbps`` (payload bytes received per second after the warm-up), ``timeouts``,
  ``pkts_sent``, ``drops``, ``drop_ratio``, ``pkts_green/yellow/red`` (at its first
  conditioner).
* ``totals(res)``: one row per (point, seed) of 2(a): ``f1_mbps``, ``f2_mbps``,
  ``total_mbps``, ``f1_minus_f2``, ``f2_drop_ratio``.
* ``trace(res)``: the traced micro-flow's cwnd per sample with the grid columns, and
  ``trace_summary(res)``: per (point, seed) its mean cwnd and the share of samples below 3.
* ``telnet(res)``: per (point, seed, group) of Table I: ``delay_s`` (mean write-to-delivery
  delay per segment) for groups "F1, F2, F4", "F3, F5", "overall", and ``session_delay_s``
  (mean over sessions of the sum of their segments' delays).
* ``www(res)``: per (point, seed): mean and standard deviation of the response time to the
  first packet and to all data over the transfers that completed after the warm-up.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep.core.results import Results, per_results

from diffsweep.papers.habib.scenario import AGGREGATES_2B, one_way_ms

__all__ = ["per_aggregate", "totals", "trace", "trace_summary", "telnet", "www",
           "AGGREGATES_2A", "KEYS"]

AGGREGATES_2A = ("F1", "F2")
KEYS = ["point", "seed"]
GRID = ["conditioner", "rtt2_ms", "app", "n_micro", "core_bps", "cir_bps"]
LONG_2B = ("F1", "F2", "F4")   # Table I's first column
SHORT_2B = ("F3", "F5")


def _grid(df: pd.DataFrame) -> list[str]:
    return [c for c in GRID if c in df.columns]


def _need(df: pd.DataFrame, cols, table: str) -> None:
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"{table}.{c}: column is missing (the Habib tables need it; "
                             "build the runs with the habib_2a / habib_2b builders)")


def _names(df: pd.DataFrame) -> list[str]:
    """The aggregate names of 2(a) or 2(b): 2(b)'s runs carry ``app``."""
    return [a[0] for a in AGGREGATES_2B] if "app" in df.columns else list(AGGREGATES_2A)


def _with_aggregate(fl: pd.DataFrame) -> pd.DataFrame:
    _need(fl, KEYS + ["flow", "n_micro", "conditioner"], "flows")
    names = _names(fl)
    per = fl["n_micro"].to_numpy(int)
    if "app" in fl.columns:  # telnet runs: the sessions per aggregate are the flows / 5
        n = fl.groupby(KEYS)["flow"].transform("size").to_numpy(int) // len(names)
        per = np.where(fl["app"].to_numpy() == "telnet", n, per)
    idx = fl["flow"].to_numpy(int) // np.maximum(per, 1)
    return fl.assign(aggregate=[names[min(i, len(names) - 1)] for i in idx])


@per_results
def per_aggregate(res) -> pd.DataFrame:
    fl = _with_aggregate(res.flows if isinstance(res, Results) else res)
    keys = KEYS + _grid(fl) + ["aggregate"]
    cols = [c for c in ("goodput_bps", "timeouts", "pkts_sent", "drops", "pkts_green",
                        "pkts_yellow", "pkts_red") if c in fl.columns]
    out = fl.groupby(keys, sort=True, dropna=False)[cols].sum().reset_index()
    out["goodput_mbps"] = out.pop("goodput_bps") / 1e6
    out["drop_ratio"] = out["drops"] / out["pkts_sent"].where(out["pkts_sent"] > 0)
    return out


@per_results
def totals(res) -> pd.DataFrame:
    pa = per_aggregate(res)
    keys = KEYS + _grid(pa)
    w = pa.set_index(keys + ["aggregate"])[["goodput_mbps", "drop_ratio"]].unstack("aggregate")
    out = w.index.to_frame(index=False)
    out["f1_mbps"] = w[("goodput_mbps", "F1")].to_numpy()
    out["f2_mbps"] = w[("goodput_mbps", "F2")].to_numpy()
    out["total_mbps"] = out["f1_mbps"] + out["f2_mbps"]
    out["f1_minus_f2"] = out["f1_mbps"] - out["f2_mbps"]
    out["f2_drop_ratio"] = w[("drop_ratio", "F2")].to_numpy()
    return out


def trace(res: Results) -> pd.DataFrame:
    tr = res.cwnd_trace
    _need(tr, KEYS + ["t_s", "cwnd_pkts"], "cwnd_trace")
    return tr


@per_results
def trace_summary(res: Results) -> pd.DataFrame:
    tr = trace(res)
    keys = KEYS + _grid(tr)
    g = tr.assign(_small=(tr["cwnd_pkts"] < 3).astype(float)).groupby(keys, sort=True,
                                                                       dropna=False)
    out = g["cwnd_pkts"].mean().rename("mean_cwnd").reset_index()
    # a share of 0/1 values: their sum is exact in any order, so the group mean is the former
    # per-group (v < 3).mean() bit for bit
    out["small_share"] = g["_small"].mean().to_numpy()
    return out


@per_results
def telnet(res) -> pd.DataFrame:
    fl = _with_aggregate(res.flows if isinstance(res, Results) else res)
    _need(fl, ["app_segments", "app_delay_sum_s"], "flows")
    keys = KEYS + _grid(fl)
    rows = []
    for name, members in (("F1, F2, F4", LONG_2B), ("F3, F5", SHORT_2B),
                          ("overall", LONG_2B + SHORT_2B)):
        sub = fl[fl["aggregate"].isin(members)]
        g = sub.groupby(keys, sort=True, dropna=False)
        d = g[["app_delay_sum_s", "app_segments"]].sum().reset_index()
        d["delay_s"] = d["app_delay_sum_s"] / d["app_segments"].where(d["app_segments"] > 0)
        d["session_delay_s"] = g["app_delay_sum_s"].mean().to_numpy()
        d["group"] = name
        rows.append(d.drop(columns=["app_delay_sum_s"]))
    return pd.concat(rows, ignore_index=True)


@per_results
def www(res: Results) -> pd.DataFrame:
    tr = res.transfers
    _need(tr, KEYS + ["traffic", "start_s", "first_s", "end_s"], "transfers")
    one_way = {name: one_way_ms(route, host) / 1e3 for name, _, route, host in AGGREGATES_2B}
    req = tr["traffic"].map(one_way).to_numpy(float)  # the request's uncongested path
    warm = 0.0
    rep = res.replicas
    if len(rep) and "warmup_s" in rep.columns:
        w = rep.set_index(KEYS)["warmup_s"]
        warm = w.reindex(pd.MultiIndex.from_frame(tr[KEYS])).to_numpy(float)
    d = tr.assign(first=tr["first_s"] - tr["start_s"] + req, all=tr["end_s"] - tr["start_s"] + req)
    d = d[np.isfinite(d["all"].to_numpy(float)) & (d["start_s"].to_numpy(float) >= warm)]
    keys = KEYS + _grid(d)
    g = d.groupby(keys, sort=True, dropna=False)
    out = g.agg(first_mean_s=("first", "mean"), first_std_s=("first", "std"),
                all_mean_s=("all", "mean"), all_std_s=("all", "std"),
                transfers=("all", "size")).reset_index()
    return out
