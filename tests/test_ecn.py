"""ECN (RFC 3168) and DCTCP (RFC 8257) in the engine (cuda/model/tcp_ecn.h): with ECN on, RED,
CoDel and PIE mark ECT packets instead of dropping them early (the AQM's drops of ECT packets go
to zero, goodput stays), the flows reduce once per window on ECE, a non-ECN replica is
unchanged, and DCTCP over step marking keeps the waiting queue near K (and with 32 flows on a
50-packet BDP, windows below one segment wait for the retransmission timer, as ns-3.44's)."""
import numpy as np
import pytest

import diffsweep as ds
from diffsweep.core.errors import ConfigError


def _run(**kw):
    base = dict(seeds=2, duration_s=25.0, warmup_s=5.0, rtt_ms=40.0, tcp="sack", n_flows=8,
                buffer_pkts=100, max_window_pkts=1000, init_window_pkts=10,
                access_buffer_pkts=100)
    base.update(kw)
    return ds.run(ds.Grid(ds.scenarios.dumbbell, **base), backend="cpu")


@pytest.mark.parametrize("aqm", ["red", "codel", "pie"])
@pytest.mark.parametrize("cc", ["newreno", "cubic"])
def test_marks_replace_early_drops(aqm, cc):
    off, on = _run(aqm=aqm, congestion_control=cc), _run(aqm=aqm, congestion_control=cc, ecn=True)
    q_off, q_on = (r.queues[r.queues.link == 0] for r in (off, on))
    assert (q_off.marks == 0).all() and (off.flows.ce_marks == 0).all()
    assert (off.flows.ecn_reductions == 0).all()
    assert q_off.early_drops_green.sum() > 100  # the AQM works without ECN
    # with ECN: marks instead; what the AQM still drops are retransmissions, which are not ECT
    # (RFC 3168 6.1.5), and at 100 packets of buffer nothing overflows; every mark is a flow's,
    # and ECE made window reductions
    assert q_on.marks.sum() > 100
    assert q_on.all_drops.sum() <= on.flows.retransmits.sum()
    assert q_on.all_drops.sum() <= 0.05 * q_off.all_drops.sum()
    assert on.flows.timeouts.sum() <= off.flows.timeouts.sum()
    assert on.flows.ce_marks.sum() == q_on.marks.sum()
    assert on.flows.ecn_reductions.sum() > 0
    # at most one reduction per mark, and far fewer than marks where marks come in bursts
    assert on.flows.ecn_reductions.sum() <= on.flows.ce_marks.sum()
    np.testing.assert_allclose(on.replicas.tcp_goodput_bps.mean(),
                               off.replicas.tcp_goodput_bps.mean(), rtol=0.05)
    assert np.all(q_on.mark_rate.between(0, 1))


def test_dctcp_queue_near_k():
    k = 10
    r = _run(aqm="step", step_k_pkts=k, congestion_control="dctcp", duration_s=35.0)
    q = r.queues[r.queues.link == 0]
    # RFC 8257 / Alizadeh et al.: the queue oscillates just above K; no drops, full link
    assert abs(q.mean_waiting_pkts.mean() - k) < 3.0
    assert q.all_drops.sum() == 0 and q.marks.sum() > 0
    assert r.replicas.tcp_goodput_bps.mean() > 0.95 * 9.6154e6


def test_step_without_ecn_drops_at_k():
    r = _run(aqm="step", step_k_pkts=10, duration_s=15.0)
    q = r.queues[r.queues.link == 0]
    assert q.marks.sum() == 0 and q.forced_drops_green.sum() > 0


