"""Tests of diffsweep.analysis.metrics against hand-computed values on small hand-built tables.

Tables follow docs/api.md (flows: point, seed, flow, goodput_bps, segment_bytes, header_bytes,
timeouts, drops, pkts_sent, rtt_mean_s, rto_mean_s, ... plus grid columns such as t_on_ms, ef).
"""
import math

import numpy as np
import pandas as pd
import pytest

from diffsweep.analysis import metrics as m
from diffsweep.core.errors import ConfigError


# ------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------

def flow_rows(point, seed, goodputs, **grid):
    """Rows of a flows table for one replica; per-flow columns get plausible defaults."""
    rows = []
    for i, g in enumerate(goodputs):
        rows.append(dict(point=point, seed=seed, flow=i, variant="reno", rtp_ms=8.0,
                         segment_bytes=536, header_bytes=40, delivered_bytes=0,
                         goodput_bps=float(g), pkts_sent=1000, retransmits=0, timeouts=0,
                         fast_retransmits=0, drops=10, rtt_mean_s=0.1, rto_mean_s=1.0,
                         finish_s=np.nan, **grid))
    return rows


# ------------------------------------------------------------------------------------------
# scalar measures (Kaur & Vin Sec. 2.3, 4.1)
# ------------------------------------------------------------------------------------------

def test_jain_index_hand_values():
    assert m.jain_index([1, 1, 1, 1]) == pytest.approx(1.0)
    assert m.jain_index([1, 0, 0, 0]) == pytest.approx(0.25)
    assert m.jain_index([1, 2, 3]) == pytest.approx(36 / 42)        # 6^2 / (3 * 14)
    assert math.isnan(m.jain_index([0, 0, 0]))
    assert math.isnan(m.jain_index([]))
    # the paper's example: one starved flow, n-1 equal ones -> F = 1 - 1/n
    assert m.jain_index([0, 5, 5, 5, 5]) == pytest.approx(1 - 1 / 5)


def test_min_max_ratio_hand_values():
    assert m.min_max_ratio([2, 4, 8]) == pytest.approx(0.25)
    assert m.min_max_ratio(np.array([3.0, 3.0])) == pytest.approx(1.0)
    assert m.min_max_ratio([0, 5, 5]) == 0.0
    assert math.isnan(m.min_max_ratio([0, 0]))
    assert math.isnan(m.min_max_ratio([]))


def test_normalized_throughput():
    # C = 12 b/s shared by 3 flows -> fair share 4
    out = m.normalized_throughput([2, 4, 6], 12.0)
    np.testing.assert_allclose(out, [0.5, 1.0, 1.5])
    assert out.mean() == pytest.approx(1.0)
    with pytest.raises(ConfigError):
        m.normalized_throughput([1, 2], 0)


def test_normalized_throughputs_table():
    flows = pd.DataFrame(flow_rows(0, 0, [10, 30], available_bps=40.0)
                         + flow_rows(0, 1, [20, 20, 20, 20], available_bps=40.0))
    out = m.normalized_throughputs(flows)
    # replica (0,0): share 20 -> 0.5, 1.5; replica (0,1): share 10 -> 2 each
    np.testing.assert_allclose(out["normalized"], [0.5, 1.5, 2, 2, 2, 2])


# ------------------------------------------------------------------------------------------
# per-replica tables
# ------------------------------------------------------------------------------------------

def make_fair_flows():
    rows = (flow_rows(0, 0, [2, 4, 8], t_on_ms=1.0, ef="onoff")
            + flow_rows(0, 1, [1, 1, 1], t_on_ms=1.0, ef="onoff")
            + flow_rows(1, 0, [1, 0, 0, 0], t_on_ms=10.0, ef="onoff"))
    df = pd.DataFrame(rows)
    # an unknown per-flow column (varies inside a replica) must not be carried
    df["mystery_per_flow"] = np.arange(len(df))
    # an unknown replica-level column (constant inside each replica) must be carried
    df["n_label"] = df["point"].map({0: "small", 1: "big"})
    return df.sample(frac=1.0, random_state=3)      # row order must not matter


