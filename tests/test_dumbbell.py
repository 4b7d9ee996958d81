"""The standard dumbbell builder (diffsweep.scenario.dumbbell, ``builder = "dumbbell"``): its
scenarios against hand-computed values, its errors, a single flow's goodput against its
window and against the Mathis et al. formula, metrics.bottleneck_table against pandas, and
an end-to-end run of sweeps/dumbbell/aqm_flows_rtt.toml."""
import dataclasses
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import diffsweep
from diffsweep.cli import app as cli
from diffsweep.sweep import config
from diffsweep.sweep.config import load_sweep
from diffsweep.core.errors import ConfigError
from diffsweep.sweep.grid import Grid
from diffsweep.analysis.metrics import bottleneck_table
from diffsweep.engine.pack import pack
from diffsweep.scenario import TcpFlow
from diffsweep.scenario.dumbbell import dumbbell, red_auto

ROOT = Path(__file__).resolve().parents[1]
SWEEP = ROOT / "sweeps" / "dumbbell" / "aqm_flows_rtt.toml"


# --- what it builds --------------------------------------------------------------------------
def test_registered_for_sweep_files():
    assert config.BUILDERS["dumbbell"] == "diffsweep.scenario.dumbbell:dumbbell"
    assert load_sweep(SWEEP).builder is dumbbell
    assert diffsweep.scenario.builders.dumbbell is dumbbell and "dumbbell" in dir(diffsweep.scenario.builders)


def test_ns2_defaults():
    sc = dumbbell()
    (link,) = sc.links
    assert link.rate_bps == 10e6 and link.prop_delay_ms == 10.0
    (q,) = link.classes
    assert q.aqm == "droptail" and q.limit_pkts == 50          # Queue limit_ 50
    (f,) = sc.flows
    assert (f.segment_bytes, f.header_bytes) == (1000, 40)     # packetSize_, tcpip_base_hdr_size_
    assert (f.max_window_pkts, f.init_window_pkts) == (20, 2)  # window_, windowInit_
    assert f.limited_transmit and f.reno_bugfix and f.syn and f.delay_growth
    assert not f.delayed_ack and f.send_jitter_s == 0.0 and f.variant == "newreno"
    assert (sc.tcp_tick_s, sc.min_rto_s, sc.max_rto_s, sc.init_rto_s) == (0.01, 0.2, 60.0, 3.0)
    assert f.access_rate_bps == 100e6 and f.access_buffer_pkts == 50
    assert sc.flow_rtp_ms(0) == 100.0


def test_stratified_rtts_and_their_split():
    sc = dumbbell(n_flows=8, rtt_min_ms=20.0, rtt_max_ms=90.0, bottleneck_delay_ms=5.0)
    # evenly spread, both ends: 20, 30, ..., 90
    assert [sc.flow_rtp_ms(i) for i in range(8)] == [20.0 + 10 * i for i in range(8)]
    for i, f in enumerate(sc.flows):
        rtt = 20.0 + 10 * i
        assert f.reverse_delay_ms == rtt / 2
        assert f.access_delay_ms == f.egress_delay_ms == (rtt / 2 - 5.0) / 2
    assert sc.params["rtt_mean_ms"] == 55.0
    # one flow: the spread's low end
    assert dumbbell(rtt_min_ms=30, rtt_max_ms=60).flow_rtp_ms(0) == 30.0


def test_per_flow_lists():
    sc = dumbbell(n_flows=3, rtt_ms=[20, 40.5, 80], tcp=["reno", "newreno", "reno"],
                  delayed_ack=[True, False, False])
    assert [sc.flow_rtp_ms(i) for i in range(3)] == [20.0, 40.5, 80.0]
    assert [f.variant for f in sc.flows] == ["reno", "newreno", "reno"]
    assert [f.delayed_ack for f in sc.flows] == [True, False, False]
    # the flows are copies of one checked flow per (variant, delayed ACK): each equals the
    # TcpFlow its fields build, normalised and checked
    for f in sc.flows:
        again = TcpFlow(**{k.name: getattr(f, k.name) for k in dataclasses.fields(TcpFlow)})
        assert again.__dict__ == f.__dict__
        assert all(type(getattr(f, k)) is float for k in ("access_delay_ms", "start_s"))


