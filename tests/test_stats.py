"""Replica statistics (diffsweep.analysis.stats)."""
import math

import numpy as np
import pandas as pd
import pytest

from diffsweep.core.errors import ConfigError
from diffsweep.core.results import Results
from diffsweep.analysis.stats import (betainc, ci_halfwidth_ok, ci_targets_unmet, summarize, t_cdf,
                                      t_quantile)


@pytest.mark.parametrize("dof,expected", [
    (1, 12.7062047), (2, 4.3026527), (5, 2.5705818), (10, 2.2281389), (30, 2.0422725),
])
def test_t_quantile_table(dof, expected):
    assert abs(t_quantile(0.975, dof) - expected) < 1e-6


def test_t_quantile_properties():
    # closed forms: dof=1 is Cauchy, dof=2 has t = (2p-1) / sqrt(2 p (1-p))
    for p in (0.6, 0.9, 0.995, 0.9999):
        assert math.isclose(t_quantile(p, 1), math.tan(math.pi * (p - 0.5)), rel_tol=1e-10)
        assert math.isclose(t_quantile(p, 2), (2 * p - 1) / math.sqrt(2 * p * (1 - p)),
                            rel_tol=1e-10)
    assert t_quantile(0.5, 7) == 0.0
    assert t_quantile(0.025, 5) == -t_quantile(0.975, 5)
    assert abs(t_quantile(0.975, math.inf) - 1.959963985) < 1e-8
    assert abs(t_quantile(0.975, 1e7) - 1.959963985) < 1e-6
    assert t_quantile(0.95, 3) < t_quantile(0.95, 2.5) < t_quantile(0.95, 2)  # fractional dof
    assert abs(t_cdf(t_quantile(0.95, 2.5), 2.5) - 0.95) < 1e-12
    for dof in (1, 3, 12):
        for p in (0.55, 0.8, 0.99):
            assert abs(t_cdf(t_quantile(p, dof), dof) - p) < 1e-12
    assert abs(betainc(2.0, 3.0, 0.4) - 0.5248) < 1e-12  # 1 - sum_{j<2} C(4,j) .4^j .6^(4-j)
    for bad in ((0.0, 3), (1.0, 3), (0.5, 0), (0.9, -1)):
        with pytest.raises(ConfigError):
            t_quantile(*bad)


def hand_table():
    return pd.DataFrame({
        "point": [0, 0, 0, 1, 1, 2, 2, 2, 2],
        "ef": ["onoff"] * 3 + ["cbr"] * 2 + ["onoff"] * 4,
        "seed": [0, 1, 2, 0, 1, 0, 1, 2, 3],
        "g": [1.0, 2.0, 3.0, 10.0, 10.0, 4.0, np.nan, 6.0, 8.0],
        "d": [1, 1, 1, 2, 4, 0, 0, 0, 0],
    })


def test_summarize_hand_table():
    s = summarize(hand_table(), by=["point"], metrics=["g", "d"])
    assert list(s.columns) == ["point", "metric", "mean", "std", "n", "ci_low", "ci_high",
                               "ci_halfwidth"]
    assert len(s) == 6 and list(s.metric) == ["g"] * 3 + ["d"] * 3
    g0 = s[(s.metric == "g") & (s.point == 0)].iloc[0]
    assert g0["mean"] == 2.0 and g0["std"] == 1.0 and g0["n"] == 3
    hw = 4.3026527 * 1.0 / math.sqrt(3)
    assert abs(g0["ci_halfwidth"] - hw) < 1e-6
    assert abs(g0["ci_low"] - (2 - hw)) < 1e-6 and abs(g0["ci_high"] - (2 + hw)) < 1e-6
    g1 = s[(s.metric == "g") & (s.point == 1)].iloc[0]
    assert g1["std"] == 0.0 and g1["ci_halfwidth"] == 0.0 and g1["n"] == 2
    g2 = s[(s.metric == "g") & (s.point == 2)].iloc[0]  # NaN left out
    assert g2["n"] == 3 and g2["mean"] == 6.0 and g2["std"] == 2.0
    d1 = s[(s.metric == "d") & (s.point == 1)].iloc[0]
    assert d1["mean"] == 3.0 and abs(d1["ci_halfwidth"] - 12.7062047 * math.sqrt(2) / math.sqrt(2)) < 1e-6