def test_grid_columns_detected_generically():
    cols = m.grid_columns(make_fair_flows())
    assert cols == ["t_on_ms", "ef", "n_label"]


def test_per_replica_and_fairness():
    flows = make_fair_flows()
    r = m.per_replica(flows, m.jain_index)
    assert list(r[["point", "seed"]].itertuples(index=False, name=None)) == [(0, 0), (0, 1), (1, 0)]
    assert "jain_index" in r and "t_on_ms" in r and "ef" in r and "n_label" in r
    assert "mystery_per_flow" not in r and "goodput_bps" not in r and "flow" not in r
    np.testing.assert_allclose(r["jain_index"], [196 / 252, 1.0, 0.25])   # (14^2)/(3*84)
    np.testing.assert_allclose(r["t_on_ms"], [1.0, 1.0, 10.0])

    f = m.fairness(flows)
    np.testing.assert_allclose(f["min_max_ratio"], [0.25, 1.0, 0.0])
    np.testing.assert_allclose(f["jain_index"], [196 / 252, 1.0, 0.25])
    assert list(f["n_tcp"]) == [3, 3, 4]

    custom = m.per_replica(flows, np.max, name="best")
    np.testing.assert_allclose(custom["best"], [8, 1, 1])


def test_utilization_hand_table():
    # point 0: segment 500 + header 50 -> wire factor 1.1; 10 + 8 Mb/s goodput -> 19.8 Mb/s
    #          on the wire, available 22 Mb/s -> U = 0.9
    # point 1: flows (seg 500, hdr 50, 10 Mb/s) and (seg 1000, hdr 40, 5 Mb/s)
    #          -> 11 + 5.2 = 16.2 Mb/s, available 20 Mb/s -> U = 0.81
    flows = pd.DataFrame([
        dict(point=0, seed=7, flow=0, goodput_bps=10e6, segment_bytes=500, header_bytes=50),
        dict(point=0, seed=7, flow=1, goodput_bps=8e6, segment_bytes=500, header_bytes=50),
        dict(point=1, seed=7, flow=0, goodput_bps=10e6, segment_bytes=500, header_bytes=50),
        dict(point=1, seed=7, flow=1, goodput_bps=5e6, segment_bytes=1000, header_bytes=40),
    ])
    replicas = pd.DataFrame([
        dict(point=1, seed=7, available_bps=20e6, ef="onoff", tcp_goodput_bps=15e6),
        dict(point=0, seed=7, available_bps=22e6, ef="cbr", tcp_goodput_bps=18e6),
        dict(point=2, seed=7, available_bps=20e6, ef="cbr", tcp_goodput_bps=0.0),  # no flows
    ])
    u = m.utilization(replicas, flows)
    assert list(u["point"]) == [0, 1, 2]
    np.testing.assert_allclose(u["tcp_wire_bps"][:2], [19.8e6, 16.2e6])
    np.testing.assert_allclose(u["U"][:2], [0.9, 0.81])
    assert math.isnan(u["U"][2])
    assert list(u["ef"]) == ["cbr", "onoff", "cbr"]           # replica columns are kept
    with pytest.raises(ConfigError, match="replicas.available_bps"):
        m.utilization(replicas.drop(columns="available_bps"), flows)
    np.testing.assert_allclose(m.utilization(replicas, flows, available=18e6)["U"][:2],
                               [1.1, 0.9])


