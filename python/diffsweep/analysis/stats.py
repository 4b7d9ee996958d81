"""Replica statistics: mean, std, n and Student-t confidence intervals per point.

``summarize(results, by=["point"], metrics=["tcp_goodput_bps"])`` returns a tidy DataFrame, one
row per (group, metric): the ``by`` columns, then ``metric``, ``mean``, ``std`` (ddof=1), ``n``
(number of non-NaN values), ``ci_low``, ``ci_high`` and ``ci_halfwidth``
(``t_{(1+level)/2, n-1} * std / sqrt(n)``; NaN when n < 2).

``ci_targets_unmet(summary, target)`` gives the rows whose half-width is above a target (what
``target_ci`` needs to decide which points get more seeds); ``ci_halfwidth_ok`` the boolean mask
of rows that meet it. ``t_quantile(p, dof)`` is the Student t quantile, computed without scipy
(bisection on the regularized incomplete beta function, evaluated by its continued fraction).
"""
from __future__ import annotations

import difflib
import math
from functools import lru_cache
from typing import Any, Iterable

import numpy as np
import pandas as pd

from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES, Results

SUMMARY_COLUMNS = ("metric", "mean", "std", "n", "ci_low", "ci_high", "ci_halfwidth")


# --------------------------------------------------------------------------------------------
# special functions
# --------------------------------------------------------------------------------------------
def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes
    6.4), converging fast for x < (a+1)/(a+b+2)."""
    tiny, eps = 1e-300, 1e-16
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        dl = d * c
        h *= dl
        if abs(dl - 1.0) < eps:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    bt = math.exp(lbt)
    if x < (a + 1.0) / (a + b + 2.0):
        return bt * _betacf(a, b, x) / a
    return 1.0 - bt * _betacf(b, a, 1.0 - x) / b


def _normal_ppf(q: float) -> float:
    """Standard normal quantile by bisection on erfc (used for df = inf)."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if 0.5 * math.erfc(-mid / math.sqrt(2.0)) < q:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _t_upper_tail(t: float, dof: float) -> float:
    """P(T > t) for t >= 0."""
    if math.isinf(dof):
        return 0.5 * math.erfc(t / math.sqrt(2.0))
    x = dof / (dof + t * t)
    return 0.5 * betainc(dof / 2.0, 0.5, x)


def t_cdf(t: float, dof: float) -> float:
    """Student t distribution function P(T <= t) with ``dof`` degrees of freedom."""
    tail = _t_upper_tail(abs(t), dof)
    return 1.0 - tail if t >= 0 else tail


@lru_cache(maxsize=4096)
def t_quantile(p: float, dof: float) -> float:
    """Quantile ``t_{p, dof}`` of Student's t distribution: the t with P(T <= t) = p. The one
    implementation of the package (``metrics.mean_ci``, ``summarize``, ``target_ci``, the
    reports); a p outside (0, 1) or dof <= 0 (or NaN) raises ConfigError naming the argument.

    Exact up to floating point: the upper tail is ``P(T > t) = I_x(df/2, 1/2) / 2`` with
    ``x = df / (df + t^2)``, so we solve for x by bisection (I_x is increasing in x) using the
    regularised incomplete beta function, then ``t = sqrt(df (1-x) / x)``.  ``df`` may be
    non-integer; ``df = inf`` gives the normal quantile.  E.g. t_{0.975,1} = 12.7062,
    t_{0.975,10} = 2.2281.
    """
    q, df = float(p), float(dof)
    if not 0.0 < q < 1.0:
        raise ConfigError(f"p: {p!r} is not allowed (expected 0 < p < 1)")
    if not df > 0.0:
        raise ConfigError(f"dof: {dof!r} is not allowed (expected dof > 0)")
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -t_quantile(1.0 - q, df)
    if math.isinf(df):
        return _normal_ppf(q)
    tail2 = 2.0 * (1.0 - q)                      # target I_x(df/2, 1/2)
    lo, hi = 0.0, 1.0                            # x bracket: I_0 = 0 < tail2 < 1 = I_1
    a = 0.5 * df
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid == lo or mid == hi:
            break
        if betainc(a, 0.5, mid) < tail2:
            lo = mid
        else:
            hi = mid
    x = 0.5 * (lo + hi)
    return math.sqrt(df * (1.0 - x) / x)


