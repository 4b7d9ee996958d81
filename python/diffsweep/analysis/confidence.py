"""Confidence intervals over replicas: ``mean_ci``, the mean and Student-t interval of a column
per group (the t quantile: ``diffsweep.analysis.stats.t_quantile``; scipy is not a dependency),
and ``bounded_ci``, the interval of a bounded quantity (the min-max ratio M) on the logit scale.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from diffsweep.analysis.replicas import _need
from diffsweep.analysis.stats import bounded_ci, t_quantile  # noqa: F401 (bounded_ci: its 0.2 home)
from diffsweep.core.errors import ConfigError

_CI_COLUMNS = ("mean", "std", "n", "ci_low", "ci_high")


#: While True (``diffsweep.analysis.claims.point_estimates``), ``mean_ci`` gives every group
#: with at least one value the zero-width interval [mean, mean]: a claim's check then rates its
#: point estimates, which is what it would converge to with ever more seeds (the atlas's
#: "undecided").
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
    tq = np.array([t_quantile(0.5 + 0.5 * float(level), k - 1.0) if k >= 2 else np.nan
                   for k in n])
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
