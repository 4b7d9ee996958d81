"""Run the project's CUDA engine on a small Kaur & Vin job under GPGPU-Sim and check every output
array against the CPU engine bit for bit (run it through run_engine.sh, which sets the simulator
up; build_engine.sh builds the module it imports).

    run_engine.sh NAME slim --replicas 32 --flows 1 --duration-s 0.005 --per-warp 32

Prints one line `RESULT {json}` (also written to --out): the job, the kernel, the replica-slots,
the simulated wall time, and the output arrays that differ from the CPU's (with their first
differing elements on DIFF lines). Exit status 0 when every array equals the CPU's, 1 when one
differs, 2 on bad arguments."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

# the Kaur & Vin replica of every per-slot yardstick (benchmarks/cpu/yardstick.py)
sys.path.insert(0, str(Path(os.environ.get("DS_PROJ", Path(__file__).resolve().parents[2]))
                       / "benchmarks" / "cpu"))
from yardstick import kv_replica  # noqa: E402

from diffsweep.core.errors import ConfigError  # noqa: E402
from diffsweep.engine.compiled import cuda_kernel, run_family, run_packed  # noqa: E402
from diffsweep.engine.pack import pack  # noqa: E402


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernel", choices=("slim", "full"), default=os.environ.get("DS_KERNEL", "slim"),
                    help="the kernel the module was built with (build_engine.sh)")
    ap.add_argument("--replicas", type=int, default=32)
    ap.add_argument("--flows", type=int, default=1)
    ap.add_argument("--duration-s", type=float, default=0.005)
    ap.add_argument("--t-on-ms", type=float, default=1.0, help="the EF source's mean on-time")
    ap.add_argument("--lanes", type=int, default=1)
    ap.add_argument("--per-warp", type=int, default=None, help="replicas per warp (default: the engine's)")
    ap.add_argument("--warp-rounds", type=int, choices=(0, 1), default=None)
    ap.add_argument("--wavefront", action="store_true",
                    help="the stage kernels (cuda/kernel_wave.cuh; a WAVE=1 build_engine.sh module)")
    ap.add_argument("--phases", nargs="?", const="block", default=None, choices=("block", "kernels"),
                    help="with --wavefront: the queue stage by slot phases, in one kernel over "
                         "block-local queues (block, the default: wave_queue_phases) or a kernel "
                         "per phase over device-wide ones (kernels: wph_*)")
    ap.add_argument("--sack", action="store_true", help="SACK senders (a full-kernel model)")
    ap.add_argument("--golden", default=None, metavar="all|NAME,...",
                    help="instead of Kaur & Vin: the golden engine cases (tests/engine_cases.py) "
                         "the kernel runs, each its own batch of one job, cut to --duration-s")
    ap.add_argument("--out", default="result.json")
    a = ap.parse_args(argv)
    for name in ("replicas", "flows", "lanes"):
        if getattr(a, name) < 1:
            ap.error(f"--{name} = {getattr(a, name)} is not allowed (expected an integer >= 1)")
    if not a.duration_s > 0:
        ap.error(f"--duration-s = {a.duration_s} is not allowed (expected seconds > 0)")
    return a


def golden(a) -> tuple[list[str], list, list]:
    """The golden cases this kernel runs, cut to a.duration_s (no warm-up): their names, the
    CPU's outputs and the simulated GPU's, one job."""
    import dataclasses
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))  # this checkout's
    from engine_cases import golden_cases  # noqa: PLC0415
    want = None if a.golden == "all" else set(a.golden.split(","))
    if a.kernel == "full":
        os.environ["DIFFSWEEP_CUDA_KERNEL"] = "full"
    names, ps = [], []
    for name, sc, seed in golden_cases():
        if want is not None and name not in want:
            continue
        d = min(sc.duration_s, a.duration_s)
        kw = {"duration_s": d, "warmup_s": 0.0}
        if sc.interval_s is not None:
            kw["interval_s"] = min(sc.interval_s, d)
        try:
            sc = dataclasses.replace(sc, **kw)
        except ConfigError as e:  # a case that cannot be cut so short (its own check says why)
            print("LEFT OUT", name, e)
            continue
        p = pack([sc], [seed], lanes=a.lanes)
        if cuda_kernel([p]) != a.kernel:
            continue  # (a slim module: the cases that need the full kernel are left out)
        names.append(name)
        ps.append(p)
    if not ps:
        return [], [], []
    ref = run_family(ps, "cpu", threads=1)
    return names, ref, run_family(ps, "cuda", replicas_per_task=a.per_warp,
                                  wavefront=True if a.wavefront else None,
                                  wave_phases=a.phases)


def main(argv=None) -> int:
    a = parse(argv)
    if a.golden:
        t0 = time.perf_counter()
        names, ref, out = golden(a)
        wall = time.perf_counter() - t0
        bad = [f"{n}:{k}" for n, r, o in zip(names, ref, out) for k in r
               if not np.array_equal(np.asarray(r[k]), np.asarray(o[k]))]
        for b in bad:
            print("DIFF", b)
        res = {"kernel": a.kernel, "golden_cases": names, "duration_s": a.duration_s,
               "wavefront": a.wavefront, "phases": a.phases,
               "lanes": a.lanes, "replica_slots": int(sum(np.asarray(r["slots_run"]).sum() for r in ref)),
               "sim_wall_s": round(wall, 2), "outputs": sum(len(r) for r in ref),
               "outputs_differing_from_cpu": bad}
        Path(a.out).write_text(json.dumps(res, indent=1) + "\n")
        print("RESULT", json.dumps(res), flush=True)
        return 1 if bad or not names else 0
    kw = {"tcp": "sack"} if a.sack else {}
    distinct = [kv_replica(a.flows, a.duration_s, warmup_s=0.0, t_on_ms=a.t_on_ms,
                           max_window_pkts=1000, seed=s, **kw) for s in range(16)]
    scs = [distinct[i % 16] for i in range(a.replicas)]
    p = pack(scs, list(range(a.replicas)), lanes=a.lanes)
    if a.kernel == "full":  # the engine's own switch: any job on the full kernel
        os.environ["DIFFSWEEP_CUDA_KERNEL"] = "full"
    k = cuda_kernel([p])
    if k != a.kernel:
        print(f"this module has the {a.kernel} kernel only; the job needs {k} "
              f"(build_engine.sh {k})", file=sys.stderr)
        return 2
    ref = run_packed(p, "cpu", threads=1)
    wr = None if a.warp_rounds is None else bool(a.warp_rounds)
    t0 = time.perf_counter()
    out = run_packed(p, "cuda", replicas_per_task=a.per_warp, warp_rounds=wr,
                     wavefront=True if a.wavefront else None,
                     wave_phases=a.phases)
    wall = time.perf_counter() - t0
    bad = [n for n in ref if not np.array_equal(np.asarray(ref[n]), np.asarray(out[n]))]
    for n in bad:
        r, o = np.asarray(ref[n]).ravel(), np.asarray(out[n]).ravel()
        i = np.flatnonzero(r != o)
        print("DIFF", n, "n_diff", len(i), "of", r.size, "first",
              [(int(j), r[j].item(), o[j].item()) for j in i[:3]])
    res = {"kernel": a.kernel, "replicas": a.replicas, "flows": a.flows, "lanes": a.lanes,
           "duration_s": a.duration_s, "per_warp": a.per_warp, "warp_rounds": a.warp_rounds,
           "wavefront": a.wavefront, "phases": a.phases,
           "sack": a.sack, "replica_slots": int(np.asarray(ref["slots_run"]).sum()),
           "sim_wall_s": round(wall, 2), "outputs": len(ref),
           "outputs_differing_from_cpu": bad}
    Path(a.out).write_text(json.dumps(res, indent=1) + "\n")
    print("RESULT", json.dumps(res), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
