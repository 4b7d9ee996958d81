"""Lee & Jeong's Jain gap (docs/ns2-gaps.md, section 3): two more candidate mechanisms tried on
diffsweep's side of the 7 Mb/s, 70-packet cell without UDP (10 seeds, 60 s), against the
builder as it is. ns-2.35 gives Jain 0.587 +/- 0.020 and S7 2.75 Mb/s there.

    python benchmarks/ns2/gaps/lee_jeong_hypotheses.py   # -> lee_jeong_hypotheses.txt

- ``tie_index``: same-slot arrivals at the marker in flow-index order instead of random order
  (ns-2 has no ties: does the order in which a slot's packets meet the shared bucket decide
  whose are OUT?);
- ``access_100mb``: access links at 100 Mb/s instead of 10 Mb/s (S7's back-to-back trains
  reach the marker 0.08 ms apart instead of 0.8 ms: does the trains' spacing decide it?);
- ``jitter_...``: every TCP send delayed U(0, J) (``TcpFlow.send_jitter_s``, ns-2's
  ``overhead_``), with the slot 8 times finer and same-slot arrivals in time order
  (``tie_break="index"``): sends off the slot grid, as ns-2's ACK clock sends at any time.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep.engine.execution import simulate
from diffsweep.analysis.metrics import t_quantile
from diffsweep.papers.lee_jeong import tables
from diffsweep.papers.lee_jeong.scenario import lee_jeong as build
from diffsweep.scenario import default_slot_s

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "lee_jeong"))
from diffsweep_lee_jeong import with_cells  # noqa: E402

VARIANTS = {"builder": {}, "tie_index": {"tie_break": "index"},
            "access_100mb": {"access_rate_bps": 100e6},
            "jitter_0.1ms": {"jitter_s": 1e-4}, "jitter_0.1ms_slot/8_index": {
                "jitter_s": 1e-4, "slot_div": 8, "tie_break": "index"},
            "jitter_1ms": {"jitter_s": 1e-3}}


def scenario(seed: int, jitter_s: float = 0.0, slot_div: int = 1, **kw):
    sc = build(cir_mbps=7.0, bucket_pkts=70, method="marker", udp=False, seed=seed, **kw)
    sc = replace(sc, flows=tuple(replace(f, send_jitter_s=jitter_s) for f in sc.flows))
    return replace(sc, slot_s=default_slot_s(sc) / slot_div)


def main() -> None:
    lines = [f"{'variant':28s} Jain (95% CI)      S1..S7 Mb/s (mean of 10 seeds)"]
    for name, kw in VARIANTS.items():
        seeds = list(range(1, 11))
        scs = [scenario(s, **kw) for s in seeds]
        res = simulate(scs, seeds, backend="cpu")
        cell = pd.DataFrame({"bucket_pkts": 70, "seed": seeds}).assign(cir_mbps=7.0, udp=False)
        res = with_cells(res, cell)
        ps = tables.per_seed(res)
        rates = np.mean([tables.rates_mbps(res.flows[res.flows.seed == s].sort_values("flow"))
                         .to_numpy()[:7] for s in seeds], axis=0)
        half = t_quantile(0.975, len(ps) - 1) * ps.jain.std() / np.sqrt(len(ps))
        lines.append(f"{name:28s} {ps.jain.mean():.3f} +/- {half:.3f}   "
                     + " ".join(f"{x:.2f}" for x in rates))
        print(lines[-1], flush=True)
    (HERE / "lee_jeong_hypotheses.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
