"""Claims of the papers, checked against the measured tables, and the report that shows them.

Every verdict is computed here from the tables of a :class:`diffsweep.Results` (through the
per-seed tables of :mod:`diffsweep.figures.kaur_vin`, which the figures draw too); nothing is
written in.  A :class:`Claim` carries the paper's statement and a ``check`` function; the check
returns a :class:`Verdict` with a status in ``STATUSES``, the measured numbers with their 95%
confidence intervals over seeds and the reason for the status.  Each check's docstring states
its thresholds; they are also the ``thresholds`` of the claim and appear in the report.

Conventions shared by the checks (constants below):

* a "curve" is ``metrics.mean_ci`` of a per-seed value per x point; its "half-width" at a point
  is (ci_high - ci_low) / 2 (0 when n < 2);
* a trend in N or T_on is the per-seed least-squares slope of the value against log2(N) or
  log10(T_on), averaged over seeds with a 95% CI; a trend "is significant" when that CI
  excludes 0;
* a comparison of two networks is the per-seed paired difference (same seed = same RTP draws),
  with a 95% CI; significant when the CI excludes 0;
* several sub-results combine as: all hold -> holds, all do not hold -> does not hold,
  otherwise partly holds;
* missing data (a network, an axis, a family) gives "not measured", never a guess.

Families are looked up in ``results_by_family`` by their id ("K2", ..., "K10", "Kf"); "K6"
falls back to the "K5" data (Fig. 5 includes T_on = 1 ms at N = 64) and "K10" to all families
together (Fig. 10 uses "the flows of the runs above").
"""
from __future__ import annotations

import base64
import datetime as _dt
import html
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from diffsweep import metrics
from diffsweep.figures import kaur_vin as kv
from diffsweep.results import Results

__all__ = ["STATUSES", "Claim", "Verdict", "kaur_vin_claims", "evaluate_all",
           "results_for", "write_report"]

STATUSES = ("holds", "partly holds", "does not hold", "not measured")
HOLDS, PARTLY, NOT, NM = STATUSES

# ------------------------------------------------------------------ thresholds (documented)
PEAK_LARGE = 0.25          # K2.2: peak loss >= 0.25 holds ("up to ~50%")
PEAK_MEDIUM = 0.10         # K2.2: >= 0.10 partly
SHAPE_R_HOLDS = 0.8        # K2.3: Pearson r(loss, timeouts) over T_on
SHAPE_R_PARTLY = 0.5
TAU_R2 = 0.7               # K2.4: R^2 of the N_bursts * P_timeout fit
TAU_FACTOR = 2.5           # K2.4: observed peak within a factor 2.5 of the fitted tau
SPEARMAN_PARTLY = -0.5     # K3.1: rank correlation RTP vs loss for "partly"
LOSS_INSIGNIFICANT = 0.05  # K4.1: aggregate loss <= 0.05 (5% of C) holds
LOSS_SMALL = 0.10          # K4.1: <= 0.10 partly
M_SMALL = 0.2              # K5.1/K5.2: M <= 0.2 (throughputs differ >= 5x) holds
M_MEDIUM = 0.5             # K5.1/K5.2: M <= 0.5 (>= 2x) partly
FLAT = 0.1                 # "marginal" / "not appreciable": |change over the N range| <= 0.1
FLAT_PARTLY = 0.2
SPREAD_LARGE = 1.0         # K9.1: max - min of x_i/(C/n) >= 1 fair share at the largest N
SPREAD_MEDIUM = 0.5
PADHYE_OFF = 0.10          # K10: |error| >= 10%
PADHYE_MOST = 0.7          # K10: fraction >= 0.7 holds (paper 80%)
PADHYE_HALF = 0.5          # K10: >= 0.5 partly


# --------------------------------------------------------------------------------------------
# Data classes
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """Outcome of a check: ``status`` in STATUSES, ``numbers`` (measured values; a value with
    a CI is ``{"mean", "ci95": [lo, hi], "n"}``), ``reason`` (why this status)."""

    status: str
    numbers: dict = field(default_factory=dict)
    reason: str = ""

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status: {self.status!r} is not allowed (expected one of {STATUSES})")


@dataclass(frozen=True)
class Claim:
    """A statement of the paper and the function that checks it.

    ``check(results) -> Verdict``: for a figure-family claim ``results`` is that family's
    :class:`Results` (``family`` names the key of ``results_by_family``); for a conclusion
    (``family`` None) it is the whole ``results_by_family`` dict and the verdict is derived
    from the verdicts of the claims in ``depends``."""

    id: str
    figure: str
    text: str
    check: Callable
    family: str | None = None
    depends: tuple = ()
    thresholds: str = ""

    @property
    def is_conclusion(self) -> bool:
        return self.family is None

    def evaluate(self, results_by_family: Mapping[str, Results]) -> Verdict:
        """The verdict of this claim on ``results_by_family`` (family looked up with
        ``results_for``); a missing family or an unreadable table gives "not measured"."""
        if self.is_conclusion:
            return self.check(results_by_family)
        res, key = results_for(self.family, results_by_family)
        if res is None:
            return Verdict(NM, {}, f"no results for family {self.family}")
        v = _safe(self.check, res)
        if key != self.family:
            v = Verdict(v.status, {"data": key, **v.numbers}, f"(data of {key}) {v.reason}")
        return v


def _safe(check: Callable, res) -> Verdict:
    try:
        return check(res)
    except ValueError as e:       # includes diffsweep.errors.ConfigError: a missing column
        return Verdict(NM, {}, f"cannot be computed from these tables: {e}")


def _measured(check: Callable) -> Callable:
    """A check that answers "not measured" (naming the missing column or rows) instead of
    raising when its tables lack what it needs."""
    import functools

    @functools.wraps(check)
    def wrapper(res):
        return _safe(check, res)
    return wrapper


def _doc(fn) -> str:
    d = (fn.__doc__ or "").strip()
    return " ".join(d.split())


# --------------------------------------------------------------------------------------------
# Small helpers on curves and per-seed tables
# --------------------------------------------------------------------------------------------

def _f(x) -> float | None:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def _ci(row) -> dict:
    """A curve row (mean, ci_low, ci_high, n) as a JSON-able dict."""
    return {"mean": _f(row["mean"]), "ci95": [_f(row["ci_low"]), _f(row["ci_high"])],
            "n": int(row["n"])}


def _half(row) -> float:
    lo, hi = _f(row["ci_low"]), _f(row["ci_high"])
    return 0.0 if lo is None or hi is None else (hi - lo) / 2.0


def _one(df: pd.DataFrame, value: str) -> dict:
    return _ci(metrics.mean_ci(df, None, value).iloc[0])


def _combine(statuses: Iterable[str]) -> str:
    s = [x for x in statuses if x != NM]
    if not s:
        return NM
    if all(x == HOLDS for x in s):
        return HOLDS
    if all(x == NOT for x in s):
        return NOT
    return PARTLY


def _combined_verdict(sts: list[str], nums: dict, whys: list[str], missing: str,
                      notes=None, suffix: str = "") -> Verdict:
    """The verdict of a check made of several sub-results (networks, RTP settings, fractions):
    'not measured' with ``missing`` when there is none, else ``_combine`` of their statuses."""
    if not sts:
        return Verdict(NM, {}, missing)
    if notes is not None:
        nums["selection"] = notes
    return Verdict(_combine(sts), nums, "; ".join(whys) + suffix)


def _level(value: float, hold_at: float, partly_at: float, higher_is_better: bool = True) -> str:
    if value is None or not math.isfinite(value):
        return NM
    if higher_is_better:
        return HOLDS if value >= hold_at else (PARTLY if value >= partly_at else NOT)
    return HOLDS if value <= hold_at else (PARTLY if value <= partly_at else NOT)


def _sign_status(ci: dict, direction: int) -> str:
    """direction +1: CI above 0 -> holds, mean > 0 -> partly, else does not hold (-1 mirrors)."""
    m, (lo, hi) = ci["mean"], ci["ci95"]
    if m is None:
        return NM
    if direction > 0:
        if lo is not None and lo > 0:
            return HOLDS
        return PARTLY if m > 0 else NOT
    if hi is not None and hi < 0:
        return HOLDS
    return PARTLY if m < 0 else NOT


def _flat_status(ci: dict) -> str:
    """"No appreciable change" (an equivalence test): holds if the whole 95% CI of the change
    lies within +-FLAT, partly holds if |mean| <= FLAT_PARTLY, does not hold otherwise."""
    m, (lo, hi) = ci["mean"], ci["ci95"]
    if m is None:
        return NM
    if lo is not None and hi is not None and -FLAT <= lo and hi <= FLAT:
        return HOLDS
    return PARTLY if abs(m) <= FLAT_PARTLY else NOT


