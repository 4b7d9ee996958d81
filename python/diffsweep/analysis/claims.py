"""Claims and verdicts, for every paper: the claim model, the verdict rules and their evaluation.

A :class:`Claim` carries a paper's statement and a ``check`` function; the check returns a
:class:`Verdict` with a status in ``STATUSES``, the measured numbers with their 95% confidence
intervals over seeds and the reason for the status. The papers' checks
(``diffsweep.papers.<paper>.claims``) are built from the rules here, so that every paper rates
its claims the same way:

* a "curve" is ``metrics.mean_ci`` of a per-seed value per x point; its "half-width" at a point
  is (ci_high - ci_low) / 2 (0 when n < 2);
* a trend in x is the per-seed least-squares slope of the value against log(x), averaged over
  seeds with a 95% CI (``trend``); a trend "is significant" when that CI excludes 0
  (``sign_status``); "no appreciable change" is an equivalence test on the CI
  (``flat_status``);
* a comparison of two settings is the per-seed paired difference (``paired``: same seed = same
  random draws), with a 95% CI; significant when the CI excludes 0;
* several sub-results combine as: all hold -> holds, all do not hold -> does not hold,
  otherwise partly holds (``combine_statuses``);
* missing data (a network, an axis, a family) gives "not measured", never a guess
  (``measured``, ``safe``);
* a conclusion's verdict is derived from the verdicts of the claims it depends on
  (``conclusion_from``).
"""
from __future__ import annotations

import contextlib
import functools
import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from diffsweep.analysis import confidence, metrics
from diffsweep.core.results import Results

__all__ = ["STATUSES", "HOLDS", "PARTLY", "NOT", "NM", "Claim", "Verdict", "evaluate_all",
           "point_estimates",
           "exact_lookup", "conclusion_from", "measured", "safe", "doc_text", "finite_or_none",
           "ci_dict", "half_width", "overall_ci", "combine_statuses", "combined_verdict", "level_ci",
           "ci_words", "sign_words", "flat_words",
           "sign_status", "flat_status", "rise_fall", "slopes", "trend", "paired", "pearson",
           "spearman", "subset"]

STATUSES = ("holds", "partly holds", "does not hold", "not measured")
HOLDS, PARTLY, NOT, NM = STATUSES


def exact_lookup(family: str, results_by_family: Mapping[str, Results]) -> tuple[Results | None, str | None]:
    """The default ``Claim.lookup``: the Results stored under the family's own id."""
    r = results_by_family.get(family)
    return (r, family) if r is not None else (None, None)


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
    #: (family, results_by_family) -> (Results or None, key it came from): how the paper finds
    #: a family's data (aliases, shared data); default: the family's own key.
    lookup: Callable = field(default=exact_lookup, repr=False, compare=False)

    @property
    def is_conclusion(self) -> bool:
        return self.family is None

    def evaluate(self, results_by_family: Mapping[str, Results]) -> Verdict:
        """The verdict of this claim on ``results_by_family`` (family looked up with
        ``lookup``); a missing family or an unreadable table gives "not measured"."""
        if self.is_conclusion:
            return self.check(results_by_family)
        res, key = self.lookup(self.family, results_by_family)
        if res is None:
            return Verdict(NM, {}, f"no results for family {self.family}")
        v = _rated(self.check, res)
        if key != self.family:
            v = Verdict(v.status, {"data": key, **v.numbers}, f"(data of {key}) {v.reason}")
        return v


@contextlib.contextmanager
def point_estimates():
    """Within this block every check rates its point estimates: each 95% interval of
    ``metrics.mean_ci`` (and so ``overall_ci``, ``trend``, ...) is the mean alone, [mean,
    mean], even for one seed. The verdict is then what the check would give with ever more
    seeds; where it differs from the verdict on the intervals, the intervals are too wide to
    decide (``diffsweep.studies.atlas``: "undecided"). Not thread-safe: checks run in one thread."""
    old = confidence._POINT_ESTIMATES
    confidence._POINT_ESTIMATES = True
    try:
        yield
    finally:
        confidence._POINT_ESTIMATES = old


