"""Rows per replica of a run's tables: their keys (``point``, ``seed``), the columns that
describe one flow or measure one replica, the grid columns of a per-flow table, one row per
replica (``per_replica``) and the rows of each group as a matrix (``group_blocks``): the plumbing
every metric of ``diffsweep.analysis.metrics`` shares.

A replica is one (point, seed) pair; per-replica results carry the grid columns (columns that
are constant within a replica) so that they can be grouped by grid axes later. A missing column
raises ``diffsweep.core.errors.ConfigError`` naming it (``_need``).
"""
from __future__ import annotations

from typing import Callable, Iterable

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError

KEYS = ["point", "seed"]

# Columns of the ``flows`` table that describe one flow (docs/api.md), plus ``max_window_pkts``
# which a builder may add.  Everything else in ``flows`` is a candidate grid column.
PER_FLOW_COLUMNS = frozenset({
    "flow", "variant", "rtp_ms", "rtp_ms_run", "segment_bytes", "header_bytes", "delivered_bytes",
    "goodput_bps", "pkts_sent", "retransmits", "timeouts", "fast_retransmits", "drops",
    "rtt_mean_s", "rto_mean_s", "finish_s", "max_window_pkts", "aggregate",
    *(f"{k}_{c}" for k in ("pkts", "early_drops", "forced_drops")
      for c in ("green", "yellow", "red")),
})

# Result columns of the ``replicas`` table (docs/api.md) and the ones ``utilization`` adds:
# they are measurements, not grid columns, so ``throughput_loss`` never pairs on them.
REPLICA_RESULT_COLUMNS = frozenset({
    "slot_s", "duration_s", "warmup_s", "measured_s", "tcp_goodput_bps", "n_flows",
    "delay_rounding_ms", "tcp_wire_bps", "U",
})


def _as_float_array(x) -> np.ndarray:
    return np.asarray(x, dtype=float).ravel()


def _need(df: pd.DataFrame, cols: Iterable[str], table: str) -> None:
    for c in cols:
        if c not in df.columns:
            raise ConfigError(f"{table}.{c}: column is missing (expected the columns of "
                              "docs/api.md)")


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
