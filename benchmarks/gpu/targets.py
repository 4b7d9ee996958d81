"""Issues 21's and 51's targets against what `gpu.sh` measured: each target, its measured value, and met /
not met / not measured, from the logs and JSON one or more `gpu.sh` calls left in their $OUT.

    python3 benchmarks/gpu/targets.py OUT [OUT ...]      (later folders win where both measured)

Reads only what the steps write (nothing runs here, nothing is estimated):
- `tests.log` / `session_tests.log`: pytest's last line (CPU = CUDA, `tests/test_gpu.py`);
- `gpu-summary.txt`: the machine line, "verdicts.json: cuda == cpu" lines, each step's wall;
- `reproduce_full_{cuda,cpu}.log`, `reproduce_quick_{cuda,cpu}.log`,
  `reproduce_<paper>_quick_{cuda,cpu}.log`: the family engine call ("[family] N replicas in
  S s") and the whole command ("wrote ... in S s");
- `full/auto-backend-*.json` and `auto-backend-*.json` (steps `session`, `auto`): each family's
  engine call per backend, where no reproduction was timed, and whether the backends' tables
  agreed;
- `gpu-throughput-cuda.json` (step `throughput`): 64-flow replica-slots per second;
and issue 51's targets:
- `gpu-throughput-cuda*.json` (steps `throughput`, `wavefront`: the persistent kernel, the
  stage kernels, their slot phases): 1- and 64-flow replica-slots per second at >= 131,072
  replicas, the best design; `gpu-throughput-cpu.json` (steps `throughput`, `wavefront`): the
  same shapes on the machine's cores, for the ratio;
- `reproduce_seeds100_{cuda,cpu}.log` (step `seeds100`): `reproduce kaur-vin --seeds 100`'s
  family engine call on each backend.
Writes OUT/targets.json (the last folder given) and prints one line per target; `gpu.sh` runs
it last and adds those lines to gpu-summary.txt.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

PAPERS = ("lee-jeong", "rossi", "habib", "matta-guo")
ENGINE_S, TOTAL_S, SPEEDUP, SLOTS_PER_S, MIN_REPLICAS = 15.0, 30.0, 5.0, 1e9, 32768
# issue 51: replica-slots per second at >= LARGE_REPLICAS, per flows; LARGE_SPEEDUP over the cores
LARGE_SLOTS_PER_S, LARGE_REPLICAS, LARGE_SPEEDUP = {1: 2e9, 64: 1e9}, 131072, 10.0


def _read(dirs, name: str) -> str | None:
    """The text of ``name`` in the last folder that has it."""
    for d in reversed(dirs):
        p = Path(d) / name
        if p.is_file():
            return p.read_text(errors="replace")
    return None


def _summary(dirs) -> str:
    """Every folder's gpu-summary.txt, earliest first (a later line wins where two say the
    same thing: the last match)."""
    return "\n".join((Path(d) / "gpu-summary.txt").read_text(errors="replace")
                     for d in dirs if (Path(d) / "gpu-summary.txt").is_file())


def step_wall(dirs, step: str) -> tuple[int, float] | None:
    """(exit status, wall seconds) of ``step`` in gpu-summary.txt (the last such line)."""
    m = re.findall(rf"^== \S+ {re.escape(step)} rc=(\d+) wall=([\d.]+) s",
                   _summary(dirs), re.M)
    return (int(m[-1][0]), float(m[-1][1])) if m else None


def reproduction(dirs, log: str) -> dict:
    """{"engine_s", "total_s"} of a `diffsweep reproduce` log (either may be missing): the
    family engine call, and the command's wall time as gpu.sh's step took it (Python's start
    included), else the reproduction's own ("wrote ... in S s"); {"failed": (rc, wall)} for a
    step that failed or was cut by its timeout."""
    text = _read(dirs, log)
    out = {}
    if text is None:
        return out
    wall = step_wall(dirs, log.removesuffix(".log"))
    if wall is not None and wall[0] != 0:
        return {"failed": wall}
    m = re.findall(r"^\[family\] [\d,]+ replicas in ([\d.]+) s", text, re.M)
    if m:
        out["engine_s"] = float(m[-1])
    m = re.findall(r"^wrote .* in ([\d.]+) s$", text, re.M)
    if wall is not None:
        out["total_s"] = wall[1]
    elif m:
        out["total_s"] = float(m[-1])
    return out


def failed(r: dict) -> str:
    return f"did not finish (rc={r['failed'][0]} after {r['failed'][1]:.1f} s)"


def engine_calls(dirs, paper: str, quick: bool) -> dict:
    """backend -> seconds of ``paper``'s family's one engine call as `auto_backend.py` timed it
    (steps `session` and `auto`: OUT/full/ and OUT/), from the last folder that has it."""
    for d in reversed(dirs):
        for p in sorted([*(Path(d) / "full").glob("auto-backend-*.json"),
                         *Path(d).glob("auto-backend-*.json")]):
            rows = [r for r in json.loads(p.read_text())["families"]
                    if r["paper"] == paper.replace("-", "_") and r["quick"] == quick]
            if rows:
                return rows[0]["measured_s"]
    return {}


def tables_agree(dirs) -> tuple[bool | None, list[str]]:
    """(every CPU-vs-CUDA comparison found agreed, or None when none was found; what was
    compared)."""
    seen, ok = [], True
    for name in ("session_tests.log", "tests.log"):
        text = _read(dirs, name)
        m = re.findall(r"^=*\s*(.*\b(?:passed|failed)\b.*?)\s*=*$", text or "", re.M)
        if m:
            seen.append(f"{name}: {m[-1]}")
            ok &= " failed" not in m[-1] and " error" not in m[-1]
    summary = _summary(dirs)
    for line in re.findall(r"^== \S+ (.*verdicts\.(?:json|csv): .*)$", summary, re.M):
        seen.append(line)
    # gpu.sh says "<what> verdicts.json: cuda == cpu" only when the two files are the same
    pairs = {"full": "reproduce_full", **{f"{p} quick": f"reproduce_{p}_quick" for p in PAPERS}}
    for what, stem in pairs.items():
        ran = all(step_wall(dirs, f"{stem}_{b}") for b in ("cuda", "cpu"))  # gpu.sh ran both
        if ran and f"{what} verdicts.json: cuda == cpu" not in summary:
            seen.append(f"{what} verdicts.json: cuda and cpu differ, or one was not written")
            ok = False
    for d in dirs:
        for p in sorted(Path(d).rglob("auto-backend-*.json")):
            for r in json.loads(p.read_text())["families"]:
                if len(r.get("digest", {})) > 1:
                    seen.append(f"{p.parent.name}/{p.name} {r['paper']}: "
                                + ("same tables" if r["same_tables"] else "MISMATCH"))
                    ok &= bool(r["same_tables"])
    return (ok if seen else None), seen


def throughput_64(dirs) -> tuple[float, int] | None:
    """(most 64-flow replica-slots per second at >= MIN_REPLICAS replicas, at how many)."""
    text = _read(dirs, "gpu-throughput-cuda.json")
    if text is None:
        return None
    rows = [r for r in json.loads(text)["rows"]
            if r["n_flows"] == 64 and r["replicas"] >= MIN_REPLICAS]
    if not rows:
        return None
    best = max(rows, key=lambda r: r["replica_slots_per_s"])
    return best["replica_slots_per_s"], best["replicas"]


def best_throughput(dirs, backend: str, n_flows: int, min_replicas: int) -> tuple[float, int, str] | None:
    """(most replica-slots per second of ``n_flows``-flow replicas at >= min_replicas, at how
    many, which design: the file's tag) over every gpu-throughput-<backend>*.json, the last
    folder's file where two folders have the same one."""
    files = {}
    for d in dirs:
        for p in Path(d).glob(f"gpu-throughput-{backend}*.json"):
            files[p.name] = p
    best = None
    for name, p in sorted(files.items()):
        design = name.removeprefix(f"gpu-throughput-{backend}").removesuffix(".json").lstrip("-")
        for r in json.loads(p.read_text())["rows"]:
            if r["n_flows"] == n_flows and r["replicas"] >= min_replicas and (
                    best is None or r["replica_slots_per_s"] > best[0]):
                best = (r["replica_slots_per_s"], r["replicas"], design or "persistent")
    return best


def verdict(ok: bool | None) -> str:
    return "not measured" if ok is None else "met" if ok else "NOT MET"


def large_grid_targets(dirs) -> list[dict]:
    """Issue 51's rows: throughput at >= LARGE_REPLICAS (the best design), its ratio to the
    cores' best at the same flows, and the 100-seed family's engine call on both backends."""
    rows = []
    for n_flows, goal in LARGE_SLOTS_PER_S.items():
        gpu = best_throughput(dirs, "cuda", n_flows, LARGE_REPLICAS)
        rows.append({"target": f"{n_flows}-flow replicas >= {goal:.0e} replica-slots/s at "
                               f">= {LARGE_REPLICAS:,} replicas (issue 51)",
                     "measured": "-" if gpu is None else
                     f"{gpu[0]:.3g} at {gpu[1]:,} replicas ({gpu[2]})",
                     "verdict": verdict(None if gpu is None else gpu[0] >= goal)})
        cores = best_throughput(dirs, "cpu", n_flows, 1)
        ratio = None if gpu is None or cores is None else gpu[0] / cores[0]
        rows.append({"target": f"{n_flows}-flow replicas: cuda >= {LARGE_SPEEDUP:g}x the CPU "
                               "cores (issue 51)",
                     "measured": "-" if ratio is None else
                     f"{ratio:.2f}x ({gpu[0]:.3g} against {cores[0]:.3g} at {cores[1]:,} replicas)",
                     "verdict": verdict(None if ratio is None else ratio >= LARGE_SPEEDUP)})
    r = {b: reproduction(dirs, f"reproduce_seeds100_{b}.log") for b in ("cuda", "cpu")}
    c, p = r["cuda"].get("engine_s"), r["cpu"].get("engine_s")
    said = "; ".join(f"{b} {failed(v)}" for b, v in r.items() if "failed" in v)
    ok = None if c is None or p is None else p / c >= LARGE_SPEEDUP
    cut = r["cpu"].get("failed")
    if c is not None and cut and cut[0] in (124, 137) and cut[1] / c >= LARGE_SPEEDUP:
        # the cores' step cut by its timeout: they took longer than that, enough for the ratio
        ok, said = True, f">= {cut[1] / c:.2f}x (cuda {c:.1f} s; {said})"
    rows.append({"target": f"reproduce kaur-vin --seeds 100: engine call on cuda >= "
                           f"{LARGE_SPEEDUP:g}x the cores (issue 51)",
                 "measured": said or ("-" if c is None or p is None else
                                      f"{p / c:.2f}x (cuda {c:.1f} s, cores {p:.1f} s)"),
                 "verdict": verdict(ok)})
    return rows


def targets(dirs) -> dict:
    machine = re.findall(r"^== \S+ machine: (.*)$", _summary(dirs), re.M)
    rows = []

    ok, seen = tables_agree(dirs)
    rows.append({"target": "CPU = CUDA bit-identical (tests/test_gpu.py, verdicts, tables)",
                 "measured": "; ".join(seen) or "-", "verdict": verdict(ok)})

    full = {b: reproduction(dirs, f"reproduce_full_{b}.log") for b in ("cuda", "cpu")}
    eng = full["cuda"].get("engine_s", engine_calls(dirs, "kaur-vin", False).get("cuda"))
    rows.append({"target": f"full reproduce kaur-vin on cuda: engine <= {ENGINE_S:g} s",
                 "measured": "-" if eng is None else f"{eng:.1f} s",
                 "verdict": verdict(None if eng is None else eng <= ENGINE_S)})
    tot = full["cuda"].get("total_s")
    cut = "failed" in full["cuda"]  # a run cut after more than the target is a measurement too
    rows.append({"target": f"full reproduce kaur-vin on cuda: end to end <= {TOTAL_S:g} s",
                 "measured": failed(full["cuda"]) if cut else "-" if tot is None else f"{tot:.1f} s",
                 "verdict": verdict(False if cut and full["cuda"]["failed"][1] > TOTAL_S
                                    else None if tot is None else tot <= TOTAL_S)})
    cpu_tot = full["cpu"].get("total_s")
    ratio = None if tot is None or cpu_tot is None else cpu_tot / tot
    rows.append({"target": f"full reproduce kaur-vin: cuda >= {SPEEDUP:g}x the CPU cores",
                 "measured": "-" if ratio is None else
                 f"{ratio:.2f}x ({cpu_tot:.1f} s on the cores, {tot:.1f} s on cuda)",
                 "verdict": verdict(None if ratio is None else ratio >= SPEEDUP)})

    quick = {"kaur-vin": ("reproduce_quick_cuda.log", "reproduce_quick_cpu.log")}
    quick.update({p: (f"reproduce_{p}_quick_cuda.log", f"reproduce_{p}_quick_cpu.log")
                  for p in PAPERS})
    for paper, (lc, lp) in quick.items():
        rc, rp = reproduction(dirs, lc), reproduction(dirs, lp)
        c, p = rc.get("total_s"), rp.get("total_s")
        both = c is not None and p is not None
        said = "; ".join(f"{b} {failed(r)}" for b, r in (("cuda", rc), ("cores", rp))
                         if "failed" in r)
        if not both:  # no reproduction timed: the family's engine call (steps session, auto)
            m = engine_calls(dirs, paper, True)
            if "cuda" in m and "cpu" in m:
                c, p, both = m["cuda"], m["cpu"], True
                said = f"engine calls: cuda {c:.1f} s, cores {p:.1f} s"
        rows.append({"target": f"{paper} quick reproduction faster on cuda than the cores",
                     "measured": said if said.startswith("engine") else
                     f"cuda {c:.1f} s, cores {p:.1f} s" if both else said or "-",
                     "verdict": verdict(c < p if both else None)})

    thr = throughput_64(dirs)
    rows.append({"target": f"64-flow replicas >= {SLOTS_PER_S:.0e} replica-slots/s at "
                           f">= {MIN_REPLICAS:,} replicas",
                 "measured": "-" if thr is None else f"{thr[0]:.3g} at {thr[1]:,} replicas",
                 "verdict": verdict(None if thr is None else thr[0] >= SLOTS_PER_S)})
    rows += large_grid_targets(dirs)
    return {"machine": machine[-1] if machine else "", "folders": [str(d) for d in dirs],
            "targets": rows}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="+", help="gpu.sh's $OUT folders, earliest first")
    args = ap.parse_args(argv)
    res = targets([Path(d) for d in args.out])
    print(f"issues 21's and 51's targets on {res['machine'] or 'an unnamed machine'}:")
    for r in res["targets"]:
        print(f"target {r['verdict']:12s} {r['target']}: {r['measured']}")
    path = Path(args.out[-1]) / "targets.json"
    path.write_text(json.dumps(res, indent=1))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