def test_red_automatic_parameters_in_the_packed_scenario():
    # ns-2.35 red.cc at 10 Mb/s, 10 ms, mean_pktsize_ 500: ptc = 2500 packets/s,
    # min_th = max(5, 0.005 * 2500 / 2) = 6.25, max_th = 18.75 (x 500 B in byte mode),
    # rtt = max(0.1, 3 (0.01 + 1/2500)) = 0.1, w_q = 1 - exp(-1 / (10 * 0.1 * 2500))
    w = 1 - math.exp(-1 / 2500)
    assert red_auto(10e6, 10.0, 500) == pytest.approx((6.25, 18.75, w), rel=1e-15)
    sc = dumbbell(aqm="red")
    a = pack([sc], [0]).arrays
    assert a["red_min_th"][0, 0, 0, 0] == 3125.0 and a["red_max_th"][0, 0, 0, 0] == 9375.0
    assert a["red_max_p"][0, 0, 0, 0] == 0.1                     # linterm_ 10
    assert a["red_w_q"][0, 0, 0] == pytest.approx(w, rel=1e-15)
    assert a["red_bytes"][0, 0, 0] == 1 and a["red_gentle"][0, 0, 0] == 1
    assert a["red_wait"][0, 0, 0] == 1 and a["red_mean_pkt_bytes"][0, 0, 0] == 500
    # the buffer in bytes: 50 x 500 B, plus one TCP packet less a byte (red.cc tests the
    # waiting bytes before the packet joins)
    assert a["class_limit"][0, 0, 0] == 50 * 500 + 1039
    assert sc.params["red_min_th"] == 6.25 and sc.params["red_w_q_used"] == pytest.approx(w)
    # at 100 Mb/s the target queue sets min_th: 0.005 * 25000 / 2 = 62.5
    assert red_auto(100e6, 1.0, 500)[:2] == (62.5, 187.5)
    # the classic values, asked for in packets
    sc = dumbbell(aqm="red", red_min_th_pkts=5, red_max_th_pkts=15, red_w_q=0.002,
                  red_bytes=False, red_gentle=False)
    a = pack([sc], [0]).arrays
    assert (a["red_min_th"][0, 0, 0, 0], a["red_max_th"][0, 0, 0, 0]) == (5.0, 15.0)
    assert a["red_w_q"][0, 0, 0] == 0.002 and a["red_bytes"][0, 0, 0] == 0
    assert a["class_limit"][0, 0, 0] == 50 and a["red_gentle"][0, 0, 0] == 0


def test_rio_marker_cross_and_web():
    sc = dumbbell(n_flows=4, aqm="rio-c", marker="tsw3cm", marker_cir_bps=2e6,
                  marker_pir_bps=4e6, marker_per_flow=True, cross="exponential",
                  cross_class="ef", web_sessions=3, duration_s=10.0, warmup_s=1.0)
    ef, be = sc.links[0].classes
    assert (ef.name, be.name, be.aqm) == ("ef", "be", "rio-c")
    assert [(t.min_th, t.max_th, t.max_p) for t in be.red] == [(20.0, 40.0, 0.02),
                                                                (5.0, 15.0, 0.1)]
    assert be.red_w_q == 0.002
    assert [m.flows for m in sc.markers] == [(0,), (1,), (2,), (3,)]
    assert all(m.kind == "tsw3cm" and m.cir_bps == 2e6 and m.pir_bps == 4e6
               and m.cbs_bytes == 10400.0 for m in sc.markers)
    (src,) = sc.sources
    # ns-2 Application/Traffic/Exponential: 64 kb/s while on, 0.5 s on and off, 210 B
    assert (src.cls, src.peak_bps, src.t_on_ms, src.t_off_ms, src.pkt_bytes) == \
        ("ef", 64e3, 500.0, 500.0, 210)
    assert sc.params["cross_rate_used_bps"] == 32e3
    (web,) = sc.traffic
    assert web.kind == "web" and web.sessions == 3 and web.size_dist == "paretoII"
    assert web.pages_per_session * web.inter_page_s >= sc.duration_s  # pages to the end
    cbr = dumbbell(cross="cbr").sources[0]
    assert (cbr.peak_bps, cbr.t_off_ms, cbr.cls) == (448e3, 0.0, "be")  # CBR rate_ 448Kb
    # a sweep over aqm may keep its marker: drop-tail just counts the colours
    assert dumbbell(marker="token_bucket", marker_cir_bps=1e6).markers[0].kind == "token_bucket"


