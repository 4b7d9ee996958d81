"""The engine against hand-computed cases and analytical results (CPU backend, fixed seeds).

Each test is one of the engine issue's "must show" items; the numbers it checks come from
the model's definition (docs/model.md), the paper (Kaur & Vin sec. 3.1.1) or PFTK.
"""
from __future__ import annotations

import numpy as np
import pandas.testing as pd_testing
import pytest

import diffsweep as ds
from diffsweep.engine.execution import simulate
from diffsweep.analysis.metrics import padhye_throughput_pps
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow
from diffsweep.scenario.builders import kaur_vin

C = 40e6  # Kaur & Vin's link rate


def busy_fraction(res, link=0, cls=None):
    q = res.queues[res.queues.link == link]
    if cls is not None:
        q = q[q.cls == cls]
    measured = res.replicas.measured_s.to_numpy()[0]
    return q.bytes_departed.sum() * 8 / (q.rate_bps.iloc[0] * measured)


# 1 ---------------------------------------------------------------------------------------
def test_lone_reno_keeps_bdp_bottleneck_busy():
    sc = kaur_vin(n_flows=1, rtp_ms=8.0, ef=None, duration_s=60.0, warmup_s=5.0)
    res = simulate([sc], [1], backend="cpu")
    assert busy_fraction(res) >= 0.97


def test_lone_reno_takes_what_cbr_ef_leaves():
    sc = kaur_vin(n_flows=1, rtp_ms=8.0, ef="cbr", ef_fraction=0.3, duration_s=60.0, warmup_s=5.0)
    res = simulate([sc], [1], backend="cpu")
    tcp = busy_fraction(res, cls="be")
    ef = busy_fraction(res, cls="ef")
    assert ef == pytest.approx(0.3, abs=0.002)  # CBR: the rate is exact up to one packet
    assert tcp >= 0.95 * 0.70


# 2 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("p", [0.001, 0.003, 0.01, 0.03])
def test_bernoulli_loss_matches_padhye(p):
    """PFTK full model with the flow's own RTT, RTO and loss rate (b = 1: no delayed ACK)."""
    link = Link(rate_bps=100e6, prop_delay_ms=20.0, classes=(QueueClass("be", limit_pkts=5000),),
                loss_prob=p)
    sc = Scenario(links=(link,), flows=(TcpFlow(reverse_delay_ms=30.0),), duration_s=200.0,
                  warmup_s=10.0)
    f = simulate([sc], [7], backend="cpu").flows.iloc[0]
    assert f.drops / f.pkts_sent == pytest.approx(p, rel=0.15)
    predicted = float(padhye_throughput_pps(p, f.rtt_mean_s, f.rto_mean_s, b=1, w_max=1000))
    observed = f.pkts_sent / 190.0
    assert observed == pytest.approx(predicted, rel=0.25)


# 3 ---------------------------------------------------------------------------------------
def kaur_rule(w: int, d: int) -> bool:
    """Kaur & Vin sec. 3.1.1 (after Fall & Floyd): Reno times out iff this holds."""
    return d >= 3 or (w < 10 and d >= 2) or (w < 4 and d >= 1)


def lone_with_drops(w: int, d: int, variant: str) -> Scenario:
    """Congestion window pinned at W (initial window = ssthresh = W, congestion avoidance,
    receiver window large) and the first d segments of the second window lost."""
    link = Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(QueueClass("be", limit_pkts=1000),))
    fl = TcpFlow(variant=variant, max_window_pkts=1000, init_window_pkts=w,
                 init_ssthresh_pkts=max(2, w), reverse_delay_ms=10.0,
                 drop_seqs=tuple(range(w, w + d)))
    return Scenario(links=(link,), flows=(fl,), duration_s=10.0)


CASES = [(w, d) for w in (3, 4, 5, 8, 9, 10, 12, 20, 40) for d in (1, 2, 3)]


def test_reno_timeouts_follow_kaur_rule():
    res = simulate([lone_with_drops(w, d, "reno") for w, d in CASES], [1] * len(CASES), backend="cpu")
    got = {(w, d): int(t) for (w, d), t in zip(CASES, res.flows.timeouts)}
    expected = {(w, d): int(kaur_rule(w, d)) for w, d in CASES}
    assert got == expected
    # Where Reno survives two drops it does so with two fast retransmits (two halvings).
    fr = dict(zip(CASES, res.flows.fast_retransmits))
    assert fr[(20, 2)] == 2 and fr[(40, 2)] == 2


