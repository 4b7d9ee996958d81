"""CPU cost of CoDel and of the queueing-delay histogram per replica-slot (issue 52).

    python benchmarks/cpu/codel.py [--out benchmarks/cpu/results/codel-cpu-vm.json]

The dumbbell (10 Mb/s, RTT 100 ms, 1000-packet buffer, windows of 1000 packets) with 4 and 64
backlogged NewReno flows, 60 s (10 s warm-up), two seeds: drop-tail, drop-tail with
`queue_delay_hist`, RED (ns-2.35's automatic parameters) and CoDel (ns-3.44's defaults), on
one thread, best of three, in this process. Each case's replica-slots per second and
bottleneck packets per second, and its ratio to drop-tail; the simulated packets differ
between queues (CoDel and RED keep the queue short and drop), so the packet rate is the fairer
measure of what each packet's AQM costs.
"""
from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

CASES = {"droptail": dict(aqm="droptail"), "droptail+hist": dict(aqm="droptail", queue_delay_hist=True),
         "red": dict(aqm="red"), "codel": dict(aqm="codel"),
         "codel+hist": dict(aqm="codel", queue_delay_hist=True)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(HERE / "results" / "codel-cpu-vm.json"))
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
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
