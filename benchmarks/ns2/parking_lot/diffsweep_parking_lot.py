"""diffsweep's standard builder ``parking_lot`` with its defaults on the cells of
parking_lot.tcl (run.sh), side by side with ns-2.35's results_ns2_parking_lot.csv: writes
results_diffsweep_parking_lot.csv (one row per run, the ns-2 file's columns) and
compare_parking_lot.md (means and 95% CIs over the seeds per cell, both simulators, and the
agreement count).

Run from the repository root:
    PYTHONPATH=python .venv/bin/python benchmarks/ns2/parking_lot/diffsweep_parking_lot.py

The builder is called with nothing but the cell (aqm, n_links, n_long, n_cross), the run
length and the seed: every other value is its ns-2.35 default, which is what is compared.
"""
from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from diffsweep import simulate
from diffsweep.analysis.stats import t_quantile
from diffsweep.scenario.parking_lot import parking_lot

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from phase_delays import link_delays_ms  # noqa: E402  (run.sh's delays, the same per seed)

AQMS = {"DropTail": "droptail", "RED": "red"}
CELLS = ((2, 8, 8), (3, 8, 8), (3, 8, 4))  # as run.sh's CELLS: n_links, n_long, n_cross
SEEDS = range(1, 11)
DUR, WARM = 60.0, 10.0
MAXK = 4  # parking_lot.tcl's per-link columns
#: the variant rows: every TCP send delayed U(0, 1 ms) on both sides (TcpFlow.send_jitter_s is
#: ns-2's overhead_), DropTail only, as run.sh's OVERHEAD and OV_AQMS
JITTER_S = 1e-3
OV_AQMS = ("DropTail",)
LINK_MS = 10.0
#: the primary cells' delays: every link's its own per seed, 10 ms + U(0, a packet time)
RANDOM = "random"
#: the phase check, as run.sh's PH_CELLS and PH_DELAYS: DropTail, every bottleneck's delay
#: moved by a fraction of a packet time (0.832 ms at 10 Mb/s)
PH_CELLS = ((2, 8, 8), (3, 8, 8))
PH_DELAYS = (10.2, 10.4, 10.6)
#: (jitter, link delay, aqms, cells) of the primary rows, then of the variants: the same cells
#: at 10 ms (fixed phase), with send jitter, and the phase check
RUNS = ((0.0, RANDOM, tuple(AQMS), CELLS), (0.0, LINK_MS, tuple(AQMS), CELLS),
        (JITTER_S, LINK_MS, OV_AQMS, CELLS), *((0.0, d, ("DropTail",), PH_CELLS) for d in PH_DELAYS))


def delays_of(link_ms, seed: int, k: int) -> tuple[list[float], str]:
    """The links' delays (ms) of a run and its CSV label (parking_lot.tcl's link_ms: the one
    delay, or each link's joined by /)."""
    if link_ms == RANDOM:
        ms = link_delays_ms(seed, k)
        return [float(d) for d in ms], "/".join(ms)
    return [link_ms] * k, str(link_ms)


def selects(link_ms, col: pd.Series) -> pd.Series:
    """Rows of run kind ``link_ms`` (RANDOM or one delay) by their link_ms label."""
    col = col.astype(str)
    if link_ms == RANDOM:
        return col.str.contains("/", regex=False)
    return ~col.str.contains("/", regex=False) & np.isclose(
        pd.to_numeric(col.where(~col.str.contains("/", regex=False)), errors="coerce"), link_ms)


def metrics(k: int) -> list[tuple[str, str]]:
    """(label, column) of the metrics compared in a cell of ``k`` links."""
    out = [("long-flow goodput Mb/s", "long_mbps"), ("cross-flow goodput Mb/s", "cross_mbps"),
           ("Jain (all flows)", "jain"), ("loss % (all links)", "loss_pct")]
    for j in range(k):
        out += [(f"link {j} utilisation", f"util_{j}"), (f"link {j} drop %", f"drop_pct_{j}"),
                (f"link {j} mean waiting queue pkts", f"mean_waiting_pkts_{j}")]
    return out


