"""Short-lived traffic in the engine (issue 12): transfers arriving over time on a pool of flow
slots. Poisson arrivals (count and Kolmogorov-Smirnov), slow-start completion times by hand,
processor sharing at load 0.5, memory set by the pool, a pool that runs dry, sessions,
determinism, bad input named."""
from __future__ import annotations

import math

import numpy as np
import pytest

from diffsweep.engine.compiled import state_bytes
from diffsweep.engine.execution import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.engine.pack import pack
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow, Traffic

PKT = 1000


def fat_path(rate_bps=100e6, prop_ms=4.0, buffer_pkts=10000):
    return Link(rate_bps=rate_bps, prop_delay_ms=prop_ms,
                classes=(QueueClass("q", limit_pkts=buffer_pkts),))


def template(**kw):
    base = dict(cls="q", segment_bytes=PKT, header_bytes=0, max_window_pkts=1000,
                access_delay_ms=0.8, egress_delay_ms=0.8, reverse_delay_ms=5.6,
                access_rate_bps=100e6)
    base.update(kw)
    return TcpFlow(**base)


def test_poisson_arrivals_count_and_exponential_gaps():
    """Over 200 s at 40 arrivals/s the number started is within 3 sigma of 8,000 and the gaps
    between arrivals pass a Kolmogorov-Smirnov test against the exponential (5% level)."""
    tr = Traffic(name="web", flow=template(), mean_interarrival_s=0.025, size_set_pkts=(1,),
                 pool=64)
    sc = Scenario(links=(fat_path(),), traffic=(tr,), duration_s=200.0)
    res = simulate([sc], [11], backend="cpu")
    n = int(res.traffic.started.iloc[0])
    assert res.traffic.refused.iloc[0] == 0
    assert abs(n - 8000) < 3 * math.sqrt(8000)
    starts = np.sort(res.transfers.start_s.to_numpy())
    assert len(starts) == n
    gaps = np.diff(starts)
    x = np.sort(gaps)
    cdf = 1.0 - np.exp(-x / 0.025)
    k = np.arange(1, len(x) + 1)
    d = max(np.max(k / len(x) - cdf), np.max(cdf - (k - 1) / len(x)))
    assert d < 1.36 / math.sqrt(len(x)), d


@pytest.mark.parametrize("n, rounds", [(1, 1), (10, 3), (90, 6)])
def test_single_transfer_completes_in_the_slow_start_time(n, rounds):
    """A transfer of n packets alone on a fat path (100 Mb/s, 11.2 ms of propagation round
    trip): initial window 2, the window doubles every round trip (2, 4, 8, ... packets), so n
    packets take `rounds` rounds; it completes (rounds - 1) round trips plus one way after it
    starts, plus the transmission of the last round's packets: checked within 3 slots per
    round. One session, one transfer at a time, so each is alone on the path."""
    tr = Traffic(name="one", flow=template(), kind="sessions", think_s=0.5, pool=1,
                 size_set_pkts=(n,))
    sc = Scenario(links=(fat_path(),), traffic=(tr,), duration_s=5.0)
    t = simulate([sc], [3], backend="cpu").transfers.dropna()
    assert len(t) >= 3 and (t.drops == 0).all()
    tx = PKT * 8 / 100e6                      # 80 us per packet on every link
    one_way = (0.8 + 4.0 + 0.8) / 1e3 + 2 * tx  # access, bottleneck, egress; two transmissions
    rtt = (0.8 + 4.0 + 0.8 + 5.6) / 1e3 + 2 * tx
    last_round = n - (2 ** rounds - 2)  # the first rounds - 1 rounds send 2 + 4 + ... packets
    expect = (rounds - 1) * rtt + one_way + (last_round - 1) * tx
    assert np.allclose(t.completion_s, expect, atol=3 * rounds * tx), (t.completion_s.tolist(),
                                                                       expect)


