"""Instructions per replica-slot of the CPU engine (issue 21: "count instructions per slot").

    python benchmarks/cpu/slot_cost.py [--out benchmarks/cpu/results]

Runs one Kaur & Vin replica (EF on-off, T_on 10 ms; 1 flow, and 64 flows with RTP 12-26 ms)
for a short and a long duration under callgrind (valgrind), one thread, and divides the
difference in instructions by the difference in slots: set-up, Python and packing cancel, what
is left is the engine's cost of one slot of one replica (x86-64 instructions; compare builds by
this measure, not with the GPU's SASS counts). Python's share does not cancel exactly (tens of
instructions per slot from run to run), so the engine module's own instructions are counted
too (callgrind_annotate, per object): that count repeats to the instruction. Needs valgrind.
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

from yardstick import ROOT, child_env

CHILD = r"""
import sys
from diffsweep.engine.compiled import run_packed
from diffsweep.engine.pack import pack
from yardstick import kv_replica
n, dur = int(sys.argv[1]), float(sys.argv[2])
out = run_packed(pack([kv_replica(n, dur)], [1]), "cpu", threads=1)
print("SLOTS", int(out["slots_run"].sum()), "PKTS", int(out["q_departures"][:, 0, :].sum()))
"""


def engine_ir(cg: Path) -> int:
    """Instructions of the compiled engine module's own code in a callgrind profile (Python's
    share of the totals varies from run to run by tens of instructions per slot; this does
    not): every self cost the profile books to an _engine_* object, inlined code included.
    Read from the profile file itself: an ``ob=`` line names the object of the functions that
    follow (ids compressed: ``(n) name`` defines, ``(n)`` refers; ``cob=`` shares the ids); the
    cost line after a ``calls=`` line is the callee's inclusive cost, not self cost."""
    names: dict[str, str] = {}
    engine, skip, total = False, False, 0

    def name_of(v: str) -> str:
        m = re.match(r"\((\d+)\)\s*(.*)", v.strip())
        if not m:
            return v.strip()
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), "")

    with open(cg) as f:
        for line in f:
            c = line[:1]
            if line.startswith("ob="):
                engine = "/_engine_" in name_of(line[3:])
            elif line.startswith("cob="):
                name_of(line[4:])
            elif line.startswith("calls="):
                skip = True
            elif c.isdigit() or c in "+-*":
                if skip:
                    skip = False
                elif engine:
                    parts = line.split()
                    if len(parts) > 1:
                        total += int(parts[1])
    return total


def instructions(n: int, dur: float) -> tuple[int, int, int, int]:
    with tempfile.TemporaryDirectory() as d:
        cg = Path(d) / "cg.out"
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}",
                            sys.executable, "-c", CHILD, str(n), str(dur)],
                           env=child_env(), capture_output=True, text=True, check=True)
        m = re.search(r"SLOTS (\d+) PKTS (\d+)", p.stdout)
        ir = re.search(r"^summary: (\d+)", cg.read_text(), re.M) or \
            re.search(r"^totals: (\d+)", cg.read_text(), re.M)
        return int(ir.group(1)), int(m.group(1)), int(m.group(2)), engine_ir(cg)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    ap.add_argument("--short-s", type=float, default=2.0)
    ap.add_argument("--long-s", type=float, default=20.0)
    args = ap.parse_args()
    res = {}
    for n in (1, 64):
        i1, s1, p1, e1 = instructions(n, args.short_s)
        i2, s2, p2, e2 = instructions(n, args.long_s)
        per_slot = (i2 - i1) / (s2 - s1)
        per_pkt = (i2 - i1) / max(1, p2 - p1)
        engine = (e2 - e1) / (s2 - s1)
        res[str(n)] = {"instructions_per_replica_slot": per_slot,
                       "instructions_per_bottleneck_packet": per_pkt,
                       "engine_instructions_per_replica_slot": engine,
                       "slots": [s1, s2], "instructions": [i1, i2],
                       "engine_instructions": [e1, e2]}
        print(f"{n:>2} flows: {per_slot:7.1f} instructions per replica-slot "
              f"({engine:.1f} in the engine module), {per_pkt:7.1f} per bottleneck packet",
              flush=True)
    host = platform.node() or "host"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                         text=True).stdout.strip()
    path = out / f"slot-cost-{rev or 'tree'}-{host}.json"
    path.write_text(json.dumps({"machine": {"host": host, "cpu": platform.processor() or
                                            platform.machine()},
                                "when": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "commit": rev,
                                "short_s": args.short_s, "long_s": args.long_s, "cases": res},
                               indent=2) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
