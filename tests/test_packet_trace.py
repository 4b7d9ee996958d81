"""Packet traces of chosen replicas (issue 53, "Must show 3"; docs/traces.md).

A replica rerun on the CPU engine built with its event hooks (diffsweep._engine_cpu_events)
gives its stored tables bit for bit; its ns-2 trace's + / - / d / r lines count what the queues
and flows tables count; its pcap file is read by an existing library, dpkt (every record
parsed), and by tshark where it is installed; the trace and its time-sequence graph are made by
the command line.
"""
from __future__ import annotations

import collections
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from diffsweep.cli import app as cli
from diffsweep.engine import compiled, events
from diffsweep.engine.pack import pack
from diffsweep.sweep.config import loads_sweep
from diffsweep.sweep.packet_trace import trace

dpkt = pytest.importorskip("dpkt")  # the `test` extra (pyproject.toml)

pytestmark = pytest.mark.skipif(compiled._module("cpu_events") is None,
                                reason="diffsweep._engine_cpu_events not built")

DUMBBELL = """name = "t_dumbbell"
builder = "dumbbell"
seeds = 2
duration_s = 4.0
warmup_s = 1.0
[fixed]
n_flows = 8
tcp = "newreno"
[axes]
aqm = ["droptail", "red", "codel"]
"""

#: two links in a chain: long flows cross both (their packets' 'r' at link 0 is their '+' at
#: link 1), cross flows one each
PARKING = """name = "t_parking"
builder = "parking_lot"
seeds = 1
duration_s = 3.0
warmup_s = 1.0
[fixed]
tcp = "newreno"
n_long = 2
n_cross = 2
n_links = 2
bottleneck_bps = 10e6
[axes]
aqm = ["droptail", "red"]
"""

#: EF on-off sources beside TCP (class "ef": DSCP 46)
EF = """name = "t_ef"
builder = "kaur_vin"
seeds = 1
duration_s = 2.0
warmup_s = 0.5
[fixed]
n_flows = 2
ef = "onoff"
t_on_ms = 10.0
"""


def _folder(tmp_path_factory, name: str, text: str) -> Path:
    d = tmp_path_factory.mktemp(name)
    (d / "s.toml").write_text(text)
    assert cli.main(["run", str(d / "s.toml"), "--out", str(d / "out"), "--quiet",
                     "--backend", "cpu"]) == 0
    return d / "out"


@pytest.fixture(scope="module")
def dumbbell(tmp_path_factory):
    return _folder(tmp_path_factory, "dumbbell", DUMBBELL)


@pytest.fixture(scope="module")
def parking(tmp_path_factory):
    return _folder(tmp_path_factory, "parking", PARKING)


def _ns2(text: str) -> list[list[str]]:
    """The lines of an ns-2 trace split as awk does ($1 .. $12), notes (#) left out."""
    return [ln.split() for ln in text.splitlines() if ln and not ln.startswith("#")]


def _measured(lines, warmup_s: float):
    return [ln for ln in lines if float(ln[1]) >= warmup_s]


@pytest.mark.parametrize("point", [0, 1, 2], ids=["droptail", "red", "codel"])
def test_the_rerun_gives_the_stored_tables_and_the_ns2_lines_count_them(dumbbell, point):
    t = trace(dumbbell, point, 1, "ns2")
    assert t.stored == "same"
    assert not t.recording.truncated
    rep = t.tables.replicas.iloc[0]
    lines = _ns2(t.data)
    assert all(len(ln) == 12 for ln in lines)
    times = [float(ln[1]) for ln in lines]
    assert times == sorted(times)
    q = t.tables.queues
    assert len(q) == 1  # the dumbbell's bottleneck: link 0 is node 0 -> node 1
    at = [ln for ln in _measured(lines, rep.warmup_s) if ln[2:4] == ["0", "1"]]
    count = collections.Counter(ln[0] for ln in at)
    assert count["+"] == q.arrivals.iloc[0]
    # its only link: every departure is received, at the end of its slot (docs/traces.md)
    late = [ln for ln in at if ln[0] == "r" and float(ln[1]) > rep.warmup_s + rep.slot_s / 2]
    assert len(late) == q.departures.iloc[0]
    # a '-' is the start of the packet's transmission (ns-2's dequeue), which with slots
    # shorter than a packet can lie before the warm-up's end while the departure counted, at
    # the transmission's end, lies after it: the '-' of each received packet
    starts = {ln[11] for ln in lines if ln[0] == "-" and ln[2:4] == ["0", "1"]}
    assert len(starts & {ln[11] for ln in late}) == q.departures.iloc[0]
    assert count["-"] <= q.departures.iloc[0]
    drops = [ln for ln in at if ln[0] == "d"]
    reason = collections.Counter(ln[6][3] for ln in drops)
    assert reason["b"] == q.drops.iloc[0]  # the buffer
    early = sum(q[f"early_drops_{c}"].iloc[0] for c in ("green", "yellow", "red"))
    forced = sum(q[f"forced_drops_{c}"].iloc[0] for c in ("green", "yellow", "red"))
    assert reason["e"] == early
    assert reason["f"] + reason["b"] == forced
    assert len(drops) == q.all_drops.iloc[0] + q.random_drops.iloc[0]
    assert (early > 0) == (point > 0)  # RED at arrival, CoDel at dequeue (its heads' 'd')
    fl = t.tables.flows
    per_flow = collections.Counter(int(ln[7]) for ln in drops)
    for f, d in zip(fl.flow, fl.drops):  # unlimited access buffers: every loss is the link's
        assert per_flow[int(f)] == d
    # ACKs: from each flow's receiver node to its sender node, one '+', '-' and 'r' each
    acks = [ln for ln in lines if ln[4] == "ack"]
    assert acks and all(int(ln[2]) == int(ln[3]) + 1 for ln in acks)
    ack_count = collections.Counter(ln[0] for ln in acks)
    assert ack_count["+"] == ack_count["-"] >= ack_count["r"] > 0


