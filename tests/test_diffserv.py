"""DiffServ conditioning and AQM through the whole engine (issue 11): the model pieces are
tested on hand-computed cases in C++ (tests/cpp/test_markers.cpp, test_red.cpp); here they run
inside replicas: analytical shares and rates, counters that add up, bad input named."""
from __future__ import annotations

import math

import pytest

from diffsweep.engine.execution import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.analysis.metrics import padhye_throughput_pps
from diffsweep.scenario import (Link, Marker, OnOffSource, QueueClass, RedThresholds, Scenario,
                                TcpFlow)

RIO = (RedThresholds(40, 60, 0.02), RedThresholds(30, 50, 0.04), RedThresholds(20, 40, 0.1))


def cbr_through(marker: dict, rate_bps: float, duration_s: float = 20.0, seed: int = 1):
    """One CBR source at ``rate_bps`` (1000 B packets) metered by ``marker`` on a fast link:
    the colour shares at the link's only class."""
    link = Link(rate_bps=100e6, classes=(QueueClass("af", limit_pkts=1000),))
    src = OnOffSource(cls="af", peak_bps=rate_bps, pkt_bytes=1000, t_on_ms=1.0, t_off_ms=0.0,
                      name="cbr")
    sc = Scenario(links=(link,), sources=(src,), duration_s=duration_s, warmup_s=0.0,
                  markers=(Marker(name="m", sources=(0,), **marker),))
    q = simulate([sc], [seed], backend="cpu").queues.iloc[0]
    n = q.arrivals
    assert q.arrivals_green + q.arrivals_yellow + q.arrivals_red == n
    return q.arrivals_green / n, q.arrivals_yellow / n, q.arrivals_red / n


def test_token_bucket_passes_its_rate_as_green():
    """Token conservation: over T seconds a bucket of rate c and depth b passes c*T + b bytes
    of green; a 4 Mb/s CBR through a 1 Mb/s bucket is green 1/4 of the time (plus the burst)."""
    g, y, r = cbr_through(dict(kind="token_bucket", cir_bps=1e6, cbs_bytes=5000), 4e6)
    expect = (1e6 * 20 / 8 + 5000) / (4e6 * 20 / 8)
    assert y == 0 and g == pytest.approx(expect, abs=0.002)
    g, _, r = cbr_through(dict(kind="token_bucket", cir_bps=5e6, cbs_bytes=5000), 4e6)
    assert g == 1.0 and r == 0.0  # under its rate: all in profile


def test_tsw3cm_shares_follow_rfc2859():
    """TSW3CM on a CBR at r between CIR and PIR: yellow with probability (r - CIR)/r, else
    green (RFC 2859 section 2); above PIR: red (r - PIR)/r, yellow (PIR - CIR)/r."""
    g, y, r = cbr_through(dict(kind="tsw3cm", cir_bps=2e6, pir_bps=4e6, cbs_bytes=1,
                               window_s=0.5), 3e6, duration_s=40.0)
    assert r < 0.002 and y == pytest.approx(1 / 3, abs=0.02) and g == pytest.approx(2 / 3, abs=0.02)
    g, y, r = cbr_through(dict(kind="tsw3cm", cir_bps=2e6, pir_bps=4e6, cbs_bytes=1,
                               window_s=0.5), 8e6, duration_s=40.0)
    assert r == pytest.approx(0.5, abs=0.02) and y == pytest.approx(0.25, abs=0.02)


def test_srtcm_and_trtcm_long_run_green_share():
    """Colour-blind srTCM and trTCM at a sustained rate above CIR: the green share is CIR/r in
    the long run (the committed bucket refills at CIR), trTCM's red share (r - PIR)/r."""
    g, y, r = cbr_through(dict(kind="srtcm", cir_bps=1e6, cbs_bytes=4000, pbs_bytes=8000), 2e6)
    assert g == pytest.approx(0.5, abs=0.01) and y + r == pytest.approx(0.5, abs=0.01)
    g, y, r = cbr_through(dict(kind="trtcm", cir_bps=1e6, cbs_bytes=4000, pir_bps=3e6,
                               pbs_bytes=8000), 4e6)
    assert g == pytest.approx(0.25, abs=0.01) and r == pytest.approx(0.25, abs=0.01)


