"""The slim CUDA kernel's hot code, estimated on a machine without a GPU (issue 21).

    python benchmarks/gpu/hot_sass.py [--src DIR] [--arch sm_90] [--min-blocks N] [--out benchmarks/gpu/results]

Why: Nsight Compute put 41% (one replica per warp) to 50% (the device full) of the kernel's
cycles on waiting for an instruction (benchmarks/gpu/gpu.md, H200, 2026-11-26): a slot's code does
not stay in the SM's instruction caches. What matters is the code a slot runs, not the
kernel's size (sass.py counts that), and which code a slot runs is a question the CPU can
answer: the engine is one source.

How: the CPU engine is built the slim way (DS_HOST_SLIM, the slim kernel's code paths) with
gcov, without inlining, so that every line, call sites included, has its exact count; one Kaur
& Vin replica (as benchmarks/cpu/slot_cost.py: EF on-off, T_on 10 ms; 1 flow, and 64 flows with
RTP 12-26 ms) runs for a short and a long time, and the difference over the difference in slots
gives each line's executions per replica-slot. The slim kernel is compiled for `--arch` with
line information and disassembled (nvdisasm -g -gi): every SASS instruction carries its source
line and the chain of call sites it was inlined through. An instruction's copy is taken to run
  * never, when any of its call sites never runs on the CPU (a copy in a path not taken);
  * else its line's count, shared among that line's copies by their immediate call sites'
    counts (a function inlined at three places runs where it is called from).
Frames with no CPU counterpart (the kernel's round loop, CUDA headers) have no say. Counts
are per line: a draw written on the line of the test that guards it counts at the test's
rate, so such a draw goes on a line of its own (queue_side.h, hook_lost).
Printed and written (<out>/hot-sass-<commit>-<arch>.json), per case:
  * est_executed_per_slot: SASS instructions a lone replica's thread executes per slot
    (rough: a loop nvcc unrolled counts each unrolled copy at the loop line's full count,
    an overestimate, except in Philox, where each copy counts once per draw (UNROLLED), and
    predication is not seen; `gpu.sh` step `icache` measures the same number on a GPU,
    Nsight Compute's instructions executed over the launch's replica-slots);
  * hot_instructions / hot_lines / hot_kib: the instructions estimated to run at least
    once per 10 slots, and the 128-byte lines of code holding them: the footprint the
    instruction caches must hold for a slot to run without fetch stalls;
  * hot_in_later_copies: hot instructions in the second and later inlined copies of a source
    line (a function inlined at several hot call sites): the most that calling such
    functions instead of inlining them could take off the footprint;
  * by_phase: the same per phase of a slot (issue 43), an instruction's phase read from its
    inline chain's frame in queue_slot's body and the engine's trace marks there (core/hd.h
    TracePhase), `flow` for the flow side, `round` for the round loop and kernel.
Needs g++ with gcov, nvcc, cuobjdump/nvdisasm (or the nvidia-cuda-* wheels, as sass.py).
"""
from __future__ import annotations

import argparse
import collections
import glob
import gzip
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from sass import tool  # nvdisasm: on PATH, else in the nvidia-cuda-* wheels

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cpu"))  # yardstick.py
from yardstick import ROOT, child_env  # noqa: E402

CHILD = r"""
import importlib.util, sys
from diffsweep import engine
from diffsweep.engine.pack import pack
from yardstick import kv_replica
so, n, dur = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
spec = importlib.util.spec_from_file_location(so.rsplit("/", 1)[-1].split(".")[0], so)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
p = pack([kv_replica(n, dur)], [1])
out = mod.run_family([p.shape], [engine._flat(p)], threads=1)[0]
print("SLOTS", int(out["slots_run"].sum()))
"""

THRESHOLD = 0.1  # a hot instruction runs at least once per 10 slots
LOAD_LINES = 25  # the source lines with the most executed loads, kept in the results
OP_CLASSES = (("load", {"LDG", "LD", "LDL"}), ("store", {"STG", "ST", "STL"}),
              ("atomic", {"ATOM", "ATOMG", "RED", "REDG"}),
              ("branch/sync", {"BRA", "BRX", "BSSY", "BSYNC", "WARPSYNC", "CALL", "RET",
                               "EXIT", "BMOV", "BREAK", "JMP", "JMX", "YIELD", "NANOSLEEP"}),
              ("constant/shared", {"LDC", "ULDC", "LDS", "STS", "S2R", "S2UR", "CS2R"}),
              ("vote/shuffle", {"VOTE", "VOTEU", "SHFL", "REDUX", "MATCH"}))
