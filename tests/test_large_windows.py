"""Windows of today's paths (issue 52): ``max_window_pkts`` up to 2^16. A 1 Gb/s, 100 ms path
holds ~12,000 packets of 1040 B; the receiver's reorder bitmap (model/tcp_receiver.h) is as
wide as the batch's largest window needs (BatchShape.rx_bits), 1024 bits up to a window of
1000 as before, so the replicas that do not need more keep their bits and their state size."""
import pytest

import diffsweep as ds
from diffsweep.core.errors import ConfigError, EngineError
from diffsweep.engine import pack as pk
from diffsweep.scenario.dumbbell import dumbbell

GIG = dict(rtt_ms=100.0, bottleneck_bps=1e9, access_bps=10e9, access_buffer_pkts=70000,
           start_spread_s=0.0)


@pytest.mark.parametrize("window", [2000, 8000])
def test_a_window_limited_flow_gets_window_over_rtt(window):
    # below the path's bandwidth-delay product (1e9 x 0.1 / 8 / 1040 = 12,019 packets) a lone
    # flow with no loss sends one window per round trip: W x 1000 B x 8 / 100 ms
    sc = dumbbell(n_flows=1, buffer_pkts=30000, max_window_pkts=window, duration_s=6.0,
                  warmup_s=3.0, **GIG)
    res = ds.simulate([sc], [0], backend="cpu")
    f = res.flows.iloc[0]
    assert f["drops"] == 0
    assert f["goodput_bps"] == pytest.approx(window * 1000 * 8 / 0.1, rel=2e-3)


def test_above_the_bdp_a_flow_fills_the_link():
    sc = dumbbell(n_flows=1, buffer_pkts=30000, max_window_pkts=20000, duration_s=6.0,
                  warmup_s=3.0, **GIG)
    f = ds.simulate([sc], [0], backend="cpu").flows.iloc[0]
    assert f["goodput_bps"] == pytest.approx(1e9 * 1000 / 1040, rel=2e-3)


def test_the_bitmap_is_as_wide_as_the_largest_window_needs():
    small = dumbbell(n_flows=2, max_window_pkts=1000, duration_s=1.0, warmup_s=0.0)
    big = dumbbell(n_flows=2, max_window_pkts=60000, duration_s=1.0, warmup_s=0.0, **GIG)
    assert pk.pack([small], [0]).shape["rx_bits"] == 1024        # as before the lift
    assert pk.pack([big], [0]).shape["rx_bits"] == 65536         # 60000 + 24 -> 2^16
    assert pk.pack([small, big], [0, 1]).shape["rx_bits"] == 65536


@pytest.mark.parametrize("tcp", ["newreno", "sack"])
def test_losses_with_a_large_window_need_the_wide_bitmap(tcp, monkeypatch):
    # slow start over a 3000-packet buffer loses thousands of segments: the receiver holds
    # segments far more than 1024 beyond rcv_next. It runs with the bitmap the pack sizes;
    # squeezed back to 1024 bits the same replica overflows it (the engine refuses).
    sc = dumbbell(n_flows=2, tcp=tcp, buffer_pkts=3000, max_window_pkts=60000,
                  duration_s=8.0, warmup_s=0.0, **GIG)
    res = ds.simulate([sc], [0], backend="cpu")
    assert res.flows["drops"].sum() > 1000 and (res.flows["goodput_bps"] > 0).all()
    monkeypatch.setattr(pk, "RX_BITMAP_SLACK", -60000)   # rx_bits = max(1024, pow2(<=24))
    with pytest.raises(EngineError, match="receiver window"):
        ds.simulate([sc], [0], backend="cpu")


def test_a_window_above_two_to_the_sixteen_is_one_line():
    with pytest.raises(ConfigError, match=r"max_window_pkts: 65537 is not allowed \(expected "
                                          r"an integer in 1\.\.65536"):
        dumbbell(max_window_pkts=65537)
