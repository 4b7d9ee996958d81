"""The command line's rough edges (issue 23): run options checked after the grid was built,
internal errors instead of messages (show --rows, plot --dpi / --out, an empty table, a full
disk while plotting), and show's wording."""
from __future__ import annotations

import errno
import json
import re

import pytest

from diffsweep import cli, engine, store
from diffsweep.config import SweepConfig

SMALL = """name = "small"
builder = "kaur_vin"
seeds = 3
duration_s = 2.0
warmup_s = 0.5
[fixed]
n_flows = 2
[axes]
ef = ["cbr", "onoff"]
t_on_ms = [0.4, 40.0]
"""

#: each sweep's [quick] shrunk to 2 seeds and a few seconds, so that a reproduction takes ~1 s
def cli_run(capsys, *args):
    rc = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(err: str, pattern: str) -> str:
    """Exactly one line on stderr, 'diffsweep: error: ...' matching ``pattern``, no traceback."""
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    assert "Traceback" not in err, err
    errors = [ln for ln in lines if ln.startswith("diffsweep: error: ")]
    assert len(errors) == 1 and len(lines) == 1, err
    assert re.search(pattern, errors[0]), errors[0]
    return errors[0]


@pytest.fixture
def no_work(monkeypatch):
    """Building a grid or calling the engine fails the test: the options must be refused
    before any of it."""
    def work(*a, **k):
        raise AssertionError("work started before the options were checked")

    for name in ("execute", "execute_many", "simulate", "run_packed"):
        monkeypatch.setattr(engine, name, work)
    monkeypatch.setattr(SweepConfig, "make_grid", work)


# --------------------------------------------------------------------------------------------
# 2. options checked before any work
# --------------------------------------------------------------------------------------------
BAD_RUN = [
    (["--threads", "-1"], r"--threads: -1 is not allowed \(expected an integer >= 0\)$"),
    (["--chunk-size", "0"], r"--chunk-size: 0 is not allowed \(expected an integer >= 1\)$"),
    (["--target-ci", "nan"], r"--target-ci: nan is not allowed \(expected a finite number > 0"),
    (["--target-ci", "0.1", "--max-seeds", "1"],
     r"--max-seeds: 1 is not allowed \(expected an integer >= 2\)$"),
    (["--target-ci", "0.1", "--seeds-per-round", "0"],
     r"--seeds-per-round: 0 is not allowed \(expected an integer >= 1\)$"),
]


@pytest.mark.parametrize("more,pattern", BAD_RUN, ids=[a[-2].strip("-") for a, _ in BAD_RUN])
def test_run_checks_its_options_before_building_the_grid(tmp_path, capsys, no_work, more,
                                                         pattern):
    (tmp_path / "s.toml").write_text(SMALL)
    rc, _, err = cli_run(capsys, "run", tmp_path / "s.toml", "--out", tmp_path / "out", *more)
    assert rc == 2
    one_line_error(err, pattern)
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------------------------
# 4. internal errors that are now messages
# --------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("uxcli")
    (d / "s.toml").write_text(SMALL)
    assert cli.main(["run", str(d / "s.toml"), "--out", str(d / "out"), "--quiet"]) == 0
    return d / "out"


BAD_LOOK = [
    (["show", "{dir}", "--rows", "-1"], r"--rows: -1 is not allowed \(expected an integer >= 1\)$"),
    (["show", "{dir}", "--rows", "0"], r"--rows: 0 is not allowed \(expected an integer >= 1\)$"),
    (["show", "{dir}", "--table", "intervals"],
     r"--table intervals: the intervals table of this folder is empty \(the sweep recorded no "
     r"intervals rows\); tables with rows: replicas, flows, queues, sources$"),
    (["plot", "{dir}", "--x", "t_on_ms", "--y", "goodput_bps", "--table", "intervals"],
     r"--table intervals: the intervals table of this folder is empty"),
    (["plot", "{dir}", "--x", "t_on_ms", "--y", "goodput_bps", "--dpi", "0"],
     r"--dpi: 0 is not allowed \(expected an integer from 10 to 1200\)$"),
    (["plot", "{dir}", "--x", "t_on_ms", "--y", "goodput_bps", "--dpi", "-5"],
     r"--dpi: -5 is not allowed \(expected an integer from 10 to 1200\)$"),
    (["plot", "{dir}", "--x", "t_on_ms", "--y", "goodput_bps", "--dpi", "100000"],
     r"--dpi: 100000 is not allowed \(expected an integer from 10 to 1200\)$"),
    (["plot", "{dir}", "--x", "t_on_ms", "--y", "goodput_bps", "--out", "{tmp}/x.txt"],
     r"--out: '.*x\.txt' is not allowed \(expected a file name ending in \.png, \.pdf, \.svg\)$"),
    (["plot", "{dir}", "--x", "t_on_ms", "--y", "goodput_bps", "--out", "{tmp}/x"],
     r"--out: '.*x' is not allowed \(expected a file name ending in \.png"),
]


