"""Per replica-slot counts from two run_engine.sh runs of the same replicas at two lengths (the
difference: initialisation cancels). usage: per_slot.py RUN_DIR_SHORT RUN_DIR_LONG > out.json
The counts are per_kernel.py's (the run's totals after its last kernel). Every number is
GPGPU-Sim's (simulated; the config in the run folder)."""
import json
import sys
from pathlib import Path

from per_kernel import TOTALS, final_totals

KEYS = (*TOTALS, "sched_idle", "sched_scoreboard")

a, b = final_totals(Path(sys.argv[1])), final_totals(Path(sys.argv[2]))
n = b["result"]["replica_slots"] - a["result"]["replica_slots"]
per = {k: round((b[k] - a[k]) / n, 3) for k in KEYS if k in a and k in b}
per["active_lanes_per_warp_insn"] = round((b["thread_insn"] - a["thread_insn"]) / (b["warp_insn"] - a["warp_insn"]), 2)
json.dump({"simulated": "GPGPU-Sim 4.2.0 PTX mode, the run folders' config",
           "runs": [str(sys.argv[1]), str(sys.argv[2])], "short": a, "long": b,
           "replica_slots_difference": n, "per_replica_slot": per}, sys.stdout, indent=1)
print()
