"""benchmarks/gpu/hot_sass.py's reading of a disassembly and its count of the code a slot runs,
on a hand-made kernel whose answers are worked out below (no nvcc, gcov or GPU needed: the
tool's build and run steps are exercised by running it, this pins the arithmetic)."""
from __future__ import annotations

import pytest
import script_module


@pytest.fixture(scope="module")
def hs():
    return script_module.load("gpu/hot_sass")


def _ins(addr: int) -> str:
    op = {0x070: "@!P0 BRA 0x40", 0x080: "LDG.E R4, desc[UR4][R2.64+0x8]",
          0x090: "STL [R1+0x4], R5", 0x0d0: "LDL R5, [R1+0x4]"}.get(
        addr, "IADD3 R1, R1, 0x1, RZ")
    return f"        /*{addr:04x}*/                   {op} ;"


def _file(path: str, line: int, at: tuple[str, int] | None = None) -> str:
    s = f'\t//## File "/w/cuda/{path}", line {line}'
    return s + (f' inlined at "/w/cuda/{at[0]}", line {at[1]}' if at else "")


# A kernel of 16-byte instructions: 0x000-0x070 the slot loop's own line; 0x080-0x0f0 a helper
# (model/x.h:5) inlined at two call sites, one run every slot (engine/q.h:20) and one never
# (engine/q.h:30); 0x100-0x130 a Philox round (core/philox.h:31) unrolled, reached from a draw
# site (model/s.h:7, once per 20 slots) through the loop line (core/philox.h:60). The loop's
# last instruction is a predicated branch, the helper's first a global load, its second a
# spill store (the never-run copy's second a spill load).
DISASM = "\n".join([
    "//--------------------- .nv.constant0 ---",
    "        /*0000*/ \t.word\t0x00000000",
    ".text._kernel:",
    _file("engine/q.h", 10), *(_ins(a) for a in range(0x000, 0x080, 0x10)),
    _file("model/x.h", 5, ("engine/q.h", 20)), _file("engine/q.h", 20),
    *(_ins(a) for a in range(0x080, 0x0c0, 0x10)),
    _file("model/x.h", 5, ("engine/q.h", 30)), _file("engine/q.h", 30),
    *(_ins(a) for a in range(0x0c0, 0x100, 0x10)),
    _file("core/philox.h", 31, ("core/philox.h", 60)), _file("core/philox.h", 60, ("model/s.h", 7)),
    _file("model/s.h", 7), *(_ins(a) for a in range(0x100, 0x140, 0x10)),
])

# executions per slot of each line, as gcov gives them (a line's copies summed)
COUNTS = {("engine/q.h", 10): 1.0, ("engine/q.h", 20): 2.0, ("engine/q.h", 30): 0.0,
          ("model/x.h", 5): 2.0, ("core/philox.h", 31): 0.9, ("core/philox.h", 60): 0.45,
          ("model/s.h", 7): 0.05}


def test_the_disassembly_is_read_with_each_instructions_inline_chain(hs, tmp_path, monkeypatch):
    monkeypatch.setattr(hs.subprocess, "run", lambda *a, **k: type("R", (), {"stdout": DISASM})())
    monkeypatch.setattr(hs, "tool", lambda name: name)
    ins = hs.slim_sass(tmp_path, "sm_90", tmp_path)
    assert len(ins) == 20  # the .word of a constant bank is not an instruction
    assert ins[0] == (0x000, (("engine/q.h", 10),), "IADD3")
    assert ins[7] == (0x070, (("engine/q.h", 10),), "BRA")  # the predicate is not the opcode
    assert ins[8] == (0x080, (("model/x.h", 5), ("engine/q.h", 20)), "LDG")
    assert ins[16][1] == (("core/philox.h", 31), ("core/philox.h", 60), ("model/s.h", 7))


