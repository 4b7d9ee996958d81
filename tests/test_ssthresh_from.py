"""TcpFlow.ssthresh_from (docs/model.md, "SACK"): NewReno's reduction at a fast retransmit,
ns-2's half window ("window", the default) or ns-3.44's half of the SACK pipe ("flight").
The hand-computed case is tests/cpp/test_sack.cpp (test_fast_retransmit_ssthresh_from_flight);
here the option reaches the engine through the builder, changes nothing where it is not set,
and is refused where it does not apply."""
from __future__ import annotations

import pytest

from diffsweep import simulate
from diffsweep.core.errors import ConfigError
from diffsweep.scenario import TcpFlow
from diffsweep.scenario.dumbbell import dumbbell

KW = dict(n_flows=8, tcp="sack", aqm="codel", rtt_ms=40.0, buffer_pkts=100,
          max_window_pkts=1000, duration_s=20.0, warmup_s=5.0)


def test_flight_backs_off_further_than_the_window():
    # ns-3's reduction leaves out the SACKed segments and the lost head (2 segments below
    # ns-2's half window at a window of 8): the same CoDel queue drops less, and holds less
    r = simulate([dumbbell(ssthresh_from=s, **KW) for s in ("window", "flight")], [1, 1],
                 backend="cpu")
    q = r.queues[r.queues["link"] == 0].set_index("replica")
    assert q.loc[1, "all_drops"] < 0.85 * q.loc[0, "all_drops"]
    assert q.loc[1, "mean_waiting_pkts"] < q.loc[0, "mean_waiting_pkts"]
    assert (r.flows.groupby("replica")["goodput_bps"].sum() > 9.3e6).all()  # the link stays full


def test_window_is_the_default_and_changes_nothing():
    assert TcpFlow().ssthresh_from == "window"
    a, b = dumbbell(**KW), dumbbell(ssthresh_from="window", **KW)
    assert a.digest() == b.digest()
    ra, rb = simulate([a], [2], backend="cpu"), simulate([b], [2], backend="cpu")
    assert ra.flows.equals(rb.flows)


def test_cubic_flows_keep_their_own_reduction():
    kw = dict(KW, congestion_control="cubic")
    r = simulate([dumbbell(ssthresh_from=s, **kw) for s in ("window", "flight")], [3, 3],
                 backend="cpu")
    f = r.flows.set_index(["replica", "flow"])["pkts_sent"]
    assert (f.loc[0].to_numpy() == f.loc[1].to_numpy()).all()


def test_refusals():
    with pytest.raises(ConfigError, match=r"^TcpFlow\.ssthresh_from: 'half' .*one of 'window', 'flight'"):
        TcpFlow(variant="sack", ssthresh_from="half")
    with pytest.raises(ConfigError, match=r"^TcpFlow\.ssthresh_from: 'flight' .*'window' with variant 'reno'"):
        TcpFlow(ssthresh_from="flight")
    with pytest.raises(ConfigError, match=r"^ssthresh_from: 'flight' .*variant 'newreno'"):
        dumbbell(tcp="newreno", ssthresh_from="flight")