def _rated(check: Callable, res) -> Verdict:
    """``safe(check, res)``, once per check and Results object while its tables are the same
    frames (as ``results.per_results``): a family's ``make`` hook that rates claims on the
    primary data again, beside its variants, after ``reproduce`` rated them on the same
    Results objects, gets those verdicts. A check is a function of the tables; a Verdict is
    never changed."""
    if not isinstance(res, Results):
        return safe(check, res)
    memo = res.__dict__.setdefault("_verdicts", {})
    # a verdict on the point estimates (point_estimates) is another verdict
    key = (check, confidence._POINT_ESTIMATES,
           *((id(t), len(t), len(t.columns)) for t in (res.replicas, res.flows, res.queues)))
    if key not in memo:
        memo[key] = safe(check, res)
    return memo[key]


def safe(check: Callable, res) -> Verdict:
    try:
        return check(res)
    except ValueError as e:       # includes diffsweep.core.errors.ConfigError: a missing column
        return Verdict(NM, {}, f"cannot be computed from these tables: {e}")


def measured(check: Callable) -> Callable:
    """A check that answers "not measured" (naming the missing column or rows) instead of
    raising when its tables lack what it needs."""
    @functools.wraps(check)
    def wrapper(res):
        return safe(check, res)
    return wrapper


def doc_text(fn) -> str:
    d = (fn.__doc__ or "").strip()
    return " ".join(d.split())


# --------------------------------------------------------------------------------------------
# Small helpers on curves and per-seed tables
# --------------------------------------------------------------------------------------------

def finite_or_none(x) -> float | None:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def ci_dict(row) -> dict:
    """A curve row (mean, ci_low, ci_high, n) as a JSON-able dict."""
    return {"mean": finite_or_none(row["mean"]), "ci95": [finite_or_none(row["ci_low"]), finite_or_none(row["ci_high"])],
            "n": int(row["n"])}


def half_width(row) -> float:
    lo, hi = finite_or_none(row["ci_low"]), finite_or_none(row["ci_high"])
    return 0.0 if lo is None or hi is None else (hi - lo) / 2.0


def overall_ci(df: pd.DataFrame, value: str, bounds: tuple[float, float] | None = None) -> dict:
    """Mean of ``value`` over all rows with its 95% CI (``metrics.mean_ci``; ``bounds`` for a
    bounded quantity) as a ``ci_dict``."""
    return ci_dict(metrics.mean_ci(df, None, value, bounds=bounds).iloc[0])


def combine_statuses(statuses: Iterable[str]) -> str:
    s = [x for x in statuses if x != NM]
    if not s:
        return NM
    if all(x == HOLDS for x in s):
        return HOLDS
    if all(x == NOT for x in s):
        return NOT
    return PARTLY


def combined_verdict(sts: list[str], nums: dict, whys: list[str], missing: str,
                      notes=None, suffix: str = "") -> Verdict:
    """The verdict of a check made of several sub-results (networks, RTP settings, fractions):
    'not measured' with ``missing`` when there is none, else ``combine_statuses`` of their statuses."""
    if not sts:
        return Verdict(NM, {}, missing)
    if notes is not None:
        nums["selection"] = notes
    return Verdict(combine_statuses(sts), nums, "; ".join(whys) + suffix)


def level_ci(ci: dict, hold_at: float, partly_at: float, higher_is_better: bool = True) -> str:
    """A value against two thresholds, rated on its 95% CI (``ci_dict``), never on the mean
    alone: (higher is better) holds if the whole interval is >= ``hold_at``, does not hold if
    the whole interval is below ``partly_at``, partly holds otherwise (the interval reaches
    across a threshold); lower is better mirrors it. Without an interval (n < 2) the mean
    stands for both ends, and "holds" becomes "partly holds"."""
    m, (lo, hi) = ci["mean"], ci["ci95"]
    if m is None or not math.isfinite(m):
        return NM
    no_interval = lo is None or hi is None
    if no_interval:
        lo = hi = m
    if not higher_is_better:
        lo, hi, hold_at, partly_at = -hi, -lo, -hold_at, -partly_at
    st = HOLDS if lo >= hold_at else (NOT if hi < partly_at else PARTLY)
    return PARTLY if st == HOLDS and no_interval else st


