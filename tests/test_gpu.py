"""CPU vs CUDA: the same packed batch on both backends gives bit-identical outputs.

Skips where the CUDA engine is not built or no device is visible (CI has none); run it on a
GPU machine. This is what lets the CPU suite vouch for the GPU engine (DESIGN: Determinism).
"""
import numpy as np
import pytest

import diffsweep as ds
from diffsweep.engine.compiled import run_packed
from diffsweep.engine.pack import pack
from diffsweep.scenario import Link, QueueClass, Scenario, TcpFlow
from diffsweep.scenario.builders import kaur_vin
from engine_cases import _cbq, _diffserv, _paths, _tcp_aware, _traffic

pytestmark = pytest.mark.gpu


def _needs_gpu():
    i = ds.info()
    if not i["cuda_built"] or i["cuda_devices"] == 0:
        pytest.skip("no CUDA engine or no CUDA device")


def _mixed_batch():
    scs, seeds = [], []
    for i, t_on in enumerate([0.4, 4.0, 40.0]):
        for net in ("onoff", "cbr"):
            scs.append(kaur_vin(n_flows=4, rtp_ms=[8.0, 12.0, 20.0, 26.0], ef=net, t_on_ms=t_on,
                                udp=True, tcp="reno" if i % 2 else "newreno", duration_s=5.0,
                                warmup_s=1.0))
            seeds.append(100 + i)
    lossy = Link(rate_bps=20e6, prop_delay_ms=3.0, loss_prob=0.01,
                 classes=(QueueClass("be", limit_pkts=60),))
    second = Link(rate_bps=10e6, prop_delay_ms=4.0, classes=(QueueClass("be", limit_bytes=30000),))
    flows = (TcpFlow(route=(0, 1), reverse_delay_ms=7.0, delayed_ack=True),
             TcpFlow(route=(0, 1), variant="newreno", reverse_delay_ms=20.0))
    for s in range(4):
        scs.append(Scenario(links=(lossy, second), flows=flows, duration_s=5.0, warmup_s=1.0,
                            interval_s=1.0))
        seeds.append(7 + s)
    # every edge conditioner and every AQM (issue 11), as recorded in tests/engine_cases.py
    # ... and short-lived transfers on reused pool slots, sessions included (issue 12)
    # ... and the TCP-aware conditioners, two domains and the cwnd trace (issue 13)
    for sc, seed in [*_diffserv(), *_traffic(), *_paths(), *_cbq(), *_tcp_aware()]:
        scs.append(sc)
        seeds.append(seed)
    return scs, seeds


@pytest.mark.parametrize("lanes", [1, 4, 32])
def test_cpu_and_cuda_bit_identical(lanes):
    """Same batch, several team sizes (launch shapes): every output array equal bit for bit."""
    _needs_gpu()
    scs, seeds = _mixed_batch()
    groups = {}
    for sc, seed in zip(scs, seeds):
        groups.setdefault((len(sc.flows), len(sc.links), len(sc.sources)), []).append((sc, seed))
    compared = 0
    for items in groups.values():
        p = pack([s for s, _ in items], [k for _, k in items], lanes=lanes)
        cpu = run_packed(p, "cpu")
        gpu = run_packed(p, "cuda")
        for name in cpu:
            assert cpu[name].dtype == gpu[name].dtype
            assert np.array_equal(cpu[name].view(np.uint8), gpu[name].view(np.uint8)), name
            compared += 1
    assert compared > 0


def test_ten_thousand_replica_mixed_batch():
    """10,000 replicas of mixed scenarios in one call: CUDA equals the CPU on every table."""
    _needs_gpu()
    scs, seeds = _mixed_batch()
    n = 10_000
    big = [scs[i % len(scs)] for i in range(n)]
    big_seeds = [seeds[i % len(seeds)] * 100_003 + i for i in range(n)]
    big = [sc if i % 7 else kaur_vin(n_flows=16, rtp_ms=8.0, ef="onoff", t_on_ms=1.0, duration_s=2.0,
                                     warmup_s=0.5) for i, sc in enumerate(big)]
    a = ds.simulate(big, big_seeds, backend="cpu")
    b = ds.simulate(big, big_seeds, backend="cuda")
    for t in ("replicas", "flows", "queues", "sources", "intervals", "transfers", "traffic"):
        assert getattr(a, t).equals(getattr(b, t)), t


def test_cuda_backend_runs_a_grid():
    _needs_gpu()
    g = ds.Grid(kaur_vin, seeds=3, n_flows=2, ef=["onoff", "cbr"], t_on_ms=[1.0, 10.0],
                duration_s=3.0, warmup_s=0.5)
    a, b = ds.run(g, backend="cpu"), ds.run(g, backend="cuda")
    assert b.meta["backend"] == "cuda"
    cols = ["point", "seed", "flow", "delivered_bytes", "timeouts", "drops", "rtt_mean_s"]
    assert a.flows[cols].equals(b.flows[cols])