# Code whose loops nvcc unrolls (a Philox draw: ten rounds of fixed count), where the CPU's
# line counts count every round: each unrolled copy runs as often as the line that made the
# draw, the first frame of its chain outside these files.
UNROLLED = ("core/philox.h", "core/random.h")


def norm(path: str) -> str:
    """A source path relative to cuda/, `..` folded (nvdisasm and gcov spell them apart)."""
    p = path.split("/cuda/", 1)[1] if "/cuda/" in path else path
    while re.search(r"[^/.]+/\.\./", p):
        p = re.sub(r"[^/.]+/\.\./", "", p, count=1)
    return p


def build_gcov(src: Path, d: Path, kernel: str = "slim") -> Path:
    import pybind11
    inc = [f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}",
           f"-I{src / 'cuda'}"]
    flags = ["g++", "-std=c++17", "-O0", "-fno-inline", "--coverage", "-fPIC", "-fopenmp",
             "-ffp-contract=off", "-fno-fast-math", *inc] + (["-DDS_HOST_SLIM"] if kernel == "slim" else [])
    objs = []
    for s in ("bindings/module.cpp", "cuda/backend_cpu.cpp"):
        o = d / (Path(s).stem + ".o")
        subprocess.run([*flags, "-c", str(src / s), "-o", str(o)], check=True,
                       capture_output=True)
        objs.append(str(o))
    # the module's name as bindings/module.cpp gives it for each build
    name = "_engine_cpu_slim" if kernel == "slim" else "_engine_cpu"
    so = d / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(["g++", "-shared", "-fopenmp", "--coverage", *objs, "-o", str(so)],
                   check=True, capture_output=True)
    return so


def line_counts(so: Path, d: Path, n: int, dur: float) -> tuple[int, collections.Counter]:
    """Each engine source line's executions over one run, and the run's slots."""
    for f in d.glob("*.gcda"):
        f.unlink()
    p = subprocess.run([sys.executable, "-c", CHILD, str(so), str(n), str(dur)],
                       env=child_env(str(ROOT / "python")),
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"the replica's run failed:\n{p.stderr}")
    slots = int(re.search(r"SLOTS (\d+)", p.stdout).group(1))
    counts: collections.Counter = collections.Counter()
    with tempfile.TemporaryDirectory() as g:
        for gcda in d.glob("*.gcda"):
            subprocess.run(["gcov", "--json-format", "-o", str(d), str(gcda)], cwd=g,
                           check=True, capture_output=True)
        for js in glob.glob(os.path.join(g, "*.gcov.json.gz")):
            for f in json.load(gzip.open(js))["files"]:
                if "/cuda/" not in f["file"] and not f["file"].startswith("cuda/"):
                    continue
                name = norm(f["file"])
                for ln in f["lines"]:
                    counts[(name, ln["line_number"])] += ln["count"]
    return slots, counts


def per_slot(so: Path, d: Path, n: int, short_s: float, long_s: float) -> dict:
    s1, c1 = line_counts(so, d, n, short_s)
    s2, c2 = line_counts(so, d, n, long_s)
    return {k: (c2[k] - c1.get(k, 0)) / (s2 - s1) for k in c2}


def slim_sass(src: Path, arch: str, d: Path, kernel: str = "slim",
              min_blocks: int | None = None) -> list[tuple[int, tuple, str]]:
    """(address, inline chain innermost first, opcode) of every instruction of the slim (or
    full) kernel (built for ``min_blocks`` blocks per SM: DIFFSWEEP_CUDA_MIN_BLOCKS)."""
    cubin = d / f"{kernel}.cubin"
    blocks = [] if min_blocks is None else [f"-DDS_CUDA_MIN_BLOCKS={min_blocks}"]
    subprocess.run(["nvcc", "-std=c++17", f"-arch={arch}", "-fmad=false", *blocks,
                    "--expt-relaxed-constexpr", "-DDS_BACKEND_CUDA", "-O3", "-lineinfo", "-I",
                    str(src / "cuda"), "-I", "/usr/local/cuda/include/cccl", "-cubin", "-o",
                    str(cubin), str(src / "cuda" / f"kernel_{kernel}.cu")],
                   check=True, capture_output=True)
    text = subprocess.run([tool("nvdisasm"), "-g", "-gi", str(cubin)], check=True,
                          capture_output=True, text=True).stdout
    ins, chain, in_block, in_text = [], (), False, False
    for line in text.splitlines():
        if line.startswith(".text."):
            in_text = True
            continue
        m = re.match(r'\s*//## File "([^"]+)", line (\d+)(?: inlined at "([^"]+)", line (\d+))?',
                     line)
        if m:
            if not in_block:
                chain = ((norm(m.group(1)), int(m.group(2))),)
            if m.group(3):
                chain += ((norm(m.group(3)), int(m.group(4))),)
            in_block = True
            continue
        in_block = False
        m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", line)
        if in_text and m and ".word" not in line:
            ins.append((int(m.group(1), 16), chain, m.group(2)))
    return ins


