"""Paper metrics on the results tables (see docs/api.md for the columns).

Every function here is a plain function on numpy arrays or on the pandas tables that
``diffsweep.core.results.Results`` holds.  The measures are those of Kaur & Vin, "Effect of Higher
Priority EF Traffic on TCP Throughput and Fairness" (TR2001-1, /work/shared/papers/
kaur-vin-ef-priority-tcp.md):

* Section 2.3(1): utilisation U and the loss in TCP throughput U_CBR - U_EF (Fig. 2a, 3, 4a);
* Section 2.3(2): Jain's fairness index F and the min-max ratio M (Fig. 5, 7);
* Section 4.1: normalised throughput x_i / (C/n) (Fig. 6, 8, 9);
* Section 3.1.1 / 3.2: number of retransmission timeouts (Fig. 2b, 4b);
* Section 5 / Fig. 10: error of the Padhye et al. (PFTK, SIGCOMM'98) throughput prediction;

plus ``mean_ci``, a Student-t confidence interval over replicas (scipy is not a dependency, so
the t quantile is computed here from the regularised incomplete beta function).

Conventions: a replica is one (point, seed) pair; per-replica results carry the grid columns
(columns that are constant within a replica) so that they can be grouped by grid axes later.
Degenerate inputs give NaN rather than an exception where the paper's formula is undefined
(e.g. M when every flow got nothing); malformed inputs (a missing column) raise
``diffsweep.core.errors.ConfigError`` naming the column.
"""
from __future__ import annotations

import math
from typing import Callable, Iterable, Sequence

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.analysis.stats import t_quantile

__all__ = [
    "PER_FLOW_COLUMNS",
    "REPLICA_RESULT_COLUMNS",
    "jain_index",
    "min_max_ratio",
    "normalized_throughput",
    "grid_columns",
    "per_replica",
    "fairness",
    "bottleneck_table",
    "normalized_throughputs",
    "utilization",
    "throughput_loss",
    "timeouts_per_flow",
    "padhye_throughput_pps",
    "padhye_error",
    "t_quantile",
    "mean_ci",
    "bounded_ci",
    "M_BOUNDS",
]

KEYS = ["point", "seed"]

#: The range of the min-max ratio M (and of any share): give it to ``mean_ci(bounds=...)``.
M_BOUNDS = (0.0, 1.0)

# Columns of the ``flows`` table that describe one flow (docs/api.md), plus ``max_window_pkts``
# which a builder may add.  Everything else in ``flows`` is a candidate grid column.
PER_FLOW_COLUMNS = frozenset({
    "flow", "variant", "rtp_ms", "rtp_ms_run", "segment_bytes", "header_bytes", "delivered_bytes",
    "goodput_bps", "pkts_sent", "retransmits", "timeouts", "fast_retransmits", "drops",
    "rtt_mean_s", "rto_mean_s", "finish_s", "max_window_pkts", "aggregate",
    *(f"{k}_{c}" for k in ("pkts", "early_drops", "forced_drops") for c in ("green", "yellow", "red")),
})

# Result columns of the ``replicas`` table (docs/api.md) and the ones ``utilization`` adds:
# they are measurements, not grid columns, so ``throughput_loss`` never pairs on them.
REPLICA_RESULT_COLUMNS = frozenset({
    "slot_s", "duration_s", "warmup_s", "measured_s", "tcp_goodput_bps", "n_flows",
    "delay_rounding_ms", "tcp_wire_bps", "U",
})


# --------------------------------------------------------------------------------------------
# Scalar fairness / throughput measures on one replica's flows
# --------------------------------------------------------------------------------------------

def _as_float_array(x) -> np.ndarray:
    return np.asarray(x, dtype=float).ravel()


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


def normalized_throughput(x, capacity_bps) -> np.ndarray:
    """Normalised throughput ``x_i / (C / n)`` of each flow (Kaur & Vin Sec. 4.1, Fig. 6, 8, 9).

    ``C`` is the bandwidth available to TCP and ``n`` the number of TCP flows sharing it
    (``n = len(x)``), so 1.0 means "exactly the fair share".  ``x`` and ``C`` must be in the
    same unit (b/s with the ``goodput_bps`` column).
    """
    a = _as_float_array(x)
    c = float(capacity_bps)
    if not (c > 0.0) or not math.isfinite(c):
        raise ConfigError(f"capacity_bps: {capacity_bps!r} is not allowed (expected a finite number > 0)")
    if a.size == 0:
        return a
    return a / (c / a.size)


