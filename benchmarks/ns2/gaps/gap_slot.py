"""Gap check: does the engine's time slot explain a gap to ns-2.35? Reruns diffsweep's side of
a recorded comparison with ``Scenario.slot_s`` finer than the default (one data packet's
transmission time on the fastest link) and writes one row per run.

    python benchmarks/ns2/gaps/gap_slot.py lee_jeong   # (7 Mb/s, 70|35) without UDP, 10 seeds
    python benchmarks/ns2/gaps/gap_slot.py rossi       # rho 0.8, alpha_AF 0.5, 5 seeds
    python benchmarks/ns2/gaps/gap_slot.py habib       # standard conditioner, F2 RTT 20 and
                                                       # 100 ms, 10 seeds

Writes ``results_gap_slot_<paper>.csv`` here (docs/ns2-gaps.md reads the numbers).
"""
from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.scenario import default_slot_s

HERE = Path(__file__).resolve().parent


def lee_jeong() -> pd.DataFrame:
    from diffsweep.papers.lee_jeong import tables
    sys.path.insert(0, str(HERE.parent / "lee_jeong"))
    from diffsweep_lee_jeong import with_cells
    from diffsweep.papers.lee_jeong.scenario import lee_jeong as build
    rows = []
    for div in (1, 4, 8):
        scs, keys = [], []
        for bucket in (70, 35):
            for s in range(1, 11):
                sc = build(cir_mbps=7.0, bucket_pkts=bucket, method="marker", udp=False, seed=s)
                scs.append(replace(sc, slot_s=default_slot_s(sc) / div))
                keys.append((bucket, s))
        t0 = time.time()
        res = simulate(scs, [k[1] for k in keys], backend="cpu")
        cell = pd.DataFrame(keys, columns=["bucket_pkts", "seed"]).assign(cir_mbps=7.0, udp=False)
        res = with_cells(res, cell)
        ps = tables.per_seed(res)
        fl = res.flows
        for _, r in ps.iterrows():
            f = fl[(fl.bucket_pkts == r.bucket_pkts) & (fl.seed == r.seed)].sort_values("flow")
            rates = tables.rates_mbps(f).to_numpy()[:7]
            rows.append({"slot_us": default_slot_s(scs[0]) * 1e6, "bucket_pkts": r.bucket_pkts,
                         "seed": int(r.seed), "jain": r.jain, "total_mbps": r.total_mbps,
                         **{f"tcp{i + 1}_mbps": rates[i] for i in range(7)}})
        print(f"slot / {div}: {time.time() - t0:.1f} s", flush=True)
    return pd.DataFrame(rows)


def rossi() -> pd.DataFrame:
    from diffsweep.papers.rossi.scenario import rossi as build
    rows = []
    for div in (1, 4):
        scs = []
        for s in range(1, 6):
            sc = build(rho=0.8, alpha_af=0.5, t_stop_s=200.0, t_halt_s=300.0, seed=s)
            scs.append(replace(sc, slot_s=default_slot_s(sc) / div))
        t0 = time.time()
        t = simulate(scs, list(range(1, 6)), backend="cpu").transfers
        t = t[t["size_pkts"].isin([1, 10, 90])]
        for (rep, cloud, size), g in t.groupby(["replica", "traffic", "size_pkts"]):
            rows.append({"slot_us": default_slot_s(scs[0]) * 1e6, "seed": rep + 1,
                         "cloud": cloud.upper(), "size_pkts": size, "n": len(g),
                         "ct_mean": g["completion_s"].mean(),
                         "drop_pct": 100 * g["drops"].sum() / g["pkts_sent"].sum(),
                         "timeouts_per_transfer": g["timeouts"].mean()})
        print(f"slot / {div}: {time.time() - t0:.1f} s", flush=True)
    return pd.DataFrame(rows)


def habib() -> pd.DataFrame:
    from diffsweep.papers.habib.scenario import habib_2a
    rows = []
    for div in (1, 4):
        scs, keys = [], []
        for rtt in (20.0, 100.0):
            for s in range(1, 11):
                sc = habib_2a(conditioner="standard", rtt2_ms=rtt, duration_s=100.0,
                              warmup_s=20.0, seed=s)
                scs.append(replace(sc, slot_s=default_slot_s(sc) / div))
                keys.append((rtt, s))
        t0 = time.time()
        fl = simulate(scs, [k[1] for k in keys], backend="cpu").flows
        for r, (rtt, s) in enumerate(keys):
            f = fl[fl.replica == r]
            a = (f.flow >= 200).to_numpy()
            g1, g2 = f[~a], f[a]
            rows.append({"slot_us": default_slot_s(scs[0]) * 1e6, "f2_rtt_ms": rtt, "seed": s,
                         "f1_mbps": g1.goodput_bps.sum() / 1e6,
                         "f2_mbps": g2.goodput_bps.sum() / 1e6,
                         "f1_timeouts": int(g1.timeouts.sum()),
                         "f1_drop_ratio": g1.drops.sum() / max(1, g1.pkts_sent.sum())})
        print(f"slot / {div}: {time.time() - t0:.1f} s", flush=True)
    return pd.DataFrame(rows)


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    fn = {"lee_jeong": lee_jeong, "rossi": rossi, "habib": habib}.get(which)
    if fn is None:
        sys.exit(__doc__)
    df = fn()
    out = HERE / f"results_gap_slot_{which}.csv"
    df.to_csv(out, index=False, float_format="%.6g")
    keys = {"lee_jeong": ["slot_us", "bucket_pkts"], "rossi": ["slot_us", "cloud", "size_pkts"],
            "habib": ["slot_us", "f2_rtt_ms"]}[which]
    print(df.groupby(keys).mean(numeric_only=True).drop(columns=["seed"]).to_string())
    print("wrote", out.name)


if __name__ == "__main__":
    main()
