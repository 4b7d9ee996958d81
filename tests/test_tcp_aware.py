"""TCP-aware edge conditioners (issue 13; cuda/model/marker_tcp_aware.h), two DiffServ domains
and the cwnd trace, end to end on the CPU backend: small-window protection that protects
everything or nothing, the RTT-aware split against the RTT, re-conditioning at a second
domain's edge, a hand-checked slow-start trace, and bad input named. The tag formulas
themselves are checked on hand-computed values in tests/cpp/test_markers.cpp."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from diffsweep.engine.execution import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.scenario import Link, Marker, QueueClass, RedThresholds, Scenario, TcpFlow

TH = (RedThresholds(40, 55, 0.02), RedThresholds(25, 40, 0.05), RedThresholds(10, 25, 0.1))


def rio(limit=100):
    return QueueClass("af", limit_pkts=limit, aqm="rio-c", red=TH, red_w_q=0.002)


def aggregate(kind="tsw3cm", k=None, n=4, cir=2e5, rtts=(10.0, 10.0, 10.0, 10.0), **kw):
    link = Link(rate_bps=5e6, prop_delay_ms=2.0, classes=(rio(),))
    flows = tuple(TcpFlow(cls="af", variant="newreno", segment_bytes=984, max_window_pkts=64,
                          reverse_delay_ms=rtts[i] - 4.0, start_s=0.01 * i) for i in range(n))
    extra = {"pir_bps": 2 * cir} if kind == "tsw3cm" else {}
    mk = Marker(name="agg", kind=kind, cir_bps=cir, cbs_bytes=1, window_s=0.5,
                small_window_pkts=k, flows=tuple(range(n)), **extra, **kw)
    return Scenario(links=(link,), flows=flows, markers=(mk,), duration_s=8.0, warmup_s=1.0)


def colours(res):
    q = res.queues
    return {c: int(q[f"arrivals_{c}"].sum()) for c in ("green", "yellow", "red")}


def test_small_window_protects_exactly_below_k():
    """k = 1 protects nothing (cwnd >= 1 always): the run is the same as without SW, bit for
    bit; k above the largest window protects every packet: all green, though the aggregate is
    far above its 0.2 Mb/s target."""
    base = simulate([aggregate(k=None)], [1], backend="cpu")
    k1 = simulate([aggregate(k=1)], [1], backend="cpu")
    assert base.flows.drop(columns=[]).equals(k1.flows) and base.queues.equals(k1.queues)
    c0 = colours(base)
    assert c0["yellow"] + c0["red"] > 0.5 * sum(c0.values())  # far out of profile without SW
    all_green = colours(simulate([aggregate(k=10_000)], [1], backend="cpu"))
    assert all_green["yellow"] == 0 and all_green["red"] == 0 and all_green["green"] > 1000


def test_rtt_aware_marks_short_rtt_flows_red_more():
    """Basic RTT-aware (Nandy et al.): out-of-profile packets are DP2 with probability
    (RTT_ref / RTT)^2, so the short-RTT flows of an aggregate carry most of its red packets.
    RTT-RTO's share is (RTT_ref / RTT) sqrt(RTO_ref / RTO): with every RTO at the 0.2-s floor
    it is the square root of RTT-aware's, so more of the short flows' out-of-profile packets
    are red, and still more than of the long flows'."""
    rtts = (10.0, 10.0, 160.0, 160.0)
    ra = simulate([aggregate("rtt_aware", rtts=rtts, ref_rtt_s=0.01)], [2], backend="cpu").flows
    red = ra.pkts_red / (ra.pkts_yellow + ra.pkts_red)
    assert red[:2].min() > 3 * red[2:].max()
    ro = simulate([aggregate("rtt_rto", rtts=rtts, ref_rtt_s=0.01)], [2], backend="cpu").flows
    red_ro = ro.pkts_red / (ro.pkts_yellow + ro.pkts_red)
    assert red_ro[:2].min() > 2 * red[:2].max()
    assert red_ro[:2].min() > 2 * red_ro[2:].max()


