"""Scenario families the engine must reproduce bit for bit (tests/test_engine_golden.py).

Their outputs were recorded with the serial engine of 0.1.0 (one replica's slot as one
chain, before the lane-team engine) in tests/data/engine_golden.npz by
tests/data/make_engine_golden.py, and the lane-team engine reproduced every bit of them for
team sizes 1-32. They were re-recorded once, for the 0.2 model fix that keeps a sender's own
same-slot packets in order under the random tie-break (the multihop, WRR and access-link
families changed; the Kaur & Vin families did not).
Each family exercises one model path: Kaur & Vin with EF on-off, CBR and UDP, random and
index tie-break, NewReno, multi-hop with delayed ACKs and a lossy link, WRR, injected drops,
access-link buffers, finite transfers with start times, and per-interval goodput; and (0.3)
every edge conditioner with RED, RIO-C, RIO-D and WRED, and (issue 12) short-lived transfers
from traffic generators, a second path per flow with each edge-classifier split, and
class-based isolation (cbq, lending off and on), and (issue 13) the TCP-aware conditioners,
two DiffServ domains and the cwnd trace, each recorded when they were added: the families
before them were checked unchanged bit for bit before the file was re-recorded.
Re-recorded once more for issue 20 (results independent of the round schedule): traffic0,
traffic1 and tcpaware2 changed (per-event draws for web sessions and sessions slots, web
objects admitted in time order, gen_peak_active counted at the queue side's time, a new
transfer completed only by its own packets, flow_drops owned by the queue side); no other
family changed a bit.
Re-recorded for issue 24 (the multi-RED idle flags, model/queue_red.h: kept per average as
dsredq.cc keeps them, busy while the last packet is on the wire, idle from the start of its
transmission): the RIO-C, RIO-D and WRED families changed (diffserv0-2, traffic0-1,
tcpaware0-2); every other family, RED's (diffserv3) included, is unchanged bit for bit.
Re-recorded for ns-2.35's TCP loss recovery (exitFastRetrans_: no window inflation by the
dupacks of a refused fast retransmit; NewReno's partial ACKs keep the dupack count and restart
the timer only at a recovery's first): kaur2, kaur4, multihop0-2, drops1, cbq0 and
tcpaware0-1 changed (169 arrays), the families where such dupacks or partial ACKs occur.
Issue 44 added the SACK family (sack0-3) alone: every earlier array is unchanged bit for bit.
When the default slot became one packet at the fastest rate, access links included (issue 53,
2026-12-02), the cases whose senders are faster than their links (wrr0, drops3, traffic0-1,
paths0-3, cbq0-1) kept their recorded slot (``_links_packet_time``): no array changed.
"""
from __future__ import annotations

import dataclasses

from diffsweep.scenario import (Link, Marker, OnOffSource, QueueClass, RedThresholds, Scenario,
                                TcpFlow, Traffic)
from diffsweep.scenario import default_slot_s
from diffsweep.scenario.slot import max_wire_bytes
from diffsweep.scenario.builders import kaur_vin


def _kaur() -> list[tuple[Scenario, int]]:
    out = []
    for i, (ef, tcp, tie, udp) in enumerate([("onoff", "reno", "random", False),
                                            ("onoff", "reno", "index", True),
                                            ("cbr", "newreno", "random", True),
                                            (None, "reno", "index", False),
                                            ("onoff", "newreno", "index", False)]):
        out.append((kaur_vin(n_flows=8, rtp_intervals=(12.0, 26.0, 8), ef=ef, t_on_ms=1.0 + 4 * i,
                             udp=udp, tcp=tcp, tie_break=tie, duration_s=4.0, warmup_s=1.0,
                             seed=10 + i), 10 + i))
    out.append((kaur_vin(n_flows=1, rtp_ms=8.0, ef="onoff", t_on_ms=40.0, duration_s=6.0,
                         warmup_s=1.0), 3))
    out.append((kaur_vin(n_flows=64, rtp_ms=8.0, ef="onoff", t_on_ms=1.0, duration_s=2.0,
                         warmup_s=0.5), 4))
    out.append((kaur_vin(n_flows=64, rtp_ms=8.0, ef=None, tie_break="index", duration_s=2.0,
                         warmup_s=0.5), 5))
    return out


def _multihop() -> list[tuple[Scenario, int]]:
    lossy = Link(rate_bps=20e6, prop_delay_ms=3.0, loss_prob=0.01,
                 classes=(QueueClass("be", limit_pkts=60),))
    second = Link(rate_bps=10e6, prop_delay_ms=4.0, classes=(QueueClass("be", limit_bytes=30000),))
    flows = (TcpFlow(route=(0, 1), reverse_delay_ms=7.0, delayed_ack=True),
             TcpFlow(route=(0, 1), variant="newreno", reverse_delay_ms=20.0),
             TcpFlow(route=(1,), reverse_delay_ms=2.0, delayed_ack=True, access_delay_ms=1.5))
    return [(Scenario(links=(lossy, second), flows=flows, duration_s=5.0, warmup_s=1.0,
                      interval_s=1.0), 7 + s) for s in range(3)]


