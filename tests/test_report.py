"""Verdicts are computed from the measured tables, never written in: for every claim of
diffsweep.papers.kaur_vin.claims, hand-made tables where it holds and tables where it fails, and the verdict
follows.  Also write_report's output.

The tables follow docs/api.md: ``replicas`` and ``flows`` with ``point``, ``seed``, the grid
columns of ``scenarios.kaur_vin`` (ef, udp, t_on_ms, ef_fraction, rtp_intervals, ...), its params
columns (t_off_ms, ef_rate_bps, udp_rate_bps, available_bps) and the result columns.  The
builders below are also used by tests/test_figures.py.
"""
import json
import math

import numpy as np
import pandas as pd
import pytest

from diffsweep.analysis import metrics
from diffsweep import papers
from diffsweep.analysis.claims import STATUSES, Claim, Verdict, conclusion_from
from diffsweep.analysis.claims import evaluate_all as _evaluate_all
from diffsweep.papers.kaur_vin import claims as rp
from diffsweep.papers.kaur_vin.claims import kaur_vin_claims, results_for
from diffsweep.report.paper_report import write_report as _write_report

KAUR_VIN = papers.get("kaur-vin")


def evaluate_all(results_by_family):
    return _evaluate_all(results_by_family, kaur_vin_claims())


def write_report(*args, **kw):
    return _write_report(KAUR_VIN, *args, **kw)
from diffsweep.core.results import Results

LINK = 40e6
SEG, HDR = 536, 40
SEEDS = 6
TONS = [0.4, 1.3, 4.0, 13.0, 40.0, 130.0, 400.0]
GRID = ("ef", "udp", "t_on_ms", "ef_fraction", "rtp_intervals", "rtp_ms")


# ------------------------------------------------------------------------------------------
# Synthetic tables
# ------------------------------------------------------------------------------------------

def make_results(reps, drop_columns=()):
    """Results from replica specs.  A spec: grid columns (ef, udp, t_on_ms, ef_fraction,
    rtp_intervals, rtp_ms), ``seed`` and one of ``values`` (per-flow normalised throughputs
    x_i / (C/n)) or ``U`` with ``n`` (equal shares giving that wire utilisation), optional
    per-flow lists ``timeouts``, ``rtp``, ``drops``, ``pkts_sent``, ``rtt``, ``rto``,
    ``goodput``."""
    rep_rows, flow_rows = [], []
    point_of = {}
    for r in reps:
        grid = {k: r[k] for k in GRID if k in r}
        size = len(r.get("goodput", r.get("values", [0] * r.get("n", 1))))
        key = tuple((k, repr(v)) for k, v in sorted(grid.items())) + (("n", size),)
        point = point_of.setdefault(key, len(point_of))
        seed = r["seed"]
        f = grid.get("ef_fraction", 0.3)
        ef = grid.get("ef")
        udp = bool(grid.get("udp", False))
        ef_rate = f * LINK if ef else 0.0
        udp_rate = 0.05 * LINK if udp else 0.0
        avail = LINK - ef_rate - udp_rate
        t_on = grid.get("t_on_ms", 10.0)
        params = dict(t_off_ms=t_on * (1 - f) / f, ef_rate_bps=ef_rate, udp_rate_bps=udp_rate,
                      available_bps=avail)
        cols = {**grid, **params}
        if "goodput" in r:
            gp = np.asarray(r["goodput"], dtype=float)
        elif "values" in r:
            v = np.asarray(r["values"], dtype=float)
            gp = v * avail / len(v)
        else:
            n = r.get("n", 1)
            gp = np.full(n, r["U"] * avail * SEG / (SEG + HDR) / n)
        n = len(gp)
        rtp = r.get("rtp", [grid.get("rtp_ms", 8.0)] * n)
        to = r.get("timeouts", [0] * n)
        drops = r.get("drops", [10] * n)
        sent = r.get("pkts_sent", [1000] * n)
        rtt = r.get("rtt", [0.05] * n)
        rto = r.get("rto", [0.3] * n)
        rep_rows.append(dict(point=point, seed=seed, **cols, slot_s=1e-4, duration_s=20.0,
                             warmup_s=5.0, measured_s=15.0, n_flows=n,
                             tcp_goodput_bps=float(gp.sum()), delay_rounding_ms=0.0))
        # As the engine's tables do today: a grid column named like a per-flow column comes
        # out suffixed in ``flows`` (rtp_ms_x: the grid value, rtp_ms_y: the flow's RTP).
        fcols = {(k + "_x" if k == "rtp_ms" else k): v for k, v in cols.items()}
        rtp_name = "rtp_ms_y" if "rtp_ms" in cols else "rtp_ms"
        for i in range(n):
            flow_rows.append(dict(point=point, seed=seed, **fcols, flow=i, variant="reno",
                                  **{rtp_name: float(rtp[i])}, segment_bytes=SEG, header_bytes=HDR,
                                  max_window_pkts=1000, delivered_bytes=int(gp[i] * 15 / 8),
                                  goodput_bps=float(gp[i]), pkts_sent=int(sent[i]),
                                  retransmits=0, timeouts=int(to[i]), fast_retransmits=0,
                                  drops=int(drops[i]), rtt_mean_s=float(rtt[i]),
                                  rto_mean_s=float(rto[i]), finish_s=np.nan))
    replicas = pd.DataFrame(rep_rows)
    flows = pd.DataFrame(flow_rows)
    for c in drop_columns:
        replicas = replicas.drop(columns=[c], errors="ignore")
        flows = flows.drop(columns=[c], errors="ignore")
    empty = pd.DataFrame(columns=["point", "seed"])
    return Results(replicas=replicas, flows=flows, queues=empty.copy(), sources=empty.copy(),
                   intervals=empty.copy(), meta={"backend": "synthetic", "wall_s": 0.0})