@pytest.mark.parametrize("args,pattern", BAD_LOOK, ids=[f"look{i}" for i in range(len(BAD_LOOK))])
def test_show_and_plot_refuse_bad_options(folder, tmp_path, capsys, args, pattern):
    rc, _, err = cli_run(capsys, *[a.format(dir=folder, tmp=tmp_path) for a in args])
    assert rc == 2
    one_line_error(err, pattern)
    assert not list(tmp_path.iterdir())  # no figure file written


@pytest.mark.parametrize("ext,magic", [("png", b"\x89PNG"), ("pdf", b"%PDF"), ("svg", b"<?xml")])
def test_plot_writes_the_formats_it_names(folder, tmp_path, capsys, ext, magic):
    rc, out, err = cli_run(capsys, "plot", folder, "--x", "t_on_ms", "--y", "goodput_bps",
                           "--dpi", "10", "--out", tmp_path / f"f.{ext}")
    assert rc == 0, err
    assert (tmp_path / f"f.{ext}").read_bytes().startswith(magic)
    assert [p.name for p in tmp_path.iterdir()] == [f"f.{ext}"]


def full_disk(monkeypatch, victim: str):
    """Writing a file whose name ends in ``victim`` through diffsweep.store fails half-way
    with ENOSPC, as on a full disk: half the bytes reach the (temporary) file first."""
    real = open

    class Half:
        def __init__(self, f):
            self.f = f

        def write(self, data):
            self.f.write(data[:len(data) // 2])
            self.f.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.f, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    def fake(path, mode="r", *a, **k):
        f = real(path, mode, *a, **k)
        return Half(f) if "w" in mode and str(path).endswith(victim) else f

    monkeypatch.setattr(store, "open", fake, raising=False)


def test_a_full_disk_while_plotting_leaves_no_file(folder, tmp_path, capsys, monkeypatch):
    full_disk(monkeypatch, "f.pdf")
    rc, _, err = cli_run(capsys, "plot", folder, "--x", "t_on_ms", "--y", "goodput_bps",
                         "--out", tmp_path / "f.pdf")
    assert rc == 1
    one_line_error(err, r"f\.pdf: cannot write the figure \(No space left on device\); the disk "
                        r"is full")
    assert not list(tmp_path.iterdir())


# --------------------------------------------------------------------------------------------
# 5. wording
# --------------------------------------------------------------------------------------------
def test_show_says_threads_and_seeds_in_words(tmp_path, capsys):
    (tmp_path / "s.toml").write_text(SMALL.replace("seeds = 3", "seeds = 1"))
    rc, _, err = cli_run(capsys, "run", tmp_path / "s.toml", "--out", tmp_path / "o", "--quiet",
                         "--threads", "1")
    assert rc == 0, err
    rc, out, err = cli_run(capsys, "show", tmp_path / "o")
    assert rc == 0, err
    assert "(1 seed per point)" in out and ", 1 thread, " in out
    assert "threads 0" not in out and "1 seeds" not in out
    m = json.loads((tmp_path / "o" / "manifest.json").read_text())
    for r in m["runs"]:  # a folder that never said how many threads the engine used
        r["meta"].pop("threads")
    m["threads"] = 0
    (tmp_path / "o" / "manifest.json").write_text(json.dumps(m))
    rc, out, err = cli_run(capsys, "show", tmp_path / "o")
    assert "threads: the default (all OpenMP threads)" in out

