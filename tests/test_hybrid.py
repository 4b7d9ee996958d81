"""The cuda+cpu backend (diffsweep.engine.hybrid): one call's replicas split between the CUDA device and
the CPU cores, run at once, put back together: the same bits as on either alone.

Without a GPU the device is the CPU engine dressed as a CUDA module (same arrays, same entry
points, one "device"), so the split, the two threads, the relay of stop and progress and the
merge run for real; tests/test_gpu.py runs the same comparison on a real device."""
import time

import numpy as np
import pandas as pd
import pytest

import diffsweep.engine.compiled as engine
from diffsweep.engine import backend_choice
from diffsweep import run
from diffsweep.engine.execution import simulate
from diffsweep.core.results import TABLES
from engine_cases import golden_cases
from stopping import short_and_long, stopped_call
from test_runner import small_grid


class CpuAsCuda:
    """The CPU engine module posing as a CUDA one with one device."""

    def __init__(self, cpu):
        self._cpu = cpu
        self.calls = 0

    def device_count(self):
        return 1

    def device_name(self):
        return "CPU posing as a GPU"

    def memory_info(self):
        return (8 << 30, 16 << 30)

    def resident_warps(self, full):
        return 2640

    def run_family(self, *a, **k):
        self.calls += 1
        return self._cpu.run_family(*a, **k)

    def __getattr__(self, name):
        return getattr(self._cpu, name)


@pytest.fixture
def device(monkeypatch):
    real = engine._module
    fake = CpuAsCuda(real("cpu"))
    monkeypatch.setattr(engine, "_module", lambda n: fake if n == "cuda" else real(n))
    # a device as fast as a CPU thread, with no floor: assign() splits about evenly
    monkeypatch.setattr(backend_choice, "CUDA_SLOT_LATENCY_US", 0.0)
    monkeypatch.setattr(backend_choice, "CUDA_SLOTS_PER_S",
                        1e6 / backend_choice.CPU_CORE_US_PER_SLOT)
    return fake


def same_tables(a, b):
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)


def test_assign_splits_so_both_finish_together():
    # 10,560 replicas of 868,056 slots (the full Kaur & Vin family), H100 constants, 16 threads
    g, c = backend_choice.assign([868_056] * 10_560, 16)
    assert sorted(g + c) == list(range(10_560)) and not set(g) & set(c)
    t_g = len(g) * 868_056 / backend_choice.CUDA_SLOTS_PER_S
    t_c = len(c) * 868_056 * backend_choice.CPU_CORE_US_PER_SLOT * 1e-6 / 16
    assert t_g == pytest.approx(t_c, rel=0.01)
    assert t_g == pytest.approx(backend_choice.predict_both(
        backend_choice.Work(10_560, 10_560 * 868_056.0, 868_056), 16), rel=0.01)
    # a short family: the device's floor (its longest replica) loses to the cores
    g, c = backend_choice.assign([520_833] * 18, 16)
    assert g == [] and len(c) == 18


def test_every_golden_case_split_gives_the_cpu_bits(device):
    cases = golden_cases()
    scs, seeds = [sc for _, sc, _ in cases], [seed for _, _, seed in cases]
    ref = simulate(scs, seeds, backend="cpu", threads=1)
    res = simulate(scs, seeds, backend="cuda+cpu", threads=1)
    same_tables(res, ref)
    split = res.meta["split"]
    assert split["cuda"]["replicas"] > 0 and split["cpu"]["replicas"] > 0
    assert split["cuda"]["replicas"] + split["cpu"]["replicas"] == len(scs)
    assert device.calls > 0
    assert res.meta["backend"] == "cuda+cpu"
    assert res.meta["device"].startswith("CPU posing as a GPU + ")
    assert res.meta["n_replicas"] == len(scs)


def test_a_run_on_cuda_plus_cpu_stores_what_the_cpu_computes(device, tmp_path):
    g = small_grid(seeds=3)
    res = run(g, backend="cuda+cpu", store=tmp_path / "out", progress=False)
    ref = run(g, backend="cpu", progress=False)
    assert res.meta["backend"] == "cuda+cpu"
    for name in ("replicas", "flows", "queues"):
        pd.testing.assert_frame_equal(getattr(res, name), getattr(ref, name), check_exact=True)


def test_a_stop_reaches_both_parts_and_keeps_their_finished_replicas(device, monkeypatch):
    # the device as fast as the two CPU threads: each part gets one long and two short replicas
    monkeypatch.setattr(backend_choice, "CUDA_SLOTS_PER_S",
                        2e6 / backend_choice.CPU_CORE_US_PER_SLOT)
    scs, seeds = short_and_long(4, 2), [1, 2, 3, 4, 5, 6]
    # two threads a part: the engine takes its long replica first, the other thread the
    # short ones (as tests/test_engine_golden.py's stop test)
    stop, (done, total) = stopped_call(
        lambda ctl: simulate(scs, seeds, backend="cuda+cpu", threads=2, control=ctl), 1.0, 6.0)
    assert 0 < done < total  # both parts' progress relayed to the caller's control
    assert list(stop.finished) == [0, 1, 2, 3] and stop.total == 6
    part = stop.partial
    assert part.meta["split"]["cuda"]["replicas"] == part.meta["split"]["cpu"]["replicas"] == 3
    full = simulate(scs[:4], seeds[:4], backend="cpu")
    same_tables(part, full)