def _noise(seed, k=0):
    """Deterministic small noise in [-1, 1] per (seed, k)."""
    return math.sin(1.7 * seed + 0.9 * k + 0.3)


def hump(t, peak=0.4, at=4.0, width=1.0):
    return peak * math.exp(-((math.log10(t) - math.log10(at)) / width) ** 2)


def k2_data(loss_fn, timeouts_fn=None, tons=TONS, seeds=SEEDS, f=None, noise=0.005, rtp=8.0):
    """One flow, EF vs CBR: U_CBR = 0.95, U_EF = 0.95 - loss_fn(T_on); EF timeouts from
    timeouts_fn (default 100 x loss)."""
    timeouts_fn = timeouts_fn or (lambda t: 100 * loss_fn(t))
    reps = []
    extra = {"ef_fraction": f} if f is not None else {}
    for s in range(seeds):
        for t in tons:
            reps.append(dict(ef="cbr", udp=False, t_on_ms=t, rtp_ms=rtp, seed=s, U=0.95,
                             timeouts=[0], **extra))
            reps.append(dict(ef="onoff", udp=False, t_on_ms=t, rtp_ms=rtp, seed=s,
                             U=0.95 - loss_fn(t) + noise * _noise(s, t),
                             timeouts=[max(0, round(timeouts_fn(t) + _noise(s, 2 * t)))], **extra))
    return reps


def k3_data(loss_fn, rtps=(6.0, 8.0, 10.0, 12.0), tons=(0.4, 4.0, 40.0)):
    reps = []
    for r in rtps:
        reps += k2_data(lambda t, r=r: loss_fn(t, r), tons=tons, rtp=r)
    return reps


def unequal_rtps(n, seed):
    rng = np.random.default_rng(seed)
    return list(rng.uniform(12, 26, n))


def k4_data(loss_fn, tpf_fn, ns=(8, 32, 64), tons=(0.4, 4.0, 40.0), seeds=SEEDS, f=None):
    """N flows with unequal RTPs: loss_fn(N, T_on), timeouts per flow tpf_fn(N, T_on)."""
    reps = []
    extra = {"ef_fraction": f} if f is not None else {}
    for s in range(seeds):
        for n in ns:
            rtp = unequal_rtps(n, s)
            for t in tons:
                reps.append(dict(ef="cbr", udp=False, t_on_ms=t, seed=s, U=0.97, n=n, rtp=rtp,
                                 rtp_intervals=(12, 26, 8), timeouts=[0] * n, **extra))
                k = tpf_fn(n, t) + 0.2 * _noise(s, n + t)
                reps.append(dict(ef="onoff", udp=False, t_on_ms=t, seed=s, n=n, rtp=rtp,
                                 rtp_intervals=(12, 26, 8),
                                 U=0.97 - loss_fn(n, t) + 0.003 * _noise(s, n * t),
                                 timeouts=[max(0, round(k))] * n, **extra))
    return reps


def spread_values(n, m):
    """n normalised throughputs with min/max = m, mean 1."""
    v = np.linspace(m, 1.0, n)
    return v / v.mean()


NETS = {"TCP-only": (None, False), "TCP+UDP": (None, True), "TCP+EF": ("onoff", False),
        "TCP+UDP+EF": ("onoff", True)}


