"""CPU cost of CoDel and of the queueing-delay histogram per replica-slot (issue 52).

    python benchmarks/cpu/codel.py [--out benchmarks/cpu/results/codel-cpu-vm.json]
    python benchmarks/cpu/codel.py --callgrind [--out .../codel-callgrind-vm.json]  # valgrind

The dumbbell (10 Mb/s, RTT 100 ms, 1000-packet buffer, windows of 1000 packets) with 4 and 64
backlogged NewReno flows, 60 s (10 s warm-up), two seeds: drop-tail, drop-tail with
`queue_delay_hist`, RED (ns-2.35's automatic parameters) and CoDel (ns-3.44's defaults), on
one thread, best of three, in this process. Each case's replica-slots per second and
bottleneck packets per second, and its ratio to drop-tail; the simulated packets differ
between queues (CoDel and RED keep the queue short and drop), so the packet rate is the fairer
measure of what each packet's AQM costs. A shared VM's speed drifts by tens of percent
(README.md here); `--callgrind` counts the engine module's instructions instead (as
slot_cost.py: a 5-s and a 20-s run of one replica, the difference per replica-slot and per
bottleneck packet), which a busy machine does not change.
"""
from __future__ import annotations

import argparse
import json
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from slot_cost import engine_ir
from yardstick import child_env

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, sys
from diffsweep.engine.compiled import run_packed
from diffsweep.engine.pack import pack
from diffsweep.scenario.dumbbell import dumbbell
n, dur, kw = int(sys.argv[1]), float(sys.argv[2]), json.loads(sys.argv[3])
sc = dumbbell(n_flows=n, buffer_pkts=1000, max_window_pkts=1000, duration_s=dur, warmup_s=1.0, **kw)
out = run_packed(pack([sc], [1]), "cpu", threads=1)
print("SLOTS", int(out["slots_run"].sum()), "PKTS", int(out["q_departures"][:, 0, :].sum()))
"""


def callgrind(n: int, dur: float, kw: dict) -> tuple[int, int, int]:
    """(slots, bottleneck packets, engine instructions) of one replica under callgrind."""
    with tempfile.TemporaryDirectory() as d:
        cg = Path(d) / "cg.out"
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}",
                            sys.executable, "-c", CHILD, str(n), str(dur), json.dumps(kw)],
                           env=child_env(), capture_output=True, text=True, check=True)
        m = re.search(r"SLOTS (\d+) PKTS (\d+)", p.stdout)
        return int(m.group(1)), int(m.group(2)), engine_ir(cg)


def instructions(args) -> dict:
    res = {}
    for n in (4, 64):
        base = None
        for name, kw in CASES.items():
            s1, p1, e1 = callgrind(n, 5.0, kw)
            s2, p2, e2 = callgrind(n, 20.0, kw)
            row = {"engine_instructions_per_replica_slot": (e2 - e1) / (s2 - s1),
                   "engine_instructions_per_bottleneck_packet": (e2 - e1) / max(1, p2 - p1),
                   "slots": [s1, s2], "bottleneck_pkts": [p1, p2], "engine_instructions": [e1, e2]}
            base = base or row
            row["per_slot_vs_droptail"] = (row["engine_instructions_per_replica_slot"]
                                           / base["engine_instructions_per_replica_slot"])
            row["per_pkt_vs_droptail"] = (row["engine_instructions_per_bottleneck_packet"]
                                          / base["engine_instructions_per_bottleneck_packet"])
            res[f"{n}/{name}"] = row
            print(f"{n:3d} flows {name:14s} {row['engine_instructions_per_replica_slot']:8.1f} "
                  f"instr/slot x{row['per_slot_vs_droptail']:.3f}, "
                  f"{row['engine_instructions_per_bottleneck_packet']:8.1f} instr/pkt "
                  f"x{row['per_pkt_vs_droptail']:.3f}", flush=True)
    return res

CASES = {"droptail": dict(aqm="droptail"), "droptail+hist": dict(aqm="droptail", queue_delay_hist=True),
         "red": dict(aqm="red"), "codel": dict(aqm="codel"),
         "codel+hist": dict(aqm="codel", queue_delay_hist=True)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(HERE / "results" / "codel-cpu-vm.json"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--callgrind", action="store_true", help="count instructions (valgrind)")
    args = ap.parse_args()
    if args.callgrind:
        out = args.out if args.out != ap.get_default("out") else str(
            HERE / "results" / "codel-callgrind-vm.json")
        res = {"host": platform.node(), "when": time.strftime("%Y-%m-%d %H:%M"),
               "cases": instructions(args)}
        Path(out).write_text(json.dumps(res, indent=1) + "\n")
        print("wrote", out)
        return
    from diffsweep.engine.compiled import run_packed
    from diffsweep.engine.pack import pack
    from diffsweep.scenario.dumbbell import dumbbell

    res = {"host": platform.node(), "when": time.strftime("%Y-%m-%d %H:%M"), "cases": {}}
    for n in (4, 64):
        base = None
        for name, kw in CASES.items():
            sc = dumbbell(n_flows=n, buffer_pkts=1000, max_window_pkts=1000, duration_s=60.0,
                          warmup_s=10.0, **kw)
            p = pack([sc, sc], [1, 2])
            best = 1e9
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                out = run_packed(p, "cpu", threads=1)
                best = min(best, time.perf_counter() - t0)
            slots = int(out["slots_run"].sum())
            pkts = int(out["q_departures"][:, 0, :].sum())
            row = {"replica_slots_per_s": slots / best, "bottleneck_pkts_per_s": pkts / best,
                   "slots": slots, "bottleneck_pkts": pkts, "seconds": best}
            if base is None:
                base = row
            row["slots_vs_droptail"] = row["replica_slots_per_s"] / base["replica_slots_per_s"]
            row["pkts_vs_droptail"] = row["bottleneck_pkts_per_s"] / base["bottleneck_pkts_per_s"]
            res["cases"][f"{n}/{name}"] = row
            print(f"{n:3d} flows {name:14s} {row['replica_slots_per_s'] / 1e6:6.2f} M slots/s "
                  f"{row['bottleneck_pkts_per_s'] / 1e6:6.2f} M pkts/s  x{row['slots_vs_droptail']:.3f} "
                  f"slots, x{row['pkts_vs_droptail']:.3f} pkts", flush=True)
    Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