def test_newreno_recovers_where_reno_times_out():
    """RFC 6582: once three dupacks start recovery, partial ACKs retransmit each hole without
    a timeout; with fewer than three dupacks (W - d < 3) a timeout remains."""
    res = simulate([lone_with_drops(w, d, "newreno") for w, d in CASES], [1] * len(CASES),
                   backend="cpu")
    got = {(w, d): int(t) for (w, d), t in zip(CASES, res.flows.timeouts)}
    expected = {(w, d): int(w - d < 3) for w, d in CASES}
    assert got == expected
    assert got[(20, 3)] == 0 and kaur_rule(20, 3)  # a case where Reno times out


@pytest.mark.parametrize("holes", range(1, 9))
def test_newreno_restarts_the_timer_on_the_first_partial_ack_only(holes):
    """ns-2.35's newreno_changes1_ (default 1): of a recovery's partial ACKs only the first
    restarts the retransmission timer. A window of 40 losing `holes` segments in a row, round
    trip 50 ms (20 ms each way on the link, 30 ms back), RTO at its 0.2-s floor: the hole k
    is retransmitted k - 1 round trips after the first, so the recovery outlasts the timer
    set at the first partial ACK, one round trip in, once (holes - 1) x 50 ms >= 200 ms: from
    5 holes on one timeout. (Restarting the timer at every partial ACK never times out here.)"""
    link = Link(rate_bps=10e6, prop_delay_ms=20.0, classes=(QueueClass("be", limit_pkts=1000),))
    fl = TcpFlow(variant="newreno", max_window_pkts=1000, init_window_pkts=40,
                 init_ssthresh_pkts=40, reverse_delay_ms=30.0,
                 drop_seqs=tuple(range(40, 40 + holes)))
    f = simulate([Scenario(links=(link,), flows=(fl,), duration_s=10.0)], [1],
                 backend="cpu").flows.iloc[0]
    assert (int(f.timeouts), int(f.fast_retransmits)) == (int((holes - 1) * 50 >= 200), 1)


def test_reno_bugfix_forbids_second_fast_retransmit():
    """ns-2's bugFix_ (default on in ns-2.35) turns W >= 10, d = 2 back into a timeout."""
    base = lone_with_drops(20, 2, "reno")
    fixed = Scenario(links=base.links, flows=(base.flows[0].__class__(
        **{**base.flows[0].__dict__, "reno_bugfix": True}),), duration_s=10.0)
    res = simulate([base, fixed], [1, 1], backend="cpu")
    assert list(res.flows.timeouts) == [0, 1]


# 4 ---------------------------------------------------------------------------------------
def test_ef_onoff_duty_cycle_and_priority():
    f, t_on = 0.3, 1.0
    sc = kaur_vin(n_flows=4, rtp_ms=8.0, ef="onoff", ef_fraction=f, t_on_ms=t_on,
                  duration_s=100.0, warmup_s=2.0)
    res = simulate([sc], [3], backend="cpu")
    assert busy_fraction(res, cls="ef") == pytest.approx(f, abs=0.01)
    src = res.sources.iloc[0]
    assert src.mean_on_s == pytest.approx(t_on / 1e3, rel=0.03)
    ef = res.queues[res.queues.cls == "ef"].iloc[0]
    be = res.queues[res.queues.cls == "be"].iloc[0]
    assert ef.drops == 0 and ef.random_drops == 0 and ef.departures > 0
    # EF waits at most for the best-effort packet already on the wire plus EF's own
    # burst spacing, never behind queued best-effort packets (the BE queue is ~10 ms deep).
    slot = res.replicas.slot_s.iloc[0]
    assert ef.max_delay_s <= (576 + 1500) * 8 / C + 2 * slot
    assert be.max_delay_s > 20 * ef.max_delay_s


# 5 ---------------------------------------------------------------------------------------
def test_many_equal_flows_keep_link_busy():
    sc = kaur_vin(n_flows=16, rtp_ms=8.0, ef=None, duration_s=40.0, warmup_s=5.0)
    assert busy_fraction(simulate([sc], [2], backend="cpu")) >= 0.97