def red_scenario(aqm="red", seed_flows=1, **red_kw):
    red = RIO[2:] if aqm == "red" else RIO
    link = Link(rate_bps=10e6, prop_delay_ms=20.0,
                classes=(QueueClass("be", limit_pkts=200, aqm=aqm, red=red,
                                    red_mean_pkt_bytes=1000, **red_kw),))
    # access links faster than the bottleneck, so that the queue builds there
    flows = tuple(TcpFlow(segment_bytes=960, reverse_delay_ms=30.0 + 3 * k, max_window_pkts=1000,
                          access_rate_bps=100e6) for k in range(seed_flows))
    return Scenario(links=(link,), flows=flows, duration_s=200.0, warmup_s=20.0)


def test_reno_through_red_matches_padhye():
    """A Reno flow through a RED queue at steady state: its throughput is the PFTK model's for
    its own loss rate, RTT and RTO within 25% (RED's drops are spread out, as the model
    assumes)."""
    f = simulate([red_scenario()], [3], backend="cpu").flows.iloc[0]
    p = f.drops / f.pkts_sent
    assert 1e-4 < p < 0.1
    assert f.early_drops_green > 0  # RED, not the buffer, dropped
    predicted = float(padhye_throughput_pps(p, f.rtt_mean_s, f.rto_mean_s, b=1, w_max=1000))
    assert f.pkts_sent / 180.0 == pytest.approx(predicted, rel=0.25)


def test_red_average_stays_between_thresholds_and_drops_are_counted_once():
    """Four Reno flows share a RED queue: the time-averaged RED average sits around the
    thresholds (not at the buffer), every drop is either early or forced, and per-flow drop
    counts add up to the queue's."""
    res = simulate([red_scenario(seed_flows=4)], [5], backend="cpu")
    q = res.queues.iloc[0]
    assert 20 * 0.5 < q.red_avg_green < 40 * 1.2
    early = q.early_drops_green + q.early_drops_yellow + q.early_drops_red
    forced = q.forced_drops_green + q.forced_drops_yellow + q.forced_drops_red
    assert early > 0
    fl = res.flows
    assert (fl.early_drops_green + fl.forced_drops_green).sum() == early + forced
    assert q.drops <= forced  # buffer overflows are forced drops


@pytest.mark.parametrize("aqm, held", [("droptail", 5), ("red", 6), ("rio-c", 6), ("rio-d", 6),
                                        ("wred", 6)])
def test_a_red_limit_counts_the_packets_waiting(aqm, held):
    """A burst of 20 packets into an idle 5-packet queue (thresholds 4 / 4.9, far above the
    average 20 arrivals make at q_w 0.002: no early drop; a min_th at or above the buffer is
    refused, issue 53): ns-2's DropTail holds 4 waiting and the one on the wire, RED (red.cc: qlen >= qlim
    is a forced drop) and dsRED (dsredq.cc: q_->length() > qlim - 1) hold 5 waiting and the
    one on the wire."""
    kw = {} if aqm == "droptail" else dict(
        aqm=aqm, red=(RedThresholds(4, 4.9, 0.1),) * (1 if aqm == "red" else 2))
    link = Link(rate_bps=1e6, prop_delay_ms=1.0,
                classes=(QueueClass("be", limit_pkts=5, **kw),))
    burst = TcpFlow(route=(0,), cls="be", variant="reno", init_window_pkts=20, size_pkts=20,
                    access_rate_bps=1e9, max_window_pkts=64)
    q = simulate([Scenario(links=(link,), flows=(burst,), duration_s=0.05, warmup_s=0.0)],
                 [1], backend="cpu").queues.iloc[0]
    assert (q["arrivals"], q["drops"], q["forced_drops_green"]) == (20, 20 - held, 20 - held)
    assert q["departures"] == held


def test_rio_protects_green():
    """RIO-C with green traffic in profile and red out of profile: red is dropped first, so the
    green flow's loss rate is far below the red flows'."""
    link = Link(rate_bps=10e6, prop_delay_ms=5.0,
                classes=(QueueClass("af", limit_pkts=100, aqm="rio-c", red=RIO,
                                    red_mean_pkt_bytes=1000),))
    flows = (TcpFlow(cls="af", segment_bytes=960, reverse_delay_ms=10.0, max_window_pkts=110),
             *[TcpFlow(cls="af", segment_bytes=960, reverse_delay_ms=10.0, max_window_pkts=110,
                       colour="red") for _ in range(4)])
    mk = Marker(name="g", kind="token_bucket", cir_bps=3e6, cbs_bytes=20000, flows=(0,))
    res = simulate([Scenario(links=(link,), flows=flows, markers=(mk,), duration_s=60.0,
                             warmup_s=10.0)], [2], backend="cpu")
    fl = res.flows
    loss = fl.drops / fl.pkts_sent
    assert loss[0] < 0.5 * loss[1:].min()
    assert fl.goodput_bps[0] > 2.5e6  # near its profile, more than a fair fifth (2 Mb/s)


