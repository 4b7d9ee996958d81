"""Where a simulated kernel's warp instructions go, by source function and by queue-side phase.

GPGPU-Sim's timing model writes per-PTX-line statistics (gpgpu_inst_stats.txt: threads that
executed each line and, with patches/gpgpu-sim-line-warp-count.patch, the warp instructions
it completed). Its PTX has no line info (build_engine.sh: its parser drops a kernel at `.loc
... inlined_at`), so this maps the simulator's PTX lines onto a PTX of the same unit compiled
with -lineinfo (build_engine.sh writes it, lineinfo.ptx: the same instructions, .loc lines
added), walking both in step. Each instruction is then attributed to
  - its source site: the innermost frame of its inlining chain in the engine's code, past
    accessors (replica.h, batch.h, ring.h), as `function (file:line)`, and
  - the queue side's slot phase (core/hd.h TracePhase) whose line in queue_slot
    (engine/queue_side.h) is on its inlining chain; "-" off the slot loop,
with, per group, thread instructions, warp instructions and active lanes per warp
instruction (their ratio). Counts are the simulator's functional ones; only the timing model
writes the file.

usage: line_profile.py RUN_DIR LINEINFO_PTX [--root CHECKOUT] [--entry NAME] [--top N] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HASH = re.compile(r"_GLOBAL__N__[0-9a-f]+_\d+_(\w+?)_cu_[0-9a-f]+")
LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(?:,\s*function_name\s+(\$L__info_string\d+))?"
                 r"(?:,\s*inlined_at\s+(\d+)\s+(\d+)\s+(\d+))?")
FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]+)"')
ENTRY = re.compile(r"^\s*\.(?:visible\s+)?(?:entry|func)\s+(?:\([^)]*\)\s*)?(\S+?)\(")


def _norm(line: str) -> str:
    return HASH.sub(r"_GLOBAL__N__\1", " ".join(line.split()))


def _code_lines(text: str):
    """(index, normalised) of the lines that carry code: no comments, blank lines, .loc/.file
    or debug sections."""
    out = []
    for i, raw in enumerate(text.splitlines(), start=1):
        s = raw.strip()
        if not s or s.startswith("//") or s.startswith(".loc") or s.startswith(".file"):
            continue
        if s.startswith(".section"):
            break
        out.append((i, _norm(raw)))
    return out


def _info_strings(text: str) -> dict[str, str]:
    names, cur, buf = {}, None, []
    for raw in text.splitlines():
        s = raw.strip()
        if s.startswith("$L__info_string"):
            if cur:
                names[cur] = bytes(buf).split(b"\0")[0].decode()
            cur, buf = s.rstrip(":"), []
        elif cur and s.startswith(".b8"):
            buf += [int(v) for v in s[3:].split(",")]
        elif cur and s == "}":
            names[cur] = bytes(buf).split(b"\0")[0].decode()
            cur = None
    if cur:
        names[cur] = bytes(buf).split(b"\0")[0].decode()
    mangled = sorted(set(names.values()))
    demangled = subprocess.run(["c++filt"], input="\n".join(mangled), capture_output=True,
                               text=True).stdout.splitlines()
    dm = dict(zip(mangled, demangled)) if len(demangled) == len(mangled) else {}
    return {k: re.sub(r"\(.*$", "", dm.get(v, v)) for k, v in names.items()}


def lineinfo_map(text: str):
    """{line number in the -lineinfo PTX: (entry, innermost (file, line), function, chain)}
    for each code line. A .loc names only the call site its code was inlined at; that site's
    own caller is taken from the nearest .loc before it, in the same kernel, of that site
    (inlined code sits by its call site's other code), else from the first in the file."""
    files, fn_names = {}, _info_strings(text)
    first = {}  # location (file, line, col) -> the call site it was inlined at, first seen
    for raw in text.splitlines():
        m = LOC.match(raw)
        if m and m.group(5):
            first.setdefault((m.group(1), m.group(2), m.group(3)), (m.group(5), m.group(6), m.group(7)))
        f = FILE.match(raw)
        if f:
            files[f.group(1)] = f.group(2)
    info, loc, fn, entry, recent = {}, None, "?", "?", {}
    for i, raw in enumerate(text.splitlines(), start=1):
        e = ENTRY.match(raw)
        if e:
            entry, recent = HASH.sub("", e.group(1)), {}
        m = LOC.match(raw)
        if m:
            loc = (m.group(1), m.group(2), m.group(3))
            recent[loc] = (m.group(5), m.group(6), m.group(7)) if m.group(5) else None
            fn = fn_names.get(m.group(4), "") if m.group(4) else entry
            continue
        chain, seen = [], set()
        at = loc
        while at is not None and at not in seen and len(chain) < 64:
            seen.add(at)
            chain.append((files.get(at[0], at[0]), int(at[1])))
            at = recent[at] if at in recent else first.get(at)
        info[i] = (entry, chain[0] if chain else None, fn, chain)
    return info


def queue_slot_phases(root: Path) -> list[tuple[int, str]]:
    """(first line, phase) of a slot's parts in engine/queue_side.h, from its DS_TRACE_AT
    marks (queue_slot, or its parts slot_front, slot_arrivals and slot_serve), then (the end of
    the last part, "-")."""
    text = (root / "cuda/engine/queue_side.h").read_text().splitlines()
    marks = [(i, m.group(1)) for i, s in enumerate(text, 1)
             if (m := re.search(r"DS_TRACE_AT\(x, kTr(\w+), now\)", s))]
    end = next(i for i, s in enumerate(text, 1) if i > marks[-1][0] and s.startswith("}"))
    return marks + [(end, "-")]


# accessors and helpers: an instruction is attributed to the first frame of its inlining chain
# outside them (and outside the toolkit's headers)
HELPERS = ("engine/replica.h", "batch.h", "core/ring.h", "core/hd.h")
DEF = re.compile(r"^\s*(?:DS_HD|__global__|template|inline|static)\b.*?\b(\w+)\s*\(")
_src_cache: dict[Path, list[str]] = {}


def _local(f: str, root: Path) -> Path:
    """A source file the -lineinfo PTX names, in `root` (the checkout it was compiled from)."""
    return root / "cuda" / f.split("/cuda/", 1)[1] if "/cuda/" in f else Path(f)


def site_of(chain, root: Path) -> str:
    """`function (file:line)` of the chain's first frame in the engine's own code."""
    for f, line in chain:
        path = _local(f, root)
        if "/cuda/" not in f or "/include/" in f or any(f.endswith(h) for h in HELPERS):
            continue
        if path not in _src_cache:
            _src_cache[path] = path.read_text().splitlines() if path.is_file() else []
        src, name = _src_cache[path], "?"
        for i in range(min(line, len(src)) - 1, -1, -1):
            m = DEF.match(src[i])
            if m and not src[i].lstrip().startswith("//"):
                name = m.group(1)
                break
        return f"{name} ({path.name}:{line})"
    return f"{Path(chain[0][0]).name}:{chain[0][1]}" if chain else "?"


def phase_of(chain, marks) -> str:
    for f, line in chain:
        if f.endswith("engine/queue_side.h") and marks[0][0] <= line <= marks[-1][0]:
            ph = "-"
            for first, name in marks:
                if line >= first:
                    ph = name
            return ph
    return "-"


def profile(run: Path, lineinfo_ptx: Path, root: Path = ROOT, entry: str | None = None):
    stats = (run / "gpgpu_inst_stats.txt").read_text().splitlines()
    header = stats[0].split(":")[1].split()
    if "warp_count" not in header:
        raise SystemExit("gpgpu_inst_stats.txt has no warp_count column: the simulator lacks "
                         "patches/gpgpu-sim-line-warp-count.patch (setup.sh applies it)")
    per_file = defaultdict(dict)
    for s in stats[1:]:
        left, right = s.split(":")
        fname, line = left.split()
        vals = dict(zip(header, (int(v) for v in right.split())))
        per_file[fname][int(line)] = vals
    li_text = lineinfo_ptx.read_text()
    li = _code_lines(li_text)
    li_set = {t for _, t in li}
    info = lineinfo_map(li_text)
    marks = queue_slot_phases(root)
    by_fn = defaultdict(lambda: [0, 0])  # by source site
    by_phase = defaultdict(lambda: [0, 0])
    by_entry = defaultdict(lambda: [0, 0])
    matched = unmatched = 0
    for fname, lines in per_file.items():
        sim_path = run / fname
        if not sim_path.is_file():
            continue
        sim = _code_lines(sim_path.read_text())
        if not sim or sum(t in li_set for _, t in sim[:200]) < 100:
            continue  # another unit's PTX
        j = 0
        for n, t in sim:
            k = j
            while k < len(li) and li[k][1] != t:
                k += 1
            if k == len(li):
                if n in lines:
                    unmatched += lines[n]["count"]
                continue
            j = k + 1
            if n not in lines:
                continue
            v = lines[n]
            kernel, inner, fn, chain = info[li[k][0]]
            if entry and entry not in kernel:
                continue
            matched += v["count"]
            for acc, key in ((by_fn, site_of(chain, root)),
                             (by_phase, phase_of(chain, marks)), (by_entry, kernel)):
                acc[key][0] += v["count"]
                acc[key][1] += v["warp_count"]
    if matched == 0:
        raise SystemExit("no simulated PTX line matched the -lineinfo PTX: not the same unit?")

    def rows(acc):
        return sorted(({"name": k, "thread_insn": a, "warp_insn": w,
                        "active_lanes": round(a / w, 2) if w else None}
                       for k, (a, w) in acc.items()), key=lambda r: -r["warp_insn"])
    return {"run": str(run), "lineinfo_ptx": str(lineinfo_ptx),
            "thread_insn_matched": matched, "thread_insn_unmatched": unmatched,
            "by_entry": rows(by_entry), "by_phase": rows(by_phase), "by_function": rows(by_fn)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("lineinfo_ptx", type=Path)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--root", type=Path, default=ROOT,
                    help="the checkout the run's engine was built from (default this one)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--entry", help="only the kernels whose (mangled) name contains this")
    a = ap.parse_args()
    p = profile(a.run, a.lineinfo_ptx, a.root, a.entry)
    for key in ("by_entry", "by_phase", "by_function"):
        rows = p[key]
        tw = sum(r["warp_insn"] for r in rows) or 1
        print(f"\n{key}  (warp insn share, warp insn, thread insn, active lanes)")
        for r in rows[:a.top]:
            print(f"  {100 * r['warp_insn'] / tw:5.1f}%  {r['warp_insn']:>10}  {r['thread_insn']:>11}"
                  f"  {r['active_lanes'] if r['active_lanes'] is not None else '-':>6}  {r['name']}")
    print(f"\nthread instructions matched {p['thread_insn_matched']}, unmatched "
          f"{p['thread_insn_unmatched']}")
    if a.json:
        a.json.write_text(json.dumps(p, indent=1))


if __name__ == "__main__":
    main()
