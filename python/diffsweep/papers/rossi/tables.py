"""Per-seed tables of Rossi, Casetti & Mellia (web traffic over DiffServ): what the figures
(``figures``) draw and the claims (``claims``) check, so that both read the same numbers.

Every function takes a :class:`diffsweep.Results` whose ``transfers`` and ``traffic`` tables
carry the grid columns of the builder ``diffsweep.papers.rossi.scenario.rossi`` (its
``params`` put ``rho``, ``alpha_af`` and ``ftp_per_cloud`` in every table). The clouds are the
traffic generators ``af`` and ``be`` (``CLOUD``: "AF", "BE").

* ``per_class(res)``: one row per (point, seed, cloud, pi) for pi in ``PI`` = 1, 10, 90
  packets: ``transfers``, ``completed``, ``completion_s`` (mean over completed transfers),
  ``drop_pct`` = 100 x drops / packets sent, ``early_frac`` = early drops / drops (NaN without
  drops), ``red_pct`` = 100 x packets marked red / packets sent.
* ``per_cloud(res)``: the same over all sizes, one row per (point, seed, cloud), plus the
  generator counts ``started``, ``unfinished``, ``refused`` from ``res.traffic``.
* ``summarize(transfers)``: the computation itself on any transfers frame grouped by
  ``KEYS + ["cloud"]`` (+ ``size_pkts``).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from diffsweep.core.results import Results, per_results

__all__ = ["PI", "CLOUD", "GRID_COLS", "KEYS", "need", "summarize", "per_class", "per_cloud"]

#: The flow-length classes the paper reports (packets).
PI = (1, 10, 90)
#: Traffic generator name -> the paper's cloud label.
CLOUD = {"af": "AF", "be": "BE"}
GRID_COLS = ["rho", "alpha_af", "ftp_per_cloud"]
KEYS = ["point", "seed"]
VALUES = ["transfers", "completed", "completion_s", "drop_pct", "early_frac", "red_pct"]


def need(df: pd.DataFrame, cols: Iterable[str], table: str) -> None:
    """ValueError naming the first of ``cols`` that is not a column of ``df``."""
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"{table}.{c}: column is missing (the Rossi tables need it; "
                             "build the runs with the rossi builder, whose params carry it)")


def summarize(tr: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Per group of ``by``: ``transfers`` (rows), ``completed`` (finite completion_s),
    ``completion_s`` (mean over the completed ones), ``drop_pct`` = 100 sum(drops) /
    sum(pkts_sent), ``early_frac`` = sum(early_drops) / sum(drops) (NaN if no drop),
    ``red_pct`` = 100 sum(pkts_red) / sum(pkts_sent)."""
    need(tr, by + ["completion_s", "pkts_sent", "drops", "early_drops", "pkts_red"], "transfers")
    g = tr.assign(_done=np.isfinite(tr["completion_s"].astype(float))).groupby(by, sort=True)
    out = pd.DataFrame({
        "transfers": g.size(),
        "completed": g["_done"].sum().astype(int),
        "completion_s": g["completion_s"].mean(),        # NaN (unfinished) skipped
        "_sent": g["pkts_sent"].sum().astype(float),
        "_drops": g["drops"].sum().astype(float),
        "_early": g["early_drops"].sum().astype(float),
        "_red": g["pkts_red"].sum().astype(float),
    })
    with np.errstate(invalid="ignore", divide="ignore"):
        out["drop_pct"] = np.where(out["_sent"] > 0, 100.0 * out["_drops"] / out["_sent"], np.nan)
        out["early_frac"] = np.where(out["_drops"] > 0, out["_early"] / out["_drops"], np.nan)
        out["red_pct"] = np.where(out["_sent"] > 0, 100.0 * out["_red"] / out["_sent"], np.nan)
    return out.drop(columns=["_sent", "_drops", "_early", "_red"]).reset_index()


def _transfers(res: Results) -> pd.DataFrame:
    tr = res.transfers
    if tr is None or len(tr.columns) == 0:
        raise ValueError("transfers: the table is empty (runs without short-lived traffic, or "
                         "a results folder written before transfers were recorded)")
    need(tr, KEYS + GRID_COLS + ["traffic", "size_pkts"], "transfers")
    tr = tr.copy()
    tr["cloud"] = tr["traffic"].map(CLOUD).fillna(tr["traffic"].astype(str))
    return tr


def _grid(tr: pd.DataFrame) -> pd.DataFrame:
    return tr.drop_duplicates(KEYS)[KEYS + GRID_COLS]


@per_results
def per_class(res: Results, sizes: Iterable[int] = PI) -> pd.DataFrame:
    """One row per (point, seed, cloud, size class pi in ``sizes``): grid columns and
    ``VALUES``."""
    tr = _transfers(res)
    sizes = list(sizes)
    s = summarize(tr[tr["size_pkts"].isin(sizes)], KEYS + ["cloud", "size_pkts"])
    s = s.rename(columns={"size_pkts": "pi"})
    return _grid(tr).merge(s, on=KEYS).sort_values(KEYS + ["cloud", "pi"]).reset_index(drop=True)


@per_results
def per_cloud(res: Results) -> pd.DataFrame:
    """One row per (point, seed, cloud) over all transfer sizes: grid columns, ``VALUES`` and,
    from ``res.traffic``, ``started``, ``unfinished`` and ``refused``."""
    tr = _transfers(res)
    s = _grid(tr).merge(summarize(tr, KEYS + ["cloud"]), on=KEYS)
    t = res.traffic
    if t is not None and len(t.columns):
        need(t, KEYS + ["traffic", "started", "unfinished", "refused"], "traffic")
        t = t.assign(cloud=t["traffic"].map(CLOUD).fillna(t["traffic"].astype(str)))
        s = s.merge(t[KEYS + ["cloud", "started", "unfinished", "refused"]],
                    on=KEYS + ["cloud"], how="left")
    return s.sort_values(KEYS + ["cloud"]).reset_index(drop=True)
