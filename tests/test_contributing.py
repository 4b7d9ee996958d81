"""docs/contributing.md, "Add a builder", followed literally: a builder in a module of one's own
(marked @diffsweep.builder), its folder importable, a sweep file naming it, `diffsweep run`."""
from __future__ import annotations

import json
import sys
import textwrap

import pytest

import diffsweep as ds
from diffsweep.cli import app as cli

TOY_MODULE = '''
import diffsweep
from diffsweep import Link, QueueClass, Scenario, TcpFlow
from diffsweep.core.errors import check


@diffsweep.builder
def one_flow(link_rate_bps=2e6, buffer_pkts=20, duration_s=10.0, warmup_s=2.0):
    """One Reno flow over a drop-tail link of link_rate_bps."""
    check(link_rate_bps > 0, "link_rate_bps", link_rate_bps, "a number > 0")
    link = Link(rate_bps=link_rate_bps, prop_delay_ms=5.0,
                classes=(QueueClass("be", limit_pkts=buffer_pkts),))
    flow = TcpFlow(access_delay_ms=2.0, egress_delay_ms=2.0, reverse_delay_ms=9.0,
                   segment_bytes=960, header_bytes=40)
    return Scenario(links=(link,), flows=(flow,), duration_s=duration_s, warmup_s=warmup_s)
'''

SWEEP = '''
name = "toy-builder"
builder = "toybuilders:one_flow"
seeds = 2
[axes]
link_rate_bps = [1e6, 4e6]
'''


@pytest.fixture
def toy_folder(tmp_path, monkeypatch):
    (tmp_path / "toybuilders.py").write_text(textwrap.dedent(TOY_MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))      # step 2: its folder importable
    yield tmp_path
    sys.modules.pop("toybuilders", None)


def test_own_builder_from_a_sweep_file(toy_folder, capsys):
    sweep = toy_folder / "own.toml"
    sweep.write_text(SWEEP)
    out = toy_folder / "results"
    assert cli.main(["run", str(sweep), "--out", str(out), "--backend", "cpu"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["builder"] == "toybuilders:one_flow"
    res = ds.load(out)
    goodput = res.replicas.groupby("link_rate_bps").tcp_goodput_bps.mean()
    assert list(goodput.index) == [1e6, 4e6]
    assert 0 < goodput[1e6] < 1e6 and goodput[1e6] < goodput[4e6] < 4e6


def test_own_builder_bad_parameter_names_it(toy_folder, capsys):
    sweep = toy_folder / "bad.toml"
    sweep.write_text(SWEEP.replace("[axes]", "[fixed]\nlink_rate_bsp = 1e6\n[axes]"))
    assert cli.main(["run", str(sweep), "--out", str(toy_folder / "r")]) == 2
    assert "link_rate_bps" in capsys.readouterr().err      # the "did you mean"


BUILT_IN = '''
"""A toy built-in builder (tests/test_contributing.py follows docs/contributing.md)."""
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow, check_number


def toy(link_rate_bps=2e6, duration_s=10.0, warmup_s=2.0):
    """One Reno flow over a drop-tail link of link_rate_bps."""
    check_number("link_rate_bps", link_rate_bps, lambda v: v > 0, "a number > 0")
    link = Link(rate_bps=link_rate_bps, prop_delay_ms=5.0,
                classes=(QueueClass("be", limit_pkts=20),))
    flow = TcpFlow(access_delay_ms=2.0, egress_delay_ms=2.0, reverse_delay_ms=9.0)
    return Scenario(links=(link,), flows=(flow,), duration_s=duration_s, warmup_s=warmup_s)
'''


def test_a_built_in_builder_as_the_page_says(tmp_path):
    """"A built-in builder", steps 1, 2 and 4, in a copy of the package: the module in
    scenario/, its line in ``STANDARD``, a sweep file naming it by its short name."""
    import shutil
    import subprocess
    from pathlib import Path

    src = Path(ds.__file__).resolve().parent
    pkg = tmp_path / "copy" / "diffsweep"
    shutil.copytree(src, pkg, ignore=shutil.ignore_patterns("__pycache__", "sweeps"))
    (pkg / "scenario" / "toy.py").write_text(BUILT_IN)                     # step 1
    builders = pkg / "scenario" / "builders.py"                            # step 2
    text = builders.read_text()
    line = 'STANDARD = {"dumbbell": "diffsweep.scenario.dumbbell:dumbbell"}'
    assert line in text, "docs/contributing.md's step 2 names a line builders.py lacks"
    builders.write_text(text.replace(line, line + '\nSTANDARD["toy"] = '
                                     '"diffsweep.scenario.toy:toy"'))
    (tmp_path / "toy.toml").write_text(SWEEP.replace('"toybuilders:one_flow"', '"toy"'))  # 4
    env = {**__import__("os").environ, "PYTHONPATH": str(tmp_path / "copy")}
    run = [sys.executable, "-m", "diffsweep"]
    shown = subprocess.run(run + ["builders", "toy"], env=env, capture_output=True,
                           text=True, timeout=300)
    assert shown.returncode == 0 and "link_rate_bps" in shown.stdout, shown.stderr
    done = subprocess.run(run + ["run", str(tmp_path / "toy.toml"), "--out",
                                 str(tmp_path / "out"), "--backend", "cpu", "--quiet"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["builder"] == "toy"
