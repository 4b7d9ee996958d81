"""The engine's data layout as the compiled module exports it (cuda/batch.h is its only
definition): every input and output array with its dtype and dimension, the axes of each
dimension, the engine's limits, its enums and its overflow bits."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np


@dataclass(frozen=True)
class Layout:
    inputs: dict[str, tuple[np.dtype, str]]   # name -> (dtype, dimension)
    outputs: dict[str, tuple[np.dtype, str]]
    dims: dict[str, tuple[str, ...]]           # dimension -> axes (shape fields or limits)
    limits: dict[str, int]
    enums: dict[str, dict[str, int]]
    overflow_bits: dict[int, str]

    def axes(self, dim: str, shape: dict) -> tuple[int, ...]:
        """The numpy shape of an array of dimension ``dim`` in a batch of ``shape``."""
        return tuple(int(shape[a]) if a in shape else int(self.limits[a]) for a in self.dims[dim])

    def zeros(self, name: str, shape: dict) -> np.ndarray:
        dtype, dim = self.inputs[name]
        return np.zeros(self.axes(dim, shape), dtype=dtype)


@lru_cache(maxsize=1)
def layout() -> Layout:
    m = importlib.import_module("diffsweep._engine_cpu")
    lim = dict(m.limits())
    lim["max_classes"] = int(lim["max_classes"])

    def fields(rows):
        return {name: (np.dtype(dt), dim) for name, dt, dim in rows}

    return Layout(inputs=fields(m.input_fields()), outputs=fields(m.output_fields()),
                  dims={k: tuple(v) for k, v in m.dims().items()}, limits=lim,
                  enums={k: dict(v) for k, v in m.enums().items()},
                  overflow_bits={int(k): str(v) for k, v in m.overflow_bits().items()})