def util_table_cartesian():
    """ef in {cbr, onoff} x t_on_ms in {1, 10}, seeds 0 and 1; t_off_ms derived (0 for CBR)."""
    rows, point = [], 0
    U = {("cbr", 1.0): [0.95, 0.97], ("cbr", 10.0): [0.96, 0.94],
         ("onoff", 1.0): [0.70, 0.80], ("onoff", 10.0): [0.90, 0.85]}
    for ef in ("cbr", "onoff"):
        for t_on in (1.0, 10.0):
            for seed in (0, 1):
                rows.append(dict(point=point, seed=seed, ef=ef, t_on_ms=t_on,
                                 t_off_ms=0.0 if ef == "cbr" else t_on * 7 / 3,
                                 available_bps=28e6, n_flows=1, U=U[(ef, t_on)][seed]))
            point += 1
    return pd.DataFrame(rows)


def test_throughput_loss_pairs_by_seed():
    util = util_table_cartesian()
    loss = m.throughput_loss(util)                 # on=None: pairs on t_on_ms (+ available_bps)
    assert len(loss) == 4
    got = {(r.t_on_ms, r.seed): r.loss for r in loss.itertuples()}
    assert got[(1.0, 0)] == pytest.approx(0.95 - 0.70)
    assert got[(1.0, 1)] == pytest.approx(0.97 - 0.80)
    assert got[(10.0, 0)] == pytest.approx(0.96 - 0.90)
    assert got[(10.0, 1)] == pytest.approx(0.94 - 0.85)
    assert {"U_cbr", "U_ef", "point_cbr", "point_ef", "t_off_ms"} <= set(loss.columns)
    # explicit pairing columns give the same answer
    loss2 = m.throughput_loss(util, on=["t_on_ms"])
    np.testing.assert_allclose(loss2["loss"], loss["loss"])
    # then a CI over seeds of the paired differences
    ci = m.mean_ci(loss, "t_on_ms", "loss")
    assert ci["mean"].tolist() == pytest.approx([(0.25 + 0.17) / 2, (0.06 + 0.09) / 2])
    assert list(ci["n"]) == [2, 2]


def test_throughput_loss_broadcasts_single_cbr_point():
    # CBR run once per seed (t_on_ms is NaN there): every EF point pairs with it by seed
    util = pd.DataFrame([
        dict(point=0, seed=0, ef="cbr", t_on_ms=np.nan, U=0.9),
        dict(point=0, seed=1, ef="cbr", t_on_ms=np.nan, U=0.8),
        dict(point=1, seed=0, ef="onoff", t_on_ms=1.0, U=0.5),
        dict(point=1, seed=1, ef="onoff", t_on_ms=1.0, U=0.6),
        dict(point=2, seed=0, ef="onoff", t_on_ms=4.0, U=0.7),
        dict(point=2, seed=1, ef="onoff", t_on_ms=4.0, U=0.75),
    ])
    loss = m.throughput_loss(util)
    np.testing.assert_allclose(loss["loss"], [0.4, 0.2, 0.2, 0.05])
    assert list(loss["seed"]) == [0, 1, 0, 1]
    assert list(loss["t_on_ms"]) == [1.0, 1.0, 4.0, 4.0]


def test_throughput_loss_ambiguous_pairing_raises():
    util = util_table_cartesian()
    with pytest.raises(ConfigError):
        m.throughput_loss(util, on=[])       # two CBR rows per seed -> ambiguous


def test_timeouts_per_flow():
    rows = flow_rows(0, 0, [1, 1, 1], t_on_ms=1.0) + flow_rows(0, 1, [1, 1], t_on_ms=1.0)
    df = pd.DataFrame(rows)
    df["timeouts"] = [3, 0, 6, 1, 2]
    t = m.timeouts_per_flow(df)
    assert list(t["timeouts_total"]) == [9, 3]
    assert list(t["n_tcp"]) == [3, 2]
    np.testing.assert_allclose(t["timeouts_per_flow"], [3.0, 1.5])
    assert list(t["t_on_ms"]) == [1.0, 1.0]


# ------------------------------------------------------------------------------------------
# Padhye et al. (PFTK) full model
# ------------------------------------------------------------------------------------------

