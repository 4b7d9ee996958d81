"""What the wavefront schedule's stages are handed on the Kaur & Vin yardstick (issue 51):
exact functional counts from the CPU engine's stage-major run (cuda/backend_cpu.cpp
``run_wavefront``), the input a GPU design of stage kernels over compacted work is sized
from. No timing: nothing here predicts a GPU's speed (benchmarks/gpusim/ for that).

For the 1-flow and 64-flow replicas (benchmarks/cpu/yardstick.py) and teams of 1, 8 and 32
lanes, over one task of all the replicas:
- rounds per replica, slots per round (the queue stage's items: one per live replica a round);
- the flow stage's occupancy: the (replica, lane) items with a flow event before their
  horizon, of all live (replica, lane) items. Today's megakernel runs the flow phase on every
  lane of a team and idles the rest; a compacted stage hands a warp only items with work;
- flow events per item with work (how long a flow-stage thread runs, on average);
- the megakernel's queue phase runs on lane 0 of each team: 1 / lanes of its threads busy,
  where a queue stage with one thread per replica fills its warps;
- with the slot phases (wave_phases; docs/design.md, "The slot phases"): the replica-slots
  with a source on or switching, with arrivals staged, and with a link past its quick step
  (the three compacted phases' items), of all replica-slots.

    PYTHONPATH=python:benchmarks/cpu .venv/bin/python benchmarks/gpu/wavefront_counts.py \
        [--replicas 32] [--duration-s 20] [--out benchmarks/gpu/results/wavefront-counts-vm.json]
Also checks that the stage-major run gives the replica-major run's bits (it must).
"""
from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import numpy as np

from diffsweep.engine.compiled import run_packed
from diffsweep.engine.pack import pack
from diffsweep.engine.run_control import RunControl
from yardstick import kv_replica

HERE = Path(__file__).resolve().parent


def counts(n_flows: int, lanes: int, replicas: int, duration_s: float) -> dict:
    p = pack([kv_replica(n_flows, duration_s)] * replicas, list(range(1, replicas + 1)),
             lanes=lanes)
    ref = run_packed(p, "cpu")
    ctl = RunControl()
    t0 = time.perf_counter()
    out = run_packed(p, "cpu", control=ctl, replicas_per_task=min(replicas, 1024),
                     wavefront=True, wave_phases=True)
    wall = time.perf_counter() - t0
    same = all(np.array_equal(np.asarray(out[k]).view(np.uint8), np.asarray(v).view(np.uint8))
               for k, v in ref.items())
    w = ctl.wave_counts()
    slots = int(out["slots_run"].sum())
    return {"n_flows": n_flows, "lanes": lanes, "replicas": replicas, "slots": slots,
            "same_bits": same, **w,
            "rounds_per_replica": w["queue_items"] / replicas,
            "slots_per_round": slots / w["queue_items"],
            "flow_occupancy": w["flow_items"] / w["lane_rounds"],
            "events_per_flow_item": w["flow_events"] / max(1, w["flow_items"]),
            "megakernel_queue_phase_busy": 1.0 / lanes,
            "arrive_fraction": w["arrive_items"] / max(1, w["slot_items"]),
            "serve_fraction": w["serve_items"] / max(1, w["slot_items"]),
            "source_fraction": w["source_items"] / max(1, w["slot_items"]),
            "wall_s": round(wall, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicas", type=int, default=32)
    ap.add_argument("--duration-s", type=float, default=20.0)
    ap.add_argument("--out", default=str(HERE / "results" / "wavefront-counts-vm.json"))
    a = ap.parse_args()
    rows = [counts(n, k, a.replicas, a.duration_s) for n in (1, 64) for k in (1, 8, 32)
            if k <= max(1, n) or k == 1]
    print(f"{'flows':>5} {'lanes':>5} {'rounds/rep':>10} {'slots/round':>11} "
          f"{'flow occ.':>9} {'ev/item':>7} {'source':>7} {'arrive':>7} {'serve':>7} "
          f"{'same bits':>9}")
    for r in rows:
        print(f"{r['n_flows']:>5} {r['lanes']:>5} {r['rounds_per_replica']:>10.0f} "
              f"{r['slots_per_round']:>11.2f} {r['flow_occupancy']:>9.3f} "
              f"{r['events_per_flow_item']:>7.2f} {r['source_fraction']:>7.3f} "
              f"{r['arrive_fraction']:>7.3f} "
              f"{r['serve_fraction']:>7.3f} {str(r['same_bits']):>9}")
    doc = {"machine": {"host": "vm", "cpu": platform.machine()}, "when":
           time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "duration_s": a.duration_s,
           "rows": rows}
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {a.out}")
    assert all(r["same_bits"] for r in rows), "the stage-major run changed a result"


if __name__ == "__main__":
    main()
