"""Matta & Guo's open question of Sec. 6 (issue 44): lifetime-based classification in the
matta_guo builder (a connection's first N packets in the short pipe), the claim ML.1 ("isolation
pays the short flows", and where it stops) and its atlas parameter."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import diffsweep
from diffsweep import Grid, papers
from diffsweep.core.errors import ConfigError
from diffsweep.papers.matta_guo import claims as mgc
from diffsweep.papers.matta_guo.scenario import B_U_PKTS, C_U_BPS, matta_guo
from diffsweep.studies.reproduce import select


def test_size_based_is_unchanged_and_lifetime_makes_two_pipes():
    assert matta_guo() == matta_guo(lifetime_pkts=None)
    sc = matta_guo(k=4, lifetime_pkts=20)
    short, long_ = sc.links
    assert (short.rate_bps, long_.rate_bps) == (C_U_BPS, 4 * C_U_BPS)
    assert short.classes[0].limit_pkts == B_U_PKTS and long_.classes[0].limit_pkts == 4 * B_U_PKTS
    assert short.prop_delay_ms == long_.prop_delay_ms == 40.0
    for tr in sc.traffic:
        f = tr.flow
        assert (f.route, f.route2, f.split, f.split_pkts) == ((0,), (1,), "lifetime", 20)
    # telnet flows stay on their pipes, half on each, unsplit
    assert [f.route for f in sc.flows] == [(0,), (1,)] * 3
    assert {f.split for f in sc.flows} == {"none"}
    assert sc.params["lifetime_pkts"] == 20
    # sharing: one FIFO whatever N
    sh = matta_guo(isolation=False, lifetime_pkts=20)
    assert len(sh.links) == 1 and sh.links == matta_guo(isolation=False).links


@pytest.mark.parametrize("bad", [0, -3, 2.5, "ten"])
def test_bad_threshold_names_lifetime_pkts(bad):
    with pytest.raises(ConfigError, match=r"^lifetime_pkts: "):
        matta_guo(lifetime_pkts=bad)


@pytest.mark.parametrize("n", [3, 12])
def test_each_connection_puts_its_first_n_packets_in_the_short_pipe(n):
    """Hand count: with no loss, the short pipe carries min(sent, N) packets of each
    connection and the long pipe the rest (one session per class, no telnet, 6 s)."""
    g = Grid(matta_guo, seeds=1, n_flows=1, k=4, duration_s=6.0, telnet_sessions=0,
             lifetime_pkts=[n])
    res = diffsweep.run(g, backend="cpu", progress=False)
    tr = res.transfers
    assert (tr["retransmits"] == 0).all() and len(tr) >= 3
    sent = tr["pkts_sent"].to_numpy()
    q = res.queues.set_index("link")
    assert q.loc[0, "drops"] == q.loc[1, "drops"] == 0
    assert q.loc[0, "arrivals"] == np.minimum(sent, n).sum()
    assert q.loc[1, "arrivals"] == np.maximum(sent - n, 0).sum()


def _rows(n, k, iso_fair, iso_good, sh_fair=0.9, sh_good=2.0, seeds=4):
    rows = []
    for s in range(seeds):
        e = 0.001 * (s - 1.5)  # a little spread per seed, the same on both sides
        rows.append(dict(lifetime_pkts=n, k=k, seed=s, mode="isolation", cls="short",
                         jain_index=iso_fair + e, goodput_mbps=iso_good + e))
        rows.append(dict(lifetime_pkts=n, k=k, seed=s, mode="sharing", cls="short",
                         jain_index=sh_fair + e, goodput_mbps=sh_good + e))
    return rows


def test_isolation_pays_and_where_it_stops(monkeypatch):
    """Hand-made per-seed tables: at k = 1 isolation pays at N = 5, 10, 20 and loses goodput
    from N = 50; at k = 4 it pays at N = 10 only (N = 5: no difference; N = 20: less
    goodput). So it pays at every k at N = 10 and stops paying at N = 20."""
    rows = (_rows(5, 1, 0.95, 2.5) + _rows(10, 1, 0.99, 2.6) + _rows(20, 1, 0.99, 2.2)
            + _rows(50, 1, 0.99, 1.5)
            + _rows(5, 4, 0.9, 2.0) + _rows(10, 4, 0.95, 2.0) + _rows(20, 4, 0.95, 1.0)
            + _rows(50, 4, 0.8, 1.0))
    monkeypatch.setattr(mgc.mt, "per_seed", lambda res: pd.DataFrame(rows))
    v = mgc.check_isolation_pays(object())
    assert v.status == "holds"
    assert v.numbers["pays_at_N"] == [10] and v.numbers["stops_paying_at_N"] == 20
    assert v.numbers["k 1: pays_at_N"] == [5, 10, 20]
    assert v.numbers["k 1: stops_paying_at_N"] == 50
    assert v.numbers["k 4: pays_at_N"] == [10]
    assert v.numbers["N = 5"]["k 4"]["status"] == "partly holds"
    assert v.reason.startswith("isolation pays at every k at N = 10 and stops paying at N = 20")
    # nowhere better at every k, somewhere at one k: partly
    monkeypatch.setattr(mgc.mt, "per_seed", lambda res: pd.DataFrame(
        _rows(5, 1, 0.95, 2.5) + _rows(5, 4, 0.8, 1.0)))
    assert mgc.check_isolation_pays(object()).status == "partly holds"
    # worse everywhere: does not hold
    monkeypatch.setattr(mgc.mt, "per_seed", lambda res: pd.DataFrame(
        _rows(5, 1, 0.8, 1.5) + _rows(50, 4, 0.8, 1.0)))
    assert mgc.check_isolation_pays(object()).status == "does not hold"


def test_ml_family_is_full_only_and_its_claims_are_mappable_over_n():
    paper = papers.get("matta-guo")
    assert "ML" not in [f.id for f in select(paper.families, None, quick=True)]
    assert "ML" in [f.id for f in select(paper.families, None)]
    maps = {m.claim: m for m in paper.map_list()}
    assert {"M3.1", "ML.1"} <= set(maps)
    (param,) = maps["ML.1"].params
    assert param.name == "lifetime_pkts" and param.value("20", "axes") == 20
    with pytest.raises(ConfigError, match="lifetime_pkts"):
        param.value("0", "lifetime_pkts")
    ml = next(c for c in paper.claim_list() if c.id == "ML.1")
    assert "best threshold values" in ml.text and ml.family == "ML"


def test_ml_figure_draws_the_curves_and_the_map():
    """A tiny ML run (2 sessions per class, 45 s): panel (c) has one cell per (N, k)."""
    from diffsweep.papers.matta_guo.figures import FIGURES

    g = Grid(matta_guo, seeds=2, n_flows=2, k=[1, 4], isolation=[True, False],
             lifetime_pkts=[5, 20], duration_s=45.0, telnet_sessions=0)
    res = diffsweep.run(g, backend="cpu", progress=False)
    fig = FIGURES["ML"](res)
    a, b, c = fig.axes
    assert a.get_xscale() == "log" and len(a.get_lines()) >= 4
    assert len(c.patches) == 4  # N = 5, 20 x k = 1, 4
    assert [t.get_text() for t in c.get_xticklabels()] == ["5", "20"]