def test_ecn_on_droptail_is_an_error():
    with pytest.raises(ConfigError, match="ecn"):
        ds.scenarios.dumbbell(aqm="droptail", ecn=True)
    with pytest.raises(ConfigError, match="ecn"):
        ds.scenarios.dumbbell(aqm="droptail", congestion_control="dctcp")
    with pytest.raises(ConfigError, match="QueueClass.ecn"):
        ds.scenario.QueueClass("be", limit_pkts=10, ecn=True)
    with pytest.raises(ConfigError, match="red_hard_drop"):
        ds.scenario.QueueClass("be", limit_pkts=10, aqm="codel", ecn=True, red_hard_drop=False)


def test_dctcp_windows_below_a_segment_wait_for_the_timer():
    """32 DCTCP flows over step marking at K = 10 on a 50-packet BDP (benchmarks/ns3's
    dctcp/step cell): ns-3.44's TcpDctcp::GetSsThresh has no floor, so windows fall below one
    segment, send nothing (silly-window check) and wait for the retransmission timer with
    nothing lost (ns-3: 1500-2500 timeouts a run, mark % 56). With a floor of 2 segments the
    32 windows kept the queue above K: every packet marked, no timeout."""
    r = ds.run(ds.Grid(ds.scenarios.dumbbell, seeds=1, duration_s=15.0, warmup_s=5.0,
                       rtt_ms=40.0, tcp="sack", n_flows=32, aqm="step", step_k_pkts=10,
                       congestion_control="dctcp", bottleneck_bps=10e6, buffer_pkts=100,
                       segment_bytes=1000, max_window_pkts=1000, init_window_pkts=10,
                       min_rto_s=0.2, tcp_tick_s=0.01, access_buffer_pkts=100),
               backend="cpu")
    q = r.queues[r.queues.link == 0]
    assert q.all_drops.sum() == 0 and r.flows.retransmits.sum() == 0
    assert r.flows.timeouts.sum() > 100  # each a window below a segment, nothing outstanding
    assert 0.3 < q.mark_rate.mean() < 0.8
    assert r.replicas.tcp_goodput_bps.mean() > 0.9 * 9.6154e6


def test_dctcp_grows_in_whole_segments_as_tcp_linux_reno():
    """ns-3.44's TcpDctcp grows as TcpLinuxReno (model/tcp_linux_reno.h): a counter of ACKed
    segments adds one whole segment each time it reaches floor(cwnd), where ns-2's and
    TcpNewReno's growth adds 1/cwnd per ACK. DCTCP's cut (1 - alpha/2) x cwnd leaves a
    fraction of a segment, so between two cuts the window's fractional part stays what the cut
    left, and it rises by about a segment a round trip."""
    rtt_s = 0.04
    sc = ds.scenarios.dumbbell(duration_s=6.0, warmup_s=0.0, rtt_ms=1e3 * rtt_s, tcp="sack",
                               n_flows=1, aqm="step", step_k_pkts=10, congestion_control="dctcp",
                               buffer_pkts=100, max_window_pkts=1000, trace_flows=(0,),
                               trace_interval_s=0.001)
    tr = ds.simulate([sc], [1], backend="cpu").cwnd_trace
    t, w = tr["t_s"].to_numpy(), tr["cwnd_pkts"].to_numpy()
    cuts = np.flatnonzero(w[1:] < w[:-1]) + 1
    assert len(cuts) > 10
    fractional, rates = 0, []
    for a, b in zip(cuts[:-1], cuts[1:]):
        epoch = w[a:b]
        frac = epoch - np.floor(epoch)
        np.testing.assert_allclose(frac, frac[0], atol=1e-9)
        assert set(np.round(np.diff(epoch), 9)) <= {0.0, 1.0}  # a whole segment at a time
        fractional += frac[0] > 1e-6
        if t[b - 1] - t[a] > 4 * rtt_s:
            rates.append((epoch[-1] - epoch[0]) / (t[b - 1] - t[a]) * rtt_s)
    assert fractional > 5  # the cuts do leave fractions (the check above is not vacuous)
    # about a segment a round trip (the queue's delay makes the round trip a little longer)
    assert rates and 0.6 < np.median(rates) < 1.1