def _wrr() -> list[tuple[Scenario, int]]:
    classes = (QueueClass("a", limit_pkts=200, weight=3), QueueClass("b", limit_pkts=200, weight=1))
    link = Link(rate_bps=10e6, prop_delay_ms=2.0, classes=classes, scheduler="wrr")
    flows = tuple(TcpFlow(cls=c, reverse_delay_ms=2.0, access_rate_bps=40e6) for c in "aabb")
    return [(Scenario(links=(link,), flows=flows, duration_s=5.0, warmup_s=1.0), 1)]


def _drops_and_access() -> list[tuple[Scenario, int]]:
    link = Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(QueueClass("be", limit_pkts=1000),))
    out = []
    for w, d, v in [(9, 2, "reno"), (12, 3, "newreno"), (4, 1, "reno")]:
        fl = TcpFlow(variant=v, max_window_pkts=1000, init_window_pkts=w,
                     init_ssthresh_pkts=max(2, w), reverse_delay_ms=10.0,
                     drop_seqs=tuple(range(w, w + d)))
        out.append((Scenario(links=(link,), flows=(fl,), duration_s=4.0), 1))
    small = Link(rate_bps=5e6, prop_delay_ms=1.0, classes=(QueueClass("be", limit_pkts=20),))
    flows = (TcpFlow(reverse_delay_ms=5.0, access_rate_bps=50e6, access_buffer_pkts=8),
             TcpFlow(reverse_delay_ms=9.0, access_rate_bps=0.0, size_pkts=300, start_s=0.3),
             TcpFlow(reverse_delay_ms=3.0, size_pkts=40, start_s=1.1, max_window_pkts=12),
             TcpFlow(reverse_delay_ms=3.0, variant="newreno", start_s=0.05, delayed_ack=True))
    out.append((Scenario(links=(small,), flows=flows, duration_s=4.0, warmup_s=0.5,
                         interval_s=0.5), 21))
    return out


def _diffserv() -> list[tuple[Scenario, int]]:
    """Every edge conditioner and every AQM (issue 11): six aggregates of two flows each, one per
    marker kind, a colour-aware srTCM/trTCM pair fed by pre-coloured flows, a periodic on-off
    source; the bottleneck's class runs RIO-C, RIO-D, WRED or RED (gentle, bytes), a second
    class is drop-tail; random and index tie-breaks."""
    th = (RedThresholds(20, 40, 0.02), RedThresholds(12, 30, 0.05), RedThresholds(5, 15, 0.1))
    out = []
    for i, (aqm, tie) in enumerate([("rio-c", "random"), ("rio-d", "index"), ("wred", "random"),
                                    ("red", "index")]):
        red = th[:1] if aqm == "red" else th
        af = QueueClass("af", limit_pkts=60, aqm=aqm, red=red, red_w_q=0.02,
                        red_gentle=aqm == "red", red_bytes=aqm == "red", red_mean_pkt_bytes=1000)
        be = QueueClass("be", limit_pkts=40)
        link = Link(rate_bps=10e6, prop_delay_ms=2.0, classes=(af, be), scheduler="wrr")
        colours = [None] * 6 + ["green", "yellow", "yellow", "red", None, None, "red", None]
        flows = tuple(TcpFlow(cls="af" if k < 12 else "be", segment_bytes=960,
                              reverse_delay_ms=2.0 + 6 * (k % 4), access_delay_ms=1.0 + k % 3,
                              start_s=0.05 * k, colour=colours[k], max_window_pkts=64)
                      for k in range(14))
        src = (OnOffSource(cls="af", peak_bps=4e6, pkt_bytes=1000, t_on_ms=20, t_off_ms=20,
                           onoff="fixed", colour="red", name="udp"),
               OnOffSource(cls="be", peak_bps=2e6, pkt_bytes=500, t_on_ms=5, t_off_ms=15,
                           name="exp"))
        mk = (Marker(name="tb", kind="token_bucket", cir_bps=1.5e6, cbs_bytes=8000, flows=(0, 1)),
              Marker(name="tsw2", kind="tsw2cm", cir_bps=1.5e6, cbs_bytes=1, window_s=0.2,
                     flows=(2, 3)),
              Marker(name="tsw3", kind="tsw3cm", cir_bps=1e6, pir_bps=2e6, cbs_bytes=1,
                     window_s=0.5, flows=(4, 5)),
              Marker(name="sr", kind="srtcm", cir_bps=1e6, cbs_bytes=5000, pbs_bytes=10000,
                     colour_aware=True, flows=(6, 7)),
              Marker(name="tr", kind="trtcm", cir_bps=1e6, cbs_bytes=5000, pir_bps=2e6,
                     pbs_bytes=8000, colour_aware=True, flows=(8, 9)),
              Marker(name="bm", kind="balancing", cir_bps=2e6, cbs_bytes=20000, b1_bytes=4000,
                     w_lo=0.8, w_hi=1.5, p_max=0.9, active_s=0.3, flows=(10, 11), sources=(0,)))
        out.append((Scenario(links=(link,), flows=flows, sources=src, markers=mk,
                             duration_s=3.0, warmup_s=0.5, tie_break=tie), 30 + i))
    return out


