"""The claims of Matta & Guo (families M3, M4, M5), checked against ``tables.per_seed`` (Jain's
index per class per 20-s interval, averaged over the intervals after the first; goodput per
class). Means and 95% Student-t CIs are over seeds; sub-results (k points) combine as usual.

Thresholds: "about 1.0": the CI of the isolated short flows' fairness >= ``ABOUT_ONE`` = 0.95
holds, all below 0.9 does not hold; "below 0.8" (sharing, small pipe k = 1): CI below 0.8
holds, CI all >= 0.8 does not hold; "linear in k": the line through the seed-mean long-class
goodput against k has R^2 >= ``LINEAR_R2`` = 0.98 and the per-seed slopes' CI is above 0;
"falls" (sharing short goodput vs k_b/k_c): per-seed slope CI below 0; "steady" (isolation):
the seed-mean short goodput varies by at most ``STEADY`` = 15% of its mean over k_b/k_c.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep import claims as cl
from diffsweep.claims import HOLDS, NM, NOT, PARTLY, Claim, Verdict
from diffsweep.results import Results

from . import tables as mt

__all__ = ["matta_guo_claims", "ABOUT_ONE", "LINEAR_R2", "STEADY"]

ABOUT_ONE = 0.95
LINEAR_R2 = 0.98
STEADY = 0.15
SMALL = 0.8


def _lin(v):
    return np.asarray(v, dtype=float)


def _sel(res: Results, mode: str, cls: str) -> pd.DataFrame:
    ps = mt.per_seed(res)
    return ps[(ps["mode"] == mode) & (ps["cls"] == cls)]


@cl.measured
def check_short_fair(res: Results) -> Verdict:
    """Isolation, short class, at every k: the fairness index (mean over 20-s intervals) with
    its 95% CI over seeds; holds if the whole interval is >= 0.95 ("about 1.0"), does not hold
    if it is all below 0.9, partly otherwise; combined over k."""
    d = _sel(res, "isolation", "short")
    sts, nums, whys = [], {}, []
    for k, g in d.groupby("k"):
        ci = cl.overall_ci(g, "jain_index", bounds=(0.0, 1.0))
        sts.append(cl.level_ci(ci, ABOUT_ONE, 0.9))
        nums[f"k {k:g}"] = {"jain_short": ci}
        whys.append(f"k {k:g}: {cl.ci_words(ci)}")
    return cl.combined_verdict(sts, nums, whys, "no isolation runs",
                               suffix=f" (holds at >= {ABOUT_ONE})")


@cl.measured
def check_shared_short_unfair(res: Results) -> Verdict:
    """Sharing, short class, at the smallest pipe (k = 1, total 2 C_u): the fairness index with
    its 95% CI; holds if the whole interval is below 0.8, does not hold if it is all >= 0.8,
    partly otherwise. The isolated short flows' index at k = 1 is given beside it."""
    d = _sel(res, "sharing", "short")
    if d.empty:
        return Verdict(NM, {}, "no sharing runs")
    kmin = d["k"].min()
    ci = cl.overall_ci(d[d["k"] == kmin], "jain_index", bounds=(0.0, 1.0))
    st = cl.level_ci(ci, SMALL, SMALL, higher_is_better=False)
    lo, hi = ci["ci95"]
    if st == PARTLY or (lo is not None and hi is not None and lo < SMALL <= hi):
        st = PARTLY
    iso = _sel(res, "isolation", "short")
    nums = {"jain_short_sharing": ci}
    why = f"sharing, k = {kmin:g}: short fairness {cl.ci_words(ci)} (holds below {SMALL})"
    if not iso.empty:
        ic = cl.overall_ci(iso[iso["k"] == iso["k"].min()], "jain_index",
                             bounds=(0.0, 1.0))
        nums["jain_short_isolation"] = ic
        why += f"; isolation {cl.ci_words(ic)}"
    return Verdict(st, nums, why)


