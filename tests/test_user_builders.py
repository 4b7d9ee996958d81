"""A builder from the user's own code named in a sweep file (``builder = "module:function"``) or
registered (``config.register_builder``): it runs locally and on a Dask cluster, and show,
plot, export and resume work on its folder (issue 45). The one-line errors of bad references
are in the catalogue (tests/bad_inputs.py, area "Sweep file: top-level keys ...")."""
import json
import sys
import textwrap
import uuid

import pandas as pd
import pytest

import diffsweep
import user_builders
from diffsweep.cli import app as cli
from diffsweep.sweep import config
from diffsweep import run
from diffsweep.sweep.config import load_sweep, loads_sweep
from diffsweep.core.errors import ConfigError
from diffsweep.core.results import TABLES

SWEEP = textwrap.dedent("""\
    name = "own-builder"
    builder = "user_builders:two_rtt_dumbbell"
    seeds = 2
    duration_s = 2.0
    warmup_s = 0.5
    [fixed]
    rtp_ratio = 3.0
    [axes]
    aqm = ["droptail", "red"]
    n_flows = [2, 4]
    """)


def write(tmp_path, text=SWEEP, name="own.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def assert_same(a, b):
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)


def test_reference_resolves_to_the_users_function(tmp_path):
    cfg = load_sweep(write(tmp_path))
    assert cfg.builder is user_builders.two_rtt_dumbbell
    assert cfg.builder_name == "user_builders:two_rtt_dumbbell"
    fields = cfg.manifest_fields()
    assert fields["builder"] == fields["builder_target"] == "user_builders:two_rtt_dumbbell"
    grid = cfg.make_grid()
    assert grid.n_points == 4 and list(grid.points["long_rtp_ms"]) == [60.0] * 4