def pftk_reference(p, rtt, t0, b, wmax):
    """Eq. 31 of PFTK written out directly in plain math (independent of the module's
    vectorised, expm1-based implementation)."""
    ew = (2 + b) / (3 * b) + math.sqrt(8 * (1 - p) / (3 * b * p) + ((2 + b) / (3 * b)) ** 2)

    def Q(w):
        return min(1.0, (1 - (1 - p) ** 3) * (1 + (1 - p) ** 3 * (1 - (1 - p) ** (w - 3)))
                   / (1 - (1 - p) ** w))

    f = 1 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6
    if ew < wmax:
        q = Q(ew)
        return ((1 - p) / p + ew + q / (1 - p)) / (rtt * (b / 2 * ew + 1) + q * t0 * f / (1 - p))
    q = Q(wmax)
    return ((1 - p) / p + wmax + q / (1 - p)) / (
        rtt * (b / 8 * wmax + (1 - p) / (p * wmax) + 2) + q * t0 * f / (1 - p))


@pytest.mark.parametrize("p, rtt, t0, b, wmax", [
    (0.01, 0.1, 1.0, 1, 1000),      # unlimited window branch
    (0.05, 0.2, 2.0, 2, 64),        # heavy loss, delayed ACKs
    (0.001, 0.05, 0.5, 1, 10),      # E[W] ~ 52 > 10: W_max branch
    (0.3, 0.02, 0.2, 1, 1000),      # Q = 1 region (timeouts dominate)
])
def test_padhye_matches_independent_formula(p, rtt, t0, b, wmax):
    got = m.padhye_throughput_pps(p, rtt, t0, b, wmax)
    assert isinstance(got, float)
    assert got == pytest.approx(pftk_reference(p, rtt, t0, b, wmax), rel=1e-10)


def test_padhye_hand_value():
    # p = 0.01, RTT = 0.1 s, T0 = 1 s, b = 1: E[W] = 1 + sqrt(8*0.99/0.03 + 1) = 1 + sqrt(265)
    ew = 1 + math.sqrt(265.0)
    assert ew == pytest.approx(17.2788, abs=1e-4)
    assert m.padhye_throughput_pps(0.01, 0.1, 1.0) == pytest.approx(98.829, abs=1e-3)


def test_padhye_vectorised_monotone_and_capped():
    p = np.logspace(-7, -0.1, 300)
    for wmax in (1000.0, 64.0, 10.0):
        for b in (1, 2):
            B = m.padhye_throughput_pps(p, 0.1, 1.0, b, wmax)
            assert B.shape == p.shape
            assert np.all(np.diff(B) < 0), (wmax, b)          # decreasing in p
            assert np.all(B <= wmax / 0.1 + 1e-9)             # never above W_max / RTT
    # the cap: tiny p is window-limited; p == 0 is exactly W_max / RTT
    assert m.padhye_throughput_pps(1e-9, 0.1, 1.0, 1, 10) == pytest.approx(100.0, rel=1e-4)
    assert m.padhye_throughput_pps(0.0, 0.1, 1.0, 1, 10) == pytest.approx(100.0)
    # broadcasting over arrays of every argument; out-of-range p gives NaN
    out = m.padhye_throughput_pps(np.array([0.01, 0.01, 1.0, -0.1]), np.array([0.1, 0.2, 0.1, 0.1]),
                                  1.0, 1, np.array([1000, 1000, 1000, 1000]))
    assert out[0] == pytest.approx(pftk_reference(0.01, 0.1, 1.0, 1, 1000), rel=1e-10)
    assert out[1] == pytest.approx(pftk_reference(0.01, 0.2, 1.0, 1, 1000), rel=1e-10)
    assert out[1] < out[0]                                   # longer RTT, lower rate
    assert np.isnan(out[2]) and np.isnan(out[3])


