"""Type stubs of the compiled engine modules (diffsweep._engine_cpu, diffsweep._engine_cuda).

Every array the engine reads or writes is listed, with its C type and dimension, by
input_fields() / output_fields(); cuda/batch.h documents each one.
"""
from typing import Literal

import numpy as np
import numpy.typing as npt

backend: Literal["cpu", "cuda"]

def run(shape: dict[str, int], arrays: dict[str, npt.NDArray[np.generic]], threads: int = ...,
        control: npt.NDArray[np.int64] | None = ...) -> dict[str, npt.NDArray[np.generic]]:
    """Run one batch of replicas to their end; returns the output arrays (flat, per field).
    shape: BatchShape's fields (cuda/batch.h), lanes (team size) and emit_cap included;
    clip_slots (optional, default poll_slots; 0: never) where rounds end at the latest;
    warp_rounds (optional, 0 or 1; default 1 on cuda, 0 on the cpu): the replicas a warp
    (CPU: a task) steps together share each round's horizon; wavefront (optional, 0 or 1),
    wave_cap (>= 0), wave_order (0 or 1) and wave_phases (0, 1 or 2, not 0 only with wavefront): a
    task's replicas stage-major (cuda/backend_cpu.cpp run_wavefront, queue_stage_phases).
    control: 12 int64 words shared while it runs ([0] stop request, [1] replica-slots done,
    [2] replicas finished, [3..9] the wavefront's stage counts); see cuda/batch.h ControlWord."""

def run_family(shapes: list[dict[str, int]], arrays: list[dict[str, npt.NDArray[np.generic]]],
               threads: int = ..., control: npt.NDArray[np.int64] | None = ...,
               replicas_per_task: int = ...) -> list[dict[str, npt.NDArray[np.generic]]]:
    """Run several batches (one per shape: a figure family) as one job, longest replicas
    first; returns each batch's output arrays, as run does. replicas_per_task: replicas one
    CPU thread steps together (0 or 1: one at a time; 32: as a GPU warp), or at most per CUDA
    warp (0: as many as leave every warp resident); no result depends on it."""

def uses_rare_models(shape: dict[str, int], arrays: dict[str, npt.NDArray[np.generic]]) -> list[bool]:
    """Per replica of a packed batch, whether it uses a rare model (edge conditioners, AQM,
    traffic generators, applications, traced flows, TCP-aware tags, non-green packets, validation
    hooks): the CUDA engine runs a launch whose replicas use none on its slim kernel."""

def cuda_kernel(shapes: list[dict[str, int]],
                arrays: list[dict[str, npt.NDArray[np.generic]]]) -> str:
    """The CUDA kernel ("slim", "classic" or "full") that runs these batches as one job: the CUDA
    backend's own choice (engine/features.h), DIFFSWEEP_CUDA_KERNEL=full included."""

def input_fields() -> list[tuple[str, str, str]]:
    """(name, numpy dtype, dimension) of every input array."""

def output_fields() -> list[tuple[str, str, str]]:
    """(name, numpy dtype, dimension) of every output array."""

def state_bytes(shape: dict[str, int]) -> int:
    """Engine state per running replica, in bytes, for a batch shape."""

def state_sections(shape: dict[str, int]) -> list[tuple[str, int]]:
    """The same, part by part: (name, bytes) in the block's order."""

def limits() -> dict[str, int]:
    """Engine limits: max_hops, max_classes, max_injected_drops, rx_bitmap_bits, max_flows,
    max_links, max_sources, max_lanes, max_slots, poll_slots."""

def dims() -> dict[str, list[str]]:
    """Each dimension (R, RL, RLC, ...) as the shape fields or limits of its axes."""

def enums() -> dict[str, dict[str, int]]:
    """tcp_variant, scheduler, tie_break, limit_kind: name -> engine value."""

def overflow_bits() -> dict[int, str]:
    """Bit of the overflow output -> the capacity it reports."""

def device_count() -> int: ...
def memory_info() -> tuple[int, int]:
    """(free, total) bytes of CUDA device 0 (CUDA module only)."""
def device_name() -> str: ...
def family_plan(shapes: list[dict[str, int]], resident_warps: int,
                replicas_per_task: int = ...) -> dict[str, int]:
    """per_warp (the most replicas a CUDA warp takes; a shape's team allows 32 / lanes) and
    warps (the tasks that makes) for these packed shapes with resident_warps resident at once
    (cuda/engine/family.h spread_per_warp; replicas_per_task > 0 sets per_warp)."""
def resident_warps(full: bool = True) -> int:
    """Warps CUDA device 0 keeps resident at once on the full (else slim) kernel; 0 on the
    CPU module or without a device."""
def max_threads() -> int: ...