def fair_data(m_fn, ns=(16,), tons=(0.4, 1.0, 4.0, 40.0), settings=("equal", "unequal"),
              seeds=SEEDS, values_fn=None, f=None, nets=tuple(NETS)):
    """The four networks: M = m_fn(net, setting, N, T_on) (+ small noise), or per-flow values
    from values_fn(net, setting, N, T_on, seed).  Networks without EF are run at every T_on
    too (as a crossed grid would), with the same values."""
    reps = []
    extra = {"ef_fraction": f} if f is not None else {}
    for s in range(seeds):
        for setting in settings:
            for n in ns:
                if setting == "equal":
                    geo = dict(rtp_ms=8.0)
                    rtp = [8.0] * n
                else:
                    geo = dict(rtp_intervals=(12, 26, 8))
                    rtp = unequal_rtps(n, s)
                for net in nets:
                    ef, udp = NETS[net]
                    for t in tons:
                        tt = None if ef is None else t
                        if values_fn is not None:
                            v = values_fn(net, setting, n, tt, s)
                        else:
                            m = min(max(m_fn(net, setting, n, tt) + 0.01 * _noise(s, n), 0.001), 1)
                            v = spread_values(n, m)
                        reps.append(dict(ef=ef, udp=udp, t_on_ms=t, seed=s, values=v, rtp=rtp,
                                         **geo, **extra))
    return reps


def R(reps, **kw):
    return make_results(reps, **kw)


def status(check, res):
    v = check(res)
    assert isinstance(v, Verdict)
    assert v.status in STATUSES
    return v.status


# ------------------------------------------------------------------------------------------
# Data classes and the claim list
# ------------------------------------------------------------------------------------------

def test_verdict_rejects_unknown_status():
    with pytest.raises(ValueError, match="status"):
        Verdict("maybe", {}, "")


def test_claim_list_covers_every_family_and_conclusion():
    claims = kaur_vin_claims()
    ids = [c.id for c in claims]
    assert len(ids) == len(set(ids))
    for prefix in ("K2.", "K3.", "K4.", "K5.", "K6.", "K7.", "K8.", "K9.", "K10.", "Kf."):
        assert any(i.startswith(prefix) for i in ids), prefix
    assert {"C1", "C2", "C3", "C4"} <= set(ids)
    for c in claims:
        assert isinstance(c, Claim) and callable(c.check) and c.text and c.figure
        assert c.thresholds, f"{c.id} has no documented test"
        if c.is_conclusion:
            assert c.depends and all(d in ids for d in c.depends)


def test_missing_family_is_not_measured():
    v = evaluate_all({})
    assert all(x.status == "not measured" for x in v.values())


# ------------------------------------------------------------------------------------------
# K2
# ------------------------------------------------------------------------------------------

def test_k2_rise_fall_follows_the_data():
    assert status(rp.check_k2_rise_fall, R(k2_data(lambda t: hump(t)))) == "holds"
    assert status(rp.check_k2_rise_fall, R(k2_data(lambda t: 0.02))) == "does not hold"
    # only rises (peak at the largest T_on): one side
    assert status(rp.check_k2_rise_fall, R(k2_data(lambda t: 0.05 * math.log10(t / 0.2)))) \
        == "partly holds"


def test_k2_peak_thresholds():
    assert status(rp.check_k2_peak, R(k2_data(lambda t: hump(t, 0.45)))) == "holds"
    assert status(rp.check_k2_peak, R(k2_data(lambda t: hump(t, 0.15)))) == "partly holds"
    v = rp.check_k2_peak(R(k2_data(lambda t: hump(t, 0.03))))
    assert v.status == "does not hold"
    assert v.numbers["peak_loss"]["mean"] == pytest.approx(0.03, abs=0.01)


def test_k2_peak_is_rated_on_its_interval():
    """A peak whose mean clears the 'holds' threshold but whose interval includes 0 shows no
    loss at all: the mean alone would have said 'holds'."""
    noisy = R(k2_data(lambda t: hump(t, 0.3), noise=0.9, seeds=3))
    v = rp.check_k2_peak(noisy)
    peak = v.numbers["peak_loss"]
    assert peak["mean"] >= rp.PEAK_LARGE and peak["ci95"][0] <= 0
    assert v.status == "does not hold" and "includes 0" in v.reason