def _rise_fall(c: pd.DataFrame, x: str) -> tuple[str, dict, str]:
    """Shape test of a curve: holds if its maximum is at an interior point and both end points
    are below the peak by more than the peak's CI half-width; partly if only one end is;
    does not hold otherwise."""
    c = c.sort_values(x).reset_index(drop=True)
    m = c["mean"].to_numpy(dtype=float)
    if len(m) < 3 or not np.isfinite(m).any():
        return NM, {}, f"needs >= 3 {x} points (found {len(m)})"
    i = int(np.nanargmax(m))
    peak, half = m[i], _half(c.iloc[i])
    left = i > 0 and m[0] < peak - half
    right = i < len(m) - 1 and m[-1] < peak - half
    info = {"peak_at": _f(c[x].iloc[i]), "peak": _ci(c.iloc[i]), "first": _ci(c.iloc[0]),
            "last": _ci(c.iloc[-1]), "interior_peak": bool(0 < i < len(m) - 1)}
    if 0 < i < len(m) - 1 and left and right:
        return HOLDS, info, (f"maximum {peak:.3g} at {x} = {c[x].iloc[i]:g}, an interior point; "
                             f"both ends ({m[0]:.3g}, {m[-1]:.3g}) are below it by more than its "
                             f"CI half-width {half:.3g}")
    if left or right:
        side = "rises to the maximum but does not fall after it" if left and not right else \
               "falls after the maximum but does not rise before it"
        return PARTLY, info, (f"maximum {peak:.3g} at {x} = {c[x].iloc[i]:g}; the curve {side} "
                              f"by more than the half-width {half:.3g}")
    return NOT, info, (f"no end point is below the maximum {peak:.3g} (at {x} = "
                       f"{c[x].iloc[i]:g}) by more than its CI half-width {half:.3g}")


def _slopes(df: pd.DataFrame, x: str, value: str, log=np.log2, by: list[str] = ()) -> pd.DataFrame:
    """Per seed (and ``by`` group) least-squares slope of ``value`` on ``log(x)``."""
    rows = []
    for key, g in df.groupby(list(by) + ["seed"], dropna=False):
        g = g[np.isfinite(g[x].to_numpy(dtype=float)) & np.isfinite(g[value].to_numpy(dtype=float))]
        g = g.groupby(x, as_index=False)[value].mean()
        if len(g) < 2:
            continue
        lx = log(g[x].to_numpy(dtype=float))
        y = g[value].to_numpy(dtype=float)
        slope = float(np.polyfit(lx, y, 1)[0])
        key = key if isinstance(key, tuple) else (key,)
        rows.append(dict(zip(list(by) + ["seed"], key), slope=slope))
    return pd.DataFrame(rows, columns=list(by) + ["seed", "slope"])


def _trend(df: pd.DataFrame, x: str, value: str, log=np.log2) -> dict | None:
    """Mean per-seed slope (per log unit of x) with CI, and the change over the x range."""
    s = _slopes(df, x, value, log)
    if s.empty:
        return None
    xs = df[x].dropna().to_numpy(dtype=float)
    span = float(log(xs.max()) - log(xs.min()))
    sl = _one(s, "slope")
    ch = {"mean": None if sl["mean"] is None else sl["mean"] * span,
          "ci95": [None if v is None else v * span for v in sl["ci95"]], "n": sl["n"]}
    return {"slope_per_log_unit": sl, "change_over_range": ch,
            "range": [float(xs.min()), float(xs.max())]}


def _paired(a: pd.DataFrame, b: pd.DataFrame, value: str,
            on=("seed", "N", "rtp_setting", "rtp")) -> pd.DataFrame:
    """Per-seed difference b - a of ``value`` (rows paired on ``on``, NaN-safe)."""
    on = list(on)
    left = a[on + [value]].copy()
    right = b[on + [value]].copy()
    for d in (left, right):
        for c in on:
            if d[c].dtype.kind == "f":
                d[c] = d[c].fillna(-1.0)
    m = left.merge(right, on=on, suffixes=("_a", "_b"))
    m["diff"] = m[f"{value}_b"] - m[f"{value}_a"]
    return m


def _pearson(x: np.ndarray, y: np.ndarray) -> float | None:
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.sum() < 3 or np.std(x[ok]) == 0 or np.std(y[ok]) == 0:
        return None
    return float(np.corrcoef(x[ok], y[ok])[0, 1])


def _spearman(x, y) -> float | None:
    x, y = pd.Series(np.asarray(x, dtype=float)), pd.Series(np.asarray(y, dtype=float))
    if len(x) < 2:
        return None
    return _pearson(x.rank().to_numpy(), y.rank().to_numpy()) if len(x) >= 3 else \
        float(np.sign((x.iloc[1] - x.iloc[0]) * (y.iloc[1] - y.iloc[0])))


def _subset(res: Results, keys: pd.DataFrame) -> Results:
    """The replicas of ``res`` whose (point, seed) are in ``keys``."""
    k = keys[["point", "seed"]].drop_duplicates()
    tabs = {}
    for name, df in res.tables().items():
        if df is not None and {"point", "seed"} <= set(df.columns):
            tabs[name] = df.merge(k, on=["point", "seed"], how="inner")
        else:
            tabs[name] = df
    return Results(**tabs, meta=dict(res.meta))


# --------------------------------------------------------------------------------------------
# K2: one flow, EF vs CBR (Fig. 2)
# --------------------------------------------------------------------------------------------

def _k2_loss(res):
    loss = kv.loss_per_seed(res)
    loss, notes = kv._select(loss, N=1, rtp=8.0, f=kv.MAIN_F, has_udp=0)
    return loss, notes


def _k2_timeouts(res):
    tp = kv.timeouts_per_seed(res)
    tp, _ = kv._select(tp, N=1, rtp=8.0, f=kv.MAIN_F, has_udp=0)
    return tp[tp["ef_kind"] == "onoff"]


@_measured
def check_k2_rise_fall(res: Results) -> Verdict:
    """Mean loss U_CBR - U_EF per T_on (95% CI over seeds): holds if its maximum is at an
    interior T_on point and both end points are below the peak by more than the peak's CI
    half-width; partly holds if only one side falls; does not hold otherwise (>= 3 T_on)."""
    loss, notes = _k2_loss(res)
    c = metrics.mean_ci(loss, "t_on", "loss")
    st, info, why = _rise_fall(c, "t_on")
    return Verdict(st, {"loss_vs_t_on": _curve_numbers(c, "t_on"), **info,
                        "selection": notes}, why)


@_measured
def check_k2_peak(res: Results) -> Verdict:
    """Peak of the mean loss curve U_CBR - U_EF over T_on: holds if >= 0.25 (the paper reports
    up to ~0.5), partly holds if >= 0.10, does not hold otherwise."""
    loss, notes = _k2_loss(res)
    c = metrics.mean_ci(loss, "t_on", "loss")
    if c.empty or not np.isfinite(c["mean"]).any():
        return Verdict(NM, {}, "no loss values")
    i = int(np.nanargmax(c["mean"].to_numpy(dtype=float)))
    peak = float(c["mean"].iloc[i])
    st = _level(peak, PEAK_LARGE, PEAK_MEDIUM)
    return Verdict(st, {"peak_loss": _ci(c.iloc[i]), "peak_t_on_ms": _f(c["t_on"].iloc[i]),
                        "selection": notes},
                   f"peak loss {peak:.3f} at T_on = {c['t_on'].iloc[i]:g} ms "
                   f"(thresholds: >= {PEAK_LARGE} holds, >= {PEAK_MEDIUM} partly)")


@_measured
def check_k2_timeouts_shape(res: Results) -> Verdict:
    """Total timeouts of the flow (TCP-EF network) vs T_on against the loss curve: holds if the
    Pearson correlation r of the two mean curves over T_on is >= 0.8 and the timeouts curve
    rises then falls (same test as K2.1); does not hold if r < 0.5 (or undefined) and the
    timeouts curve does not rise and fall at all; partly holds otherwise."""
    loss, _ = _k2_loss(res)
    tp = _k2_timeouts(res)
    cl = metrics.mean_ci(loss, "t_on", "loss")
    ct = metrics.mean_ci(tp, "t_on", "timeouts_total")
    both = cl.merge(ct, on="t_on", suffixes=("_loss", "_to"))
    if len(both) < 3:
        return Verdict(NM, {}, f"needs >= 3 common T_on points (found {len(both)})")
    r = _pearson(both["mean_loss"].to_numpy(float), both["mean_to"].to_numpy(float))
    st_t, info, why_t = _rise_fall(ct, "t_on")
    if r is not None and r >= SHAPE_R_HOLDS and st_t == HOLDS:
        st = HOLDS
    elif (r is None or r < SHAPE_R_PARTLY) and st_t == NOT:
        st = NOT
    else:
        st = PARTLY
    rs = "undefined (a flat curve)" if r is None else f"{r:.2f}"
    return Verdict(st, {"pearson_r_loss_timeouts": r, "timeouts_vs_t_on": _curve_numbers(ct, "t_on"),
                        "timeouts_peak_at_ms": info.get("peak_at")},
                   f"r(loss, timeouts) over T_on = {rs} (>= {SHAPE_R_HOLDS} holds, "
                   f">= {SHAPE_R_PARTLY} partly); timeouts curve: {why_t}")