def test_padhye_error_sign_and_nan():
    pred = pftk_reference(0.01, 0.1, 1.0, 1, 1000)          # ~98.8 pkts/s
    rows = flow_rows(0, 0, [50 * 8 * 536, 200 * 8 * 536, 100 * 8 * 536, 0.0])
    df = pd.DataFrame(rows)          # drops 10 / pkts_sent 1000 -> p = 0.01
    df.loc[2, "drops"] = 0           # p == 0 -> NaN
    out = m.padhye_error(df)
    e = out["padhye_error"].to_numpy()
    assert e[0] == pytest.approx((pred - 50) / 50)           # model over-predicts -> positive
    assert e[0] > 0
    assert e[1] == pytest.approx((pred - 200) / 200) and e[1] < 0
    assert np.isnan(e[2]) and np.isnan(e[3])                 # p == 0, observed == 0
    np.testing.assert_allclose(out["observed_pps"][:2], [50, 200])
    # a max_window_pkts column replaces the w_max parameter
    df2 = df.copy()
    df2["max_window_pkts"] = 5
    out2 = m.padhye_error(df2)
    assert out2["predicted_pps"][0] == pytest.approx(pftk_reference(0.01, 0.1, 1.0, 1, 5))
    assert out2["predicted_pps"][0] <= 5 / 0.1


# ------------------------------------------------------------------------------------------
# Student t and mean_ci
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("df, t", [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281),
                                   (30, 2.0423), (100, 1.9840)])
def test_t_quantile_table(df, t):
    assert m.t_quantile(0.975, df) == pytest.approx(t, abs=1e-4)


def test_t_quantile_other_levels():
    assert m.t_quantile(0.995, 3) == pytest.approx(5.8409, abs=1e-4)
    assert m.t_quantile(0.95, 20) == pytest.approx(1.7247, abs=1e-4)
    assert m.t_quantile(0.025, 10) == pytest.approx(-2.2281, abs=1e-4)
    assert m.t_quantile(0.975, float("inf")) == pytest.approx(1.959964, abs=1e-6)


def test_mean_ci_hand_values():
    df = pd.DataFrame({"g": ["a"] * 4 + ["b"] + ["c"] * 3,
                       "v": [1.0, 2.0, 3.0, 4.0, 5.0, 2.0, np.nan, 4.0]})
    out = m.mean_ci(df, "g", "v")
    assert list(out.columns) == ["g", "mean", "std", "n", "ci_low", "ci_high"]
    a, b, c = (out[out["g"] == k].iloc[0] for k in "abc")
    # a: mean 2.5, s^2 = 5/3, half = t_{.975,3} * s / 2 with t_{.975,3} = 3.182446
    s = math.sqrt(5 / 3)
    assert a["mean"] == pytest.approx(2.5) and a["std"] == pytest.approx(s) and a["n"] == 4
    assert a["ci_low"] == pytest.approx(2.5 - 3.182446 * s / 2, abs=1e-5)
    assert a["ci_high"] == pytest.approx(2.5 + 3.182446 * s / 2, abs=1e-5)
    # b: n == 1 -> std and CI NaN
    assert b["n"] == 1 and b["mean"] == 5.0
    assert np.isnan(b["std"]) and np.isnan(b["ci_low"]) and np.isnan(b["ci_high"])
    # c: NaN dropped -> values 2, 4: s = sqrt(2), half = 12.7062 * sqrt(2)/sqrt(2)
    assert c["n"] == 2 and c["mean"] == pytest.approx(3.0)
    assert c["ci_high"] - c["mean"] == pytest.approx(12.7062, abs=1e-4)
    # overall (by=None) and a 90% level
    tot = m.mean_ci(df, None, "v", level=0.90)
    assert len(tot) == 1 and tot["n"][0] == 7
    vals = df["v"].dropna().to_numpy()
    half = 1.9432 * vals.std(ddof=1) / math.sqrt(7)         # t_{0.95,6} = 1.9432
    assert tot["ci_high"][0] - tot["mean"][0] == pytest.approx(half, abs=1e-3)


