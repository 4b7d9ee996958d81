"""Matta & Guo (isolating short and long TCP flows): the builder's values and errors, a short
run where isolated short flows are fairer than shared ones, the tables on a hand-made transfers
frame, and ``diffsweep reproduce matta-guo`` of one family through the CLI on a tiny sweep."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from diffsweep import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.papers.matta_guo import tables as mt
from diffsweep.papers.matta_guo.scenario import matta_guo, matta_guo_web
from reproduce_util import reproduce_shrunk

ROOT = Path(__file__).resolve().parents[1]


def test_builder_values():
    sc = matta_guo(n_flows=30, k=4)
    (link,) = sc.links
    assert link.scheduler == "cbq" and not link.cbq_lend and link.prop_delay_ms == 40.0
    assert link.rate_bps == pytest.approx(5 * 2.5e6)
    s, lg = link.classes
    assert (s.name, s.limit_pkts, lg.name, lg.limit_pkts) == ("short", 50, "long", 200)
    assert s.share == pytest.approx(0.2) and lg.share == pytest.approx(0.8)
    assert sc.tcp_tick_s == 0.5 and sc.interval_s == 20.0
    assert [t.name for t in sc.traffic] == ["short", "long"]
    assert [t.pool for t in sc.traffic] == [30, 30]              # one session per pool slot
    assert [t.size_set_pkts for t in sc.traffic] == [(10,), (1000,)]
    assert {t.first_start_s for t in sc.traffic} == {5.0}        # Sec. 4.1: the first 5 s
    f = sc.traffic[0].flow
    assert f.wire_bytes == 576 and f.max_window_pkts == 128 and f.access_buffer_pkts == 4000
    assert f.access_rate_bps == 10e6
    assert (f.access_delay_ms, f.egress_delay_ms, f.reverse_delay_ms) == (5.0, 5.0, 50.0)
    assert [t.cls for t in sc.flows] == ["short", "long"] * 3
    assert all(t.telnet_interval_s == 0.0 for t in sc.flows)    # ns-2 tcplib (interval_ 0)
    sh = matta_guo(n_flows=60, k=1, isolation=False)
    (q,) = sh.links[0].classes
    assert q.limit_pkts == 100 and sh.links[0].rate_bps == pytest.approx(5e6)
    assert [t.pool for t in sh.traffic] == [60, 60]
    b = matta_guo(k=4, buffer_ratio=0.2)
    assert [c.limit_pkts for c in b.links[0].classes] == [10, 40]
    red = matta_guo(isolation=False, aqm="red")
    assert red.links[0].classes[0].aqm == "red"


@pytest.mark.parametrize("kw, name", [
    ({"n_flows": 0}, "n_flows"), ({"k": 0}, "k"), ({"k": 100}, "k"),
    ({"buffer_ratio": 0}, "buffer_ratio"), ({"isolation": "yes"}, "isolation"),
    ({"aqm": "codel"}, "aqm"), ({"aqm": "red", "isolation": True}, "aqm"),
    ({"duration_s": 0}, "duration_s"), ({"think_s": 0}, "think_s"),
    ({"telnet_sessions": -1}, "telnet_sessions"), ({"max_window_pkts": 0}, "max_window_pkts"),
])
def test_bad_parameters_name_the_parameter(kw, name):
    with pytest.raises(ConfigError, match=rf"^{name}: "):
        matta_guo(**kw)


def test_web_builder_values():
    """Fig. 6 / Table 3: two 5 Mb/s paths of 250 packets, a 219-ms round trip (C x RTT = 238
    packets), every flow split by the scheme, the web model's sessions and sizes."""
    sc = matta_guo_web(scheme="size-based")
    assert len(sc.links) == 2
    for link in sc.links:
        (q,) = link.classes
        assert link.rate_bps == 5e6 and q.limit_pkts == 250 and q.aqm == "droptail"
    short, long_, web = sc.traffic
    assert (short.name, short.pool, short.size_set_pkts) == ("short", 10, (10,))
    assert (long_.name, long_.pool, long_.size_set_pkts) == ("long", 10, (1000,))
    assert (web.kind, web.sessions, web.pages_per_session, web.objects_per_page) == ("web", 200, 1900, 1)
    assert (web.inter_page_s, web.size_dist, web.size_min_pkts, web.size_max_pkts,
            web.size_alpha) == (2.4, "pareto", 4.0, 2e5, 1.2)
    assert 20.0 < web.mean_size_pkts() < 22.0
    f = web.flow
    rtt_s = (f.access_delay_ms + sc.links[0].prop_delay_ms + f.egress_delay_ms
             + f.reverse_delay_ms) / 1e3
    assert 5e6 * rtt_s / (576 * 8) == pytest.approx(238, abs=0.5)
    for t in sc.traffic:
        assert (t.flow.route, t.flow.route2, t.flow.split, t.flow.split_pkts) == ((0,), (1,), "size", 75)
    life = matta_guo_web(scheme="lifetime-based").traffic[2].flow
    assert (life.split, life.split_pkts) == ("lifetime", 32)
    red = matta_guo_web(scheme="red")
    q = red.links[0].classes[0]
    assert q.aqm == "red" and (q.red[0].min_th, q.red[0].max_th, q.red[0].max_p) == (20.0, 245.0, 0.002)
    assert red.traffic[0].flow.split == "random"
    assert matta_guo_web(scheme="load-balanced").links[0].classes[0].aqm == "droptail"


