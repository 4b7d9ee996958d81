"""The CPU module's two builds of the engine (cuda/backend_cpu.cpp, backend_cpu_classic.cpp):
a family whose replicas use no model after ns-2's (CUBIC, CoDel, PIE, FQ-CoDel, ECN, DCTCP, a
device queue) runs on the classic build, those tests compiled out (issue 52: such a replica's
slot must not cost more than at the last release), and gives the same bits as on the full
build (DIFFSWEEP_CPU_ENGINE=full)."""
from __future__ import annotations

import numpy as np
import pytest

from diffsweep.engine import compiled as engine
from diffsweep.engine.compiled import run_packed
from diffsweep.engine.pack import pack
from engine_cases import golden_cases, schedule_only_cases

NEW = ("cubic", "codel", "pie", "ecn", "dctcp", "fq", "devq")  # the new models' case names


def _is_new(name: str) -> bool:
    return name.startswith(NEW)


def _cases():
    return golden_cases() + schedule_only_cases()


def test_the_classic_build_runs_families_without_new_models(monkeypatch):
    """engine.cpu_engine: "classic" for a family of ns-2's models alone (the golden cases,
    their rare models included), "full" as soon as one replica uses a model after ns-2's, and
    "full" for all with DIFFSWEEP_CPU_ENGINE=full."""
    monkeypatch.delenv("DIFFSWEEP_CPU_ENGINE", raising=False)
    packed = {name: pack([sc], [seed]) for name, sc, seed in _cases()}
    assert any(_is_new(n) for n in packed) and any(not _is_new(n) for n in packed)
    for name, p in packed.items():
        assert engine.cpu_engine([p]) == ("full" if _is_new(name) else "classic"), name
        # the CUDA host's own split agrees: a family of the full kernel is one of the full build
        assert (engine.cuda_kernel([p]) == "full") == _is_new(name), name
    new = next(n for n in packed if _is_new(n))
    assert engine.cpu_engine([packed["kaur0"], packed[new]]) == "full"
    monkeypatch.setenv("DIFFSWEEP_CPU_ENGINE", "full")
    assert engine.cpu_engine([packed["kaur0"]]) == "full"


def _bytes_equal(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and \
        np.array_equal(np.ascontiguousarray(a).view(np.uint8), np.ascontiguousarray(b).view(np.uint8))


CASES = {name: (sc, seed) for name, sc, seed in _cases()}


@pytest.mark.parametrize("name", [n for n in CASES if not _is_new(n)])
def test_the_classic_build_gives_the_full_builds_bits(monkeypatch, name):
    """Every output array of a case without new models, bit for bit, on both builds."""
    sc, seed = CASES[name]
    p = pack([sc], [seed])
    monkeypatch.delenv("DIFFSWEEP_CPU_ENGINE", raising=False)
    assert engine.cpu_engine([p]) == "classic"
    classic = run_packed(p, "cpu", threads=1)
    monkeypatch.setenv("DIFFSWEEP_CPU_ENGINE", "full")
    full = run_packed(p, "cpu", threads=1)
    assert set(classic) == set(full)
    bad = [f for f in sorted(full) if not _bytes_equal(classic[f], full[f])]
    assert not bad, f"{name}: {bad} differ between the classic and the full build"