def test_tcp_transfers_share_a_link_like_processor_sharing():
    """M/G/1-PS: exponential sizes (mean 20 packets), Poisson arrivals at load 0.5 on a
    10 Mb/s link with a negligible round trip and no loss; windows of 4 packets interleave the
    transfers at the FIFO as round robin does. Mean completion time per size class follows
    x / (C (1 - rho)) within 15% for transfers of 10 packets and more, and over all
    transfers."""
    rho, mean, c = 0.5, 20.0, 10e6
    flow = TcpFlow(cls="q", segment_bytes=PKT, header_bytes=0, max_window_pkts=4,
                   init_window_pkts=2, reverse_delay_ms=0.08, access_rate_bps=1e9)
    tr = Traffic(name="ps", flow=flow, mean_interarrival_s=mean * PKT * 8 / (rho * c),
                 size_dist="exponential", size_mean_pkts=mean, pool=512, t_stop_s=300.0)
    sc = Scenario(links=(Link(rate_bps=c, classes=(QueueClass("q", limit_pkts=100000),)),),
                  traffic=(tr,), duration_s=330.0, slot_s=PKT * 8 / c / 10)
    res = simulate([sc], [1], backend="cpu")
    t = res.transfers
    assert t.completion_s.notna().all() and (t.drops == 0).all()
    pred = t.size_pkts * PKT * 8 / (c * (1 - rho))
    assert t.completion_s.mean() == pytest.approx(pred.mean(), rel=0.15)
    for lo, hi in [(10, 20), (20, 40), (40, 80), (80, 10**6)]:
        sel = (t.size_pkts >= lo) & (t.size_pkts < hi)
        assert sel.sum() > 100
        assert t.completion_s[sel].mean() == pytest.approx(pred[sel].mean(), rel=0.15), (lo, hi)


def test_memory_is_set_by_the_pool_not_by_the_transfers():
    """50,000 one-packet transfers (500 per second for 100 s) with a pool of 200 slots: the
    replica's engine state is the same as for 5,000 transfers, and the pool never ran dry
    (the most alive at once is far below 200)."""
    def sc(t_stop):
        tr = Traffic(name="many", flow=template(), mean_interarrival_s=0.002, size_set_pkts=(1, 2),
                     pool=200, t_stop_s=t_stop)
        return Scenario(links=(fat_path(),), traffic=(tr,), duration_s=101.0)
    big, small = sc(100.0), sc(10.0)
    assert state_bytes(pack([big], [1]).shape) == state_bytes(pack([small], [1]).shape)
    res = simulate([big], [2], backend="cpu")
    tf = res.traffic.iloc[0]
    assert 49_000 < tf.started < 51_000 and tf.refused == 0 and tf.unfinished == 0
    assert tf.peak_active < 50
    assert len(res.transfers) == tf.started and res.transfers.completion_s.notna().all()


def test_a_pool_that_runs_dry_is_reported():
    """A pool of 2 slots for arrivals that need more: refused arrivals are counted, every
    arrival is either started or refused, and nothing is silently lost."""
    tr = Traffic(name="tight", flow=template(), mean_interarrival_s=0.002, size_set_pkts=(90,),
                 pool=2, t_stop_s=2.0)
    sc = Scenario(links=(fat_path(rate_bps=10e6),), traffic=(tr,), duration_s=3.0)
    tf = simulate([sc], [5], backend="cpu").traffic.iloc[0]
    assert tf.refused > 0 and tf.peak_active == 2
    assert abs(tf.started + tf.refused - 1000) < 4 * math.sqrt(1000)


def test_sessions_run_back_to_back_with_think_times():
    """Sessions: each pool slot runs one transfer at a time, the next an exponential think time
    after the last one was received: transfers never overlap within a session, and the number
    per session over T seconds is about T / (think + completion)."""
    tr = Traffic(name="s", flow=template(), kind="sessions", think_s=0.2, pool=3,
                 size_set_pkts=(5,))
    sc = Scenario(links=(fat_path(),), traffic=(tr,), duration_s=60.0)
    res = simulate([sc], [8], backend="cpu")
    t = res.transfers.dropna()
    per = 60.0 / (0.2 + t.completion_s.mean())
    assert len(t) == pytest.approx(3 * per, rel=0.15)
    assert res.traffic.peak_active.iloc[0] <= 3
    assert sorted(t.slot.unique()) == [0, 1, 2]  # the slot is the session
    for _, s in t.groupby("slot"):
        s = s.sort_values("start_s")
        assert (s.start_s.to_numpy()[1:] > s.end_s.to_numpy()[:-1]).all()  # back to back


