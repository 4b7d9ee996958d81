"""benchmarks/gpu/coalesce.py's model of a warp's memory requests, on a hand-made trace whose answers
are worked out below (no clang build or engine run: running the tool exercises those; this
pins the grouping and the layouts' arithmetic)."""
from __future__ import annotations

import numpy as np
import pytest
import script_module


@pytest.fixture(scope="module")
def co():
    return script_module.load("gpu/coalesce")


def _trace(co, rows):
    r = np.zeros(len(rows), dtype=co.REC)
    for i, (block, t, pc, off, size) in enumerate(rows):
        r[i] = (pc, block, t, off, 1, size, 0, 0)
    return r


STRIDE = 1024


def test_same_word_of_two_replicas_is_one_request_and_one_interleaved_sector(co):
    # replicas A (block 0x1000) and B (0x9000) read word 0 at the same instruction and slot
    r = _trace(co, [(0x1000, 5, 77, 0, 4), (0x9000, 5, 77, 0, 4)])
    res = co.analyse(r, STRIDE, 2, 1)
    row = res["2"]
    assert row["requests_per_replica_slot"] == pytest.approx(1 / 2)
    assert row["block"]["sectors_per_request"] == 2  # a block each: two sectors
    assert row["il4"]["sectors_per_request"] == 1    # word 0 of both: bytes 0-3 and 4-7
    assert res["1"]["requests_per_replica_slot"] == pytest.approx(2 / 2)


def test_kth_execution_groups_loop_iterations_and_other_slots_apart(co):
    # A runs instruction 9 twice in slot 5 (words 0 and 8), B once (word 8), B again in slot 6
    r = _trace(co, [(0x1000, 5, 9, 0, 4), (0x1000, 5, 9, 32, 4), (0x9000, 5, 9, 32, 4),
                    (0x9000, 6, 9, 0, 4)])
    j, req, _ = co.requests(r, 2)
    assert list(j) == [0, 0, 1, 1]
    # A's first with B's first (slot 5), A's second alone, B's slot 6 alone
    assert req[0] == req[2] and len({req[0], req[1], req[3]}) == 3
    res = co.analyse(r, STRIDE, 2, 2)
    # il4 (2 a warp): A's word 0 at byte 0, B's word 8 at 8 * 8 + 4 = 68: two sectors in the
    # shared request
    assert res["2"]["il4"]["sectors_per_request"] == pytest.approx((2 + 1 + 1) / 3)


def test_a_16_byte_read_spans_words_and_the_granule_decides_its_lines(co):
    r = _trace(co, [(0x1000, 3, 1, 16, 16)])
    j, req, _ = co.requests(r, 32)
    wj, w, wreq, _, _ = co.words(r, j, req)
    assert list(w) == [4, 5, 6, 7]
    lanes = np.full(4, 3)
    # 4-byte granules: word w of lane 3 at w * 128 + 12: four lines
    assert list(co.address("il4", lanes, w, STRIDE, 32) // 128) == [4, 5, 6, 7]
    # 16-byte granules: granule 1 of lane 3 at 1 * 512 + 48: one line
    assert set(co.address("il16", lanes, w, STRIDE, 32) // 128) == {4}
    assert list(co.address("block", lanes, w, STRIDE, 32)) == [3 * STRIDE + 16 + 4 * i
                                                                 for i in range(4)]


def _phased(co, rows):
    r = np.zeros(len(rows), dtype=co.REC)
    for i, (block, phase, t, pc, off, size) in enumerate(rows):
        r[i] = (pc, block, t, off, phase, size, 0, 0)
    return r


def test_by_phase_union_factor_and_the_whole_slot_folds_the_queue_phases(co):
    # slot 5. Phase "arrive" (6): A runs instruction 4 twice, B once (their first runs share a
    # request): 2 warp requests against 3 lone ones. Phase "serve" (7): both run instruction
    # 4 once (its k restarts in a new phase), one request against 2.
    r = _phased(co, [(0x1000, 6, 5, 4, 0, 4), (0x1000, 6, 5, 4, 8, 4), (0x9000, 6, 5, 4, 0, 4),
                     (0x1000, 7, 5, 4, 64, 4), (0x9000, 7, 5, 4, 64, 4)])
    ph = co.by_phase(r, STRIDE, 2, 1)
    assert set(ph) == {"arrive", "serve"}
    assert ph["arrive"]["requests_per_replica_slot_2"] == pytest.approx(2 / 2)
    assert ph["arrive"]["requests_per_replica_slot_1"] == pytest.approx(3 / 2)
    assert ph["arrive"]["union"] == pytest.approx(2 * 2 / 3)
    assert ph["serve"]["union"] == pytest.approx(1.0)
    # block layout: A's words 0 and 2 in one sector of its block, B's word 0 in its own
    assert ph["arrive"]["sectors_per_replica_slot_block"] == pytest.approx(3 / 2)
    # il4: word 64 / 4 = 16 of both replicas is bytes 128-135, one sector
    assert ph["serve"]["sectors_per_replica_slot_il4"] == pytest.approx(1 / 2)
    # The whole slot (one queue phase): instruction 4's runs counted across the phases, so
    # B's serve run (its 2nd) shares a request with A's second arrive run, and A's serve run
    # (its 3rd) is alone; apart, each serve run shares one with the other's.
    j, req, _ = co.requests(co.whole_slot(r), 2)
    assert req[0] == req[2] and req[1] == req[4] and len(set(req)) == 3
    assert set(co.whole_slot(r)["phase"]) == {1}


def test_packed_union_repacks_a_phase_over_the_task(co):
    # four replicas, warps of two: A and C run instruction 3 in slot 2, B and D do not. Fixed
    # warps (A, B) and (C, D) issue it twice; repacked, A and C share one warp.
    r = _phased(co, [(0x1000, 7, 2, 3, 0, 4), (0x5000, 7, 2, 3, 0, 4)])
    r = np.concatenate([r, _phased(co, [(0x3000, 7, 2, 9, 0, 4), (0x7000, 7, 2, 9, 0, 4)])])
    # B (0x3000) and D (0x7000) run another instruction (9): blocks sorted A, B, C, D
    ph = co.by_phase(r, STRIDE, 4, 1, warp=2)["serve"]
    assert ph["requests_per_replica_slot_1"] == pytest.approx(4 / 4)
    assert ph["union"] == pytest.approx((4 / 4) * 2 / 1)  # 4 warp requests, each one lane
    assert ph["packed_union"] == pytest.approx(2 * 2 / 4)  # one full warp per instruction
