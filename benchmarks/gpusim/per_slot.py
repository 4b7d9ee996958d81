"""Per replica-slot counts from two run_engine.sh runs of the same replicas at two lengths (the
difference: initialisation cancels). usage: per_slot.py RUN_DIR_SHORT RUN_DIR_LONG > out.json
Every number is GPGPU-Sim's (simulated; the config in the run folder)."""
import json
import re
import sys
from pathlib import Path

KEYS = {"cycles": r"^gpu_tot_sim_cycle = (\d+)", "thread_insn": r"^gpu_tot_sim_insn = (\d+)",
        "warp_insn": r"^gpgpu_n_tot_w_icount = (\d+)",
        "l1d_accesses": r"L1D_total_cache_accesses = (\d+)",
        "l2_accesses": r"^L2_total_cache_accesses = (\d+)",
        "global_read_requests": r"^gpgpu_n_mem_read_global = (\d+)",
        "global_write_requests": r"^gpgpu_n_mem_write_global = (\d+)",
        "l1i_accesses": r"L1I_total_cache_accesses = (\d+)", "l1i_misses": r"L1I_total_cache_misses = (\d+)",
        "l1c_misses": r"L1C_total_cache_misses = (\d+)",
        # scheduler cycles with no valid instruction (an empty instruction buffer: fetch,
        # branch, barrier) and waiting on a register (per_kernel.py)
        "sched_idle": r"^Stall:.*\bW0_Idle:(\d+)", "sched_scoreboard": r"^Stall:.*\bW0_Scoreboard:(\d+)"}


def run(d: Path) -> dict:
    log = (d / "sim.log").read_text()
    out = {k: int(re.findall(p, log, re.M)[-1]) for k, p in KEYS.items() if re.findall(p, log, re.M)}
    out["result"] = json.loads((d / "result.json").read_text())
    return out


a, b = run(Path(sys.argv[1])), run(Path(sys.argv[2]))
n = b["result"]["replica_slots"] - a["result"]["replica_slots"]
per = {k: round((b[k] - a[k]) / n, 3) for k in KEYS if k in a and k in b}
per["active_lanes_per_warp_insn"] = round((b["thread_insn"] - a["thread_insn"]) / (b["warp_insn"] - a["warp_insn"]), 2)
json.dump({"simulated": "GPGPU-Sim 4.2.0 PTX mode, the run folders' config",
           "runs": [str(sys.argv[1]), str(sys.argv[2])], "short": a, "long": b,
           "replica_slots_difference": n, "per_replica_slot": per}, sys.stdout, indent=1)
print()
