"""ns-2.35's connection set-up options of TcpFlow (issue 24): ``syn`` (``syn_``: a header-only
SYN as sequence number 0, data after it) and ``delay_growth`` (``delay_growth_``: the ACK of
sequence number 0 sets cwnd back to the initial window; with ``syn`` the SYN goes alone).

Every number here is derived by hand from ns-2's rules (docs/model.md, "TCP"): one 10-packet
transfer on an uncongested 10 Mb/s path with a 100 ms round trip. The slot is one 576-byte
packet's time (460.8 us); a packet sent in slot t is acknowledged in slot t + R, R = 217 slots
(the measured RTT sample); packets of one round leave one slot apart, so a transfer of k
rounds whose last round has m packets finishes at k R + (m - 1) slots (+ the wait for a
lost SYN's timer)."""
from __future__ import annotations

import numpy as np
import pytest

from diffsweep.engine.execution import simulate
from diffsweep.engine.pack import pack
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow, Traffic

SLOT = 576 * 8 / 10e6
R = 217          # slots from a packet's send to its ACK (measured below as the RTT sample)
RTO = 6511       # ceil(3 s / SLOT): ns-2.35's initial RTO (rtxcur_init_ 3.0)


def _link():
    return Link(rate_bps=10e6, prop_delay_ms=50.0, classes=(QueueClass("be", limit_pkts=1000),))


def _run(iw, syn, dg, drops=(), duration_s=3.0, interval_s=0.1):
    fl = TcpFlow(init_window_pkts=iw, reverse_delay_ms=50.0, size_pkts=10, syn=syn,
                 delay_growth=dg, drop_seqs=drops)
    sc = Scenario(links=(_link(),), flows=(fl,), duration_s=duration_s, interval_s=interval_s)
    return simulate([sc], [1], backend="cpu")


# (IW, syn, delay_growth) -> data packets delivered per round trip (the SYN is no data).
# ns-2: the ACK of seq 0 opens cwnd (slow start) and delay_growth_ then puts it back to IW;
# with syn_ and delay_growth_ the SYN goes alone (cwnd 1); with syn_ alone cwnd starts at IW,
# so the SYN and IW - 1 data packets leave together.
ROUNDS = {
    (1, False, False): [1, 2, 4, 3],
    (1, False, True): [1, 1, 2, 4, 2],       # docs/ns2-gaps.md: Matta & Guo's short flows
    (1, True, False): [0, 2, 4, 4],          # SYN; its ACK opens cwnd to 2: data 1, 2
    (1, True, True): [0, 1, 2, 4, 3],        # the syn-off sequence one round trip later
    (2, False, False): [2, 4, 4],
    (2, False, True): [2, 3, 5],             # ACK 0: cwnd 3 -> 2, sends 2; ACK 1: 3, sends 3, 4
    (2, True, False): [1, 4, 5],             # SYN + data 1; ACK 0: cwnd 3 sends 2, 3; ...
    (2, True, True): [0, 2, 4, 4],
}


@pytest.mark.parametrize("iw,syn,dg", list(ROUNDS))
def test_packets_per_round_trip_follow_ns2(iw, syn, dg):
    res = _run(iw, syn, dg)
    f = res.flows.iloc[0]
    assert f.rtt_mean_s / SLOT == pytest.approx(R)
    iv = res.intervals
    per_rtt = np.rint(iv.goodput_bps.to_numpy() * 0.1 / 8 / 536).astype(int)
    want = ROUNDS[(iw, syn, dg)]
    assert list(per_rtt[:len(want)]) == want and not per_rtt[len(want):].any()
    k, m = len(want), want[-1]
    assert f.finish_s / SLOT == pytest.approx(k * R + m - 1)
    # the SYN is a packet sent, not data delivered
    assert (f.pkts_sent, f.delivered_bytes, f.retransmits, f.timeouts) == (10 + syn, 5360, 0, 0)
    q = res.queues.iloc[0]
    assert q.bytes_departed == 10 * 576 + (40 if syn else 0)  # a header-only SYN on the wire


def test_syn_delays_the_transfer_by_exactly_one_round_trip():
    """With syn_ and delay_growth_ the data are the plain transfer's, one SYN round trip
    later (the SYN's 40-byte serialization ends within the slot a data packet's would)."""
    plain = _run(1, False, False).flows.iloc[0].finish_s
    one = _run(1, False, False).flows  # a 1-packet transfer's time is one round trip
    fl = TcpFlow(reverse_delay_ms=50.0, size_pkts=1)
    rtt = simulate([Scenario(links=(_link(),), flows=(fl,), duration_s=1.0)], [1],
                   backend="cpu").flows.iloc[0].finish_s
    assert rtt / SLOT == pytest.approx(R) and len(one) == 1
    for iw in (1, 2):
        base = _run(iw, False, False).flows.iloc[0].finish_s
        assert _run(iw, True, True).flows.iloc[0].finish_s - base == pytest.approx(rtt)
    assert plain / SLOT == pytest.approx(4 * R + 2)