def test_mean_ci_multiple_by_columns():
    df = pd.DataFrame({"N": [16, 8, 8, 16, 8], "ef": ["x", "x", "y", "x", "x"],
                       "M": [0.2, 0.1, 0.5, 0.4, 0.3]})
    out = m.mean_ci(df, ["N", "ef"], "M")
    assert list(out[["N", "ef"]].itertuples(index=False, name=None)) == [(8, "x"), (8, "y"), (16, "x")]
    np.testing.assert_allclose(out["mean"], [0.2, 0.5, 0.3])
    assert list(out["n"]) == [2, 1, 2]
    # a group column named like an output column would be ambiguous
    with pytest.raises(ConfigError, match="by"):
        m.mean_ci(df.rename(columns={"N": "n"}), ["n", "ef"], "M")


def test_bounded_interval_never_leaves_0_1():
    """The min-max ratio M lies in [0, 1]; its interval must too (the plain t-interval of
    small, spread-out values crosses 0)."""
    rng = np.random.default_rng(7)
    rows = []
    for g in range(200):
        n = int(rng.integers(2, 8))
        centre = rng.choice([0.01, 0.05, 0.5, 0.95, 0.99])
        vals = np.clip(centre + rng.normal(0, 0.2, n), 0, 1)
        rows += [{"g": g, "M": float(v)} for v in vals]
    df = pd.DataFrame(rows)
    plain = m.mean_ci(df, "g", "M")
    assert (plain["ci_low"] < 0).any() and (plain["ci_high"] > 1).any()
    b = m.mean_ci(df, "g", "M", bounds=m.M_BOUNDS)
    ok = b["ci_low"].notna()
    assert ((b.loc[ok, "ci_low"] >= 0) & (b.loc[ok, "ci_high"] <= 1)).all()
    assert ((b.loc[ok, "ci_low"] <= b.loc[ok, "mean"]) & (b.loc[ok, "mean"] <= b.loc[ok, "ci_high"])).all()
    pd.testing.assert_series_equal(b["mean"], plain["mean"])
    # far from the bounds the logit interval is close to the t-interval
    mid = df[df["M"].between(0.4, 0.6)].assign(g=0)
    one_plain, one_b = m.mean_ci(mid, "g", "M"), m.mean_ci(mid, "g", "M", bounds=(0, 1))
    assert one_b["ci_low"].iloc[0] == pytest.approx(one_plain["ci_low"].iloc[0], abs=0.01)
    with pytest.raises(ConfigError, match="bounds"):
        m.mean_ci(df, "g", "M", bounds=(1, 0))


def test_per_results_computes_once_per_results_and_hands_out_copies():
    """A paper's per-seed table read by many claims is computed once per Results (and once
    again when its tables are replaced); each caller gets its own copy to change."""
    import pandas as pd
    from diffsweep.core.results import Results, per_results
    calls = []

    @per_results
    def table(res, scale=1.0):
        calls.append(scale)
        return res.flows.assign(x=res.flows["goodput_bps"] * scale)

    flows = pd.DataFrame({"point": [0, 0], "seed": [0, 0], "flow": [0, 1], "goodput_bps": [1.0, 2.0]})
    res = Results(replicas=pd.DataFrame({"point": [0], "seed": [0]}), flows=flows,
                  queues=pd.DataFrame(), sources=pd.DataFrame(), intervals=pd.DataFrame())
    a = table(res)
    a.loc[0, "x"] = -1.0  # the caller's own copy
    b = table(res)
    assert calls == [1.0] and b["x"].tolist() == [1.0, 2.0]
    assert table(res, scale=2.0)["x"].tolist() == [2.0, 4.0] and calls == [1.0, 2.0]
    res.flows = flows.iloc[:1]  # other tables: computed again
    assert table(res)["x"].tolist() == [1.0] and calls == [1.0, 2.0, 1.0]