def test_the_code_a_slot_runs(hs, tmp_path, monkeypatch):
    monkeypatch.setattr(hs.subprocess, "run", lambda *a, **k: type("R", (), {"stdout": DISASM})())
    monkeypatch.setattr(hs, "tool", lambda name: name)
    r = hs.analyse(hs.slim_sass(tmp_path, "sm_90", tmp_path), COUNTS)
    # 8 loop instructions once a slot; the helper's copy at line 20 all of the helper's 2.0
    # executions (its other call site never runs: that copy is cold); Philox's 4 once per
    # draw (0.05), not at its rounds' line counts
    assert r["est_executed_per_slot"] == pytest.approx(8 * 1.0 + 4 * 2.0 + 4 * 0.05, abs=0.05)
    # hot (>= 0.1 a slot): the loop and the live copy, 12 instructions in 0x000-0x0b0
    assert r["hot_instructions"] == 12
    assert r["hot_lines"] == 2 and r["hot_kib"] == 0.2  # 128-byte lines 0 and 1
    assert r["hot_by_file"] == {"engine/q.h": 8, "model/x.h": 4}
    # by kind: the branch once a slot, the live copy's load and spill store twice
    assert r["executed_by_class"] == {"alu/other": pytest.approx(11.2), "load": 2.0,
                                      "store": 2.0, "branch/sync": 1.0}
    assert r["loads_by_line"] == {"model/x.h:5": 2.0}
    assert r["local_per_slot"] == {"LDL": 0.0, "STL": 2.0}  # the cold copy's spill load: never
    assert r["hot_in_later_copies"] == 0  # the helper's one hot copy


def test_a_line_inlined_at_two_hot_sites_counts_its_second_copy(hs, tmp_path, monkeypatch):
    # the helper (model/x.h:5, 4 instructions) inlined at q.h:20 and q.h:30, both run
    two = DISASM.replace('engine/q.h", line 30', 'engine/q.h", line 31')
    monkeypatch.setattr(hs.subprocess, "run", lambda *a, **k: type("R", (), {"stdout": two})())
    monkeypatch.setattr(hs, "tool", lambda name: name)
    counts = {**COUNTS, ("engine/q.h", 31): 1.0, ("model/x.h", 5): 3.0}
    r = hs.analyse(hs.slim_sass(tmp_path, "sm_90", tmp_path), counts)
    assert r["hot_instructions"] == 16 and r["hot_in_later_copies"] == 4


def test_a_path_is_normalised_as_gcov_and_nvdisasm_spell_it(hs):
    assert hs.norm("/w/cuda/engine/../core/mintree.h") == "core/mintree.h"
    assert hs.norm("/w/cuda/engine/../model/../core/pmath.h") == "core/pmath.h"
    assert hs.norm("/usr/local/cuda/include/x.hpp") == "include/x.hpp"


def test_the_code_a_slot_runs_by_phase(hs, tmp_path, monkeypatch):
    monkeypatch.setattr(hs.subprocess, "run", lambda *a, **k: type("R", (), {"stdout": DISASM})())
    monkeypatch.setattr(hs, "tool", lambda name: name)
    monkeypatch.setattr(hs, "QUEUE_SIDE", "engine/q.h")
    # q.h's slot body: a phase "timers" from line 10, "serve" from line 20, ending at 40
    phases = ([(10, "timers"), (20, "serve")], 40)
    r = hs.analyse(hs.slim_sass(tmp_path, "sm_90", tmp_path), COUNTS, phases)
    ph = r["by_phase"]
    # the loop's line (10) is timers: 8 once a slot in 128-B line 0; the helper's live copy,
    # inlined at line 20, is serve: 4 twice a slot in line 1; the Philox draw has no frame in
    # the slot's body: the round's
    assert ph["timers"] == {"est_executed_per_slot": 8.0, "hot_instructions": 8, "hot_kib": 0.1}
    assert ph["serve"] == {"est_executed_per_slot": 8.0, "hot_instructions": 4, "hot_kib": 0.1}
    assert ph["round"]["est_executed_per_slot"] == pytest.approx(0.2)
    assert sum(v["est_executed_per_slot"] for v in ph.values()) == pytest.approx(
        r["est_executed_per_slot"], abs=0.1)


def test_the_slot_phases_are_read_from_the_engine_in_a_slots_order(hs):
    marks, end = hs.slot_phases(hs.ROOT)
    assert [name for _, name in marks] == ["timers", "stage", "sources", "delay_lines", "order",
                                           "arrive", "serve", "red_avg"]
    assert [at for at, _ in marks] == sorted(at for at, _ in marks) and marks[-1][0] < end
    assert hs.phase_of((("engine/flow_side.h", 5),), marks, end) == "flow"
    assert hs.phase_of((("model/link.h", 5), (hs.QUEUE_SIDE, marks[6][0] + 1)), marks, end) == "serve"
