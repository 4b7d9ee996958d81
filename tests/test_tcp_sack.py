"""TCP SACK (ns-2.35's Agent/TCP/Sack1 with the Agent/TCPSink/Sack1 sink; cuda/model/tcp_sack.h)
through the whole engine, on hand-computed cases: a lone flow whose window is pinned and whose
chosen segments are lost (the validation hook ``drop_seqs``). The sink's blocks and the
scoreboard are tested on their own in tests/cpp/test_sack.cpp."""
import pytest

from diffsweep.engine.compiled import cuda_kernel
from diffsweep.engine.execution import simulate
from diffsweep.engine.pack import pack
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow, Traffic
from test_engine import CASES, kaur_rule, lone_with_drops


def _counts(res):
    f = res.flows
    return [(int(t), int(fr), int(r)) for t, fr, r in zip(f.timeouts, f.fast_retransmits,
                                                           f.retransmits)]


def test_sack_recovers_several_losses_in_one_window_where_reno_times_out():
    """A window of W losing its first d segments leaves W - d segments to arrive, each with
    news in its SACK blocks: a duplicate ACK each. With three of them (W - d >= 3) one fast
    retransmit starts a recovery that retransmits exactly the d holes, each once, and no
    timeout follows; with fewer, only the timer recovers. Reno (Kaur & Vin's rule after
    Fall & Floyd) times out for d = 3 whatever W."""
    sack = dict(zip(CASES, _counts(simulate([lone_with_drops(w, d, "sack") for w, d in CASES],
                                            [1] * len(CASES), backend="cpu"))))
    for (w, d), (timeouts, fast, rexmits) in sack.items():
        if w - d >= 3:
            assert (timeouts, fast, rexmits) == (0, 1, d), (w, d)
        else:
            assert (timeouts, fast) == (1, 0), (w, d)
    assert [(w, d) for w, d in CASES if kaur_rule(w, d) and w - d >= 3] != []
    reno = _counts(simulate([lone_with_drops(20, 3, "reno")], [1], backend="cpu"))[0]
    assert reno[0] == 1 and sack[(20, 3)] == (0, 1, 3)


def _forty(variant, drops, size_pkts=None):
    """A window of 40 (round trip 50 ms: 20 ms on the link, 30 ms back), the RTO at its 0.2-s
    floor, segments ``drops`` of the second window lost (as in test_engine's NewReno timer
    test)."""
    link = Link(rate_bps=10e6, prop_delay_ms=20.0, classes=(QueueClass("be", limit_pkts=1000),))
    fl = TcpFlow(variant=variant, max_window_pkts=1000, init_window_pkts=40,
                 init_ssthresh_pkts=40, reverse_delay_ms=30.0, drop_seqs=tuple(drops),
                 size_pkts=size_pkts)
    return Scenario(links=(link,), flows=(fl,), duration_s=10.0)


@pytest.mark.parametrize("holes", range(1, 9))
def test_sack_retransmits_every_hole_in_the_first_round_trip(holes):
    """Holes 40 .. 40 + holes - 1 of a window of 40: at the third duplicate ACK pipe_ =
    maxseq_ - highest_ack_ - 3 = 79 - 39 - 3 = 37 against cwnd_ 20 (half of 40); each of the
    40 - holes - 3 >= 29 further duplicate ACKs takes one from pipe_, which leaves room for at
    least 12 sends, holes first: every hole goes within the first round trip. The partial ACKs
    that follow restart the timer each time (partial_ack_ false), so none of these recoveries
    times out, where NewReno's one-hole-per-round-trip recovery outlasts its timer from 5 holes
    on (test_engine.py)."""
    res = simulate([_forty("sack", range(40, 40 + holes)), _forty("newreno", range(40, 40 + holes))],
                   [1, 1], backend="cpu")
    sack, newreno = _counts(res)
    assert sack == (0, 1, holes)
    assert newreno[0] == int((holes - 1) * 50 >= 200)