def test_reasons_are_words():
    """No bare booleans or arrows in a reason (they used to read "...: False; ... -> holds")."""
    cases = [(rp.check_k3_rtp, R(k3_data(lambda t, r: hump(t) * 8 / r))),
             (rp.check_k2_peak, R(k2_data(lambda t: hump(t, 0.45))))]
    for check, res in cases:
        v = check(res)
        assert v.status != "not measured"
        for bad in (": True", ": False", "->", "False;", "True;"):
            assert bad not in v.reason, (check.__name__, v.reason)


def test_k2_timeouts_shape():
    same = R(k2_data(lambda t: hump(t), lambda t: 80 * hump(t)))
    assert status(rp.check_k2_timeouts_shape, same) == "holds"
    flat = R(k2_data(lambda t: hump(t), lambda t: 5.0))
    assert status(rp.check_k2_timeouts_shape, flat) == "does not hold"


def test_k2_tau():
    tau = 4.0
    model = R(k2_data(lambda t: hump(t), lambda t: 400 * math.exp(-tau / t) / t))
    v = rp.check_k2_tau(model)
    assert v.status == "holds"
    assert v.numbers["tau_fit_ms"] == pytest.approx(tau, rel=0.3)
    # two humps at the ends: the one-peak model neither fits nor peaks where observed
    ends = R(k2_data(lambda t: hump(t), lambda t: 30.0 if t in (0.4, 400.0) else 0.0))
    assert status(rp.check_k2_tau, ends) == "does not hold"
    # the model fits but its peak lies at the end of the T_on grid: not located -> partly
    edge = R(k2_data(lambda t: hump(t), lambda t: 4000 * math.exp(-400.0 / t) / t))
    v = rp.check_k2_tau(edge)
    assert v.status == "partly holds" and v.numbers["peak_is_interior"] is False
    # no timeouts at all: tau cannot be fitted
    assert status(rp.check_k2_tau, R(k2_data(lambda t: 0.0, lambda t: -5))) == "not measured"


def test_k2_needs_cbr_and_ef():
    only_ef = R([r for r in k2_data(lambda t: hump(t)) if r["ef"] == "onoff"])
    assert status(rp.check_k2_rise_fall, only_ef) == "not measured"
    c = next(c for c in kaur_vin_claims() if c.id == "K2.1")
    v = c.evaluate({"K2": only_ef})
    assert v.status == "not measured" and "cbr" in v.reason


# ------------------------------------------------------------------------------------------
# K3
# ------------------------------------------------------------------------------------------

def test_k3_rtp():
    good = R(k3_data(lambda t, r: hump(t, 0.4 * (6.0 / r) ** 2)))
    assert status(rp.check_k3_rtp, good) == "holds"
    bad = R(k3_data(lambda t, r: hump(t, 0.4 * (r / 12.0) ** 2)))
    assert status(rp.check_k3_rtp, bad) == "does not hold"
    one = R(k2_data(lambda t: hump(t)))
    assert status(rp.check_k3_rtp, one) == "not measured"


# ------------------------------------------------------------------------------------------
# K4
# ------------------------------------------------------------------------------------------

def test_k4_aggregate_loss():
    good = R(k4_data(lambda n, t: 0.2 if n < 20 else 0.01, lambda n, t: n / 8))
    v = rp.check_k4_aggregate(good)
    assert v.status == "holds"
    assert "max_loss_N<20" in v.numbers
    mid = R(k4_data(lambda n, t: 0.08, lambda n, t: n / 8))
    assert status(rp.check_k4_aggregate, mid) == "partly holds"
    bad = R(k4_data(lambda n, t: 0.3, lambda n, t: n / 8))
    assert status(rp.check_k4_aggregate, bad) == "does not hold"
    small_n = R(k4_data(lambda n, t: 0.0, lambda n, t: 1, ns=(8,)))
    assert status(rp.check_k4_aggregate, small_n) == "not measured"


def test_k4_timeouts_grow_with_n():
    good = R(k4_data(lambda n, t: 0.0, lambda n, t: n / 4))
    assert status(rp.check_k4_timeouts, good) == "holds"
    bad = R(k4_data(lambda n, t: 0.0, lambda n, t: 64 / n))
    assert status(rp.check_k4_timeouts, bad) == "does not hold"


# ------------------------------------------------------------------------------------------
# K5
# ------------------------------------------------------------------------------------------

def m_k5(no_ef=0.1, ef_at_04=0.7, ef_slope=-0.15):
    def m(net, setting, n, t):
        if t is None:
            return no_ef
        return ef_at_04 + ef_slope * math.log10(t / 0.4)
    return m