def _traffic() -> list[tuple[Scenario, int]]:
    """Short-lived transfers (issue 12): Poisson web transfers from an empirical size set
    through a TSW2CM marker into RIO-C, exponential and Pareto sizes, sessions with think
    times, a small pool that runs dry, and one backlogged FTP flow beside them."""
    red = (RedThresholds(20, 40, 0.02), RedThresholds(5, 10, 0.2))
    link = Link(rate_bps=10e6, prop_delay_ms=5.0,
                classes=(QueueClass("q", limit_pkts=50, aqm="rio-c", red=red,
                                    red_mean_pkt_bytes=1000),))
    web = TcpFlow(cls="q", segment_bytes=1000, header_bytes=0, max_window_pkts=20,
                  access_delay_ms=1.0, egress_delay_ms=1.0, reverse_delay_ms=7.0,
                  access_rate_bps=100e6)
    be = TcpFlow(**{**web.__dict__, "colour": "red"})
    out = []
    for i, tie in enumerate(["random", "index"]):
        traffic = (
            Traffic(name="af", flow=web, mean_interarrival_s=0.02, t_stop_s=3.0,
                    size_set_pkts=(1, 2, 3, 4, 5, 6, 7, 8, 10, 90), pool=64),
            Traffic(name="be", flow=be, mean_interarrival_s=0.03, size_dist="exponential",
                    size_mean_pkts=12.0, pool=4),
            Traffic(name="pareto", flow=be, mean_interarrival_s=0.1, size_dist="pareto",
                    size_min_pkts=2.0, size_max_pkts=200.0, size_alpha=1.3, pool=16),
            Traffic(name="sessions", flow=web, kind="sessions", think_s=0.2, pool=5,
                    size_set_pkts=(3, 30)),
            Traffic(name="www", flow=be, kind="web", sessions=4, pages_per_session=6,
                    objects_per_page=2, inter_page_s=0.3, inter_object_s=0.01,
                    size_dist="paretoII", size_mean_pkts=10.0, size_alpha=1.2, pool=6),
        )
        ftp = (TcpFlow(**{**web.__dict__, "colour": "red", "reverse_delay_ms": 20.0}),)
        mk = (Marker(name="af", kind="tsw2cm", cir_bps=3e6, cbs_bytes=1, window_s=0.5,
                     traffic=(0, 3)),)
        out.append((Scenario(links=(link,), flows=ftp, traffic=traffic, markers=mk,
                             duration_s=4.0, warmup_s=0.0, tie_break=tie), 40 + i))
    return out


def _paths() -> list[tuple[Scenario, int]]:
    """Two paths and the edge classifier (Matta & Guo's diamond): link 0 the edge, 1 and 2 the
    two middle links (2 the narrower, with a RED queue), 3 the exit. Each split kind: none,
    random and size on Poisson transfers beside a backlogged flow, lifetime on two backlogged
    flows and transfers, with an injected drop of an early segment (its retransmission goes
    on path 1)."""
    red = (RedThresholds(5, 15, 0.1),)
    links = (Link(rate_bps=20e6, prop_delay_ms=1.0, classes=(QueueClass("q", limit_pkts=100),)),
             Link(rate_bps=5e6, prop_delay_ms=4.0, classes=(QueueClass("q", limit_pkts=30),)),
             Link(rate_bps=3e6, prop_delay_ms=2.0,
                  classes=(QueueClass("q", limit_pkts=30, aqm="red", red=red,
                                      red_mean_pkt_bytes=1000),)),
             Link(rate_bps=20e6, prop_delay_ms=1.0, classes=(QueueClass("q", limit_pkts=100),)))
    base = TcpFlow(route=(0, 1, 3), route2=(0, 2, 3), cls="q", segment_bytes=1000,
                   header_bytes=0, max_window_pkts=40, access_delay_ms=0.5,
                   egress_delay_ms=0.5, reverse_delay_ms=6.0, access_rate_bps=100e6)
    out = []
    for i, (split, thr) in enumerate([("none", None), ("random", None), ("size", 20),
                                      ("lifetime", 16)]):
        tmpl = TcpFlow(**{**base.__dict__, "split": split, "split_pkts": thr})
        flows = (TcpFlow(**{**tmpl.__dict__, "drop_seqs": (3,)}),
                 TcpFlow(**{**tmpl.__dict__, "start_s": 0.3, "size_pkts": 400,
                            "delayed_ack": True}))
        traffic = (Traffic(name="web", flow=tmpl, mean_interarrival_s=0.03, t_stop_s=2.5,
                           size_set_pkts=(2, 5, 12, 40, 90), pool=24),)
        out.append((Scenario(links=links, flows=flows, traffic=traffic, duration_s=3.0,
                             warmup_s=0.2, tie_break="random" if i % 2 else "index"), 50 + i))
    return out


def _cbq() -> list[tuple[Scenario, int]]:
    """Class-based isolation (cbq): a drop-tail class of backlogged TCP and a RED class whose
    flows start late and one of which ends, so that it is idle for a while; lending off and on."""
    classes = (QueueClass("a", limit_pkts=40, share=0.4),
               QueueClass("b", limit_pkts=60, share=0.5, aqm="red",
                          red=(RedThresholds(8, 24, 0.1),)))
    flows = (TcpFlow(cls="a", reverse_delay_ms=6.0, access_rate_bps=40e6),
             TcpFlow(cls="a", variant="newreno", reverse_delay_ms=14.0, delayed_ack=True),
             TcpFlow(cls="b", reverse_delay_ms=4.0, start_s=1.2),
             TcpFlow(cls="b", reverse_delay_ms=9.0, size_pkts=400, start_s=0.4))
    out = []
    for lend in (False, True):
        link = Link(rate_bps=8e6, prop_delay_ms=3.0, classes=classes, scheduler="cbq",
                    cbq_lend=lend)
        out.append((Scenario(links=(link,), flows=flows, duration_s=4.0, warmup_s=0.5,
                             interval_s=0.5), 31))
    return out


