"""backend="auto" on a machine with a CUDA device and CPU cores: the backend predicted faster
(diffsweep.engine.backend_choice). The device is faked here (no run reaches it: every case the model
sends to the CPU runs there for real), so this runs on any machine."""
import numpy as np
import pytest

import diffsweep.engine.compiled as engine
import diffsweep.engine.execution as execution
from diffsweep.engine import backend_choice
from diffsweep.cli import app as cli
from diffsweep.studies import family_call
from diffsweep import run
from diffsweep.engine.backend_choice import (CPU_CORE_US_PER_SLOT, CUDA_SLOT_LATENCY_US,
                                             CUDA_SLOTS_PER_S, Work, choose, predict, predict_both,
                                             work_of_grids, work_of_scenarios)
from diffsweep.core.errors import ConfigError
from diffsweep.engine.pack import pack

from test_runner import small_grid  # (kaur_vin, 1 flow, CBR / on-off EF x 2 T_on, 2 s)


class FakeCuda:
    """A CUDA engine module with one device that must never be asked to run anything."""

    def device_count(self):
        return 1

    def device_name(self):
        return "fake GPU"

    def __getattr__(self, name):
        raise AssertionError(f"the fake CUDA module was asked for {name!r}")


@pytest.fixture
def fake_device(monkeypatch):
    real = engine._module
    monkeypatch.setattr(engine, "_module", lambda n: FakeCuda() if n == "cuda" else real(n))


def test_the_model_on_the_h100_measurements_it_was_fitted_to():
    # the quick Kaur & Vin family (1,104 replicas, 5.76e8 replica-slots, longest 520,833 slots)
    # ran 5.37 s on 16 cores, 5.94 s on the H100: the CPU
    quick = Work(1104, 5.76e8, 520_833)
    t = predict(quick, 16)
    assert t["cpu"] == pytest.approx(5.76e8 * CPU_CORE_US_PER_SLOT * 1e-6 / 16)
    assert t["cpu"] == pytest.approx(5.36, abs=0.01)
    assert t["cuda"] == pytest.approx(520_833 * CUDA_SLOT_LATENCY_US * 1e-6)
    assert t["cuda"] == pytest.approx(5.94, abs=0.01)
    assert choose(quick, 16)[0] == "cpu"
    # the full family (10,560 replicas of 868,056 slots) fills the device: 56.8 s on cuda
    full = Work(10_560, 9.17e9, 868_056)
    t = predict(full, 16)
    assert t["cuda"] == pytest.approx(9.17e9 / CUDA_SLOTS_PER_S) == pytest.approx(57.3, abs=0.1)
    assert t["cpu"] == pytest.approx(85.4, abs=0.1)
    assert t["cuda"] < t["cpu"]
    # ... and both at once add their rates: 34.3 s, more than 1.15x faster than either
    assert predict_both(full, 16) == pytest.approx(9.17e9 / (CUDA_SLOTS_PER_S + 16e6 / 0.149))
    assert predict_both(full, 16) == pytest.approx(34.3, abs=0.1)
    assert choose(full, 16)[0] == "cuda+cpu"
    # with 256 threads the same family is the CPU's (the device's floor, its longest replica's
    # 868,056 slots x 11.4 us = 9.9 s, is above the cores' 5.3 s); Rossi's quick family (18
    # replicas) is the CPU's even on one thread
    assert choose(full, 256)[0] == "cpu"
    assert choose(Work(18, 18 * 868_056.0, 868_056), 1)[0] == "cpu"


def test_the_reason_names_both_predictions_and_the_way_to_the_other_backend():
    name, why = choose(Work(1104, 5.76e8, 520_833), 16)
    assert name == "cpu"
    assert why.startswith("auto chose cpu: 1,104 replicas, 5.76e+08 replica-slots, predicted 5.36 s")
    assert "5.94 s on cuda" in why and "16 CPU threads" in why
    assert why.endswith("--backend cpu|cuda|cuda+cpu names one")


def test_work_counts_the_slots_pack_counts():
    g = small_grid(seeds=3)
    w = work_of_grids([g])
    scs = [g.scenario(p, s) for p in range(g.n_points) for s in g.seeds]
    ends = pack(scs, list(g.seeds) * g.n_points).arrays["end_slot"]
    assert w.replicas == len(scs) == 12
    assert w.replica_slots == float(np.sum(ends))
    assert w.longest_slots == int(np.max(ends))
    assert work_of_scenarios(scs) == w


def test_no_device_no_prediction_and_explicit_backends_are_kept(fake_device):
    def never():
        raise AssertionError("work computed")

    assert engine.choose_backend("cpu", never) == ("cpu", "")
    assert engine.choose_backend("cuda", never) == ("cuda", "")
    assert engine.choose_backend("auto") == ("cuda", "")  # no work given: the device
    assert engine.choose_backend("auto", Work(1, 1e3, 1000), 4)[0] == "cpu"
    assert engine.choose_backend("auto", Work(100_000, 1e11, 1000), 1)[0] == "cuda"