def test_start_times_from_the_seed():
    a, b = dumbbell(n_flows=4, seed=1), dumbbell(n_flows=4, seed=2)
    sa = [f.start_s for f in a.flows]
    assert all(0 <= s < 1.0 for s in sa) and sa != [f.start_s for f in b.flows]
    assert sa == [f.start_s for f in dumbbell(n_flows=4, seed=1).flows]
    assert all(f.start_s == 0.0 for f in dumbbell(n_flows=4, start_spread_s=0).flows)
    assert dumbbell.seed_matters(start_spread_s=0) is False
    assert dumbbell.seed_matters() is True
    # a 1-s test run starts its flows in its first half
    assert max(f.start_s for f in dumbbell(n_flows=8, duration_s=1.0, warmup_s=0.5).flows) < 0.5


# --- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kw, match", [
    (dict(aqm="rio"), r"^aqm: 'rio' is not allowed \(expected one of 'droptail', 'red', "
                      r"'rio-c', 'rio-d', 'wred', 'codel', 'pie', 'fq_codel', 'step'; did you mean 'rio-c' or 'rio-d'\?\)$"),
    (dict(aqm="dropail"), r"^aqm: 'dropail' is not allowed \(.*; did you mean 'droptail'\?\)$"),
    (dict(aqm="blue"), r"^aqm: 'blue' is not allowed \(expected one of 'droptail', 'red'"),
    (dict(bottleneck_bps=-1), r"^bottleneck_bps: -1\.0 is not allowed \(expected a number > 0\)"),
    (dict(n_flows=0), r"^n_flows: 0 is not allowed \(expected an integer >= 1\)"),
    (dict(n_flows=3, rtt_ms=[20, 40]), r"^rtt_ms: \[20, 40\] is not allowed \(expected a "
                                       r"number of ms or a list of n_flows \(3\) of them"),
    (dict(rtt_ms=15), r"^rtt_ms: 15\.0 is not allowed \(expected a number of ms >= 2 x "
                      r"bottleneck_delay_ms = 20"),
    (dict(n_flows=2, rtt_ms=[40, 5]), r"^rtt_ms\[1\]: 5\.0 is not allowed"),
    (dict(rtt_ms=40, rtt_min_ms=20, rtt_max_ms=60), r"^rtt_ms: 40 is not allowed \(expected "
                                                    r"None \(not given\) with rtt_min_ms"),
    (dict(rtt_min_ms=20), r"^rtt_max_ms: None is not allowed \(expected a number with rtt_min"),
    (dict(rtt_min_ms=80, rtt_max_ms=60), r"^rtt_max_ms: 60\.0 is not allowed \(expected a "
                                         r"number >= rtt_min_ms \(80\)\)"),
    (dict(n_flows=2, tcp=["reno", "vegas"]), r"^tcp\[1\]: 'vegas' is not allowed \(expected "
                                             r"one of 'reno', 'newreno', 'sack'\)"),
    (dict(delayed_ack="yes"), r"^delayed_ack: 'yes' is not allowed \(expected true or false\)"),
    (dict(buffer_pkts=0), r"^buffer_pkts: 0 is not allowed \(expected an integer in 1\.\."),
    (dict(aqm="red", red_max_p=0), r"^red_max_p: 0\.0 is not allowed \(expected a number in "
                                   r"\(0, 1\]\)"),
    (dict(aqm="red", red_min_th_pkts=20, red_max_th_pkts=10),
     r"^red_max_th_pkts: 10\.0 is not allowed \(expected a number > red_min_th_pkts \(20\)"),
    (dict(red_w_q=2), r"^red_w_q: 2\.0 is not allowed \(expected None .* or a number in \(0, 1\]"),
    (dict(aqm="rio-c", rio_thresholds=[[20, 40, 0.02]]), r"^rio_thresholds: \[\[20, 40, 0\.02\]\] "
                                                         r"is not allowed \(expected a list of 2"),
    (dict(aqm="rio-c", rio_thresholds=[[20, 10, 0.02], [5, 15, 0.1]]),
     r"^rio_thresholds\[0\]\.max_th: 10\.0 is not allowed \(expected a number > min_th"),
    (dict(marker="tsw"), r"^marker: 'tsw' is not allowed \(expected one of .*; did you mean "
                         r"'tsw2cm' or 'tsw3cm'\?\)"),
    (dict(aqm="rio-c", marker="tsw2cm"), r"^marker_cir_bps: None is not allowed \(expected a "
                                         r"number > 0 with marker 'tsw2cm'"),
    (dict(aqm="rio-c", marker="trtcm", marker_cir_bps=1e6),
     r"^marker_pir_bps: None is not allowed \(expected a number >= cir_bps"),
    (dict(aqm="rio-c", marker="token_bucket", marker_cir_bps=1e6, marker_pir_bps=2e6),
     r"^marker_pir_bps: 2000000\.0 is not allowed \(expected None with marker 'token_bucket'"),
    (dict(n_flows=65, aqm="rio-c", marker="tsw2cm", marker_cir_bps=1e5, marker_per_flow=True),
     r"^marker_per_flow: True is not allowed \(expected false with more than 64 flows"),
    (dict(cross="udp"), r"^cross: 'udp' is not allowed \(expected one of 'none', 'cbr', "
                        r"'exponential'\)"),
    (dict(cross="cbr", cross_rate_bps=-5), r"^cross_rate_bps: -5\.0 is not allowed"),
    (dict(cross="cbr", cross_pkt_bytes=0), r"^cross_pkt_bytes: 0 is not allowed"),
    (dict(cross="cbr", cross_class="af"), r"^cross_class: 'af' is not allowed \(expected one "
                                          r"of 'be', 'ef'\)"),
    (dict(web_sessions=-1), r"^web_sessions: -1 is not allowed \(expected an integer in 0\.\."),
    (dict(web_sessions=2, web_pool=0), r"^web_pool: 0 is not allowed"),
    (dict(max_window_pkts=70000), r"^max_window_pkts: 70000 is not allowed"),
    (dict(access_bps=0), r"^access_bps: 0\.0 is not allowed \(expected a number > 0\)"),
    (dict(start_spread_s=-1), r"^start_spread_s: -1\.0 is not allowed"),
    (dict(warmup_s=200), r"^warmup_s: 200\.0 is not allowed \(expected a number >= 0 and < "
                         r"duration_s"),
])
def test_errors_name_the_parameter(kw, match):
    with pytest.raises(ConfigError, match=match):
        dumbbell(**kw)