@pytest.mark.parametrize("kw, name", [
    ({"scheme": "isolation"}, "scheme"), ({"n_long": 0}, "n_long"), ({"web_pool": 0}, "web_pool"),
    ({"web_interarrival_s": -1}, "web_interarrival_s"), ({"duration_s": 0}, "duration_s"),
])
def test_web_bad_parameters_name_the_parameter(kw, name):
    with pytest.raises(ConfigError, match=rf"^{name}: "):
        matta_guo_web(**kw)


def test_web_short_run_isolation_helps_short_sessions():
    """60 s of each scheme on one seed: the pool never runs dry, and size-based isolation gives
    short sessions more goodput than load-balanced drop-tail (the paper's Fig. 7b)."""
    schemes = ["load-balanced", "size-based", "lifetime-based", "red"]
    scs = [matta_guo_web(scheme=s, duration_s=60.0) for s in schemes]
    res = simulate(scs, seeds=[5] * 4, backend="cpu")
    assert (res.traffic.refused == 0).all() and (res.traffic.records_lost == 0).all()
    ps = mt.per_seed(_with_params(res, scs)).set_index(["mode", "cls"])
    assert set(ps.index.get_level_values("mode")) == set(schemes)
    assert ps.loc[("size-based", "short"), "goodput_mbps"] > ps.loc[("load-balanced", "short"),
                                                                    "goodput_mbps"]
    assert ps.loc[("size-based", "short"), "jain_index"] > 0.95


def _with_params(res, scs):
    tr = res.transfers
    p = pd.DataFrame([dict(sc.params, point=i, seed=0) for i, sc in enumerate(scs)])
    return tr.rename(columns={"replica": "point"}).assign(seed=0).merge(p, on=["point", "seed"])


def test_isolated_short_fairer_short_run():
    scs = [matta_guo(n_flows=30, k=1, isolation=iso, duration_s=60.0) for iso in (True, False)]
    res = simulate(scs, seeds=[3, 3], backend="cpu")
    ps = mt.per_seed(_with_params(res, scs)).set_index(["mode", "cls"])
    assert ps.loc[("isolation", "short"), "jain_index"] > ps.loc[("sharing", "short"),
                                                                  "jain_index"]
    assert ps.loc[("isolation", "short"), "jain_index"] > 0.95
    # the short pipe (C_u) carries about its rate; the long pipe gets its own
    assert ps.loc[("isolation", "long"), "goodput_mbps"] > 1.5