def test_summarize_groups_levels_and_results():
    df = hand_table()
    s = summarize(df, by=["ef"], metrics="g", level=0.9)
    assert list(s.ef) == ["cbr", "onoff"]
    on = s[s.ef == "onoff"].iloc[0]
    vals = np.array([1, 2, 3, 4, 6, 8.0])
    assert on["n"] == 6 and math.isclose(on["mean"], vals.mean())
    assert math.isclose(on["ci_halfwidth"], t_quantile(0.95, 5) * vals.std(ddof=1) / math.sqrt(6))
    one = summarize(df, by=[], metrics=["g"])
    assert len(one) == 1 and one["n"].iloc[0] == 8
    single = summarize(df[df.point == 0].head(1), by="point", metrics="g")
    assert single["n"].iloc[0] == 1 and np.isnan(single["ci_halfwidth"].iloc[0])
    assert np.isnan(single["std"].iloc[0])
    r = Results(replicas=df, flows=df.rename(columns={"g": "goodput_bps"}), queues=pd.DataFrame(),
                sources=pd.DataFrame(), intervals=pd.DataFrame())
    a = summarize(r, by=["point"], metrics=["g"])
    b = summarize(r, by=["point"], metrics=["goodput_bps"], table="flows")
    assert list(a["mean"]) == list(b["mean"])


def test_summarize_errors():
    df = hand_table()
    with pytest.raises(ConfigError, match=r"^metrics: no column 'gg' .*did you mean 'g'"):
        summarize(df, by=["point"], metrics=["gg"])
    with pytest.raises(ConfigError, match=r"^by: no column 'pint' .*did you mean 'point'"):
        summarize(df, by=["pint"], metrics=["g"])
    with pytest.raises(ConfigError, match=r"^metrics: column 'ef' is not numeric"):
        summarize(df, by=["point"], metrics=["ef"])
    with pytest.raises(ConfigError, match=r"^level"):
        summarize(df, by=["point"], metrics=["g"], level=95)
    with pytest.raises(ConfigError, match=r"^metrics"):
        summarize(df, by=["point"], metrics=[])


def test_ci_targets_unmet():
    s = pd.DataFrame({
        "point": [0, 1, 2, 3, 4, 5],
        "metric": ["g"] * 5 + ["d"],
        "mean": [100.0, 100.0, 0.0, 0.0, 5.0, -10.0],
        "ci_halfwidth": [4.0, 6.0, 1.0, 0.0, np.nan, 0.9],
    })
    unmet = ci_targets_unmet(s, 0.05)
    assert list(unmet.point) == [1, 2, 4, 5]  # 6% > 5%; 0 +- 1; n < 2; 9% > 5%
    assert list(ci_halfwidth_ok(s, 0.05)) == [True, False, False, True, False, False]
    assert list(ci_targets_unmet(s, 0.07).point) == [2, 4, 5]
    assert list(ci_targets_unmet(s, 0.05, relative=False).point) == [0, 1, 2, 4, 5]
    assert list(ci_targets_unmet(s, 5.0, relative=False).point) == [1, 4]
    assert list(ci_targets_unmet(s, {"d": 0.05}).point) == [5]
    assert list(ci_targets_unmet(s, {"d": 0.1}).point) == []
    with pytest.raises(ConfigError, match=r"^target"):
        ci_targets_unmet(s, 0)
    with pytest.raises(ConfigError, match=r"^summary"):
        ci_targets_unmet(s.drop(columns=["mean"]), 0.1)


def test_summarize_then_targets():
    s = summarize(hand_table(), by=["point"], metrics=["g"])
    # point 0: 2 +- 2.48 (124%), point 1: 10 +- 0, point 2: 6 +- 4.97 (83%)
    assert list(ci_targets_unmet(s, 0.9).point) == [0]
    assert list(ci_targets_unmet(s, 0.5).point) == [0, 2]


def test_one_t_quantile_for_the_package():
    """metrics.mean_ci and stats.summarize share one implementation, so they agree on bad
    input too (both used to exist: one returned NaN, the other raised)."""
    from diffsweep.analysis import metrics
    assert metrics.t_quantile is t_quantile
    with pytest.raises(ConfigError, match="dof"):
        metrics.t_quantile(0.975, float("nan"))