def test_k5_without_ef_m_small():
    good = R(fair_data(m_k5(no_ef=0.08)))
    assert status(rp.check_k5_small_equal, good) == "holds"
    assert status(rp.check_k5_small_unequal, good) == "holds"
    v = rp.check_k5_small_equal(good)
    assert v.numbers["TCP-only"]["throughput_ratio_1_over_mean_M"] == pytest.approx(12.5, rel=0.2)
    mid = R(fair_data(m_k5(no_ef=0.35)))
    assert status(rp.check_k5_small_equal, mid) == "partly holds"
    bad = R(fair_data(m_k5(no_ef=0.8)))
    assert status(rp.check_k5_small_equal, bad) == "does not hold"
    only_eq = R(fair_data(m_k5(), settings=("equal",)))
    assert status(rp.check_k5_small_unequal, only_eq) == "not measured"


def test_k5_ef_raises_m():
    assert status(rp.check_k5_ef_raises, R(fair_data(m_k5(0.1, 0.7)))) == "holds"
    assert status(rp.check_k5_ef_raises, R(fair_data(m_k5(0.6, 0.2)))) == "does not hold"
    # raised in the equal setting only
    mixed = R(fair_data(lambda net, s, n, t: (0.1 if t is None else (0.7 if s == "equal" else 0.05))))
    assert status(rp.check_k5_ef_raises, mixed) == "partly holds"
    no_base = R(fair_data(m_k5(), nets=("TCP+EF", "TCP+UDP+EF")))
    assert status(rp.check_k5_ef_raises, no_base) == "not measured"


def test_k5_smaller_t_on_raises_more():
    assert status(rp.check_k5_smaller_t_on, R(fair_data(m_k5(ef_slope=-0.15)))) == "holds"
    assert status(rp.check_k5_smaller_t_on, R(fair_data(m_k5(ef_at_04=0.2, ef_slope=0.15)))) \
        == "does not hold"


# ------------------------------------------------------------------------------------------
# K6
# ------------------------------------------------------------------------------------------

def values_k6(ef_narrow=True):
    def v(net, setting, n, t, seed):
        wide = np.r_[np.linspace(0.2, 1.8, n - 2), [0.1, 1.9]]
        narrow = np.linspace(0.9, 1.1, n) + 0.01 * _noise(seed, 1)
        with_ef = NETS[net][0] is not None
        return narrow if with_ef == ef_narrow else wide + 0.01 * _noise(seed, 2)
    return v


def test_k6_spread_and_near_fair():
    good = R(fair_data(None, values_fn=values_k6(True)))
    assert status(rp.check_k6_spread, good) == "holds"
    assert status(rp.check_k6_near_fair, good) == "holds"
    bad = R(fair_data(None, values_fn=values_k6(False)))
    assert status(rp.check_k6_spread, bad) == "does not hold"
    assert status(rp.check_k6_near_fair, bad) == "does not hold"


def test_k6_falls_back_to_k5_data():
    good = R(fair_data(None, values_fn=values_k6(True)))
    res, key = results_for("K6", {"K5": good})
    assert res is good and key == "K5"
    c = next(c for c in kaur_vin_claims() if c.id == "K6.1")
    v = c.evaluate({"K5": good})
    assert v.status == "holds" and v.numbers["data"] == "K5"


# ------------------------------------------------------------------------------------------
# K7
# ------------------------------------------------------------------------------------------

NS = (8, 16, 32, 64)


def m_k7(no_ef_slope=-0.15, ef_slope=-0.05, unequal_slope=0.0):
    def m(net, setting, n, t):
        k = math.log2(n / 8)
        if setting == "unequal":
            return 0.4 + unequal_slope * k
        return 0.7 + (no_ef_slope if t is None else ef_slope) * k
    return m


def test_k7_equal_falls_and_slower_with_ef():
    good = R(fair_data(m_k7(), ns=NS, tons=(1.0,)))
    assert status(rp.check_k7_equal_falls, good) == "holds"
    assert status(rp.check_k7_equal_slower, good) == "holds"
    bad = R(fair_data(m_k7(no_ef_slope=0.05, ef_slope=-0.15), ns=NS, tons=(1.0,)))
    assert status(rp.check_k7_equal_falls, bad) == "does not hold"
    assert status(rp.check_k7_equal_slower, bad) == "does not hold"


