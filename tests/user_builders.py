"""A researcher's own builders, as a user's module would hold them: the sweep files of
tests/test_user_builders.py name them as ``builder = "user_builders:two_rtt_dumbbell"`` (tests/
is on the path, as a user's module is on PYTHONPATH or installed). Not a test file."""
from __future__ import annotations

import diffsweep
from diffsweep import Link, QueueClass, Scenario, TcpFlow
from diffsweep.scenario import RedThresholds
from diffsweep.core.errors import check

#: not callable: a sweep file naming it is refused
NOT_A_FUNCTION = 3


@diffsweep.builder
def two_rtt_dumbbell(n_flows=2, rtp_ms=20.0, rtp_ratio=2.0, link_rate_bps=10e6,
                     buffer_pkts=50, aqm="droptail", duration_s=3.0, warmup_s=0.5, seed=0):
    """Reno flows over one bottleneck: half of them at ``rtp_ms`` round trip, half at
    ``rtp_ratio`` times that; drop-tail or RED."""
    check(aqm in ("droptail", "red"), "aqm", aqm, "'droptail' or 'red'")
    check(isinstance(n_flows, int) and n_flows >= 1, "n_flows", n_flows, "an integer >= 1")
    red = (RedThresholds(buffer_pkts / 4, 3 * buffer_pkts / 4, 0.1),) if aqm == "red" else ()
    queue = QueueClass("be", limit_pkts=buffer_pkts, aqm=aqm, red=red)
    link = Link(rate_bps=link_rate_bps, prop_delay_ms=1.0, classes=(queue,))
    flows = []
    for i in range(n_flows):
        rtp = rtp_ms * (rtp_ratio if i % 2 else 1.0)
        side = (rtp / 2 - 1.0) / 2
        flows.append(TcpFlow(access_delay_ms=side, egress_delay_ms=side,
                             reverse_delay_ms=rtp / 2, segment_bytes=960, header_bytes=40))
    return Scenario(links=(link,), flows=tuple(flows), duration_s=duration_s,
                    warmup_s=warmup_s, params={"long_rtp_ms": rtp_ms * rtp_ratio})


def unmarked(n_flows=1, seed=0):
    """A function that returns a scenario but was never made a builder: a sweep file may not
    call it (as it may not call os.system)."""
    return two_rtt_dumbbell(n_flows=n_flows, seed=seed)