def test_error_in_a_sweep_file_names_the_key_and_point(tmp_path, capsys):
    p = tmp_path / "bad.toml"
    p.write_text('name = "bad"\nbuilder = "dumbbell"\nseeds = 1\nduration_s = 2.0\n'
                 'warmup_s = 0.5\n[axes]\naqm = ["droptail", "rio"]\n')
    rc = cli.main(["run", str(p), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.count("\n") == 1 and err.startswith(
        "diffsweep: error: axes.aqm: 'rio' is not allowed (expected one of 'droptail', 'red', "
        "'rio-c', 'rio-d', 'wred', 'codel', 'pie', 'fq_codel', 'step'; did you mean 'rio-c' or 'rio-d'?) (grid point 1: "
        "aqm='rio'; seed 0)"), err
    assert not (tmp_path / "out").exists()  # nothing written where nothing ran


# --- what it runs ----------------------------------------------------------------------------
def test_window_limited_flow_runs_at_window_over_rtt():
    # window 20 x 1000 B per round trip (the link is not the limit: 4 Mb/s of 10 at 40 ms;
    # a 50-packet buffer never fills): no loss, goodput W * MSS / RTT, the round trip with a
    # packet's transmission at the bottleneck and at the access link in it (1040 B at 10 and
    # 100 Mb/s: 0.915 ms; ns-2.35 gives 3.899 Mb/s at 40 ms, benchmarks/ns2/dumbbell)
    res = diffsweep.run(Grid(dumbbell, seeds=1, rtt_ms=[40.0, 100.0], duration_s=20.0,
                             warmup_s=5.0), backend="cpu", quiet=True)
    f = res.flows.sort_values("rtt_ms")
    tx_s = 1040 * 8 / 10e6 + 1040 * 8 / 100e6
    want = 20 * 1000 * 8 / (f["rtt_ms"].to_numpy() / 1000 + tx_s)
    assert np.allclose(f["goodput_bps"], want, rtol=0.01)
    assert (f["drops"] == 0).all() and (f["timeouts"] == 0).all()


def test_single_reno_flow_within_the_mathis_band():
    # one Reno flow with a large window over a small drop-tail buffer: periodic losses, the
    # regime of Mathis et al. (1997): goodput = MSS / RTT * C / sqrt(p), C = sqrt(3/2),
    # with the flow's own loss rate p and mean RTT; the sawtooth also bounds it by the link.
    res = diffsweep.run(Grid(dumbbell, seeds=[1, 2], tcp="reno", max_window_pkts=1000,
                             buffer_pkts=10, rtt_ms=100.0, duration_s=120.0, warmup_s=20.0),
                        backend="cpu", quiet=True)
    f = res.flows
    p = f["drops"] / f["pkts_sent"]
    assert (f["drops"] > 5).all()
    mathis = 1000 * 8 / f["rtt_mean_s"] * math.sqrt(1.5) / np.sqrt(p)
    ratio = f["goodput_bps"] / mathis
    assert ((ratio > 0.7) & (ratio < 1.3)).all(), ratio.tolist()
    assert (f["goodput_bps"] < 10e6 * 1000 / 1040).all()


def test_bottleneck_table_against_pandas():
    res = diffsweep.run(Grid(dumbbell, seeds=2, aqm=["droptail", "red"], n_flows=[1, 4],
                             rtt_ms=40.0, cross="cbr", cross_class="ef", duration_s=10.0,
                             warmup_s=2.0), backend="cpu", quiet=True)
    t = bottleneck_table(res)
    assert len(t) == 8 and {"aqm", "n_flows"} <= set(t.columns)
    for _, r in t.iterrows():
        f = res.flows[(res.flows.point == r.point) & (res.flows.seed == r.seed)]
        q = res.queues[(res.queues.point == r.point) & (res.queues.seed == r.seed)
                       & (res.queues.cls == "be")].iloc[0]
        g = f["goodput_bps"].to_numpy()
        assert r.n_tcp == len(f) and r.tcp_goodput_bps == pytest.approx(g.sum())
        assert r.goodput_per_flow_bps == pytest.approx(g.mean())
        assert r.jain_index == pytest.approx(g.sum() ** 2 / (len(g) * (g ** 2).sum()))
        assert r.min_max_ratio == pytest.approx(g.min() / g.max())
        assert r.loss_rate == pytest.approx(f["drops"].sum() / f["pkts_sent"].sum())
        assert r.mean_queue_pkts == q.mean_queue_pkts
        assert r.queue_delay_ms == pytest.approx(q.mean_queue_bytes * 8 / 10e6 * 1e3)
        assert r.utilization == pytest.approx(g.sum() * 1040 / 1000 / 10e6)
    with pytest.raises(ConfigError, match=r"cls: 'af' is not allowed \(expected a class of "
                                          r"link 0: be, ef\)"):
        bottleneck_table(res, cls="af")


def test_the_sweep_file_end_to_end(tmp_path):
    cfg = load_sweep(SWEEP, quick=True, seeds=2)
    assert list(cfg.axes) == ["aqm", "n_flows", "rtt_ms"]
    fixed = {**cfg.fixed, "duration_s": 8.0, "warmup_s": 2.0}
    cfg = dataclasses.replace(cfg, fixed=fixed, _builder=cfg._builder)
    cfg.points_sha256 = diffsweep.core.identity.digest(cfg._points_dict())
    res = diffsweep.run(cfg, backend="cpu", store=tmp_path / "out", quiet=True)
    assert res.meta["replicas_run"] == 3 * 2 * 2 * 2
    t = bottleneck_table(res)
    assert sorted(set(t["aqm"])) == ["droptail", "red", "rio-c"]
    m = t.groupby(["aqm", "n_flows", "rtt_ms"])[["utilization", "mean_queue_pkts",
                                                   "jain_index"]].mean()
    # one flow is window-bound (20 x 1040 B per round trip); eight fill the link
    for aqm in ("droptail", "red", "rio-c"):
        assert m.loc[(aqm, 1, 100.0), "utilization"] == pytest.approx(20 * 8320 / 0.1 / 10e6,
                                                                       rel=0.02)
        assert m.loc[(aqm, 8, 40.0), "utilization"] > 0.8
    # RED keeps the standing queue of eight flows far below drop-tail's
    assert m.loc[("red", 8, 100.0), "mean_queue_pkts"] < 0.5 * m.loc[("droptail", 8, 100.0),
                                                                      "mean_queue_pkts"]
    assert ((t["jain_index"] > 0) & (t["jain_index"] <= 1 + 1e-12)).all()
    # RIO-C with its marker coloured some packets red, drop-tail's colours are only counted
    assert (res.flows.loc[res.flows.aqm == "rio-c", "pkts_red"].sum() > 0)
    # show and export read the folder
    stored = diffsweep.load(tmp_path / "out")
    pd.testing.assert_frame_equal(bottleneck_table(stored), t, check_dtype=False)