def test_k7_unequal_marginal():
    assert status(rp.check_k7_unequal_marginal, R(fair_data(m_k7(), ns=NS, tons=(1.0,)))) == "holds"
    steep = R(fair_data(m_k7(unequal_slope=-0.12), ns=NS, tons=(1.0,)))
    assert status(rp.check_k7_unequal_marginal, steep) == "does not hold"
    one_n = R(fair_data(m_k7(), ns=(16,), tons=(1.0,)))
    assert status(rp.check_k7_unequal_marginal, one_n) == "not measured"


def test_k7_picks_t_on_nearest_1ms():
    # at T_on = 1 ms M falls with N, at 40 ms it rises: the check reads the 1 ms rows
    def m(net, s, n, t):
        k = math.log2(n / 8)
        if t is None:
            return 0.7 - 0.15 * k
        return 0.7 - 0.05 * k if t == 1.0 else 0.2 + 0.1 * k
    res = R(fair_data(m, ns=NS, tons=(1.0, 40.0), settings=("equal",)))
    assert status(rp.check_k7_equal_slower, res) == "holds"


# ------------------------------------------------------------------------------------------
# K8, K9
# ------------------------------------------------------------------------------------------

def values_89(near_fn, spread_fn):
    """n values: a share near_fn(N) at 1.0 (+-0.05), the rest split between 1 - spread/2 and
    1 + spread/2 (spread_fn(N) = max - min)."""
    def v(net, setting, n, t, seed):
        near, spread = near_fn(net, setting, n), spread_fn(net, setting, n)
        k = int(round(near * n))
        mid = 1.0 + np.linspace(-0.05, 0.05, k) if k else np.array([])
        rest = n - k
        lo, hi = 1.0 - spread / 2, 1.0 + spread / 2
        out = np.r_[mid, np.where(np.arange(rest) % 2 == 0, lo, hi)]
        return out * (1 + 0.005 * _noise(seed, n))
    return v


def k89(near_fn, spread_fn, settings=("equal", "unequal")):
    return R(fair_data(None, ns=NS, tons=(1.0,), settings=settings,
                       nets=("TCP+UDP", "TCP+UDP+EF"), values_fn=values_89(near_fn, spread_fn)))


def test_k8_udp():
    good = k89(lambda net, s, n: 0.8 - 0.15 * math.log2(n / 8),
               lambda net, s, n: 0.8 + 0.3 * math.log2(n / 8), settings=("equal",))
    assert status(rp.check_k8_udp, good) == "holds"
    bad = k89(lambda net, s, n: 0.3 + 0.15 * math.log2(n / 8),
              lambda net, s, n: 1.8 - 0.3 * math.log2(n / 8), settings=("equal",))
    assert status(rp.check_k8_udp, bad) == "does not hold"


def test_k8_udp_ef():
    good = k89(lambda net, s, n: 0.5, lambda net, s, n: 0.8 + 0.3 * math.log2(n / 8),
               settings=("equal",))
    assert status(rp.check_k8_udp_ef, good) == "holds"
    bad = k89(lambda net, s, n: 0.9 - 0.2 * math.log2(n / 8),
              lambda net, s, n: 1.8 - 0.3 * math.log2(n / 8), settings=("equal",))
    assert status(rp.check_k8_udp_ef, bad) == "does not hold"
    assert status(rp.check_k8_udp_ef, k89(lambda *a: 0.5, lambda *a: 1.0, settings=("unequal",))) \
        == "not measured"


def test_k9_udp():
    good = k89(lambda net, s, n: 0.2 + 0.15 * math.log2(n / 8), lambda net, s, n: 1.5,
               settings=("unequal",))
    assert status(rp.check_k9_udp, good) == "holds"
    bad = k89(lambda net, s, n: 0.8 - 0.15 * math.log2(n / 8), lambda net, s, n: 0.45,
              settings=("unequal",))
    assert status(rp.check_k9_udp, bad) == "does not hold"


def test_k9_udp_ef():
    good = k89(lambda net, s, n: 0.5, lambda net, s, n: 1.0, settings=("unequal",))
    assert status(rp.check_k9_udp_ef, good) == "holds"
    bad = k89(lambda net, s, n: 0.95 - 0.25 * math.log2(n / 8),
              lambda net, s, n: 0.2 + 0.5 * math.log2(n / 8), settings=("unequal",))
    assert status(rp.check_k9_udp_ef, bad) == "does not hold"


# ------------------------------------------------------------------------------------------
# K10
# ------------------------------------------------------------------------------------------

