"""The simulator's count readers (benchmarks/gpusim/per_kernel.py, per_slot.py) on a made-up
GPGPU-Sim log: GPGPU-Sim prints running totals after each kernel, the readers take the
differences; the instruction cache's accesses and misses and the schedulers' idle cycles
(benchmarks/gpusim/README.md, "The instruction cache") come with the rest. Needs no simulator."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "benchmarks" / "gpusim"


def totals(cycles, insn, w_insn, l1i_acc, l1i_miss, idle, scoreboard, w1, w32):
    """One kernel's block of running totals, as GPGPU-Sim prints it (the lines the readers use)."""
    return (f"gpu_tot_sim_cycle = {cycles}\ngpu_tot_sim_insn = {insn}\n"
            f"gpgpu_n_tot_w_icount = {w_insn}\n\tL1D_total_cache_accesses = {2 * w_insn}\n"
            f"gpgpu_n_mem_read_global = 7\ngpgpu_n_mem_write_global = 3\n"
            f"\tL1I_total_cache_accesses = {l1i_acc}\n\tL1I_total_cache_misses = {l1i_miss}\n"
            f"\tL1C_total_cache_misses = 0\n"
            f"Stall:5\tW0_Idle:{idle}\tW0_Scoreboard:{scoreboard}\tW1:{w1}\tW2:0\tW32:{w32}\n")


def write_run(d: Path, kernels, replica_slots):
    d.mkdir()
    log = "".join(f"kernel_name = _ZN2ds4{name}Ev\n{totals(*t)}" for name, t in kernels)
    (d / "sim.log").write_text(log)
    (d / "result.json").write_text(json.dumps({"replica_slots": replica_slots}))


def test_per_kernel_takes_each_stage_s_own_counts(tmp_path):
    run = tmp_path / "run"
    write_run(run, [("wave_init", (100, 3200, 100, 50, 10, 40, 60, 0, 100)),
                    ("wave_plan", (150, 3520, 110, 60, 11, 50, 70, 0, 110)),
                    ("wave_flow", (250, 6720, 210, 80, 12, 90, 100, 0, 210)),
                    ("wave_queue", (650, 7120, 610, 180, 20, 290, 400, 400, 210))], 10)
    out = json.loads(subprocess.run([sys.executable, str(TOOLS / "per_kernel.py"), str(run)],
                                    check=True, capture_output=True, text=True).stdout)
    q = out["per_stage"]["wave_queue"]
    assert (q["cycles"], q["warp_insn"], q["l1i_accesses"], q["l1i_misses"]) == (400, 400, 100, 8)
    assert (q["sched_idle"], q["sched_scoreboard"]) == (200, 300)
    assert q["active_lanes_per_warp_insn"] == 1.0  # 400 warp instructions at one lane
    per = out["rounds_per_replica_slot"]  # plan + flow + queue, without init, over 10
    assert per["cycles"] == (50 + 100 + 400) / 10 and per["l1i_misses"] == (1 + 1 + 8) / 10
    assert per["sched_idle"] == (10 + 40 + 200) / 10


def test_per_kernel_sums_the_phase_kernels_launches(tmp_path):
    """The phase kernels (wph_*, a launch each a slot) summed per stage over their launches, and
    all of them in the round's per replica-slot numbers."""
    run = tmp_path / "run"
    write_run(run, [("wave_plan", (100, 3200, 100, 50, 10, 40, 60, 0, 100)),
                    ("wph_start", (120, 3520, 110, 60, 11, 50, 70, 0, 110)),
                    ("wph_begin", (150, 4160, 130, 70, 12, 60, 80, 0, 130)),
                    ("wph_rest", (160, 4200, 140, 72, 12, 61, 81, 40, 130)),
                    ("wph_begin", (200, 5480, 175, 80, 13, 70, 90, 0, 175))], 5)
    out = json.loads(subprocess.run([sys.executable, str(TOOLS / "per_kernel.py"), str(run)],
                                    check=True, capture_output=True, text=True).stdout)
    b = out["per_stage"]["wph_begin"]
    assert b["launches"] == 2 and (b["cycles"], b["warp_insn"], b["l1i_misses"]) == (30 + 40, 20 + 35, 2)
    assert out["per_stage"]["wph_rest"]["active_lanes_per_warp_insn"] == 1.0  # its 10: W1 +40
    per = out["rounds_per_replica_slot"]
    assert per["cycles"] == 200 / 5 and per["warp_insn"] == 175 / 5


def test_per_round_takes_init_and_flush_from_the_reference(tmp_path):
    """A run whose kernels were not printed apart (OPTS=nolat): its totals less the reference
    run's init and flush (their launch latency off their cycles), over its replica-slots."""
    ref, run = tmp_path / "ref", tmp_path / "run"
    write_run(ref, [("wave_init", (5100, 3200, 100, 50, 10, 40, 60, 0, 100)),
                    ("wave_plan", (5300, 3520, 110, 60, 11, 50, 70, 0, 110)),
                    ("wave_queue", (5700, 4160, 130, 70, 12, 60, 80, 0, 130)),
                    ("wave_flush", (10900, 4480, 140, 75, 14, 70, 90, 0, 140))], 10)
    (ref / "gpgpusim.config").write_text("-gpgpu_kernel_launch_latency 5000\n")
    # one block at the end: init + the phase kernels' rounds + flush
    write_run(run, [("wave_init", (1000 + 200 + 600, 3200 + 1000 + 320, 100 + 60 + 10,
                                   0, 10 + 5 + 2, 0, 0, 40, 100 + 30))], 10)
    (run / "gpgpusim.config").write_text("-gpgpu_kernel_launch_latency 5000\n"
                                         "-gpgpu_kernel_launch_latency 0\n")  # (the last wins)
    out = json.loads(subprocess.run([sys.executable, str(TOOLS / "per_round.py"), str(ref), str(run)],
                                    check=True, capture_output=True, text=True).stdout)
    per = out["rounds_per_replica_slot"]
    # init 100 + flush 5200 cycles, less 2 x 5000 latency: 300; the run's 1800 - 300 = 1500
    assert per["cycles"] == 150.0 and per["thread_insn"] == 100.0 and per["warp_insn"] == 6.0
    assert per["l1i_misses"] == (17 - 12) / 10
    bad = tmp_path / "other"
    write_run(bad, [("wave_init", (1, 1, 1, 0, 0, 0, 0, 0, 1))], 11)
    (bad / "gpgpusim.config").write_text("")
    r = subprocess.run([sys.executable, str(TOOLS / "per_round.py"), str(ref), str(bad)],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "replica_slots differs" in r.stderr


def test_per_slot_takes_the_difference_of_two_lengths(tmp_path):
    a, b = tmp_path / "short", tmp_path / "long"
    write_run(a, [("run_family", (1000, 9000, 500, 400, 30, 70, 800, 500, 0))], 100)
    write_run(b, [("run_family", (1600, 13000, 900, 700, 31, 90, 1400, 900, 0))], 300)
    out = json.loads(subprocess.run([sys.executable, str(TOOLS / "per_slot.py"), str(a), str(b)],
                                    check=True, capture_output=True, text=True).stdout)
    per = out["per_replica_slot"]
    assert per["cycles"] == 3.0 and per["warp_insn"] == 2.0 and per["l1i_accesses"] == 1.5
    assert per["l1i_misses"] == 0.005 and per["sched_idle"] == 0.1 and per["sched_scoreboard"] == 3.0
    assert per["active_lanes_per_warp_insn"] == 10.0  # 4,000 thread instructions / 400 warp ones