def test_short_rtt_flow_gets_more():
    sc = kaur_vin(n_flows=2, rtp_ms=[20.0, 80.0], ef=None, duration_s=100.0, warmup_s=10.0)
    f = simulate([sc], [5], backend="cpu").flows
    short, long_ = f.goodput_bps.iloc[0], f.goodput_bps.iloc[1]
    assert short > 1.2 * long_
    assert short + long_ > 0.9 * C * 536 / 576


# conservation ------------------------------------------------------------------------------
def test_queue_conservation():
    """Every arrival departs, is dropped or is still queued (at most a buffer's worth)."""
    sc = kaur_vin(n_flows=8, ef="onoff", t_on_ms=20.0, udp=True, duration_s=20.0, warmup_s=0.0)
    q = simulate([sc], [4], backend="cpu").queues
    left = q.arrivals - q.departures - q.drops - q.random_drops
    assert (left >= 0).all()
    assert (left <= 200_000 // 576 + 1).all()


# 6 ---------------------------------------------------------------------------------------
def _det_scenario():
    return kaur_vin(n_flows=3, rtp_ms=[10.0, 14.0, 22.0], ef="onoff", t_on_ms=2.0, udp=True,
                    duration_s=3.0, warmup_s=0.5)


def _replica_rows(res, replica):
    return {name: df[df.replica == replica].drop(columns="replica").reset_index(drop=True)
            for name, df in res.tables().items()}


def _same(a, b):
    for name in a:
        pd_testing.assert_frame_equal(a[name], b[name], check_exact=True)


def test_replica_independent_of_batch_order_chunk_threads():
    sc = _det_scenario()
    other = kaur_vin(n_flows=3, rtp_ms=[9.0, 12.0, 30.0], ef="cbr", duration_s=3.0, warmup_s=0.5)
    alone = _replica_rows(simulate([sc], [42], backend="cpu", threads=1), 0)
    # Inside a batch of 1000 (mixed scenarios and seeds), at position 617.
    scs = [sc if i % 2 else other for i in range(1000)]
    seeds = list(range(1000))
    scs[617], seeds[617] = sc, 42
    big = simulate(scs, seeds, backend="cpu", threads=2)
    _same(alone, _replica_rows(big, 617))
    # Another order, another team size (lanes per replica), one thread.
    rev = simulate(scs[::-1][:500], seeds[::-1][:500], backend="cpu", threads=1, lanes=4)
    _same(alone, _replica_rows(rev, 1000 - 1 - 617))
    # Different seeds differ.
    other_seed = _replica_rows(simulate([sc], [43], backend="cpu"), 0)
    assert not alone["flows"].equals(other_seed["flows"])


def test_grid_run_is_deterministic():
    g = ds.Grid(kaur_vin, seeds=2, n_flows=2, rtp_ms=8.0, ef=["onoff"], t_on_ms=[1.0, 10.0],
                duration_s=2.0, warmup_s=0.5)
    a, b = ds.run(g, backend="cpu"), ds.run(g, backend="cpu", threads=1)
    for name in ("replicas", "flows", "queues", "sources"):
        pd_testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)
    assert set(a.flows.columns) >= {"point", "seed", "ef", "t_on_ms", "goodput_bps"}
    # One 576 B packet at 40 Mb/s; RTP 8 ms = 69.44 slots: the rounding error is reported.
    assert a.meta["slot_s"] == [pytest.approx(576 * 8 / 40e6)]
    assert 0 < a.meta["delay_rounding_ms_max"] <= 0.5 * 576 * 8 / 40e6 * 1e3 * 3


# results tables ---------------------------------------------------------------------------
def test_intervals_sum_to_goodput():
    sc = kaur_vin(n_flows=2, ef=None, duration_s=10.0, warmup_s=2.0)
    sc = Scenario(**{**sc.__dict__, "interval_s": 2.0})
    res = simulate([sc], [1], backend="cpu")
    iv = res.intervals
    assert sorted(iv.interval.unique()) == [1, 2, 3, 4]
    per_flow = iv.groupby("flow").goodput_bps.mean()
    assert np.allclose(per_flow.to_numpy(), res.flows.goodput_bps.to_numpy(), rtol=0.02)


