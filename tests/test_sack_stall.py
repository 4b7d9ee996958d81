"""A fixed bug, kept as a regression test (issue 52's note, fifteenth session): SACK senders
over an FQ-CoDel best-effort class beside an EF on-off source stalled. A 200-ms flow sent
nothing in the measured 10 s, with no timeout, in 9 of seeds 1-40 (3, 6, 8, 12, 14, 18, 27, 29,
38); NewReno senders in the same scenario did not. The stalled sender was in a fast recovery
entered after a timeout's go-back-N (bugFix_ false lets it start before the ACKs pass
recover_): a partial ACK passed t_seqno_, ns-2.35's newtimer() test (t_seqno_ > ackno) then
cancelled the retransmission timer with data outstanding, and its pipe_ (which counts SACKed
segments) stayed above cwnd_, so nothing was sent that would arm it again. The sender now keeps
t_seqno_ past the cumulative ACK at a partial ACK, as TcpAgent::newack() does, and the timer
runs (RFC 6298 5.3; model/tcp_sack.h, tests/cpp/test_sack.cpp). Over drop-tail (the helper of
cc078e8 saw a stall there too) no SACK flow stalls in seeds 1-40 either."""
from __future__ import annotations

import pytest

from diffsweep.engine.compiled import run_packed
from diffsweep.engine.pack import pack
from diffsweep.scenario import Link, OnOffSource, QueueClass, Scenario, TcpFlow

SEEDS = tuple(range(1, 41))


def _scenario(variant: str, aqm: str = "fq_codel") -> Scenario:
    ef = QueueClass("ef", limit_pkts=50)
    be = QueueClass("be", limit_pkts=200, aqm=aqm)
    src = (OnOffSource(route=(0,), cls="ef", peak_bps=2e6, pkt_bytes=200, t_on_ms=100.0,
                       t_off_ms=100.0),)
    flows = tuple(TcpFlow(variant=variant, segment_bytes=1000, reverse_delay_ms=r - 10.0,
                          max_window_pkts=400) for r in (20.0, 20.0, 200.0, 200.0))
    return Scenario(links=(Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(ef, be)),),
                    flows=flows, sources=src, duration_s=20.0, warmup_s=10.0)


def _min_sent(variant: str, seeds, aqm: str = "fq_codel") -> int:
    o = run_packed(pack([_scenario(variant, aqm)] * len(seeds), list(seeds)), "cpu")
    return int(o["flow_pkts_sent"][:, :4].min())


def test_newreno_flows_all_send():
    assert _min_sent("newreno", (3, 6, 8, 12, 14, 18)) > 100


@pytest.mark.parametrize("aqm", ["fq_codel", "droptail"])
def test_sack_flows_all_send(aqm):
    """Every flow sends in the measured 10 s (before the fix: 0 packets at seed 3 over FQ-CoDel;
    after it the fewest are 1,840 over FQ-CoDel and 635 over drop-tail)."""
    assert _min_sent("sack", SEEDS, aqm) > 100
