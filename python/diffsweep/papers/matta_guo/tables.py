"""Per-seed tables of Matta & Guo: what the figures draw and the claims check.

A class is one traffic generator (``short``, ``long``: see ``scenario``) and a session is one
of its pool slots (``transfers.slot``). A session's goodput in a 20-s interval is the packets of its connections delivered in that
interval, each connection's packets spread evenly over its lifetime [start_s, end_s] (a
connection unfinished at the end: its packets sent less retransmissions, capped at its size,
over [start_s, duration_s]). ``WARMUP_INTERVALS`` = 1: the first interval is left out.

* ``session_intervals(res)``: one row per (point, seed, class, session, interval): ``cls``,
  ``session``, ``pkts``, ``goodput_bps`` (576-B packets x 8 / 20 s). Other generators (web
  background) are left out.
* ``per_interval(res)``: one row per (point, seed, class, interval): ``jain_index`` over the
  class's sessions, ``goodput_bps`` (the class's total).
* ``per_seed(res)``: one row per (point, seed, class): the grid columns, ``jain_index`` (mean
  over intervals), ``goodput_mbps`` (mean over intervals) and ``mode`` (the scheme: Fig. 7's
  ``scheme`` column, else isolation / sharing / sharing RED).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep.engine.tables import TRANSFER_COLUMNS
from diffsweep.analysis.metrics import jain_index
from diffsweep.core.results import Results, per_results

from diffsweep.papers.matta_guo.scenario import CLASSES, WIRE_BYTES

__all__ = ["INTERVAL_S", "WARMUP_INTERVALS", "KEYS", "session_intervals", "per_interval",
           "per_seed"]

INTERVAL_S = 20.0
WARMUP_INTERVALS = 1
KEYS = ["point", "seed"]
# The transfer records' own columns; every other column of ``transfers`` is the grid's.
RECORD_COLS = set(TRANSFER_COLUMNS)


def _grid_cols(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if c not in RECORD_COLS and c not in KEYS]


def _need(df: pd.DataFrame, cols, table: str) -> None:
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"{table}.{c}: column is missing (the Matta & Guo tables need it; "
                             "build the runs with the matta_guo builder)")


@per_results
def session_intervals(res_or_transfers) -> pd.DataFrame:
    tr = res_or_transfers.transfers if isinstance(res_or_transfers, Results) else res_or_transfers
    if tr is None or len(tr.columns) == 0:
        raise ValueError("transfers: the table is empty (runs without sessions)")
    _need(tr, KEYS + ["duration_s", "traffic", "slot", "size_pkts", "start_s", "end_s",
                      "pkts_sent", "retransmits"], "transfers")
    grid = _grid_cols(tr)
    tr = tr[tr["traffic"].astype(str).isin(CLASSES)]
    tr = tr.assign(cls=tr["traffic"].astype(str), session=tr["slot"].astype(np.int64))
    start = tr["start_s"].to_numpy(float)
    dur = tr["duration_s"].to_numpy(float)
    end = tr["end_s"].to_numpy(float)
    done = np.isfinite(end)
    end = np.where(done, end, dur)
    size = tr["size_pkts"].to_numpy(float)
    pk = np.where(done, size, np.clip(tr["pkts_sent"].to_numpy(float)
                                      - tr["retransmits"].to_numpy(float), 0, size))
    n_int = int(np.floor(np.nanmax(dur) / INTERVAL_S + 1e-9)) if len(tr) else 0
    lo = np.arange(n_int) * INTERVAL_S
    span = np.maximum(end - start, 1e-9)
    ov = np.clip(np.minimum(end[:, None], lo[None, :] + INTERVAL_S)
                 - np.maximum(start[:, None], lo[None, :]), 0.0, None)
    share = pk[:, None] * ov / span[:, None]
    # the grid columns are the replica's (constant per point and seed): the rows per interval
    # carry only what is grouped on, and the grid columns are put back beside the sums
    # (copying and factorising them per interval cost most of the table's time); the same
    # rows, order and sums as grouping on them
    base = tr[KEYS + ["duration_s", "cls", "session"]].reset_index(drop=True)
    df = pd.concat([base.assign(interval=i, pkts=share[:, i]) for i in range(n_int)],
                   ignore_index=True)
    df = df[df["interval"] * INTERVAL_S + INTERVAL_S <= df["duration_s"] + 1e-9]
    out = df.groupby(KEYS + ["cls", "session", "interval"], sort=True,
                     dropna=False)["pkts"].sum().reset_index()
    rep = tr.drop_duplicates(KEYS)[KEYS + grid].reset_index(drop=True)
    at = pd.MultiIndex.from_frame(rep[KEYS]).get_indexer(pd.MultiIndex.from_frame(out[KEYS]))
    out = pd.concat([out[KEYS], rep[grid].iloc[at].reset_index(drop=True),
                     out[["cls", "session", "interval", "pkts"]]], axis=1)
    out["goodput_bps"] = out["pkts"] * WIRE_BYTES * 8 / INTERVAL_S
    return out


@per_results
def per_interval(res_or_transfers) -> pd.DataFrame:
    si = session_intervals(res_or_transfers)
    si = si[si["interval"] >= WARMUP_INTERVALS]
    grid = [c for c in _grid_cols(si) if c not in ("cls", "session", "interval", "pkts",
                                                    "goodput_bps")]
    g = si.groupby(KEYS + grid + ["cls", "interval"], sort=True, dropna=False)
    out = g["goodput_bps"].agg(jain_index=jain_index, sessions="size").reset_index()
    out["goodput_bps"] = g["goodput_bps"].sum().to_numpy()
    return out


@per_results
def per_seed(res_or_transfers) -> pd.DataFrame:
    pi = per_interval(res_or_transfers)
    grid = [c for c in _grid_cols(pi) if c not in ("cls", "interval", "jain_index", "sessions",
                                                    "goodput_bps")]
    g = pi.groupby(KEYS + grid + ["cls"], sort=True, dropna=False)
    out = g.agg(jain_index=("jain_index", "mean"), goodput_bps=("goodput_bps", "mean"),
                intervals=("interval", "size")).reset_index()
    out["goodput_mbps"] = out["goodput_bps"] / 1e6
    if "scheme" in out.columns:
        out["mode"] = out["scheme"].astype(str)
    else:
        out["mode"] = np.where(out["isolation"].astype(bool), "isolation",
                               np.where(out["aqm"] == "red", "sharing RED", "sharing"))
    return out.drop(columns=["goodput_bps"])
