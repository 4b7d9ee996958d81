"""What the TCP flows got through, per flow and per replica: normalised throughput
``x_i / (C/n)`` (Kaur & Vin Sec. 4.1), utilisation U and the loss in TCP throughput
U_CBR - U_EF (Sec. 2.3(1)), retransmission timeouts (Sec. 3.1.1, 3.2), the sums per DiffServ
aggregate, and the single-bottleneck table of the ``dumbbell`` builder (``bottleneck_table``).
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from diffsweep.analysis.fairness import fairness
from diffsweep.analysis.replicas import (KEYS, REPLICA_RESULT_COLUMNS, _as_float_array, _need,
                                         _replica_frame, grid_columns)
from diffsweep.core.errors import ConfigError


def normalized_throughput(x, capacity_bps) -> np.ndarray:
    """Normalised throughput ``x_i / (C / n)`` of each flow (Kaur & Vin Sec. 4.1, Fig. 6, 8, 9).

    ``C`` is the bandwidth available to TCP and ``n`` the number of TCP flows sharing it
    (``n = len(x)``), so 1.0 means "exactly the fair share".  ``x`` and ``C`` must be in the
    same unit (b/s with the ``goodput_bps`` column).
    """
    a = _as_float_array(x)
    c = float(capacity_bps)
    if not (c > 0.0) or not math.isfinite(c):
        raise ConfigError(f"capacity_bps: {capacity_bps!r} is not allowed (expected a finite "
                          "number > 0)")
    if a.size == 0:
        return a
    return a / (c / a.size)


def normalized_throughputs(flows: pd.DataFrame, capacity="available_bps",
                           value: str = "goodput_bps") -> pd.DataFrame:
    """Per-flow normalised throughput ``x_i / (C/n)`` (Kaur & Vin Sec. 4.1) for histograms.

    ``capacity`` is a column of ``flows`` (a grid column such as ``available_bps``) or a number
    in b/s; ``n`` is the number of flows of the replica.  Returns a copy of ``flows`` with a
    column ``normalized``.
    """
    _need(flows, KEYS + [value], "flows")
    out = flows.copy()
    n = out.groupby(KEYS, dropna=False)[value].transform("size").to_numpy(dtype=float)
    if isinstance(capacity, str):
        _need(flows, [capacity], "flows")
        c = out[capacity].to_numpy(dtype=float)
    else:
        c = np.full(len(out), float(capacity))
    if np.any(~(c > 0)):
        raise ConfigError(f"capacity: {capacity!r} is not allowed (expected values > 0)")
    out["normalized"] = out[value].to_numpy(dtype=float) / (c / n)
    return out


def utilization(replicas: pd.DataFrame, flows: pd.DataFrame,
                available="available_bps") -> pd.DataFrame:
    """Network utilisation U of the TCP flows per replica (Kaur & Vin Sec. 2.3(1)).

    ``U = (aggregate TCP throughput) / (bottleneck bandwidth available to TCP)``.

    Wire vs payload: the aggregate throughput is taken *on the wire*,
    ``sum_i goodput_bps_i * (segment_bytes_i + header_bytes_i) / segment_bytes_i``, i.e. each
    delivered payload byte is charged its share of the TCP/IP header, because the link's
    capacity is consumed by whole packets; with that choice a saturated bottleneck gives U ~ 1
    (payload-only U could never exceed 536/576 = 0.93 for the paper's 536 B segments, which
    would read as a 7% "loss" that is only header overhead).  Only in-order delivered data
    counts (retransmitted duplicates are not throughput); ACKs travel on the reverse path and
    are not counted.  U_CBR - U_EF is the same for both choices up to that constant factor.

    ``available`` names a column of ``replicas`` (a grid/params column; the link rate minus the
    EF/CBR mean rate) or is a number in b/s.  Returns a copy of ``replicas`` (one row per
    (point, seed), sorted) with ``tcp_wire_bps`` and ``U``; a replica with no flow rows gets NaN.
    """
    _need(replicas, KEYS, "replicas")
    _need(flows, KEYS + ["goodput_bps", "segment_bytes", "header_bytes"], "flows")
    seg = flows["segment_bytes"].to_numpy(dtype=float)
    wire = (flows["goodput_bps"].to_numpy(dtype=float)
            * (seg + flows["header_bytes"].to_numpy(dtype=float)) / seg)
    agg = (pd.DataFrame({"point": flows["point"].to_numpy(), "seed": flows["seed"].to_numpy(),
                         "tcp_wire_bps": wire})
           .groupby(KEYS, as_index=False, dropna=False)["tcp_wire_bps"].sum())
    out = replicas.drop(columns=[c for c in ("tcp_wire_bps", "U") if c in replicas.columns])
    out = out.merge(agg, on=KEYS, how="left", validate="one_to_one")
    if isinstance(available, str):
        _need(replicas, [available], "replicas")
        c = out[available].to_numpy(dtype=float)
    else:
        c = np.full(len(out), float(available))
    if np.any(~(c > 0)):
        raise ConfigError(f"replicas.{available}: values must be > 0 b/s (bandwidth available "
                          "to TCP)"
                          if isinstance(available, str) else
                          f"available: {available!r} is not allowed (expected a number > 0)")
    out["U"] = out["tcp_wire_bps"].to_numpy(dtype=float) / c
    return out.sort_values(KEYS, kind="stable").reset_index(drop=True)


def throughput_loss(util_df: pd.DataFrame, network_col: str = "ef", cbr="cbr", ef="onoff",
                    on: Sequence[str] | None = None, value: str = "U") -> pd.DataFrame:
    """Loss in TCP throughput ``U_CBR - U_EF`` per seed (Kaur & Vin Sec. 2.3(1), Fig. 2a, 3, 4a).

    Rows of ``util_df`` (the output of ``utilization``) whose ``network_col`` equals ``cbr``
    form the TCP-CBR network, those equal to ``ef`` the TCP-EF network.  Each EF row is paired
    with the CBR row of the *same seed* and the same values of the ``on`` columns: the same
    seed gives both networks common random numbers (same RTP draws, same TCP start jitter), so
    the per-seed difference has a much smaller variance than the difference of two means.  The
    per-seed differences are returned (not averaged) so that ``mean_ci(out, by, "loss")`` gives
    a confidence interval of the paired difference.

    ``on=None`` picks the pairing columns automatically: every non-result column except
    ``point``, ``seed`` and ``network_col`` whose set of distinct values is the same in both
    networks.  Columns that differ by construction (e.g. ``t_on_ms`` when the CBR network is
    run at a single point, or a derived ``t_off_ms``) are thereby left out, and the CBR
    replica is broadcast to every EF point of that seed.  Pass ``on`` explicitly when in doubt.

    Returns the EF rows' non-result columns (without ``point``/``network_col``) plus
    ``point_cbr``, ``point_ef``, ``{value}_cbr``, ``{value}_ef`` and ``loss``.
    Raises ConfigError when a pairing is ambiguous (several CBR rows per key).
    """
    _need(util_df, ["seed", network_col, value], "util_df")
    is_cbr = util_df[network_col] == cbr
    is_ef = util_df[network_col] == ef
    a, b = util_df[is_cbr], util_df[is_ef]
    if a.empty or b.empty:
        raise ConfigError(f"util_df.{network_col}: needs rows equal to {cbr!r} and to {ef!r} "
                          f"(found {sorted(map(str, util_df[network_col].unique()))})")
    skip = set(REPLICA_RESULT_COLUMNS) | {"point", "seed", network_col, value}
    if on is None:
        on = []
        for c in util_df.columns:
            if c in skip or c not in a.columns or c not in b.columns:
                continue
            try:
                if set(a[c].dropna().unique()) == set(b[c].dropna().unique()) and \
                        a[c].isna().any() == b[c].isna().any():
                    on.append(c)
            except TypeError:
                continue
    else:
        on = [c for c in on if c != "seed"]
        _need(util_df, on, "util_df")
    keys = ["seed"] + list(on)
    if a.duplicated(subset=keys).any():
        raise ConfigError(f"throughput_loss.on: {list(on)!r} is not allowed (several {cbr!r} rows "
                          f"share a (seed, on) key: name the columns to pair on)")
    left = b[[c for c in b.columns if c not in set(REPLICA_RESULT_COLUMNS) - {value}
              and c != network_col]].rename(columns={"point": "point_ef", value: f"{value}_ef"})
    right = a[keys + ["point", value]].rename(columns={"point": "point_cbr", value: f"{value}_cbr"})
    out = left.merge(right, on=keys, how="inner", validate="many_to_one")
    out["loss"] = out[f"{value}_cbr"] - out[f"{value}_ef"]
    sort = [c for c in ("point_ef", "seed") if c in out.columns]
    return out.sort_values(sort, kind="stable").reset_index(drop=True)


def timeouts_per_flow(flows: pd.DataFrame) -> pd.DataFrame:
    """Retransmission timeouts per replica (Kaur & Vin Sec. 3.1.1 Fig. 2b, Sec. 3.2 Fig. 4b).

    Columns: ``point``, ``seed``, grid columns, ``timeouts_total`` (sum over the replica's
    flows: Fig. 2b's "total number of timeouts" for one flow), ``timeouts_per_flow`` (mean over
    flows: Fig. 4b) and ``n_tcp``.  Counters count events after the warm-up (docs/api.md).
    """
    _need(flows, KEYS + ["timeouts"], "flows")
    reps = _replica_frame(flows, exclude=["timeouts"])
    g = flows.groupby(KEYS, dropna=False)["timeouts"]
    tot, n = g.sum(), g.size()
    idx = pd.MultiIndex.from_frame(reps[KEYS])
    reps["timeouts_total"] = tot.reindex(idx).to_numpy(dtype=float)
    reps["n_tcp"] = n.reindex(idx).fillna(0).to_numpy(dtype=np.int64)
    reps["timeouts_per_flow"] = reps["timeouts_total"] / reps["n_tcp"].where(reps["n_tcp"] > 0)
    return reps


AGGREGATE_SUMS = ("delivered_bytes", "goodput_bps", "pkts_sent", "drops",
                  *(f"{k}_{c}" for k in ("pkts", "early_drops", "forced_drops")
                    for c in ("green", "yellow", "red")))


def per_aggregate(flows: pd.DataFrame) -> pd.DataFrame:
    """Per replica and DiffServ aggregate (the flows one edge conditioner meters; column
    ``aggregate``, "" for unmetered flows): the sums over its flows of goodput, bytes delivered,
    packets sent and dropped, and per colour the packets marked and the early and forced drops,
    with ``n_flows``; grid columns are kept."""
    _need(flows, ["aggregate", *AGGREGATE_SUMS], "flows")
    flows = flows.assign(aggregate=flows["aggregate"].fillna(""))
    keys = [k for k in ("replica", *KEYS) if k in flows.columns] + ["aggregate"]
    if all(k in flows.columns for k in KEYS):  # a grid's results: keep its columns
        keys += [c for c in grid_columns(flows) if c not in keys]
    g = flows.groupby(keys, sort=True, dropna=False)
    out = g[list(AGGREGATE_SUMS)].sum()
    out["n_flows"] = g.size()
    return out.reset_index()


def bottleneck_table(res, link: int = 0, cls: str | None = None) -> pd.DataFrame:
    """One row per replica of a single-bottleneck experiment (the ``dumbbell`` builder's
    table): the grid columns, then

    - ``n_tcp``, ``tcp_goodput_bps`` (sum over the TCP flows), ``goodput_per_flow_bps``
      (their mean), ``min_max_ratio`` M and ``jain_index`` F (``fairness``);
    - ``loss_rate``: the TCP flows' drops (buffer, RED's early and forced drops, their
      access links) over their packets sent (``flows.drops / flows.pkts_sent``, summed);
    - ``mean_queue_pkts`` of the bottleneck queue, and ``queue_delay_ms``: its mean queue in
      bytes drained at the link rate (``mean_queue_bytes x 8 / rate_bps``), the mean wait
      a byte finds there;
    - ``utilization``: the TCP flows' goodput on the wire over the link rate.

    ``link``: the bottleneck's index; ``cls``: its class the TCP flows use (None: the class
    named "be", else the link's only class). Every row of a replica without flows is NaN."""
    flows, queues = res.flows, res.queues
    _need(flows, KEYS + ["goodput_bps", "drops", "pkts_sent", "segment_bytes",
                         "header_bytes"], "flows")
    _need(queues, KEYS + ["link", "cls", "rate_bps", "mean_queue_pkts", "mean_queue_bytes"],
          "queues")
    out = fairness(flows)
    seg = flows["segment_bytes"].to_numpy(dtype=float)
    sums = (flows.assign(_wire=flows["goodput_bps"].to_numpy(dtype=float)
                         * (seg + flows["header_bytes"].to_numpy(dtype=float)) / seg)
            .groupby(KEYS, dropna=False)[["goodput_bps", "_wire", "drops", "pkts_sent"]].sum())
    q = queues[queues["link"] == link]
    if cls is None:
        names = set(q["cls"])
        cls = "be" if "be" in names or len(names) != 1 else names.pop()
    q = q[q["cls"] == cls]
    if q.empty:
        raise ConfigError(f"cls: {cls!r} is not allowed (expected a class of link {link}: "
                          + ", ".join(sorted(map(str, set(queues.loc[queues['link'] == link,
                                                                       'cls'])))) + ")")
    q = q.set_index(KEYS)
    at = pd.MultiIndex.from_frame(out[KEYS])
    s = sums.reindex(at)
    qq = q.reindex(at)
    rate = qq["rate_bps"].to_numpy(dtype=float)
    out["tcp_goodput_bps"] = s["goodput_bps"].to_numpy()
    out["goodput_per_flow_bps"] = s["goodput_bps"].to_numpy() / out["n_tcp"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        out["loss_rate"] = s["drops"].to_numpy(dtype=float) / s["pkts_sent"].to_numpy(dtype=float)
        out["mean_queue_pkts"] = qq["mean_queue_pkts"].to_numpy(dtype=float)
        out["queue_delay_ms"] = qq["mean_queue_bytes"].to_numpy(dtype=float) * 8e3 / rate
        out["utilization"] = s["_wire"].to_numpy(dtype=float) / rate
    return out


#: a flow whose goodput is at least this fraction of its window's rate counts as window-limited
WINDOW_LIMITED_FRACTION = 0.95


def window_limited(flows: pd.DataFrame) -> pd.Series:
    """Per flow row: True when its goodput is at least ``WINDOW_LIMITED_FRACTION`` of what its
    window cap allows, ``max_window_pkts x segment_bytes x 8 / rtt_mean_s`` (a sender that
    never has more than window_ packets out sends at most that much a round trip; ns-2's
    TcpAgent::window() caps cwnd by window_). An estimate, not a count: a flow held at its
    cap for most of the measured time gets close to that rate, one that is not falls short
    of it; the measured mean RTT includes the queueing the flow met (rtp_ms without an RTT
    sample)."""
    if flows.empty or not {"max_window_pkts", "segment_bytes", "goodput_bps"} <= set(flows):
        return pd.Series(False, index=flows.index)
    rtt = flows["rtt_mean_s"].to_numpy(dtype=float) if "rtt_mean_s" in flows else None
    rtp = flows["rtp_ms"].to_numpy(dtype=float) / 1e3
    rtt = rtp if rtt is None else np.where(np.isfinite(rtt) & (rtt > 0), rtt, rtp)
    with np.errstate(invalid="ignore", divide="ignore"):
        cap = (flows["max_window_pkts"].to_numpy(dtype=float)
               * flows["segment_bytes"].to_numpy(dtype=float) * 8.0 / rtt)
        limited = flows["goodput_bps"].to_numpy(dtype=float) >= WINDOW_LIMITED_FRACTION * cap
    return pd.Series(limited & (cap > 0), index=flows.index)


def window_limited_warning(flows: pd.DataFrame) -> str | None:
    """One line when most flow rows of a run are window-limited (``window_limited``), else
    None: the goodputs then measure the window cap, not the network."""
    lim = window_limited(flows)
    n = len(lim)
    k = int(lim.sum())
    if n == 0 or 2 * k <= n:
        return None
    if {"point", "seed"} <= set(flows):
        reps = flows[["point", "seed"]].drop_duplicates()
        hit = flows.loc[lim.to_numpy(), ["point", "seed"]].drop_duplicates()
        where = f", in {len(hit)} of {len(reps)} replicas,"
    else:
        where = ""
    return (f"{k} of {n} TCP flows ({k / n:.0%}){where} are window-limited: their goodput is "
            f">= {WINDOW_LIMITED_FRACTION:.0%} of max_window_pkts x segment_bytes x 8 / "
            "rtt_mean_s (an estimate), so it measures the window cap, not the network; raise "
            "max_window_pkts (ns-2's window_, default 20)")