def op_class(op: str) -> str:
    """An opcode's kind, for where a lone thread's chain of a slot waits: memory loads (LDG,
    generic LD, local LDL: an L1 hit is ~30 cycles), stores, atomics, branches and
    convergence barriers, constant and shared loads, and the rest (ALU, moves)."""
    for cls, ops in OP_CLASSES:
        if op in ops:
            return cls
    return "alu/other"


QUEUE_SIDE = "engine/queue_side.h"


def slot_phases(src: Path) -> tuple[list[tuple[int, str]], int]:
    """Where a slot's phases start (the engine's trace marks, core/hd.h TracePhase: a line
    and its phase, by the name coalesce.py gives it; queue_slot's parts, slot_front to
    slot_serve_end, hold them in a slot's order) and the line ending queue_slot's body."""
    lines = (src / "cuda" / QUEUE_SIDE).read_text().splitlines()
    slot = next(i for i, t in enumerate(lines, 1) if re.search(r"\bvoid queue_slot\(", t))
    end = next(i for i, t in enumerate(lines, 1) if i > slot and t.startswith("}"))
    start = next(i for i, t in enumerate(lines, 1) if "DS_TRACE_AT(x, kTr" in t)
    marks = []
    for i in range(start, end):
        m = re.search(r"DS_TRACE_AT\(x, kTr(\w+),", lines[i - 1])
        if m:
            marks.append((i, re.sub(r"(?<!^)([A-Z])", r"_\1", m.group(1)).lower()))
    return marks, end


def phase_of(chain: tuple, marks: list[tuple[int, str]], end: int) -> str:
    """The phase of a slot an instruction belongs to: through its frame in queue_slot's body,
    the last mark before that line; `flow` for the flow side; `round` for the rest (the
    round loop, the kernel's own code)."""
    for f, line in chain:
        if f == QUEUE_SIDE and marks[0][0] <= line <= end:
            return [name for at, name in marks if at <= line][-1]
    if any(f == "engine/flow_side.h" for f, _ in chain):
        return "flow"
    return "round"