def _tcp_aware() -> list[tuple[Scenario, int]]:
    """TCP-aware conditioners (issue 13): standard TSW3CM with small-window protection, the
    basic RTT-aware conditioner with SW (RTT-SW), RTT-RTO, over a three-colour RIO-C core;
    flows of different RTTs, one of them traced; and two DiffServ domains in a row, where the
    long flows are conditioned again at the second domain's edge, with web transfers."""
    th = (RedThresholds(40, 55, 0.02), RedThresholds(25, 40, 0.05), RedThresholds(10, 25, 0.1))
    rio = QueueClass("af", limit_pkts=80, aqm="rio-c", red=th, red_w_q=0.002)
    out = []
    core = Link(rate_bps=6e6, prop_delay_ms=2.0, classes=(rio,))
    flows = tuple(TcpFlow(cls="af", variant="newreno", segment_bytes=984, max_window_pkts=64,
                          reverse_delay_ms=2.0 + 30.0 * (k % 3), start_s=0.03 * k)
                  for k in range(9))
    mk = (Marker(name="std_sw", kind="tsw3cm", cir_bps=1e6, pir_bps=1.5e6, cbs_bytes=1,
                 window_s=0.5, small_window_pkts=3, flows=(0, 1, 2)),
          Marker(name="rtt_sw", kind="rtt_aware", cir_bps=1e6, cbs_bytes=1, window_s=0.5,
                 small_window_pkts=3, flows=(3, 4, 5)),
          Marker(name="rto", kind="rtt_rto", cir_bps=1e6, cbs_bytes=1, window_s=0.5,
                 flows=(6, 7, 8)))
    for tie in ("random", "index"):
        out.append((Scenario(links=(core,), flows=flows, markers=mk, duration_s=3.0,
                             warmup_s=0.5, tie_break=tie, trace_flows=(0, 4, 8),
                             trace_interval_s=0.05), 41))
    d1 = Link(rate_bps=8e6, prop_delay_ms=3.0, classes=(rio,), domain=0)
    d2 = Link(rate_bps=5e6, prop_delay_ms=4.0, classes=(rio,), domain=1)
    long_ = tuple(TcpFlow(route=(0, 1), cls="af", reverse_delay_ms=20.0 + 10 * k,
                          max_window_pkts=40) for k in range(3))
    cross = tuple(TcpFlow(route=(1,), cls="af", reverse_delay_ms=3.0) for _ in range(2))
    web = Traffic(name="www", flow=TcpFlow(route=(1,), cls="af", reverse_delay_ms=5.0),
                  kind="web", sessions=4, pages_per_session=50, objects_per_page=2,
                  inter_page_s=0.3, size_dist="paretoII", pool=16)
    mk2 = (Marker(name="d1", kind="rtt_rto", cir_bps=1.5e6, cbs_bytes=1, link=0, flows=(0, 1, 2)),
           Marker(name="d2", kind="rtt_aware", cir_bps=1e6, cbs_bytes=1, link=1,
                  small_window_pkts=2, flows=(0, 1, 2)),
           Marker(name="x", kind="tsw3cm", cir_bps=1e6, pir_bps=2e6, cbs_bytes=1, link=1,
                  small_window_pkts=3, flows=(3, 4), traffic=(0,)))
    out.append((Scenario(links=(d1, d2), flows=long_ + cross, traffic=(web,), markers=mk2,
                         duration_s=3.0, warmup_s=0.5, trace_flows=(1,),
                         trace_interval_s=0.1), 42))
    return out


def _sack() -> list[tuple[Scenario, int]]:
    """Issue 44's TCP SACK (model/tcp_sack.h): Kaur & Vin's single flow over EF bursts and 8
    flows of mixed round trips; lone flows with injected holes (one listed twice: a lost
    retransmission) with limited transmit, delayed ACKs and a SYN; SACK beside Reno and
    NewReno at a small buffer with send jitter (queue drops, many holes per window)."""
    out = [(kaur_vin(n_flows=1, rtp_ms=8.0, ef="onoff", t_on_ms=4.0, tcp="sack", duration_s=20.0,
                     warmup_s=1.0), 30),
           (kaur_vin(n_flows=8, rtp_intervals=(12.0, 26.0, 8), ef="onoff", t_on_ms=4.0, tcp="sack",
                     tie_break="index", duration_s=4.0, warmup_s=1.0), 31)]
    link = Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(QueueClass("be", limit_pkts=1000),))
    lone = (TcpFlow(variant="sack", max_window_pkts=1000, init_window_pkts=20, init_ssthresh_pkts=20,
                    reverse_delay_ms=10.0, drop_seqs=(20, 22, 23, 27, 27), limited_transmit=True),
            TcpFlow(variant="sack", reverse_delay_ms=7.0, syn=True, delay_growth=True,
                    delayed_ack=True, drop_seqs=(6, 9, 30, 30), size_pkts=400, start_s=0.1))
    out.append((Scenario(links=(link,), flows=lone, duration_s=4.0, interval_s=0.5), 32))
    small = Link(rate_bps=5e6, prop_delay_ms=2.0, classes=(QueueClass("be", limit_pkts=12),))
    mixed = (TcpFlow(variant="sack", reverse_delay_ms=5.0, send_jitter_s=0.002),
             TcpFlow(variant="sack", reverse_delay_ms=9.0, max_window_pkts=64),
             TcpFlow(variant="reno", reverse_delay_ms=5.0),
             TcpFlow(variant="newreno", reverse_delay_ms=7.0, limited_transmit=True),
             TcpFlow(variant="sack", reverse_delay_ms=3.0, size_pkts=200, start_s=0.7,
                     access_rate_bps=0.0))
    out.append((Scenario(links=(small,), flows=mixed, duration_s=4.0, warmup_s=0.5), 33))
    return out


