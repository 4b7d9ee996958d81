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
the t quantile is computed from the regularised incomplete beta function, in
``diffsweep.analysis.stats``).

This module is their one namespace (``metrics.mean_ci``, ``metrics.fairness``, ...); each is
defined in the module of its job: the rows per replica and the grid columns in
``diffsweep.analysis.replicas``, F and M in ``diffsweep.analysis.fairness``, throughput,
utilisation, loss, timeouts and the bottleneck table in ``diffsweep.analysis.throughput``, the
PFTK model in ``diffsweep.analysis.padhye``, the intervals in ``diffsweep.analysis.confidence``.

Conventions: a replica is one (point, seed) pair; per-replica results carry the grid columns
(columns that are constant within a replica) so that they can be grouped by grid axes later.
Degenerate inputs give NaN rather than an exception where the paper's formula is undefined
(e.g. M when every flow got nothing); malformed inputs (a missing column) raise
``diffsweep.core.errors.ConfigError`` naming the column.
"""
from __future__ import annotations

from diffsweep.analysis.confidence import bounded_ci, mean_ci  # noqa: F401 (re-exported)
from diffsweep.analysis.fairness import (M_BOUNDS, fairness,  # noqa: F401 (re-exported)
                                         interval_fairness, jain_index, min_max_ratio)
from diffsweep.analysis.padhye import padhye_error, padhye_throughput_pps  # noqa: F401
from diffsweep.analysis.replicas import (KEYS, PER_FLOW_COLUMNS,  # noqa: F401 (re-exported)
                                         REPLICA_RESULT_COLUMNS, grid_columns, group_blocks,
                                         per_replica)
from diffsweep.analysis.stats import t_quantile  # noqa: F401 (re-exported)
from diffsweep.analysis.throughput import (AGGREGATE_SUMS,  # noqa: F401 (re-exported)
                                           bottleneck_table, normalized_throughput,
                                           normalized_throughputs, per_aggregate,
                                           throughput_loss, timeouts_per_flow, utilization)

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
