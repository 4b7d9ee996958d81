"""benchmarks/phase_decision.py: issue 43's decision (a phase-major slot) read from the recorded
GPU and CPU measurements in benchmarks/results, as benchmarks/gpu.md records it, and the rule
it applies (build only a design predicted to gain 2x or more) checked on changed inputs."""
import copy
import json

import pytest
import script_module

pd = script_module.load("phase_decision")


@pytest.fixture(scope="module")
def recorded():
    return pd.read_inputs(pd.RESULTS)


def test_the_recorded_runs_read_as_gpu_md_has_them(recorded):
    # gpu.md, 2026-11-26 (H100, e2233ab): 56.82 s at the engine's choice, 62.50 s at 8 a warp,
    # the 32-a-warp run cut by its 75-s step; the H200 profiles' fetch stalls 12.1 of 24.01
    # and 6.6 of 15.98 cycles; 113.0 M 64-flow replica-slots/s at 32,768 (H100, 2026-11-25)
    assert recorded["full_auto_engine_s_e2233ab"] == 56.82
    assert recorded["full_8_a_warp_engine_s"] == 62.50
    assert recorded["cut_s"] == 75.0
    assert 71.0 < recorded["full_32_a_warp_engine_s_at_least"] < 72.0  # 75 s less 3.5 s of host
    assert recorded["fetch_share_device_full"] == pytest.approx(12.1 / 24.01)
    assert recorded["fetch_share_lone"] == pytest.approx(6.6 / 15.98)
    assert recorded["rate64_32768_replicas"] == pytest.approx(113.0e6)
    c1, c64 = recorded["cases"]["1"], recorded["cases"]["64"]
    # hot_sass.py: ~978 / ~1,186 SASS per replica-slot at HEAD's slim kernel
    assert round(c1["sass_now"]) == 978 and round(c64["sass_now"]) == 1186
    # the previous session's ideal repacking: at most 1.57x / 1.60x fewer warp instructions
    assert c1["repack"] == pytest.approx(1.57, abs=0.01)
    assert c64["repack"] == pytest.approx(1.60, abs=0.01)
    # a warp's sectors per replica-slot at 32, block layout / best interleave
    assert c64["sectors_block"] > c64["sectors_il"] > 0


def test_the_decision_on_the_recorded_numbers(recorded, tmp_path, capsys):
    res = pd.decide(recorded)
    # neither regime's ideal bound reaches 15 s; the central gain is under 2x: not built
    assert res["regime_a"]["bound_s"] > pd.TARGET_FULL_S
    assert res["regime_b"]["bound_s"] > pd.TARGET_FULL_S
    assert not res["bound_meets_15_s"] and not res["bound_meets_1e9"]
    assert res["central_gain"] < 2.0 and res["build"] is False
    # a bound is never below its central estimate
    for r in ("regime_a", "regime_b"):
        assert res[r]["bound_s"] < res[r]["central_s"]
    script_module.run_main("phase_decision", "--out", str(tmp_path))
    printed = capsys.readouterr().out
    written = json.loads((tmp_path / "phase-decision.json").read_text())
    assert written["build"] is False
    assert "< 2x: not built" in printed


def test_the_rule_builds_a_design_whose_prediction_reaches_2x(recorded):
    # a 32-a-warp run four times faster than the recorded cut: regime B's central gain >= 2x
    fast = copy.deepcopy(recorded)
    fast["full_32_a_warp_engine_s_at_least"] /= 4.0
    res = pd.decide(fast)
    assert res["regime_b"]["central_gain"] >= 2.0 and res["build"] is True
    # fetch stalls at 90% of a device-full warp's cycles: halving them alone gives ~1.8x,
    # removing them 10x (regime A's bound)
    stalled = copy.deepcopy(recorded)
    stalled["fetch_share_device_full"] = 0.9
    res = pd.decide(stalled)
    assert res["regime_a"]["gain_at_most"] == pytest.approx(10.0)
    assert res["regime_a"]["central_gain"] == pytest.approx(1.0 / 0.55)
