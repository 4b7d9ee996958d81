"""Records tests/data/engine_golden.npz: every output array of every case of
tests/engine_cases.py, each case packed and run alone on the CPU backend.

Run from the repository root: python tests/data/make_engine_golden.py
Re-record only when a change is meant to alter results, and say so in the commit.
"""
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from engine_cases import golden_cases  # noqa: E402

from diffsweep.engine.compiled import run_packed  # noqa: E402
from diffsweep.engine.pack import pack  # noqa: E402

arrays = {}
for name, sc, seed in golden_cases():
    out = run_packed(pack([sc], [seed]), "cpu")
    for field, v in out.items():
        arrays[f"{name}.{field}"] = v[0:1]
path = pathlib.Path(__file__).with_name("engine_golden.npz")
np.savez_compressed(path, **arrays)
print(f"{len(arrays)} arrays -> {path} ({path.stat().st_size} bytes)")
