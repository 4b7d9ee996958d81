"""benchmarks/gpu/targets.py: issue 21's targets read from what gpu.sh's calls left, checked on the
recorded GPU runs in benchmarks/gpu/results (their numbers are in benchmarks/gpu/gpu.md) and on
hand-made logs for a cut run and a mismatch."""
import json
import shutil
from pathlib import Path

import script_module

RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "gpu" / "results"


def by_target(res: dict) -> dict:
    """target text up to its first " (" -> its row"""
    return {r["target"].split(" (")[0]: r for r in res["targets"]}


ENGINE = "full reproduce kaur-vin on cuda: engine <= 15 s"
E2E = "full reproduce kaur-vin on cuda: end to end <= 30 s"
RATIO = "full reproduce kaur-vin: cuda >= 5x the CPU cores"
BITS = "CPU = CUDA bit-identical"
THROUGHPUT = "64-flow replicas >= 1e+09 replica-slots/s at >= 32,768 replicas"


def test_the_recorded_h200_calls_read_as_gpu_md_has_them(tmp_path, capsys):
    d = tmp_path / "h200"
    shutil.copytree(RESULTS / "gpu-h200-2026-11-26", d)
    script_module.run_main("gpu/targets", str(d))
    printed = capsys.readouterr().out
    res = json.loads((d / "targets.json").read_text())
    assert res["machine"].startswith("NVIDIA H200")
    t = by_target(res)
    # gpu.md, 2026-11-26 (H200): the full family's engine call 107.0 s on cuda; the command
    # 121.0 s on cuda and 84.8 s on the 16 cores; every verdicts.json the same
    assert t[ENGINE]["measured"] == "107.0 s" and t[ENGINE]["verdict"] == "NOT MET"
    assert t[E2E]["measured"] == "121.0 s" and t[E2E]["verdict"] == "NOT MET"
    ratio = t[RATIO]
    assert ratio["measured"].startswith("0.70x (84.8 s") and ratio["verdict"] == "NOT MET"
    bits = t[BITS]
    assert bits["verdict"] == "met" and "46 passed" in bits["measured"]
    assert "full verdicts.json: cuda == cpu" in bits["measured"]
    quick = t["lee-jeong quick reproduction faster on cuda than the cores"]
    assert quick["measured"] == "cuda 3.6 s, cores 2.5 s" and quick["verdict"] == "NOT MET"
    assert t[THROUGHPUT]["verdict"] == "not measured"
    assert "target NOT MET      full reproduce kaur-vin on cuda: engine <= 15 s: 107.0 s" in printed


def test_throughput_from_the_h100_call_and_later_folders_win(tmp_path):
    targets = script_module.load("gpu/targets")
    h100 = tmp_path / "h100"
    shutil.copytree(RESULTS / "gpu-h100-2026-11-25", h100)
    # 93 M replica-slots/s for 64-flow replicas at 32,768 (gpu.md, 2026-11-25)
    rate, n = targets.throughput_64([h100])
    assert n == 32768 and 9.2e7 < rate < 9.4e7
    t = by_target(targets.targets([tmp_path / "none", h100]))
    assert t[THROUGHPUT]["verdict"] == "NOT MET"
    # that call kept its summary under another name: its verdict comparisons are not seen,
    # and a pair of logs alone says nothing about their verdicts
    assert t[BITS]["verdict"] == "not measured"
    # a later folder's file is the one read
    later = tmp_path / "later"
    later.mkdir()
    rows = json.loads((h100 / "gpu-throughput-cuda.json").read_text())
    for r in rows["rows"]:
        r["replica_slots_per_s"] *= 20
    (later / "gpu-throughput-cuda.json").write_text(json.dumps(rows))
    assert targets.throughput_64([h100, later])[0] == 20 * rate
    assert targets.throughput_64([later, h100])[0] == rate


def test_nothing_measured_says_so(tmp_path):
    targets = script_module.load("gpu/targets")
    res = targets.targets([tmp_path])
    assert {r["verdict"] for r in res["targets"]} == {"not measured"}
    assert len(res["targets"]) == 1 + 3 + 5 + 1 + 5


