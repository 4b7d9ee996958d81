"""The slim CUDA kernel's code path, proven on the CPU (issue 21).

The slim kernel (cuda/kernel_slim.cu) is the engine built with every rare model compiled out
(DS_FEAT false). The same build of the CPU engine (DS_HOST_SLIM, a test-only module compiled
here with g++ in a few seconds) must give the plain CPU engine's bits for every replica the
host would send to the slim kernel (engine.cuda_kernel "slim"), and must refuse, not compute
wrongly, a replica that uses a rare model (the kOvfShape overflow bit). tests/test_gpu.py
then checks the CUDA builds against the CPU where a GPU is present.
"""
import importlib.util
import shutil
import subprocess
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from diffsweep.engine import compiled as engine
from diffsweep.engine.pack import pack
from engine_cases import golden_cases, hook_free_cases, schedule_only_cases

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def slim(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("needs g++")
    try:
        import pybind11
    except ImportError:  # pragma: no cover - a test install has it (build requirement)
        pytest.skip("needs pybind11")
    d = tmp_path_factory.mktemp("slim")
    so = d / f"_engine_cpu_slim{sysconfig.get_config_var('EXT_SUFFIX')}"
    inc = [f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}"]
    # the engine's floating-point flags (CMakeLists.txt: DS_HOST_FP_FLAGS); -O1 for a quick
    # build: without contraction or fast-math the bits do not depend on the optimisation level
    subprocess.run(["g++", "-std=c++17", "-O1", "-shared", "-fPIC", "-fopenmp", "-ffp-contract=off",
                    "-fno-fast-math", *inc, f"-I{ROOT / 'cuda'}", "-DDS_HOST_SLIM",
                    str(ROOT / "bindings/module.cpp"), str(ROOT / "cuda/backend_cpu.cpp"),
                    "-o", str(so)], check=True, capture_output=True)
    spec = importlib.util.spec_from_file_location("_engine_cpu_slim", so)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, p):
    return mod.run_family([p.shape], [engine._flat(p)])[0]


CASES = golden_cases() + schedule_only_cases()
HOOKED = hook_free_cases()


def test_the_hooked_families_without_their_hooks_run_on_the_slim_kernel():
    """The families whose only rare model is a hook become slim without it (the others with
    hooks keep a rare model: those check the refusal below, with and without their hooks)."""
    kernel = {name: engine.cuda_kernel([pack([sc], [seed])]) for name, sc, seed in HOOKED}
    assert {n for n, k in kernel.items() if k == "slim"} == {
        f"{f}{i}-nohooks" for f in ("multihop", "drops") for i in range(3)} | {"setup0-nohooks"}


@pytest.mark.parametrize("name,sc,seed", CASES + HOOKED, ids=[c[0] for c in CASES + HOOKED])
def test_the_slim_build_gives_the_plain_bits_or_refuses(slim, name, sc, seed):
    p = pack([sc, sc], [seed, seed + 1], lanes=2)
    plain = _run(engine._module("cpu"), p)
    got = _run(slim, p)
    if engine.cuda_kernel([p]) == "slim":
        for k in plain:
            assert np.array_equal(plain[k].view(np.uint8), got[k].view(np.uint8)), (name, k)
    else:  # a rare model: the slim build flags the replica instead of running it without
        shape = [b for b, what in engine._module("cpu").overflow_bits().items()
                 if what.startswith("batch shape")]
        assert len(shape) == 1 and np.all(got["overflow"] & shape[0]), name