def test_a_control_adds_up_its_parts_progress():
    from diffsweep.engine.run_control import RunControl

    g = small_grid()
    parts = [RunControl(), RunControl()]
    for ctl, seeds in zip(parts, ([1], [2, 3])):
        simulate([g.scenario(0, s) for s in seeds], seeds, backend="cpu", control=ctl)
    (d1, t1), (d2, t2) = (c.progress() for c in parts)
    assert d1 == t1 > 0 and d2 == t2 == 2 * t1  # every slot of the run done
    whole = RunControl()
    whole.add_up(parts)
    assert whole.progress() == (d1 + d2, t1 + t2)
    whole.add_up([])
    assert whole.progress() == (0, 0)


def test_an_error_in_one_part_stops_the_other_and_is_raised(device, monkeypatch):
    def broken(*a, **k):
        raise RuntimeError("device lost")

    monkeypatch.setattr(device, "run_family", broken)
    t0 = time.perf_counter()
    with pytest.raises(RuntimeError, match="device lost"):
        simulate(short_and_long(0, 2), [1, 2], backend="cuda+cpu", threads=1)
    assert time.perf_counter() - t0 < 6.0  # the CPU's 20,000-s replica was stopped


def test_auto_chooses_both_when_the_model_says_so(monkeypatch):
    real = engine._module
    monkeypatch.setattr(engine, "_module", lambda n: CpuAsCuda(real("cpu")) if n == "cuda"
                        else real(n))
    w = backend_choice.Work(10_560, 9.17e9, 868_056)  # the H100's constants: 34 s predicted
    name, why = engine.choose_backend("auto", w, 16)
    assert name == "cuda+cpu" and why.startswith("auto chose cuda+cpu: 10,560 replicas")


def test_cuda_plus_cpu_needs_a_device(monkeypatch):
    real = engine._module
    monkeypatch.setattr(engine, "_module", lambda n: None if n == "cuda" else real(n))
    with pytest.raises(engine.BackendError, match=r"^backend 'cuda\+cpu': this diffsweep was "
                                                  "built without the CUDA engine"):
        engine.resolve_backend("cuda+cpu")


def test_renumbering_maps_each_part_back_to_the_call():
    from diffsweep.engine import hybrid
    from diffsweep.core.results import Results

    df = pd.DataFrame({"replica": np.array([0, 1, 1], dtype=np.int64), "flow": [0, 0, 1]})
    empty = pd.DataFrame()
    r = Results(replicas=df[["replica"]].drop_duplicates(), flows=df, queues=empty,
                sources=empty, intervals=empty)
    t = hybrid._renumbered(r, [4, 7])
    assert t["flows"]["replica"].tolist() == [4, 7, 7]
    assert t["flows"]["replica"].dtype == np.int64
    assert df["replica"].tolist() == [0, 1, 1]  # the part's own table is left as it was


def test_a_quick_reproduction_on_cuda_plus_cpu_gives_the_cpus_verdicts(device, tmp_path,
                                                                         monkeypatch, capsys):
    import json

    from diffsweep.cli import app as cli
    from test_ux_cli import shrunk_sweeps

    monkeypatch.chdir(tmp_path)
    sweeps = shrunk_sweeps(tmp_path)
    out = {}
    for b in ("cuda+cpu", "cpu"):
        out[b] = tmp_path / b
        assert cli.main(["reproduce", "kaur-vin", "--figure", "2", "--quick", "--out",
                         str(out[b]), "--sweeps", str(sweeps), "--backend", b]) == 0
    log = capsys.readouterr().out
    assert " on cuda in " in log and " on cpu in " in log  # the family call's split, said
    verdicts = {b: json.loads((o / "verdicts.json").read_text()) for b, o in out.items()}
    assert verdicts["cuda+cpu"] == verdicts["cpu"]
    assert "backend cuda+cpu on" in (out["cuda+cpu"] / "report.md").read_text()


def test_a_stopped_family_call_on_cuda_plus_cpu_keeps_what_finished(device, monkeypatch):
    """runner.run_family (a reproduction's one engine call) on cuda+cpu, stopped as a Ctrl-C
    stops it: the short sweep's replicas, split over both parts, come back whole; the long
    one's none."""
    from diffsweep import Grid
    from diffsweep.sweep import family_run
    from diffsweep.sweep.runner import run_family
    from diffsweep.scenario.builders import kaur_vin

    monkeypatch.setattr(backend_choice, "CUDA_SLOTS_PER_S",
                        2e6 / backend_choice.CPU_CORE_US_PER_SLOT)
    short = Grid(kaur_vin, seeds=4, n_flows=2, rtp_ms=8.0, ef=None, duration_s=0.5,
                 warmup_s=0.1)
    long = Grid(kaur_vin, seeds=2, n_flows=2, rtp_ms=8.0, ef=None, duration_s=20000.0,
                warmup_s=0.1)
    t0 = time.perf_counter()
    real_poll = family_run._Progress.poll

    def poll(self, control, total):
        if time.perf_counter() - t0 > 1.0:
            control.request_stop()
        return real_poll(self, control, total)

    monkeypatch.setattr(family_run._Progress, "poll", poll)
    pre, stopped = run_family({"short": short, "long": long}, backend="cuda+cpu", threads=2,
                              progress=False)
    assert stopped is True and time.perf_counter() - t0 < 8.0
    assert len(pre["short"].replicas) == 4 and len(pre["long"].replicas) == 0
    ref, _ = run_family({"short": short}, backend="cpu", progress=False)
    pd.testing.assert_frame_equal(pre["short"].flows, ref["short"].flows, check_exact=True)
