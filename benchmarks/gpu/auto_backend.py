"""What `--backend auto` chooses for each paper's family, against the engine call timed on the
CPU cores and (when a device is visible) on cuda and on both at once (cuda+cpu), with the
constants of its model measured again (diffsweep.engine.backend_choice; docs/design.md "Choosing a
backend").

    python benchmarks/gpu/auto_backend.py [--papers kaur_vin,lee_jeong,rossi,habib,matta_guo]
                                      [--full] [--backends cpu,cuda,cuda+cpu] [--out DIR]

Each family is every replica of sweeps/<paper>/*.toml ([quick] unless --full), run as one
engine call (`engine.simulate`, as `reproduce` runs it). Per family and backend it prints the
predicted and the measured engine seconds, and from the measurement the constant that backend's
prediction rests on: a CPU core's microseconds per replica-slot (time x threads / replica-slots),
on cuda the microseconds per slot of the longest replica (time / its slots: the launch's
floor, meaningful where the device is not full) and the replica-slots per second (meaningful
where it is); for cuda+cpu its split. Every backend's tables must be bit-identical (a digest
of each, as spread.py takes it; a difference is printed as MISMATCH and the script exits 1
after writing its file). It then says which backend was fastest and whether `auto` chose it.
Writes <out>/auto-backend-<host>.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from spread import digest, family  # (benchmarks/gpu/ is on the path: this script's folder)

import diffsweep as ds
from diffsweep.engine import backend_choice, execution as engine, repeats

ROOT = Path(__file__).resolve().parents[2]


def own_model(rows: list[dict]) -> dict:
    """The constants these measurements give (keys of DIFFSWEEP_AUTO_MODEL): a CPU thread's
    us per replica-slot from the family with the most replica-slots; on cuda the least us
    per slot of a longest replica (the family that filled the device least) and the most
    replica-slots per second (the one that filled it most)."""
    out = {}
    cpu = [r for r in rows if "cpu_core_us_per_slot" in r]
    if cpu:
        out["cpu_us_per_slot"] = max(cpu, key=lambda r: r["replica_slots"])["cpu_core_us_per_slot"]
    gpu = [r for r in rows if "cuda_us_per_longest_slot" in r]
    if gpu:
        out["cuda_slot_us"] = min(r["cuda_us_per_longest_slot"] for r in gpu)
        out["cuda_slots_per_s"] = max(r["cuda_replica_slots_per_s"] for r in gpu)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", default="kaur_vin,lee_jeong,rossi,habib,matta_guo",
                    help="folders under sweeps/")
    ap.add_argument("--full", action="store_true", help="the full sweeps, not their [quick]")
    ap.add_argument("--backends", default="cpu,cuda,cuda+cpu",
                    help="backends to time (cuda and cuda+cpu are skipped without a device)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = ap.parse_args()

    info = ds.info()
    threads = int(info["openmp_threads"])
    backends = [b for b in args.backends.split(",")
                if b == "cpu" or (info["cuda_built"] and info["cuda_devices"])]
    print(f"{platform.node()}: {threads} CPU threads, {info['cuda_device'] or 'no CUDA device'}; "
          f"timing {', '.join(backends)}")
    rows = []
    for paper in args.papers.split(","):
        scs, seeds = family(paper, not args.full)
        # the work the call does: a replica the family's sweeps share runs once (repeats)
        distinct = [scs[i] for i in repeats.find_repeats(scs, seeds)[0]]
        work = backend_choice.work_of_scenarios(distinct)
        predicted = backend_choice.predict(work, threads)
        predicted["cuda+cpu"] = backend_choice.predict_both(work, threads)
        chosen = backend_choice.choose(work, threads)[0]
        row = {"paper": paper, "quick": not args.full, "replicas": len(scs),
               "distinct_replicas": work.replicas,
               "replica_slots": work.replica_slots, "longest_slots": work.longest_slots,
               "threads": threads, "predicted_s": predicted, "auto_with_a_device": chosen,
               "measured_s": {}, "digest": {}}
        for b in backends:
            t = time.perf_counter()
            res = engine.simulate(scs, seeds, backend=b)
            row["measured_s"][b] = s = time.perf_counter() - t
            row["digest"][b] = digest(res)
            if b == "cuda+cpu":
                row["split"] = res.meta["split"]
            elif b == "cpu":
                row["cpu_core_us_per_slot"] = s * threads / work.replica_slots * 1e6
            else:
                row["cuda_us_per_longest_slot"] = s / work.longest_slots * 1e6
                row["cuda_replica_slots_per_s"] = work.replica_slots / s
            print(f"{paper:10s} {work.replicas:6,d} distinct replicas {work.replica_slots:9.3g} "
                  f"replica-slots (longest {work.longest_slots:,}): {b:4s} predicted "
                  f"{predicted[b]:7.2f} s, measured {s:7.2f} s", flush=True)
        m = row["measured_s"]
        row["same_tables"] = len(set(row["digest"].values())) == 1
        if not row["same_tables"]:
            print(f"{paper:10s} MISMATCH: the backends' tables differ ({row['digest']})")
        if len(m) > 1:
            row["faster"] = min(m, key=m.get)
            row["auto_right"] = row["faster"] == chosen
            print(f"{paper:10s} fastest: {row['faster']} ("
                  + ", ".join(f"{b} {v:.2f} s" for b, v in m.items())
                  + f"); auto would choose {chosen}: "
                  + ("right" if row["auto_right"] else "WRONG"))
        else:
            print(f"{paper:10s} auto with a device would choose {chosen}")
        rows.append(row)
    suggest = own_model(rows)
    if suggest:
        print(f"this machine's model: {backend_choice.ENV}=" + ",".join(
            f"{k}={v:.3g}" for k, v in suggest.items()))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"auto-backend-{platform.node()}.json"
    path.write_text(json.dumps({
        "host": platform.node(), "device": info["cuda_device"], "threads": threads,
        "version": info["version"],
        "constants": {"CPU_CORE_US_PER_SLOT": backend_choice.CPU_CORE_US_PER_SLOT,
                      "CUDA_SLOT_LATENCY_US": backend_choice.CUDA_SLOT_LATENCY_US,
                      "CUDA_SLOTS_PER_S": backend_choice.CUDA_SLOTS_PER_S},
        "families": rows, "this_machine": suggest}, indent=1))
    print(f"wrote {path}")
    if not all(r["same_tables"] for r in rows):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
