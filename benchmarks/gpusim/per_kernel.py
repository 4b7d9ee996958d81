"""Per-kernel counts of one run_engine.sh run in timing mode (GPGPU-Sim prints its running totals
after each kernel; the differences are each kernel's): for the wavefront schedule's stage
kernels (cuda/kernel_wave.cuh) the stages' own numbers, and per replica-slot those of a
round's stages (plan, flow, and the queue stage's one kernel or its phase kernels) without init
and flush, which run once a replica.

    per_kernel.py RUN_DIR > out.json       (RUN_DIR: $W/eng/NAME, with sim.log and result.json)

Every number is GPGPU-Sim's (simulated; the config in the run folder). A kernel's cycles
include the config's launch latency (-gpgpu_kernel_launch_latency, 5000 cycles here)."""
import json
import re
import sys
from pathlib import Path

TOTALS = {"cycles": r"^gpu_tot_sim_cycle = (\d+)", "thread_insn": r"^gpu_tot_sim_insn = (\d+)",
          "warp_insn": r"^gpgpu_n_tot_w_icount = (\d+)",
          "l1d_accesses": r"L1D_total_cache_accesses = (\d+)",
          "global_read_requests": r"^gpgpu_n_mem_read_global = (\d+)",
          "global_write_requests": r"^gpgpu_n_mem_write_global = (\d+)",
          "l2_accesses": r"^L2_total_cache_accesses = (\d+)",
          # instruction and constant caches: zero accesses under the shipped configs'
          # -gpgpu_perfect_inst_const_cache 1 (configs/opts/il1* model them)
          "l1i_accesses": r"L1I_total_cache_accesses = (\d+)",
          "l1i_misses": r"L1I_total_cache_misses = (\d+)",
          "l1c_misses": r"L1C_total_cache_misses = (\d+)"}
# the phase kernels (wave_phases "kernels"): a round's start, then seven a slot
PHASE_KERNELS = ("wph_start", "wph_begin", "wph_sources", "wph_front", "wph_arrive", "wph_quick",
                 "wph_rest", "wph_end")
STAGES = ("wave_init", "wave_plan", "wave_flow", "wave_queue_phases", "wave_queue", "wave_flush",
          *PHASE_KERNELS, "run_family")
ROUND = ("wave_plan", "wave_flow", "wave_queue_phases", "wave_queue", *PHASE_KERNELS)


def totals(part: str) -> dict:
    """The running totals GPGPU-Sim prints after a kernel (`part`: its block of the log), with
    the issued warp instructions' active-lane histogram and the schedulers' idle cycles."""
    vals = {}
    for k, p in TOTALS.items():
        m = re.search(p, part, re.M)
        if m:
            vals[k] = int(m.group(1))
    m = re.search(r"^Stall:.*$", part, re.M)
    if m:  # W1..W32: warp instructions issued with k active lanes
        hist = {int(a): int(b) for a, b in re.findall(r"\bW(\d+):(\d+)", m.group(0)) if a != "0"}
        vals["lanes_x_insn"] = sum(k * v for k, v in hist.items())
        vals["issued"] = sum(hist.values())
        # scheduler cycles with nothing to issue: no valid instruction (an empty
        # instruction buffer: a fetch, a branch, a barrier) and waiting on a register
        # (shader.cc's shader_cycle_distro[0] and [1], summed over the schedulers)
        for k, p in (("sched_idle", r"W0_Idle:(\d+)"), ("sched_scoreboard", r"W0_Scoreboard:(\d+)")):
            mm = re.search(p, m.group(0))
            if mm:
                vals[k] = int(mm.group(1))
    return vals


def final_totals(d: Path) -> dict:
    """A run folder's totals after its last kernel, with its result.json as "result"."""
    log = (d / "sim.log").read_text()
    out = totals(re.split(r"^kernel_name = ", log, flags=re.M)[-1])
    out["result"] = json.loads((d / "result.json").read_text())
    return out


def blocks(log: str):
    """(kernel stage, {total: value}) after each kernel, in order."""
    for part in re.split(r"^kernel_name = ", log, flags=re.M)[1:]:
        name = part.split("\n", 1)[0]
        yield next((s for s in STAGES if s in name), name[:40]), totals(part)


def main() -> None:
    d = Path(sys.argv[1])
    log = (d / "sim.log").read_text()
    res = json.loads((d / "result.json").read_text())
    prev: dict = {}
    per_stage: dict = {}
    launches: dict = {}
    for stage, vals in blocks(log):
        delta = {k: v - prev.get(k, 0) for k, v in vals.items()}
        prev = vals
        acc = per_stage.setdefault(stage, {})
        for k, v in delta.items():
            acc[k] = acc.get(k, 0) + v
        launches[stage] = launches.get(stage, 0) + 1
    for stage, acc in per_stage.items():
        acc["launches"] = launches[stage]
        if acc.get("issued"):
            acc["active_lanes_per_warp_insn"] = round(acc["lanes_x_insn"] / acc["issued"], 2)
    n = res["replica_slots"]
    rnd = {k: sum(per_stage.get(s, {}).get(k, 0) for s in ROUND)
           for k in (*TOTALS, "sched_idle", "sched_scoreboard")}
    issued = sum(per_stage.get(s, {}).get("issued", 0) for s in ROUND)
    lanes = sum(per_stage.get(s, {}).get("lanes_x_insn", 0) for s in ROUND)
    per = {k: round(v / n, 3) for k, v in rnd.items()}
    per["active_lanes_per_warp_insn"] = round(lanes / issued, 2) if issued else None
    json.dump({"simulated": "GPGPU-Sim 4.2.0 PTX mode, the run folder's config",
               "run": str(d), "result": res, "per_stage": per_stage,
               "rounds_per_replica_slot": per}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
