"""CUBIC (cuda/model/tcp_cubic.h, RFC 9438 as ns-3.44's TcpCubic) in whole runs: a lone flow's
window trajectory (the multiplicative decrease to beta x cwnd, the concave approach to W_max,
the plateau at about K, the convex probe beyond it), HyStart ending slow start before its
overshoot, CUBIC beside ns-2's NewReno at a large and a small BDP (RFC 9438 section 5), the
per-flow choice and parameters reaching the engine, and the state only CUBIC batches carry.
Hand-computed cases of the model's functions: tests/cpp/test_cubic.cpp; the schedule matrix:
tests/engine_cases.py (cubic0, cubic1)."""
from __future__ import annotations

import numpy as np
import pytest

from diffsweep.core.errors import ConfigError
from diffsweep.engine import simulate, state_sections
from diffsweep.engine.compiled import cuda_kernel
from diffsweep.engine.pack import layout, pack
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow
from diffsweep.scenario.checks import MAX_CUBIC_SETS
from diffsweep.scenario.dumbbell import dumbbell

C, BETA = 0.4, 0.7  # ns-3.44's defaults


def _cwnd(res):
    tr = res.cwnd_trace
    return tr["t_s"].to_numpy(), tr["cwnd_pkts"].to_numpy()


def _reductions(w):
    """Sample indices where the window fell (a loss's reduction)."""
    return np.flatnonzero(w[1:] < 0.9 * w[:-1]) + 1


def test_lone_flow_concave_plateau_convex():
    """One SACK CUBIC flow, 20 Mb/s, 50 ms, 100-packet drop-tail buffer (room for ~220
    segments); an injected loss at segment 1500 (cwnd ~150) sets W_max well below the room,
    so the next epoch shows RFC 9438's whole curve before the buffer overflows: down to
    beta x W, concave up to W_max, flat about K = cbrt(W_max (1 - beta) / C) after the
    reduction, convex beyond."""
    link = Link(rate_bps=20e6, prop_delay_ms=10.0, classes=(QueueClass("be", limit_pkts=100),))
    flow = TcpFlow(congestion_control="cubic", variant="sack", segment_bytes=1000,
                   max_window_pkts=1000, access_delay_ms=5.0, egress_delay_ms=5.0,
                   reverse_delay_ms=30.0, init_ssthresh_pkts=80, drop_seqs=(1500,),
                   access_rate_bps=100e6, access_buffer_pkts=1000)
    dt = 0.02
    sc = Scenario(links=(link,), flows=(flow,), duration_s=16.0, trace_flows=(0,),
                  trace_interval_s=dt)
    t, w = _cwnd(simulate([sc], [1], backend="cpu"))
    cut = _reductions(w)
    assert len(cut) >= 2
    a, b = cut[0], cut[1]
    w_max = w[a - 1]  # the window at the injected loss (sampled 20 ms before it)
    # the multiplicative decrease: ssthresh = cwnd = (int)(beta W)
    assert w[a] == int(BETA * w_max) or w[a] == int(BETA * (w_max + 1))
    epoch = w[a:b]
    k = ((w_max - w[a]) / C) ** (1.0 / 3.0)  # RFC 9438 eq. 2
    # growth over half-second steps: falling while below W_max, least near it, rising after
    step = int(round(0.5 / dt))
    grow = np.diff(epoch[::step])
    flat = np.flatnonzero(grow[:-1] == grow[:-1].min())  # the flattest steps (often several)
    low = int(flat[0])
    assert 0 < low < len(grow) - 2, grow
    assert np.all(np.diff(grow[:low + 1]) <= 0), grow   # concave
    assert grow[-1] > 4 * max(1.0, grow[low]), grow       # convex: accelerating away
    plateau = epoch[low * step:(low + 1) * step + 1]
    assert np.all(np.abs(plateau - w_max) <= 0.03 * w_max), (plateau, w_max)
    # the plateau's middle (of its flattest steps) lies about K after the reduction (ns-3 aims one least RTT ahead and
    # truncates the cubic term to whole segments, so within a second of it)
    mid = (flat.mean() + 0.5) * step * dt
    assert abs(mid - k) < 1.0, (mid, k)
    assert epoch.max() > 1.3 * w_max  # the convex probe went well past W_max


def _first_slow_start(hystart: bool):
    sc = dumbbell(n_flows=1, congestion_control="cubic", tcp="sack", bottleneck_bps=20e6,
                  rtt_ms=60, buffer_pkts=300, max_window_pkts=1000, access_buffer_pkts=1000,
                  duration_s=4.0, warmup_s=0.0, start_s=0.0, trace_flows=(0,),
                  trace_interval_s=0.01, cubic_hystart=hystart)
    res = simulate([sc], [1], backend="cpu")
    t, w = _cwnd(res)
    first = _reductions(w)[0]
    return w[:first].max(), int(res.flows["drops"].iloc[0])


def test_hystart_ends_slow_start_before_it_overshoots():
    """Room for ~444 segments (BDP 144 + 300 buffered): HyStart's ACK train (ns-3: longer
    than delay_min) sets ssthresh = cwnd at ~400 segments and congestion avoidance reaches
    the room gently; without it slow start doubles past it and loses hundreds."""
    peak_on, drops_on = _first_slow_start(True)
    peak_off, drops_off = _first_slow_start(False)
    assert peak_off > 1.5 * peak_on
    assert drops_on * 5 < drops_off