def test_without_a_device_auto_is_the_cpu_and_nothing_is_predicted(monkeypatch):
    real = engine._module
    monkeypatch.setattr(engine, "_module", lambda n: None if n == "cuda" else real(n))

    def never():
        raise AssertionError("work computed")

    assert engine.choose_backend("auto", never) == ("cpu", "")
    assert engine.info()["auto_backend"] == "cpu"


def test_info_says_auto_decides_per_run_with_a_device(fake_device):
    assert "predicted fastest" in engine.info()["auto_backend"]


def test_a_small_run_on_a_gpu_machine_runs_on_the_cores_and_says_why(fake_device, tmp_path):
    g = small_grid()
    res = run(g, backend="auto", store=tmp_path / "out", progress=False)
    assert res.meta["backend"] == "cpu"
    assert res.meta["backend_choice"].startswith("auto chose cpu: 8 replicas")
    ref = run(g, backend="cpu", progress=False)
    assert res.replicas.equals(ref.replicas)
    sim = execution.simulate([g.scenario(0, 1)], [1], backend="auto")
    assert sim.meta["backend"] == "cpu" and sim.meta["backend_choice"].startswith("auto chose cpu")
    assert "backend_choice" not in execution.simulate([g.scenario(0, 1)], [1], "cpu").meta


