"""CPU vs CUDA in GPGPU-Sim (benchmarks/gpusim/): the engine's own device functions on fixed
inputs, then the CUDA engine (slim kernel) on small Kaur & Vin jobs and on the golden cases the
slim kernel runs, every output array equal to the CPU engine's bit for bit. The simulator runs
in functional mode (PTX_SIM_MODE_FUNC=1: the same instructions, no timing).

Skips unless the simulator is set up: `W=DIR bash benchmarks/gpusim/setup.sh SRC` (DIR in
DIFFSWEEP_GPUSIM, default ~/gpusim). Builds the CUDA module for the simulator first (~2 min on 2
cores). Before the two patches of benchmarks/gpusim/patches/gpgpu-sim-int64-literals-bfi.patch
the engine cases failed with 17 of the 57 output arrays wrong (the simulator's, not the
engine's: benchmarks/gpusim/README.md)."""
import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GS = ROOT / "benchmarks" / "gpusim"
W = Path(os.environ.get("DIFFSWEEP_GPUSIM", Path.home() / "gpusim"))


def _installed() -> bool:
    return (W / "cuda-11.8" / "bin" / "nvcc").exists() and any(
        (W / "gpgpu-sim" / "lib").glob("*/cuda-11080/release/libcudart.so"))


pytestmark = pytest.mark.skipif(not _installed(), reason=f"GPGPU-Sim not set up in {W} "
                                "(benchmarks/gpusim/setup.sh; DIFFSWEEP_GPUSIM)")


def _env(**kw) -> dict:
    return {**os.environ, "W": str(W), **kw}


@pytest.fixture(scope="module")
def slim_module():
    r = subprocess.run(["bash", str(GS / "build_engine.sh"), "slim", str(ROOT)], env=_env(),
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:]
    return W / "proj-slim"


@pytest.fixture(scope="module")
def slim_wave_module():
    """The wavefront schedule's stage kernels (cuda/kernel_wave.cuh), slim build."""
    r = subprocess.run(["bash", str(GS / "build_engine.sh"), "slim", str(ROOT)],
                       env=_env(WAVE="1"), capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:]
    return W / "proj-slim-wave"


def test_the_engines_device_functions_equal_the_host_build():
    """Philox, the uniform and exponential draws, plog/pexp/ppow and the on-off source, each
    word of each of 256 inputs (the source: 64 sources x 200 slots of state) as on the host."""
    r = subprocess.run(["bash", str(GS / "run_wtests.sh"), "core", "source"], env=_env(FUNC="1"),
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:]
    assert "core: 0 mismatches" in r.stdout and "source: 0 mismatches" in r.stdout, r.stdout


@pytest.mark.parametrize("args", [
    ["--replicas", "32", "--flows", "1", "--duration-s", "0.005", "--per-warp", "32"],
    ["--replicas", "8", "--flows", "1", "--duration-s", "0.005", "--per-warp", "1"],
    ["--replicas", "4", "--flows", "8", "--duration-s", "0.003", "--lanes", "4"],
    ["--golden", "all", "--duration-s", "0.02"],
], ids=["kv1-warp32", "kv1-warp1", "kv8-lanes4", "golden-slim"])
def test_the_simulated_cuda_engine_gives_the_cpu_bits(slim_module, args):
    name = "pytest-" + "-".join(a.strip("-") for a in args)[:60]
    r = subprocess.run(["bash", str(GS / "run_engine.sh"), name, "slim", *args],
                       env=_env(FUNC="1"), capture_output=True, text=True, timeout=1800)
    res = json.loads((W / "eng" / name / "result.json").read_text())
    assert r.returncode == 0, r.stdout[-3000:]
    assert res["outputs"] >= 57 and res["replica_slots"] > 0
    assert res["outputs_differing_from_cpu"] == []
    if "--golden" in args:
        assert len(res["golden_cases"]) >= 5  # (the cases the slim kernel runs at this length)


@pytest.mark.parametrize("phases", [None, "block", "kernels"],
                         ids=["round-stages", "slot-phases", "phase-kernels"])
@pytest.mark.parametrize("args", [
    ["--replicas", "32", "--flows", "1", "--duration-s", "0.005"],
    ["--replicas", "4", "--flows", "8", "--duration-s", "0.003", "--lanes", "4"],
    ["--golden", "all", "--duration-s", "0.02"],
], ids=["kv1", "kv8-lanes4", "golden-slim"])
def test_the_simulated_stage_kernels_give_the_cpu_bits(slim_wave_module, args, phases):
    """The wavefront schedule on CUDA (stage kernels over device-wide queues filled by
    atomics; with the slot phases, wave_queue_phases' block-local queues or a kernel per phase,
    wph_*, over device-wide ones): every output array the CPU engine's."""
    extra = ["--wavefront", "--phases", phases] if phases else ["--wavefront"]
    name = f"pytest-{phases or 'wave'}-" + "-".join(a.strip("-") for a in args)[:55]
    r = subprocess.run(["bash", str(GS / "run_engine.sh"), name, "slim", *args, *extra],
                       env=_env(FUNC="1", WAVE="1"), capture_output=True, text=True,
                       timeout=1800)
    res = json.loads((W / "eng" / name / "result.json").read_text())
    assert r.returncode == 0, r.stdout[-3000:]
    assert res["outputs"] >= 57 and res["replica_slots"] > 0
    assert res["outputs_differing_from_cpu"] == []
    if "--golden" in args:
        assert len(res["golden_cases"]) >= 5
