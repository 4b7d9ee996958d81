"""The claims of Rossi, Casetti & Mellia (web traffic over DiffServ), checked against the
measured tables.

Every verdict is computed here from the per-seed tables of :mod:`diffsweep.papers.rossi.tables`
(which the figures draw too) with the verdict rules of :mod:`diffsweep.analysis.claims`; nothing is
written in. A per-seed value is computed per (grid point, seed, cloud, pi) from the transfers
started before t_stop; means and 95% Student-t CIs are over seeds. Sub-results (rho points,
size classes) combine as usual: all hold -> holds, none -> does not hold, else partly.

Thresholds (constants below, also in each claim's ``thresholds``):

* "about two orders of magnitude" (Fig. 2, rho >= ``NEAR_LINE_RATE`` = 0.9): the per-seed
  ratio BE / AF of the mean completion time, per pi; holds if its whole 95% CI is >= 30
  (``ORDERS_HOLD``), does not hold if it is all below 10 (``ORDERS_PARTLY``), partly between.
* "about twice" (Fig. 4, BE): the per-seed ratio early_frac(pi = 90) / early_frac(pi = 1);
  holds if the whole CI lies in [1.5, 3] (``TWICE``), does not hold if it lies entirely outside
  it, partly otherwise.
* "about linearly" (Fig. 6, AF with FTP): least-squares line of the AF drop percentage against
  rho (per pi): holds if the per-seed slopes' CI is above 0 and R^2 of the line through the
  seed-mean curve is >= 0.9 (``LINEAR_R2``); does not hold if the mean slope is <= 0; partly
  otherwise.
* "past alpha_AF,th = 0.589 ... rise" (Figs. 8-9): per-seed least-squares slope against
  alpha_AF over the points with alpha_AF > 0.589 (above) and < 0.589 (below); the rise holds if
  the slope above is significantly > 0 and significantly larger than the slope below
  (per-seed paired difference); "BE improves": slope over all alpha_AF significantly < 0.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from diffsweep.analysis import claims as cl
from diffsweep.analysis.claims import HOLDS, NM, NOT, PARTLY, Claim, Verdict
from diffsweep.core.results import Results

from diffsweep.papers.rossi import tables as rt
from diffsweep.papers.rossi.scenario import ALPHA_AF_TH

__all__ = ["rossi_claims", "NEAR_LINE_RATE", "ORDERS_HOLD", "ORDERS_PARTLY", "TWICE",
           "LINEAR_R2"]

NEAR_LINE_RATE = 0.9
ORDERS_HOLD = 30.0
ORDERS_PARTLY = 10.0
TWICE = (1.5, 3.0)
LINEAR_R2 = 0.9


def _lin(v):
    return np.asarray(v, dtype=float)


def _wide(pc: pd.DataFrame, value: str, index=("point", "seed", "rho", "alpha_af"),
          columns=("cloud", "pi")) -> pd.DataFrame:
    return pc.pivot_table(index=list(index), columns=list(columns), values=value,
                          aggfunc="first")


@cl.measured
def check_orders(res: Results) -> Verdict:
    """Per rho >= 0.9 and pi in (1, 10, 90): the per-seed ratio BE / AF of the mean completion
    time with its 95% CI over seeds; holds if the whole interval is >= 30 ("about two orders of
    magnitude": within a factor 3.3 of 100), does not hold if it is all below 10, partly
    otherwise; combined over the points."""
    pc = rt.per_class(res)
    pc = pc[pc["rho"] >= NEAR_LINE_RATE - 1e-9]
    if pc.empty:
        return Verdict(NM, {}, f"no point with rho >= {NEAR_LINE_RATE}")
    w = _wide(pc, "completion_s").reset_index()
    sts, nums, whys = [], {}, []
    for rho, g in w.groupby("rho"):
        for pi in rt.PI:
            if ("BE", pi) not in g.columns or ("AF", pi) not in g.columns:
                continue
            d = pd.DataFrame({"ratio": g[("BE", pi)].to_numpy(float)
                              / g[("AF", pi)].to_numpy(float)})
            ci = cl.overall_ci(d, "ratio")
            st = cl.level_ci(ci, ORDERS_HOLD, ORDERS_PARTLY)
            sts.append(st)
            nums[f"rho {rho:g}, pi {pi}"] = {"be_over_af": ci}
            whys.append(f"rho {rho:g}, pi {pi}: BE/AF = {cl.ci_words(ci)}")
    return cl.combined_verdict(sts, nums, whys, "no AF and BE transfers of the classes",
                               suffix=f" (holds at >= {ORDERS_HOLD:g}, not below "
                                      f"{ORDERS_PARTLY:g})")


def _paired_classes(pc: pd.DataFrame, cloud: str, value: str, hi_pi: int, lo_pi: int,
                    x: str, direction: int):
    """Per x point: per-seed difference value(hi_pi) - value(lo_pi) of ``cloud``, sign-rated."""
    w = _wide(pc[pc["cloud"] == cloud], value, index=("point", "seed", x), columns=("pi",))
    sts, nums, whys = [], {}, []
    for xv, g in w.reset_index().groupby(x):
        if hi_pi not in g.columns or lo_pi not in g.columns:
            continue
        d = pd.DataFrame({"diff": g[hi_pi].to_numpy(float) - g[lo_pi].to_numpy(float)})
        if not np.isfinite(d["diff"]).any():
            continue
        ci = cl.overall_ci(d, "diff")
        sts.append(cl.sign_status(ci, direction))
        nums[f"{x} {xv:g}"] = {f"pi{hi_pi}_minus_pi{lo_pi}": ci}
        whys.append(f"{x} {xv:g}: {cl.ci_words(ci)}, {cl.sign_words(ci, direction)}")
    return sts, nums, whys


@cl.measured
def check_be_short_drop_most(res: Results) -> Verdict:
    """At every rho: the per-seed paired differences of the BE drop percentage, pi = 1 minus
    pi = 10 and pi = 1 minus pi = 90, each with its 95% CI over seeds; a difference holds if
    its interval is above 0, partly if only its mean is, does not hold otherwise; combined
    over rho points and both comparisons."""
    pc = rt.per_class(res)
    sts, nums, whys = [], {}, []
    for other in (10, 90):
        s, n, w = _paired_classes(pc, "BE", "drop_pct", 1, other, "rho", +1)
        sts += s
        nums.update({f"{k}, pi1 - pi{other}": v for k, v in n.items()})
        whys += [f"pi 1 - pi {other} (drop %), " + x for x in w]
    return cl.combined_verdict(sts, nums, whys, "no BE transfers of the classes")


def _twice_status(ci: dict) -> str:
    m, (lo, hi) = ci["mean"], ci["ci95"]
    if m is None:
        return NM
    if lo is None or hi is None:
        lo = hi = m
    a, b = TWICE
    if a <= lo and hi <= b:
        return HOLDS if ci["ci95"][0] is not None else PARTLY
    if hi < a or lo > b:
        return NOT
    return PARTLY


@cl.measured
def check_early_twice(res: Results) -> Verdict:
    """BE, at every rho: the per-seed ratio of the early-drop fraction of pi = 90 transfers to
    that of pi = 1 transfers (seeds where pi = 1 had no drop are left out), with its 95% CI;
    holds if the whole interval lies in [1.5, 3] ("about twice"), does not hold if it lies
    entirely outside [1.5, 3], partly otherwise; combined over rho points. AF ratios are given
    beside it (the paper: about equal for AF)."""
    pc = rt.per_class(res)
    sts, nums, whys = [], {}, []
    for cloud in ("BE", "AF"):
        w = _wide(pc[pc["cloud"] == cloud], "early_frac", index=("point", "seed", "rho"),
                  columns=("pi",)).reset_index()
        for rho, g in w.groupby("rho"):
            if 1 not in g.columns or 90 not in g.columns:
                continue
            with np.errstate(divide="ignore", invalid="ignore"):
                r = g[90].to_numpy(float) / g[1].to_numpy(float)
            r = r[np.isfinite(r)]
            if len(r) == 0:
                continue
            ci = cl.overall_ci(pd.DataFrame({"ratio": r}), "ratio")
            nums[f"{cloud} rho {rho:g}"] = {"early_pi90_over_pi1": ci}
            if cloud == "BE":
                sts.append(_twice_status(ci))
                whys.append(f"BE rho {rho:g}: {cl.ci_words(ci)}")
    return cl.combined_verdict(sts, nums, whys, "no BE point where pi = 1 transfers had drops",
                               suffix=f" (holds inside [{TWICE[0]:g}, {TWICE[1]:g}])")


def _slope_r2(df: pd.DataFrame, x: str, value: str):
    s = cl.slopes(df, x, value, log=_lin)
    c = df.groupby(x)[value].mean().dropna()
    r2 = None
    if len(c) >= 3:
        xs, ys = c.index.to_numpy(float), c.to_numpy(float)
        fit = np.polyval(np.polyfit(xs, ys, 1), xs)
        sst = float(((ys - ys.mean()) ** 2).sum())
        r2 = 1.0 - float(((ys - fit) ** 2).sum()) / sst if sst > 0 else None
    return s, r2


@cl.measured
def check_af_linear(res: Results) -> Verdict:
    """AF with FTP background, per pi in (1, 10, 90): the least-squares line of the drop
    percentage against rho; holds if the per-seed slopes' 95% CI is above 0 and R^2 of the line
    through the seed-mean curve is >= 0.9, does not hold if the mean slope is <= 0, partly
    otherwise (needs >= 3 rho points); combined over pi."""
    pc = rt.per_class(res)
    pc = pc[pc["cloud"] == "AF"]
    sts, nums, whys = [], {}, []
    for pi in rt.PI:
        d = pc[pc["pi"] == pi]
        if d["rho"].nunique() < 3:
            continue
        s, r2 = _slope_r2(d, "rho", "drop_pct")
        if s.empty:
            continue
        ci = cl.overall_ci(s, "slope")
        st = cl.linear_status(ci, r2, LINEAR_R2)
        sts.append(st)
        nums[f"pi {pi}"] = {"slope_pct_per_rho": ci, "r2": r2}
        whys.append(f"pi {pi}: slope {cl.ci_words(ci)} % per unit rho, R^2 "
                    + ("undefined" if r2 is None else f"{r2:.3f}"))
    return cl.combined_verdict(sts, nums, whys, "fewer than 3 rho points with AF transfers",
                               suffix=f" (holds: slope CI > 0 and R^2 >= {LINEAR_R2})")


@cl.measured
def check_early_falls(res: Results) -> Verdict:
    """BE with FTP background: the per-seed least-squares slope of the early-drop fraction
    (all BE transfers) against rho, with its 95% CI; holds if the interval is below 0, partly if
    only the mean is, does not hold otherwise."""
    pcl = rt.per_cloud(res)
    d = pcl[pcl["cloud"] == "BE"]
    s = cl.slopes(d, "rho", "early_frac", log=_lin)
    if s.empty:
        return Verdict(NM, {}, "needs >= 2 rho points with BE drops")
    ci = cl.overall_ci(s, "slope")
    c = d.groupby("rho")["early_frac"].mean()
    return Verdict(cl.sign_status(ci, -1), {"slope_per_rho": ci,
                                            "early_frac_by_rho": {f"{k:g}": float(v)
                                                                  for k, v in c.items()}},
                   f"BE early-drop fraction slope vs rho {cl.ci_words(ci)}, "
                   f"{cl.sign_words(ci, -1)}")


@cl.measured
def check_be_worse_with_ftp(res: Results) -> Verdict:
    """With FTP background, per rho and pi in (1, 10, 90): the per-seed ratio BE / AF of the
    mean completion time; holds if its 95% CI is above 1 (BE slower), does not hold if the mean
    is <= 1, partly otherwise; combined over the points."""
    pc = rt.per_class(res)
    w = _wide(pc, "completion_s").reset_index()
    sts, nums, whys = [], {}, []
    for rho, g in w.groupby("rho"):
        for pi in rt.PI:
            if ("BE", pi) not in g.columns or ("AF", pi) not in g.columns:
                continue
            d = pd.DataFrame({"r": g[("BE", pi)].to_numpy(float) / g[("AF", pi)].to_numpy(float)
                              - 1.0})
            ci = cl.overall_ci(d, "r")
            sts.append(cl.sign_status(ci, +1))
            shown = {"mean": None if ci["mean"] is None else ci["mean"] + 1,
                     "ci95": [None if v is None else v + 1 for v in ci["ci95"]], "n": ci["n"]}
            nums[f"rho {rho:g}, pi {pi}"] = {"be_over_af": shown}
            whys.append(f"rho {rho:g}, pi {pi}: BE/AF {cl.ci_words(shown)}")
    return cl.combined_verdict(sts, nums, whys, "no AF and BE transfers of the classes",
                               suffix=" (holds if the CI is above 1)")


def _split_slopes(d: pd.DataFrame, value: str):
    above = d[d["alpha_af"] > ALPHA_AF_TH]
    below = d[d["alpha_af"] < ALPHA_AF_TH]
    sa = cl.slopes(above, "alpha_af", value, log=_lin)
    sb = cl.slopes(below, "alpha_af", value, log=_lin)
    return sa, sb


def _rise_past(value: str, what: str):
    @cl.measured
    def check(res: Results) -> Verdict:
        pc = rt.per_class(res)
        pc = pc[pc["cloud"] == "AF"]
        sts, nums, whys = [], {}, []
        for pi in rt.PI:
            d = pc[pc["pi"] == pi]
            sa, sb = _split_slopes(d, value)
            if sa.empty:
                continue
            ca = cl.overall_ci(sa, "slope")
            st = cl.sign_status(ca, +1)
            n = {"slope_above": ca}
            why = f"pi {pi}: slope above {ALPHA_AF_TH} {cl.ci_words(ca)}"
            if not sb.empty:
                m = sa.merge(sb, on="seed", suffixes=("_a", "_b"))
                m["diff"] = m["slope_a"] - m["slope_b"]
                cd = cl.overall_ci(m, "diff")
                n["slope_below"] = cl.overall_ci(sb, "slope")
                n["above_minus_below"] = cd
                st = cl.combine_statuses([st, cl.sign_status(cd, +1)])
                why += (f", below {cl.ci_words(n['slope_below'])}, difference "
                        f"{cl.sign_words(cd, +1)}")
            sts.append(st)
            nums[f"pi {pi}"] = n
            whys.append(why)
        return cl.combined_verdict(sts, nums, whys, f"needs >= 2 alpha_AF points above "
                                   f"{ALPHA_AF_TH} with AF transfers",
                                   suffix=f" ({what} per unit alpha_AF)")
    check.__doc__ = (f"AF, per pi in (1, 10, 90): per-seed least-squares slopes of the {what} "
                     f"against alpha_AF over the points above alpha_AF,th = {ALPHA_AF_TH} and "
                     "below it; holds if the slope above is significantly > 0 (95% CI over "
                     "seeds above 0) and significantly larger than the slope below (paired "
                     "per-seed difference); partly if only some of these hold or only the "
                     "means are positive; does not hold otherwise; combined over pi.")
    return check


def _be_improves(value: str, what: str):
    @cl.measured
    def check(res: Results) -> Verdict:
        pc = rt.per_class(res)
        pc = pc[pc["cloud"] == "BE"]
        sts, nums, whys = [], {}, []
        for pi in rt.PI:
            s = cl.slopes(pc[pc["pi"] == pi], "alpha_af", value, log=_lin)
            if s.empty:
                continue
            ci = cl.overall_ci(s, "slope")
            sts.append(cl.sign_status(ci, -1))
            nums[f"pi {pi}"] = {"slope": ci}
            whys.append(f"pi {pi}: slope {cl.ci_words(ci)}, {cl.sign_words(ci, -1)}")
        return cl.combined_verdict(sts, nums, whys, "needs >= 2 alpha_AF points with BE "
                                   "transfers", suffix=f" ({what} per unit alpha_AF)")
    check.__doc__ = (f"BE, per pi in (1, 10, 90): the per-seed least-squares slope of the {what}"
                     " against alpha_AF over all points, with its 95% CI; holds if the interval "
                     "is below 0, partly if only the mean is, does not hold otherwise; combined "
                     "over pi.")
    return check


@cl.measured
def check_af_short_fewer_early(res: Results) -> Verdict:
    """AF, at every alpha_AF above 0.589: the per-seed paired difference early_frac(pi = 90) -
    early_frac(pi = 1) with its 95% CI; holds if the interval is above 0, partly if only the
    mean is, does not hold otherwise; combined over the points (seeds where a class had no drop
    are left out)."""
    pc = rt.per_class(res)
    pc = pc[pc["alpha_af"] > ALPHA_AF_TH]
    s, n, w = _paired_classes(pc, "AF", "early_frac", 90, 1, "alpha_af", +1)
    return cl.combined_verdict(s, n, w, f"no alpha_AF point above {ALPHA_AF_TH} with AF drops")


_claim = cl.paper_claim


def rossi_claims() -> list[Claim]:
    return [
        _claim("R2.1", "Fig. 2", "AF completion times are about two orders of magnitude below "
               "BE's near line rate (rho >= 0.9; 'about': BE/AF >= 30 holds, >= 10 partly).",
               check_orders, "R2"),
        _claim("R3.1", "Fig. 3", "BE one-packet transfers (pi = 1) have the highest drop "
               "percentage at every rho (above pi = 10 and pi = 90).",
               check_be_short_drop_most, "R3"),
        _claim("R4.1", "Fig. 4", "BE long transfers' early-drop fraction is about twice that of "
               "one-packet transfers ('about twice': ratio pi 90 / pi 1 in [1.5, 3]).",
               check_early_twice, "R4"),
        _claim("R5.1", "Fig. 5", "With FTP background BE completion times stay above AF's at "
               "every rho and size class.", check_be_worse_with_ftp, "R5"),
        _claim("R6.1", "Fig. 6", "With FTP background AF drops grow about linearly with rho "
               "(slope CI > 0 and linear fit R^2 >= 0.9).", check_af_linear, "R6"),
        _claim("R7.1", "Fig. 7", "With FTP background the BE early-drop share falls as rho "
               "grows.", check_early_falls, "R7"),
        _claim("R8.1", "Fig. 8", "Past alpha_AF,th = 0.589 AF completion times rise (slope "
               "above the threshold > 0 and larger than below it).",
               _rise_past("completion_s", "mean completion time"), "R8"),
        _claim("R8.2", "Fig. 8", "BE completion times fall (BE improves) as alpha_AF grows.",
               _be_improves("completion_s", "mean completion time"), "R8"),
        _claim("R9.1", "Fig. 9", "Past alpha_AF,th = 0.589 AF drop percentages rise (slope "
               "above the threshold > 0 and larger than below it).",
               _rise_past("drop_pct", "drop percentage"), "R9"),
        _claim("R9.2", "Fig. 9", "BE drop percentages fall as alpha_AF grows.",
               _be_improves("drop_pct", "drop percentage"), "R9"),
        _claim("R10.1", "Fig. 10", "Above alpha_AF,th, one-packet AF transfers are less likely "
               "to be early-dropped than 90-packet ones.", check_af_short_fewer_early, "R10"),
    ]