def test_the_run_command_prints_the_choice(fake_device, tmp_path, capsys):
    sweep = tmp_path / "s.toml"
    sweep.write_text('name = "s"\nbuilder = "kaur_vin"\nseeds = 2\n[fixed]\nn_flows = 1\n'
                     'duration_s = 2.0\nwarmup_s = 0.5\n[axes]\nt_on_ms = [0.4, 40.0]\n')
    assert cli.main(["run", str(sweep), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "on cpu in" in out
    assert "auto chose cpu: 4 replicas" in out and "--backend cpu|cuda|cuda+cpu" in out


def test_a_reproduction_resolves_once_and_logs_it(fake_device):
    said = []
    grids = [small_grid(), small_grid(seeds=1)]
    assert family_call.auto_backend("auto", iter(grids), 2, said.append) == "cpu"
    # 12 replicas, of which the second grid's 4 (seed 0 of the same points) repeat the
    # first's: the call runs 8 (diffsweep.engine.repeats), and the choice weighs those
    assert len(said) == 1 and said[0].startswith("[backend] auto chose cpu: 8 replicas")
    assert family_call.auto_backend("cpu", iter(grids), 2, said.append) == "cpu"
    assert len(said) == 1  # an explicit backend: nothing to say


def test_a_resumed_reproduction_chooses_from_what_is_left(fake_device, tmp_path, monkeypatch):
    from diffsweep.sweep.config import loads_sweep

    text = ('name = "{}"\nbuilder = "kaur_vin"\nseeds = {}\n[fixed]\nn_flows = 1\n'
            'duration_s = 2.0\nwarmup_s = 0.5\n[axes]\nt_on_ms = [0.4, 40.0]\n')
    cfgs = {"a": loads_sweep(text.format("a", 2)), "b": loads_sweep(text.format("b", 3))}
    (tmp_path / "a" / "chunks" / "0").mkdir(parents=True)  # a's results stored: left is b
    grids = family_call._unstored_grids(cfgs, tmp_path)
    assert list(grids) == ["b"] and len(grids["b"]) == 6
    weighed = []
    monkeypatch.setattr(backend_choice, "choose",
                        lambda work, threads: weighed.append(work) or ("cpu", "auto chose cpu"))
    family_call.auto_backend("auto", grids.values(), 2, lambda *a: None)
    # the choice weighs b's 6 replicas, not a's stored 4 beside them
    assert [w.replicas for w in weighed] == [6]
    assert list(family_call._unstored_grids(cfgs, tmp_path / "new")) == ["a", "b"]


def test_a_quick_reproduction_on_a_gpu_machine(fake_device, tmp_path, capsys, monkeypatch):
    from test_ux_cli import shrunk_sweeps

    monkeypatch.chdir(tmp_path)
    sweeps = shrunk_sweeps(tmp_path)
    assert cli.main(["reproduce", "kaur-vin", "--figure", "2", "--quick", "--out",
                     str(tmp_path / "out"), "--sweeps", str(sweeps)]) == 0
    out = capsys.readouterr().out
    assert "[backend] auto chose cpu: " in out
    assert "replicas in one engine call" in out
    assert "backend cpu on" in (tmp_path / "out" / "report.md").read_text()


def test_the_benchmark_script_times_a_family_and_measures_the_cpu_constant(tmp_path):
    import json

    import script_module

    script_module.run_main("gpu/auto_backend", "--papers", "lee_jeong", "--backends", "cpu",
                           "--out", str(tmp_path))
    (path,) = tmp_path.glob("auto-backend-*.json")
    (row,) = json.loads(path.read_text())["families"]
    assert row["paper"] == "lee_jeong" and row["replicas"] == 64 and row["quick"]
    assert row["auto_with_a_device"] == "cpu"
    s = row["measured_s"]["cpu"]
    assert s > 0 and row["cpu_core_us_per_slot"] == pytest.approx(
        s * row["threads"] / row["replica_slots"] * 1e6)
    # what DIFFSWEEP_AUTO_MODEL would take for this machine: the CPU's constant only here
    assert json.loads(path.read_text())["this_machine"] == {
        "cpu_us_per_slot": row["cpu_core_us_per_slot"]}


def test_an_atlas_round_on_a_gpu_machine_says_its_choice_and_records_it(fake_device, tmp_path):
    from diffsweep.studies import atlas as atlases
    from test_atlas import shrunk_sweeps

    said = []
    res = atlases.atlas("lee-jeong", "LT2.1", {"rtt_spread": [0.5, 1.0]}, quick=True,
                        out=tmp_path / "a", max_seeds=4, progress=False, log=said.append,
                        sweeps=shrunk_sweeps(tmp_path))
    assert res.meta["backend"] == "cpu"
    assert any(s.startswith("[atlas] auto chose cpu: ") for s in said), said


def test_a_dry_run_says_what_would_run_it(fake_device, capsys):
    sweep = "sweeps/examples/kaur_k2_small.toml"
    from pathlib import Path
    path = str(Path(__file__).resolve().parents[1] / sweep)
    assert cli.main(["run", path, "--out", "unused", "--dry-run", "--threads", "2"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("backend     : "))
    # every one of its 14 points is sampled (up to 64 are): the work is exact here
    assert line.startswith("backend     : cpu (auto chose cpu: 70 replicas, 3.65e+07 "
                           "replica-slots"), line
    assert cli.main(["run", path, "--out", "unused", "--dry-run", "--backend", "cuda"]) == 0
    assert "backend     : cuda\n" in capsys.readouterr().out


def test_a_large_grid_is_sampled_not_built_whole(monkeypatch):
    import diffsweep.engine.backend_choice as bc

    g = small_grid(seeds=3)  # 4 points: cbr / onoff x 2 T_on, all of the same slots
    exact = work_of_grids([g])
    monkeypatch.setattr(bc, "SAMPLE_POINTS", 2)
    built = []
    real = g.scenario
    monkeypatch.setattr(g, "scenario", lambda p, s: built.append(p) or real(p, s))
    w = work_of_grids([g])
    assert built == [0, 2]
    assert w == exact  # every point has the same duration and slot here


def test_the_environment_sets_a_machines_own_constants(monkeypatch):
    import diffsweep.engine.backend_choice as bc

    assert bc.model() == (CPU_CORE_US_PER_SLOT, CUDA_SLOT_LATENCY_US, CUDA_SLOTS_PER_S)
    monkeypatch.setenv("DIFFSWEEP_AUTO_MODEL", " cpu_us_per_slot=0.075 , cuda_slots_per_s=3e8")
    assert bc.model() == (0.075, CUDA_SLOT_LATENCY_US, 3e8)
    # the quick Kaur & Vin family on 16 threads of a core twice as fast: still the CPU's
    assert predict(Work(1104, 5.76e8, 520_833), 16)["cpu"] == pytest.approx(2.7, abs=0.01)
    for bad in ("cpu_us=1", "cuda_slot_us=0", "cuda_slot_us=-1", "cuda_slots_per_s=fast",
                "cuda_slot_us=inf", "cuda_slot_us"):
        monkeypatch.setenv("DIFFSWEEP_AUTO_MODEL", bad)
        with pytest.raises(ConfigError, match=r"^DIFFSWEEP_AUTO_MODEL: '" + bad + r"' is not "
                           r"allowed \(expected key=value pairs separated by commas, keys among "
                           r"cpu_us_per_slot, cuda_slot_us, cuda_slots_per_s, each value a "
                           r"number > 0\)"):
            bc.model()


def test_info_prints_the_model_in_use(monkeypatch, capsys):
    monkeypatch.setenv("DIFFSWEEP_AUTO_MODEL", "cuda_slot_us=5")
    assert engine.info()["auto_model"]["cuda_slot_us"] == 5.0
    assert cli.main(["info"]) == 0
    assert "a GPU slot 5 us" in capsys.readouterr().out