def test_a_packet_keeps_its_id_from_link_to_link(parking):
    t = trace(parking, 0, 0, "ns2")
    assert t.stored == "same"
    lines = _ns2(t.data)
    q = t.tables.queues
    warm = t.tables.replicas.warmup_s.iloc[0]
    for link in (0, 1):
        at = [ln for ln in _measured(lines, warm) if ln[2:4] == [str(link), str(link + 1)]]
        count = collections.Counter(ln[0] for ln in at)
        row = q[q.link == link].iloc[0]
        assert (count["+"], count["-"]) == (row.arrivals, row.departures)
    # every packet that crossed link 0 and reached link 1: 'r' at 0 -> 1 at the time of its '+'
    # at 1 -> 2, with the same id; and each link's events in the order + (d | - r)
    events_of = collections.defaultdict(list)
    for ln in lines:
        if ln[4] == "tcp":
            events_of[ln[11]].append((ln[0], ln[2], float(ln[1])))
    crossed = 0
    for seq in events_of.values():
        for (e1, n1, t1), (e2, n2, t2) in zip(seq, seq[1:]):
            assert t1 <= t2
            if e1 == "r" and n1 == "0":
                assert (e2, n2, t2) == ("+", "1", t1)
                crossed += 1
    assert crossed > 100


def test_the_pcap_is_read_by_dpkt_and_counts_the_link_departures(dumbbell, tmp_path):
    t = trace(dumbbell, 1, 0, "pcap", out=tmp_path / "t.pcap")
    ns2 = _ns2(trace(dumbbell, 1, 0, "ns2").data)
    assert t.stored == "same"
    sent = collections.Counter(int(ln[7]) for ln in ns2 if ln[0] == "-" and ln[4] == "tcp")
    acks = collections.Counter(int(ln[7]) for ln in ns2 if ln[0] == "-" and ln[4] == "ack")
    warm = t.tables.replicas.warmup_s.iloc[0]
    got_data, got_acks, measured = collections.Counter(), collections.Counter(), 0
    with open(tmp_path / "t.pcap", "rb") as fh:
        reader = dpkt.pcap.Reader(fh)
        assert reader.datalink() == 101  # LINKTYPE_RAW: IPv4
        for ts, buf in reader:
            ip = dpkt.ip.IP(buf)
            assert isinstance(ip.data, dpkt.tcp.TCP)
            src = ip.src  # 10.1.x.y: flow x.y's sender; 10.2.x.y its receiver
            assert src[0] == 10 and src[1] in (1, 2)
            flow = src[2] << 8 | src[3]
            if src[1] == 1:
                got_data[flow] += 1
                measured += float(ts) >= warm
                assert ip.tos >> 2 == 0  # best effort
                assert ip.len == 40 + len(ip.data.data) or ip.len >= 40
            else:
                got_acks[flow] += 1
    assert got_data == sent and got_acks == acks
    assert measured == t.tables.queues.departures.iloc[0]


