"""Memory requests of a warp of replicas, under the state layout today and interleaved ones,
estimated on a machine without a GPU (issue 21).

    python benchmarks/gpu/coalesce.py [--replicas 32] [--slots 256] [--out benchmarks/gpu/results]

Why: issue 21 asks for the replicas' state interleaved per warp (word w of replica r at
((r >> 5) * S + w) * 32 + (r & 31)), so that a field read by a warp's replicas is one
transaction; docs/design.md kept a block per replica, arguing that which flow or queue a
thread touches depends on its own events. The H100 profile of 32 one-lane 64-flow replicas
a warp (benchmarks/gpu/gpu.md, 2026-11-25) spent 73% of its cycles waiting on L1TEX, L1 hit 77%.
This measures the question instead of arguing it: how many 32-byte sectors a warp's memory
instruction touches, and how many 128-byte lines a warp's slot touches, with each layout.

How: the CPU engine is built the slim way (DS_HOST_SLIM) with clang and
-fsanitize-coverage=trace-loads,trace-stores, which calls a recorder
(benchmarks/gpu/coalesce/trace_hooks.cpp) before every load and store, and with DS_TRACE_MEM,
whose marks (core/hd.h) tell the recorder where in its round each replica is. One task of
`--replicas` Kaur & Vin replicas (as hot_sass.py: EF on-off, T_on 10 ms; 1 flow, and 64 flows
with RTP 12-26 ms; seeds 1..n) runs with shared rounds, as a warp runs them on the GPU, and
every access to a replica's state block in `--slots` slots after 1.2 s is kept. A warp's
request is modelled as one instruction's k-th execution by its replicas in one slot (queue
side) or one round (flow side): SIMT runs a loop's k-th iteration of every thread still in
it together, and different branches apart. Each request's bytes are placed by a layout:
  * block: today's, each replica's state in its own block (Layout.stride bytes);
  * il4 / il8 / il16: interleaved by words of 4, 8 or 16 bytes: granule q of replica j at
    (q * 32 + j) * g, as the issue asks for g = 4 (a 16-byte packet then spans four lines;
    g = 16 keeps it in one);
and counted in distinct sectors per request, and in distinct lines a warp touches in a slot
(queue side) or a round (flow side), both per replica-slot.
Printed and written (<out>/coalesce-<commit>.json) per case and warp size (32, 8: a warp of
the task's replicas 8 at a time; 1: a lone replica). The CPU's code is not the GPU's (its
loads are x86 -O2's: what the compiler keeps in registers differs), so the ratio between
layouts is the result, not the absolute counts. Needs clang++ (14+) and pybind11.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cpu"))  # yardstick.py
from yardstick import ROOT, child_env  # noqa: E402
REC = np.dtype([("pc", "<u8"), ("block", "<u8"), ("t", "<u4"), ("off", "<u4"),
                ("phase", "u1"), ("size", "u1"), ("store", "u1"), ("pad", "u1")])
LAYOUTS = ("block", "il4", "il8", "il16")

CHILD = r"""
import importlib.util, json, os, sys
from diffsweep import engine
from diffsweep.engine.pack import pack
from yardstick import kv_replica
so, n, reps, n_slots, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
t0 = int(pack([kv_replica(n, 2.0, 1.2)], [1]).arrays["warmup_slot"][0])  # the slot at 1.2 s
p = pack([kv_replica(n, (t0 + n_slots) * 1.2 / t0 + 0.1)] * reps, list(range(1, reps + 1)))
# the recorder reads its window when the module loads
os.environ.update(DS_TRACE_T0=str(t0), DS_TRACE_T1=str(t0 + n_slots), DS_TRACE_OUT=out)
spec = importlib.util.spec_from_file_location(so.rsplit("/", 1)[-1].split(".")[0], so)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
shape = {**p.shape, "warp_rounds": 1}
mod.run_family([shape], [engine._flat(p)], threads=1, replicas_per_task=reps)
print(json.dumps(engine.state_sections(p.shape)))
"""


def build(d: Path) -> Path:
    """The CPU engine module, slim, traced: clang with load/store callbacks in the engine."""
    import pybind11
    if shutil.which("clang++") is None:
        sys.exit("coalesce.py needs clang++ (14 or later: -fsanitize-coverage=trace-loads)")
    inc = [f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}",
           f"-I{ROOT / 'cuda'}"]
    base = ["clang++", "-std=c++17", "-O2", "-fPIC", "-ffp-contract=off", "-DDS_HOST_SLIM",
            "-DDS_TRACE_MEM", *inc]
    cov = ["-fsanitize-coverage=edge,trace-loads,trace-stores"]
    objs = []
    for src, extra in (("bindings/module.cpp", []), ("cuda/backend_cpu.cpp", cov),
                       ("benchmarks/gpu/coalesce/trace_hooks.cpp", [])):
        o = d / (Path(src).stem + ".o")
        subprocess.run([*base, *extra, "-c", str(ROOT / src), "-o", str(o)], check=True)
        objs.append(str(o))
    so = d / f"_engine_cpu_slim{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(["clang++", "-shared", *cov, *objs, "-o", str(so)], check=True)
    return so


def trace(so: Path, d: Path, n_flows: int, reps: int, n_slots: int) -> tuple[np.ndarray, dict]:
    """The accesses of one task of `reps` replicas in `n_slots` slots from 1.2 s on, and the
    parts of their state block (engine.state_sections, in block order)."""
    out = d / f"trace-{n_flows}.bin"
    p = subprocess.run([sys.executable, "-c", CHILD, str(so), str(n_flows), str(reps),
                        str(n_slots), str(out)], env=child_env(str(ROOT / "python")),
                       check=True, capture_output=True, text=True)
    return np.fromfile(out, dtype=REC), json.loads(p.stdout.splitlines()[-1])


def requests(r: np.ndarray, warp: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each access's replica (0..n-1, by block), and its request: (warp, phase, mark, pc, k),
    k its execution of that instruction in that slot (queue side) or round (flow side)."""
    blocks = np.unique(r["block"])
    j = np.searchsorted(blocks, r["block"]).astype(np.int64)
    # k: order of each (replica, phase, mark, pc) among equals, in record order
    key = np.stack([j, r["phase"].astype(np.int64), r["t"].astype(np.int64),
                    r["pc"].astype(np.int64)], axis=1)
    order = np.lexsort(key.T[::-1])
    ks = key[order]
    new = np.ones(len(ks), dtype=bool)
    new[1:] = (ks[1:] != ks[:-1]).any(axis=1)
    start = np.maximum.accumulate(np.where(new, np.arange(len(ks)), 0))
    k = np.empty(len(ks), dtype=np.int64)
    k[order] = np.arange(len(ks)) - start
    req_key = np.stack([j // warp, key[:, 1], key[:, 2], key[:, 3], k], axis=1)
    _, req = np.unique(req_key, axis=0, return_inverse=True)
    return j, req.reshape(-1), blocks


def words(r: np.ndarray, j: np.ndarray, req: np.ndarray):
    """Each access split into the 4-byte words it touches: (replica, word, request, mark)."""
    first = r["off"].astype(np.int64) // 4
    last = (r["off"].astype(np.int64) + r["size"].astype(np.int64) - 1) // 4
    n = (last - first + 1)
    idx = np.repeat(np.arange(len(r)), n)
    w = first[idx] + (np.arange(len(idx)) - np.repeat(np.cumsum(n) - n, n))
    return j[idx], w, req[idx], r["t"][idx].astype(np.int64), r["phase"][idx]


def address(layout: str, j: np.ndarray, w: np.ndarray, stride: int, warp: int) -> np.ndarray:
    """The byte address of replica j's word w in a warp-sized group's arena."""
    lane = j % warp
    if layout == "block":
        return lane * stride + 4 * w
    g = int(layout[2:])
    byte = 4 * w
    return (byte // g) * (warp * g) + lane * g + byte % g


def by_section(r: np.ndarray, stride: int, reps: int, n_slots: int,
               sections: dict[str, int]) -> dict:
    """For warps of 32 of the task's replicas (all of them if fewer): each part of the state block (engine.state_sections, in
    block order) with its requests per replica-slot and its sectors per request by layout
    (a request counts for the part of its first access)."""
    names = [k for k, v in sections.items() if v > 0]
    ends = np.cumsum([sections[k] for k in names])
    warp = min(reps, 32)
    j, req, _ = requests(r, warp)
    wj, ww, wreq, _, _ = words(r, j, req)
    _, first = np.unique(req, return_index=True)
    part_of_req = np.searchsorted(ends, r["off"][first].astype(np.int64), side="right")
    out = {}
    for i, name in enumerate(names):
        mine = np.nonzero(part_of_req == i)[0]
        if not len(mine):
            continue
        sel = np.isin(wreq, mine)
        row = {"requests_per_replica_slot": len(mine) / (reps * n_slots)}
        for lay in LAYOUTS:
            a = address(lay, wj[sel], ww[sel], stride, warp)
            row[lay] = len(np.unique(np.stack([wreq[sel], a // 32], axis=1), axis=0)) / len(mine)
        out[name] = row
    return out


# The trace's phases (cuda/core/hd.h, TracePhase): the flow side once a round, then the queue
# side's phases once a slot, in a slot's order.
PHASES = ("flow", "timers", "stage", "sources", "delay_lines", "order", "arrive", "serve",
          "red_avg")


def whole_slot(r: np.ndarray) -> np.ndarray:
    """The trace with the queue side's phases folded into one (phase 1), as the engine marked
    it before the phases had marks of their own: the whole-slot numbers stay comparable."""
    f = r.copy()
    f["phase"] = np.minimum(f["phase"], 1)
    return f


def by_phase(r: np.ndarray, stride: int, reps: int, n_slots: int, warp: int = 32) -> dict:
    """Each phase on its own (issue 43): requests per replica-slot for warps of `warp` of the
    task's replicas and for a lone replica, their ratio (the warp-union factor: a warp's
    requests in a slot over one replica's), and sectors per replica-slot by layout at `warp`
    a warp. Summed over the phases, the requests are the whole slot's with a request never
    spanning two phases (a phase-major slot reconverges its warp at each phase's start).
    `packed_union`: the union factor if each phase's work were repacked over all `reps`
    replicas of the task (a block) into full warps at every (instruction, k-th run): each
    such run issued ceil(replicas running it / warp) times. A bound on what the anchors'
    rank-k passes can give: real passes repack at an item's start, not at every branch."""
    warp = min(warp, reps)
    out = {}
    for p, name in enumerate(PHASES):
        mine = r[r["phase"] == p]
        if not len(mine):
            continue
        row = {}
        for w in (warp, 1):
            j, req, _ = requests(mine, w)
            n_req = int(req.max()) + 1
            row[f"requests_per_replica_slot_{w}"] = n_req / (reps * n_slots)
            if w == warp:
                wj, ww, wreq, _, _ = words(mine, j, req)
                for lay in LAYOUTS:
                    a = address(lay, wj, ww, stride, w)
                    sec = np.unique(np.stack([wreq, a // 32], axis=1), axis=0)
                    row[f"sectors_per_replica_slot_{lay}"] = len(sec) / (reps * n_slots)
        lone = row["requests_per_replica_slot_1"]
        row["union"] = row[f"requests_per_replica_slot_{warp}"] * warp / lone
        _, req, _ = requests(mine, reps)  # the task's replicas as one group
        running = np.bincount(req)  # each replica's k-th run of an instruction: one access
        row["packed_union"] = float(np.ceil(running / warp).sum()) * warp / (lone * reps * n_slots)
        out[name] = row
    return out


def analyse(r: np.ndarray, stride: int, reps: int, n_slots: int) -> dict:
    r = whole_slot(r)
    res = {}
    for warp in sorted({min(reps, 32), min(reps, 8), 1}, reverse=True):
        j, req, _ = requests(r, warp)
        wj, ww, wreq, wt, wph = words(r, j, req)
        n_req = int(req.max()) + 1
        row = {"requests_per_replica_slot": n_req / (reps * n_slots)}
        for lay in LAYOUTS:
            a = address(lay, wj, ww, stride, warp)
            sec = np.unique(np.stack([wreq, a // 32], axis=1), axis=0)
            # lines a warp touches in a slot (queue side) or its round (flow side)
            wg = wj // warp
            lines = np.unique(np.stack([wg, wph.astype(np.int64), wt, a // 128], axis=1), axis=0)
            row[lay] = {"sectors_per_request": len(sec) / n_req,
                        "sectors_per_replica_slot": len(sec) / (reps * n_slots),
                        "lines_per_replica_slot": len(lines) / (reps * n_slots)}
        res[str(warp)] = row
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--replicas", type=int, default=32, help="replicas of one task (a warp)")
    ap.add_argument("--slots", type=int, default=256, help="slots traced, from 1.2 s on")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    a = ap.parse_args()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    result = {"commit": commit, "replicas": a.replicas, "slots": a.slots, "cases": {}}
    with tempfile.TemporaryDirectory() as td:
        d = Path(td)
        so = build(d)
        for n in (1, 64):
            r, sections = trace(so, d, n, a.replicas, a.slots)
            if not len(r):
                sys.exit(f"{n} flows: nothing traced")
            stride = sum(sections.values())
            res = analyse(r, stride, a.replicas, a.slots)
            res["accesses_per_replica_slot"] = len(r) / (a.replicas * a.slots)
            res["state_bytes"] = stride
            res["by_section"] = by_section(whole_slot(r), stride, a.replicas, a.slots, sections)
            res["by_phase"] = by_phase(r, stride, a.replicas, a.slots)
            result["cases"][str(n)] = res
            for warp, row in res.items():
                if not isinstance(row, dict) or warp in ("by_section", "by_phase"):
                    continue
                print(f"{n:2d} flows, {warp:>2s} a warp: {row['requests_per_replica_slot']:6.1f} "
                      "requests per replica-slot; sectors per request / lines per replica-slot: "
                      + ", ".join(f"{lay} {row[lay]['sectors_per_request']:.2f} / "
                                  f"{row[lay]['lines_per_replica_slot']:.1f}" for lay in LAYOUTS))
            print(f"{n:2d} flows, {min(32, a.replicas)} a warp, by part of the state (requests per "
                  "replica-slot, sectors per request block / il4 / il16):")
            for name, row in sorted(res["by_section"].items(),
                                    key=lambda kv: -kv[1]["requests_per_replica_slot"]):
                print(f"    {name:18s} {row['requests_per_replica_slot']:5.2f}  "
                      f"{row['block']:5.2f} / {row['il4']:5.2f} / {row['il16']:5.2f}")
            print(f"{n:2d} flows, by phase (requests per replica-slot at {min(32, a.replicas)} "
                  "a warp and alone, union factor, repacked over the task; sectors per "
                  "replica-slot block / il4 / il16):")
            for name, row in res["by_phase"].items():
                w = min(32, a.replicas)
                print(f"    {name:12s} {row[f'requests_per_replica_slot_{w}']:6.2f} "
                      f"{row['requests_per_replica_slot_1']:7.2f}  {row['union']:5.2f}x "
                      f"(packed {row['packed_union']:5.2f}x)  "
                      f"{row['sectors_per_replica_slot_block']:6.1f} / "
                      f"{row['sectors_per_replica_slot_il4']:6.1f} / "
                      f"{row['sectors_per_replica_slot_il16']:6.1f}")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"coalesce-{commit}.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