def run() -> tuple[pd.DataFrame, float]:
    scs, keys = [], []
    for jitter, link_ms, aqms, cells in RUNS:
        for ns_aqm in aqms:
            for k, nl, nc in cells:
                for seed in SEEDS:
                    delays, label = delays_of(link_ms, seed, k)
                    scs.append(parking_lot(n_links=k, n_long=nl, n_cross=nc, aqm=AQMS[ns_aqm],
                                           duration_s=DUR, warmup_s=WARM, seed=seed,
                                           send_jitter_s=jitter, bottleneck_delay_ms=delays))
                    keys.append((ns_aqm, k, nl, nc, seed, jitter, label))
    t0 = time.time()
    res = simulate(scs, [key[4] for key in keys], backend="cpu")
    wall = time.time() - t0
    fl, qs = res.flows, res.queues
    measured = res.replicas.set_index("replica")["measured_s"]
    rows = []
    for p, (aqm, k, nl, nc, seed, jitter, link_ms) in enumerate(keys):
        f = fl[fl["replica"] == p].sort_values("flow")
        g = f["goodput_bps"].to_numpy() / 1e6
        row = {"aqm": aqm, "n_links": k, "n_long": nl, "n_cross": nc, "seed": seed,
               "tcp": "Newreno", "overhead_s": jitter, "link_ms": link_ms, "dur_s": DUR, "warm_s": WARM,
               "long_mbps": g[:nl].mean(), "cross_mbps": g[nl:].mean(), "total_mbps": g.sum(),
               "jain": g.sum() ** 2 / (len(g) * (g ** 2).sum()),
               "sent_pkts": int(f["pkts_sent"].sum()), "timeouts": int(f["timeouts"].sum())}
        q = qs[qs["replica"] == p].set_index("link")
        all_drops = 0
        for j in range(MAXK):
            if j >= k:
                row.update({f"{c}_{j}": np.nan for c in ("arrivals", "drops", "drop_pct",
                                                         "mean_waiting_pkts", "util")})
                continue
            r = q.loc[j]
            busy = r["bytes_departed"] * 8 / r["rate_bps"] / measured[p]
            early = sum(r[f"early_drops_{c}"] for c in ("green", "yellow", "red"))
            forced = sum(r[f"forced_drops_{c}"] for c in ("green", "yellow", "red"))
            # as diffsweep_dumbbell.py: RED's forced drops are counted apart from drop-tail's
            drops = int(r["drops"] + early + (forced if aqm == "RED" else 0))
            all_drops += drops
            row.update({f"arrivals_{j}": int(r["arrivals"]), f"drops_{j}": drops,
                        f"drop_pct_{j}": 100 * drops / r["arrivals"] if r["arrivals"] else 0.0,
                        # ns-2's packet integrator: the packets waiting, the one on the wire
                        # left out (queues.mean_waiting_pkts; docs/model.md, Links)
                        f"mean_waiting_pkts_{j}": r["mean_waiting_pkts"],
                        f"util_{j}": busy})
        row["loss_pct"] = 100 * all_drops / row["sent_pkts"]
        rows.append(row)
    return pd.DataFrame(rows), wall


def mean_ci(x) -> tuple[float, float, int]:
    """Mean and 95% CI half-width (Student t) over the values, NaN dropped (as agreement.py)."""
    x = np.asarray(x, dtype=float)
    x = x[~np.isnan(x)]
    if not len(x):
        return math.nan, math.nan, 0
    if len(x) == 1:
        return float(x[0]), math.nan, 1
    return (float(x.mean()), float(t_quantile(0.975, len(x) - 1) * x.std(ddof=1)
                                   / math.sqrt(len(x))), len(x))


def fmt(m: float, h: float) -> str:
    return "-" if math.isnan(m) else f"{m:.4g} ± {h:.2g}"


def compare_cell(o, s, label, col):
    """One metric-cell: the row of the table and whether the two agree (within 10% or
    overlapping 95% intervals), None where ns-2's mean is 0 and the intervals do not overlap
    (no relative difference; counted as disagreeing)."""
    mo, ho, _ = mean_ci(o[col])
    mn, hn, _ = mean_ci(s[col])
    rel = (mo - mn) / abs(mn) if mn else math.nan
    overlap = bool(mo - ho <= mn + hn and mn - hn <= mo + ho)
    agree = overlap or (not math.isnan(rel) and abs(rel) <= 0.10)
    rs = "-" if math.isnan(rel) else f"{rel:+.1%}"
    if not agree:
        rs = f"**{rs}**"
    return (f"| {label} | {fmt(mo, ho)} | {fmt(mn, hn)} | {rs} | {'yes' if overlap else '**no**'} |",
            agree)


