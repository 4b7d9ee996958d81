"""Per replica-slot counts of a wavefront run's rounds when the simulator did not print its
kernels apart: with no launch latency (OPTS=nolat) GPGPU-Sim prints its totals only when the
device goes idle, so the phase kernels' rounds run into init's and flush's blocks. The rounds'
counts are then the run's totals less init's and flush's, taken from a reference run of the
same replicas whose stages were printed apart (the stage kernels': wave_init and wave_flush
are the same kernels on the same inputs; their launch latency, 5,000 cycles each in the
shipped config, taken off their cycles when RUN has none).

    per_round.py REF_RUN_DIR RUN_DIR > out.json

Every number is GPGPU-Sim's (simulated; the configs in the run folders)."""
import json
import re
import sys
from pathlib import Path

from per_kernel import TOTALS, blocks, final_totals

KEYS = (*TOTALS, "sched_idle", "sched_scoreboard", "lanes_x_insn", "issued")
LAUNCH_LATENCY = re.compile(r"^-gpgpu_kernel_launch_latency\s+(\d+)", re.M)


def latency(d: Path) -> int:
    """The run's launch latency (its config's last setting: later options win)."""
    m = LAUNCH_LATENCY.findall((d / "gpgpusim.config").read_text())
    return int(m[-1]) if m else 0


def main() -> None:
    ref, run = Path(sys.argv[1]), Path(sys.argv[2])
    tot = final_totals(run)
    r_res, res = json.loads((ref / "result.json").read_text()), tot.pop("result")
    for k in ("replicas", "flows", "lanes", "duration_s", "replica_slots"):
        if r_res.get(k) != res.get(k):
            sys.exit(f"per_round.py: {k} differs ({r_res.get(k)} in {ref}, {res.get(k)} in "
                     f"{run}): the reference must run the same replicas")
    prev, once = {}, {k: 0 for k in KEYS}
    for stage, vals in blocks((ref / "sim.log").read_text()):
        if stage in ("wave_init", "wave_flush"):
            for k in KEYS:
                once[k] += vals.get(k, 0) - prev.get(k, 0)
        prev = vals
    once["cycles"] -= 2 * (latency(ref) - latency(run))
    n = res["replica_slots"]
    per = {k: round((tot[k] - once[k]) / n, 3) for k in KEYS if k in tot}
    per["active_lanes_per_warp_insn"] = round(
        (tot["lanes_x_insn"] - once["lanes_x_insn"]) / (tot["issued"] - once["issued"]), 2)
    json.dump({"simulated": "GPGPU-Sim 4.2.0 PTX mode, the run folders' configs",
               "run": str(run), "reference": str(ref), "result": res, "totals": tot,
               "init_and_flush": once, "rounds_per_replica_slot": per}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