def test_backend_errors_are_clear():
    from diffsweep.engine.compiled import resolve_backend
    with pytest.raises(ds.ConfigError, match="backend"):
        resolve_backend("gpu")
    if ds.info()["cuda_devices"] == 0:
        with pytest.raises(ds.BackendError, match="cuda"):
            resolve_backend("cuda")
        assert resolve_backend("auto") == "cpu"


# routes and schedulers -------------------------------------------------------------------
def test_two_hop_route_adds_its_delay_and_serialisation():
    """A 2-link route: the first link's propagation delay is a real delay line; the RTT a
    lone window-limited flow measures is its round-trip propagation plus transmission."""
    links = (Link(rate_bps=10e6, prop_delay_ms=15.0, classes=(QueueClass("be", limit_pkts=100),)),
             Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(QueueClass("be", limit_pkts=100),)))
    fl = TcpFlow(route=(0, 1), max_window_pkts=4, reverse_delay_ms=20.0)
    sc = Scenario(links=links, flows=(fl,), duration_s=20.0, warmup_s=2.0)
    res = simulate([sc], [1], backend="cpu")
    f = res.flows.iloc[0]
    assert sc.flow_rtp_ms(0) == 40.0
    assert f.rtt_mean_s == pytest.approx(0.040, abs=0.003)
    # 4 packets per ~40 ms: window-limited goodput.
    assert f.goodput_bps == pytest.approx(4 * 536 * 8 / f.rtt_mean_s, rel=0.05)
    assert (res.queues.departures > 0).all()


def test_wrr_shares_by_weight():
    classes = (QueueClass("a", limit_pkts=200, weight=3), QueueClass("b", limit_pkts=200, weight=1))
    link = Link(rate_bps=10e6, prop_delay_ms=2.0, classes=classes, scheduler="wrr")
    flows = tuple(TcpFlow(cls=c, reverse_delay_ms=2.0, access_rate_bps=40e6) for c in "aabb")
    sc = Scenario(links=(link,), flows=flows, duration_s=30.0, warmup_s=5.0)
    q = simulate([sc], [1], backend="cpu").queues.set_index("cls")
    assert q.bytes_departed["a"] / q.bytes_departed["b"] == pytest.approx(3.0, rel=0.05)


def test_grid_columns_named_like_engine_columns():
    """n_flows and rtp_ms axes: one column each, no _x/_y suffixes; a per-flow list axis keeps
    the engine's per-flow value under the name and the list as <name>_grid."""
    g = ds.Grid(kaur_vin, seeds=1, n_flows=[1, 2], rtp_ms=[6.0, 10.0], ef=None,
                duration_s=1.0, warmup_s=0.1)
    res = ds.run(g, backend="cpu")
    assert "n_flows" in res.replicas.columns and "n_flows_grid" not in res.replicas.columns
    assert not [c for c in res.flows.columns if c.endswith(("_x", "_y"))]
    assert set(res.flows.rtp_ms) == {6.0, 10.0}
    g2 = ds.Grid(kaur_vin, seeds=1, n_flows=2, rtp_ms=[[8.0, 20.0]], ef=None, duration_s=1.0,
                 warmup_s=0.1)
    f = ds.run(g2, backend="cpu").flows
    assert list(f.rtp_ms) == [8.0, 20.0] and "rtp_ms_grid" in f.columns


# send jitter (ns-2 overhead_) ------------------------------------------------------------
def _stop_and_wait(jitter_s: float) -> Scenario:
    """A one-packet window over a fat, lossless path: every send waits for the previous ACK,
    so each cycle is RTT + the drawn jitter + one transmission time."""
    link = Link(rate_bps=100e6, prop_delay_ms=5.0, classes=(QueueClass("be", limit_pkts=100),))
    fl = TcpFlow(max_window_pkts=1, init_window_pkts=1, reverse_delay_ms=15.0, send_jitter_s=jitter_s)
    return Scenario(links=(link,), flows=(fl,), duration_s=60.0, warmup_s=1.0)