def ci_words(ci: dict, fmt: str = ".3g") -> str:
    """"0.12 (95% CI 0.05 to 0.19)", or "0.12 (one value, no interval)"."""
    m, (lo, hi) = ci["mean"], ci["ci95"]
    if m is None:
        return "undefined"
    if lo is None or hi is None:
        return f"{m:{fmt}} (no interval: fewer than 2 seeds)"
    return f"{m:{fmt}} (95% CI {lo:{fmt}} to {hi:{fmt}})"


def sign_status(ci: dict, direction: int) -> str:
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


def linear_status(ci: dict, r2: float | None, min_r2: float) -> str:
    """"Linear and rising": the per-seed slopes' CI (``ci_dict``) above 0 and the line through
    the seed-mean curve with R^2 >= ``min_r2`` holds; a mean slope <= 0 does not hold; partly
    otherwise."""
    if ci["mean"] is None or ci["mean"] <= 0:
        return NOT
    if sign_status(ci, +1) == HOLDS and r2 is not None and r2 >= min_r2:
        return HOLDS
    return PARTLY


def flat_status(ci: dict, within: float, partly_within: float) -> str:
    """"No appreciable change" (an equivalence test on the 95% CI of the change): holds if the
    whole interval lies within +-``within``, partly holds if it lies within +-``partly_within``,
    does not hold otherwise. Without an interval (n < 2): partly holds at best."""
    m, (lo, hi) = ci["mean"], ci["ci95"]
    if m is None:
        return NM
    if lo is None or hi is None:
        return PARTLY if abs(m) <= partly_within else NOT
    if -within <= lo and hi <= within:
        return HOLDS
    return PARTLY if -partly_within <= lo and hi <= partly_within else NOT


def sign_words(ci: dict, direction: int) -> str:
    """What ``sign_status`` saw, in words: "significantly above 0", "above 0 but not
    significantly (its interval includes 0)" or "not above 0" (direction -1: below)."""
    m, (lo, hi) = ci["mean"], ci["ci95"]
    side = "above" if direction > 0 else "below"
    if m is None:
        return "undefined"
    if (direction > 0 and lo is not None and lo > 0) or (direction < 0 and hi is not None and hi < 0):
        return f"significantly {side} 0"
    if (m > 0) if direction > 0 else (m < 0):
        return f"{side} 0 but not significantly (its interval includes 0)"
    return f"not {side} 0"


def flat_words(ci: dict, within: float, partly_within: float) -> str:
    """What ``flat_status`` saw, in words."""
    lo, hi = ci["ci95"]
    if lo is None or hi is None:
        return "no interval (fewer than 2 seeds)"
    if -within <= lo and hi <= within:
        return f"the whole interval is within +-{within}: no appreciable change"
    if -partly_within <= lo and hi <= partly_within:
        return f"the interval is within +-{partly_within} but not +-{within}"
    return f"the interval reaches beyond +-{partly_within}: an appreciable change"


def rise_fall(c: pd.DataFrame, x: str) -> tuple[str, dict, str]:
    """Shape test of a curve: holds if its maximum is at an interior point and both end points
    are below the peak by more than the peak's CI half-width; partly if only one end is;
    does not hold otherwise."""
    c = c.sort_values(x).reset_index(drop=True)
    m = c["mean"].to_numpy(dtype=float)
    if len(m) < 3 or not np.isfinite(m).any():
        return NM, {}, f"needs >= 3 {x} points (found {len(m)})"
    i = int(np.nanargmax(m))
    peak, half = m[i], half_width(c.iloc[i])
    left = i > 0 and m[0] < peak - half
    right = i < len(m) - 1 and m[-1] < peak - half
    info = {"peak_at": finite_or_none(c[x].iloc[i]), "peak": ci_dict(c.iloc[i]), "first": ci_dict(c.iloc[0]),
            "last": ci_dict(c.iloc[-1]), "interior_peak": bool(0 < i < len(m) - 1)}
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


def slopes(df: pd.DataFrame, x: str, value: str, log=np.log2, by: list[str] = ()) -> pd.DataFrame:
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