def test_the_pcap_marks_ef_with_its_code_point(tmp_path):
    (tmp_path / "ef.toml").write_text(EF)
    t = trace(tmp_path / "ef.toml", 0, 0, "pcap", out=tmp_path / "ef.pcap")
    assert t.stored == "not stored"
    # the same replica from a Python Grid
    assert trace(loads_sweep(EF).make_grid(), 0, 0, "pcap").data == t.data
    udp = tcp = 0
    with open(tmp_path / "ef.pcap", "rb") as fh:
        for _, buf in dpkt.pcap.Reader(fh):
            ip = dpkt.ip.IP(buf)
            if isinstance(ip.data, dpkt.udp.UDP):
                udp += 1
                assert ip.tos >> 2 == 46  # EF (RFC 3246)
            else:
                tcp += 1
                assert ip.tos >> 2 == 0
    assert udp > 0 and tcp > 0


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark not installed")
def test_tshark_reads_the_pcap(dumbbell, tmp_path):
    t = trace(dumbbell, 0, 0, "pcap", out=tmp_path / "t.pcap")
    n = sum(1 for _ in dpkt.pcap.Reader(open(tmp_path / "t.pcap", "rb")))
    out = subprocess.run(["tshark", "-r", str(tmp_path / "t.pcap"), "-T", "fields", "-e",
                          "tcp.seq_raw"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert len(out.stdout.split()) == n == len(t.recording.events[
        t.recording.events["kind"] == ord("-")])


def test_the_cap_truncates_with_a_note_and_the_tables_stay_whole(dumbbell):
    whole = trace(dumbbell, 0, 0, "ns2")
    cut = trace(dumbbell, 0, 0, "ns2", max_event_bytes=32 * 100)
    assert cut.recording.truncated and len(cut.recording.events) <= 100
    assert cut.stored == "same"
    assert cut.data.splitlines()[-1].startswith("# trace truncated at t = ")
    assert cut.data.splitlines()[:50] == whole.data.splitlines()[:50]
    early = trace(dumbbell, 0, 0, "ns2", until_s=1.5)
    assert not early.recording.truncated
    assert all(float(ln[1]) < 1.5 for ln in _ns2(early.data))
    assert _ns2(early.data) == [ln for ln in _ns2(whole.data) if float(ln[1]) < 1.5]


@pytest.mark.parametrize("lanes,clip", [(1, 4096), (2, 7), (4, 1)])
def test_the_events_do_not_depend_on_the_schedule(lanes, clip):
    """The hooks are on the queue side, which one lane runs slot by slot: the same events
    whatever the team of lanes or where rounds end (tests/test_schedule.py's matrix)."""
    cfg = loads_sweep(PARKING)
    sc = cfg.make_grid().scenario(1, 0)
    m = compiled._module("cpu_events")
    ref = events.record(sc, 0)
    p = pack([sc], [0], lanes=lanes)
    _, ev = m.run_events({**p.shape, "clip_slots": clip}, compiled._flat(p),
                         events.MAX_EVENT_BYTES, np.inf)
    got = np.frombuffer(ev[0][0], dtype=events.EVENT_DTYPE)
    got = got[np.argsort(got["t_slots"], kind="stable")]
    assert np.array_equal(got, ref.events[list(events.EVENT_DTYPE.names)].astype(
        events.EVENT_DTYPE))


def test_the_command_line_writes_the_trace_and_its_plot(dumbbell, tmp_path, capsys):
    out = tmp_path / "r.tr"
    assert cli.main(["trace", str(dumbbell), "--point", "1", "--seed", "0", "-o",
                     str(out)]) == 0
    err = capsys.readouterr().err
    assert "equal the folder's stored ones bit for bit" in err
    assert out.read_text().startswith("+ ")
    assert cli.main(["trace", str(dumbbell), "--point", "1", "--seed", "0", "-o",
                     str(tmp_path / "r.pcap")]) == 0  # the format from the name
    assert (tmp_path / "r.pcap").read_bytes()[:4] == b"\x4d\x3c\xb2\xa1"
    for f in ("r.tr", "r.pcap"):
        fig = tmp_path / f"{f}.png"
        assert cli.main(["plot-trace", str(tmp_path / f), "-o", str(fig)]) == 0
        assert fig.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_codel_drops_a_head_after_it_waited_and_never_before_it_arrived(dumbbell):
    """CoDel's 'd' of a queued head (at dequeue): each after that packet's '+' at the link,
    with no '-' of it (a dropped head never leaves on the wire)."""
    t = trace(dumbbell, 2, 0, "ns2")
    lines = [ln for ln in _ns2(t.data) if ln[2:4] == ["0", "1"]]
    plus = {ln[11]: float(ln[1]) for ln in lines if ln[0] == "+"}
    drops = [ln for ln in lines if ln[0] == "d" and ln[6][3] == "e"]
    assert drops
    left = {ln[11] for ln in lines if ln[0] == "-"}
    for ln in drops:
        assert float(ln[1]) >= plus[ln[11]] and ln[11] not in left
