"""benchmarks/gpu/phase_decision.py: issue 43's decision (a phase-major slot) read from the recorded
GPU and CPU measurements in benchmarks/gpu/results, as benchmarks/gpu/gpu.md records it, and the rule
it applies (build only a design predicted to gain 2x or more) checked on changed inputs."""
import copy
import json

import pytest
import script_module

pd = script_module.load("gpu/phase_decision")


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
    script_module.run_main("gpu/phase_decision", "--out", str(tmp_path))
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


SPREAD_LINE = ("cuda per warp {pw:>4} lanes {lanes:>7} smem   0 KiB warp rounds slim: engine "
               "{t:7.2f} s (simulate {t:7.2f} s),    150.0 M replica-slots/s  da4de4fa51f926c1 same\n")


def _call(d, auto_s, auto_wall, w32, rc32=0, t32=None):
    """A gpu.sh call's $OUT as step phases leaves it."""
    d.mkdir()
    (d / "phases_auto.log").write_text(SPREAD_LINE.format(pw="auto", lanes="default", t=auto_s))
    (d / "phases_32.log").write_text(
        "kaur_vin: 13760 replicas\n" + ("" if t32 is None else SPREAD_LINE.format(pw=32, lanes=1, t=t32)))
    (d / "gpu-summary.txt").write_text(
        f"== 10:00:00 phases_auto rc=0 wall={auto_wall:.1f} s\n"
        f"== 10:02:00 phases_32 rc={rc32} wall={w32:.1f} s\n")
    return d


def test_a_call_s_own_numbers_decide_on_one_kernel(recorded, tmp_path, capsys):
    # a 32-a-warp run that finished: its engine time, no scaling between kernels
    inp = pd.call_inputs(recorded, _call(tmp_path / "a", 40.0, 44.0, 50.0, t32=46.0))
    assert inp["full_auto_engine_s_e2233ab"] == 40.0 and inp["host_overhead_s"] == 4.0
    assert inp["full_32_a_warp_engine_s_at_least"] == 46.0
    assert all(c["instr_scale"] == 1.0 for c in inp["cases"].values())
    res = pd.decide(inp)
    assert res["head_auto_estimate_s"] == 40.0
    # regime B's central: 46 s / (half of 1.60x x half of 1.37x) ~ 29.9 s: 1.34x, not built
    assert res["regime_b"]["central_s"] == pytest.approx(
        46.0 / (pd.half(inp["cases"]["64"]["repack"]) * pd.half(inp["cases"]["64"]["interleave"])))
    assert res["build"] is False
    # a 32-a-warp run at 0.73x the engine's choice (the rule needs ~0.77x): regime B's central
    # gain passes 2x, and the design is worth building
    res = pd.decide(pd.call_inputs(recorded, _call(tmp_path / "b", 40.0, 44.0, 33.0, t32=29.0)))
    assert res["regime_b"]["central_gain"] >= 2.0 and res["build"] is True
    # cut by its step's timeout: at least its wall time less the host overhead
    inp = pd.call_inputs(recorded, _call(tmp_path / "c", 40.0, 44.0, 150.0, rc32=124))
    assert inp["full_32_a_warp_engine_s_at_least"] == 146.0
    script_module.run_main("gpu/phase_decision", "--call", str(tmp_path / "c"), "--out", str(tmp_path / "o"))
    assert "call " in capsys.readouterr().out
    assert json.loads((tmp_path / "o" / "phase-decision.json").read_text())["build"] is False


def test_a_call_without_step_phases_is_refused(recorded, tmp_path):
    d = _call(tmp_path / "d", 40.0, 44.0, 50.0, t32=46.0)
    (d / "gpu-summary.txt").write_text("== 10:00:00 tests rc=0 wall=60.0 s\n")
    with pytest.raises(SystemExit, match="step phases_auto did not run"):
        pd.call_inputs(recorded, d)