def padhye_data(errors, seeds=4, n=10):
    """Flows whose observed throughput is the PFTK prediction / (1 + error)."""
    reps = []
    for s in range(seeds):
        drops = [5 + ((s + i) % 7) for i in range(n)]
        sent = [2000] * n
        rtt = [0.03 + 0.002 * i for i in range(n)]
        rto = [0.25] * n
        p = np.array(drops) / np.array(sent)
        pred = metrics.padhye_throughput_pps(p, np.array(rtt), np.array(rto))
        e = np.array([errors[(s * n + i) % len(errors)] for i in range(n)])
        gp = pred / (1 + e) * 8 * SEG
        reps.append(dict(ef="onoff", udp=False, t_on_ms=1.0, seed=s, goodput=gp, drops=drops,
                         pkts_sent=sent, rtt=rtt, rto=rto))
    return R(reps)


def test_k10_padhye():
    assert status(rp.check_k10_padhye, padhye_data([0.3, -0.4, 0.5, 0.2])) == "holds"
    v = rp.check_k10_padhye(padhye_data([0.3, 0.02, -0.4, 0.01]))
    assert v.status == "partly holds"
    assert v.numbers["share_off_by_10pct_pooled"] == pytest.approx(0.5)
    assert status(rp.check_k10_padhye, padhye_data([0.01, -0.02, 0.05])) == "does not hold"
    nolosses = padhye_data([0.3])
    nolosses.flows["drops"] = 0
    assert status(rp.check_k10_padhye, nolosses) == "not measured"


def test_k10_uses_all_families_once_when_absent():
    a = padhye_data([0.3, -0.4])
    res, key = results_for("K10", {"K5": a, "K6": a, "K7": padhye_data([0.01])})
    assert key == "all families"
    assert len(res.flows) == len(a.flows) + 40


# ------------------------------------------------------------------------------------------
# Kf
# ------------------------------------------------------------------------------------------

def test_kf_single_flow_every_f():
    good = R(sum((k2_data(lambda t: hump(t, 0.3), f=f) for f in (0.05, 0.1, 0.2)), []))
    v = rp.check_kf_single_flow(good)
    assert v.status == "holds" and set(v.numbers) == {"f=5%", "f=10%", "f=20%"}
    mixed = R(k2_data(lambda t: hump(t, 0.3), f=0.1) + k2_data(lambda t: 0.01, f=0.2))
    assert status(rp.check_kf_single_flow, mixed) == "partly holds"
    bad = R(sum((k2_data(lambda t: 0.01, f=f) for f in (0.05, 0.1)), []))
    assert status(rp.check_kf_single_flow, bad) == "does not hold"


def test_kf_aggregate_every_f():
    good = R(sum((k4_data(lambda n, t: 0.01, lambda n, t: 1, f=f, seeds=4) for f in (0.1, 0.2)), []))
    assert status(rp.check_kf_aggregate, good) == "holds"
    bad = R(sum((k4_data(lambda n, t: 0.3, lambda n, t: 1, f=f, seeds=4) for f in (0.1, 0.2)), []))
    assert status(rp.check_kf_aggregate, bad) == "does not hold"
    assert status(rp.check_kf_aggregate, R(k2_data(lambda t: 0.1, f=0.1))) == "not measured"


def test_kf_fairness_every_f():
    def data(m):
        reps = fair_data(m, settings=("equal",), f=0.1, nets=("TCP-only", "TCP+EF"), seeds=4)
        return reps + fair_data(m, settings=("equal",), f=0.2, nets=("TCP+EF",), seeds=4)
    good = R(data(m_k5(0.1, 0.7, -0.15)))
    v = rp.check_kf_fairness(good)
    assert v.status == "holds" and set(v.numbers) == {"f=10%", "f=20%"}
    bad = R(data(m_k5(0.6, 0.2, 0.1)))
    assert status(rp.check_kf_fairness, bad) == "does not hold"


# ------------------------------------------------------------------------------------------
# Conclusions
# ------------------------------------------------------------------------------------------

def conclusions(results_by_family):
    return {c.id: c.evaluate(results_by_family) for c in kaur_vin_claims() if c.is_conclusion}


