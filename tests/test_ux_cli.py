"""The command line's rough edges (issue 23): a reproduction that overwrote another paper's
report, options checked after the work, empty folders left behind, internal errors instead of
messages (show --rows, plot --dpi / --out, a full disk while writing figures), and small
wording and documentation slips."""
from __future__ import annotations

import errno
import json
import re
from pathlib import Path

import pytest

import diffsweep
from diffsweep.core import atomic
from diffsweep.cli import app as cli
from diffsweep.engine import compiled, execution as engine
from diffsweep import papers
from diffsweep.studies import reproduce as rp
from diffsweep.sweep.config import SweepConfig
from test_ux import SMALL  # the same small sweep as the first round

ROOT = Path(__file__).resolve().parents[1]

#: each sweep's [quick] shrunk to 2 seeds and a few seconds, so that a reproduction takes ~1 s
SHRINK = {"k2": [(r"seeds = \d+", "seeds = 2"), (r"duration_s = [\d.]+", "duration_s = 3.0"),
                 (r"warmup_s = [\d.]+", "warmup_s = 1.0")],
          "r2": [(r"t_stop_s = [\d.]+", "t_stop_s = 20.0"),
                 (r"t_halt_s = [\d.]+", "t_halt_s = 40.0")]}


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


def shrunk_sweeps(dest: Path) -> Path:
    """dest/sweeps/<package>/<name>.toml: the packaged k2 and r2 with a tiny [quick]."""
    for package, name in (("kaur_vin", "k2"), ("rossi", "r2")):
        head, quick = (ROOT / f"sweeps/{package}/{name}.toml").read_text().split("[quick]", 1)
        for pattern, repl in SHRINK[name]:
            quick = re.sub(pattern, repl, quick, count=1)
        (dest / "sweeps" / package).mkdir(parents=True, exist_ok=True)
        (dest / "sweeps" / package / f"{name}.toml").write_text(head + "[quick]" + quick)
    return dest / "sweeps"


def reproduce_args(paper: str, out, sweeps, *more):
    return ["reproduce", paper, "--figure", "2", "--quick", "--out", out, "--backend", "cpu",
            "--quiet", "--sweeps", sweeps, *more]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def kv(tmp_path_factory):
    """A quick Kaur & Vin reproduction of figure 2 (module-wide; tests copy it to change it)."""
    d = tmp_path_factory.mktemp("kv")
    sweeps = shrunk_sweeps(d)
    assert cli.main([str(a) for a in reproduce_args("kaur-vin", d / "out", sweeps)]) == 0
    return d / "out", sweeps


@pytest.fixture
def no_work(monkeypatch):
    """Building a grid or calling the engine fails the test: the options must be refused
    before any of it."""
    def work(*a, **k):
        raise AssertionError("work started before the options were checked")

    for name in ("execute", "execute_many", "simulate"):
        monkeypatch.setattr(engine, name, work)
    monkeypatch.setattr(compiled, "run_packed", work)
    monkeypatch.setattr(SweepConfig, "make_grid", work)


# --------------------------------------------------------------------------------------------
# 1. one folder, one paper
# --------------------------------------------------------------------------------------------
def test_reproduce_refuses_a_folder_of_another_paper(kv, tmp_path, capsys):
    out, sweeps = kv
    before = snapshot(out)
    assert json.loads((out / rp.MARKER).read_text()) == {"paper": "kaur-vin"}
    rc, _, err = cli_run(capsys, *reproduce_args("rossi", out, sweeps))
    assert rc == 2
    one_line_error(err, rf"--out: {re.escape(str(out))} holds the kaur-vin reproduction \(its "
                        r"report\.md, report\.html and verdicts\.json would be overwritten by "
                        r"rossi's\); one folder holds one paper: choose another output folder, "
                        r"e\.g\. --out results/rossi-quick$")
    assert snapshot(out) == before and not (out / "r2").exists()


def test_a_folder_from_before_the_marker_is_recognised(kv, tmp_path, capsys):
    out, sweeps = kv
    old = tmp_path / "old"
    old.mkdir()
    for f in rp.REPORT_FILES:  # a folder written before reproduce.json existed
        (old / f).write_bytes((out / f).read_bytes())
    before = snapshot(old)
    rc, _, err = cli_run(capsys, *reproduce_args("rossi", old, sweeps))
    assert rc == 2
    one_line_error(err, r"holds the kaur-vin reproduction .* e\.g\. --out results/rossi-quick")
    assert snapshot(old) == before
    (old / "report.md").unlink()  # verdicts.json alone: its claim ids name the paper
    assert rp.folder_paper(old) == "kaur-vin"
    (old / "verdicts.json").write_text('{"X1": {}}')
    rc, _, err = cli_run(capsys, *reproduce_args("rossi", old, sweeps))
    assert rc == 2
    one_line_error(err, r"holds an unknown paper \(its report\.md")