# --------------------------------------------------------------------------------------------
# Per-replica tables
# --------------------------------------------------------------------------------------------

def _need(df: pd.DataFrame, cols: Iterable[str], table: str) -> None:
    for c in cols:
        if c not in df.columns:
            raise ConfigError(f"{table}.{c}: column is missing (expected the columns of docs/api.md)")


def grid_columns(flows: pd.DataFrame, exclude: Iterable[str] = ()) -> list[str]:
    """Columns of a per-flow table that belong to the replica (the grid columns).

    The grid columns are not listed in the table, so they are detected generically: every
    column that is not ``point``/``seed``, not a known per-flow column (``PER_FLOW_COLUMNS``)
    and not in ``exclude``, *and* that is constant within every (point, seed) replica.  The
    constancy check guards against per-flow columns that a future engine adds.  Columns whose
    values are unhashable (lists) are skipped.  Order follows ``flows.columns``.
    """
    skip = set(KEYS) | set(PER_FLOW_COLUMNS) | set(exclude)
    cand = [c for c in flows.columns if c not in skip]
    if not cand or flows.empty:
        return cand
    g = flows.groupby(KEYS, sort=False, dropna=False)
    try:  # one pass over every candidate; a column of unhashable cells fails it
        most = g[cand].nunique(dropna=False).max()
        return [c for c in cand if int(most[c]) <= 1]
    except TypeError:
        pass
    out = []
    for c in cand:
        try:
            if int(g[c].nunique(dropna=False).max()) <= 1:
                out.append(c)
        except TypeError:  # unhashable cell values
            continue
    return out


def _replica_frame(flows: pd.DataFrame, exclude: Iterable[str] = ()) -> pd.DataFrame:
    """One row per (point, seed) of ``flows`` with its grid columns, sorted by (point, seed)."""
    _need(flows, KEYS, "flows")
    carried = grid_columns(flows, exclude)
    reps = flows[KEYS + carried].drop_duplicates(subset=KEYS, keep="first")
    return reps.sort_values(KEYS, kind="stable").reset_index(drop=True)


def per_replica(flows: pd.DataFrame, func: Callable[[np.ndarray], float],
                value: str = "goodput_bps", name: str | None = None) -> pd.DataFrame:
    """Apply ``func`` to each replica's per-flow ``value`` column.

    Returns one row per (point, seed), sorted, with ``point``, ``seed``, the grid columns of
    ``flows`` (see ``grid_columns``) and a column ``name`` (default ``func.__name__``) holding
    ``func(values)``.  This is how the paper's per-run measures are formed (e.g. M of one
    simulation run, Sec. 4.1) before averaging over repetitions with ``mean_ci``.
    """
    _need(flows, KEYS + [value], "flows")
    name = name or getattr(func, "__name__", "metric")
    reps = _replica_frame(flows, exclude=[value])
    col = flows[value].to_numpy(dtype=float)
    # group row indices, not group frames: a frame per replica cost ~0.1 ms each
    vals = {k: float(func(col[idx]))
            for k, idx in flows.groupby(KEYS, sort=False, dropna=False).indices.items()}
    reps[name] = [vals.get((p, s), np.nan) for p, s in zip(reps["point"], reps["seed"])]
    return reps


def group_blocks(codes: np.ndarray, values: np.ndarray, n_groups: int):
    """The rows of each group as the rows of a matrix, one matrix per group size: yields
    (groups, M) with ``M[i]`` the ``values`` of group ``groups[i]`` in table order. A row sum
    ``M.sum(axis=1)`` is ``np.sum`` of the group's values bit for bit (numpy's pairwise sum
    along a contiguous row), which ``np.add.reduceat`` is not: per-replica measures computed
    on these blocks equal the former loop over groups exactly."""
    order = np.argsort(codes, kind="stable")
    sizes = np.bincount(codes, minlength=n_groups)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    v = values[order]
    for size in np.unique(sizes[sizes > 0]):
        groups = np.flatnonzero(sizes == size)
        yield groups, v[starts[groups][:, None] + np.arange(size)]