def test_the_slim_and_full_kernels_give_the_cpu_bits(monkeypatch):
    """The replicas without rare models (engine.cuda_kernel "slim") on both CUDA kernels: the
    slim one (the default for them) and the full one (DIFFSWEEP_CUDA_KERNEL=full), each equal
    to the CPU bit for bit; one job, every case its own batch, at 1 and 8 lanes. With the
    cases whose only rare model is a validation hook, run without it (hook_free_cases)."""
    _needs_gpu()
    from diffsweep.engine.compiled import cuda_kernel, run_family
    from engine_cases import golden_cases, hook_free_cases, schedule_only_cases

    cases = [(n, sc, s) for n, sc, s in golden_cases() + schedule_only_cases() + hook_free_cases()
             if cuda_kernel([pack([sc], [s])]) == "slim"]
    assert len(cases) >= 15
    for lanes in (1, 8):
        ps = [pack([sc, sc], [s, s + 1], lanes=lanes) for _, sc, s in cases]
        # the override of the previous pass is still set: the host's own choice is asked for
        monkeypatch.delenv("DIFFSWEEP_CUDA_KERNEL", raising=False)
        assert cuda_kernel(ps) == "slim"
        cpu = run_family(ps, "cpu")
        slim = run_family(ps, "cuda")
        monkeypatch.setenv("DIFFSWEEP_CUDA_KERNEL", "full")
        full = run_family(ps, "cuda")
        for (name, _, _), a, b, c in zip(cases, cpu, slim, full):
            for k in a:
                assert np.array_equal(a[k].view(np.uint8), b[k].view(np.uint8)), (name, k, "slim")
                assert np.array_equal(a[k].view(np.uint8), c[k].view(np.uint8)), (name, k, "full")


def test_resident_warps_and_one_lane_for_a_job_that_fits():
    _needs_gpu()
    from diffsweep.engine.compiled import _module, default_lanes
    m = _module("cuda")
    full, slim = m.resident_warps(True), m.resident_warps(False)
    assert 0 < full <= slim, (full, slim)
    assert default_lanes("cuda", 64, full) == 1
    assert default_lanes("cuda", 64, full + 1) == 16


def test_a_cuda_run_says_how_it_spread_its_replicas():
    _needs_gpu()
    scs = [kaur_vin(n_flows=n, duration_s=1.0, warmup_s=0.1) for n in (1, 64)]
    res = ds.simulate(scs, [1, 2], backend="cuda")
    plan = res.meta["cuda_plan"]
    assert plan["kernel"] == res.meta["cuda_kernel"] == "slim"
    assert plan["resident_warps"] > 0 and plan["per_warp"] == 1
    assert plan["warps"] == 2 and plan["waves"] == 1


def test_cuda_plus_cpu_gives_the_cpu_bits(monkeypatch):
    """The cuda+cpu backend (diffsweep.engine.hybrid) on a real device: the mixed batch split between
    the GPU and the CPU cores (the model's constants set so that both get about half), every
    table equal to the CPU's."""
    _needs_gpu()
    import pandas as pd

    from diffsweep.engine import backend_choice
    from diffsweep.engine.execution import simulate
    from diffsweep.core.results import TABLES

    monkeypatch.setattr(backend_choice, "CUDA_SLOT_LATENCY_US", 0.0)
    monkeypatch.setattr(backend_choice, "CUDA_SLOTS_PER_S",
                        1e6 * ds.info()["openmp_threads"] / backend_choice.CPU_CORE_US_PER_SLOT)
    scs, seeds = _mixed_batch()
    res = simulate(scs, seeds, backend="cuda+cpu")
    assert res.meta["split"]["cuda"]["replicas"] > 0 and res.meta["split"]["cpu"]["replicas"] > 0
    ref = simulate(scs, seeds, backend="cpu")
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(res, name), getattr(ref, name), check_exact=True)


def test_repeats_on_cuda_get_their_twins_bits():
    """diffsweep.engine.repeats on a real device: every golden case and a repeat of each (another
    object, other params) on cuda, one run per distinct replica, every replica's rows equal to
    the CPU's run of its case alone."""
    _needs_gpu()
    from diffsweep.engine.execution import simulate
    from test_repeats import assert_rows_equal, golden_with_repeats, rows_of

    scs, seeds, twin = golden_with_repeats()
    n = len(scs) // 2
    alone = simulate(scs[:n], seeds[:n], backend="cpu")
    res = simulate(scs, seeds, backend="cuda")
    assert res.meta["backend"] == "cuda" and res.meta["distinct_replicas"] == n
    for i in range(2 * n):
        assert_rows_equal(rows_of(res, i), rows_of(alone, twin[i]))


@pytest.mark.parametrize("split", ["1", "streams"])
def test_a_job_split_by_kernel_gives_the_cpu_bits(monkeypatch, split):
    """DIFFSWEEP_CUDA_SPLIT (backend_cuda.cu, an experiment): the mixed batch's replicas without
    a rare model on the slim kernel and the others on the full one, one launch after the other
    ("1") or at once ("streams"), every table equal to the CPU's; a value it does not know is
    refused, naming the variable and its values."""
    _needs_gpu()
    import pandas as pd

    from diffsweep.engine.compiled import cuda_kernel
    from diffsweep.engine.execution import simulate
    from diffsweep.core.results import TABLES

    scs, seeds = _mixed_batch()
    # both kinds in one job: the Kaur & Vin replicas alone would run on the slim kernel
    assert cuda_kernel([pack(scs[:6], seeds[:6])]) == "slim"
    assert cuda_kernel([pack(scs[6:], seeds[6:])]) in ("classic", "full")
    ref = simulate(scs, seeds, backend="cpu")
    monkeypatch.delenv("DIFFSWEEP_CUDA_KERNEL", raising=False)
    monkeypatch.setenv("DIFFSWEEP_CUDA_SPLIT", split)
    res = simulate(scs, seeds, backend="cuda")
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(res, name), getattr(ref, name), check_exact=True)
    monkeypatch.setenv("DIFFSWEEP_CUDA_SPLIT", "both")
    with pytest.raises(Exception, match="DIFFSWEEP_CUDA_SPLIT.*streams"):
        simulate(scs[:2], seeds[:2], backend="cuda")