def test_the_same_paper_resumes_in_its_folder(kv, tmp_path, capsys):
    out, sweeps = kv
    runs = len(json.loads((out / "k2" / "manifest.json").read_text())["runs"])
    # --redraw: the sweeps are read through their stores (a plain rerun keeps the report made
    # from the same results: tests/test_host_side.py)
    rc, _, err = cli_run(capsys, *reproduce_args("kaur-vin", out, sweeps, "--redraw"))
    assert rc == 0, err
    manifest = json.loads((out / "k2" / "manifest.json").read_text())
    assert len(manifest["runs"]) == runs + 1 and manifest["runs"][-1]["meta"]["replicas_run"] == 0
    assert json.loads((out / rp.MARKER).read_text()) == {"paper": "kaur-vin"}


# --------------------------------------------------------------------------------------------
# 2. options checked before any work; 3. no empty folder left behind
# --------------------------------------------------------------------------------------------
def _cuda_usable() -> bool:
    try:
        compiled.resolve_backend("cuda")
    except diffsweep.core.errors.DiffsweepError:
        return False
    return True


BAD_REPRODUCE = [
    (["--threads", "-1"], 2, r"--threads: -1 is not allowed \(expected an integer from 0 \(all cores\) to 1024\)$"),
    (["--seeds", "0"], 2, r"--seeds: 0 is not allowed \(expected an integer >= 1\)$"),
    (["--figure", "99"], 2, r"--figure: \['99'\] is not allowed \(expected some of 2, 3, 4"),
    (["--sweeps", "{tmp}/nowhere"], 2, r"--sweeps: '.*nowhere' is not a folder"),
    (["--sweeps", "{tmp}"], 2, r"--sweeps: kaur_vin/k2\.toml is not in .* \(expected "
                               r".*/kaur_vin/k2\.toml\)$"),
    (["--backend", "cuda"], 1, r"backend 'cuda': "),
]


@pytest.mark.parametrize("more,code,pattern", BAD_REPRODUCE,
                         ids=[a[0].strip("-") for a, _, _ in BAD_REPRODUCE])
def test_reproduce_checks_every_option_before_any_work(tmp_path, capsys, no_work, more, code,
                                                       pattern):
    if "cuda" in more and _cuda_usable():
        pytest.skip("CUDA works here: --backend cuda is not a bad option")
    args = ["reproduce", "kaur-vin", "--quick", "--out", tmp_path / "a" / "out", "--quiet",
            *[m.format(tmp=tmp_path) for m in more]]
    if "--figure" not in more:
        args += ["--figure", "2"]
    rc, _, err = cli_run(capsys, *args)
    assert rc == code
    one_line_error(err, pattern)
    assert not (tmp_path / "a").exists()


BAD_RUN = [
    (["--threads", "-1"], r"--threads: -1 is not allowed \(expected an integer from 0 \(all cores\) to 1024\)$"),
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


def test_a_failed_reproduction_leaves_no_empty_folder(tmp_path, capsys, monkeypatch):
    sweeps = shrunk_sweeps(tmp_path)

    def boom(*a, **k):
        raise RuntimeError("engine failed")

    monkeypatch.setattr(engine, "execute", boom)
    monkeypatch.setattr(engine, "execute_many", boom)
    rc, _, err = cli_run(capsys, *reproduce_args("kaur-vin", tmp_path / "a" / "b" / "out",
                                                 sweeps))
    assert rc == 1 and "RuntimeError: engine failed" in err
    assert not (tmp_path / "a").exists()  # every folder the command created is gone
    mine = tmp_path / "mine"  # a folder that was there stays, as it was: empty
    mine.mkdir()
    rc, _, err = cli_run(capsys, *reproduce_args("kaur-vin", mine, sweeps))
    assert rc == 1 and mine.is_dir() and not any(mine.iterdir())


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
                           "--hue", "ef", "--dpi", "10", "--out", tmp_path / f"f.{ext}")
    assert rc == 0, err
    assert (tmp_path / f"f.{ext}").read_bytes().startswith(magic)
    assert [p.name for p in tmp_path.iterdir()] == [f"f.{ext}"]


