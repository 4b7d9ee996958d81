"""No result depends on how the engine slices time (DESIGN: "Same bits"; issue 20).

A replica advances in rounds: each lane's flow side runs ahead to a horizon, then the queue
side catches up. Where rounds end depends on the run, not on the model: the CPU clips them at
every ``clip_slots`` slots to poll its stop word, a GPU kernel may not clip at all, a small
emission ring ends a round as soon as it fills, and a team of lanes splits the flows. Every
golden family runs here under a matrix of such schedules, all in one mixed batch, and every
output array of every replica must be bit-identical to the plain schedule's (one lane, the
default ring, the default clip), which tests/test_engine_golden.py checks against the recorded
data. This is how a new GPU kernel, whose rounds fall elsewhere, is shown to compute the
CPU's bits before it meets a GPU.
"""
from __future__ import annotations

import numpy as np
import pytest

from diffsweep.engine.compiled import run_family, run_packed
from diffsweep.engine.pack import pack
from diffsweep.engine.run_control import RunControl
from backends import BACKENDS
from engine_cases import golden_cases, schedule_only_cases

# the golden cases (recorded: tests/test_engine_golden.py) and cases checked here only against
# their own plain run
CASES = golden_cases() + schedule_only_cases()
# 0: never clipped (as a kernel that does not poll); 1: a round per slot; primes and powers of
# two so that clips fall at every phase of the replicas' loop delays; 4096 is the default.
CLIPS = (0, 1, 2, 3, 7, 13, 61, 257, 4093, 4096)
LANES = (1, 2, 8, 32)
RINGS = ("min", "lookahead")


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.atleast_1d(a), np.atleast_1d(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def _differences(out: dict, ref: dict, rows: list[tuple[str, int]]) -> list[str]:
    """'case: field, field' for every replica whose outputs differ from the reference."""
    bad = []
    for name, i in rows:
        fields = [k for k in sorted(ref) if not _same(out[k][i], ref[k][i])]
        if fields:
            bad.append(f"{name}: {', '.join(fields)}")
    return bad


@pytest.fixture(scope="module")
def alone() -> dict:
    """Each case alone under the plain schedule (tests/test_engine_golden.py: the recorded bits)."""
    return {name: run_packed(pack([sc], [seed]), "cpu") for name, sc, seed in CASES}


@pytest.mark.parametrize("emit_ring", RINGS)
@pytest.mark.parametrize("lanes", LANES)
@pytest.mark.parametrize("clip", CLIPS)
def test_every_schedule_gives_the_same_bits(alone, clip, lanes, emit_ring):
    """Each case in its own batch, so that its "min" rings are as small as it allows."""
    bad = []
    for name, sc, seed in CASES:
        out = run_packed(pack([sc], [seed], lanes=lanes, emit_ring=emit_ring), "cpu", clip_slots=clip)
        assert not out["overflow"].any(), name
        bad += _differences(out, alone[name], [(name, 0)])
    assert not bad, f"clip {clip}, {lanes} lanes, {emit_ring} rings: " + "; ".join(bad)


# (backend, clip, lanes, rings, replicas per task, warp_rounds): with shared rounds the
# cases' replicas, whose lookaheads and ends differ, step one round horizon (the nearest)
MIXED = [("cpu", 0, 1, "min", None, None), ("cpu", 1, 8, "lookahead", None, None),
         ("cpu", 61, 32, "min", None, None), ("cpu", 4093, 2, "min", None, None),
         ("cpu", 0, 1, "min", 32, True), ("cpu", 4096, 1, "lookahead", 32, True),
         ("cpu", 13, 2, "min", 7, True), ("cpu", 257, 8, "min", 32, True)]
if "cuda" in BACKENDS:  # a GPU's rounds against the CPU's plain bits (skipped without one)
    # (warp_rounds None: the default, shared rounds on cuda; False: each replica its own)
    MIXED += [("cuda", c, k, r, None, w) for c in (0, 1, 4096) for k in (1, 8, 32) for r in RINGS
              for w in (None, False)]
    MIXED += [("cuda", c, 1, "min", pt, True) for c in (0, 4096) for pt in (1, 4, 32)]
    # the stage kernels (cuda/kernel_wave.cuh)
    MIXED += [("cuda", c, k, "min", None, w) for c in (0, 61, 4096) for k in (1, 8, 32)
              for w in ("wavefront", "wavefront-phases", "wavefront-kernels")]


@pytest.mark.parametrize("backend,clip,lanes,emit_ring,per_task,warp_rounds", MIXED)
def test_mixed_batch_under_other_schedules(alone, backend, clip, lanes, emit_ring, per_task,
                                           warp_rounds):
    """Every case in one batch (padded to the largest shape) under other schedules, and on
    CUDA when a device is there."""
    p = pack([c[1] for c in CASES], [c[2] for c in CASES], lanes=lanes, emit_ring=emit_ring)
    if isinstance(warp_rounds, str):  # the stage kernels, their queue stage by slot phases
        phases = {"wavefront": False, "wavefront-phases": "block",
                  "wavefront-kernels": "kernels"}[warp_rounds]
        out = run_packed(p, backend, clip_slots=clip, replicas_per_task=per_task, wavefront=True,
                         wave_phases=phases)
    else:
        out = run_packed(p, backend, clip_slots=clip, replicas_per_task=per_task,
                         warp_rounds=warp_rounds)
    bad = _mixed_differences(out, alone)
    assert not bad, "; ".join(bad)


def _mixed_differences(out: dict, alone: dict) -> list[str]:
    """The cases of a mixed batch (every case, padded) whose outputs differ from their plain run."""
    assert not out["overflow"].any()
    bad = []
    for i, (name, _, _) in enumerate(CASES):
        ref = alone[name]
        fields = []
        for k, v in ref.items():
            got = np.atleast_1d(out[k][i])
            want = np.atleast_1d(v[0])
            # padding: the batch's arrays are at least as large as the case's own
            got = got[tuple(slice(0, n) for n in want.shape)]
            if not _same(got, want):
                fields.append(k)
        if fields:
            bad.append(f"{name}: {', '.join(fields)}")
    return bad


# The wavefront schedule (cuda/backend_cpu.cpp run_wavefront; issue 51): a task's replicas
# stage by stage. (clip, lanes, rings, replicas per task, work-queue capacity, order): one task
# of every case, tasks of 32, 7 and 3, a queue of 1, 3 or 5 items (refilled many times a round)
# or all of them, replicas through each stage in order or reversed; the queue stage
# replica by replica or by slot phases (wave_phases: a slot of every live replica at a time).
WAVE = [(0, 1, "min", 1024, 0, "forward", False), (1, 8, "lookahead", 32, 1, "reverse", False),
        (61, 32, "min", 7, 5, "forward", False), (4096, 2, "min", 1024, 3, "reverse", False),
        (13, 1, "lookahead", 3, 0, "reverse", False), (4096, 8, "min", 1024, 0, "reverse", False),
        (0, 1, "min", 1024, 0, "forward", True), (1, 8, "lookahead", 32, 1, "reverse", True),
        (61, 32, "min", 7, 5, "forward", True), (4096, 2, "min", 3, 0, "reverse", True),
        (13, 1, "lookahead", 1024, 3, "reverse", True),
        # "kernels" (CUDA: a kernel per phase) is the same loop on the CPU as True
        (61, 8, "min", 1024, 0, "reverse", "kernels")]


@pytest.mark.parametrize("clip,lanes,emit_ring,per_task,cap,order,phases", WAVE)
def test_the_wavefront_schedule_gives_the_same_bits(alone, clip, lanes, emit_ring, per_task,
                                                     cap, order, phases):
    """Every case in one batch run stage-major: each replica's outputs bit for bit its plain
    run's, whatever the task, the work queue's capacity, the replicas' order or the queue
    stage's slot phases; and the stages were handed real work (the compacted flow stage fewer
    items than the lanes' rounds; with the slot phases, arrivals and the links' service past
    their quick steps in some replica-slots, not all)."""
    p = pack([c[1] for c in CASES], [c[2] for c in CASES], lanes=lanes, emit_ring=emit_ring)
    ctl = RunControl()
    out = run_packed(p, "cpu", control=ctl, clip_slots=clip, replicas_per_task=per_task,
                     wavefront=True, wave_cap=cap, wave_order=order, wave_phases=phases)
    bad = _mixed_differences(out, alone)
    assert not bad, (f"wavefront {clip} {lanes} {emit_ring} {per_task} {cap} {order} {phases}: "
                     + "; ".join(bad))
    w = ctl.wave_counts()
    assert 0 < w["flow_items"] < w["lane_rounds"] and w["flow_events"] >= w["flow_items"] // 2
    assert w["queue_items"] * lanes == w["lane_rounds"]
    slots = int(out["slots_run"].sum())
    assert ctl.progress()[0] == slots
    if phases:  # every replica-slot through the phases; the compacted ones only where needed
        assert w["slot_items"] == slots
        assert 0 < w["arrive_items"] < slots and 0 < w["serve_items"] < slots
        assert 0 < w["source_items"] < slots
    else:
        assert w["slot_items"] == w["arrive_items"] == w["serve_items"] == w["source_items"] == 0


@pytest.mark.parametrize("per_task,clip,lanes,order,phases",
                         [(32, 0, 1, "forward", False), (3, 4096, 8, "reverse", False),
                          (32, 61, 1, "reverse", True)])
def test_a_family_job_gives_the_same_bits_stage_major(pairs, per_task, clip, lanes, order, phases):
    """A family job (one work list over every case's batch) under the wavefront schedule."""
    ps = [pack([sc, sc], [seed, seed + 1], lanes=lanes) for _, sc, seed, _ in pairs]
    outs = run_family(ps, "cpu", clip_slots=clip, replicas_per_task=per_task, wavefront=True,
                      wave_cap=4, wave_order=order, wave_phases=phases)
    bad = []
    for (name, _, _, ref), out in zip(pairs, outs):
        assert not out["overflow"].any(), name
        bad += _differences(out, ref, [(f"{name} seed {i}", i) for i in (0, 1)])
    assert not bad, "; ".join(bad)


def test_the_wavefront_schedule_is_checked():
    p = pack([CASES[0][1]], [CASES[0][2]])
    for kw, name in (({"wavefront": 1}, "wavefront"), ({"wavefront": "yes"}, "wavefront"),
                     ({"wave_cap": -1}, "wave_cap"), ({"wave_cap": 1.5}, "wave_cap"),
                     ({"wave_order": "backwards"}, "wave_order"),
                     ({"wave_phases": 1, "wavefront": True}, "wave_phases"),
                     ({"wave_phases": True}, "wave_phases"),
                     ({"wave_phases": "kernels"}, "wave_phases"),
                     ({"wave_phases": "kernel", "wavefront": True}, "wave_phases")):
        with pytest.raises(ValueError, match=name):
            run_packed(p, "cpu", **kw)


def test_min_rings_are_smaller():
    """The "min" rings are a real test: smaller than the default for many cases, for a team too."""
    for lanes in (1, 8):
        smaller = sum(pack([sc], [seed], lanes=lanes, emit_ring="min").shape["emit_cap"] <
                      pack([sc], [seed], lanes=lanes).shape["emit_cap"] for _, sc, seed in CASES)
        assert smaller >= 8, (lanes, smaller)


def test_clip_slots_is_checked():
    p = pack([CASES[0][1]], [CASES[0][2]])
    for bad in (-1, 1.5, True, 2**31):
        with pytest.raises(ValueError, match="clip_slots"):
            run_packed(p, "cpu", clip_slots=bad)


FAMILY = [("cpu", 1, 0, 1, None), ("cpu", 32, 0, 1, None), ("cpu", 32, 13, 1, None),
          ("cpu", 3, 4096, 8, None), ("cpu", 32, 1, 32, None), ("cpu", 32, 0, 1, True),
          ("cpu", 3, 4096, 8, True)]
if "cuda" in BACKENDS:  # one launch for every batch, a warp per task (skipped without a GPU):
    # replicas per warp as spread_per_warp chooses, one, and three (a warp's lanes part idle)
    FAMILY += [("cuda", pt, c, k, w) for pt in (None, 1, 3) for c in (0, 4096) for k in (1, 8, 32)
               for w in (None, False)]


@pytest.fixture(scope="module")
def pairs() -> list:
    """Each case with two seeds in a batch of its own (no padding), under the plain schedule."""
    out = []
    for name, sc, seed in CASES:
        p = pack([sc, sc], [seed, seed + 1])
        out.append((name, sc, seed, run_packed(p, "cpu")))
    return out


@pytest.mark.parametrize("backend,per_task,clip,lanes,warp_rounds", FAMILY)
def test_a_family_job_gives_the_same_bits(pairs, backend, per_task, clip, lanes, warp_rounds):
    """Every case's batch in one engine job (engine.run_family: one work list, longest replicas
    first; on CUDA one launch), its replicas grouped in tasks as a GPU warp groups them
    (replicas_per_task 32 on the CPU: one thread steps them together, piece by piece): each
    replica's outputs are those of its batch run alone, bit for bit, in its own row."""
    ps = [pack([sc, sc], [seed, seed + 1], lanes=lanes) for _, sc, seed, _ in pairs]
    outs = run_family(ps, backend, clip_slots=clip, replicas_per_task=per_task,
                      warp_rounds=warp_rounds)
    bad = []
    for (name, _, _, ref), out in zip(pairs, outs):
        assert not out["overflow"].any(), name
        bad += _differences(out, ref, [(f"{name} seed {i}", i) for i in (0, 1)])
    assert not bad, (f"{backend}, {per_task} per task, clip {clip}, {lanes} lanes, warp rounds "
                     f"{warp_rounds}: " + "; ".join(bad))


def test_replicas_per_task_is_checked():
    p = pack([CASES[0][1]], [CASES[0][2]])
    for bad in (0, -1, 1.5, True, 5000):
        with pytest.raises(ValueError, match="replicas_per_task"):
            run_packed(p, "cpu", replicas_per_task=bad)


def test_warp_rounds_is_checked():
    p = pack([CASES[0][1]], [CASES[0][2]])
    for bad in (1, 0, "yes", 2.0):
        with pytest.raises(ValueError, match="warp_rounds"):
            run_packed(p, "cpu", warp_rounds=bad)



@pytest.mark.parametrize("poison", ["0xff", "0xa5", "0x01"])
def test_no_result_reads_state_that_init_leaves_unset(alone, monkeypatch, poison):
    """Every case's batch with each replica's state block filled with a byte before it is
    bound (DIFFSWEEP_POISON_STATE, CPU): a block is reused by the next task on its thread and a
    GPU's is never cleared, so a field init_replica does not set would show as other bits."""
    monkeypatch.setenv("DIFFSWEEP_POISON_STATE", poison)
    bad = []
    for name, sc, seed in CASES:
        out = run_packed(pack([sc], [seed]), "cpu")
        bad += _differences(out, alone[name], [(name, 0)])
    assert not bad, f"poison {poison}: " + "; ".join(bad)