def test_sack_finishes_a_transfer_in_the_same_round_trips_whatever_its_holes():
    """100 segments, holes in the second window: SACK repairs 2, 3 or 4 holes (contiguous or
    scattered) in the same round trip, so the transfer ends within a few segments' transmission
    times (0.83 ms each at 10 Mb/s) of the 2-hole case; NewReno's partial ACKs repair one hole
    per round trip and end a round trip later for 4. (The transfer's length keeps its last
    segments clear of a window edge: at 115 or 120 segments a fraction of a packet of cwnd
    after the recovery, cwnd 20.49 against 20.59 with ns-2's precisionReduce_ halving, moves
    the last one into the next round trip for some hole patterns and not others.)"""
    holes = [(40, 41), (40, 41, 42), (40, 41, 42, 43), (40, 42, 44, 46)]
    scs = [_forty(v, h, size_pkts=100) for v in ("sack", "newreno") for h in holes]
    fin = list(simulate(scs, [1] * len(scs), backend="cpu").flows.finish_s)
    sack, newreno = fin[:4], fin[4:]
    assert max(sack) - min(sack) < 0.005
    assert newreno[2] - sack[2] > 0.03


def test_a_lost_retransmission_ends_in_a_timeout():
    """Segment 40 listed twice: its first transmission and its fast retransmission are lost.
    The scoreboard retransmits a hole once per recovery (h_seqno_ has passed it), so only the
    timer recovers: one fast retransmit, one timeout, and two retransmissions in all (after the
    timeout cwnd_ is 1, segment 40 goes again, and its ACK covers everything the sink holds).
    Listed once, the fast retransmission repairs it."""
    res = simulate([_forty("sack", (40, 40)), _forty("sack", (40,))], [1, 1], backend="cpu")
    assert _counts(res) == [(1, 1, 2), (0, 1, 1)]


def test_sack_replicas_run_on_the_classic_cuda_kernel():
    """SACK's state and code are a rare model (engine/features.h): a batch with a SACK flow goes
    to the classic kernel (ns-2's rare models), one without stays on the slim one (and carries
    no SACK state)."""
    plain = Scenario(links=(Link(rate_bps=10e6, prop_delay_ms=5.0),),
                     flows=(TcpFlow(variant="newreno"),), duration_s=1.0)
    sack = Scenario(links=plain.links, flows=(TcpFlow(variant="sack"),), duration_s=1.0)
    p_plain, p_sack = pack([plain], [1]), pack([sack], [1])
    assert cuda_kernel([p_plain]) == "slim" and p_plain.shape["sack_states"] == 0
    assert cuda_kernel([p_sack]) == "classic" and p_sack.shape["sack_states"] == 1


def test_sack_differs_from_reno_only_where_losses_happen():
    """Without a loss SACK sends as Reno does (same window rules outside recovery)."""
    res = simulate([_forty("sack", (), size_pkts=300), _forty("reno", (), size_pkts=300)], [1, 1],
                   backend="cpu")
    f = res.flows
    assert f.finish_s.iloc[0] == f.finish_s.iloc[1]
    assert f.pkts_sent.iloc[0] == f.pkts_sent.iloc[1] == 300


def test_a_pool_slot_starts_each_transfer_with_a_new_sack_state():
    """Traffic generators reuse a flow slot for transfer after transfer: each starts with an
    empty scoreboard, last_ack_ -1 and a new sink (engine/traffic.h). Without losses a SACK
    transfer is sent as a Reno one, so the two give the same completion times; a state left
    over from the slot's last transfer (its last_ack_ far ahead) would ignore the new
    transfer's ACKs and end in timeouts."""
    link = Link(rate_bps=10e6, prop_delay_ms=4.0, classes=(QueueClass("be", limit_pkts=1000),))
    out = []
    for v in ("reno", "sack"):
        web = TcpFlow(variant=v, reverse_delay_ms=7.0, max_window_pkts=30)
        tr = (Traffic(name="web", flow=web, mean_interarrival_s=0.05, size_set_pkts=(5, 40, 120),
                      pool=2),)
        out.append(simulate([Scenario(links=(link,), flows=(), traffic=tr, duration_s=4.0)], [3],
                            backend="cpu").transfers)
    reno, sack = out
    assert len(sack) == len(reno) > 20 and sack.slot.nunique() == 2
    assert int(sack.timeouts.sum()) == 0 and int(sack.drops.sum()) == 0
    assert list(sack.completion_s.dropna()) == list(reno.completion_s.dropna())