def _links_packet_time(sc: Scenario) -> Scenario:
    """``sc`` at the slot it was recorded at: one data packet's time on the fastest *link*, the
    engine's default until 2026-12-02. The default since then is one packet at the fastest
    rate, access links included (docs/model.md, "Time"), a Python-side rule: the engine's
    bits at a given slot did not change, which these cases, given their recorded slot, show."""
    if sc.slot_s is not None:
        return sc
    slot = max_wire_bytes(sc) * 8.0 / max(link.rate_bps for link in sc.links)
    return sc if slot == default_slot_s(sc) else dataclasses.replace(sc, slot_s=slot)


def golden_cases() -> list[tuple[str, Scenario, int]]:
    fams = {"kaur": _kaur(), "multihop": _multihop(), "wrr": _wrr(), "drops": _drops_and_access(),
            "diffserv": _diffserv(), "traffic": _traffic(), "paths": _paths(), "cbq": _cbq(),
            "tcpaware": _tcp_aware(), "sack": _sack()}
    return [(f"{fam}{i}", _links_packet_time(sc), seed) for fam, items in fams.items()
            for i, (sc, seed) in enumerate(items)]


def schedule_only_cases() -> list[tuple[str, Scenario, int]]:
    """Cases with no recorded outputs: tests/test_schedule.py runs them under every schedule
    against their own plain run (not in engine_golden.npz). Issue 24's connection set-up
    (TcpFlow.syn, delay_growth): fixed flows with each combination, a lossy link that drops
    SYNs, a small buffer, delayed ACKs and NewReno, and Poisson transfers and sessions whose
    every connection opens with a SYN."""
    link = Link(rate_bps=10e6, prop_delay_ms=4.0, loss_prob=0.03,
                classes=(QueueClass("be", limit_pkts=25),))
    flows = (TcpFlow(reverse_delay_ms=6.0, syn=True, delay_growth=True, size_pkts=600),
             TcpFlow(reverse_delay_ms=9.0, syn=True, init_window_pkts=3, start_s=0.2),
             TcpFlow(reverse_delay_ms=3.0, delay_growth=True, init_window_pkts=1, size_pkts=30,
                     start_s=0.4, delayed_ack=True),
             TcpFlow(reverse_delay_ms=5.0, variant="newreno", syn=True, delay_growth=True,
                     drop_seqs=(0, 3), access_rate_bps=40e6, limited_transmit=True))
    web = TcpFlow(reverse_delay_ms=7.0, syn=True, delay_growth=True, max_window_pkts=20)
    traffic = (Traffic(name="web", flow=web, mean_interarrival_s=0.03, size_set_pkts=(1, 2, 5, 12, 40),
                       pool=32),
               Traffic(name="s", flow=TcpFlow(**{**web.__dict__, "delay_growth": False}),
                       kind="sessions", think_s=0.1, pool=4, size_set_pkts=(3, 20)))
    setup = [(f"setup{i}", Scenario(links=(link,), flows=flows, traffic=tr, duration_s=3.0,
                                    warmup_s=0.0, tie_break=tie, interval_s=0.5, init_rto_s=1.0),
              50 + i)
             for i, (tr, tie) in enumerate((((), "random"), (traffic, "index")))]
    return (setup + _traces() + _cubic() + _codel() + _pie() + _ecn() + _fq_codel()
            + _device_queue())


def _cubic() -> list[tuple[str, Scenario, int]]:
    """CUBIC (model/tcp_cubic.h): CUBIC over NewReno, SACK and Reno recovery beside ns-2's
    NewReno at a drop-tail bottleneck (slow start's overshoot, HyStart, fast convergence,
    timeouts), with delayed ACKs, a SYN and send jitter; and CUBIC transfers from a pool (each a
    new connection) under two parameter sets, HyStart by delay only and one without HyStart or
    TCP friendliness."""
    link = Link(rate_bps=20e6, prop_delay_ms=10.0, classes=(QueueClass("be", limit_pkts=40),))
    flows = (TcpFlow(congestion_control="cubic", variant="newreno", max_window_pkts=400,
                     reverse_delay_ms=20.0),
             TcpFlow(congestion_control="cubic", variant="sack", max_window_pkts=400,
                     reverse_delay_ms=35.0, delayed_ack=True, syn=True, delay_growth=True,
                     start_s=0.3),
             TcpFlow(congestion_control="cubic", variant="reno", max_window_pkts=200,
                     reverse_delay_ms=12.0, send_jitter_s=0.001, cubic_beta=0.8, start_s=0.1),
             TcpFlow(variant="newreno", max_window_pkts=400, reverse_delay_ms=20.0))
    web = TcpFlow(congestion_control="cubic", variant="sack", reverse_delay_ms=8.0,
                  max_window_pkts=100, cubic_hystart_detect="delay")
    bare = TcpFlow(**{**web.__dict__, "cubic_hystart": False, "cubic_tcp_friendliness": False,
                      "variant": "newreno"})
    traffic = (Traffic(name="web", flow=web, mean_interarrival_s=0.05, size_set_pkts=(5, 40, 300),
                       pool=8),
               Traffic(name="s", flow=bare, kind="sessions", think_s=0.1, pool=3,
                       size_set_pkts=(20, 200)))
    return [("cubic0", Scenario(links=(link,), flows=flows, duration_s=4.0, warmup_s=0.5,
                                trace_flows=(0, 1), trace_interval_s=0.01), 71),
            ("cubic1", Scenario(links=(link,), flows=flows[:1], traffic=traffic, duration_s=3.0,
                                warmup_s=0.0, tie_break="index"), 72)]