@pytest.mark.parametrize("jitter_ms", [0.0, 2.0, 10.0])
def test_send_jitter_adds_its_mean_to_every_cycle(jitter_ms):
    res = simulate([_stop_and_wait(jitter_ms / 1e3)], [3], backend="cpu")
    f = res.flows.iloc[0]
    slot = res.replicas.slot_s.iloc[0]
    # The RTT is timed from the send, so the wait before it is not in the RTT...
    assert f.rtt_mean_s == pytest.approx(0.020, abs=2 * slot)
    # ...but in every cycle: U(0, J) has mean J/2.
    cycle = f.rtt_mean_s + jitter_ms / 1e3 / 2
    assert f.goodput_bps == pytest.approx(536 * 8 / cycle, rel=0.02)
    assert f.retransmits == 0 and f.timeouts == 0 and f.drops == 0


def test_send_jitter_never_reorders_a_flows_packets():
    """A large window through a fast link with 1 ms of jitter: a flow's packets keep their
    order (a reordering would show up as duplicate ACKs, fast retransmits, retransmissions)."""
    link = Link(rate_bps=50e6, prop_delay_ms=2.0, classes=(QueueClass("be", limit_pkts=10_000),))
    flows = tuple(TcpFlow(max_window_pkts=40, reverse_delay_ms=6.0, send_jitter_s=1e-3,
                          access_rate_bps=0.0) for _ in range(3))
    sc = Scenario(links=(link,), flows=flows, duration_s=20.0, warmup_s=1.0)
    f = simulate([sc], [5], backend="cpu").flows
    assert (f.retransmits == 0).all() and (f.fast_retransmits == 0).all()
    assert (f.pkts_sent > 1000).all()


def test_sub_slot_jitter_reorders_same_slot_arrivals_by_time_under_index_order():
    """In flow-index order (ns-2's lack of timing noise), 0.1 ms of jitter (below one
    115-us slot) changes results through the arrival times within a slot; in random order,
    where same-slot arrivals are shuffled anyway, it changes nothing."""
    def runs(tie):
        base = kaur_vin(n_flows=8, rtp_ms=8.0, ef=None, tie_break=tie, duration_s=3.0, warmup_s=0.5)
        jit = Scenario(**{**base.__dict__, "flows": tuple(
            TcpFlow(**{**fl.__dict__, "send_jitter_s": 1e-4}) for fl in base.flows)})
        f = simulate([base, jit], [1, 1], backend="cpu").flows
        return [f[f.replica == r].delivered_bytes.to_numpy() for r in (0, 1)]
    plain, jittered = runs("index")
    assert not (plain == jittered).all()
    plain, jittered = runs("random")
    assert (plain == jittered).all()


@pytest.mark.parametrize("limited_transmit, timeouts, fast_retransmits", [(False, 1, 0),
                                                                         (True, 0, 1)])
def test_limited_transmit_turns_a_small_window_timeout_into_a_fast_retransmit(
        limited_transmit, timeouts, fast_retransmits):
    """RFC 3042 (ns-2 singledup_): window 3, segment 3 lost. Its successors 4 and 5 bring two
    duplicate ACKs only: without limited transmit Reno must time out; with it each of those
    dupacks sends one new segment (6, 7), whose dupacks make the third and a fast
    retransmit."""
    link = Link(rate_bps=10e6, prop_delay_ms=5.0, classes=(QueueClass("be", limit_pkts=1000),))
    fl = TcpFlow(max_window_pkts=1000, init_window_pkts=3, init_ssthresh_pkts=3,
                 reverse_delay_ms=10.0, drop_seqs=(3,), limited_transmit=limited_transmit,
                 size_pkts=40)
    f = simulate([Scenario(links=(link,), flows=(fl,), duration_s=10.0)], [1],
                 backend="cpu").flows.iloc[0]
    assert (f.timeouts, f.fast_retransmits) == (timeouts, fast_retransmits)


