"""Layer ``engine``: running replicas on a backend.

Owns packing scenarios into the engine's flat arrays (``pack/``: one packer per model, the
layout read from the compiled engine), the compiled modules' wrapper and a call's tables
(``execution``: ``simulate``, ``execute``, ``execute_many``, ``info``), the choice of backend
(``backend_choice``), a call split between device and cores (``hybrid``), repeated replicas
run once (``repeats``), the slot clock's rounding checks (``rounding``), sizes, limits and
chunks (``sizing``, ``chunking``), a call's control from another thread (``run_control``) and
the checks of a call's own arguments (``run_args``).

May import: ``diffsweep.scenario``, ``diffsweep.core`` (and the private compiled modules
``diffsweep._engine_cpu`` / ``_engine_cuda``). It knows nothing of results folders, metrics or
papers.

``diffsweep.engine.X`` keeps naming what the one-module engine of 0.2 named (``simulate``,
``execute``, ``choose_backend``, ``RunControl``, ...): the names below are ``execution``'s.
"""
from __future__ import annotations

from diffsweep.engine.execution import (BACKENDS, EngineInterrupted, RunControl,  # noqa: F401
                                        arrays_bytes, batch_bytes, choose_backend,
                                        cuda_devices, cuda_free_bytes, default_lanes,
                                        device_name, execute, execute_many, info,
                                        launch_groups, resolve_backend, simulate, state_bytes,
                                        state_sections, version)


def __getattr__(name: str):
    # any other name of the 0.2 module ``diffsweep.engine`` (now ``diffsweep.engine.execution``)
    from diffsweep.engine import execution  # noqa: PLC0415
    try:
        return getattr(execution, name)
    except AttributeError:
        raise AttributeError(f"module 'diffsweep.engine' has no attribute {name!r}") from None