def _traces() -> list[tuple[str, Scenario, int]]:
    """Issue 53's time series: a queue trace of a RED bottleneck and a drop-tail second hop
    (sampled at an interval that is no whole number of slots, so samples fall at every phase
    of the rounds) and the cwnd of 16 flows; the second with web transfers and only link 1
    traced."""
    red = QueueClass("be", limit_pkts=50, aqm="red", red=(RedThresholds(5, 15, 0.1),))
    links = (Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(red,)),
             Link(rate_bps=12e6, prop_delay_ms=1.0, classes=(QueueClass("be", limit_pkts=30),)))
    flows = tuple(TcpFlow(route=(0, 1) if k % 2 else (0,), reverse_delay_ms=4.0 + 3 * k)
                  for k in range(16))
    web = Traffic(name="web", flow=TcpFlow(route=(1,), reverse_delay_ms=5.0),
                  mean_interarrival_s=0.02, size_set_pkts=(2, 8, 30), pool=16)
    kw = dict(duration_s=2.0, warmup_s=0.3, trace_flows=tuple(range(16)), trace_interval_s=0.0137)
    return [("trace0", Scenario(links=links, flows=flows, queue_trace_interval_s=0.00123, **kw), 61),
            ("trace1", Scenario(links=links, flows=flows, traffic=(web,), tie_break="index",
                                queue_trace_interval_s=0.0071, queue_trace_links=(1,), **kw), 62)]


def _codel() -> list[tuple[str, Scenario, int]]:
    """CoDel (issue 52) with the queueing-delay histogram: a two-class priority link (an EF
    source's drop-tail class over a CoDel class, short interval so that it drops within the
    run) into a second CoDel hop under WRR; and one CoDel link of 16 flows under the index
    order with the default target and interval, a large buffer and a late warm-up."""
    ef = OnOffSource(name="ef", pkt_bytes=200, peak_bps=2e6, t_on_ms=20.0, t_off_ms=30.0,
                     route=(0,), cls="ef")
    codel = QueueClass("be", limit_pkts=400, aqm="codel", codel_target_ms=2.0,
                       codel_interval_ms=20.0)
    links = (Link(rate_bps=10e6, prop_delay_ms=3.0,
                  classes=(QueueClass("ef", limit_pkts=40), codel)),
             Link(rate_bps=3e6, prop_delay_ms=2.0, scheduler="wrr",
                  classes=(QueueClass("a", limit_pkts=30, weight=2),
                           QueueClass("be", limit_pkts=200, aqm="codel", codel_min_bytes=0,
                                      codel_target_ms=0.5, codel_interval_ms=10.0))))
    flows = _aqm_hop_flows()
    one = (Link(rate_bps=20e6, prop_delay_ms=10.0,
                classes=(QueueClass("be", limit_pkts=1000, aqm="codel"),)),)
    many = tuple(TcpFlow(max_window_pkts=500, reverse_delay_ms=20.0 + k) for k in range(16))
    return [("codel0", Scenario(links=links, flows=flows, sources=(ef,), duration_s=3.0,
                                warmup_s=0.2, queue_delay_hist=True), 71),
            ("codel1", Scenario(links=one, flows=many, duration_s=4.0, warmup_s=1.5,
                                tie_break="index", queue_delay_hist=True), 72)]


def _aqm_two_hops(first: QueueClass, second: QueueClass) -> tuple[Link, Link]:
    """The AQM cases' two hops: a priority link, an EF drop-tail class over `first`, into a
    3 Mb/s WRR link, a weighted drop-tail class beside `second`."""
    return (Link(rate_bps=10e6, prop_delay_ms=3.0,
                 classes=(QueueClass("ef", limit_pkts=40), first)),
            Link(rate_bps=3e6, prop_delay_ms=2.0, scheduler="wrr",
                 classes=(QueueClass("a", limit_pkts=30, weight=2), second)))


def _aqm_hop_flows() -> tuple[TcpFlow, ...]:
    """8 flows in the AQM class, every other one over both hops."""
    return tuple(TcpFlow(route=(0, 1) if k % 2 else (0,), cls="be", max_window_pkts=200,
                         reverse_delay_ms=5.0 + 2 * k) for k in range(8))