def test_conclusions_follow_family_verdicts():
    good = {"K2": R(k2_data(lambda t: hump(t, 0.4))),
            "K3": R(k3_data(lambda t, r: hump(t, 0.4 * (6.0 / r) ** 2))),
            "K4": R(k4_data(lambda n, t: 0.2 if n < 20 else 0.01, lambda n, t: n / 8)),
            "K5": R(fair_data(None, values_fn=values_k6(True), tons=(0.4, 1.0, 40.0))
                    )}
    # K5 data whose M also falls with T_on: EF networks narrow at small T_on, wider later
    def v(net, setting, n, t, seed):
        if NETS[net][0] is None:
            return np.r_[np.linspace(0.2, 1.8, n - 2), [0.1, 1.9]]
        w = 0.1 + 0.1 * math.log10(t / 0.4)
        return np.linspace(1 - w, 1 + w, n) + 0.005 * _noise(seed, t)
    good["K5"] = R(fair_data(None, values_fn=v, tons=(0.4, 1.0, 4.0, 40.0)))
    c = conclusions(good)
    assert {k: x.status for k, x in c.items()} == {"C1": "holds", "C2": "holds", "C3": "holds",
                                                     "C4": "holds"}
    bad = {"K2": R(k2_data(lambda t: 0.01)),
           "K3": R(k3_data(lambda t, r: hump(t, 0.4 * (r / 12.0) ** 2))),
           "K4": R(k4_data(lambda n, t: 0.3, lambda n, t: n / 8)),
           "K5": R(fair_data(None, values_fn=values_k6(False), tons=(0.4, 1.0, 4.0, 40.0)))}
    c = conclusions(bad)
    assert c["C1"].status == "does not hold"
    assert c["C2"].status == "does not hold"
    assert c["C3"].status == "does not hold"
    assert c["C4"].status in ("does not hold", "partly holds")
    # K5.3 and K6.1/K6.2 fail; K5.4 (a flat M) is at best partly
    assert c["C4"].numbers["K5.3"]["status"] == "does not hold"
    # C1 with K2 only partly there: peak large but curve only rising
    partial = conclusions({"K2": R(k2_data(lambda t: 0.3 * math.log10(t / 0.2) / 3.3))})
    assert partial["C1"].status == "partly holds"
    assert conclusions({})["C3"].status == "not measured"


def test_conclusion_with_missing_dependency_is_at_most_partly():
    deps = {"A": Verdict("holds"), "B": Verdict("not measured")}
    assert conclusion_from(deps).status == "partly holds"
    assert conclusion_from({"A": Verdict("holds")}).status == "holds"
    assert conclusion_from({"A": Verdict("not measured")}).status == "not measured"
    assert conclusion_from({"A": Verdict("does not hold"),
                                "B": Verdict("holds")}).status == "partly holds"


# ------------------------------------------------------------------------------------------
# write_report
# ------------------------------------------------------------------------------------------

def test_write_report(tmp_path):
    from diffsweep.report.figures import save
    from diffsweep.papers.kaur_vin.figures import fig2
    k2 = R(k2_data(lambda t: hump(t, 0.4)))
    png, pdf = save(fig2(k2), tmp_path / "figs" / "k2")
    md, html_path = write_report({"K2": k2}, tmp_path / "out", {"K2": [png, pdf]},
                                 ["duration 100 s (not in the paper)", "warm-up 10 s"],
                                 "CPU engine, 6 seeds", {"K2": 1.5, "total": 3.0})
    assert md.exists() and html_path.exists()
    text, page = md.read_text(), html_path.read_text()
    verdicts = json.loads((tmp_path / "out" / "verdicts.json").read_text())
    for c in kaur_vin_claims():
        assert c.id in text and c.id in page
        assert verdicts[c.id]["status"] in STATUSES
    assert verdicts["K2.1"]["status"] == "holds"
    assert verdicts["C1"]["status"] == "holds"
    assert verdicts["K5.3"]["status"] == "not measured"
    for section in ("## Set-up", "## Assumptions", "## Conclusions", "## Figures"):
        assert section in text
    assert "duration 100 s (not in the paper)" in text and "CPU engine, 6 seeds" in text
    assert "data:image/png;base64," in page            # self-contained
    assert "../figs/k2.png" in text                   # markdown links the PNG
    assert "95% CI" in text
    # each claim section shows a verdict line
    assert text.count("**Verdict:") == len(kaur_vin_claims())


def test_k5_ef_raises_without_a_t_on_in_the_ef_rows(monkeypatch):
    """EF rows without a T_on (an EF source that is not on-off) gave "TypeError: unsupported
    format string passed to NoneType.__format__" instead of a verdict."""
    import diffsweep.papers.kaur_vin.claims as kvc
    real = kvc._pairs
    monkeypatch.setattr(kvc, "_pairs", lambda fr, value, at_min_t_on=True: (
        (s, a, b, d, None) for s, a, b, d, _ in real(fr, value, at_min_t_on)))
    v = rp.check_k5_ef_raises(R(fair_data(m_k5(0.1, 0.7))))
    assert v.status == "holds" and "T_on =" not in v.reason