def _rows(*rows):
    return {"rows": [{"n_flows": f, "replicas": n, "replica_slots_per_s": v} for f, n, v in rows]}


def test_issue_51_s_targets_take_the_best_design_at_large_grids(tmp_path):
    """The large-grid rows: the best of every design's throughput file at >= 131,072 replicas
    (a faster one at fewer replicas left out), its ratio to the cores' best, and the 100-seed
    family's engine calls; a failed step is said as such."""
    targets = script_module.load("gpu/targets")
    d = tmp_path / "call"
    d.mkdir()
    (d / "gpu-throughput-cuda.json").write_text(json.dumps(_rows(
        (1, 131072, 3e8), (1, 32768, 9e9), (64, 131072, 1.5e8))))
    (d / "gpu-throughput-cuda-wavefront-phases-kernels.json").write_text(json.dumps(_rows(
        (1, 131072, 4e8), (1, 262144, 3.5e8), (64, 131072, 1.2e8))))
    (d / "gpu-throughput-cpu.json").write_text(json.dumps(_rows((1, 1024, 2e8), (1, 256, 1e8),
                                                                 (64, 1024, 1e7))))
    (d / "reproduce_seeds100_cuda.log").write_text("[family] 110,592 replicas in 50.0 s\n")
    (d / "reproduce_seeds100_cpu.log").write_text("[family] 110,592 replicas in 600.0 s\n")
    (d / "gpu-summary.txt").write_text("== 01:00:00 reproduce_seeds100_cuda rc=0 wall=55.0 s\n"
                                       "== 01:10:00 reproduce_seeds100_cpu rc=0 wall=610.0 s\n")
    t = by_target(targets.targets([d]))
    one = t["1-flow replicas >= 2e+09 replica-slots/s at >= 131,072 replicas"]
    assert one["measured"] == "4e+08 at 131,072 replicas (wavefront-phases-kernels)"
    assert one["verdict"] == "NOT MET"
    assert t["1-flow replicas: cuda >= 10x the CPU cores"]["measured"].startswith("2.00x (4e+08")
    sixty_four = t["64-flow replicas: cuda >= 10x the CPU cores"]
    assert sixty_four["measured"].startswith("15.00x (1.5e+08") and sixty_four["verdict"] == "met"
    seeds = t["reproduce kaur-vin --seeds 100: engine call on cuda >= 10x the cores"]
    assert seeds["measured"] == "12.00x (cuda 50.0 s, cores 600.0 s)" and seeds["verdict"] == "met"
    (d / "gpu-summary.txt").write_text("== 01:10:00 reproduce_seeds100_cpu rc=124 wall=600.0 s\n")
    seeds = by_target(targets.targets([d]))[
        "reproduce kaur-vin --seeds 100: engine call on cuda >= 10x the cores"]
    assert seeds["measured"] == ">= 12.00x (cuda 50.0 s; cpu did not finish (rc=124 after 600.0 s))"
    assert seeds["verdict"] == "met"  # the cores took longer than their 600 s timeout
    (d / "gpu-summary.txt").write_text("== 01:10:00 reproduce_seeds100_cpu rc=1 wall=3.0 s\n")
    seeds = by_target(targets.targets([d]))[
        "reproduce kaur-vin --seeds 100: engine call on cuda >= 10x the cores"]
    assert seeds["measured"] == "cpu did not finish (rc=1 after 3.0 s)"
    assert seeds["verdict"] == "not measured"  # a failure, not a measurement


