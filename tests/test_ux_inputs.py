"""What a user meets, round two (issue 23): inputs that used to run to nonsense or end in an
internal error are refused before any engine call, with one line naming the field, its value
and the allowed values."""
import re

import numpy as np

import pytest

from diffsweep.cli import app as cli
from diffsweep.scenario import builders as scenarios
from diffsweep.core.errors import ConfigError
from diffsweep.engine.pack import layout, pack
from diffsweep.scenario import Link, OnOffSource, QueueClass, Scenario, TcpFlow, Traffic
from diffsweep.scenario.builders import kaur_vin


def one_line_error(err: str, pattern: str):
    """Exactly one line on stderr, 'diffsweep: error: ...' matching ``pattern``, no traceback."""
    assert "Traceback" not in err, err
    errors = [ln for ln in err.strip().splitlines() if ln.startswith("diffsweep: error: ")]
    assert len(errors) == 1, err
    assert re.search(pattern, errors[0]), errors[0]


def cli_run(capsys, *args):
    rc = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


HEAD = 'name = "bad"\nbuilder = "kaur_vin"\nseeds = 1\n'


def sweep(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def one_link(**kw):
    return Scenario(links=[Link(rate_bps=1e6, classes=[QueueClass("be", limit_pkts=50)])],
                    flows=[TcpFlow()], **kw)


# --------------------------------------------------------------------------------------------
# 1. a run shorter than one time slot
# --------------------------------------------------------------------------------------------
SLOT = r"0\.0001152 s: the transmission time of a 576-byte packet at the fastest rate, link_rate_bps 4e\+07 b/s"


def test_a_run_shorter_than_one_slot_is_refused():
    with pytest.raises(ConfigError, match=r"^duration_s: 1e-06 is not allowed \(expected a "
                                          r"number >= 0\.0001152 s: the run must last at least "
                                          r"one time slot \(" + SLOT + r"\)\)$"):
        kaur_vin(duration_s=1e-6, warmup_s=0.0)
    # a slow link makes the slot longer than the run: the message says why the slot is long
    with pytest.raises(ConfigError, match=r"^duration_s: 100\.0 is not allowed \(expected a "
                                          r"number >= 4608 s: .* one time slot \(4608 s: the "
                                          r"transmission time of a 576-byte packet at the "
                                          r"fastest rate, link_rate_bps 1 b/s\)\)$"):
        kaur_vin(link_rate_bps=1)
    with pytest.raises(ConfigError, match=r"^duration_s: 0\.001 is not allowed \(expected a "
                                          r"number >= 0\.01 s: .*\(0\.01 s: slot_s\)\)$"):
        one_link(duration_s=0.001, slot_s=0.01)
    assert kaur_vin(duration_s=0.0001152, warmup_s=0.0).duration_s == 0.0001152  # one slot


def test_a_warmup_that_leaves_no_measured_slot_is_refused():
    # 1.0 s and 0.999996 s are both 8681 slots of 115.2 us: nothing would be measured
    with pytest.raises(ConfigError, match=r"^warmup_s: 0\.999996 is not allowed \(expected a "
                                          r"number >= 0 and at least one time slot \(" + SLOT +
                                          r"\) below duration_s \(1\.0\): rates are measured "
                                          r"after the warm-up\)$"):
        kaur_vin(duration_s=1.0, warmup_s=0.999996)
    with pytest.raises(ConfigError, match=r"^warmup_s: 2\.0 is not allowed \(expected a number "
                                          r">= 0 and < duration_s \(1\.0\)\)$"):
        kaur_vin(duration_s=1.0, warmup_s=2.0)
    assert kaur_vin(duration_s=1.0, warmup_s=0.9998).warmup_s == 0.9998  # 2 slots measured


def test_an_interval_shorter_than_one_slot_is_refused():
    with pytest.raises(ConfigError, match=r"^interval_s: 0\.001 is not allowed \(expected None "
                                          r"or a number >= one time slot \(0\.01 s: slot_s\) "
                                          r"and <= duration_s \(1\.0\)\)$"):
        one_link(duration_s=1.0, slot_s=0.01, interval_s=0.001)


def test_a_sweep_file_shorter_than_one_slot_fails_before_the_engine(tmp_path, capsys):
    p = sweep(tmp_path, HEAD + "duration_s = 1e-6\nwarmup_s = 0.0\n")
    rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out")
    assert rc == 2 and not (tmp_path / "out").exists()
    one_line_error(err, r"duration_s: 1e-06 is not allowed \(expected a number >= 0\.0001152 s: "
                        r"the run must last at least one time slot .*\(grid point 0; seed 0\) "
                        r"\(in .*s\.toml\)$")


def test_the_default_slot_is_one_packet_at_the_fastest_rate_links_or_access_links():
    """docs/model.md, "Time": a sender's access link faster than every link sets the slot
    (a dumbbell's 100 Mb/s access: 1040 B in 83.2 us, not the bottleneck's 0.832 ms), and the
    messages name the builder's parameter that set it."""
    from diffsweep.engine.pack import default_slot_s
    from diffsweep.scenario.slot import fastest_rate
    db = scenarios.dumbbell(n_flows=2)
    assert fastest_rate(db) == (100e6, "access_bps")
    assert default_slot_s(db) == pytest.approx(1040 * 8 / 100e6, rel=1e-12)
    # an access link slower than the bottleneck leaves the bottleneck's packet time
    slow = scenarios.dumbbell(n_flows=2, access_bps=5e6)
    assert fastest_rate(slow) == (10e6, "bottleneck_bps")
    assert default_slot_s(slow) == pytest.approx(1040 * 8 / 10e6, rel=1e-12)
    # unpaced senders (0) and a route's first link (None) set no rate of their own
    sc = Scenario(links=[Link(rate_bps=1e6)], flows=[TcpFlow(access_rate_bps=0.0),
                                                       TcpFlow(access_rate_bps=None)],
                  duration_s=10.0)
    assert fastest_rate(sc) == (1e6, "links[0].rate_bps")
    sc = Scenario(links=[Link(rate_bps=1e6)], flows=[TcpFlow(), TcpFlow(access_rate_bps=8e6)],
                  duration_s=10.0)
    assert fastest_rate(sc) == (8e6, "flows[1].access_rate_bps")
    with pytest.raises(ConfigError, match=r"^duration_s: 1e-06 is not allowed \(expected a "
                                          r"number >= 8\.32e-05 s: .*1040-byte packet at the "
                                          r"fastest rate, access_bps 1e\+08 b/s\)\)$"):
        scenarios.dumbbell(duration_s=1e-6, warmup_s=0.0)


def test_too_many_slots_offers_slot_s_when_the_fastest_rate_alone_cannot_help():
    """Slowing the fastest access link to the rate that would fit the slot clock does not
    help when a link nearly as fast would set the slot then: the way out offered is slot_s.
    Rates set by one builder parameter (Kaur & Vin's link_rate_bps sets its access links too)
    are slowed together, so that parameter is offered."""
    with pytest.raises(ConfigError, match=r"^duration_s: 10000000\.0 is not allowed \(expected a "
                                          r"number > 0 and at most 9895 s, fewer than 2\^32 "
                                          r"slots of 2\.304e-06 s \(.*at the fastest rate, "
                                          r"flows\[0\]\.access_rate_bps 2e\+09 b/s\), the "
                                          r"32-bit slot clock; or slot_s a number >= "
                                          r"0\.002329 s\)$"):
        Scenario(links=[Link(rate_bps=1e9)], flows=[TcpFlow(access_rate_bps=2e9)],
                 duration_s=1e7)
    # with no other rate near it, the access link's rate is the way out
    with pytest.raises(ConfigError, match=r"; or flows\[0\]\.access_rate_bps a number > 0 and "
                                          r"at most 1\.979e\+06 b/s\)$"):
        Scenario(links=[Link(rate_bps=1e3)], flows=[TcpFlow(access_rate_bps=2e9)],
                 duration_s=1e7)
    with pytest.raises(ConfigError, match=r"^duration_s: 1000000000000\.0 .*link_rate_bps "
                                          r"4e\+07 b/s\), the 32-bit slot clock; or "
                                          r"link_rate_bps a number > 0 and at most 19\.79 b/s\)"):
        kaur_vin(duration_s=1e12)


# --------------------------------------------------------------------------------------------
# 2. an access buffer smaller than one packet
# --------------------------------------------------------------------------------------------
ACCESS = (r"is not allowed \(expected None \(= buffer_bytes\) or an integer in "
          r"576\.\.1236950580672: one packet \(segment_bytes 536 \+ header_bytes 40\) must fit, "
          r"and at most 2147483647 packets\)$")


@pytest.mark.parametrize("v", [0, 100, 575, -5, 1000.5])
def test_an_access_buffer_below_one_packet_is_refused(v):
    """0 became a one-packet buffer (59 kb/s) without a word; None, not 0, means
    "as buffer_bytes" (and TcpFlow's None: unlimited)."""
    with pytest.raises(ConfigError, match=rf"^access_buffer_bytes: {re.escape(repr(v))} " + ACCESS):
        kaur_vin(access_buffer_bytes=v)


def test_access_buffer_sizes_in_whole_packets():
    assert kaur_vin(access_buffer_bytes=576).flows[0].access_buffer_pkts == 1
    assert kaur_vin().flows[0].access_buffer_pkts == 200_000 // 576
    # a float size (TOML's 2e5) is the integer it holds: it used to leave the buffer unlimited
    assert kaur_vin(access_buffer_bytes=2e5).flows[0].access_buffer_pkts == 347
    assert kaur_vin(buffer_bytes=2e5).flows[0].access_buffer_pkts == 347
    assert kaur_vin(buffer_bytes=None).flows[0].access_buffer_pkts is None  # both unlimited
    with pytest.raises(ConfigError, match=r"^access_buffer_bytes: 1\d{30} " + ACCESS):
        kaur_vin(access_buffer_bytes=1e30)
    with pytest.raises(ConfigError, match=r"^TcpFlow\.access_buffer_pkts: 0 is not allowed "
                                          r"\(expected None \(unlimited\) or an integer in "
                                          r"1\.\.2147483647\)$"):
        TcpFlow(access_buffer_pkts=0)


def test_a_sweep_file_with_a_zero_access_buffer(tmp_path, capsys):
    p = sweep(tmp_path, HEAD + "[fixed]\naccess_buffer_bytes = 0\n")
    rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out")
    assert rc == 2 and not (tmp_path / "out").exists()
    one_line_error(err, r"fixed\.access_buffer_bytes: 0 is not allowed \(expected None "
                        r"\(= buffer_bytes\) or an integer in 576\.\.")


# --------------------------------------------------------------------------------------------
# 4. integers the engine cannot hold (one range table per class: scenario.check_ints)
# --------------------------------------------------------------------------------------------
RING = r": the engine's class queues hold at most 2\^30 packets\)$"


def test_a_buffer_beyond_the_engine_is_refused_not_an_overflow_error(tmp_path, capsys):
    with pytest.raises(ConfigError, match=r"^buffer_bytes: 1\d{30} is not allowed \(expected "
                                          r"None or an integer in 1\.\.1073741822" + RING):
        kaur_vin(buffer_bytes=1e30)
    p = sweep(tmp_path, HEAD + "[fixed]\nbuffer_bytes = 1e30\n")
    rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out")
    assert rc == 2 and not (tmp_path / "out").exists()
    one_line_error(err, r"fixed\.buffer_bytes: 1\d{30} is not allowed \(expected None or an "
                        r"integer in 1\.\.1073741822: the engine's class queues hold at most "
                        r"2\^30 packets\) \(grid point 0; seed 0\)")


BIG_INTS = [
    (lambda: QueueClass("be", limit_pkts=2**40),
     r"^QueueClass\.limit_pkts: 1099511627776 is not allowed \(expected None or an integer in "
     r"1\.\.1073741822" + RING),
    (lambda: QueueClass("be", limit_bytes=2**30 - 1),
     r"^QueueClass\.limit_bytes: 1073741823 is not allowed \(expected None or an integer in "
     r"1\.\.1073741822" + RING),
    (lambda: QueueClass("be", weight=2**31),
     r"^QueueClass\.weight: 2147483648 is not allowed \(expected an integer in 1\.\.2147483647\)$"),
    (lambda: TcpFlow(size_pkts=1e12),
     r"^TcpFlow\.size_pkts: 1000000000000 is not allowed \(expected None \(backlogged\) or an "
     r"integer in 1\.\.2147483647 \(sequence numbers are 32-bit\)\)$"),
    (lambda: TcpFlow(drop_seqs=(3, 2**31)),
     r"^TcpFlow\.drop_seqs: \(3, 2147483648\) is not allowed \(expected at most 8 sequence "
     r"numbers in 0\.\.2147483647\)$"),
    (lambda: TcpFlow(init_ssthresh_pkts=2**31),
     r"^TcpFlow\.init_ssthresh_pkts: 2147483648 is not allowed \(expected None or an integer in "
     r"2\.\.2147483647\)$"),
    (lambda: TcpFlow(access_buffer_pkts=2**31),
     r"^TcpFlow\.access_buffer_pkts: 2147483648 is not allowed \(expected None \(unlimited\) or "
     r"an integer in 1\.\.2147483647\)$"),
    (lambda: Scenario.from_dict({"links": [{"rate_bps": 1e6, "classes": [
        {"name": "be", "limit_bytes": 1e30}]}], "flows": [{}], "duration_s": 1.0}),
     r"^links\[0\]\.classes\[0\]\.limit_bytes: 1\d{30} is not allowed \(expected None or an "
     r"integer in 1\.\.1073741822" + RING),
    (lambda: Traffic(name="t", flow=TcpFlow(), mean_interarrival_s=1.0, size_set_pkts=(1,),
                     max_records=2**31),
     r"^Traffic\.max_records: 2147483648 is not allowed \(expected None or an integer in "
     r"1\.\.2147483647\)$"),
    (lambda: kaur_vin(n_flows=1e30),
     r"^n_flows: 1\d{30} is above the engine's limit on TCP flows per scenario \(expected at "
     r"most 65000\)$"),
    (lambda: scenarios.lee_jeong(n_best_effort=10**9),
     r"^n_best_effort: 1000000000 is above the engine's limit on TCP flows per scenario "
     r"\(expected at most 65000\)$"),
    (lambda: scenarios.lee_jeong(n_udp=10**9),
     r"^n_udp: 1000000000 is above the engine's limit on traffic sources per scenario "
     r"\(expected at most 512\)$"),
    (lambda: scenarios.rossi(ftp_per_cloud=10**9),
     r"^ftp_per_cloud: 1000000000 is above the engine's limit on TCP flows per scenario "),
    (lambda: scenarios.habib_2b(app="telnet", telnet_sessions=10**9),
     r"^telnet_sessions: 1000000000 is above the engine's limit on TCP flows per scenario "),
    (lambda: scenarios.matta_guo(telnet_sessions=10**9),
     r"^telnet_sessions: 1000000000 is above the engine's limit on TCP flows per scenario "),
]


@pytest.mark.parametrize("make,pattern", BIG_INTS, ids=[f"int{i}" for i in range(len(BIG_INTS))])
def test_integers_beyond_the_engine_are_refused(make, pattern):
    with pytest.raises(ConfigError, match=pattern):
        make()


def test_the_largest_allowed_integers_reach_the_engine_unchanged():
    """At the top of each range pack's arrays hold the values themselves (an int32 array
    would wrap a larger one silently) and every batch-shape field fits the engine's int32."""
    big = Scenario(links=[Link(rate_bps=1e6, scheduler="wrr",
                               classes=[QueueClass("be", limit_pkts=2**30 - 2, weight=2**31 - 1),
                                        QueueClass("af", limit_bytes=2**30 - 2)])],
                   flows=[TcpFlow(size_pkts=2**31 - 1, drop_seqs=(2**31 - 1,),
                                  init_ssthresh_pkts=2**31 - 1)], duration_s=1.0)
    p = pack([big], [0])
    a = p.arrays
    assert a["class_limit"][0, 0, :2].tolist() == [2**30 - 2, 2**30 - 2]
    assert a["class_weight"][0, 0, 0] == 2**31 - 1 and a["flow_size_pkts"][0, 0] == 2**31 - 1
    assert a["flow_drop_seq"][0, 0, 0] == 2**31 - 1 and a["flow_init_ssthresh"][0, 0] == 2**31 - 1
    for k, v in p.shape.items():
        assert all(0 <= x <= 2**31 - 1 for x in (v if isinstance(v, list) else [v])), k
    assert p.shape["class_caps"][0] == 2**30


def test_mirrored_engine_limits():
    from diffsweep import scenario
    lim = layout().limits
    assert (scenario.MAX_FLOWS, scenario.MAX_SOURCES, scenario.MAX_SLOTS) == (
        lim["max_flows"], lim["max_sources"], lim["max_slots"])


# --------------------------------------------------------------------------------------------
# 3. delays and times the engine's slot counts and rings cannot hold
# --------------------------------------------------------------------------------------------
RTP = (r"^flows\[0\]: a round-trip propagation delay \(rtp_ms: access \+ links \+ egress \+ "
       r"reverse\) of {} ms is not allowed \(expected at most 6\.18475e\+07 ms: the engine holds "
       r"an ACK loop of at most 536,870,911 slots of 0\.0001152 s here, its ACKs in flight and "
       r"lookahead in rings of at most 2\^30\)$")


@pytest.mark.parametrize("rtp,shown", [(2e8, r"2e\+08"), (1e300, r"1e\+300")])
def test_a_round_trip_beyond_the_engine_is_refused(rtp, shown):
    """It was "Unable to cast Python instance of type <class 'int'> to C++ type '?'": the ACK
    pool and the emission ring behind the loop overflowed the batch shape's int32."""
    with pytest.raises(ConfigError, match=RTP.format(shown)):
        pack([kaur_vin(rtp_ms=rtp, duration_s=1.0, warmup_s=0.1)], [0])


def test_the_largest_allowed_round_trip_reaches_the_engine():
    from diffsweep.engine import compiled as engine
    p = pack([kaur_vin(rtp_ms=6.18475e7, duration_s=1.0, warmup_s=0.1)], [0])
    assert p.shape["emit_cap"] == 2**30 and p.shape["ack_cap"] == 2**29
    assert engine.state_bytes(p.shape) > 2**30  # the engine casts every shape field: no error
    with pytest.raises(ConfigError, match=RTP.format(r"6\.1848e\+07")):
        pack([kaur_vin(rtp_ms=6.1848e7, duration_s=1.0, warmup_s=0.1)], [0])


def test_drawn_round_trips_beyond_the_engine_are_refused():
    """Stratified RTPs (delay variants, packed as a family) name the flow drawn too long."""
    with pytest.raises(ConfigError, match=r"^flows\[7\]: a round-trip propagation delay .* of "
                                          r"2\.97\d+e\+08 ms is not allowed \(expected at most "
                                          r"6\.18475e\+07 ms: "):
        pack([kaur_vin(n_flows=8, rtp_intervals=(12, 3e8, 8), duration_s=1.0, warmup_s=0.1)],
             [0])


def test_a_round_trip_beyond_the_engine_in_a_sweep_file(tmp_path, capsys):
    p = sweep(tmp_path, HEAD + "[fixed]\nrtp_ms = 2e8\n")
    rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out")
    assert rc == 2 and not (tmp_path / "out").exists()
    one_line_error(err, r"flows\[0\]: a round-trip propagation delay \(rtp_ms: .*\) of 2e\+08 ms "
                        r"is not allowed \(expected at most 6\.18475e\+07 ms: .* \(grid point 0; "
                        r"seed 0\) \(in .*s\.toml\)$")


SLOTS = [
    (lambda: kaur_vin(bottleneck_delay_ms=1e9, rtp_ms=3e9, duration_s=1.0, warmup_s=0.1),
     r"^links\[0\]\.prop_delay_ms: 1000000000\.0 is not allowed \(expected a number >= 0 and "
     r"<= 2\.4739e\+07 ms: 214,748,362 slots of 0\.0001152 s, as the engine's delay line of a "
     r"link holds at most 2\^30 packets, here up to 5 a slot\)$"),
    (lambda: Scenario(links=[Link(rate_bps=1e6, prop_delay_ms=1e300)], flows=[TcpFlow()],
                      duration_s=1.0),
     r"^links\[0\]\.prop_delay_ms: 1e\+300 is not allowed \(expected a number >= 0 and <= "
     r"1\.64927e\+09 ms: "),
    (lambda: Scenario(links=[Link(rate_bps=1e6)], flows=[TcpFlow()], duration_s=1e-3,
                      slot_s=1e-12),
     r"^slot_s: 1e-12 is not allowed \(expected a number >= 4\.66e-11 s: the delayed-ACK "
     r"timer, 0\.1 s, is an int32 count of slots\)$"),
    (lambda: Scenario(links=[Link(rate_bps=1e12)], flows=[TcpFlow()], duration_s=1e7,
                      slot_s=1e6),
     r"^slot_s: 1000000\.0 is not allowed \(expected a slot in which every link sends at most "
     r"2\^29 packets: links\[0\] would send up to 217,013,888,888,891\)$"),
    # (a slot given: the default, one packet at the access rate, would be refused first)
    (lambda: Scenario(links=[Link(rate_bps=1e6)], flows=[TcpFlow(access_rate_bps=1e30)],
                      duration_s=1.0, slot_s=4.608e-3),
     r"^links: too large for the engine: the arrivals at the links in one slot \(rate_bps, "
     r"access_rate_bps, peak_bps over packet sizes\) need 4\.61e\+18, above its limit of "
     r"2,147,483,647 \(batch shape stage_cap\)$"),
    (lambda: Scenario(links=[Link(rate_bps=1e6)], traffic=[
        Traffic(name=f"t{g}", flow=TcpFlow(), mean_interarrival_s=1.0, size_set_pkts=(1,),
                max_records=2**31 - 1) for g in range(3)], duration_s=1.0),
     r"^traffic: too large for the engine: the transfer records per replica "
     r"\(Traffic\.max_records, or each generator's expected transfers\) need 6,442,450,941, "
     r"above its limit of 2,147,483,647 \(batch shape max_transfers\)$"),
]


@pytest.mark.parametrize("make,pattern", SLOTS, ids=[f"slots{i}" for i in range(len(SLOTS))])
def test_times_and_capacities_beyond_the_engine_are_refused_by_pack(make, pattern):
    with pytest.raises(ConfigError, match=pattern):
        pack([make()], [0])


# --------------------------------------------------------------------------------------------
# 5. a count of seeds is checked before its list is made
# --------------------------------------------------------------------------------------------
def test_a_trillion_seeds_are_refused_before_they_are_listed():
    """Listing them first took 105 s and 11.9 GB for 10^8 and ended in a MemoryError for
    10^12: the size message comes from the counts, so nothing was listed."""
    from diffsweep.sweep.grid import Grid
    with pytest.raises(ConfigError, match=r"^grid: 2,000,000,000,000 replicas \(points x seeds\) "
                                          r"is above the limit of 2,000,000 replicas of one run; "
                                          r"use fewer points or seeds, or pass max_replicas=None "
                                          r"\(or --force\) to go ahead$"):
        Grid(kaur_vin, seeds=10**12, t_on_ms=[1.0, 2.0])
    # even without a limit, more than the free memory can list is refused, not a MemoryError
    with pytest.raises(ConfigError, match=r"^grid: 1,000,000,000,000 replicas \(points x seeds\) "
                                          r"cannot even be listed in the free memory \(about "
                                          r"130\.0 TB for their seeds and rows, .* free\); use "
                                          r"fewer points or seeds$"):
        Grid(kaur_vin, seeds=10**12, max_replicas=None)
    with pytest.raises(ConfigError, match=r"^grid: 3 replicas .* limit of 2 replicas"):
        Grid(kaur_vin, seeds=3, max_replicas=2)
    with pytest.raises(ConfigError, match=r"^max_replicas: 0 is not allowed \(expected an "
                                          r"integer >= 1, or None for no limit\)$"):
        Grid(kaur_vin, seeds=3, max_replicas=0)
    assert Grid(kaur_vin, seeds=3, max_replicas=3).seeds == [0, 1, 2]


TRILLION = HEAD.replace("seeds = 1", "seeds = 1000000000000") + "[axes]\nt_on_ms = [1.0, 2.0]\n"


def test_a_trillion_seeds_in_a_sweep_file(tmp_path, capsys):
    from diffsweep import run
    from diffsweep.sweep.config import load_sweep
    p = sweep(tmp_path, TRILLION)
    size = (r"sweep 'bad': 2,000,000,000,000 replicas \(points x seeds\) is above the limit of "
            r"2,000,000 replicas of one run; use fewer points or seeds, or pass --force "
            r"\(max_replicas=None\) to go ahead")
    rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out")
    assert rc == 2 and not (tmp_path / "out").exists()
    one_line_error(err, size + r" \(in .*s\.toml\)$")
    rc, _, err = cli_run(capsys, "run", sweep(tmp_path, HEAD, "one.toml"), "--out",
                         tmp_path / "out", "--seeds", 10**12)
    assert rc == 2
    one_line_error(err, r"sweep 'bad': 1,000,000,000,000 replicas \(points x seeds\) is above "
                        r"the limit of 2,000,000 replicas")
    rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out", "--force")
    assert rc == 2
    one_line_error(err, r"sweep 'bad': 2,000,000,000,000 replicas \(points x seeds\) cannot even "
                        r"be listed in the free memory")
    rc, out, err = cli_run(capsys, "run", p, "--out", tmp_path / "out", "--dry-run")
    assert rc == 0, err
    assert "seeds       : 1,000,000,000,000" in out and ("replicas    : 2,000,000,000,000 "
                                                        "(above the limit of 2,000,000") in out
    cfg = load_sweep(p)  # a count: loading lists nothing
    assert len(cfg.seeds) == 10**12 and cfg.seeds[:3] == [0, 1, 2] and cfg.n_replicas == 2 * 10**12
    with pytest.raises(ConfigError, match="^" + size + "$"):
        run(cfg)
    with pytest.raises(ConfigError, match=r"^sweep 'bad': 2,000,000,000,000 replicas .* cannot "
                                          r"even be listed"):
        run(cfg, force=True)
    assert not (tmp_path / "out").exists()


def test_a_count_of_seeds_is_the_list_it_stands_for(tmp_path):
    from diffsweep.sweep.config import load_sweep
    from diffsweep.core.identity import digest
    cfg = load_sweep(sweep(tmp_path, HEAD.replace("seeds = 1", "seeds = 3")))
    assert cfg.seeds == [0, 1, 2] and [0, 1, 2] == cfg.seeds and list(cfg.seeds) == [0, 1, 2]
    assert cfg.seeds != [0, 1] and cfg.make_grid().seeds == [0, 1, 2]
    assert cfg.effective()["seeds"] == [0, 1, 2]
    assert cfg.effective_sha256 == digest(cfg.effective())


# --------------------------------------------------------------------------------------------
# 6. the memory of a family's one engine call
# --------------------------------------------------------------------------------------------
def packed_bytes(grids, merge_shapes):
    """The input arrays pack makes for one simulate call over every replica of ``grids``, and
    the output arrays the engine returns for them (run_family's shapes): stopped before the
    engine runs."""
    import numpy as np

    from diffsweep.engine import compiled, execution as engine

    class Stop(Exception):
        pass
    seen = []
    real_pack, real_run = engine.pack, compiled.run_family

    def spy(scs, seeds, **kw):
        p = real_pack(scs, seeds, **kw)
        lay = layout()
        seen.append(sum(a.nbytes for a in p.arrays.values()) + sum(
            dt.itemsize * int(np.prod(lay.axes(dim, p.shape))) for dt, dim in lay.outputs.values()))
        return p

    def stop(*a, **k):
        raise Stop
    scs, seeds = [], []
    for g in grids.values():
        rows = g.replicas
        scs += [g.scenario(int(p), int(s)) for p, s in zip(rows["point"], rows["seed"])]
        seeds += rows["seed"].tolist()
    engine.pack, compiled.run_family = spy, stop
    try:
        with pytest.raises(Stop):
            engine.simulate(scs, seeds, backend="cpu", merge_shapes=merge_shapes)
    finally:
        engine.pack, compiled.run_family = real_pack, real_run
    return sum(seen)


@pytest.mark.parametrize("paper,families", [("matta-guo", ("M3", "M4", "M5", "M7")),
                                            ("kaur-vin", ("K5",))])
@pytest.mark.parametrize("merge_shapes", [False, True], ids=["apart", "merged"])
def test_the_family_memory_estimate_is_the_arrays_it_makes(paper, families, merge_shapes,
                                                           monkeypatch):
    """The one-call estimate was 8,044 MiB for the quick Matta & Guo family, whose arrays are
    227 MiB (1 kB per transfer record counted as a table row), so the call was skipped. Now:
    the arrays as simulate lays them out, on the CPU (one launch per shape) and as on CUDA
    (merged when padding costs little: the Matta & Guo web background's 384,504 transfer
    records keep the other replicas out of its launch, which the former rule let in)."""
    from diffsweep.sweep import config
    from diffsweep.engine import execution as engine  # arrays_bytes reads its launch_groups
    from diffsweep import papers
    from diffsweep.studies import family_call, reproduce_folder
    spec = papers.get(paper)
    names = [s for f in spec.families if f.id in families for s in f.sweeps]
    grids = {n: config.load_sweep(reproduce_folder._sweep_path(spec.package, n),
                                  quick=True).make_grid()
             for n in names}
    actual = packed_bytes(grids, merge_shapes)
    real = engine.launch_groups
    monkeypatch.setattr(engine, "launch_groups",
                        lambda scs, backend, merge=None: real(scs, backend, merge_shapes))
    estimate = family_call.family_arrays_bytes(grids, "cpu")
    assert actual <= estimate <= 2.5 * actual
    need = family_call.FAMILY_COPIES * estimate  # what the call's decision weighs
    assert need <= 2.5 * actual
    if paper == "matta-guo":
        assert 200 << 20 < actual < 260 << 20 and need < 1000 << 20  # not 8,044 MiB
        scs = [g.scenario(p, g.seeds[0]) for g in grids.values() for p in range(g.n_points)]
        # two launches even where shapes merge: one launch would pad the 126-flow replicas
        # to 384,504 transfer records (998 MiB of arrays)
        assert len(real(scs, "cpu", merge_shapes)) == 2


# Issue 23: inputs found by tests/bad_inputs.py's survey that hung or were silently wrong.

def test_an_on_off_period_below_a_microsecond_is_refused():
    """A 1e-300 ms mean on time made the engine toggle the source forever (it never ended)."""
    with pytest.raises(ConfigError, match=r"t_on_ms: 1e-300 is not allowed \(expected a number "
                                          r"of milliseconds >= 0.001"):
        kaur_vin(t_on_ms=1e-300)
    with pytest.raises(ConfigError, match=r"t_off_ms: 1e-06 is not allowed \(expected 0 \(always on\)"):
        OnOffSource(peak_bps=1e6, t_on_ms=1.0, t_off_ms=1e-6)
    assert OnOffSource(peak_bps=1e6, t_on_ms=1e-3, t_off_ms=0.0).t_off_ms == 0.0


def test_a_send_jitter_beyond_a_second_is_refused():
    """send_jitter_s = 1e300 overflowed the send timer and the run never ended."""
    with pytest.raises(ConfigError, match=r"send_jitter_s: 1e\+300 is not allowed \(expected a "
                                          r"number of seconds in 0..1"):
        kaur_vin(send_jitter_s=1e300)
    assert kaur_vin(send_jitter_s=1.0).flows[0].send_jitter_s == 1.0


def test_habib_trace_is_a_bool():
    """trace = "no" from a sweep file turned tracing on (any truthy value did)."""
    from diffsweep.papers.habib.scenario import habib_2a

    for bad in ("no", 1, 0.5):
        with pytest.raises(ConfigError, match=r"trace: .* is not allowed \(expected true or false\)"):
            habib_2a(trace=bad)
    assert not habib_2a(trace=False).trace_flows


def test_a_zip_column_may_repeat_a_value(tmp_path):
    """Rows of a zip group must differ, not the values of one column (buffer 6 at two rates)."""
    from diffsweep.sweep.config import load_sweep

    body = ('name = "z"\nbuilder = "kaur_vin"\nseeds = 1\nduration_s = 1.0\nwarmup_s = 0.5\n'
            '[[zip]]\nnames = ["n_flows", "buffer_bytes"]\nvalues = [[6, 6], [30000, 40000]]\n')
    (tmp_path / "z.toml").write_text(body)
    cfg = load_sweep(tmp_path / "z.toml")
    assert [tuple(r) for r in cfg.zips[0].values] == [(6, 30000), (6, 40000)]
    (tmp_path / "d.toml").write_text(body.replace("[30000, 40000]", "[30000, 30000]"))
    with pytest.raises(ConfigError, match=r"duplicate value"):
        load_sweep(tmp_path / "d.toml")


def test_a_two_dimensional_axis_is_named_in_one_line():
    from diffsweep.sweep.grid import Grid

    with pytest.raises(ConfigError) as e:
        Grid(kaur_vin, t_on_ms=np.ones((2, 2)))
    assert "\n" not in str(e.value) and "shape (2, 2)" in str(e.value)