def trend(df: pd.DataFrame, x: str, value: str, log=np.log2) -> dict | None:
    """Mean per-seed slope (per log unit of x) with CI, and the change over the x range."""
    s = slopes(df, x, value, log)
    if s.empty:
        return None
    xs = df[x].dropna().to_numpy(dtype=float)
    span = float(log(xs.max()) - log(xs.min()))
    sl = overall_ci(s, "slope")
    ch = {"mean": None if sl["mean"] is None else sl["mean"] * span,
          "ci95": [None if v is None else v * span for v in sl["ci95"]], "n": sl["n"]}
    return {"slope_per_log_unit": sl, "change_over_range": ch,
            "range": [float(xs.min()), float(xs.max())]}


def paired(a: pd.DataFrame, b: pd.DataFrame, value: str,
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


def pearson(x: np.ndarray, y: np.ndarray) -> float | None:
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.sum() < 3 or np.std(x[ok]) == 0 or np.std(y[ok]) == 0:
        return None
    return float(np.corrcoef(x[ok], y[ok])[0, 1])


def spearman(x, y) -> float | None:
    x, y = pd.Series(np.asarray(x, dtype=float)), pd.Series(np.asarray(y, dtype=float))
    if len(x) < 2:
        return None
    return pearson(x.rank().to_numpy(), y.rank().to_numpy()) if len(x) >= 3 else \
        float(np.sign((x.iloc[1] - x.iloc[0]) * (y.iloc[1] - y.iloc[0])))


def subset(res: Results, keys: pd.DataFrame) -> Results:
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
# Conclusions
# --------------------------------------------------------------------------------------------

def paper_claim(cid: str, figure: str, text: str, check: Callable, family: str) -> Claim:
    """A paper's claim whose thresholds are its check's docstring (the papers' claim lists)."""
    return Claim(id=cid, figure=figure, text=text, check=check, family=family,
                 thresholds=doc_text(check))


def conclusion_from(deps: Mapping[str, Verdict]) -> Verdict:
    """Derived verdict: "not measured" if no dependency was measured; otherwise the combination
    of the measured ones (all hold -> holds, all fail -> does not hold, else partly holds), and
    "holds" becomes "partly holds" when some dependency was not measured."""
    measured = {k: v for k, v in deps.items() if v.status != NM}
    missing = [k for k, v in deps.items() if v.status == NM]
    nums = {k: {"status": v.status, "reason": v.reason} for k, v in deps.items()}
    if not measured:
        return Verdict(NM, nums, f"none of {', '.join(deps)} was measured")
    st = combine_statuses(v.status for v in measured.values())
    why = "; ".join(f"{k}: {v.status}" for k, v in deps.items())
    if missing and st == HOLDS:
        st = PARTLY
        why += f" (not measured: {', '.join(missing)}, so at most partly)"
    return Verdict(st, nums, why)


def conclusion_check(dep_ids: tuple[str, ...], claims: Callable[[], list[Claim]]) -> Callable:
    """The ``check`` of a conclusion: ``conclusion_from`` the verdicts of the claims ``dep_ids``
    of the list ``claims()``."""
    def check(results_by_family: Mapping[str, Results]) -> Verdict:
        by_id = {c.id: c for c in claims() if not c.is_conclusion}
        return conclusion_from({i: by_id[i].evaluate(results_by_family) for i in dep_ids})
    check.__doc__ = conclusion_from.__doc__
    return check


def evaluate_all(results_by_family: Mapping[str, Results], claims: list[Claim],
                 not_run: Mapping[str, str] | None = None) -> dict[str, Verdict]:
    """Verdict of every claim (family claims once each; conclusions from their verdicts).
    ``not_run``: family id -> reason, for families whose data was not produced: their claims
    are "not measured" with that reason, even where ``lookup`` would find other data for them
    (it would rate them on part of what they need)."""
    out: dict[str, Verdict] = {}
    not_run = not_run or {}
    for c in claims:
        if not c.is_conclusion:
            out[c.id] = (Verdict(NM, {}, not_run[c.family]) if c.family in not_run
                         else c.evaluate(results_by_family))
    for c in claims:
        if c.is_conclusion:
            deps = {i: out[i] if i in out else Verdict(NM, {}, f"{i} is not in the claim list")
                    for i in c.depends}
            out[c.id] = conclusion_from(deps)
    return out