def test_same_seed_same_transfers_whatever_the_batch():
    """A replica's transfer records depend on its seed only: alone, or in a batch with other
    scenarios, or with another team size."""
    tr = Traffic(name="web", flow=template(max_window_pkts=20), mean_interarrival_s=0.01,
                 size_set_pkts=(1, 3, 10, 40), pool=32)
    sc = Scenario(links=(fat_path(rate_bps=10e6, buffer_pkts=30),), traffic=(tr,),
                  duration_s=8.0)
    other = Scenario(links=(fat_path(),), flows=(template(),), duration_s=8.0)
    alone = simulate([sc], [9], backend="cpu").transfers
    mixed = simulate([other, sc, other], [1, 9, 2], backend="cpu", lanes=4).transfers
    mixed = mixed[mixed.replica == 1].drop(columns="replica").reset_index(drop=True)
    alone = alone.drop(columns="replica").reset_index(drop=True)
    assert alone["drops"].sum() > 0  # a congested case
    assert alone.equals(mixed)


@pytest.mark.parametrize("kw, where, says", [
    (dict(size_set_pkts=()), "traffic[0].size_set_pkts", "1..32 transfer sizes"),
    (dict(size_set_pkts=(1, 0)), "traffic[0].size_set_pkts[1]", "1.."),
    (dict(pool=0), "traffic[0].pool", "1..60000"),
    (dict(mean_interarrival_s=-1.0), "traffic[0].mean_interarrival_s", "> 0"),
    (dict(mean_interarrival_s=None), "traffic[0].mean_interarrival_s", "kind 'poisson'"),
    (dict(t_stop_s=20.0), "traffic[0].t_stop_s", "<= duration_s"),
    (dict(kind="http"), "traffic[0].kind", "'poisson'"),
    (dict(size_dist="pareto", size_min_pkts=5.0, size_max_pkts=2.0), "traffic[0].size_max_pkts",
     "> size_min_pkts"),
    (dict(flow=dict(cls="nope")), "traffic[0].flow.cls", "a class of every link"),
])
def test_bad_traffic_is_named(kw, where, says):
    base = dict(name="w", flow=template(), mean_interarrival_s=0.1, size_set_pkts=(1, 2))
    base.update(kw)
    with pytest.raises(ConfigError) as e:
        Scenario(links=(fat_path(),), traffic=(base,), duration_s=10.0)
    assert str(e.value).startswith(where), str(e.value)
    assert says in str(e.value), str(e.value)


def test_telnet_like_flows_send_what_their_application_writes():
    """A telnet-like flow (ns-2 Application/Telnet, exponential intervals) sends one small
    segment per application write: over 100 s at a mean interval of 0.1 s, about 1,000
    segments (Poisson: within 4 sigma), each acknowledged within a round trip on an idle
    path; it never 'finishes'."""
    link = Link(rate_bps=1e6, prop_delay_ms=5.0, classes=(QueueClass("q", limit_pkts=100),))
    flows = tuple(TcpFlow(cls="q", segment_bytes=40, header_bytes=40, telnet_interval_s=0.1,
                          reverse_delay_ms=5.0) for _ in range(4))
    f = simulate([Scenario(links=(link,), flows=flows, duration_s=100.0)], [1],
                 backend="cpu").flows
    assert (abs(f.pkts_sent - 1000) < 4 * math.sqrt(1000)).all()
    assert ((f.pkts_sent - f.delivered_bytes / 40) <= 3).all()  # all but the last few delivered
    assert (f.rtt_mean_s < 0.0125).all() and f.finish_s.isna().all()
    # On an idle path each segment's delay from its write to its delivery is one way: the
    # two transmissions of 40 B at 1 Mb/s (access link, link) and 5 ms, to slot rounding.
    assert ((f.app_delay_mean_s > 0.005) & (f.app_delay_mean_s < 0.0075)).all()
    assert (abs(f.app_segments - f.pkts_sent) <= 3).all()