def _mixed_16_flows() -> tuple[TcpFlow, ...]:
    """16 flows mixing NewReno, SACK and CUBIC senders, round trips 20..35 ms."""
    return tuple(TcpFlow(max_window_pkts=500, reverse_delay_ms=20.0 + k,
                         variant="sack" if k % 3 == 1 else "newreno",
                         congestion_control="cubic" if k % 3 == 2 else "newreno")
                 for k in range(16))


def _pie() -> list[tuple[str, Scenario, int]]:
    """PIE (issue 52): a two-class priority link (an EF source's drop-tail class over a PIE
    class with a short burst allowance and update, so that it drops within the run) into a
    second PIE hop under WRR in byte mode (a byte limit) with derandomisation; and one PIE link
    of 16 NewReno, SACK and CUBIC flows under the index order with ns-3's defaults."""
    ef = OnOffSource(name="ef", pkt_bytes=200, peak_bps=2e6, t_on_ms=20.0, t_off_ms=30.0,
                     route=(0,), cls="ef")
    pie = QueueClass("be", limit_pkts=400, aqm="pie", pie_qdelay_ref_ms=2.0,
                     pie_t_update_ms=5.0, pie_max_burst_ms=20.0)
    links = _aqm_two_hops(pie, QueueClass("be", limit_bytes=200_000, aqm="pie",
                                          pie_derandomize=True, pie_qdelay_ref_ms=1.0,
                                          pie_t_update_ms=3.0, pie_max_burst_ms=0.0,
                                          pie_mean_pkt_bytes=1040))
    flows = _aqm_hop_flows()
    one = (Link(rate_bps=20e6, prop_delay_ms=10.0,
                classes=(QueueClass("be", limit_pkts=1000, aqm="pie"),)),)
    many = _mixed_16_flows()
    return [("pie0", Scenario(links=links, flows=flows, sources=(ef,), duration_s=3.0,
                              warmup_s=0.2, queue_delay_hist=True), 73),
            ("pie1", Scenario(links=one, flows=many, duration_s=4.0, warmup_s=1.5,
                              tie_break="index"), 74)]


def _fq_codel() -> list[tuple[str, Scenario, int]]:
    """FQ-CoDel (issue 52): a two-class priority link (an EF source's drop-tail class over an
    FQ-CoDel class with 4 buckets, so that senders collide, short CoDel times and a buffer
    small enough for FqCoDelDrop) carrying an on-off source in the FQ-CoDel class too, into a
    second FQ-CoDel hop under WRR with a small quantum; and one FQ-CoDel link of 16 NewReno,
    SACK and CUBIC flows under the index order with ns-3's defaults and a 60-packet buffer."""
    ef = OnOffSource(name="ef", pkt_bytes=200, peak_bps=2e6, t_on_ms=20.0, t_off_ms=30.0,
                     route=(0,), cls="ef")
    udp = OnOffSource(name="udp", pkt_bytes=700, peak_bps=4e6, t_on_ms=50.0, t_off_ms=50.0,
                      route=(0, 1), cls="be")
    fq = QueueClass("be", limit_pkts=25, aqm="fq_codel", codel_target_ms=2.0,
                    codel_interval_ms=20.0, fq_flows=4)
    links = _aqm_two_hops(fq, QueueClass("be", limit_pkts=100, aqm="fq_codel", fq_flows=4,
                                         fq_quantum_bytes=300, codel_target_ms=1.0,
                                         codel_interval_ms=10.0))
    flows = _aqm_hop_flows()
    one = (Link(rate_bps=20e6, prop_delay_ms=10.0,
                classes=(QueueClass("be", limit_pkts=60, aqm="fq_codel"),)),)
    many = _mixed_16_flows()
    return [("fqcodel0", Scenario(links=links, flows=flows, sources=(ef, udp), duration_s=3.0,
                                  warmup_s=0.2, queue_delay_hist=True), 75),
            ("fqcodel1", Scenario(links=one, flows=many, duration_s=4.0, warmup_s=1.5,
                                  tie_break="index"), 76)]


def without_hooks(sc: Scenario) -> Scenario:
    """The scenario without its validation hooks (a link's Bernoulli loss, a flow's injected
    drops)."""
    links = tuple(dataclasses.replace(l, loss_prob=0.0) for l in sc.links)
    flows = tuple(dataclasses.replace(f, drop_seqs=()) for f in sc.flows)
    return dataclasses.replace(sc, links=links, flows=flows)


def hook_free_cases() -> list[tuple[str, Scenario, int]]:
    """The golden and schedule-only cases that use a validation hook, without it. The slim CUDA
    kernel has no code for the hooks (a rare model, f_hooks), so the multi-hop and injected-drop
    families run on the full one; without their hooks, their other paths (multi-hop routes,
    delayed ACKs, timeouts and recovery after the queue's own drops, connection set-up) reach
    the slim kernel's tests too (tests/test_slim.py, tests/test_gpu.py)."""
    return [(f"{name}-nohooks", without_hooks(sc), seed)
            for name, sc, seed in golden_cases() + schedule_only_cases()
            if any(l.loss_prob > 0 for l in sc.links) or any(f.drop_seqs for f in sc.flows)]


