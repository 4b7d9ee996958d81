"""A time slot shorter than one packet's transmission time (``Scenario.slot_s``) is exact: the
link's byte credit carries over from slot to slot while a packet is on the wire
(cuda/model/link.h), so the link keeps its rate whatever the slot, while the delays, rounded to
whole slots (docs/model.md, "Time"), come far closer to the asked ones. Habib et al.'s Tables I
and II (every link at 1 Mb/s, where the default slot is 8.512 ms) rely on it."""
from __future__ import annotations

import pytest

from diffsweep import simulate
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow, default_slot_s

RATE = 1e6
WIRE = 1064                   # 1024-B segment + 40 B of header, as Habib et al.'s
T = WIRE * 8 / RATE           # one packet's time on the link: 8.512 ms, the default slot


def _hop(prop_ms: float) -> Link:
    return Link(rate_bps=RATE, prop_delay_ms=prop_ms, classes=(QueueClass("be", limit_pkts=100),))


def _bulk(k: float) -> Scenario:
    """One backlogged NewReno flow whose window (64) fits the buffer (100): the link never
    idles once the window is open and never drops, so it sends at its rate; slot T / k."""
    f = TcpFlow(variant="newreno", segment_bytes=1024, header_bytes=40, max_window_pkts=64,
                access_rate_bps=100e6, egress_delay_ms=2.5, reverse_delay_ms=7.5)
    sc = Scenario(links=(_hop(5.0),), flows=(f,), duration_s=30.0, warmup_s=5.0)
    # the default is one packet at the host's 100 Mb/s access link, T / 100: given here, the
    # slot is one packet's time on the link, T, and fractions of it
    assert default_slot_s(sc) == pytest.approx(WIRE * 8 / 100e6)
    return Scenario(links=sc.links, flows=sc.flows, duration_s=30.0, warmup_s=5.0,
                    slot_s=T / k)


def _transfer(n: int, k: float) -> Scenario:
    """An n-packet transfer sent at once (initial window 64, unpaced host) over two 1 Mb/s hops
    of 2.5 ms, egress 2.5 ms and ACKs back in 7.5 ms: a 15-ms round trip, as Habib's F3."""
    f = TcpFlow(route=(0, 1), segment_bytes=1024, header_bytes=40, max_window_pkts=64,
                init_window_pkts=64, access_rate_bps=0, egress_delay_ms=2.5,
                reverse_delay_ms=7.5, size_pkts=n)
    return Scenario(links=(_hop(2.5), _hop(2.5)), flows=(f,), duration_s=1.0,
                    slot_s=None if k == 1 else T / k)


@pytest.mark.parametrize("k", [1, 4, 3.7])
def test_a_slot_shorter_than_a_packet_keeps_the_link_rate(k):
    """At one packet time on the link (T), at a quarter of it and at T / 3.7 (not a whole number
    of slots: the credit left after one packet starts the next) the link sends 1 Mb/s and the
    flow's goodput is the payload's share of it, 1024 / 1064, with no loss."""
    res = simulate([_bulk(k)], [0], backend="cpu")
    q, rep, fl = res.queues.iloc[0], res.replicas.iloc[0], res.flows.iloc[0]
    assert rep.slot_s == pytest.approx(T / k)
    assert q.drops == 0 and fl.drops == 0
    assert q.bytes_departed * 8 / rep.measured_s == pytest.approx(RATE, rel=1e-4)
    assert fl.goodput_bps == pytest.approx(RATE * 1024 / WIRE, rel=1e-4)


def test_a_finer_slot_runs_the_asked_delays():
    """The transfer's last ACK comes back after (n + 1) packet times (store and forward over
    two hops) and the 15-ms round trip. At the default slot the round trip runs as one 8.512-ms
    slot and each hop's transmission as none: 15 ms early of 32. At a quarter slot the round
    trip runs as 7 slots (14.9 ms) and the whole is within three quarter-slots (a hop's
    transmission is short by at most a slot, docs/model.md "Time"); the serialisation of the
    n packets (the spacing between the first ACK and the last) is exact at every slot."""
    err = {}
    for k in (1, 4, 3.7):
        one, ten = (simulate([_transfer(n, k)], [0], backend="cpu").flows.iloc[0] for n in (1, 10))
        slot = T / k
        assert one.rtp_ms == pytest.approx(15.0)
        # 9 more packets leave 9 packet times later, to within one slot (the credit's phase)
        assert abs(ten.finish_s - one.finish_s - 9 * T) <= slot + 1e-9, k
        err[k] = (abs(one.finish_s - (2 * T + 0.015)), abs(one.rtp_ms_run - 15.0) / 15.0, slot)
    assert err[1][1] > 0.4                     # 15 ms runs as 8.512
    assert err[1][0] > 0.014                   # 15 ms early
    for k in (4, 3.7):
        late, rtp_share, slot = err[k]
        assert rtp_share < 0.1, k              # within the rounding warning's 10%
        assert late <= 3 * slot, k
        assert late < err[1][0] / 3, k