def test_telnet_session_of_n_segments_ends():
    """A telnet-like flow with size_pkts is a session (Habib et al.'s telnet sessions): it
    writes that many segments and finishes when the last is acknowledged; its segments'
    delays add up to the session's delay."""
    link = Link(rate_bps=1e6, prop_delay_ms=5.0, classes=(QueueClass("q", limit_pkts=100),))
    flows = tuple(TcpFlow(cls="q", segment_bytes=40, header_bytes=40, telnet_interval_s=0.0,
                          size_pkts=n, reverse_delay_ms=5.0) for n in (3, 12))
    f = simulate([Scenario(links=(link,), flows=flows, duration_s=400.0)], [2],
                 backend="cpu").flows
    assert list(f.pkts_sent) == [3, 12] and list(f.app_segments) == [3, 12]
    assert f.finish_s.notna().all()
    assert (abs(f.app_delay_sum_s - f.app_delay_mean_s * f.app_segments) < 1e-9).all()


def test_web_sessions_request_every_object_of_every_page():
    """ns-2's WebTraf model: 20 sessions x 5 pages x 3 objects on a fat pipe with a large
    pool: all 300 objects are requested and completed, each page's objects start within a few
    inter-object gaps of each other, and sizes follow ParetoII (median ceil(scale (2^(1/a) - 1)),
    scale = mean (a - 1))."""
    tr = Traffic(name="www", flow=template(max_window_pkts=20), kind="web", sessions=20,
                 pages_per_session=5, objects_per_page=3, inter_page_s=1.0,
                 inter_object_s=0.01, size_dist="paretoII", size_mean_pkts=10.0,
                 size_alpha=1.2, pool=300)
    res = simulate([Scenario(links=(fat_path(),), traffic=(tr,), duration_s=60.0)], [4],
                   backend="cpu")
    tf = res.traffic.iloc[0]
    assert tf.started == 300 and tf.completed == 300 and tf.refused == 0
    assert res.transfers.size_pkts.median() == math.ceil(10 * 0.2 * (2 ** (1 / 1.2) - 1))


def test_interval_fairness_per_group_by_hand():
    """metrics.interval_fairness: Jain per (replica, interval, group); the interval goodputs
    of a run add up to its whole-run goodput."""
    import pandas as pd  # noqa: PLC0415

    from diffsweep.analysis.metrics import interval_fairness  # noqa: PLC0415
    iv = pd.DataFrame({"replica": [0] * 6, "flow": [0, 1, 2, 0, 1, 2], "interval": [0, 0, 0, 1, 1, 1],
                       "t_start_s": [0.0] * 3 + [20.0] * 3,
                       "goodput_bps": [1.0, 3.0, 5.0, 2.0, 2.0, 8.0]})
    j = interval_fairness(iv, groups={0: "short", 1: "short", 2: "long"})
    short0 = j[(j.interval == 0) & (j.group == "short")].iloc[0]
    assert short0.jain_index == pytest.approx(16 / (2 * 10)) and short0.n_flows == 2
    assert short0.goodput_bps == 4.0
    assert j[(j.interval == 1) & (j.group == "short")].jain_index.iloc[0] == pytest.approx(1.0)
    assert len(interval_fairness(iv)) == 2
    # a real run: the intervals' goodputs average to the whole run's
    link = Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(QueueClass("q", limit_pkts=50),))
    flows = tuple(template(max_window_pkts=20, reverse_delay_ms=5.0 + 10 * k) for k in range(3))
    res = simulate([Scenario(links=(link,), flows=flows, duration_s=20.0, interval_s=5.0)], [1],
                   backend="cpu")
    per_flow = res.intervals.groupby("flow").goodput_bps.mean()
    assert np.allclose(per_flow.to_numpy(), res.flows.goodput_bps.to_numpy(), rtol=1e-12)
    assert len(interval_fairness(res.intervals)) == 4