def full_disk(monkeypatch, victim: str):
    """Writing a file whose name ends in ``victim`` through diffsweep.core.atomic fails half-way
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

    monkeypatch.setattr(atomic, "open", fake, raising=False)


def test_a_full_disk_while_writing_figures_keeps_what_was_written(kv, tmp_path, capsys,
                                                                   monkeypatch):
    src, sweeps = kv
    out = tmp_path / "out"
    out.mkdir()
    for f, data in snapshot(src).items():
        (out / f).parent.mkdir(parents=True, exist_ok=True)
        (out / f).write_bytes(data)
    before = snapshot(out)
    full_disk(monkeypatch, "kaur_vin_fig2.pdf")
    args = reproduce_args("kaur-vin", out, sweeps, "--redraw")  # (else the report is kept)
    rc, _, err = cli_run(capsys, *args)
    assert rc == 1
    one_line_error(err, rf"{re.escape(str(out / 'figures' / 'kaur_vin_fig2.pdf'))}: cannot "
                        r"write the figure \(No space left on device\); the disk is full: free "
                        rf"some space, then rerun to resume\. Kept: the results of the sweeps k2 "
                        rf"in {re.escape(str(out))} \(a rerun computes nothing again\) and 0 "
                        r"figure files written; the report \(report\.md, report\.html, "
                        r"verdicts\.json\) is as it was before this run\. Resume with: "
                        r"diffsweep reproduce kaur-vin --figure 2 --quick")
    after = snapshot(out)
    # no temporary or truncated file; the figures and the report are the previous ones
    assert not [f for f in after if ".tmp-" in f], after.keys()
    for f in ("figures/kaur_vin_fig2.png", "figures/kaur_vin_fig2.pdf", *rp.REPORT_FILES):
        assert after[f] == before[f], f
    assert after["figures/kaur_vin_fig2.pdf"].rstrip().endswith(b"%%EOF")
    # the report too: all three stay as they were when one of them cannot be written
    monkeypatch.undo()
    full_disk(monkeypatch, "report.html")
    rc, _, err = cli_run(capsys, *args)
    assert rc == 1
    one_line_error(err, r"report\.html: cannot write the report \(No space left on device\).*"
                        r"and 2 figure files written; the report .* is as it was before")
    after = snapshot(out)
    assert not [f for f in after if ".tmp-" in f]
    assert all(after[f] == before[f] for f in rp.REPORT_FILES)
    monkeypatch.undo()
    rc, _, err = cli_run(capsys, *args)  # space again: the rerun resumes and finishes
    assert rc == 0, err
    assert json.loads((out / "k2" / "manifest.json").read_text())["runs"][-1]["meta"][
        "replicas_run"] == 0


def test_a_full_disk_while_plotting_leaves_no_file(folder, tmp_path, capsys, monkeypatch):
    full_disk(monkeypatch, "f.pdf")
    rc, _, err = cli_run(capsys, "plot", folder, "--x", "t_on_ms", "--y", "goodput_bps",
                         "--hue", "ef", "--out", tmp_path / "f.pdf")
    assert rc == 1
    one_line_error(err, r"f\.pdf: cannot write the figure \(No space left on device\); the disk "
                        r"is full")
    assert not list(tmp_path.iterdir())


# --------------------------------------------------------------------------------------------
# 5. wording, partial data, where the sweep files come from, documentation
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


def test_families_not_run_are_not_rated(kv):
    out, _ = kv
    v = json.loads((out / "verdicts.json").read_text())
    assert v["K2.1"]["status"] != "not measured"
    # K10 reads the flows of k2, k4, k7_*: from k2 alone it used to be rated
    assert v["K10.1"]["status"] == "not measured"
    assert v["K10.1"]["reason"] == ("not rated: figure 10 (sweeps k2, k4, k7_equal, k7_unequal) "
                                    "was not run by this reproduction (--figure 2)")
    md = (out / "report.md").read_text()
    assert ("Not rated: figure 10 (sweeps k2, k4, k7_equal, k7_unequal) was not run by this "
            "reproduction (--figure 2): its claims are not measured.") in md


def test_reproduce_reads_the_packaged_sweeps_not_the_working_directory(tmp_path,
                                                                         monkeypatch):
    (tmp_path / "sweeps" / "kaur_vin").mkdir(parents=True)
    (tmp_path / "sweeps" / "kaur_vin" / "k2.toml").write_text("not a sweep")
    monkeypatch.chdir(tmp_path)
    from diffsweep.studies import reproduce_folder as rf
    got = rf._sweep_path("kaur_vin", "k2")
    assert got in (rf.SWEEPS_DIR / "kaur_vin" / "k2.toml",
                   rf.CHECKOUT_SWEEPS / "kaur_vin" / "k2.toml")
    assert rf._sweep_path("kaur_vin", "k2", tmp_path / "sweeps") == \
        tmp_path / "sweeps" / "kaur_vin" / "k2.toml"
    cmake = (ROOT / "CMakeLists.txt").read_text()
    assert "takes precedence" not in cmake and "--sweeps DIR" in cmake


def test_readme_names_every_paper_and_the_demo_as_it_is():
    readme = (ROOT / "README.md").read_text()
    # the command line's description moved from the README into the docs (issue 50)
    pages = "".join((ROOT / "docs" / p).read_text() for p in ("reproduce.md", "first-sweep.md"))
    line = next(ln for ln in pages.splitlines() if ln.startswith("- `diffsweep reproduce "))
    for name in papers.names():
        assert name in line, (name, line)
        assert f"`diffsweep reproduce {name}`" in readme, name
    assert "ten-second" not in readme + pages
    assert "`diffsweep demo`: a built-in sweep of about a second" in pages
    fences = re.findall(r"```bash\n(.*?)\n```", readme, re.S)
    assert fences[:2] == [
        'python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/diffsweep reproduce '
        'kaur-vin --quick',
        'python3 -m venv .venv && .venv/bin/pip install ".[test]" && .venv/bin/python -m pytest']


@pytest.mark.parametrize("cmd", ["", "info", "demo", "run", "reproduce", "atlas", "sensitivity",
                                 "show", "plot", "export", "repair", "builders"])
def test_help_prints_percent_signs_once(cmd, capsys):
    """argparse %-formats an option's help but not a parser's description: "95%%" in a
    description was printed as is (issue 53, `diffsweep atlas/plot/show --help`)."""
    with pytest.raises(SystemExit) as e:
        cli.main([c for c in (cmd, "--help") if c])
    assert e.value.code == 0
    text = capsys.readouterr().out
    assert "%%" not in text
    if cmd in ("atlas", "plot", "show", "run"):
        assert "95%" in text


class _NoDevice:
    """The CUDA module of a machine without a GPU."""

    @staticmethod
    def device_count() -> int:
        return 0


@pytest.mark.parametrize("cuda", [None, _NoDevice()], ids=["not-built", "no-device"])
def test_the_no_cuda_error_speaks_the_command_line(cuda, tmp_path, capsys, monkeypatch):
    """It said "use backend='cpu'" to a user of `diffsweep run --backend cuda` (issue 53)."""
    from diffsweep.engine import compiled

    real = compiled._module
    monkeypatch.setattr(compiled, "_module", lambda n: cuda if n == "cuda" else real(n))
    sweep = tmp_path / "s.toml"
    sweep.write_text('builder = "dumbbell"\nseeds = 1\nduration_s = 2.0\nwarmup_s = 0.5\n')
    assert cli.main(["run", str(sweep), "--out", str(tmp_path / "out"), "--backend",
                     "cuda"]) == 1  # a backend error's status (a bad input's is 2)
    err = capsys.readouterr().err
    assert "--backend cpu" in err and err.count("\n") == 1, err
    if cuda is None:  # not built: since issue 53 the default on nvcc without a device; say how
        assert "-C cmake.define.DIFFSWEEP_CUDA=ON" in err and "no nvcc" not in err, err
    assert not (tmp_path / "out").exists()


def test_info_says_how_to_build_the_cuda_engine(capsys, monkeypatch):
    """`diffsweep info` without a CUDA engine said "no nvcc at build time", also where nvcc
    was there and no device (issue 53's default builds none then)."""
    from diffsweep.engine import compiled

    real = compiled._module
    monkeypatch.setattr(compiled, "_module", lambda n: None if n == "cuda" else real(n))
    assert cli.main(["info"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("CUDA"))
    assert "not built (no nvcc or no CUDA device at build time" in line, line
    assert "pip install . -C cmake.define.DIFFSWEEP_CUDA=ON" in line, line