def test_a_lost_syn_is_retried_after_the_initial_rto():
    """The SYN (seq 0) is dropped on its first transmission: the timer armed when it was
    sent fires after ns-2's initial RTO (3 s, no sample yet), the SYN is sent again (a
    retransmission and a timeout), and its ACK comes a round trip later. ns-2's bugfix_ss_
    makes the initial window 1 after a timeout before any ACK, so delay_growth_ then sets cwnd
    to 1, not 2, and ssthresh is 2: data rounds 1, 2, 2, 3, 2 (with IW 2 kept it would be
    2, 2, 3, 3 and finish at RTO + R + 4 R + 2)."""
    for iw in (1, 2):
        f = _run(iw, True, True, drops=(0,), duration_s=8.0).flows.iloc[0]
        assert f.finish_s / SLOT == pytest.approx(RTO + R + 5 * R + 1)
        assert (f.pkts_sent, f.retransmits, f.timeouts, f.drops, f.delivered_bytes) == \
            (12, 1, 1, 1, 5360)
    # syn_ alone, IW 2: data 1 left with the lost SYN and waited at the receiver; the second
    # SYN's ACK acknowledges both (ACK 1): cwnd 1 -> 2 (ssthresh 2), then congestion
    # avoidance: 2, 2, 3, 2 more data packets per round trip
    res = _run(2, True, False, drops=(0,), duration_s=8.0, interval_s=SLOT)
    f = res.flows.iloc[0]
    assert f.finish_s / SLOT == pytest.approx(RTO + R + 4 * R + 1)
    slots = np.nonzero(np.rint(res.intervals.goodput_bps.to_numpy() * SLOT / 8 / 536))[0]
    assert slots[0] == RTO  # the retransmitted SYN delivers data 1 (it waited out of order)


def test_options_off_are_the_old_flow():
    """Off (the defaults) they are left out of the scenario's dict and digest, and packing is
    byte for byte what it was (the golden tests check the engine's bits)."""
    a, b = TcpFlow(size_pkts=10), TcpFlow(size_pkts=10, syn=False, delay_growth=False)
    sa = Scenario(links=(_link(),), flows=(a,), duration_s=1.0)
    sb = Scenario(links=(_link(),), flows=(b,), duration_s=1.0)
    assert a == b and sa.digest() == sb.digest()
    assert not {"syn", "delay_growth"} & set(sa.to_dict()["flows"][0])
    pa, pb = pack([sa], [1]), pack([sb], [1])
    for k, v in pa.arrays.items():
        assert np.array_equal(np.asarray(v), np.asarray(pb.arrays[k])), k
    assert not pa.arrays["flow_syn"].any() and not pa.arrays["flow_delay_growth"].any()
    on = pack([Scenario(links=(_link(),), flows=(TcpFlow(syn=True, delay_growth=True),),
                        duration_s=1.0)], [1])
    assert on.arrays["flow_syn"].all() and on.arrays["flow_delay_growth"].all()


def test_each_transfer_of_a_pool_opens_with_a_syn():
    """A session's transfers are new connections: with syn and delay_growth each one's
    completion is one round trip longer, each sends one more packet, and delivers no more."""
    def one(**kw):
        fl = TcpFlow(init_window_pkts=1, reverse_delay_ms=50.0, **kw)
        tr = Traffic(name="s", flow=fl, kind="sessions", think_s=0.5, pool=1, size_set_pkts=(10,),
                     first_start_s=0.1)
        sc = Scenario(links=(_link(),), flows=(), traffic=(tr,), duration_s=6.0)
        return simulate([sc], [3], backend="cpu").transfers
    plain, syn = one(), one(syn=True, delay_growth=True)
    n = min(len(plain), len(syn))
    plain, syn = plain.iloc[:n].reset_index(drop=True), syn.iloc[:n].reset_index(drop=True)
    done = plain.completion_s.notna() & syn.completion_s.notna()
    assert done.sum() >= 3
    assert np.allclose((syn.completion_s - plain.completion_s)[done] / SLOT, R)
    assert ((syn.pkts_sent - plain.pkts_sent)[done] == 1).all()