def test_show_summarises_transfers_of_a_traffic_only_sweep(tmp_path, capsys):
    """`diffsweep show` on a sweep of short-lived traffic only (no fixed flows) summarises the
    transfers' completion time per point, not a goodput that is always 0; --table transfers
    is accepted."""
    from diffsweep.cli import app as cli  # noqa: PLC0415
    p = tmp_path / "s.toml"
    p.write_text('name = "web"\nbuilder = "rossi"\nseeds = 1\n[fixed]\nt_stop_s = 4.0\n'
                 't_halt_s = 6.0\npool = 64\n[axes]\nrho = [0.3, 0.6]\n')
    assert cli.main(["run", str(p), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["show", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "completion_s: mean over seeds" in out
    assert cli.main(["show", str(tmp_path / "out"), "--table", "transfers", "--metric",
                     "drops"]) == 0
    assert "drops: mean over seeds" in capsys.readouterr().out


def test_telnet_flows_beside_transfers():
    """Telnet-like flows and short-lived transfers in one replica: each keeps to its own
    application (the transfers' slots have no application writes), every transfer completes."""
    link = Link(rate_bps=10e6, prop_delay_ms=2.0, classes=(QueueClass("q", limit_pkts=100),))
    telnet = tuple(TcpFlow(cls="q", segment_bytes=40, header_bytes=40, telnet_interval_s=0.05,
                           reverse_delay_ms=4.0) for _ in range(3))
    tr = Traffic(name="web", flow=template(max_window_pkts=20), mean_interarrival_s=0.05,
                 size_set_pkts=(3, 10), pool=16, t_stop_s=8.0)
    res = simulate([Scenario(links=(link,), flows=telnet, traffic=(tr,), duration_s=10.0)], [2],
                   backend="cpu")
    t = res.transfers
    assert len(t) > 100 and t.completion_s.notna().all()
    assert (t.pkts_sent >= t.size_pkts).all() and (t.pkts_sent <= 2 * t.size_pkts + 3).all()
    assert (abs(res.flows.pkts_sent - 200) < 5 * math.sqrt(200)).all()


def test_tcplib_telnet_flows_send_at_tcplib_rate():
    """telnet_interval_s = 0 is ns-2's Application/Telnet with interval_ 0: gaps from tcplib's
    telnet distribution (mean 1.0995 s in diffsweep's summary of ns-2's table). 32 flows over
    1,000 s send about 32,000 / 1.0995 segments in all (the heavy tail makes one flow's count
    noisy; the total is within 10%), each flow at least a few."""
    link = Link(rate_bps=1e6, prop_delay_ms=5.0, classes=(QueueClass("q", limit_pkts=100),))
    flows = tuple(TcpFlow(cls="q", segment_bytes=40, header_bytes=40, telnet_interval_s=0.0,
                          reverse_delay_ms=5.0) for _ in range(32))
    f = simulate([Scenario(links=(link,), flows=flows, duration_s=1000.0)], [3],
                 backend="cpu").flows
    expected = 32 * 1000.0 / 1.0995
    assert abs(f.pkts_sent.sum() - expected) < 0.10 * expected
    assert (f.pkts_sent > 10).all() and f.finish_s.isna().all()
    with pytest.raises(ConfigError, match=r"TcpFlow\.telnet_interval_s"):
        TcpFlow(cls="q", telnet_interval_s=-1.0)


def test_sessions_first_start_spread_uniformly():
    """Traffic(first_start_s=T): each session's first transfer starts at a uniform time in
    [0, T) (Matta & Guo: sessions start in the first 5 s); without it, after a think time."""
    tr = Traffic(name="s", flow=template(), kind="sessions", pool=200, think_s=0.001,
                 first_start_s=5.0, size_set_pkts=(1,))
    sc = Scenario(links=(fat_path(),), traffic=(tr,), duration_s=6.0)
    t = simulate([sc], [4], backend="cpu").transfers
    first = t.groupby("slot")["start_s"].min()
    assert len(first) == 200 and first.max() < 5.0
    # uniform on [0, 5): KS distance to the uniform CDF
    x = np.sort(first.to_numpy()) / 5.0
    d = np.max(np.abs(x - (np.arange(1, 201) - 0.5) / 200))
    assert d < 1.63 / math.sqrt(200)  # 1% level
    with pytest.raises(ConfigError, match=r"Traffic\.first_start_s: .*'sessions'"):
        Traffic(name="p", flow=template(), kind="poisson", mean_interarrival_s=1.0,
                first_start_s=5.0, size_set_pkts=(1,))


def test_no_transfer_completes_before_its_own_packets_could_arrive():
    """A reused pool slot's receiver switches to a new transfer at that transfer's first
    packet; late copies of the slot's last transfer (go-back-N duplicates still in the
    network) must not complete the new one. With back-to-back sessions of one size (think
    0.001 s, as Matta & Guo's), that bug completed 20-packet transfers in 10 ms. Invariant over
    every record: it ends after it starts, its first packet arrives between the two, and it
    takes at least its packets' transmission time on the bottleneck plus the one-way delay."""
    link = Link(rate_bps=10e6, prop_delay_ms=10.0, loss_prob=0.05,
                classes=(QueueClass("q", limit_pkts=20),))
    web = TcpFlow(cls="q", segment_bytes=960, header_bytes=40, max_window_pkts=64,
                  access_delay_ms=1.0, egress_delay_ms=1.0, reverse_delay_ms=10.0,
                  access_rate_bps=100e6)
    sc = Scenario(links=(link,), flows=(), duration_s=60.0, warmup_s=0.0,
                  traffic=(Traffic(name="s", flow=web, kind="sessions", think_s=0.001, pool=6,
                                   size_set_pkts=(20,)),))
    t = simulate([sc] * 4, [0, 1, 2, 3], backend="cpu").transfers
    done = t[t.end_s >= 0]
    assert len(done) > 500
    assert (done.end_s >= done.start_s).all()
    assert (done.first_s >= done.start_s).all() and (done.first_s <= done.end_s).all()
    least = done.size_pkts * 1000 * 8 / 10e6 + 0.012  # serialisation + access, link, egress
    assert (done.completion_s >= least - 1e-9).all(), done.completion_s.min()


@pytest.mark.parametrize("case", ["traffic0", "traffic1", "tcpaware2"])
def test_peak_active_is_the_most_transfers_alive_in_one_slot(case):
    """gen_peak_active counts a transfer alive from its start slot to the slot its last packet
    is received, at the queue side's own time (not when it is assigned, up to a loop delay
    early): it equals the most overlapping [start, end) intervals of the records."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from engine_cases import golden_cases
    from diffsweep.engine.compiled import run_packed

    _, sc, seed = next(c for c in golden_cases() if c[0] == case)
    out = run_packed(pack([sc], [seed]), "cpu")
    assert out["gen_records_lost"][0].sum() == 0
    n = int(out["n_records"][0])
    gen = out["tr_gen"][0, :n]
    start = np.floor(out["tr_start_slot"][0, :n])
    end = out["tr_end_slot"][0, :n]  # the slot after the last packet's; -1: still running
    end = np.where(end < 0, np.inf, end)
    for g in range(len(sc.traffic)):
        s, e = start[gen == g], end[gen == g]
        # the most alive in one slot: some transfer's start slot t, alive while start <= t < end
        peak = max(int(((s <= t) & (e > t)).sum()) for t in np.unique(s))
        assert out["gen_peak_active"][0, g] == peak, (case, g)
        assert peak > 0