def _ecn() -> list[tuple[str, Scenario, int]]:
    """ECN (RFC 3168, model/tcp_ecn.h; issue 52): ECN and non-ECN NewReno, SACK and CUBIC
    flows with and without delayed ACKs through a marking RED hop into a marking CoDel hop and
    a marking PIE class beside a drop-tail EF class, with an EF source (non-ECT: dropped); and
    DCTCP flows over a step-marking RED (w_q 1, min = max = K, forced drops marked) with
    delayed ACKs on some (RFC 8257 3.2's immediate ACK on a CE change) and Poisson transfers of
    ECN flows (a reused slot's sender state restarts)."""
    from diffsweep.scenario.builders import dumbbell
    ef = OnOffSource(name="ef", pkt_bytes=200, peak_bps=2e6, t_on_ms=20.0, t_off_ms=30.0,
                     route=(0,), cls="ef")
    red = QueueClass("be", limit_pkts=60, aqm="red", red=(RedThresholds(3.0, 12.0, 0.1),),
                     red_w_q=0.02, red_gentle=True, ecn=True)
    links = (Link(rate_bps=10e6, prop_delay_ms=3.0,
                  classes=(QueueClass("ef", limit_pkts=40), red)),
             Link(rate_bps=6e6, prop_delay_ms=2.0,
                  classes=(QueueClass("ef", limit_pkts=40),
                           QueueClass("be", limit_pkts=80, aqm="codel", ecn=True))),
             Link(rate_bps=4e6, prop_delay_ms=2.0,
                  classes=(QueueClass("ef", limit_pkts=40),
                           QueueClass("be", limit_pkts=80, aqm="pie", ecn=True,
                                      pie_t_update_ms=5.0, pie_max_burst_ms=10.0,
                                      pie_qdelay_ref_ms=3.0))))
    flows = tuple(TcpFlow(route=((0,), (0, 1), (0, 2))[k % 3], cls="be", max_window_pkts=200,
                          reverse_delay_ms=5.0 + 2 * k, ecn=k % 4 != 3,
                          variant="sack" if k % 3 == 1 else "newreno", delayed_ack=k % 5 == 2,
                          congestion_control="cubic" if k % 3 == 2 else "newreno")
                  for k in range(10))
    web = TcpFlow(route=(0, 1), cls="be", reverse_delay_ms=7.0, ecn=True, max_window_pkts=30)
    traffic = (Traffic(name="web", flow=web, mean_interarrival_s=0.05,
                       size_set_pkts=(2, 10, 40), pool=16),)
    step = dumbbell(n_flows=6, aqm="step", step_k_pkts=8, congestion_control="dctcp",
                    delayed_ack=[True, False, False, True, False, False], rtt_ms=30.0,
                    buffer_pkts=60, max_window_pkts=300, duration_s=4.0, warmup_s=0.5,
                    start_spread_s=0.5, tie_break="index", tcp="sack")
    return [("ecn0", Scenario(links=links, flows=flows, sources=(ef,), traffic=traffic,
                              duration_s=3.0, warmup_s=0.2), 91),
            ("dctcp0", step, 92)]


def _device_queue() -> list[tuple[str, Scenario, int]]:
    """Device queues (Link.device_queue_pkts; docs/model.md, "Device queue"): a marking RED
    link with a one-packet device queue into a CoDel link with three (a multi-hop route: the
    first hop's flows join the second's), and one FQ-CoDel link with two, 16 NewReno, SACK and
    CUBIC flows, a small buffer (FqCoDelDrop never takes a device queue's packet), the
    queueing-delay histogram on; and a drop-tail and a PIE link with one, PIE in byte mode."""
    red = QueueClass("be", limit_pkts=30, aqm="red", red=(RedThresholds(3.0, 12.0, 0.1),),
                     red_w_q=0.02, ecn=True)
    codel = QueueClass("be", limit_pkts=60, aqm="codel", codel_target_ms=1.0,
                       codel_interval_ms=20.0)
    two = (Link(rate_bps=10e6, prop_delay_ms=3.0, classes=(red,), device_queue_pkts=1),
           Link(rate_bps=4e6, prop_delay_ms=2.0, classes=(codel,), device_queue_pkts=3))
    flows = tuple(TcpFlow(route=(0, 1) if k % 2 else (0,), cls="be", max_window_pkts=200,
                          reverse_delay_ms=5.0 + 2 * k, ecn=k % 3 != 0,
                          variant="sack" if k % 4 == 1 else "newreno")
                  for k in range(8))
    fq = (Link(rate_bps=20e6, prop_delay_ms=10.0, device_queue_pkts=2,
               classes=(QueueClass("be", limit_pkts=40, aqm="fq_codel", fq_flows=6),)),)
    tail_pie = (Link(rate_bps=10e6, prop_delay_ms=3.0, device_queue_pkts=1,
                     classes=(QueueClass("be", limit_pkts=15),)),
                Link(rate_bps=5e6, prop_delay_ms=2.0, device_queue_pkts=1,
                     classes=(QueueClass("be", limit_bytes=40_000, aqm="pie",
                                         pie_t_update_ms=5.0, pie_max_burst_ms=10.0,
                                         pie_qdelay_ref_ms=3.0),)))
    return [("devq0", Scenario(links=two, flows=flows, duration_s=3.0, warmup_s=0.2,
                               queue_delay_hist=True), 93),
            ("devq1", Scenario(links=fq, flows=_mixed_16_flows(), duration_s=3.0, warmup_s=0.5,
                               queue_delay_hist=True), 94),
            ("devq2", Scenario(links=tail_pie, flows=flows[:6], duration_s=3.0, warmup_s=0.2),
             95)]