# --------------------------------------------------------------------------------------------
# summaries
# --------------------------------------------------------------------------------------------
def _as_list(v: Any, name: str) -> list[str]:
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    try:
        return list(v)
    except TypeError:
        raise ConfigError(f"{name}: {v!r} is not allowed (expected a column name or a list of "
                          "them)") from None


def _check_columns(cols: Iterable[str], df: pd.DataFrame, name: str, table: str) -> None:
    have = [str(c) for c in df.columns]
    for c in cols:
        if c not in df.columns:
            close = difflib.get_close_matches(str(c), have, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else "columns: " + ", ".join(have)
            raise ConfigError(f"{name}: no column {c!r} in table {table!r} ({hint})")


def summarize(results_or_df: Results | pd.DataFrame, by: str | Iterable[str] | None = None,
              metrics: str | Iterable[str] | None = None, table: str = "replicas",
              level: float = 0.95, bounds: dict | None = None) -> pd.DataFrame:
    """Mean, std, n and a Student-t CI at ``level`` for each metric in each ``by`` group.

    ``results_or_df``: a Results (``table`` picks the table) or a DataFrame. ``by``: grouping
    columns (e.g. ``["point"]`` or axis columns; ``[]`` = everything in one group). Returns a tidy
    DataFrame with columns ``by + [metric, mean, std, n, ci_low, ci_high, ci_halfwidth]``, rows
    metric by metric, groups sorted. NaN values are left out (``n`` counts the others).

    Of a Results, ``by`` names the sweep's axes as the sweep does (an axis named like an
    engine column, stored as ``<name>_grid``, is the axis: ``diffsweep.core.axes``), and defaults to
    every axis (``res.meta["axes"]``; ``["point"]`` when the Results does not record them). A
    ``by`` that leaves one of those axes with several values in a group is refused (its
    interval would mix different points as if they were seeds): group by it too, or keep one
    value with ``Results.where`` first. A table other than ``replicas`` (flows, queues, ...)
    is first averaged over each replica's rows, so that ``n`` counts seeds (replicas), not rows.
    A DataFrame is grouped as given.

    A bounded metric's interval stays inside its range: ``bounds`` (metric -> (lo, hi), either
    side None), else the range of the registered metric of that name (``jain_index``,
    ``loss_rate``, ...: ``diffsweep.analysis.registry``). Two finite sides: the interval on
    the logit scale (``confidence.bounded_ci``); one side: cut at it. ``ci_halfwidth`` stays
    the Student-t half-width (what ``target_ci`` compares).
    """
    from diffsweep.core import axes as ax  # noqa: PLC0415

    axes: list[str] = []
    if isinstance(results_or_df, Results):
        if table not in TABLES:
            raise ConfigError(f"table: {table!r} is not allowed (expected one of {', '.join(TABLES)})")
        df = getattr(results_or_df, table)
        axes = [a for a in ax.axes_of(results_or_df) or [] if ax.has(df, a)]
        if by is None:
            by = axes or ["point"]
    elif isinstance(results_or_df, pd.DataFrame):
        df = results_or_df
        if by is None:
            raise ConfigError("by: missing (expected the columns to group by; a DataFrame has no "
                              "axes to group by by default)")
    else:
        raise ConfigError(f"results: {type(results_or_df).__name__} is not allowed (expected "
                          "Results or a pandas DataFrame)")
    by = _as_list(by, "by")
    if metrics is None:
        raise ConfigError("metrics: missing (expected a column name or a list of them)")
    metrics = _as_list(metrics, "metrics")
    if not metrics:
        raise ConfigError("metrics: [] is not allowed (expected at least one column name)")
    if not (isinstance(level, (int, float)) and 0 < level < 1):
        raise ConfigError(f"level: {level!r} is not allowed (expected 0 < level < 1, e.g. 0.95)")
    if isinstance(results_or_df, Results):
        named = pd.DataFrame(columns=ax.column_names(df))  # n_flows_grid answers to n_flows
        _check_columns(by, named, "by", table)
        _check_columns(metrics, named, "metrics", table)
        # the grid's values under the axes' names (n_flows, not the engine's n_flows)
        want = ({*by, *axes, *metrics, "point", "seed"}
                | {f"{n}{ax.GRID_SUFFIX}" for n in [*by, *axes]})
        df = ax.with_grid_values(df[[c for c in df.columns if c in want]], [*by, *axes])
    _check_columns(by, df, "by", table)
    _check_columns(metrics, df, "metrics", table)
    for m in metrics:
        if m in by:
            raise ConfigError(f"metrics: {m!r} is also a 'by' column")
        if m in axes:
            raise ConfigError(f"metrics: {m!r} is an axis of the sweep, not a measured column "
                              "(an engine column of that name: summarize the table itself, "
                              f"e.g. summarize(res.{table}, ...))")
        if not (pd.api.types.is_numeric_dtype(df[m]) or pd.api.types.is_bool_dtype(df[m])):
            raise ConfigError(f"metrics: column {m!r} is not numeric (dtype {df[m].dtype})")
    spread = ax.pooled(df, by, axes) if axes else {}
    if spread:
        what = f"summarize(by={by!r})"
        raise ax.pooling_error(what, spread, "add them to by, or keep one value of each with "
                               "Results.where(AXIS=VALUE) first")

    values = df[list(by) + list(metrics)].copy()
    for m in metrics:
        values[m] = values[m].astype("float64")
    if (isinstance(results_or_df, Results) and table != "replicas"
            and {"point", "seed"} <= set(df.columns)):
        # a replica's rows (its flows, queues, ...) are not seeds: their mean is the replica's
        # value, and the interval is over seeds (n counts replicas, not flows x seeds)
        rep = [c for c in ("point", "seed") if c not in by]
        values = (pd.concat([df[rep], values], axis=1)
                  .groupby([*rep, *by], dropna=False, sort=True)[metrics].mean()
                  .reset_index()[list(by) + list(metrics)])
    if by:
        agg = values.groupby(by, dropna=False, sort=True)[metrics].agg(["mean", "std", "count"])
        keys = agg.index.to_frame(index=False)
    else:
        agg = values[metrics].agg(["mean", "std", "count"]).T.stack().to_frame().T
        keys = pd.DataFrame(index=[0])

    pq = 0.5 * (1.0 + float(level))
    frames = []
    for m in metrics:
        mean = agg[(m, "mean")].to_numpy(dtype="float64")
        std = agg[(m, "std")].to_numpy(dtype="float64")
        n = agg[(m, "count")].to_numpy(dtype="int64")
        tq = np.array([t_quantile(pq, k - 1) if k >= 2 else np.nan for k in n], dtype="float64")
        with np.errstate(invalid="ignore", divide="ignore"):
            half = np.where(n >= 2, tq * std / np.sqrt(np.maximum(n, 1)), np.nan)
        std = np.where(n >= 2, std, np.nan)
        part = keys.copy()
        part["metric"] = m
        part["mean"] = mean
        part["std"] = std
        part["n"] = n
        part["ci_low"], part["ci_high"] = _interval(mean, half, _bounds_of(m, bounds))
        part["ci_halfwidth"] = half
        frames.append(part)
    out = pd.concat(frames, ignore_index=True)
    return out[list(by) + list(SUMMARY_COLUMNS)]


def _bounds_of(metric: str, bounds: dict | None):
    if bounds is not None and metric in bounds:
        return bounds[metric]
    from diffsweep.analysis.registry import bounds_of  # noqa: PLC0415
    return bounds_of(metric)


def _interval(mean: np.ndarray, half: np.ndarray, bounds) -> tuple[np.ndarray, np.ndarray]:
    """mean -+ half, kept inside ``bounds`` (lo, hi) where given (``summarize``)."""
    if bounds is None:
        return mean - half, mean + half
    lo, hi = bounds
    if lo is not None and hi is not None:
        return bounded_ci(mean, half, (lo, hi))
    low, high = mean - half, mean + half
    with np.errstate(invalid="ignore"):
        if lo is not None:
            low = np.where(np.isnan(low), low, np.maximum(low, lo))
        if hi is not None:
            high = np.where(np.isnan(high), high, np.minimum(high, hi))
    return low, high


def _unmet_mask(summary: pd.DataFrame, target: float | dict[str, float],
                relative: bool) -> pd.Series:
    for c in ("ci_halfwidth", "mean", "metric"):
        if c not in summary.columns:
            raise ConfigError(f"summary: no column {c!r} (expected the output of summarize)")

    def _ok(t: Any, name: str) -> float:
        if not (isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t)
                and t > 0):
            raise ConfigError(f"{name}: {t!r} is not allowed (expected a finite number > 0"
                              + (", a fraction of |mean| such as 0.05)" if relative else ")"))
        return float(t)

    if isinstance(target, dict):
        tgt = summary["metric"].map({k: _ok(v, f"target[{k!r}]") for k, v in target.items()})
    else:
        tgt = pd.Series(_ok(target, "target"), index=summary.index)
    half = summary["ci_halfwidth"].to_numpy(dtype="float64")
    mean = summary["mean"].to_numpy(dtype="float64")
    if relative:
        measure = np.full(len(half), np.nan)
        nz = mean != 0  # False for NaN means too
        with np.errstate(invalid="ignore", divide="ignore"):
            measure[nz] = half[nz] / np.abs(mean[nz])
        zero = mean == 0
        measure[zero & (half > 0)] = np.inf
        measure[zero & (half == 0)] = 0.0  # 0 +- 0 meets any target
    else:
        measure = half
    tgt_a = tgt.to_numpy(dtype="float64")
    checked = ~np.isnan(tgt_a)
    with np.errstate(invalid="ignore"):
        unmet = checked & (np.isnan(measure) | (measure > tgt_a))
    return pd.Series(unmet, index=summary.index, dtype=bool)