@cl.measured
def check_linear(res: Results) -> Verdict:
    """Isolation, long class: the least-squares line of the goodput against k; holds if R^2 of
    the line through the seed-mean curve is >= 0.98 and the per-seed slopes' 95% CI is above
    0, does not hold if the mean slope is <= 0, partly otherwise (needs >= 3 k points)."""
    d = _sel(res, "isolation", "long")
    if d["k"].nunique() < 3:
        return Verdict(NM, {}, "fewer than 3 k points under isolation")
    s = cl.slopes(d, "k", "goodput_mbps", log=_lin)
    ci = cl.overall_ci(s, "slope")
    c = d.groupby("k")["goodput_mbps"].mean()
    xs, ys = c.index.to_numpy(float), c.to_numpy(float)
    fit = np.polyval(np.polyfit(xs, ys, 1), xs)
    sst = float(((ys - ys.mean()) ** 2).sum())
    r2 = 1.0 - float(((ys - fit) ** 2).sum()) / sst if sst > 0 else None
    if ci["mean"] is None or ci["mean"] <= 0:
        st = NOT
    elif cl.sign_status(ci, +1) == HOLDS and r2 is not None and r2 >= LINEAR_R2:
        st = HOLDS
    else:
        st = PARTLY
    return Verdict(st, {"slope_mbps_per_k": ci, "r2": r2},
                   f"long goodput slope {cl.ci_words(ci)} Mb/s per unit k, R^2 "
                   + ("undefined" if r2 is None else f"{r2:.4f}")
                   + f" (holds: slope CI > 0 and R^2 >= {LINEAR_R2})")


@cl.measured
def check_buffer(res: Results) -> Verdict:
    """Short class against k_b/k_c: sharing, the per-seed least-squares slope of the goodput,
    with its 95% CI (falls: CI below 0); isolation, the spread (max - min) of the seed-mean
    goodput over k_b/k_c relative to its mean (steady: <= 15%). Holds if both, partly if one,
    does not hold if neither."""
    sh = _sel(res, "sharing", "short")
    iso = _sel(res, "isolation", "short")
    if sh["buffer_ratio"].nunique() < 2 or iso["buffer_ratio"].nunique() < 2:
        return Verdict(NM, {}, "needs >= 2 buffer ratios under both isolation and sharing")
    s = cl.slopes(sh, "buffer_ratio", "goodput_mbps", log=_lin)
    ci = cl.overall_ci(s, "slope")
    falls = cl.sign_status(ci, -1)
    c = iso.groupby("buffer_ratio")["goodput_mbps"].mean()
    spread = float((c.max() - c.min()) / c.mean()) if c.mean() > 0 else float("inf")
    steady = HOLDS if spread <= STEADY else NOT
    st = cl.combine_statuses([falls, steady])
    return Verdict(st, {"sharing_slope_mbps_per_ratio": ci, "isolation_rel_spread": spread},
                   f"sharing short goodput slope {cl.ci_words(ci)} Mb/s per unit k_b/k_c, "
                   f"{cl.sign_words(ci, -1)}; isolation spread {100 * spread:.1f}% of the mean "
                   f"(steady at <= {100 * STEADY:g}%)")


def _claim(cid, figure, text, check, family) -> Claim:
    return Claim(id=cid, figure=figure, text=text, check=check, family=family,
                 thresholds=cl.doc_text(check))


def matta_guo_claims() -> list[Claim]:
    return [
        _claim("M3.1", "Fig. 3", "Isolated short flows' fairness is about 1.0 (N = 30; 'about': "
               "the CI of the index >= 0.95 at every k).", check_short_fair, "M3"),
        _claim("M3.2", "Fig. 3", "Under isolation the long class's goodput is linear in k "
               "(N = 30; R^2 >= 0.98, slope CI > 0).", check_linear, "M3"),
        _claim("M4.1", "Fig. 4", "Sharing: short-flow fairness is below 0.8 in the small pipe "
               "(N = 60, k = 1: total 2 C_u).", check_shared_short_unfair, "M4"),
        _claim("M4.2", "Fig. 4", "Isolated short flows stay fair in the small pipe too "
               "(N = 60; the paper: around 0.96; CI >= 0.95 holds, all below 0.9 does not).",
               check_short_fair, "M4"),
        _claim("M4.3", "Fig. 4", "Under isolation the long class's goodput is linear in k "
               "(N = 60; R^2 >= 0.98, slope CI > 0).", check_linear, "M4"),
        _claim("M5.1", "Fig. 5", "Sharing: short goodput falls as the buffer grows (slope CI "
               "< 0); isolation: short goodput steady (spread <= 15% of the mean).",
               check_buffer, "M5"),
    ]