def test_merged_launch_gives_the_same_tables_as_one_launch_per_shape():
    """On CUDA every shape group goes into one launch when padding costs little (a launch
    lasts as long as its slowest replica): results must not depend on it. Here on the CPU:
    1, 8 and 64 flows, with and without sources, two-link routes."""
    from diffsweep.engine.execution import _merged_groups
    from diffsweep.engine.pack import shape_key
    two = Scenario(links=(Link(rate_bps=10e6, prop_delay_ms=2.0, classes=(QueueClass("be", limit_pkts=50),)),
                          Link(rate_bps=5e6, prop_delay_ms=1.0, classes=(QueueClass("be", limit_pkts=30),))),
                   flows=(TcpFlow(route=(0, 1)), TcpFlow(route=(1,))), duration_s=2.0, warmup_s=0.2)
    scs = [kaur_vin(n_flows=n, rtp_ms=8.0, ef=ef, udp=udp, t_on_ms=5.0, duration_s=2.0, warmup_s=0.2)
           for n, ef, udp in ((1, "onoff", False), (8, None, True), (64, "onoff", True))] + [two]
    seeds = [5, 6, 7, 8]
    groups = {}
    for i, sc in enumerate(scs):
        groups.setdefault(shape_key(sc), []).append(i)
    assert len(groups) == 4 and len(_merged_groups(groups, scs)) == 1
    apart = simulate(scs, seeds, backend="cpu", merge_shapes=False)
    merged = simulate(scs, seeds, backend="cpu", merge_shapes=True)
    for name in ("replicas", "flows", "queues", "sources", "intervals"):
        pd_testing.assert_frame_equal(getattr(apart, name), getattr(merged, name))


def test_no_merge_when_padding_would_cost_much_memory():
    """A replica of 4,096 flows beside 1-flow replicas: padding those to 4,096 flows would
    multiply the batch's bytes, so each shape keeps its own launch."""
    from diffsweep.engine.execution import _merged_groups
    from diffsweep.engine.pack import shape_key
    big = kaur_vin(n_flows=4096, rtp_ms=8.0, duration_s=1.0, warmup_s=0.1)
    small = kaur_vin(n_flows=1, rtp_ms=8.0, duration_s=1.0, warmup_s=0.1)
    scs = [big] + [small] * 2000
    groups = {}
    for i, sc in enumerate(scs):
        groups.setdefault(shape_key(sc), []).append(i)
    assert _merged_groups(groups, scs) == groups


def test_the_cuda_kernel_is_the_slim_one_only_without_rare_models(monkeypatch):
    """engine.cuda_kernel (the host's choice, cuda/engine/features.h): a job whose replicas use
    no edge conditioner, AQM, traffic generator, application, traced flow, TCP-aware tag,
    non-green packet or validation hook (a lossy link, injected drops) runs on the slim kernel;
    one replica that does puts the job on the classic one (ns-2's rare models), or on the full
    one when it uses a model after ns-2's. The golden cases: drop-tail TCP,
    sources, WRR and access links are slim; the multi-hop family (its lossy link), injected
    drops, DiffServ conditioners and RIO, traffic, two domains, CBQ with RED and TCP-aware
    tags full."""
    from diffsweep.engine import compiled as engine
    from diffsweep.engine.pack import pack
    from engine_cases import golden_cases

    slim = {"kaur0", "kaur1", "kaur2", "kaur3", "kaur4", "kaur5", "kaur6", "kaur7", "wrr0",
            "drops3"}  # drops3: access-link buffers and finite transfers, no injected drop
    packed = {name: pack([sc], [seed]) for name, sc, seed in golden_cases()}
    # the golden cases use ns-2's models alone: their rare ones run on the classic kernel
    for name, p in packed.items():
        assert engine.cuda_kernel([p]) == ("slim" if name in slim else "classic"), name
    assert engine.cuda_kernel([packed["kaur0"], packed["drops3"]]) == "slim"
    assert engine.cuda_kernel([packed["kaur0"], packed["drops1"]]) == "classic"
    assert engine.cuda_kernel([packed["kaur0"], packed["multihop0"]]) == "classic"
    assert engine.cuda_kernel([packed["kaur0"], packed["diffserv0"]]) == "classic"
    # a model after ns-2's (CUBIC, CoDel, PIE, FQ-CoDel, ECN) anywhere in the job: the full one
    from engine_cases import schedule_only_cases  # noqa: PLC0415
    new = [(name, sc, seed) for name, sc, seed in schedule_only_cases()
           if name.startswith(("cubic", "codel", "pie", "ecn", "dctcp", "fqcodel"))]
    assert len(new) >= 6
    for name, sc, seed in new:
        assert engine.cuda_kernel([packed["kaur0"], pack([sc], [seed])]) == "full", name
    cases = {name: (sc, seed) for name, sc, seed in golden_cases()}
    both = pack([cases["kaur0"][0], cases["diffserv0"][0]], [1, 2])
    assert engine._module("cpu").uses_rare_models(both.shape, engine._flat(both)) == [False, True]
    monkeypatch.setenv("DIFFSWEEP_CUDA_KERNEL", "full")  # forced, to compare the two
    assert engine.cuda_kernel([packed["kaur0"]]) == "full"