def ci_targets_unmet(summary: pd.DataFrame, target: float | dict[str, float],
                     relative: bool = True) -> pd.DataFrame:
    """The rows of ``summary`` whose CI half-width exceeds ``target``.

    ``relative``: compare ``ci_halfwidth / |mean|`` (a mean of 0 with a half-width > 0 counts as
    unmet, 0 +- 0 as met); else ``ci_halfwidth`` itself. ``target``: a number, or a dict
    metric -> number (metrics not in it are not checked). Rows without a half-width (n < 2,
    including metrics that are all NaN) count as unmet: a caller adding seeds needs a cap.
    """
    return summary[_unmet_mask(summary, target, relative)]


def ci_halfwidth_ok(summary: pd.DataFrame, target: float | dict[str, float],
                    relative: bool = True) -> pd.Series:
    """Boolean Series aligned with ``summary``: True where the target is met (see
    ``ci_targets_unmet``, which returns the other rows)."""
    return ~_unmet_mask(summary, target, relative)


def bounded_ci(mean, half, bounds: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The interval ``mean -+ half`` of a quantity bounded to [lo, hi], on the logit scale.

    With p = (mean - lo) / (hi - lo), the half-width on the logit scale is (delta method)
    ``h = half / ((hi - lo) p (1 - p))``, and the interval ``lo + (hi - lo) expit(logit(p) -+ h)``
    lies inside (lo, hi), contains the mean, and is the Student-t interval when p is far from
    the bounds. A mean on a bound (every value on it: no spread) gives [mean, mean]; NaN stays
    NaN."""
    lo, hi = (float(b) for b in bounds)
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ConfigError(f"bounds: {bounds!r} is not allowed (expected (lo, hi), finite, "
                          "lo < hi)")
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