def test_a_cut_run_and_differing_tables_are_not_met(tmp_path):
    targets = script_module.load("gpu/targets")
    (tmp_path / "gpu-summary.txt").write_text(
        "== 10:00:00 machine: a GPU; 16 CPU threads\n"
        "== 10:04:00 reproduce_full_cuda rc=124 wall=240.0 s\n"
        "== 10:05:00 reproduce_full_cpu rc=0 wall=60.0 s\n")
    (tmp_path / "reproduce_full_cuda.log").write_text(
        "[family] 20 sweeps, 10560 replicas in one engine call\n")
    (tmp_path / "reproduce_full_cpu.log").write_text(
        "[family] 20 sweeps, 10560 replicas in one engine call\n"
        "[family] 10560 replicas in 50.0 s\nwrote r.md and r.html in 59.0 s\n")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "auto-backend-x.json").write_text(json.dumps({"families": [
        {"paper": "kaur_vin", "quick": False, "measured_s": {"cuda": 20.0, "cpu": 50.0},
         "digest": {"cuda": "a", "cpu": "b"}, "same_tables": False}]}))
    # step auto's quick families (engine calls only, no reproduction timed)
    (tmp_path / "auto-backend-x.json").write_text(json.dumps({"families": [
        {"paper": "lee_jeong", "quick": True, "measured_s": {"cuda": 0.7, "cpu": 0.2},
         "digest": {"cuda": "c", "cpu": "c"}, "same_tables": True},
        {"paper": "rossi", "quick": True, "measured_s": {"cuda": 0.4, "cpu": 0.5},
         "digest": {"cuda": "d", "cpu": "d"}, "same_tables": True}]}))
    t = by_target(targets.targets([tmp_path]))
    lj, rossi = (t[f"{p} quick reproduction faster on cuda than the cores"]
                 for p in ("lee-jeong", "rossi"))
    assert lj == {"target": lj["target"], "measured": "engine calls: cuda 0.7 s, cores 0.2 s",
                  "verdict": "NOT MET"}
    assert rossi["verdict"] == "met"
    bits = t[BITS]
    assert bits["verdict"] == "NOT MET" and "MISMATCH" in bits["measured"]
    assert "auto-backend-x.json rossi: same tables" in bits["measured"]
    # the engine call from the session's JSON, the reproduction having been cut before its own
    assert t[ENGINE]["measured"] == "20.0 s" and t[ENGINE]["verdict"] == "NOT MET"
    # cut after 240 s: more than the 30 s allowed, so not met, though never finished
    assert t[E2E]["verdict"] == "NOT MET"
    assert t[E2E]["measured"] == "did not finish (rc=124 after 240.0 s)"
    assert t[RATIO]["verdict"] == "not measured"


def test_calls_in_several_folders_are_read_together(tmp_path):
    targets = script_module.load("gpu/targets")
    first, second = tmp_path / "call1", tmp_path / "call2"
    first.mkdir()
    second.mkdir()
    (first / "gpu-summary.txt").write_text(
        "== 10:00:00 machine: GPU one; 16 CPU threads\n"
        "== 10:00:09 reproduce_rossi_quick_cuda rc=0 wall=9.0 s\n"
        "== 10:00:13 reproduce_rossi_quick_cpu rc=0 wall=4.0 s\n"
        "== 10:00:13 rossi quick verdicts.json: cuda == cpu\n"
        "== 10:00:20 reproduce_habib_quick_cuda rc=0 wall=6.0 s\n"
        "== 10:00:27 reproduce_habib_quick_cpu rc=0 wall=7.0 s\n")
    for p in ("rossi", "habib"):
        for b in ("cuda", "cpu"):
            (first / f"reproduce_{p}_quick_{b}.log").write_text("wrote r.md and r.html in 1.0 s\n")
    (second / "gpu-summary.txt").write_text("== 11:00:00 machine: GPU two; 16 CPU threads\n")
    res = targets.targets([first, second])
    assert res["machine"] == "GPU two; 16 CPU threads"
    t = by_target(res)
    # the step walls from the first call's summary, not the logs' own 1.0 s
    assert t["rossi quick reproduction faster on cuda than the cores"]["measured"] == \
        "cuda 9.0 s, cores 4.0 s"
    assert t["habib quick reproduction faster on cuda than the cores"]["verdict"] == "met"
    # habib's verdicts were not said to be the same: a difference (or a file missing)
    bits = t[BITS]
    assert bits["verdict"] == "NOT MET"
    assert "rossi quick verdicts.json: cuda == cpu" in bits["measured"]
    assert "habib quick verdicts.json: cuda and cpu differ" in bits["measured"]