def test_second_domain_reconditions_its_flows():
    """Two domains in a row: the long flows are metered at domain 0's edge (a target so high
    that all are green there) and again at domain 1's (a target so low that most are not):
    link 0 sees only green, link 1 mostly yellow and red. Without the second conditioner (and
    without domains) link 1 stays green."""
    d0 = Link(rate_bps=8e6, prop_delay_ms=3.0, classes=(rio(),), domain=0)
    d1 = Link(rate_bps=4e6, prop_delay_ms=4.0, classes=(rio(),), domain=1)
    long_ = tuple(TcpFlow(route=(0, 1), cls="af", reverse_delay_ms=20.0) for _ in range(3))
    e0 = Marker(name="e0", kind="rtt_rto", cir_bps=1e9, cbs_bytes=1, link=0, flows=(0, 1, 2))
    e1 = Marker(name="e1", kind="tsw3cm", cir_bps=1e5, pir_bps=2e5, cbs_bytes=1, link=1,
                flows=(0, 1, 2))
    sc = Scenario(links=(d0, d1), flows=long_, markers=(e0, e1), duration_s=5.0)
    q = simulate([sc], [3], backend="cpu").queues.set_index("link")
    assert q.loc[0, "arrivals_yellow"] + q.loc[0, "arrivals_red"] == 0
    assert q.loc[1, "arrivals_yellow"] + q.loc[1, "arrivals_red"] > 0.5 * q.loc[1, "arrivals"]
    one = Scenario(links=(dataclasses.replace(d0, domain=None), dataclasses.replace(d1, domain=None)),
                   flows=long_, markers=(e0,), duration_s=5.0)
    q1 = simulate([one], [3], backend="cpu").queues.set_index("link")
    assert q1.loc[1, "arrivals_yellow"] + q1.loc[1, "arrivals_red"] == 0


def test_cwnd_trace_slow_start_by_hand():
    """One flow, an idle path of exactly 100 ms round trip, one ACK per packet, initial window
    1: cwnd is 1 in [0, 0.1 s), 2 after the first ACK, 4 after the second round trip, 8 after
    the third; the trace holds the window in force at each 50-ms sample."""
    link = Link(rate_bps=100e6, prop_delay_ms=10.0, classes=(QueueClass("q", limit_pkts=1000),))
    f = TcpFlow(cls="q", init_window_pkts=1, max_window_pkts=64, segment_bytes=100,
                header_bytes=0, access_delay_ms=10.0, egress_delay_ms=30.0,
                reverse_delay_ms=50.0)
    sc = Scenario(links=(link,), flows=(f,), duration_s=0.5, trace_flows=(0,),
                  trace_interval_s=0.05)
    t = simulate([sc], [1], backend="cpu").cwnd_trace
    assert list(t.t_s.round(3)) == [round(0.05 * k, 3) for k in range(11)]
    got = dict(zip(t.t_s.round(3), t.cwnd_pkts))
    assert [got[x] for x in (0.0, 0.05, 0.15, 0.25, 0.35)] == [1.0, 1.0, 2.0, 4.0, 8.0]


def test_trace_is_the_same_whatever_the_batch_and_team():
    sc = dataclasses.replace(aggregate("rtt_aware", k=3), trace_flows=(0, 3),
                             trace_interval_s=0.02)
    alone = simulate([sc], [5], backend="cpu").cwnd_trace
    other = aggregate("tsw3cm")
    together = simulate([other, sc], [9, 5], backend="cpu", lanes=8).cwnd_trace
    together = together[together.replica == 1].drop(columns="replica").reset_index(drop=True)
    assert np.array_equal(alone.drop(columns="replica").to_numpy(), together.to_numpy())