def analyse(ins: list, cpu: dict, phases: tuple | None = None) -> dict:
    """`phases`: slot_phases' answer, to split the counts by phase of a slot (issue 43)."""
    files = {k[0] for k in cpu}

    def count(frame):
        return cpu.get(frame) if frame[0] in files else None  # None: no say

    share = collections.Counter()  # a line's copies, weighted by their call sites' counts
    for key in {(ch[0], ch[1]) for _, ch, _ in ins if len(ch) > 1}:
        share[key[0]] += count(key[1]) or 0.0
    est, hot = 0.0, []
    by_class, loads, spills = collections.Counter(), collections.Counter(), collections.Counter()
    copies = collections.defaultdict(collections.Counter)  # hot line -> inline chain -> hot
    ph_est, ph_hot = collections.Counter(), collections.defaultdict(list)
    for addr, ch, op in ins:
        c0 = count(ch[0]) if ch else None
        if c0 is None or any(c is not None and c < 1e-4 for c in map(count, ch[1:])):
            continue
        w = 1.0
        if ch[0][0] in UNROLLED:
            site = next((f for f in ch if f[0] not in UNROLLED), None)
            c0 = count(site) if site and count(site) is not None else c0
        elif len(ch) > 1 and count(ch[1]) is not None and share[ch[0]] > 0:
            w = count(ch[1]) / share[ch[0]]
        est += c0 * w
        ph = phase_of(ch, *phases) if phases else None
        ph_est[ph] += c0 * w
        if ph and c0 * w >= THRESHOLD:
            ph_hot[ph].append(addr)
        by_class[op_class(op)] += c0 * w
        if op_class(op) == "load":
            loads[f"{ch[0][0]}:{ch[0][1]}"] += c0 * w
        if op in ("LDL", "STL"):  # local memory: register spills (or a stack frame)
            spills[op] += c0 * w
        if c0 * w >= THRESHOLD:
            hot.append((addr, ch[0][0]))
            copies[ch[0]][ch[1:]] += 1
    lines = {a // 128 for a, _ in hot}
    by_phase = {ph: {"est_executed_per_slot": round(ph_est[ph], 1),
                     "hot_instructions": len(ph_hot[ph]),
                     "hot_kib": round(len({a // 128 for a in ph_hot[ph]}) * 128 / 1024, 1)}
                for ph in ph_est if ph}
    return {"est_executed_per_slot": round(est, 1), "hot_instructions": len(hot),
            **({"by_phase": by_phase} if phases else {}),
            "hot_lines": len(lines), "hot_kib": round(len(lines) * 128 / 1024, 1),
            "hot_by_file": dict(collections.Counter(f for _, f in hot).most_common()),
            # hot instructions in a line's second and later inlined copies: what making the
            # functions they come from calls (noinline) could take off the footprint at most
            "hot_in_later_copies": sum(sum(c.values()) - max(c.values()) for c in copies.values()),
            "executed_by_class": {k: round(v, 1) for k, v in by_class.most_common()},
            "local_per_slot": {k: round(spills[k], 2) for k in ("LDL", "STL")},
            "loads_by_line": {k: round(v, 2) for k, v in loads.most_common(LOAD_LINES)}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=str(ROOT), help="a diffsweep checkout")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--kernel", default="slim", choices=["slim", "full"],
                    help="which kernel (the full one: the CPU engine built plain, to match)")
    ap.add_argument("--min-blocks", type=int, default=None,
                    help="build for this many blocks per SM (DIFFSWEEP_CUDA_MIN_BLOCKS: 8 gives "
                         "64 registers, with spills; default: the build's own)")
    ap.add_argument("--short-s", type=float, default=2.0)
    ap.add_argument("--long-s", type=float, default=7.0)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args()
    if shutil.which("gcov") is None or shutil.which("nvcc") is None:
        sys.exit("needs gcov (g++) and nvcc")
    src = Path(args.src)
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        so = build_gcov(src, d, args.kernel)
        ins = slim_sass(src, args.arch, d, args.kernel, args.min_blocks)
        phases = slot_phases(src)
        cases = {}
        for n in (1, 64):
            r = analyse(ins, per_slot(so, d, n, args.short_s, args.long_s), phases)
            cases[str(n)] = r
            print(f"{n:>2} flows: ~{r['est_executed_per_slot']:.0f} SASS instructions executed per "
                  f"replica-slot; hot code {r['hot_instructions']} instructions in "
                  f"{r['hot_lines']} lines of 128 B ({r['hot_kib']} KiB) of {len(ins)}; "
                  f"{r['hot_in_later_copies']} of them in a line's second or later inlined copy",
                  flush=True)
            print("          by kind: " + ", ".join(f"{k} {v:.0f}" for k, v in
                                             r["executed_by_class"].items())
                  + "; local (spills) LDL {LDL} / STL {STL}".format(**r["local_per_slot"]),
                  flush=True)
            print("          by phase (executed per slot, hot KiB): " + ", ".join(
                f"{ph} {v['est_executed_per_slot']:.0f} / {v['hot_kib']}"
                for ph, v in r["by_phase"].items()), flush=True)
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=src, capture_output=True,
                         text=True).stdout.strip() or "tree"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / (f"hot-sass-{rev}-{args.arch}{'' if args.kernel == 'slim' else '-full'}"
                  f"{'' if args.min_blocks is None else f'-blocks{args.min_blocks}'}.json")
    path.write_text(json.dumps({"commit": rev, "arch": args.arch, "kernel": args.kernel,
                                "host": platform.node(), "min_blocks": args.min_blocks,
                                "static_instructions": len(ins), "threshold_per_slot": THRESHOLD,
                                "short_s": args.short_s, "long_s": args.long_s,
                                "cases": cases}, indent=2) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