def _fit_tau(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Least-squares fit of y = A exp(-tau/x) / x (N_bursts ~ f / T_on times P_timeout =
    exp(-tau/T_on), Sec. 3.1.1); returns (tau, A, R^2).  Its maximum is at x = tau."""
    taus = np.logspace(np.log10(x.min()) - 1.5, np.log10(x.max()) + 1.5, 600)
    best = (np.nan, np.nan, np.inf)
    for t in taus:
        g = np.exp(-t / x) / x
        gg = float(np.dot(g, g))
        if gg <= 0:
            continue
        a = float(np.dot(g, y)) / gg
        sse = float(np.sum((y - a * g) ** 2))
        if sse < best[2]:
            best = (float(t), a, sse)
    sst = float(np.sum((y - y.mean()) ** 2))
    r2 = 1.0 - best[2] / sst if sst > 0 else float("nan")
    return best[0], best[1], r2


@_measured
def check_k2_tau(res: Results) -> Verdict:
    """"The maximum number of timeouts is at T_on = tau": tau is not observable, so the mean
    timeouts curve is fitted with the paper's model E[timeouts] = A exp(-tau/T_on) / T_on
    (N_bursts ~ 1/T_on times P_timeout = exp(-tau/T_on)), whose peak is at T_on = tau.  Holds if
    the fit's R^2 >= 0.7 and the observed peak T_on is an interior grid point within a factor
    2.5 of the fitted tau; partly holds if one of the two; does not hold otherwise (>= 4 T_on
    points)."""
    tp = _k2_timeouts(res)
    c = metrics.mean_ci(tp, "t_on", "timeouts_total").sort_values("t_on")
    c = c[np.isfinite(c["mean"]) & (c["t_on"] > 0)]
    if len(c) < 4:
        return Verdict(NM, {}, f"needs >= 4 T_on points with timeouts (found {len(c)})")
    x, y = c["t_on"].to_numpy(float), c["mean"].to_numpy(float)
    if not (y > 0).any():
        return Verdict(NM, {"timeouts_vs_t_on": _curve_numbers(c, "t_on")},
                       "no timeouts at any T_on: tau cannot be fitted")
    tau, a, r2 = _fit_tau(x, y)
    ipk = int(np.argmax(y))
    peak = float(x[ipk])
    ratio = peak / tau
    interior = 0 < ipk < len(x) - 1
    near = interior and (1.0 / TAU_FACTOR) <= ratio <= TAU_FACTOR
    good = math.isfinite(r2) and r2 >= TAU_R2
    st = HOLDS if (near and good) else (PARTLY if (near or good) else NOT)
    edge = "" if interior else " at an end of the T_on grid, so not located"
    return Verdict(st, {"tau_fit_ms": tau, "fit_r2": r2, "observed_peak_t_on_ms": peak,
                        "peak_over_tau": ratio, "peak_is_interior": interior,
                        "timeouts_vs_t_on": _curve_numbers(c, "t_on")},
                   f"fitted tau = {tau:.3g} ms (R^2 = {r2:.2f}, needs >= {TAU_R2}); observed "
                   f"timeout peak at T_on = {peak:g} ms{edge}, {ratio:.2f} x tau (needs an "
                   f"interior peak within a factor {TAU_FACTOR})")


def _curve_numbers(c: pd.DataFrame, x: str) -> dict:
    return {f"{_f(r[x]):g}": _ci(r) for _, r in c.sort_values(x).iterrows() if _f(r[x]) is not None}


# --------------------------------------------------------------------------------------------
# K3: one flow, per RTP (Fig. 3)
# --------------------------------------------------------------------------------------------

@_measured
def check_k3_rtp(res: Results) -> Verdict:
    """Loss averaged over the common T_on points, per RTP and seed (95% CI over seeds): holds if
    it decreases at every RTP step and the per-seed paired difference loss(smallest RTP) -
    loss(largest RTP) is significantly > 0; partly holds if only the Spearman rank correlation
    of RTP and mean loss is <= -0.5 or only the paired difference is significant; does not hold
    otherwise (>= 2 RTPs)."""
    loss = kv.loss_per_seed(res)
    loss, notes = kv._select(loss, N=1, f=kv.MAIN_F, has_udp=0)
    loss = loss[loss["rtp_setting"] == "equal"]
    rtps = sorted(loss["rtp"].dropna().unique())
    if len(rtps) < 2:
        return Verdict(NM, {}, f"needs >= 2 RTP values (found {len(rtps)})")
    common = set.intersection(*(set(loss.loc[loss["rtp"] == r, "t_on"]) for r in rtps))
    loss = loss[loss["t_on"].isin(common)]
    per = loss.groupby(["rtp", "seed"], as_index=False)["loss"].mean()
    c = metrics.mean_ci(per, "rtp", "loss").sort_values("rtp")
    m = c["mean"].to_numpy(float)
    steps = bool(np.all(np.diff(m) < 0))
    d = _paired(per[per["rtp"] == rtps[-1]].assign(N=1, rtp_setting="equal", rtp=0.0),
                per[per["rtp"] == rtps[0]].assign(N=1, rtp_setting="equal", rtp=0.0), "loss")
    dd = _one(d, "diff") if len(d) else {"mean": None, "ci95": [None, None], "n": 0}
    sig = dd["ci95"][0] is not None and dd["ci95"][0] > 0
    rho = _spearman(c["rtp"], c["mean"])
    if steps and sig:
        st = HOLDS
    elif (rho is not None and rho <= SPEARMAN_PARTLY) or sig:
        st = PARTLY
    else:
        st = NOT
    return Verdict(st, {"mean_loss_over_t_on_by_rtp_ms": _curve_numbers(c, "rtp"),
                        "loss_smallest_minus_largest_rtp": dd, "spearman_rtp_loss": rho,
                        "t_on_points": len(common), "selection": notes},
                   f"loss decreases at every RTP step: {steps}; paired difference "
                   f"{rtps[0]:g} ms - {rtps[-1]:g} ms significant > 0: {sig}; Spearman rho = "
                   f"{'n/a' if rho is None else f'{rho:.2f}'}")


# --------------------------------------------------------------------------------------------
# K4: N flows (Fig. 4)
# --------------------------------------------------------------------------------------------

@_measured
def check_k4_aggregate(res: Results) -> Verdict:
    """Loss in aggregate U for N >= 20: the largest mean loss over all (N >= 20, T_on) points;
    holds if <= 0.05 (5% of the bandwidth available to TCP), partly holds if <= 0.10, does not
    hold otherwise."""
    loss = kv.loss_per_seed(res)
    loss, notes = kv._select(loss, f=kv.MAIN_F, has_udp=0)
    big = loss[loss["N"] >= kv.N_LARGE]
    if big.empty:
        return Verdict(NM, {}, f"no EF/CBR rows with N >= {kv.N_LARGE}")
    c = metrics.mean_ci(big, ["N", "t_on"], "loss")
    i = int(np.nanargmax(c["mean"].to_numpy(float)))
    worst = float(c["mean"].iloc[i])
    per_n = {}
    for n, g in c.groupby("N"):
        j = int(np.nanargmax(g["mean"].to_numpy(float)))
        per_n[f"N={int(n)}"] = {"max_loss": _ci(g.iloc[j]), "at_t_on_ms": _f(g["t_on"].iloc[j])}
    small = loss[loss["N"] < kv.N_LARGE]
    nums = {"max_loss_N>=20": _ci(c.iloc[i]), "at": {"N": int(c["N"].iloc[i]),
                                                       "t_on_ms": _f(c["t_on"].iloc[i])},
            "per_N": per_n, "selection": notes}
    if not small.empty:
        cs = metrics.mean_ci(small, ["N", "t_on"], "loss")
        nums["max_loss_N<20"] = _ci(cs.iloc[int(np.nanargmax(cs["mean"].to_numpy(float)))])
    st = _level(worst, LOSS_INSIGNIFICANT, LOSS_SMALL, higher_is_better=False)
    return Verdict(st, nums, f"largest mean aggregate loss for N >= {kv.N_LARGE} is {worst:.3f} "
                             f"(N = {int(c['N'].iloc[i])}, T_on = {c['t_on'].iloc[i]:g} ms); "
                             f"<= {LOSS_INSIGNIFICANT} holds, <= {LOSS_SMALL} partly")


@_measured
def check_k4_timeouts(res: Results) -> Verdict:
    """Timeouts per flow (TCP-EF network) averaged over T_on per (N, seed); trend = per-seed
    slope against log2 N: holds if the slope's 95% CI is above 0 and the mean at the largest N
    exceeds that at the smallest; partly holds if the mean slope is > 0; does not hold
    otherwise (>= 2 N values)."""
    tp = kv.timeouts_per_seed(res)
    tp, notes = kv._select(tp, f=kv.MAIN_F, has_udp=0)
    tp = tp[tp["ef_kind"] == "onoff"]
    ns = sorted(tp["N"].dropna().unique())
    if len(ns) < 2:
        return Verdict(NM, {}, f"needs >= 2 values of N in the TCP-EF network (found {len(ns)})")
    per = tp.groupby(["N", "seed"], as_index=False)["timeouts_per_flow"].mean()
    c = metrics.mean_ci(per, "N", "timeouts_per_flow").sort_values("N")
    tr = _trend(per, "N", "timeouts_per_flow")
    if tr is None:
        return Verdict(NM, {}, "no seed has two values of N")
    st = _sign_status(tr["slope_per_log_unit"], +1)
    if st == HOLDS and not c["mean"].iloc[-1] > c["mean"].iloc[0]:
        st = PARTLY
    sl = tr["slope_per_log_unit"]
    return Verdict(st, {"timeouts_per_flow_by_N": _curve_numbers(c, "N"),
                        "slope_per_doubling_of_N": sl, "selection": notes},
                   f"slope per doubling of N {sl['mean']:.3g} (95% CI {_rng(sl)}); mean at "
                   f"N = {int(ns[0])}: {c['mean'].iloc[0]:.3g}, at N = {int(ns[-1])}: "
                   f"{c['mean'].iloc[-1]:.3g}")


def _rng(ci: dict) -> str:
    lo, hi = ci["ci95"]
    return "n/a" if lo is None or hi is None else f"{lo:.3g}..{hi:.3g}"


# --------------------------------------------------------------------------------------------
# K5: M vs T_on, four networks (Fig. 5)
# --------------------------------------------------------------------------------------------

def _k5(res):
    fr = kv.fairness_per_seed(res)
    fr = fr[fr["N"] > 1]
    fr, notes = kv._select(fr, N=64, f=kv.MAIN_F)
    return fr, notes


def _no_ef_small(res: Results, setting: str) -> Verdict:
    fr, notes = _k5(res)
    fr = fr[fr["rtp_setting"] == setting]
    nets = [n for n in kv.NO_EF if (fr["network"] == n).any()]
    if not nets:
        return Verdict(NM, {}, f"no TCP-only or TCP+UDP rows with {setting} RTPs")
    nums, sts, whys = {}, [], []
    for net in nets:
        g = kv.collapse_t_on(fr[fr["network"] == net], "min_max_ratio")
        ci = _one(g, "min_max_ratio")
        m = ci["mean"]
        mn = g["min_max_ratio"].min()
        nums[net] = {"M": ci, "throughput_ratio_1_over_mean_M": (1 / m) if m else None,
                     "largest_ratio_1_over_min_M": (1 / mn) if mn and mn > 0 else None}
        sts.append(_level(m, M_SMALL, M_MEDIUM, higher_is_better=False))
        whys.append(f"{net}: mean M = {m:.3f}" if m is not None else f"{net}: M undefined")
    nums["selection"] = notes
    return Verdict(_combine(sts), nums,
                   "; ".join(whys) + f" (M <= {M_SMALL}, i.e. >= 5x, holds; <= {M_MEDIUM} partly)")


@_measured
def check_k5_small_equal(res: Results) -> Verdict:
    """Equal RTPs, TCP-only and TCP+UDP: mean M over seeds (T_on ignored): holds if <= 0.2
    (throughputs differ >= 5x; paper 5-10x) for each network, partly holds if <= 0.5, does not
    hold otherwise; networks combined (all hold -> holds, all fail -> does not hold)."""
    return _no_ef_small(res, "equal")


@_measured
def check_k5_small_unequal(res: Results) -> Verdict:
    """Unequal RTPs, TCP-only and TCP+UDP: same thresholds as K5.1 (paper: up to ~30x,
    M ~ 0.03)."""
    return _no_ef_small(res, "unequal")


def _pairs(fr: pd.DataFrame, value: str, at_min_t_on: bool = True):
    """Yield (setting, no-EF net, EF net, paired per-seed differences EF - noEF, EF t_on)."""
    for setting in ("equal", "unequal"):
        sub = fr[fr["rtp_setting"] == setting]
        for a_net, b_net in kv.EF_PAIRS:
            a = kv.collapse_t_on(sub[sub["network"] == a_net], value)
            b = sub[sub["network"] == b_net]
            if a.empty or b.empty:
                continue
            t = None
            if at_min_t_on and b["t_on"].notna().any():
                t = float(b["t_on"].min())
                b = b[b["t_on"] == t]
            yield setting, a_net, b_net, _paired(a, b, value), t


@_measured
def check_k5_ef_raises(res: Results) -> Verdict:
    """EF vs no EF (TCP-only -> TCP+EF, TCP+UDP -> TCP+UDP+EF, each RTP setting): per-seed
    paired difference of M at the smallest T_on; holds if its 95% CI is above 0, partly holds
    if only its mean is > 0, does not hold otherwise; pairs combined (all hold -> holds, all
    fail -> does not hold)."""
    fr, notes = _k5(res)
    nums, sts, whys = {}, [], []
    for setting, a_net, b_net, d, t in _pairs(fr, "min_max_ratio"):
        if d.empty:
            continue
        ci = _one(d, "diff")
        st = _sign_status(ci, +1)
        key = f"{setting}: {b_net} - {a_net}"
        full = fr[(fr["rtp_setting"] == setting) & (fr["network"] == b_net)]
        base = _one(kv.collapse_t_on(fr[(fr["rtp_setting"] == setting) & (fr["network"] == a_net)],
                                     "min_max_ratio"), "min_max_ratio")
        cm = metrics.mean_ci(full, "t_on", "min_max_ratio")
        above = float(np.mean(cm["mean"].to_numpy(float) > (base["mean"] or 0)))
        nums[key] = {"M_difference_at_t_on_ms": t, "difference": ci, "M_without_EF": base,
                     "share_of_t_on_points_with_higher_M": above}
        sts.append(st)
        whys.append(f"{key} at T_on = {t:g} ms: {ci['mean']:+.3f} ({_rng(ci)}) -> {st}")
    return _combined_verdict(sts, nums, whys,
                             "needs a network without EF and its counterpart with EF "
                             "(TCP-only/TCP+EF or TCP+UDP/TCP+UDP+EF) at N > 1", notes)


@_measured
def check_k5_smaller_t_on(res: Results) -> Verdict:
    """Networks with EF: per-seed slope of M against log10 T_on (>= 3 T_on points): holds if the
    slope's 95% CI is below 0 (smaller T_on -> larger M), partly holds if only its mean is
    < 0, does not hold otherwise; curves (network x RTP setting) combined."""
    fr, notes = _k5(res)
    nums, sts, whys = {}, [], []
    for setting in ("equal", "unequal"):
        for net in kv.WITH_EF:
            g = fr[(fr["rtp_setting"] == setting) & (fr["network"] == net)]
            if g["t_on"].nunique() < 3:
                continue
            tr = _trend(g, "t_on", "min_max_ratio", log=np.log10)
            if tr is None:
                continue
            sl = tr["slope_per_log_unit"]
            st = _sign_status(sl, -1)
            key = f"{setting}: {net}"
            nums[key] = {"slope_per_decade_of_t_on": sl,
                         "M_vs_t_on": _curve_numbers(metrics.mean_ci(g, "t_on", "min_max_ratio"), "t_on")}
            sts.append(st)
            whys.append(f"{key}: slope per decade {sl['mean']:+.3f} ({_rng(sl)}) -> {st}")
    return _combined_verdict(sts, nums, whys,
                             "needs an EF network with >= 3 T_on points", notes)


# --------------------------------------------------------------------------------------------
# K6: histograms at T_on = 1 ms (Fig. 6)
# --------------------------------------------------------------------------------------------

def _k6(res):
    nf = kv.normalized_per_flow(res)
    nf = nf[nf["N"] > 1]
    nf, notes = kv._select(nf, N=64, f=kv.MAIN_F)
    nf, note = kv.nearest_t_on(nf, 1.0)
    per = kv.normalized_per_replica(nf)
    return per, notes + ([note] if note else [])


def _k6_check(res: Results, value: str, direction: int, what: str) -> Verdict:
    per, notes = _k6(res)
    nums, sts, whys = {}, [], []
    for setting, a_net, b_net, d, t in _pairs(per, value, at_min_t_on=False):
        if d.empty:
            continue
        ci = _one(d, "diff")
        st = _sign_status(ci, direction)
        key = f"{setting}: {b_net} - {a_net}"
        nums[key] = {"difference": ci,
                     a_net: _one(d.rename(columns={f"{value}_a": "v"}), "v"),
                     b_net: _one(d.rename(columns={f"{value}_b": "v"}), "v")}
        sts.append(st)
        whys.append(f"{key}: {what} {ci['mean']:+.3f} ({_rng(ci)}) -> {st}")
    return _combined_verdict(sts, nums, whys,
                             "needs a network without EF and its counterpart with EF at "
                             "N > 1", notes)


@_measured
def check_k6_spread(res: Results) -> Verdict:
    """Spread = max - min of x_i/(C/n) per replica (T_on nearest 1 ms): per-seed paired
    difference EF - no EF for each pair and RTP setting; holds if the 95% CI is below 0,
    partly holds if only the mean is < 0, does not hold otherwise; pairs combined."""
    return _k6_check(res, "spread", -1, "change of spread")


@_measured
def check_k6_near_fair(res: Results) -> Verdict:
    """Share of flows with 0.8 <= x_i/(C/n) <= 1.2 per replica (T_on nearest 1 ms): per-seed
    paired difference EF - no EF; holds if the 95% CI is above 0, partly holds if only the
    mean is > 0, does not hold otherwise; pairs combined."""
    return _k6_check(res, "near_fair", +1, "change of near-fair share")


# --------------------------------------------------------------------------------------------
# K7: M vs N (Fig. 7)
# --------------------------------------------------------------------------------------------

def _k7(res):
    fr = kv.fairness_per_seed(res)
    fr = fr[fr["N"] > 1]
    fr, notes = kv._select(fr, f=kv.MAIN_F)
    fr, note = kv.nearest_t_on(fr, 1.0)
    fr = kv.collapse_t_on(fr, "min_max_ratio", networks=kv.NO_EF)
    return fr, notes + ([note] if note else [])


@_measured
def check_k7_equal_falls(res: Results) -> Verdict:
    """Equal RTPs, TCP-only and TCP+UDP: per-seed slope of M against log2 N; holds if its 95% CI
    is below 0, partly holds if only its mean is < 0, does not hold otherwise; networks
    combined (>= 2 N values)."""
    fr, notes = _k7(res)
    fr = fr[fr["rtp_setting"] == "equal"]
    nums, sts, whys = {}, [], []
    for net in kv.NO_EF:
        g = fr[fr["network"] == net]
        tr = _trend(g, "N", "min_max_ratio") if g["N"].nunique() >= 2 else None
        if tr is None:
            continue
        sl = tr["slope_per_log_unit"]
        st = _sign_status(sl, -1)
        nums[net] = {"slope_per_doubling_of_N": sl,
                     "M_by_N": _curve_numbers(metrics.mean_ci(g, "N", "min_max_ratio"), "N")}
        sts.append(st)
        whys.append(f"{net}: slope per doubling {sl['mean']:+.3f} ({_rng(sl)}) -> {st}")
    return _combined_verdict(sts, nums, whys,
                             "needs TCP-only or TCP+UDP rows with equal RTPs at >= 2 "
                             "values of N", notes)


@_measured
def check_k7_equal_slower(res: Results) -> Verdict:
    """Equal RTPs: per seed, slope of M against log2 N with EF minus without EF (TCP+EF vs
    TCP-only, TCP+UDP+EF vs TCP+UDP); holds if the 95% CI of the difference is above 0 (M falls
    more slowly with EF), partly holds if only its mean is > 0, does not hold otherwise; pairs
    combined."""
    fr, notes = _k7(res)
    fr = fr[fr["rtp_setting"] == "equal"]
    nums, sts, whys = {}, [], []
    for a_net, b_net in kv.EF_PAIRS:
        sa = _slopes(fr[fr["network"] == a_net], "N", "min_max_ratio")
        sb = _slopes(fr[fr["network"] == b_net], "N", "min_max_ratio")
        if sa.empty or sb.empty:
            continue
        d = sa.merge(sb, on="seed", suffixes=("_a", "_b"))
        if d.empty:
            continue
        d["diff"] = d["slope_b"] - d["slope_a"]
        ci = _one(d, "diff")
        st = _sign_status(ci, +1)
        key = f"{b_net} vs {a_net}"
        nums[key] = {"slope_difference": ci, f"slope {a_net}": _one(d, "slope_a"),
                     f"slope {b_net}": _one(d, "slope_b")}
        sts.append(st)
        whys.append(f"{key}: slope difference {ci['mean']:+.3f} ({_rng(ci)}) -> {st}")
    return _combined_verdict(sts, nums, whys,
                             "needs a pair of networks with and without EF, equal RTPs, "
                             ">= 2 values of N", notes)


@_measured
def check_k7_unequal_marginal(res: Results) -> Verdict:
    """Unequal RTPs, each of the four networks: change of M over the N range (per-seed slope
    against log2 N times log2(N_max/N_min)); holds if its whole 95% CI lies within +-0.1,
    partly holds if |mean change| <= 0.2, does not hold otherwise; networks combined."""
    fr, notes = _k7(res)
    fr = fr[fr["rtp_setting"] == "unequal"]
    nums, sts, whys = {}, [], []
    for net in kv.NO_EF + kv.WITH_EF:
        g = fr[fr["network"] == net]
        tr = _trend(g, "N", "min_max_ratio") if g["N"].nunique() >= 2 else None
        if tr is None:
            continue
        ch = tr["change_over_range"]
        st = _flat_status(ch)
        nums[net] = {"change_of_M_over_N_range": ch, "N_range": tr["range"]}
        sts.append(st)
        whys.append(f"{net}: change {ch['mean']:+.3f} ({_rng(ch)}) -> {st}")
    return _combined_verdict(sts, nums, whys,
                             "needs rows with unequal RTPs at >= 2 values of N", notes,
                             suffix=f" (CI within +-{FLAT} holds, |mean| <= {FLAT_PARTLY} "
                             "partly)")


# --------------------------------------------------------------------------------------------
# K8, K9: histograms per N (Fig. 8, 9)
# --------------------------------------------------------------------------------------------

def _k89(res, setting: str, net: str):
    nf = kv.normalized_per_flow(res)
    nf = nf[nf["N"] > 1]
    nf, notes = kv._select(nf, f=kv.MAIN_F)
    nf, note = kv.nearest_t_on(nf, 1.0)
    per = kv.normalized_per_replica(nf)
    per = per[(per["rtp_setting"] == setting) & (per["network"] == net)]
    return per, notes + ([note] if note else [])


def _trend_part(per: pd.DataFrame, value: str, mode: str):
    """mode 'up' / 'down' (significant trend) or 'flat' (|change| small)."""
    tr = _trend(per, "N", value) if per["N"].nunique() >= 2 else None
    if tr is None:
        return NM, {}, f"{value}: needs >= 2 values of N"
    if mode == "flat":
        st = _flat_status(tr["change_over_range"])
    else:
        st = _sign_status(tr["slope_per_log_unit"], +1 if mode == "up" else -1)
    ch = tr["change_over_range"]
    by_n = _curve_numbers(metrics.mean_ci(per, "N", value), "N")
    return st, {"change_over_N_range": ch, "by_N": by_n}, \
        f"{value} change over N {ch['mean']:+.3f} ({_rng(ch)}) [{mode}] -> {st}"


def _k89_check(res, setting, net, parts) -> Verdict:
    per, notes = _k89(res, setting, net)
    if per.empty:
        return Verdict(NM, {}, f"no {net} rows with {setting} RTPs at N > 1")
    nums, sts, whys = {"selection": notes}, [], []
    for value, mode in parts:
        if mode == "large_at_max_N":
            top = per[per["N"] == per["N"].max()]
            ci = _one(top, value)
            st = _level(ci["mean"], SPREAD_LARGE, SPREAD_MEDIUM)
            nums[f"{value}_at_N={int(per['N'].max())}"] = ci
            whys.append(f"{value} at N = {int(per['N'].max())}: {ci['mean']:.2f} "
                        f"(>= {SPREAD_LARGE} holds, >= {SPREAD_MEDIUM} partly) -> {st}")
        elif value == "min_max_ratio":
            fr = kv.fairness_per_seed(res)
            fr = fr[(fr["N"] > 1)]
            fr, _ = kv._select(fr, f=kv.MAIN_F)
            fr, _ = kv.nearest_t_on(fr, 1.0)
            fr = fr[(fr["rtp_setting"] == setting) & (fr["network"] == net)]
            st, num, why = _trend_part(fr, value, mode)
            nums[value] = num
            whys.append(why)
        else:
            st, num, why = _trend_part(per, value, mode)
            nums[value] = num
            whys.append(why)
        sts.append(st)
    return Verdict(_combine(sts), nums, "; ".join(whys))


@_measured
def check_k8_udp(res: Results) -> Verdict:
    """Equal RTPs, TCP+UDP (T_on nearest 1 ms): as N grows the spread (max - min of
    x_i/(C/n)) increases (per-seed slope vs log2 N, CI above 0 -> holds, mean > 0 -> partly)
    and the share of flows within 0.8..1.2 of the fair share decreases (CI below 0 -> holds,
    mean < 0 -> partly); the two parts combined."""
    return _k89_check(res, "equal", "TCP+UDP", [("spread", "up"), ("near_fair", "down")])


@_measured
def check_k8_udp_ef(res: Results) -> Verdict:
    """Equal RTPs, TCP+UDP+EF: the spread increases with N (as K8.1) while the near-fair share
    does not change appreciably (95% CI of the change over the N range within +-0.1 holds,
    |mean change| <= 0.2 partly); the two parts combined."""
    return _k89_check(res, "equal", "TCP+UDP+EF", [("spread", "up"), ("near_fair", "flat")])


@_measured
def check_k9_udp(res: Results) -> Verdict:
    """Unequal RTPs, TCP+UDP: the near-fair share increases with N (CI of the per-seed slope vs
    log2 N above 0 -> holds, mean > 0 -> partly) and the spread remains large (mean spread at
    the largest N >= 1.0 fair share holds, >= 0.5 partly); the two parts combined."""
    return _k89_check(res, "unequal", "TCP+UDP", [("near_fair", "up"), ("spread", "large_at_max_N")])


@_measured
def check_k9_udp_ef(res: Results) -> Verdict:
    """Unequal RTPs, TCP+UDP+EF: fairness changes marginally with N: the near-fair share and M
    each change little over the N range (95% CI of the change within +-0.1 holds, |mean
    change| <= 0.2 partly); the two parts combined."""
    return _k89_check(res, "unequal", "TCP+UDP+EF", [("near_fair", "flat"),
                                                       ("min_max_ratio", "flat")])


# --------------------------------------------------------------------------------------------
# K10: Padhye model error (Fig. 10)
# --------------------------------------------------------------------------------------------

@_measured
def check_k10_padhye(res: Results) -> Verdict:
    """Share of flows (with losses, so that the model applies) whose PFTK prediction error
    |(predicted - observed)/observed| >= 0.10, pooled over all flows; CI from the per-replica
    shares.  Holds if >= 0.7 (paper: 80%), partly holds if >= 0.5, does not hold otherwise."""
    pe = kv.padhye_per_flow(res)
    pe = pe[np.isfinite(pe["padhye_error"].to_numpy(float))]
    if pe.empty:
        return Verdict(NM, {}, "no flow with losses (the model needs p > 0)")
    pe = pe.assign(off=(pe["padhye_error"].abs() >= PADHYE_OFF).astype(float))
    pooled = float(pe["off"].mean())
    per = pe.groupby(["point", "seed"], as_index=False)["off"].mean()
    q = np.quantile(pe["padhye_error"], [0.1, 0.5, 0.9])
    st = _level(pooled, PADHYE_MOST, PADHYE_HALF)
    return Verdict(st, {"share_off_by_10pct_pooled": pooled, "share_per_replica": _one(per, "off"),
                        "flows": int(len(pe)), "error_quantiles_10_50_90": [float(v) for v in q]},
                   f"{100 * pooled:.0f}% of {len(pe)} flows are off by >= 10% (>= "
                   f"{100 * PADHYE_MOST:.0f}% holds, >= {100 * PADHYE_HALF:.0f}% partly)")


# --------------------------------------------------------------------------------------------
# Kf: other EF fractions
# --------------------------------------------------------------------------------------------

def _per_f(res: Results, rows: Callable[[pd.DataFrame, float], pd.Series],
           checks: list[Callable], what: str) -> Verdict:
    rep, _ = kv.prepare(res)
    fs = sorted(rep["f"].dropna().unique())
    nums, sts, whys = {}, [], []
    for fv in fs:
        sel = rep[rows(rep, fv)]
        if sel.empty or not (sel["f"] == fv).any():
            continue
        sub = _subset(res, sel)
        vs = [_safe(c, sub) for c in checks]
        st = _combine(v.status for v in vs)
        if st == NM:
            continue
        nums[f"f={100 * fv:g}%"] = {"status": st, **{c.__name__: {"status": v.status,
                                                                   "reason": v.reason}
                                                        for c, v in zip(checks, vs)}}
        sts.append(st)
        whys.append(f"f = {100 * fv:g}%: {st}")
    return _combined_verdict(sts, nums, whys,
                             f"no EF fraction with {what} data")


@_measured
def check_kf_single_flow(res: Results) -> Verdict:
    """For each EF fraction f among the one-flow EF/CBR rows, the K2.1 test (loss rises then
    falls with T_on); holds if it holds for every f, does not hold if it fails for every f,
    partly holds otherwise."""
    return _per_f(res, lambda r, fv: (r["N"] == 1) & (r["f"] == fv), [check_k2_rise_fall],
                  "one-flow")


@_measured
def check_kf_aggregate(res: Results) -> Verdict:
    """For each f among the multi-flow EF/CBR rows, the K4.1 test (aggregate loss <= 0.05 for
    N >= 20); combined over f as Kf.1."""
    return _per_f(res, lambda r, fv: (r["N"] > 1) & (r["f"] == fv), [check_k4_aggregate],
                  "multi-flow EF/CBR")


@_measured
def check_kf_fairness(res: Results) -> Verdict:
    """For each f, the K5.3 (EF raises M) and K5.4 (smaller T_on raises it more) tests on the
    multi-flow rows of that f plus the networks without EF; per f the two combined, then
    combined over f as Kf.1."""
    return _per_f(res, lambda r, fv: (r["N"] > 1) & ((r["f"] == fv) | r["f"].isna()),
                  [check_k5_ef_raises, check_k5_smaller_t_on], "fairness")


# --------------------------------------------------------------------------------------------
# Conclusions
# --------------------------------------------------------------------------------------------

def _conclusion_from(deps: Mapping[str, Verdict]) -> Verdict:
    """Derived verdict: "not measured" if no dependency was measured; otherwise the combination
    of the measured ones (all hold -> holds, all fail -> does not hold, else partly holds), and
    "holds" becomes "partly holds" when some dependency was not measured."""
    measured = {k: v for k, v in deps.items() if v.status != NM}
    missing = [k for k, v in deps.items() if v.status == NM]
    nums = {k: {"status": v.status, "reason": v.reason} for k, v in deps.items()}
    if not measured:
        return Verdict(NM, nums, f"none of {', '.join(deps)} was measured")
    st = _combine(v.status for v in measured.values())
    why = "; ".join(f"{k}: {v.status}" for k, v in deps.items())
    if missing and st == HOLDS:
        st = PARTLY
        why += f" (not measured: {', '.join(missing)}, so at most partly)"
    return Verdict(st, nums, why)


def _conclusion_check(dep_ids: tuple[str, ...]) -> Callable:
    def check(results_by_family: Mapping[str, Results]) -> Verdict:
        claims = {c.id: c for c in kaur_vin_claims() if not c.is_conclusion}
        return _conclusion_from({i: claims[i].evaluate(results_by_family) for i in dep_ids})
    check.__doc__ = _conclusion_from.__doc__
    return check


# --------------------------------------------------------------------------------------------
# The claim list
# --------------------------------------------------------------------------------------------

def _claim(cid, fig, text, fn, family) -> Claim:
    return Claim(id=cid, figure=fig, text=text, check=fn, family=family, thresholds=_doc(fn))


def kaur_vin_claims() -> list[Claim]:
    """Every claim of FIGURES.md's Kaur & Vin families and the paper's Conclusions 1-4."""
    fam = [
        _claim("K2.1", "Fig. 2a", "The loss in TCP throughput U_CBR - U_EF first increases and "
               "then decreases with increase in the average EF burst size T_on (Sec. 3.1.1).",
               check_k2_rise_fall, "K2"),
        _claim("K2.2", "Fig. 2a", "Burstiness in the EF traffic can cause significant degradation "
               "in TCP throughput; the loss is as high as 50%.", check_k2_peak, "K2"),
        _claim("K2.3", "Fig. 2b", "The number of timeouts has the same shape as the loss: the "
               "loss in throughput is proportional to the number of retransmission timeouts.",
               check_k2_timeouts_shape, "K2"),
        _claim("K2.4", "Fig. 2b", "The maximum number of timeouts is observed at T_on = tau, the "
               "burst duration that fills the link buffer (E[timeouts] = N_bursts x "
               "exp(-tau/T_on)).", check_k2_tau, "K2"),
        _claim("K3.1", "Fig. 3", "The loss in TCP throughput reduces with increase in the TCP "
               "round-trip propagation latency (RTP 6-12 ms).", check_k3_rtp, "K3"),
        _claim("K4.1", "Fig. 4a", "The loss in aggregate TCP throughput due to burstiness in the "
               "EF traffic becomes insignificant in networks that multiplex a large number "
               "(>= 20) of flows.", check_k4_aggregate, "K4"),
        _claim("K4.2", "Fig. 4b", "The number of timeouts per TCP flow increases with increase in "
               "the number of TCP flows.", check_k4_timeouts, "K4"),
        _claim("K5.1", "Fig. 5a", "Without EF (TCP-only, TCP+UDP) the allocation is quite unfair "
               "(small M): even with equal RTPs the throughputs differ by a factor of 5-10.",
               check_k5_small_equal, "K5"),
        _claim("K5.2", "Fig. 5b", "Without EF, with unequal RTPs, the throughputs of TCP flows "
               "differ by a factor as large as 30 (small M).", check_k5_small_unequal, "K5"),
        _claim("K5.3", "Fig. 5", "For both equal and unequal RTPs, min-max fairness improves "
               "considerably in the presence of EF traffic.", check_k5_ef_raises, "K5"),
        _claim("K5.4", "Fig. 5", "The smaller the burst duration of the EF traffic, the larger the "
               "improvement in min-max fairness.", check_k5_smaller_t_on, "K5"),
        _claim("K6.1", "Fig. 6", "With EF (T_on = 1 ms) the maximum difference in the throughput "
               "of TCP flows is reduced.", check_k6_spread, "K6"),
        _claim("K6.2", "Fig. 6", "With EF (T_on = 1 ms) a larger percentage of flows receives "
               "bandwidth close to its fair share.", check_k6_near_fair, "K6"),
        _claim("K7.1", "Fig. 7a", "Equal RTPs: in TCP-only and TCP+UDP networks min-max fairness "
               "decreases quite significantly with increase in the number of TCP flows.",
               check_k7_equal_falls, "K7"),
        _claim("K7.2", "Fig. 7a", "Equal RTPs: with EF the min-max fairness also decreases with N, "
               "but the rate of reduction is smaller.", check_k7_equal_slower, "K7"),
        _claim("K7.3", "Fig. 7b", "Unequal RTPs: both with and without EF, the effect of the number "
               "of TCP flows on min-max fairness is marginal.", check_k7_unequal_marginal, "K7"),
        _claim("K8.1", "Fig. 8a", "Equal RTPs, TCP+UDP: increasing N increases the maximum "
               "difference in throughput and reduces the percentage of flows close to their "
               "fair share.", check_k8_udp, "K8"),
        _claim("K8.2", "Fig. 8b", "Equal RTPs, TCP+UDP+EF: the maximum difference grows with N, "
               "but the percentage of flows close to their fair share does not change "
               "appreciably.", check_k8_udp_ef, "K8"),
        _claim("K9.1", "Fig. 9a", "Unequal RTPs, TCP+UDP: increasing N significantly improves the "
               "percentage of flows close to their fair share, even though the maximum "
               "difference in throughput remains large.", check_k9_udp, "K9"),
        _claim("K9.2", "Fig. 9b", "Unequal RTPs, TCP+UDP+EF: the fairness of the allocation changes "
               "marginally with increase in the number of TCP flows.", check_k9_udp_ef, "K9"),
        _claim("K10.1", "Fig. 10", "The PFTK model of Padhye et al. [23] is off: 80% of the "
               "predictions differ from the observed throughput by at least 10%.",
               check_k10_padhye, "K10"),
        _claim("Kf.1", "Sec. 2.2", "The conclusions hold for EF fractions 5%, 10%, 20% (not only "
               "30%): one flow, loss rises then falls with T_on.", check_kf_single_flow, "Kf"),
        _claim("Kf.2", "Sec. 2.2", "The conclusions hold for every EF fraction: aggregate loss "
               "insignificant for N >= 20.", check_kf_aggregate, "Kf"),
        _claim("Kf.3", "Sec. 2.2", "The conclusions hold for every EF fraction: EF raises M, more "
               "so for smaller T_on.", check_kf_fairness, "Kf"),
    ]
    conc = [
        ("C1", "Conclusion 1", "The throughput of an isolated TCP flow is severely affected in the "
         "presence of higher priority bursty EF traffic; the loss in TCP throughput first "
         "increases and then decreases with increase in the average burst size.",
         ("K2.1", "K2.2")),
        ("C2", "Conclusion 2", "The larger the round-trip propagation latency, the smaller is the "
         "degradation in TCP throughput in the presence of higher priority bursty traffic.",
         ("K3.1",)),
        ("C3", "Conclusion 3", "The aggregate throughput of a large number of TCP flows remains "
         "roughly unaffected in the presence of higher priority EF traffic.", ("K4.1",)),
        ("C4", "Conclusion 4", "Higher priority EF traffic significantly improves the fairness of "
         "TCP flows. The smaller the average burst size, the greater is the improvement in the "
         "fairness.", ("K5.3", "K5.4", "K6.1", "K6.2")),
    ]
    out = [Claim(id=i, figure=fg, text=t, check=_conclusion_check(d), family=None, depends=d,
                 thresholds=_doc(_conclusion_from)) for i, fg, t, d in conc]
    return out + fam


# --------------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------------

_ALIASES = {"K8": ("K8", "K8/K9", "K8K9", "K89"), "K9": ("K9", "K8/K9", "K8K9", "K89"),
            "K6": ("K6", "K5")}


def results_for(family: str, results_by_family: Mapping[str, Results]) -> tuple[Results | None, str | None]:
    """The Results a family's claims read, and the key it came from: the family's own key, an
    alias (K8/K9 together: "K8/K9", "K89"), the K5 data for K6, or for K10 every family's
    flows together (``kaur_vin.combine``)."""
    for key in _ALIASES.get(family, (family,)):
        r = results_by_family.get(key)
        if r is not None:
            return r, key
    if family == "K10":
        parts, seen = [], set()
        for k, r in results_by_family.items():      # the same Results under several keys once
            if r is not None and id(r) not in seen:
                seen.add(id(r))
                parts.append((k, r))
        if parts:
            return kv.combine([r for _, r in parts], labels=[k for k, _ in parts],
                              label_col="family"), "all families"
    return None, None


def evaluate_all(results_by_family: Mapping[str, Results],
                 claims: list[Claim] | None = None) -> dict[str, Verdict]:
    """Verdict of every claim (family claims once each; conclusions from their verdicts)."""
    claims = claims if claims is not None else kaur_vin_claims()
    out: dict[str, Verdict] = {}
    for c in claims:
        if not c.is_conclusion:
            out[c.id] = c.evaluate(results_by_family)
    for c in claims:
        if c.is_conclusion:
            deps = {i: out[i] if i in out else Verdict(NM, {}, f"{i} is not in the claim list")
                    for i in c.depends}
            out[c.id] = _conclusion_from(deps)
    return out


# --------------------------------------------------------------------------------------------
# Report writing (markdown + self-contained HTML)
# --------------------------------------------------------------------------------------------

FAMILY_ORDER = ("K2", "K3", "K4", "K5", "K6", "K7", "K8", "K9", "K10", "Kf")
FAMILY_TITLES = {
    "K2": "Fig. 2: effect of EF burstiness on one TCP flow",
    "K3": "Fig. 3: effect of the RTP on the loss in TCP throughput",
    "K4": "Fig. 4: many TCP flows, loss in aggregate throughput and timeouts per flow",
    "K5": "Fig. 5: fairness (min-max ratio) vs EF burst duration",
    "K6": "Fig. 6: normalized throughput with and without EF (T_on = 1 ms)",
    "K7": "Fig. 7: fairness vs number of TCP flows",
    "K8": "Fig. 8: normalized throughput per N, equal RTPs",
    "K9": "Fig. 9: normalized throughput per N, unequal RTPs",
    "K10": "Fig. 10: error of the Padhye et al. model",
    "Kf": "Other EF fractions (5, 10, 20%)",
    "K2v": "Why Fig. 2 differs: the same experiment with NewReno, with 2000-era ns-2 timers, "
           "and in ns-2.35 itself",
    "K5v": "Why the fairness results differ: Figs. 5 and 7 with same-slot arrivals in "
           "flow-index order (no timing noise, as in ns-2)",
}
_COLOR = {HOLDS: "#1a7f37", PARTLY: "#9a6700", NOT: "#cf222e", NM: "#57606a"}


def _fmt_num(x) -> str:
    if isinstance(x, bool) or x is None:
        return str(x)
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        if not math.isfinite(x):
            return "n/a"
        return f"{x:.4g}"
    return str(x)


def _is_ci(v) -> bool:
    return isinstance(v, dict) and "mean" in v and "ci95" in v


def _fmt_ci(v: dict) -> str:
    lo, hi = v["ci95"]
    ci = "n/a" if lo is None or hi is None else f"{_fmt_num(lo)} .. {_fmt_num(hi)}"
    return f"{_fmt_num(v['mean'])} (95% CI {ci}, n = {v.get('n', '?')})"


def _num_lines(nums, depth: int = 0) -> list[tuple[int, str, str | None]]:
    """Flatten ``numbers`` to (depth, key, formatted value or None for a heading)."""
    out = []
    for k, v in nums.items():
        if _is_ci(v):
            out.append((depth, str(k), _fmt_ci(v)))
        elif isinstance(v, dict):
            if not v:
                continue
            out.append((depth, str(k), None))
            out.extend(_num_lines(v, depth + 1))
        elif isinstance(v, (list, tuple)):
            if not v:
                continue
            out.append((depth, str(k), ", ".join(_fmt_num(x) for x in v)))
        else:
            out.append((depth, str(k), _fmt_num(v)))
    return out


def _jsonable(obj):
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(float(obj)) else None
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


class _Doc:
    """Builds the markdown and the HTML of the report side by side."""

    def __init__(self, out_dir: Path):
        self.md: list[str] = []
        self.html: list[str] = []
        self.out_dir = out_dir

    def h(self, level: int, text: str, anchor: str | None = None) -> None:
        self.md += ["", "#" * level + " " + text, ""]
        a = f' id="{html.escape(anchor)}"' if anchor else ""
        self.html.append(f"<h{level}{a}>{html.escape(text)}</h{level}>")

    def p(self, text: str) -> None:
        self.md += [text, ""]
        self.html.append(f"<p>{html.escape(text)}</p>")

    def pre(self, text: str) -> None:
        self.md += ["```", text.rstrip(), "```", ""]
        self.html.append(f"<pre>{html.escape(text.rstrip())}</pre>")

    def quote(self, text: str) -> None:
        self.md += ["> " + text, ""]
        self.html.append(f"<blockquote>{html.escape(text)}</blockquote>")

    def ul(self, items: list[str]) -> None:
        self.md += [f"- {i}" for i in items] + [""]
        self.html.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>")

    def table(self, header: list[str], rows: list[list[str]], status_col: int | None = None) -> None:
        esc = lambda s: str(s).replace("|", "\\|").replace("\n", " ")
        self.md.append("| " + " | ".join(esc(h) for h in header) + " |")
        self.md.append("|" + "---|" * len(header))
        for r in rows:
            self.md.append("| " + " | ".join(esc(c) for c in r) + " |")
        self.md.append("")
        hh = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
        body = []
        for r in rows:
            cells = []
            for j, c in enumerate(r):
                style = (f' style="color:{_COLOR.get(str(c), "inherit")};font-weight:bold"'
                         if status_col == j else "")
                cells.append(f"<td{style}>{html.escape(str(c))}</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        self.html.append(f"<table><tr>{hh}</tr>{''.join(body)}</table>")

    def image(self, path: Path, alt: str) -> None:
        path = Path(path)
        rel = os.path.relpath(path.resolve(), self.out_dir.resolve())
        if path.suffix.lower() == ".png":
            self.md += [f"![{alt}]({Path(rel).as_posix()})", ""]
            try:
                data = base64.b64encode(path.read_bytes()).decode("ascii")
                self.html.append(f'<p><img alt="{html.escape(alt)}" '
                                 f'src="data:image/png;base64,{data}"></p>')
            except OSError as e:
                self.html.append(f"<p><em>image {html.escape(str(path))} unreadable: "
                                 f"{html.escape(str(e))}</em></p>")
        else:
            self.md += [f"[{alt} ({path.suffix.lstrip('.')})]({Path(rel).as_posix()})", ""]
            self.html.append(f'<p><a href="{html.escape(Path(rel).as_posix())}">'
                             f"{html.escape(alt)} ({html.escape(path.suffix.lstrip('.'))})</a></p>")

    def verdict(self, claim: Claim, v: Verdict) -> None:
        self.md += [f"**Verdict: {v.status}** — {v.reason}", ""]
        self.html.append(f'<p class="verdict"><span class="status" style="background:'
                         f'{_COLOR[v.status]}">{html.escape(v.status)}</span> '
                         f"{html.escape(v.reason)}</p>")
        lines = _num_lines(v.numbers)
        if lines:
            self.md.append("Measured:")
            self.md.append("")
            for d, k, val in lines:
                self.md.append("  " * d + f"- {k}" + (f": {val}" if val is not None else ""))
            self.md.append("")
            # nested HTML list
            out, depth = ["<ul>"], 0
            for d, k, val in lines:
                while depth < d:
                    out.append("<ul>")
                    depth += 1
                while depth > d:
                    out.append("</ul>")
                    depth -= 1
                out.append(f"<li><b>{html.escape(k)}</b>"
                           + (f": {html.escape(val)}" if val is not None else "") + "</li>")
            out += ["</ul>"] * (depth + 1)
            self.html.append('<details><summary>Measured numbers</summary>' + "".join(out)
                             + "</details>")
        if claim.thresholds:
            self.md += [f"*Test:* {claim.thresholds}", ""]
            self.html.append(f'<p class="test"><em>Test:</em> {html.escape(claim.thresholds)}</p>')


_CSS = """body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;line-height:1.45;color:#1f2328}img{max-width:100%;border:1px solid #d0d7de}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #d0d7de;padding:3px 8px;
text-align:left;vertical-align:top}th{background:#f6f8fa}blockquote{border-left:4px solid #d0d7de;
margin:0.5em 0;padding:0.2em 1em;color:#424a53}.status{color:white;padding:1px 8px;
border-radius:10px;font-weight:bold}pre{background:#f6f8fa;padding:0.8em;overflow-x:auto}
.test{font-size:0.85em;color:#57606a}details{margin:0.3em 0 0.8em 0}"""


def write_report(results_by_family: Mapping[str, Results], out_dir, figures: Mapping[str, list] | None = None,
                 assumptions: list[str] | None = None, setup: str = "",
                 timings: Mapping | None = None,
                 notes: Mapping[str, str] | None = None) -> tuple[Path, Path]:
    """Write ``out_dir/report.md``, ``out_dir/report.html`` (self-contained: PNG figures inline
    as base64) and ``out_dir/verdicts.json``.

    ``results_by_family``: family id ("K2", ..., "Kf") -> Results; ``figures``: family id ->
    image paths (PNG shown; other files linked); ``assumptions``: every value the paper does
    not give; ``setup``: free text (build, machine, sweep files); ``timings``: name -> seconds
    (or any value).  Sections: summary, set-up, assumptions, the four conclusions, then per
    figure family its images, and per claim the paper's text, the measured numbers with 95%
    CIs, the verdict and the reason.  Returns (report.md, report.html)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    figures = dict(figures or {})
    claims = kaur_vin_claims()
    verdicts = evaluate_all(results_by_family, claims)
    doc = _Doc(out_dir)

    doc.h(1, "Kaur & Vin, \"Effect of Higher Priority EF Traffic on TCP Throughput and "
             "Fairness\": reproduction report")
    try:
        from diffsweep import __version__ as ver  # type: ignore[attr-defined]
    except ImportError:
        ver = None
    stamp = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    doc.p(f"Generated {stamp} by diffsweep{' ' + ver if ver else ''}. Every verdict below is "
          "computed from the simulation tables by the checks in diffsweep.report; the test of "
          "each claim and its thresholds are printed under it. Error bars and intervals are "
          "95% Student-t confidence intervals over seeds.")

    doc.h(2, "Summary", "summary")
    counts = {s: sum(1 for v in verdicts.values() if v.status == s) for s in STATUSES}
    doc.p(", ".join(f"{counts[s]} {s}" for s in STATUSES))
    doc.table(["claim", "figure", "status", "claim text"],
              [[c.id, c.figure, verdicts[c.id].status, c.text] for c in claims], status_col=2)

    doc.h(2, "Set-up", "setup")
    if setup:
        doc.pre(setup)
    rows = []
    for fam_id, r in results_by_family.items():
        if r is None:
            continue
        meta = getattr(r, "meta", {}) or {}
        reps = len(r.replicas)
        seeds = r.replicas["seed"].nunique() if "seed" in r.replicas.columns else "?"
        points = r.replicas["point"].nunique() if "point" in r.replicas.columns else "?"
        wall = meta.get("wall_s")
        rows.append([fam_id, points, seeds, reps, len(r.flows), meta.get("backend") or "",
                     meta.get("device") or "", "" if wall is None else _fmt_num(wall)])
    if rows:
        doc.table(["family", "points", "seeds", "replicas", "flow rows", "backend", "device",
                   "engine wall s"], rows)
    if timings:
        doc.table(["timing", "value"],
                  [[k, (f"{float(v):.1f} s" if isinstance(v, (int, float, np.floating)) else str(v))]
                   for k, v in timings.items()])

    doc.h(2, "Assumptions (values the paper does not give)", "assumptions")
    if assumptions:
        doc.ul([str(a) for a in assumptions])
    else:
        doc.p("None listed.")

    doc.h(2, "Conclusions", "conclusions")
    for c in claims:
        if not c.is_conclusion:
            continue
        doc.h(3, f"{c.id}: {c.figure}", c.id)
        doc.quote(c.text)
        fams = []
        for d in c.depends:
            fam = next((x.family for x in claims if x.id == d), None)
            if fam and fam not in fams:
                fams.append(fam)
        for fam in fams:
            for p in figures.get(fam, []):
                if Path(p).suffix.lower() == ".png":
                    doc.image(Path(p), f"{fam} {Path(p).stem}")
        doc.p("Derived from: " + ", ".join(f"{d} ({verdicts[d].status})" for d in c.depends))
        doc.verdict(c, verdicts[c.id])

    doc.h(2, "Figures and claims", "figures")
    fams = [f for f in FAMILY_ORDER] + [f for f in figures if f not in FAMILY_ORDER]
    for fam_id in fams:
        fam_claims = [c for c in claims if c.family == fam_id]
        imgs = figures.get(fam_id, [])
        if not fam_claims and not imgs:
            continue
        doc.h(3, f"{fam_id}: {FAMILY_TITLES.get(fam_id, '')}".rstrip(": "), fam_id)
        if notes and fam_id in notes:
            doc.p(notes[fam_id])
        res, key = results_for(fam_id, results_by_family) if fam_claims else (None, None)
        if fam_claims and res is None:
            doc.p(f"No results for {fam_id}: its claims are not measured.")
        elif key and key != fam_id:
            doc.p(f"Data: {key}.")
        png = [Path(p) for p in imgs if Path(p).suffix.lower() == ".png"]
        other = [Path(p) for p in imgs if Path(p).suffix.lower() != ".png"]
        for p in png + other:
            doc.image(p, f"{fam_id} {p.stem}")
        if not imgs:
            doc.p("(no figure)")
        for c in fam_claims:
            doc.h(4, f"{c.id} ({c.figure})", c.id)
            doc.quote(c.text)
            doc.verdict(c, verdicts[c.id])

    md_path, html_path = out_dir / "report.md", out_dir / "report.html"
    md_path.write_text("\n".join(doc.md).lstrip() + "\n", encoding="utf-8")
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>Kaur &amp; Vin reproduction report</title>"
            f"<style>{_CSS}</style></head><body>\n" + "\n".join(doc.html) + "\n</body></html>\n")
    html_path.write_text(page, encoding="utf-8")
    (out_dir / "verdicts.json").write_text(json.dumps(
        {cid: {"status": v.status, "reason": v.reason, "numbers": _jsonable(v.numbers)}
         for cid, v in verdicts.items()}, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    return md_path, html_path