def _share(rate_bps: float, rtt_ms: float, buffer_pkts: int) -> float:
    """CUBIC's goodput over NewReno's, two SACK flows sharing a drop-tail dumbbell."""
    sc = dumbbell(n_flows=2, congestion_control=["cubic", "newreno"], tcp="sack",
                  bottleneck_bps=rate_bps, rtt_ms=rtt_ms, buffer_pkts=buffer_pkts,
                  max_window_pkts=1000, access_buffer_pkts=1000, duration_s=60.0,
                  warmup_s=10.0)
    res = simulate([sc], [1], backend="cpu")
    g = res.flows.set_index("flow")["goodput_bps"]
    assert g.sum() > 0.85 * rate_bps
    return float(g[0] / g[1])


def test_cubic_takes_more_than_newreno_at_a_large_bdp():
    """RFC 9438 section 5: CUBIC's window grows by time, not by ACKs, so at a large BDP it
    takes more than Reno-style AIMD (50 Mb/s x 100 ms: 600 segments), and its edge shrinks
    as the BDP does (10 Mb/s x 20 ms: 24 segments, the Reno-friendly region)."""
    large = _share(50e6, 100.0, 300)
    small = _share(10e6, 20.0, 20)
    assert large > 2.0, large
    assert small < 0.7 * large, (small, large)  # (measured: 1.80 and 3.38)


def test_per_flow_choice_and_parameters_reach_the_engine():
    lay = layout()
    assert lay.limits["max_cubic_sets"] == MAX_CUBIC_SETS
    cubic = dict(congestion_control="cubic", reverse_delay_ms=5.0)
    flows = (TcpFlow(**cubic), TcpFlow(reverse_delay_ms=5.0),
             TcpFlow(**cubic, cubic_beta=0.8, cubic_hystart_detect="delay",
                     cubic_hystart_ack_delta_ms=3.0, cubic_delta_ms=20.0), TcpFlow(**cubic))
    sc = Scenario(links=(Link(rate_bps=10e6),), flows=flows, duration_s=1.0)
    p = pack([sc], [1])
    cc = lay.enums["congestion_control"]
    assert p.arrays["flow_cc"][0, :4].tolist() == [cc["cubic"], cc["newreno"], cc["cubic"],
                                                   cc["cubic"]]
    assert p.arrays["flow_cubic_set"][0, :4].tolist() == [0, 0, 1, 0]
    rows = p.arrays["cubic_params"][0]
    slot = float(p.slot_s[0])
    assert rows[0].tolist() == [0.4, 0.7, 1, 1, 1, 16, 3, 8, 0.002, 0.004, 1.0, 0.01, 20, slot]
    assert rows[1].tolist() == [0.4, 0.8, 1, 1, 1, 16, 2, 8, 0.003, 0.004, 1.0, 0.02, 20, slot]
    assert not rows[2:].any()
    assert p.shape["cubic_states"] == 1


def test_only_cubic_batches_carry_its_state():
    """A replica without CUBIC flows keeps no CUBIC state (BatchShape::cubic_states 0); one
    with them 72 bytes a flow slot (CubicState)."""
    base = dict(bottleneck_bps=10e6, n_flows=4, duration_s=1.0, warmup_s=0.0)
    plain = pack([dumbbell(**base)], [1])
    mixed = pack([dumbbell(**base, congestion_control=["cubic", "newreno"] * 2)], [1])
    assert plain.shape["cubic_states"] == 0 and mixed.shape["cubic_states"] == 1
    # a rare model: CUDA runs a CUBIC batch on the full kernel, the slim one has none of it
    assert cuda_kernel([plain]) == "slim" and cuda_kernel([mixed]) == "full"
    a, b = state_sections(plain.shape), state_sections(mixed.shape)
    assert a.get("cubic", 0) == 0
    assert b["cubic"] == 72 * mixed.shape["max_flows"]


def test_newreno_flows_beside_cubic_ones_run_as_without_them():
    """In a CUBIC batch, a NewReno replica's bits are its bits alone: the CUBIC state and the
    f_cubic tests change nothing for flows that do not run CUBIC."""
    kw = dict(n_flows=3, tcp="newreno", bottleneck_bps=10e6, duration_s=3.0, warmup_s=0.5)
    alone = dumbbell(**kw)
    other = dumbbell(**kw, congestion_control="cubic")
    one = simulate([alone], [3], backend="cpu").flows
    two = simulate([alone, other], [3, 4], backend="cpu").flows
    cols = ["delivered_bytes", "pkts_sent", "retransmits", "timeouts", "drops"]
    assert one[cols].equals(two[two.replica == 0][cols].reset_index(drop=True))


def test_bad_cubic_inputs_name_the_field():
    with pytest.raises(ConfigError, match=r"^TcpFlow\.congestion_control: 'bbr' is not allowed"):
        TcpFlow(congestion_control="bbr")
    with pytest.raises(ConfigError, match=r"^TcpFlow\.cubic_c: 0\.5 is not allowed \(expected "
                                          r"the default 0\.4 unless congestion_control"):
        TcpFlow(cubic_c=0.5)
    with pytest.raises(ConfigError, match=r"^cubic_beta: 1\.5 is not allowed \(expected a "
                                          r"number in \(0, 1\)"):
        dumbbell(congestion_control="cubic", cubic_beta=1.5)
    with pytest.raises(ConfigError, match=r"^flows\[4\]\.cubic_c: 2\.4 is not allowed"):
        Scenario(links=(Link(rate_bps=1e6),), duration_s=1.0,
                 flows=tuple(TcpFlow(congestion_control="cubic", cubic_c=0.4 + 0.5 * k)
                             for k in range(5)))