def test_version_is_pyprojects_installed_or_not():
    """Reports and stores say which code made them: the installed package's version, or from
    a source tree pyproject.toml's with "+source" (it said "0+unknown")."""
    import re
    from pathlib import Path

    from diffsweep.engine.compiled import version

    text = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    want = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M).group(1)
    assert version() in (want, f"{want}+source")


def test_default_lanes_gives_a_replica_its_own_warp_when_the_job_fits():
    """On cuda a job the device keeps resident one replica per warp runs one lane each (up
    to 128 flows); a job that fills the device keeps the flow teams; the CPU always 1."""
    from diffsweep.engine.compiled import default_lanes
    assert default_lanes("cpu", 64, 100, resident_warps=2640) == 1
    assert default_lanes("cuda", 64, 1104, resident_warps=2640) == 1
    assert default_lanes("cuda", 64, 2640, resident_warps=2640) == 1
    assert default_lanes("cuda", 64, 2641, resident_warps=2640) == 16
    assert default_lanes("cuda", 8, 10560, resident_warps=2640) == 4
    assert default_lanes("cuda", 128, 10, resident_warps=2640) == 1
    assert default_lanes("cuda", 1000, 10, resident_warps=2640) == 32
    assert default_lanes("cuda", 64) == 16  # the job's size unknown: teams
    assert default_lanes("cuda", 2, 10**6, resident_warps=1) == 1
    # without a CUDA device the count is 0: teams, as packing for a GPU elsewhere would
    if not ds.info()["cuda_devices"]:
        assert default_lanes("cuda", 64, 10) == 16


def test_cuda_plan_spreads_a_family_over_the_resident_warps():
    """engine.cuda_plan / the binding family_plan (cuda/engine/family.h): the fewest replicas
    per warp (any number) with which every task is resident; a team of 16 lanes holds 2
    replicas a warp whatever that number; over the resident warps, 32 and a second wave."""
    from diffsweep.engine.compiled import _module, cuda_plan
    from diffsweep.engine.pack import pack
    one = pack([kaur_vin(n_flows=1, duration_s=1.0, warmup_s=0.1)], [1])
    many = pack([kaur_vin(n_flows=64, duration_s=1.0, warmup_s=0.1)], [1], lanes=16)
    shapes = [dict(one.shape, n_replicas=2240), dict(many.shape, n_replicas=5580)]
    m = _module("cpu")
    # per warp 1: 2,240 + 5,580 warps; 2: 1,120 + 2,790; 3: 747 + 2,790; ...; 5: 448 +
    # 2,790; 6: 374 + 2,790; 11: 204 + 2,790; 20: 112 + 2,790; 21: 107 + 2,790; 32: 70 +
    # 2,790 (none fits 2,800: 32, the rest a second wave)
    assert m.family_plan(shapes, 3168) == {"per_warp": 6, "warps": 374 + 2790}
    assert m.family_plan(shapes, 3237) == {"per_warp": 6, "warps": 374 + 2790}
    assert m.family_plan(shapes, 3238) == {"per_warp": 5, "warps": 448 + 2790}
    assert m.family_plan(shapes, 7820) == {"per_warp": 1, "warps": 7820}
    assert m.family_plan(shapes, 3000) == {"per_warp": 11, "warps": 204 + 2790}
    assert m.family_plan(shapes, 2900) == {"per_warp": 21, "warps": 107 + 2790}
    assert m.family_plan(shapes, 2800) == {"per_warp": 32, "warps": 70 + 2790}
    assert m.family_plan(shapes, 3168, 4) == {"per_warp": 4, "warps": 3350}
    plan = cuda_plan([one, many], resident_warps=2)
    assert plan == {"kernel": "slim", "resident_warps": 2, "per_warp": 1, "warps": 2, "waves": 1}
    assert cuda_plan([one, many], resident_warps=1)["waves"] == 2