def compare(ours: pd.DataFrame, ns2: pd.DataFrame, wall: float) -> str:
    head = ["# The standard parking lot: diffsweep beside ns-2.35", "",
            "Generated by `benchmarks/ns2/parking_lot/diffsweep_parking_lot.py` from "
            "`results_ns2_parking_lot.csv` (run.sh) and its own runs "
            f"({len(ours)} replicas on the CPU backend in {wall:.1f} s). Mean ± 95% CI over "
            f"{len(SEEDS)} seeds (Student t); {DUR:g} s runs measured from {WARM:g} s; "
            "NewReno, every other value ns-2.35's default; rel. diff = (diffsweep - ns-2) / "
            "|ns-2|, **bold** where the cell disagrees (over 10% and the intervals apart). "
            "The primary cells draw every link's delay per seed, 10 ms + U(0, a packet time) "
            "(phase_delays.py); the fixed-phase rows have every link at 10 ms. The "
            "disagreements are explained in README.md."]
    body, tally = [], {}
    for overhead, link_ms, aqms, cells in RUNS:
        primary = overhead == 0 and link_ms == RANDOM
        tag = ("" if overhead == 0 else ", every send delayed U(0, 1 ms) on both sides") + (
            ", every link's delay 10 ms + U(0, 0.832 ms) per seed" if link_ms == RANDOM else
            ", every link's delay 10 ms (fixed phase)" if overhead == 0 and link_ms == LINK_MS else
            "" if link_ms == LINK_MS else f", every link's delay {link_ms:g} ms (phase check)")
        for aqm in aqms:
            for k, nl, nc in cells:
                sel = lambda d: d[(d["aqm"] == aqm) & (d["n_links"] == k) & (d["n_long"] == nl)
                                  & (d["n_cross"] == nc) & np.isclose(d["overhead_s"], overhead)
                                  & selects(link_ms, d["link_ms"])]
                o, s = sel(ours), sel(ns2)
                body += ["", f"## {aqm}, K = {k}, {nl} long flows, {nc} cross flows per link{tag}",
                         "", f"{len(o)} diffsweep runs, {len(s)} ns-2.35 runs.", "",
                         "| metric | diffsweep | ns-2.35 | rel. diff | overlap |",
                         "|---|---|---|---|---|"]
                for label, col in metrics(k):
                    line, ok = compare_cell(o, s, label, col)
                    body.append(line)
                    kind = ("primary" if primary else "jitter" if overhead > 0 else
                            "fixed" if link_ms == LINK_MS else "phase")
                    t = tally.setdefault(kind, [0, 0])
                    t[0] += ok
                    t[1] += 1
    (a, n), (fa, fn), (va, vn), ph = (tally["primary"], tally["fixed"], tally["jitter"],
                                      tally["phase"])
    summary = ["", f"**Primary cells (overhead_ 0 / no send jitter, each link's delay 10 ms + "
               f"U(0, a packet time) per seed): {a} of {n} metric-cells agree ({a / n:.0%}: "
               f"within 10% or overlapping 95% intervals).** Variant cells: the same at 10-ms "
               f"links (fixed phase) {fa} of {fn} ({fa / fn:.0%}); "
               f"DropTail with 1 ms send jitter on both sides {va} of {vn} "
               f"({va / vn:.0%}); the phase check (DropTail, link delays {PH_DELAYS}) "
               f"{ph[0]} of {ph[1]} ({ph[0] / ph[1]:.0%})."]
    return "\n".join(head + summary + body)


def main() -> int:
    ns2_path = HERE / "results_ns2_parking_lot.csv"
    ours, wall = run()
    ours.to_csv(HERE / "results_diffsweep_parking_lot.csv", index=False, float_format="%.6g")
    print(f"{len(ours)} replicas in {wall:.1f} s -> results_diffsweep_parking_lot.csv")
    if not ns2_path.is_file():
        print(f"{ns2_path.name} is missing: run benchmarks/ns2/parking_lot/run.sh",
              file=sys.stderr)
        return 1
    ns2 = pd.read_csv(ns2_path)
    ours = pd.read_csv(HERE / "results_diffsweep_parking_lot.csv")
    text = compare(ours, ns2, wall)
    (HERE / "compare_parking_lot.md").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
