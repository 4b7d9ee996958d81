"""Per-seed tables of Matta & Guo: what the figures draw and the claims check.

Every session is one traffic generator (``s<i>`` short, ``l<i>`` long: see ``scenario``).
A session's goodput in a 20-s interval is the packets of its connections delivered in that
interval, each connection's packets spread evenly over its lifetime [start_s, end_s] (a
connection unfinished at the end: its packets sent less retransmissions, capped at its size,
over [start_s, duration_s]). ``WARMUP_INTERVALS`` = 1: the first interval is left out.

* ``session_intervals(res)``: one row per (point, seed, session, interval): ``cls``, ``pkts``,
  ``goodput_bps`` (576-B packets x 8 / 20 s); "session" is a generator, which holds
  ``scenario.group_size(N)`` sessions (2 at N = 60): its values are per session (/ size),
  ``per_interval``'s class goodput is the sum over sessions.
* ``per_interval(res)``: one row per (point, seed, class, interval): ``jain_index`` over the
  class's sessions, ``goodput_bps`` (the class's total).
* ``per_seed(res)``: one row per (point, seed, class): the grid columns, ``jain_index`` (mean
  over intervals) and ``goodput_mbps`` (mean over intervals).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep.metrics import jain_index
from diffsweep.results import Results

from .scenario import WIRE_BYTES, group_size, session_class

__all__ = ["INTERVAL_S", "WARMUP_INTERVALS", "GRID_COLS", "KEYS", "session_intervals",
           "per_interval", "per_seed"]

INTERVAL_S = 20.0
WARMUP_INTERVALS = 1
GRID_COLS = ["n_flows", "k", "isolation", "short_k", "buffer_ratio", "aqm", "duration_s"]
KEYS = ["point", "seed"]


def _need(df: pd.DataFrame, cols, table: str) -> None:
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"{table}.{c}: column is missing (the Matta & Guo tables need it; "
                             "build the runs with the matta_guo builder)")


def session_intervals(res_or_transfers) -> pd.DataFrame:
    tr = res_or_transfers.transfers if isinstance(res_or_transfers, Results) else res_or_transfers
    if tr is None or len(tr.columns) == 0:
        raise ValueError("transfers: the table is empty (runs without sessions)")
    _need(tr, KEYS + GRID_COLS + ["traffic", "size_pkts", "start_s", "end_s", "pkts_sent",
                                  "retransmits"], "transfers")
    tr = tr.assign(cls=tr["traffic"].astype(str).map(session_class)).dropna(subset=["cls"])
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
    base = tr[KEYS + GRID_COLS + ["traffic", "cls"]].reset_index(drop=True)
    rows = []
    for i in range(n_int):
        rows.append(base.assign(interval=i, pkts=share[:, i]))
    df = pd.concat(rows, ignore_index=True)
    df = df[df["interval"] * INTERVAL_S + INTERVAL_S <= df["duration_s"] + 1e-9]
    out = df.groupby(KEYS + GRID_COLS + ["traffic", "cls", "interval"], sort=True,
                     dropna=False)["pkts"].sum().reset_index()
    g = out["n_flows"].map(lambda n: group_size(int(n)))
    last = out["traffic"].str[1:].astype(int) == (out["n_flows"].astype(int) - 1) // g
    per = np.where(last & (out["n_flows"].astype(int) % g > 0), out["n_flows"].astype(int) % g, g)
    out["pkts"] = out["pkts"] / per          # per session (a generator of ``per`` sessions)
    out["goodput_bps"] = out["pkts"] * WIRE_BYTES * 8 / INTERVAL_S
    return out.rename(columns={"traffic": "session"})


def per_interval(res_or_transfers) -> pd.DataFrame:
    si = session_intervals(res_or_transfers)
    si = si[si["interval"] >= WARMUP_INTERVALS]
    si = si.assign(_tot=si["goodput_bps"] * si["n_flows"].map(lambda n: group_size(int(n))))
    g = si.groupby(KEYS + GRID_COLS + ["cls", "interval"], sort=True, dropna=False)
    out = g["goodput_bps"].agg(jain_index=jain_index, sessions="size").reset_index()
    out["goodput_bps"] = g["_tot"].sum().to_numpy()
    return out


def per_seed(res_or_transfers) -> pd.DataFrame:
    pi = per_interval(res_or_transfers)
    g = pi.groupby(KEYS + GRID_COLS + ["cls"], sort=True, dropna=False)
    out = g.agg(jain_index=("jain_index", "mean"), goodput_bps=("goodput_bps", "mean"),
                intervals=("interval", "size")).reset_index()
    out["goodput_mbps"] = out["goodput_bps"] / 1e6
    out["mode"] = np.where(out["isolation"].astype(bool), "isolation",
                           np.where(out["aqm"] == "red", "sharing RED", "sharing"))
    return out.drop(columns=["goodput_bps"])