def test_periodic_onoff_is_exactly_periodic():
    """A fixed on-off source (20 ms on, 20 ms off) is on half of the time and starts one burst
    per 40 ms; the exponential one has the same mean duty cycle."""
    link = Link(rate_bps=100e6, classes=(QueueClass("be", limit_pkts=1000),))
    srcs = (OnOffSource(cls="be", peak_bps=10e6, pkt_bytes=1000, t_on_ms=20, t_off_ms=20,
                        onoff="fixed", name="fixed"),
            OnOffSource(cls="be", peak_bps=10e6, pkt_bytes=1000, t_on_ms=20, t_off_ms=20,
                        name="exp"))
    s = simulate([Scenario(links=(link,), sources=srcs, duration_s=40.0)], [4],
                 backend="cpu").sources
    fixed, expo = s.iloc[0], s.iloc[1]
    assert fixed.on_fraction == pytest.approx(0.5, abs=1e-3)
    assert abs(fixed.bursts - 1000) <= 1
    assert fixed.mean_on_s == pytest.approx(0.02, rel=1e-3)
    assert expo.on_fraction == pytest.approx(0.5, abs=0.05)


def test_balancing_marker_evens_out_an_aggregate():
    """Lee & Jeong's claim in miniature: three TCP flows of very different RTTs in one
    aggregate are fairer under the Balancing Marker than under one shared token bucket."""
    def jain(x):
        return sum(x) ** 2 / (len(x) * sum(v * v for v in x))

    def run(kind):
        link = Link(rate_bps=10e6, prop_delay_ms=1.0,
                    classes=(QueueClass("af", limit_pkts=100, aqm="rio-c", red=RIO,
                                        red_mean_pkt_bytes=1000),))
        flows = tuple(TcpFlow(cls="af", segment_bytes=960, access_delay_ms=d,
                              reverse_delay_ms=d + 2, max_window_pkts=110) for d in (80, 20, 2))
        flows += tuple(TcpFlow(cls="af", segment_bytes=960, access_delay_ms=2, reverse_delay_ms=4,
                               max_window_pkts=110, colour="red") for _ in range(5))
        mk = Marker(name="agg", kind=kind, cir_bps=6e6, cbs_bytes=60000, b1_bytes=20000,
                    flows=(0, 1, 2))
        res = simulate([Scenario(links=(link,), flows=flows, markers=(mk,), duration_s=40.0,
                                 warmup_s=5.0)] * 3, [1, 2, 3], backend="cpu")
        return [jain(g.goodput_bps.tolist()[:3]) for _, g in res.flows.groupby("replica")]

    tb, bm = run("token_bucket"), run("balancing")
    assert min(bm) > max(tb)


# --- bad input: each rejected naming the field ------------------------------------------------

def _sc(**kw):
    base = dict(links=[Link(rate_bps=10e6)], flows=[TcpFlow(), TcpFlow()], duration_s=10.0)
    base.update(kw)
    return Scenario(**base)


def _af(**kw):
    return [dict(rate_bps=10e6, classes=[dict(name="be", limit_pkts=100, **kw)])]


