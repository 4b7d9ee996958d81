"""The results folder under faults (issue 23): SIGTERM, --break-lock against a live run, a lost or
damaged manifest.json (diffsweep repair), damaged and repeated chunks in show / export / plot."""
import fcntl
import json
import os
import pty
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import termios
import threading
import time
import warnings

import pandas as pd
import pytest

import diffsweep
from diffsweep.cli import app as cli
from diffsweep.engine import execution as engine
from diffsweep.sweep.config import load_sweep
from diffsweep.core.errors import ConfigError, FolderBusy, Terminated
from diffsweep.sweep.runner import run
from diffsweep.sweep.store import LOCK, Store
from test_ux import (BIG_ONE_CHUNK, SMALL, assert_same, cli_run, one_line_error, start_cli,
                     sweep, wait_started)


def no_python_noise(err: str):
    """What a user must never see: a traceback, a raw UserWarning, a source path."""
    assert "Traceback" not in err and "UserWarning" not in err and "warnings.warn" not in err, err
    assert not re.search(r"\.py:\d+", err), err


def cli_sub(tmp_path, *args):
    """The command line in a subprocess: Python's own warning display is not pytest's there."""
    proc = subprocess.run([sys.executable, "-m", "diffsweep.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def done_jsons(folder):
    """The finished chunks' .done.json files (not a write in progress: .tmp-*)."""
    if not (folder / "chunks").is_dir():
        return []
    return sorted(f for f in (folder / "chunks").glob("*.done.json")
                  if not f.name.startswith("."))


@pytest.fixture(scope="module")
def small_folder(tmp_path_factory):
    """SMALL in 3 chunks of 4 replicas (points 0..3 x seeds 0..2), written once and copied."""
    d = tmp_path_factory.mktemp("store_ux")
    p = sweep(d)
    assert cli.main(["run", str(p), "--out", str(d / "out"), "--quiet", "--chunk-size", "4"]) == 0
    return d / "out"


@pytest.fixture
def folder(small_folder, tmp_path):
    shutil.copy(small_folder.parent / "s.toml", tmp_path / "s.toml")
    shutil.copytree(small_folder, tmp_path / "out")
    return tmp_path / "out"


# --------------------------------------------------------------------------------------------
# 1. SIGTERM stops like the first Ctrl-C
# --------------------------------------------------------------------------------------------
class TtyRun:
    """The command line in a subprocess whose stderr is a terminal (a pty), so that it draws
    its progress bar: a test can act once the bar shows progress instead of after a guessed
    sleep (which a loaded machine defeats)."""

    def __init__(self, cwd, *args):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
        self.proc = subprocess.Popen([sys.executable, "-m", "diffsweep.cli", *map(str, args)],
                                     stdout=subprocess.PIPE, stderr=slave, text=True, cwd=cwd,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        os.close(slave)
        self.chunks: list[str] = []
        self.reader = threading.Thread(target=self._read, args=(master,), daemon=True)
        self.reader.start()

    def _read(self, fd):
        while True:
            try:
                data = os.read(fd, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            self.chunks.append(data.decode(errors="replace"))
        os.close(fd)

    @property
    def err(self) -> str:
        return "".join(self.chunks).replace("\r\n", "\n")

    def wait_progress(self, percent: int, timeout=120.0):
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            shown = [int(x) for x in re.findall(r"(\d+)%\|", self.err)]
            if shown and shown[-1] >= percent:
                return shown[-1]
            assert self.proc.poll() is None, self.err
            time.sleep(0.02)
        self.proc.kill()
        pytest.fail("no progress shown in time: " + self.err)

    def wait(self, timeout=60):
        self.proc.wait(timeout)
        self.reader.join(10)
        return self.proc.returncode


def test_sigterm_saves_what_finished_releases_the_lock_and_resumes(tmp_path, capsys):
    p = sweep(tmp_path, BIG_ONE_CHUNK)
    tty = TtyRun(tmp_path, "run", p, "--out", "out", "--threads", "2")
    assert tty.wait_progress(10) < 100  # the one chunk is running, some replicas finished
    tty.proc.send_signal(signal.SIGTERM)
    rc, err = tty.wait(), tty.err
    assert rc == 143, err  # 128 + SIGTERM, as a shell reports a SIGTERM death
    assert "SIGTERM: stopping; saving the replicas that finished" in err
    m = re.search(r"interrupted by SIGTERM: (\d+) of 1200 replicas are saved in out", err)
    assert m, err
    saved = int(m.group(1))
    assert 0 < saved < 1200, err  # the chunk in progress was not lost
    assert err.count("Resume with:") == 1 and "Traceback" not in err
    assert not (tmp_path / "out" / LOCK).exists()
    got = diffsweep.load(tmp_path / "out")
    assert len(got) == saved and got.meta["problems"] == []
    last = json.loads((tmp_path / "out" / "manifest.json").read_text())["runs"][-1]["meta"]
    assert last["interrupted"] is True and last["signal"] == "SIGTERM"
    rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out", "--quiet")
    assert rc == 0, err
    ref = run(load_sweep(p), backend="cpu", store=tmp_path / "ref")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no duplicate-chunk warnings
        assert_same(ref, diffsweep.load(tmp_path / "out"))


def test_in_process_sigterm_exits_143_and_leaves_the_handler_as_it_was(tmp_path, capsys,
                                                                       monkeypatch):
    def terminated(*a, **k):
        raise Terminated()

    monkeypatch.setattr(engine, "execute", terminated)
    before = signal.getsignal(signal.SIGTERM)
    rc, _, err = cli_run(capsys, "run", sweep(tmp_path), "--out", tmp_path / "out", "--quiet")
    assert rc == 143, err
    assert "interrupted by SIGTERM before any replica finished" in err
    assert signal.getsignal(signal.SIGTERM) is before
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------------------------
# 2. --break-lock is refused while the lock's holder runs
# --------------------------------------------------------------------------------------------
def test_break_lock_is_refused_while_the_holder_runs(tmp_path, capsys):
    p = sweep(tmp_path, BIG_ONE_CHUNK)
    # small chunks: the holder has written some when the second run comes
    holder = start_cli(tmp_path, "run", p, "--out", "out", "--threads", "2",
                       "--chunk-size", "50")
    lock = tmp_path / "out" / LOCK
    try:
        wait_started(holder)
        t0 = time.monotonic()
        while not done_jsons(tmp_path / "out") and time.monotonic() - t0 < 60:
            assert holder.poll() is None, holder.communicate()
            time.sleep(0.01)
        assert json.loads(lock.read_text())["pid"] == holder.pid
        rc, _, err = cli_run(capsys, "run", p, "--out", tmp_path / "out", "--break-lock")
        assert rc == 2
        one_line_error(err, rf"out: --break-lock \(break_lock=True\) refused: the run holding "
                            rf"the lock, pid {holder.pid} on this host "
                            rf"\({re.escape(socket.gethostname())}, since .*\), is still "
                            rf"running; wait for it to finish or stop it .*kill {holder.pid}")
        assert json.loads(lock.read_text())["pid"] == holder.pid  # the lock is untouched
        with pytest.raises(FolderBusy, match=rf"refused: the run holding the lock, pid "
                                             rf"{holder.pid}"):
            Store(tmp_path / "out").open(load_sweep(p).points_sha256, {}, break_lock=True)
    finally:
        holder.send_signal(signal.SIGTERM)
        holder.communicate(timeout=60)
    assert holder.returncode == 143
    # the holder's run is the folder's only record and nothing was written twice
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = diffsweep.load(tmp_path / "out")
    assert got.meta["problems"] == []
    assert len(json.loads((tmp_path / "out" / "manifest.json").read_text())["runs"]) == 1
    # a lock whose holder is gone may still be broken
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    lock.write_text(json.dumps({"pid": int(dead), "host": socket.gethostname()}))
    with Store(tmp_path / "out") as st:
        with pytest.warns(UserWarning, match="breaking the lock"):
            st.open(load_sweep(p).points_sha256, {}, break_lock=True)


# --------------------------------------------------------------------------------------------
# 3. a lost or damaged manifest.json: diffsweep repair
# --------------------------------------------------------------------------------------------
DAMAGE = {
    "truncated": lambda f: f.write_bytes(f.read_bytes()[: f.stat().st_size // 3]),
    "garbage": lambda f: f.write_bytes(os.urandom(600)),
    "not_a_manifest": lambda f: f.write_text("[]\n"),
    "deleted": lambda f: f.unlink(),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_repair_rebuilds_a_damaged_manifest_from_the_chunks(folder, damage, capsys):
    before = diffsweep.load(folder)
    original = json.loads((folder / "manifest.json").read_text())
    DAMAGE[damage](folder / "manifest.json")
    what = "is missing" if damage == "deleted" else "is damaged"
    hint = (rf"out: manifest\.json {what}.*; run `diffsweep repair .*out` to rebuild it from "
            r"the folder's 3 chunks")
    for cmd in (["show", folder], ["export", folder, "--format", "csv"],
                ["run", folder.parent / "s.toml", "--out", folder]):
        rc, _, err = cli_run(capsys, *cmd)
        assert rc == 2
        one_line_error(err, hint)
    with pytest.raises(ConfigError, match=hint):
        diffsweep.load(folder)
    rc, out, err = cli_run(capsys, "repair", folder)
    assert rc == 0, err
    assert "manifest.json rebuilt from 3 chunks, 12 replicas, 1 run(s)" in out
    assert not (folder / LOCK).exists()
    kept = list((folder / "corrupt").glob("manifest.json.*")) if damage != "deleted" else []
    assert len(kept) == (0 if damage == "deleted" else 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(before, diffsweep.load(folder))
    m = json.loads((folder / "manifest.json").read_text())
    for key in ("config_hash", "name", "sweep_text", "sweep_path", "seeds", "n_points",
                "effective", "tables", "backend", "device"):
        assert m[key] == original[key], key
    run0 = {k: v for k, v in original["runs"][0].items() if k not in ("end", "meta")}
    assert {k: v for k, v in m["runs"][0].items() if k not in ("end", "meta")} == run0
    assert m["runs"][0]["meta"]["replicas_run"] == 12 and m["runs"][0]["meta"]["rebuilt"]
    rc, out, err = cli_run(capsys, "show", folder)
    assert rc == 0 and "12 of 12 done" in out and "rebuilt from its chunks" in out
    # the folder resumes as before: the same sweep, nothing to compute
    res = run(load_sweep(folder.parent / "s.toml"), backend="cpu", store=folder)
    assert res.meta["replicas_run"] == 0


def test_repair_of_old_chunks_needs_the_sweep_file_and_checks_them(folder, tmp_path, capsys):
    """Chunks written before they recorded their sweep cannot name it: repair says so and
    changes nothing; with --sweep it checks each chunk against the sweep's grid."""
    before = diffsweep.load(folder)
    for f in done_jsons(folder):
        done = json.loads(f.read_text())
        done.pop("manifest"), done.pop("run")
        f.write_text(json.dumps(done))
    (folder / "manifest.json").unlink()
    listing = sorted(os.listdir(folder / "chunks"))
    rc, _, err = cli_run(capsys, "repair", folder)
    assert rc == 2
    one_line_error(err, r"out: its chunks were written by a diffsweep that did not record the "
                        r"sweep in them.*`diffsweep repair DIR --sweep SWEEP\.toml`")
    for text, why in ((SMALL.replace("duration_s = 2.0", "duration_s = 3.0"),
                       r"duration_s is 1\.99\d* in the chunk \(on the engine's slot grid\), "
                       r"3\.0 in the sweep"),
                      (SMALL.replace("40.0]", "4.0]"),
                       r"t_on_ms of point 1 is 40\.0 in the chunk, 4\.0 in the sweep")):
        other = sweep(tmp_path, text, "other.toml")
        rc, _, err = cli_run(capsys, "repair", folder, "--sweep", other)
        assert rc == 2
        one_line_error(err, rf"--sweep: chunk c\S+ is not of this sweep \({why}\): nothing was "
                            r"changed")
    assert sorted(os.listdir(folder / "chunks")) == listing
    assert not (folder / "manifest.json").exists() and not (folder / LOCK).exists()
    rc, out, err = cli_run(capsys, "repair", folder, "--sweep", tmp_path / "s.toml")
    assert rc == 0, err
    assert "manifest.json rebuilt from 3 chunks, 12 replicas, 1 run(s)" in out
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(before, diffsweep.load(folder))
    res = run(load_sweep(tmp_path / "s.toml"), backend="cpu", store=folder)
    assert res.meta["replicas_run"] == 0


def test_repair_is_refused_while_a_run_holds_the_folder(folder, capsys):
    (folder / "manifest.json").write_text("{")
    (folder / LOCK).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
    rc, _, err = cli_run(capsys, "repair", folder)
    assert rc == 2
    one_line_error(err, rf"out: in use by another diffsweep run \(pid {os.getpid()} on host "
                        rf"{re.escape(socket.gethostname())}, since \?\); repair the folder once "
                        rf"that run has ended \(if it is gone, delete .*out/\.diffsweep\.lock\)$")
    assert (folder / "manifest.json").read_text() == "{"


# --------------------------------------------------------------------------------------------
# 4. damaged and repeated chunks in show, export, plot
# --------------------------------------------------------------------------------------------
def damage_a_chunk(folder) -> str:
    """Truncate the flows file of the second chunk; its id."""
    done = json.loads(done_jsons(folder)[1].read_text())
    f = folder / "chunks" / done["files"]["flows"]["file"]
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])
    return done["chunk"]


def test_show_and_export_report_a_damaged_chunk_in_one_line(folder, tmp_path, capsys):
    cid = damage_a_chunk(folder)
    line = (rf"chunk {cid} is damaged \({cid}\.flows\.parquet has \d+ bytes, expected \d+ "
            r"\(truncated or modified\)\); its 4 replicas are missing: rerun `diffsweep run "
            r"\S*s\.toml --out out` to recompute them")
    rc, out, err = cli_sub(tmp_path, "show", "out")
    assert rc == 0, err
    no_python_noise(err)
    assert err.strip() == "", err
    assert re.search("problem    : " + line, out), out
    assert "replicas 8 of 12 done, 4 missing" in out
    # export: the warning, then a refusal (exit 3) that writes nothing
    rc, out, err = cli_sub(tmp_path, "export", "out", "--format", "csv", "--out", "e")
    assert rc == 3, err
    no_python_noise(err)
    lines = err.strip().splitlines()
    assert len(lines) == 2 and re.fullmatch("diffsweep: warning: " + line, lines[0]), err
    assert re.fullmatch(r"diffsweep: error: out: 4 of 12 replicas of the sweep are missing, 4 "
                        r"of them in damaged chunks; nothing was exported: rerun `diffsweep run "
                        r"\S*s\.toml --out out` to compute them, or pass --allow-partial to "
                        r"export the 8 that are there", lines[1]), err
    assert not (tmp_path / "e").exists() and out == ""
    rc, out, err = cli_sub(tmp_path, "export", "out", "--format", "csv", "--out", "e",
                           "--allow-partial")
    assert rc == 0, err
    no_python_noise(err)
    assert re.fullmatch("diffsweep: warning: " + line + r"\ndiffsweep: warning: \S*out: partial "
                        r"results: 2 of 4 points complete, 4 of 12 replicas missing; rerun .*",
                        err.strip()), err
    assert len(pd.read_csv(tmp_path / "e" / "replicas.csv")) == 8
    rc, out, err = cli_run(capsys, "plot", folder, "--x", "t_on_ms", "--y", "goodput_bps",
                           "--hue", "ef", "--out", tmp_path / "fig.png")
    assert rc == 0, err  # plot used to hide the damage
    # the damage, then that the figure is partial (issue 53)
    assert re.fullmatch("diffsweep: warning: " + line.replace("--out out", "--out .*out")
                        + r"\ndiffsweep: warning: \S*out: partial results: 2 of 4 points "
                        r"complete, 4 of 12 replicas missing; rerun .*", err.strip()), err
    # repair moves the damaged chunk aside; a run recomputes its replicas
    rc, out, err = cli_sub(tmp_path, "repair", "out")
    assert rc == 0, err
    assert f"chunk {cid} is damaged" in out and "moved to corrupt/" in out
    assert "manifest.json is readable: kept" in out
    assert re.search(r"out: 4 of 12 replicas are missing: rerun `diffsweep run \S*s\.toml --out "
                     r"out` to compute them", out), out
    rc, out, err = cli_run(capsys, "run", tmp_path / "s.toml", "--out", folder, "--quiet")
    assert rc == 0, err
    rc, out, err = cli_sub(tmp_path, "export", "out", "--format", "csv", "--out", "e2")
    assert rc == 0 and err == "", err


def test_export_of_an_unfinished_folder_exits_3(folder, tmp_path):
    """Replicas missing without any damage (a run stopped early): the same refusal."""
    last = done_jsons(folder)[-1]
    cid = json.loads(last.read_text())["chunk"]
    for f in (folder / "chunks").glob(f"{cid}.*"):
        f.unlink()
    rc, out, err = cli_sub(tmp_path, "export", "out", "--format", "parquet")
    assert rc == 3
    assert re.fullmatch(r"diffsweep: error: out: 4 of 12 replicas of the sweep are missing; "
                        r"nothing was exported: rerun `diffsweep run \S*s\.toml --out out` to "
                        r"compute them, or pass --allow-partial to export the 8 that are there",
                        err.strip()), err
    assert not (folder / "export-parquet").exists()


def test_a_repeated_chunk_is_one_line_and_repair_moves_it_aside(folder, tmp_path):
    """The second of two runs into one folder (before --break-lock was refused) left chunks
    repeating the first's replicas: each load warned about every one of them."""
    done = json.loads(done_jsons(folder)[0].read_text())
    cid, copy = done["chunk"], done["chunk"][:-8] + "feedf00d"
    for info in done["files"].values():
        new = info["file"].replace(cid, copy)
        shutil.copy(folder / "chunks" / info["file"], folder / "chunks" / new)
        info["file"] = new
    done["chunk"], done["created"] = copy, "2999-01-01T00:00:00+00:00"  # the newer one
    (folder / "chunks" / f"{copy}.done.json").write_text(json.dumps(done))
    line = (rf"chunk {copy} repeats all its 4 replicas from older chunks \(two runs wrote into "
            r"the folder at once\); the older rows are used: `diffsweep repair out` moves it "
            r"aside")
    rc, out, err = cli_sub(tmp_path, "show", "out")
    assert rc == 0 and err == "", err
    assert re.search("problem    : " + line, out) and "12 of 12 done" in out, out
    rc, out, err = cli_sub(tmp_path, "export", "out", "--format", "csv")
    assert rc == 0, err  # nothing is missing: the older rows are exported
    no_python_noise(err)
    assert re.fullmatch("diffsweep: warning: " + line, err.strip()), err
    assert len(pd.read_csv(folder / "export-csv" / "replicas.csv")) == 12
    rc, out, err = cli_sub(tmp_path, "repair", "out")
    assert rc == 0, err
    assert f"chunk {copy} repeats all its 4 replicas from older chunks: moved to corrupt/" in out
    assert (folder / "corrupt" / f"{copy}.done.json").exists()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(diffsweep.load(folder)) == 12


def test_plot_and_export_of_an_unfinished_folder_warn(folder, small_folder, tmp_path):
    """Issue 53: plot drew a half-written folder (a run killed before its last chunks) with an
    x axis that stopped where the missing points began, exit 0 and not a word; plot and export
    --allow-partial now say it on stderr (points complete / total, replicas missing, the rerun
    command), the figure says "partial: ..." and Python's plot and export raise a UserWarning."""
    last = done_jsons(folder)[-1]
    cid = json.loads(last.read_text())["chunk"]
    for f in (folder / "chunks").glob(f"{cid}.*"):
        f.unlink()
    res = diffsweep.load(folder)
    per_point = res.replicas.groupby("point")["seed"].nunique()
    full = int((per_point == 3).sum())
    assert len(res.replicas) == 8 and full < 4
    line = (rf"diffsweep: warning: \S*out: partial results: {full} of 4 points complete, 4 of "
            r"12 replicas missing; rerun `diffsweep run \S*s\.toml --out \S*out` to compute them")
    rc, out, err = cli_sub(tmp_path, "plot", "out", "--x", "t_on_ms", "--y", "goodput_bps",
                           "--hue", "ef", "--out", "fig.svg")
    assert rc == 0, err
    no_python_noise(err)
    assert re.fullmatch(line, err.strip()), err
    assert f"partial: {full} of 4 points" in (tmp_path / "fig.svg").read_text()
    rc, out, err = cli_sub(tmp_path, "export", "out", "--format", "csv", "--out", "e",
                           "--allow-partial")
    assert rc == 0 and re.fullmatch(line, err.strip()), err
    from diffsweep.sweep.folder import export, plot
    with pytest.warns(UserWarning, match=rf"partial results: {full} of 4 points complete"):
        plot(res, "t_on_ms", "goodput_bps", hue="ef")
    with pytest.warns(UserWarning, match=r"4 of 12 replicas missing"):
        export(res, tmp_path / "e2")
    # a complete folder: no warning, no subtitle
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = plot(diffsweep.load(small_folder), "t_on_ms", "goodput_bps", hue="ef")
    assert fig._suptitle is None


@pytest.fixture
def read_only(tmp_path):
    """A function making a folder under tmp_path read-only: chmod -R a-w, or, as root (whom
    chmod does not stop), a read-only bind mount of tmp_path/ro over tmp_path/rw's copy
    (skipped where mounting is not allowed); undone at the end."""
    mounts = []

    def make(folder):
        if os.geteuid() != 0:
            for p in [folder, *folder.rglob("*")]:
                p.chmod(p.stat().st_mode & ~0o222)
            return folder
        ro = tmp_path / "ro"
        ro.mkdir()
        if subprocess.run(["mount", "--bind", str(folder.parent), str(ro)]).returncode:
            pytest.skip("root, and no read-only bind mount allowed here")
        mounts.append(ro)
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(ro)]).returncode:
            pytest.skip("root, and no read-only bind mount allowed here")
        return ro / folder.name

    yield make
    for m in mounts:
        subprocess.run(["umount", str(m)])


def test_a_read_only_finished_folder_is_shown_and_rerun(folder, tmp_path, read_only, capsys):
    """Issue 53: a finished folder on read-only storage could not be rerun (the lock file could
    not be created); show, plot, export and load read it, a rerun says there is nothing to
    compute (exit 0), and a rerun with replicas to compute is one line naming the folder and
    that it is read-only (exit 2), the folder unchanged."""
    ro = read_only(folder)
    before = sorted(str(p.relative_to(ro)) for p in ro.rglob("*"))
    assert len(diffsweep.load(ro)) == 12
    rc, out, err = cli_run(capsys, "show", ro)
    assert rc == 0 and "4 of 4 complete" in out, err
    rc, out, err = cli_run(capsys, "plot", ro, "--x", "t_on_ms", "--y", "goodput_bps", "--hue",
                           "ef", "--out", tmp_path / "f.png")
    assert rc == 0 and (tmp_path / "f.png").is_file(), err
    rc, out, err = cli_run(capsys, "export", ro, "--format", "csv", "--out", tmp_path / "e")
    assert rc == 0 and (tmp_path / "e" / "replicas.csv").is_file(), err
    rc, out, err = cli_run(capsys, "run", tmp_path / "s.toml", "--out", ro)
    assert rc == 0, err
    assert f"{ro}: nothing to compute (the folder is read-only" in out
    more = tmp_path / "more.toml"
    more.write_text((tmp_path / "s.toml").read_text().replace("seeds = 3", "seeds = 4"))
    rc, out, err = cli_run(capsys, "run", more, "--out", ro)
    assert rc == 2
    one_line_error(err, rf"{re.escape(str(ro))}: the folder is read-only \(.*\): 4 of 16 "
                        r"replicas are left to compute")
    assert sorted(str(p.relative_to(ro)) for p in ro.rglob("*")) == before
