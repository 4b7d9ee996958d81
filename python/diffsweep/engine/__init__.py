"""Layer ``engine``: running replicas on a backend.

Owns packing scenarios into the engine's flat arrays (``pack/``: one packer per model, the
layout read from the compiled engine), the compiled modules' wrapper (``compiled``: what is
built, ``info``, ``choose_backend``, ``run_packed``, ``run_family``), a call itself
(``execution``: ``simulate``, ``execute``, ``execute_many``), a batch's output arrays as tables
(``tables``), the choice of backend (``backend_choice``), a call split between device and cores
(``hybrid``), repeated replicas run once (``repeats``), the slot clock's rounding checks
(``rounding``), sizes, limits and chunks (``sizing``, ``chunking``), a call's control from
another thread (``run_control``) and the checks of a call's own arguments (``run_args``).

May import: ``diffsweep.scenario``, ``diffsweep.core`` (and the private compiled modules
``diffsweep._engine_cpu`` / ``_engine_cuda``). It knows nothing of results folders, metrics or
papers.

``diffsweep.engine.X`` keeps naming what the one-module engine of 0.2 named (``simulate``,
``execute``, ``choose_backend``, ``RunControl``, ...): the names of ``execution``, ``compiled``
and ``tables``.
"""
from __future__ import annotations

from diffsweep.engine.compiled import (BACKENDS, choose_backend, cuda_devices,  # noqa: F401
                                       cuda_free_bytes, default_lanes, device_name, info,
                                       resolve_backend, state_bytes, state_sections, version)
from diffsweep.engine.execution import (EngineInterrupted, RunControl,  # noqa: F401
                                        arrays_bytes, batch_bytes, execute, execute_many,
                                        launch_groups, simulate)


def __getattr__(name: str):
    # any other name of the 0.2 module ``diffsweep.engine`` (now ``diffsweep.engine.execution``,
    # ``.compiled`` and ``.tables``)
    from diffsweep.engine import compiled, execution, tables  # noqa: PLC0415
    for module in (execution, compiled, tables):
        try:
            return getattr(module, name)
        except AttributeError:
            pass
    raise AttributeError(f"module 'diffsweep.engine' has no attribute {name!r}")