def test_local_run_then_show_plot_export_and_resume(tmp_path, capsys):
    sweep, out = write(tmp_path), tmp_path / "out"
    assert cli.main(["run", str(sweep), "--out", str(out), "--backend", "cpu", "--quiet"]) == 0
    m = json.loads((out / "manifest.json").read_text())
    assert m["builder"] == "user_builders:two_rtt_dumbbell"
    assert m["builder_target"] == "user_builders:two_rtt_dumbbell"
    res = diffsweep.load(out)
    # the user's builder made these flows: half of them at 3x the round trip
    assert len(res.replicas) == 8 and len(res.flows) == 2 * (2 + 4) * 2
    assert sorted(res.flows["rtp_ms"].unique()) == [20.0, 60.0]
    capsys.readouterr()

    assert cli.main(["show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "builder user_builders:two_rtt_dumbbell" in shown
    assert "4 of 4 complete" in shown
    # the summary rows are the folder's means per (aqm, n_flows)
    mean = res.replicas.groupby(["aqm", "n_flows"])["tcp_goodput_bps"].mean()
    for (aqm, n), v in mean.items():
        assert any(line.split()[:2] == [aqm, str(n)] and f"{v:.5g}" in line
                   for line in shown.splitlines()), (aqm, n, v)

    png = tmp_path / "p.png"
    assert cli.main(["plot", str(out), "--x", "n_flows", "--y", "goodput_bps", "--hue", "aqm",
                     "--out", str(png)]) == 0
    assert png.stat().st_size > 1000
    assert cli.main(["export", str(out), "--format", "csv", "--out", str(tmp_path / "csv")]) == 0
    flows = pd.read_csv(tmp_path / "csv" / "flows.csv")
    assert len(flows) == len(res.flows) and set(flows["aqm"]) == {"droptail", "red"}

    # resume: a rerun computes nothing; more seeds computes only the new ones
    capsys.readouterr()
    assert cli.main(["run", str(sweep), "--out", str(out), "--backend", "cpu"]) == 0
    assert "(0 run, 8 already in" in capsys.readouterr().out
    assert cli.main(["run", str(sweep), "--out", str(out), "--backend", "cpu", "--seeds",
                     "3"]) == 0
    assert "(4 run, 8 already in" in capsys.readouterr().out


def test_registered_name_in_a_sweep_file(tmp_path, monkeypatch):
    monkeypatch.setitem(config.BUILDERS, "my-dumbbell", "user_builders:two_rtt_dumbbell")
    text = SWEEP.replace('"user_builders:two_rtt_dumbbell"', '"my-dumbbell"')
    cfg = loads_sweep(text)
    assert cfg.builder is user_builders.two_rtt_dumbbell
    assert cfg.manifest_fields()["builder_target"] == "user_builders:two_rtt_dumbbell"
    by_name = run(cfg, backend="cpu")
    by_ref = run(loads_sweep(SWEEP), backend="cpu")
    assert_same(by_name, by_ref)
    # registered as a callable: unmarked functions are trusted when registered in code
    monkeypatch.setitem(config.BUILDERS, "plain", user_builders.unmarked)
    assert loads_sweep('name = "p"\nbuilder = "plain"\n').builder is user_builders.unmarked
    with pytest.raises(ConfigError, match=r"BUILDERS\['x'\]: 'nomodule' is not allowed"):
        config.register_builder("x", "nomodule")


def test_unknown_parameter_names_the_key(tmp_path, capsys):
    p = write(tmp_path, SWEEP.replace("rtp_ratio = 3.0", "rtp_ration = 3.0"))
    assert cli.main(["run", str(p), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert err.startswith("diffsweep: error: fixed.rtp_ration: not a parameter of "
                          "two_rtt_dumbbell (did you mean 'rtp_ratio'?)")
    assert not (tmp_path / "o").exists()


# --------------------------------------------------------------------------------------------
# Dask
# --------------------------------------------------------------------------------------------
def test_dask_run_matches_local_and_the_folder_reads(tmp_path, dask_client, capsys):
    sweep = write(tmp_path)
    addr = dask_client.scheduler.address
    assert cli.main(["run", str(sweep), "--out", str(tmp_path / "dask"), "--backend", "cpu",
                     "--threads", "1", "--chunk-size", "2", "--quiet", "--scheduler",
                     addr]) == 0
    dist = diffsweep.load(tmp_path / "dask")
    local = run(load_sweep(sweep), backend="cpu", store=tmp_path / "local")
    assert_same(local, dist)
    m = json.loads((tmp_path / "dask" / "manifest.json").read_text())
    assert m["builder"] == "user_builders:two_rtt_dumbbell" and m["device"] == "dask"
    meta = m["runs"][-1]["meta"]
    assert meta["distributed"] and meta["chunks_run"] >= 2
    capsys.readouterr()
    assert cli.main(["show", str(tmp_path / "dask")]) == 0
    assert "4 of 4 complete" in capsys.readouterr().out
    assert cli.main(["export", str(tmp_path / "dask"), "--format", "parquet"]) == 0
    assert (tmp_path / "dask" / "export-parquet" / "flows.parquet").exists()


def test_dask_worker_without_the_module_is_one_line(tmp_path, dask_client, monkeypatch, capsys):
    """A module the driver imports but the workers cannot (its folder is on the driver's path
    only, added after the workers started): refused before any chunk, naming builder and a
    worker; nothing is written."""
    name = f"only_on_driver_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(
        "import diffsweep, user_builders\n"
        "@diffsweep.builder\n"
        "def b(n_flows=2, seed=0):\n"
        "    return user_builders.two_rtt_dumbbell(n_flows=n_flows, seed=seed)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sweep = write(tmp_path, f'name = "x"\nbuilder = "{name}:b"\nseeds = 1\n')
    out = tmp_path / "out"
    assert cli.main(["run", str(sweep), "--out", str(out), "--backend", "cpu", "--quiet",
                     "--scheduler", dask_client.scheduler.address]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err
    assert err.startswith(f"diffsweep: error: builder: '{name}:b' cannot be imported on the "
                          "Dask worker tcp://"), err
    assert "ModuleNotFoundError" in err and "2 of 2 workers" in err
    assert not (out / "chunks").exists() or not any((out / "chunks").iterdir())
    assert not (out / "manifest.json").exists()
    sys.modules.pop(name, None)


def test_the_worked_example_of_docs_sweeps_md_runs(tmp_path, monkeypatch, capsys):
    """docs/sweeps.md "Your own builder": its mybuilders.py and own.toml, as a user copies
    them, run and show (one seed, so that it stays short)."""
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "sweeps.md").read_text()
    part = doc[doc.index("## Your own builder"):doc.index("## Points")]
    code = re.search(r"`mybuilders\.py`:\n\n```python\n(.*?)```", part, re.S).group(1)
    toml = re.search(r"`own\.toml`:\n\n```toml\n(.*?)```", part, re.S).group(1)
    (tmp_path / "mybuilders.py").write_text(code)
    (tmp_path / "own.toml").write_text(toml)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "results"
    try:
        assert cli.main(["run", str(tmp_path / "own.toml"), "--out", str(out), "--backend",
                         "cpu", "--seeds", "1", "--quiet"]) == 0
        res = diffsweep.load(out)
        assert len(res.replicas) == 6 and set(res.flows["rtp_ms"]) == {20.0, 60.0}
    finally:
        sys.modules.pop("mybuilders", None)
    # show, plot and export read the folder without the builder's module (another machine)
    monkeypatch.undo()
    with pytest.raises(ImportError):
        __import__("mybuilders")
    capsys.readouterr()
    assert cli.main(["show", str(out)]) == 0
    assert "builder mybuilders:two_rtt_dumbbell" in capsys.readouterr().out
    assert cli.main(["plot", str(out), "--x", "n_flows", "--y", "tcp_goodput_bps", "--hue",
                     "aqm", "--out", str(tmp_path / "p.svg")]) == 0
    assert cli.main(["export", str(out), "--format", "csv"]) == 0
    assert len(pd.read_csv(out / "export-csv" / "replicas.csv")) == 6