@pytest.mark.parametrize("kw, where, says", [
    (dict(links=_af(aqm="rio-c", red=[dict(min_th=40, max_th=30, max_p=0.02)] * 3)),
     "links[0].classes[0].red[0].max_th", "thresholds in order"),
    (dict(links=_af(aqm="red", red=[dict(min_th=10, max_th=30, max_p=1.5)])),
     "links[0].classes[0].red[0].max_p", "(0, 1]"),
    (dict(links=_af(aqm="red", red=[dict(min_th=10, max_th=30, max_p=0.0)])),
     "links[0].classes[0].red[0].max_p", "(0, 1]"),
    (dict(links=_af(aqm="rio", red=[])), "links[0].classes[0].aqm", "'rio-c'"),
    (dict(links=_af(aqm="wred", red=[dict(min_th=1, max_th=2, max_p=0.1)])),
     "links[0].classes[0].red", "2 RedThresholds"),
    (dict(markers=[dict(name="m", kind="trtcm", cir_bps=2e6, pir_bps=1e6, cbs_bytes=1000,
                        pbs_bytes=1000, flows=[0])]), "markers[0].pir_bps", "not below"),
    (dict(markers=[dict(name="m", kind="token_bucket", cir_bps=2e6, cbs_bytes=-5, flows=[0])]),
     "markers[0].cbs_bytes", "> 0"),
    (dict(markers=[dict(name="m", kind="token_bucket", cir_bps=-2e6, cbs_bytes=5, flows=[0])]),
     "markers[0].cir_bps", "> 0"),
    (dict(markers=[dict(name="m", kind="token_bucket", cir_bps=2e6, cbs_bytes=5, flows=[0, 7])]),
     "markers[0].flows[1]", "a flow index in 0..1"),
    (dict(markers=[dict(name="m", kind="srtcm", cir_bps=2e6, cbs_bytes=5, pbs_bytes=5,
                        colour_aware=True, flows=[1])]), "flows[1].colour", "colour-aware"),
    (dict(markers=[dict(name="m", kind="tsw2cm", cir_bps=2e6, cbs_bytes=5, flows=[0]),
                   dict(name="n", kind="tsw2cm", cir_bps=2e6, cbs_bytes=5, flows=[0])]),
     "markers[1].flows[0]", "no other aggregate"),
    (dict(markers=[dict(name="m", kind="tokenbucket", cir_bps=2e6, cbs_bytes=5, flows=[0])]),
     "markers[0].kind", "'token_bucket'"),
    (dict(markers=[dict(name="m", kind="balancing", cir_bps=2e6, cbs_bytes=5, flows=[0])]),
     "markers[0].b1_bytes", "first bucket"),
    (dict(markers=[dict(name="m", kind="token_bucket", cir_bps=2e6, cbs_bytes=5, flows=[0],
                        cir_bsp=1)]), "markers[0].cir_bsp", "did you mean 'cir_bps'"),
    (dict(flows=[dict(colour="blue")]), "flows[0].colour", "'green'"),
    (dict(sources=[dict(peak_bps=1e6, t_on_ms=1, t_off_ms=1, cls="be", onoff="periodic")]),
     "sources[0].onoff", "'fixed'"),
])
def test_bad_diffserv_input_names_the_field(kw, where, says):
    with pytest.raises(ConfigError) as e:
        _sc(**kw)
    msg = str(e.value)
    assert msg.startswith(where), msg
    assert says in msg, msg


def test_new_fields_keep_old_scenarios_identity():
    """A scenario that uses no DiffServ field has the same to_dict() (and digest) as before
    the fields existed, so results folders of 0.2 scenarios stay valid."""
    sc = _sc()
    d = sc.to_dict()
    assert "markers" not in d and "colour" not in d["flows"][0]
    assert "aqm" not in d["links"][0]["classes"][0]
    assert Scenario.from_dict(d) == sc
    with_red = _sc(links=_af(aqm="red", red=[dict(min_th=5, max_th=15, max_p=0.1)]))
    assert Scenario.from_dict(with_red.to_dict()) == with_red
    assert with_red.digest() != sc.digest()
    assert math.isfinite(len(sc.digest()))


def test_per_aggregate_sums_its_flows():
    """metrics.per_aggregate: one row per (replica, aggregate), the sums of its member flows;
    unmetered flows form the aggregate ""."""
    from engine_cases import _diffserv  # noqa: PLC0415
    from diffsweep.analysis.metrics import per_aggregate  # noqa: PLC0415
    sc, seed = _diffserv()[0]
    fl = simulate([sc], [seed], backend="cpu").flows
    agg = per_aggregate(fl).set_index("aggregate")
    assert sorted(agg.index) == ["", "bm", "sr", "tb", "tr", "tsw2", "tsw3"]
    assert agg.loc["tb", "n_flows"] == 2 and agg.loc["", "n_flows"] == 2
    for col in ("delivered_bytes", "pkts_green", "early_drops_red", "forced_drops_yellow"):
        assert agg[col].sum() == fl[col].sum()
        assert agg.loc["sr", col] == fl[fl.flow.isin([6, 7])][col].sum()
