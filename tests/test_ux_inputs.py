"""What a user meets, round two (issue 23): inputs that used to run to nonsense or end in an
internal error are refused before any engine call, with one line naming the field, its value
and the allowed values."""
import re

import pytest

from diffsweep import cli
from diffsweep.errors import ConfigError
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow
from diffsweep.scenarios import kaur_vin


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


def sweep(tmp_path, text):
    p = tmp_path / "s.toml"
    p.write_text(text)
    return p


def one_link(**kw):
    return Scenario(links=[Link(rate_bps=1e6, classes=[QueueClass("be", limit_pkts=50)])],
                    flows=[TcpFlow()], **kw)


# --------------------------------------------------------------------------------------------
# 1. a run shorter than one time slot
# --------------------------------------------------------------------------------------------
SLOT = r"0\.0001152 s: the transmission time of a 576-byte packet on the fastest link, 4e\+07 b/s"


def test_a_run_shorter_than_one_slot_is_refused():
    with pytest.raises(ConfigError, match=r"^duration_s: 1e-06 is not allowed \(expected a "
                                          r"number >= 0\.0001152 s: the run must last at least "
                                          r"one time slot \(" + SLOT + r"\)\)$"):
        kaur_vin(duration_s=1e-6, warmup_s=0.0)
    # a slow link makes the slot longer than the run: the message says why the slot is long
    with pytest.raises(ConfigError, match=r"^duration_s: 100\.0 is not allowed \(expected a "
                                          r"number >= 4608 s: .* one time slot \(4608 s: the "
                                          r"transmission time of a 576-byte packet on the "
                                          r"fastest link, 1 b/s\)\)$"):
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
                                          r"\(expected an integer in 1\.\.2147483647\)$"):
        TcpFlow(access_buffer_pkts=0)


def test_a_sweep_file_with_a_zero_access_buffer(tmp_path, capsys):
    p = sweep(tmp_path, HEAD + "[fixed]\naccess_buffer_bytes = 0\n")
    rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out")
    assert rc == 2 and not (tmp_path / "out").exists()
    one_line_error(err, r"fixed\.access_buffer_bytes: 0 is not allowed \(expected None "
                        r"\(= buffer_bytes\) or an integer in 576\.\.")