def test_tables_by_hand():
    base = dict(point=0, seed=0, n_flows=2, k=1.0, isolation=True, short_k=1.0, buffer_ratio=1.0,
                aqm="droptail", duration_s=60.0, retransmits=0)
    rows = [
        # short session 0: 10 packets in [20, 30], 10 in [30, 40]; session 1: 10 over [25, 45]
        dict(traffic="short", slot=0, size_pkts=10, start_s=20.0, end_s=30.0, pkts_sent=10),
        dict(traffic="short", slot=0, size_pkts=10, start_s=30.0, end_s=40.0, pkts_sent=10),
        dict(traffic="short", slot=1, size_pkts=10, start_s=25.0, end_s=45.0, pkts_sent=10),
        # long 0: unfinished, 100 packets sent (20 retransmitted) from t = 40 to the end (60)
        dict(traffic="long", slot=0, size_pkts=1000, start_s=40.0, end_s=np.nan, pkts_sent=100,
             retransmits=20),
        dict(traffic="long", slot=1, size_pkts=1000, start_s=0.0, end_s=60.0, pkts_sent=1000),
        # a background generator's records are not a class's
        dict(traffic="web", slot=0, size_pkts=5, start_s=1.0, end_s=2.0, pkts_sent=5),
    ]
    tr = pd.DataFrame([{**base, **r} for r in rows])
    si = mt.session_intervals(tr).set_index(["cls", "session", "interval"])
    assert set(si.index.get_level_values("cls")) == {"short", "long"}
    assert si.loc[("short", 0, 1), "pkts"] == pytest.approx(20.0)
    assert si.loc[("short", 1, 1), "pkts"] == pytest.approx(7.5)
    assert si.loc[("short", 1, 2), "pkts"] == pytest.approx(2.5)
    assert si.loc[("long", 0, 2), "pkts"] == pytest.approx(80.0)
    assert si.loc[("long", 1, 0), "goodput_bps"] == pytest.approx(1000 / 3 * 576 * 8 / 20)
    pi = mt.per_interval(tr).set_index(["cls", "interval"])
    assert 0 not in pi.index.get_level_values("interval")          # warm-up interval left out
    x = np.array([20.0, 7.5])
    assert pi.loc[("short", 1), "jain_index"] == pytest.approx(x.sum() ** 2 / (2 * (x ** 2).sum()))
    assert pi.loc[("short", 2), "jain_index"] == pytest.approx(0.5)   # s0 idle, s1 2.5
    ps = mt.per_seed(tr).set_index("cls")
    assert ps.loc["short", "intervals"] == 2 and ps.loc["short", "mode"] == "isolation"
    assert ps.loc["short", "goodput_mbps"] == pytest.approx(
        (27.5 + 2.5) / 2 * 576 * 8 / 20 / 1e6)


def test_reproduce_one_family_through_cli(tmp_path, monkeypatch):
    out, status = reproduce_shrunk(tmp_path, monkeypatch, "matta-guo", "matta_guo",
                                   ["m3", "m4", "m5", "m7"], "3",
                                   [(r"duration_s = [\d.]+", "duration_s = 40.0")])
    assert (out / "figures" / "matta_guo_fig3.png").stat().st_size > 1000
    assert status["M3.1"] != "not measured" and status["M3.2"] != "not measured"
    assert status["M5.1"] == "not measured"                  # the family was not run
    assert "tcplib" in (out / "report.md").read_text()


def test_reproduce_fig7_through_cli(tmp_path, monkeypatch):
    out, status = reproduce_shrunk(tmp_path, monkeypatch, "matta-guo", "matta_guo", ["m7"], "7",
                                   [(r"duration_s = [\d.]+", "duration_s = 45.0")])
    assert (out / "figures" / "matta_guo_fig7.png").stat().st_size > 1000
    for cid in ("M7.1", "M7.2", "M7.3"):
        assert status[cid] in {"holds", "partly holds", "does not hold"}, (cid, status[cid])
    assert status["M3.1"] == "not measured"