def fairness(flows: pd.DataFrame, value: str = "goodput_bps") -> pd.DataFrame:
    """Per replica min-max ratio M and Jain index F of the flows' ``value`` (Kaur & Vin Sec. 2.3(2)).

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
    wire = flows["goodput_bps"].to_numpy(dtype=float) * (seg + flows["header_bytes"].to_numpy(dtype=float)) / seg
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
        raise ConfigError(f"replicas.{available}: values must be > 0 b/s (bandwidth available to TCP)"
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


# --------------------------------------------------------------------------------------------
# Padhye, Firoiu, Towsley, Kurose (SIGCOMM'98) full model
# --------------------------------------------------------------------------------------------

def _pow1mp(p: np.ndarray, k) -> np.ndarray:
    """(1-p)^k computed as exp(k*log1p(-p)), accurate for tiny p."""
    return np.exp(np.asarray(k, dtype=float) * np.log1p(-p))


def _one_minus_pow1mp(p: np.ndarray, k) -> np.ndarray:
    """1-(1-p)^k without cancellation for tiny p."""
    return -np.expm1(np.asarray(k, dtype=float) * np.log1p(-p))


def _pftk_q(p: np.ndarray, w: np.ndarray) -> np.ndarray:
    """PFTK Q(p, w): probability that a loss in a window of w packets is a timeout.

    ``Q = min(1, (1-(1-p)^3) (1+(1-p)^3 (1-(1-p)^(w-3))) / (1-(1-p)^w))`` (PFTK Sec. 2.2, the
    approximation of Q-hat used in eq. 31).
    """
    num = _one_minus_pow1mp(p, 3.0) * (1.0 + _pow1mp(p, 3.0) * _one_minus_pow1mp(p, w - 3.0))
    return np.minimum(1.0, num / _one_minus_pow1mp(p, w))


def _pftk_f(p: np.ndarray) -> np.ndarray:
    """PFTK f(p) = 1+p+2p^2+4p^3+8p^4+16p^5+32p^6 (exponential back-off, PFTK eq. 28)."""
    return 1.0 + p * (1.0 + p * (2.0 + p * (4.0 + p * (8.0 + p * (16.0 + p * 32.0)))))


def padhye_throughput_pps(p, rtt_s, rto_s, b=1, w_max=1000.0):
    """TCP Reno send rate in packets/s from the full PFTK model (Padhye, Firoiu, Towsley,
    Kurose, "Modeling TCP Throughput: A Simple Model and its Empirical Validation",
    SIGCOMM'98, eq. 31: triple-duplicate losses, timeouts with back-off, and the receiver
    window limit).  This is reference [23] of Kaur & Vin, whose Fig. 10 shows its error.

    With ``E[W] = (2+b)/(3b) + sqrt(8(1-p)/(3bp) + ((2+b)/(3b))^2)`` (eq. 13),
    ``Q(p,w)`` (Sec. 2.2) and ``f(p)`` (eq. 28)::

        E[W] <  W_max:  B = ((1-p)/p + E[W] + Q(p,E[W])/(1-p))
                            / (RTT (b/2 E[W] + 1) + Q(p,E[W]) T0 f(p)/(1-p))
        E[W] >= W_max:  B = ((1-p)/p + W_max + Q(p,W_max)/(1-p))
                            / (RTT (b/8 W_max + (1-p)/(p W_max) + 2) + Q(p,W_max) T0 f(p)/(1-p))

    Not the approximate closed form ``min(W_max/RTT, 1/(RTT sqrt(2bp/3) + T0 min(1,
    3 sqrt(3bp/8)) p (1+32p^2)))``.

    Arguments broadcast as numpy arrays: ``p`` loss-indication probability in [0, 1)
    (``p == 0`` gives the window-limited rate ``W_max/RTT``; p outside [0, 1) or NaN gives NaN),
    ``rtt_s`` mean round-trip time, ``rto_s`` = T0 (mean base timeout), ``b`` packets
    acknowledged per ACK (1 without delayed ACKs, as in Kaur & Vin), ``w_max`` receiver window
    limit in packets (default 1000, the ``TcpFlow.max_window_pkts`` default).  Returns a float
    for scalar inputs, else an ndarray.
    """
    p, rtt, t0, b, wm = np.broadcast_arrays(*(np.asarray(v, dtype=float)
                                              for v in (p, rtt_s, rto_s, b, w_max)))
    scalar = p.ndim == 0
    p, rtt, t0, b, wm = (np.atleast_1d(v).astype(float) for v in (p, rtt, t0, b, wm))
    out = np.full(p.shape, np.nan)
    zero = p == 0.0
    out[zero] = wm[zero] / rtt[zero]
    ok = (p > 0.0) & (p < 1.0)
    if ok.any():
        pp, r, T0, bb, W = p[ok], rtt[ok], t0[ok], b[ok], wm[ok]
        c = (2.0 + bb) / (3.0 * bb)
        ew = c + np.sqrt(8.0 * (1.0 - pp) / (3.0 * bb * pp) + c * c)          # eq. 13
        fp = _pftk_f(pp)
        q1 = 1.0 - pp
        unl = ew < W                                                          # eq. 31, case 1
        w = np.where(unl, ew, W)
        q = _pftk_q(pp, w)
        num = q1 / pp + w + q / q1
        den_rtt = np.where(unl, bb / 2.0 * w + 1.0,                         # rounds per cycle
                           bb / 8.0 * W + q1 / (pp * W) + 2.0)               # eq. 31, case 2
        out[ok] = num / (r * den_rtt + q * T0 * fp / q1)
    return float(out[0]) if scalar else out


def padhye_error(flows: pd.DataFrame, b=1, w_max=1000.0) -> pd.DataFrame:
    """Relative error of the PFTK prediction per flow, ``(predicted - observed) / observed``
    (Kaur & Vin Sec. 5, Fig. 10: CDF of this quantity; paper: 80% off by >= 10%).

    Model inputs are the flow's own measurements: ``p = drops / pkts_sent`` (packets of the
    flow dropped at queues, over packets it sent; a per-packet loss rate standing in for PFTK's
    loss-indication rate), ``RTT = rtt_mean_s``, ``T0 = rto_mean_s``, ``W_max`` from a
    ``max_window_pkts`` column when the table has one (NaN cells and tables without it use
    ``w_max``).  ``observed = goodput_bps / (8 * segment_bytes)`` payload packets/s, the
    in-order delivered rate, as Kaur & Vin compare "observed throughput"; note PFTK's B counts
    packets *sent* (retransmissions included), so the error leans positive when retransmits
    are many.

    Flows with ``p == 0`` (the model only gives the window bound), ``pkts_sent == 0`` or
    ``observed == 0`` (relative error undefined) get NaN.  Returns a copy of ``flows`` with
    ``padhye_p``, ``observed_pps``, ``predicted_pps`` and ``padhye_error``.
    """
    _need(flows, ["goodput_bps", "segment_bytes", "drops", "pkts_sent", "rtt_mean_s", "rto_mean_s"],
          "flows")
    out = flows.copy()
    sent = out["pkts_sent"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(sent > 0, out["drops"].to_numpy(dtype=float) / np.where(sent > 0, sent, 1.0), np.nan)
    obs = out["goodput_bps"].to_numpy(dtype=float) / (8.0 * out["segment_bytes"].to_numpy(dtype=float))
    if "max_window_pkts" in out.columns:
        wm = out["max_window_pkts"].to_numpy(dtype=float)
        wm = np.where(np.isnan(wm), float(w_max), wm)
    else:
        wm = np.full(len(out), float(w_max))
    pred = np.asarray(padhye_throughput_pps(p, out["rtt_mean_s"].to_numpy(dtype=float),
                                            out["rto_mean_s"].to_numpy(dtype=float), b, wm),
                      dtype=float).reshape(len(out))
    valid = (p > 0) & (obs > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        err = np.where(valid, (pred - obs) / np.where(valid, obs, 1.0), np.nan)
    out["padhye_p"] = p
    out["observed_pps"] = obs
    out["predicted_pps"] = pred
    out["padhye_error"] = err
    return out


# --------------------------------------------------------------------------------------------
# Student-t confidence intervals (t_quantile: diffsweep.analysis.stats)
# --------------------------------------------------------------------------------------------

_CI_COLUMNS = ("mean", "std", "n", "ci_low", "ci_high")


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


#: While True (``diffsweep.analysis.claims.point_estimates``), ``mean_ci`` gives every group with at
#: least one value the zero-width interval [mean, mean]: a claim's check then rates its point
#: estimates, which is what it would converge to with ever more seeds (the atlas's "undecided").
_POINT_ESTIMATES = False


def mean_ci(df: pd.DataFrame, by, value: str, level: float = 0.95,
            bounds: tuple[float, float] | None = None) -> pd.DataFrame:
    """Mean and Student-t confidence interval of ``value`` per group of ``by``.

    ``bounds=(lo, hi)``: ``value`` cannot leave [lo, hi] (the min-max ratio M: (0, 1)); the
    interval is then computed on the logit scale and mapped back (``bounded_ci``), so that it
    stays inside the bounds; the mean is the same.

    For each group with n non-NaN values: ``mean``, ``std`` (sample, ddof=1), ``n``, and
    ``ci_low/ci_high = mean -+ t_{(1+level)/2, n-1} * std / sqrt(n)`` (independent replicas,
    e.g. seeds; use per-seed differences from ``throughput_loss`` for paired comparisons).
    ``n == 1`` gives NaN std and CI; ``n == 0`` gives NaN mean.  ``by`` is a column name, a
    list of names, or None/[] for one overall row.  Returns a tidy DataFrame: the ``by``
    columns then ``mean, std, n, ci_low, ci_high``, sorted by ``by``; a ``by`` column with
    one of those names raises ConfigError (rename it, e.g. a grid axis ``n`` to ``N``).
    """
    if not (0.0 < float(level) < 1.0):
        raise ConfigError(f"level: {level!r} is not allowed (expected a number in (0, 1))")
    by = [] if by is None else ([by] if isinstance(by, str) else list(by))
    _need(df, by + [value], "df")
    clash = [c for c in by if c in _CI_COLUMNS]
    if clash:
        raise ConfigError(f"by: {clash!r} is not allowed (names of output columns "
                          f"{list(_CI_COLUMNS)}; rename the column first)")
    vals = pd.to_numeric(df[value], errors="coerce").astype(float)
    work = df[by].copy()
    work["_v"] = vals.to_numpy()
    if by:
        g = work.groupby(by, sort=True, dropna=False)["_v"]
        res = g.agg(mean="mean", std="std", n="count").reset_index()
    else:
        v = work["_v"]
        res = pd.DataFrame({"mean": [v.mean()], "std": [v.std(ddof=1)], "n": [int(v.count())]})
    n = res["n"].to_numpy(dtype=float)
    tq = np.array([t_quantile(0.5 + 0.5 * float(level), k - 1.0) if k >= 2 else np.nan for k in n])
    with np.errstate(invalid="ignore", divide="ignore"):
        half = tq * res["std"].to_numpy(dtype=float) / np.sqrt(n)
    if _POINT_ESTIMATES:
        half = np.where(n >= 1, 0.0, half)
    res["n"] = res["n"].astype(int)
    res.loc[res["n"] < 2, "std"] = np.nan
    mean = res["mean"].to_numpy(dtype=float)
    if bounds is None:
        res["ci_low"] = mean - half
        res["ci_high"] = mean + half
    else:
        res["ci_low"], res["ci_high"] = bounded_ci(mean, half, bounds)
    return res.reset_index(drop=True)


def bounded_ci(mean, half, bounds: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The interval ``mean -+ half`` of a quantity bounded to [lo, hi], on the logit scale.

    With p = (mean - lo) / (hi - lo), the half-width on the logit scale is (delta method)
    ``h = half / ((hi - lo) p (1 - p))``, and the interval ``lo + (hi - lo) expit(logit(p) -+ h)``
    lies inside (lo, hi), contains the mean, and is the Student-t interval when p is far from
    the bounds. A mean on a bound (every value on it: no spread) gives [mean, mean]; NaN stays
    NaN."""
    lo, hi = (float(b) for b in bounds)
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ConfigError(f"bounds: {bounds!r} is not allowed (expected (lo, hi), finite, lo < hi)")
    m = np.asarray(mean, dtype=float)
    h = np.asarray(half, dtype=float)
    p = np.clip((m - lo) / (hi - lo), 0.0, 1.0)
    inside = (p > 0.0) & (p < 1.0)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        z = np.log(p) - np.log1p(-p)
        hz = h / ((hi - lo) * p * (1.0 - p))
        low = lo + (hi - lo) / (1.0 + np.exp(-(z - hz)))
        high = lo + (hi - lo) / (1.0 + np.exp(-(z + hz)))
    low = np.where(inside, low, np.where(np.isnan(h), np.nan, m))
    high = np.where(inside, high, np.where(np.isnan(h), np.nan, m))
    return low, high
