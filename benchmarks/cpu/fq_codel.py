"""CPU cost of FQ-CoDel per replica-slot and per bottleneck packet (issue 52), counted with
callgrind as benchmarks/cpu/codel.py --callgrind counts CoDel's (its dumbbell: 10 Mb/s, RTT
100 ms, 1000-packet buffer, windows of 1000 packets; 4 and 64 backlogged NewReno flows; a
5-s and a 20-s run of one replica, the difference per replica-slot and per packet):
drop-tail, CoDel and FQ-CoDel (ns-3.44's defaults: 1024 buckets, quantum 1500), and FQ-CoDel
with every flow in one bucket (``fq_flows=1``: its cost without the round robin).

    python benchmarks/cpu/fq_codel.py [--out benchmarks/cpu/results/fq_codel-callgrind-vm.json]
"""
from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import codel

HERE = Path(__file__).resolve().parent
CASES = {"droptail": dict(aqm="droptail"), "codel": dict(aqm="codel"),
         "fq_codel": dict(aqm="fq_codel"), "fq_codel/1 bucket": dict(aqm="fq_codel", fq_flows=1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(HERE / "results" / "fq_codel-callgrind-vm.json"))
    args = ap.parse_args()
    codel.CASES = CASES
    res = {"host": platform.node(), "when": time.strftime("%Y-%m-%d %H:%M"),
           "cases": codel.instructions(args)}
    Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