@pytest.mark.parametrize("build, where", [
    (lambda: Marker(name="a", kind="tsw3cm", cir_bps=1e6, pir_bps=2e6, cbs_bytes=1, flows=(0,),
                    small_window_pkts=0), r"Marker\.small_window_pkts: 0"),
    (lambda: Marker(name="a", kind="token_bucket", cir_bps=1e6, cbs_bytes=1, flows=(0,),
                    small_window_pkts=3), r"Marker\.small_window_pkts: 3"),
    (lambda: Marker(name="a", kind="rtt_aware", cir_bps=None, cbs_bytes=1, flows=(0,)),
     r"Marker\.cir_bps: None .*target rate"),
    (lambda: Marker(name="a", kind="rtt_rto", cir_bps=1e6, cbs_bytes=1, flows=()),
     r"Marker\.flows: \(\) .*at least one flow"),
    (lambda: Marker(name="a", kind="rtt_rto", cir_bps=1e6, cbs_bytes=1, flows=(0,),
                    ref_rtt_s=-1.0), r"Marker\.ref_rtt_s"),
])
def test_bad_marker_input_named(build, where):
    with pytest.raises(ConfigError, match=where):
        build()


def test_route_leaving_a_domain_without_an_edge_is_named():
    d0 = Link(rate_bps=8e6, classes=(rio(),), domain=0)
    d1 = Link(rate_bps=4e6, classes=(rio(),), domain=1)
    f = TcpFlow(route=(0, 1), cls="af")
    mk = (Marker(name="e0", kind="tsw3cm", cir_bps=1e6, pir_bps=2e6, cbs_bytes=1, link=0,
                 flows=(0,)),)
    with pytest.raises(ConfigError, match=r"flows\[0\]\.route: .*enters domain 1 at link 1"):
        Scenario(links=(d0, d1), flows=(f,), markers=mk, duration_s=1.0)
    with pytest.raises(ConfigError, match=r"domain"):
        Link(rate_bps=1e6, domain=-2)
    # a source may not be in two conditioners; a flow not in three
    mk3 = mk + (Marker(name="e1", kind="tsw3cm", cir_bps=1e6, pir_bps=2e6, cbs_bytes=1, link=1,
                       flows=(0,)),
                Marker(name="e2", kind="tsw3cm", cir_bps=1e6, pir_bps=2e6, cbs_bytes=1, link=1,
                       flows=(0,)))
    with pytest.raises(ConfigError, match=r"markers\[2\]\.flows\[0\]"):
        Scenario(links=(d0, d1), flows=(f,), markers=mk3, duration_s=1.0)


def test_trace_bad_input_named():
    link = Link(rate_bps=1e6, classes=(QueueClass("q"),))
    f = TcpFlow(cls="q")
    with pytest.raises(ConfigError, match=r"trace_flows\[0\]"):
        Scenario(links=(link,), flows=(f,), duration_s=1.0, trace_flows=(3,),
                 trace_interval_s=0.1)
    with pytest.raises(ConfigError, match=r"trace_interval_s"):
        Scenario(links=(link,), flows=(f,), duration_s=1.0, trace_flows=(0,))
    # more than 4 flows traced is allowed now (issue 53), within the trace memory bound
    Scenario(links=(link,), flows=(f,) * 5, duration_s=1.0, trace_flows=(0, 1, 2, 3, 4),
             trace_interval_s=0.1)
    with pytest.raises(ConfigError, match=r"^trace_flows: .*traces of at most 1600000 bytes"):
        Scenario(links=(link,), flows=(f,) * 5, duration_s=99.0, trace_flows=(0, 1, 2, 3, 4),
                 trace_interval_s=0.001)


def test_show_summarises_a_cwnd_trace(tmp_path, capsys):
    """`diffsweep show --table cwnd_trace` summarises the traced window (its own column, not
    the replicas' goodput); the trace is stored in the results folder and read back."""
    from diffsweep.cli import app as cli  # noqa: PLC0415
    p = tmp_path / "s.toml"
    p.write_text('name = "h5"\nbuilder = "habib_2a"\nseeds = 1\nduration_s = 3.0\n'
                 'warmup_s = 1.0\n[fixed]\nn_micro = 5\ntrace = true\n'
                 'trace_interval_s = 0.5\n[axes]\nconditioner = ["rtt_aware", "rtt_sw"]\n')
    assert cli.main(["run", str(p), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["show", str(tmp_path / "out"), "--table", "cwnd_trace"]) == 0
    out = capsys.readouterr().out
    assert "cwnd_pkts: mean over seeds" in out and "rtt_sw" in out
