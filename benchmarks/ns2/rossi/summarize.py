#!/usr/bin/env python3
"""Aggregation and summary for the ns-2.35 runs of Rossi, Casetti & Mellia (web over DiffServ).

    python3 summarize.py aggregate <raw_dir> results_ns2_rossi_runs.csv results_ns2_rossi_transfers.csv
    python3 summarize.py report results_ns2_rossi_runs.csv results_ns2_rossi_transfers.csv > summary_ns2_rossi.md

`aggregate` reads the per-run files of rossi_web.tcl (<prefix>.run, <prefix>.tr) and writes one
row per run and one row per (run, cloud, transfer size) with sums over that run's transfers.
`report` prints markdown tables per (syncfg, rho, alpha_AF), cloud and size class.

Conventions (README.md): completion time = ct_rcv (last data packet received at the sink;
t_ack - 12.0384 ms), over the transfers that completed before t_halt. Mean = pooled over all
completed transfers of the 5 seeds; 95% CI = t_{0.975,n-1} * sd(per-run means) / sqrt(n) over
the n runs. Drop % = drops at S / packets sent (SYN included, ndatapack_); "data" columns
leave the 40-B SYN out (separated by bytes: data packets are 1000 B). Early-drop fraction =
early drops / all drops (forced + early) at S.
Stdlib only.
"""
import collections
import csv
import glob
import math
import os
import statistics as st
import sys

T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]
SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 10, 90]
RUNKEY = ["rho", "alpha_af", "seed", "syncfg"]
AGG_COLS = ["n_started", "n_completed", "ct_rcv_sum", "ct_rcv_sumsq", "ct_rcv_median", "ct_rcv_p90",
            "ct_rcv_max", "ct_ack_sum", "pkts_sent", "rexmit_pkts", "timeouts", "bn_arr_pkts",
            "bn_arr_data", "bn_arr_syn", "drops", "drops_data", "drops_syn", "edrops", "edrops_data",
            "edrops_syn", "n_with_drop", "n_with_timeout"]


def split(npkts, nbytes, syncfg):
    """(data packets, SYN packets) of a per-flow counter. With syn_ 1 data packets are 1000 B and
    SYNs 40 B (fewer than 25 SYNs per flow and counter). With syn_ 0 there is no SYN (and ns-2.35
    sends the seqno-0 data packet without the 40-B header, 960 B): every packet is data."""
    if syncfg in ("nosyn", "nosyn_ng"):
        return npkts, 0
    return nbytes // 1000, (nbytes % 1000) // 40


def quantile(xs, q):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    pos = q * (len(xs) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def aggregate(raw, runs_out, tr_out):
    runfiles = sorted(glob.glob(os.path.join(raw, "*.run")))
    rhdr = open(glob.glob(os.path.join(raw, "*.runhdr"))[0]).read().strip()
    rows = [l.strip() for f in runfiles for l in open(f) if l.strip()]
    sortkey = lambda l: (l.split(",")[3] != "syn", float(l.split(",")[0]), float(l.split(",")[1]),
                         int(l.split(",")[2]))
    with open(runs_out, "w") as f:
        f.write(rhdr + "\n")
        for l in sorted(rows, key=sortkey):
            f.write(l + "\n")
    out = []
    for rf in runfiles:
        trf = rf[:-4] + ".tr"
        groups = collections.defaultdict(list)
        key = None
        for r in csv.DictReader(open(trf), fieldnames=open(rf[:-4] + ".trhdr").read().strip().split(",")):
            key = tuple(r[k] for k in RUNKEY)
            groups[(r["cloud"], int(r["size_pkts"]))].append(r)
        if key is None:
            continue
        for (cloud, size), rs in sorted(groups.items()):
            cts = [float(r["ct_rcv_s"]) for r in rs if r["completed"] == "1"]
            cta = [float(r["ct_ack_s"]) for r in rs if r["completed"] == "1"]
            a = dict.fromkeys(AGG_COLS, 0)
            a["n_started"] = len(rs)
            a["n_completed"] = len(cts)
            a["ct_rcv_sum"] = round(sum(cts), 6)
            a["ct_rcv_sumsq"] = round(sum(x * x for x in cts), 6)
            a["ct_rcv_median"] = round(quantile(cts, 0.5), 6)
            a["ct_rcv_p90"] = round(quantile(cts, 0.9), 6)
            a["ct_rcv_max"] = round(max(cts), 6) if cts else float("nan")
            a["ct_ack_sum"] = round(sum(cta), 6)
            for r in rs:
                a["pkts_sent"] += int(r["pkts_sent"])
                a["rexmit_pkts"] += int(r["rexmit_pkts"])
                a["timeouts"] += int(r["timeouts"])
                a["bn_arr_pkts"] += int(r["bn_arr_pkts"])
                d, s = split(int(r["bn_arr_pkts"]), int(r["bn_arr_bytes"]), key[3])
                a["bn_arr_data"] += d
                a["bn_arr_syn"] += s
                a["drops"] += int(r["bn_drop_pkts"])
                d, s = split(int(r["bn_drop_pkts"]), int(r["bn_drop_bytes"]), key[3])
                a["drops_data"] += d
                a["drops_syn"] += s
                a["edrops"] += int(r["bn_edrop_pkts"])
                d, s = split(int(r["bn_edrop_pkts"]), int(r["bn_edrop_bytes"]), key[3])
                a["edrops_data"] += d
                a["edrops_syn"] += s
                a["n_with_drop"] += int(r["bn_drop_pkts"]) > 0
                a["n_with_timeout"] += int(r["timeouts"]) > 0
            out.append(list(key) + [cloud, size] + [a[c] for c in AGG_COLS])
    out.sort(key=lambda r: (r[3] != "syn", float(r[0]), float(r[1]), int(r[2]), r[4], r[5]))
    with open(tr_out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(RUNKEY + ["cloud", "size_pkts"] + AGG_COLS)
        w.writerows(out)


def ci_half(vals):
    vals = [v for v in vals if not math.isnan(v)]
    n = len(vals)
    if n < 2:
        return float("nan")
    return T975[min(n - 1, len(T975)) - 1] * st.stdev(vals) / math.sqrt(n)


def f3(x, d=3):
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def pct(num, den):
    return 100.0 * num / den if den else float("nan")


def report(runs_path, tr_path):
    runs = collections.defaultdict(list)
    for r in csv.DictReader(open(runs_path)):
        runs[(r["syncfg"], float(r["rho"]), float(r["alpha_af"]))].append(r)
    tr = collections.defaultdict(lambda: collections.defaultdict(list))  # point -> (cloud,size) -> rows
    for r in csv.DictReader(open(tr_path)):
        tr[(r["syncfg"], float(r["rho"]), float(r["alpha_af"]))][(r["cloud"], int(r["size_pkts"]))].append(r)
    P = print
    P("# ns-2.35: Rossi, Casetti & Mellia, web traffic over DiffServ (HTTP only, SLA50)")
    P("")
    P("Generated by `summarize.py` from `results_ns2_rossi_runs.csv` and "
      "`results_ns2_rossi_transfers.csv` (set-up: README.md). t_stop / t_halt and the number of "
      "runs are given per point. Completion time = last data packet received at the sink, over the "
      "transfers completed by t_halt; mean pooled over the runs, ± 95 % CI from the per-run "
      "means (Student t, n-1 df). Drop % = drops at S / packets sent, SYN included (`all`) or "
      "data packets only (`data`). Early fraction = early / (forced + early) drops at S.")
    order = sorted(runs, key=lambda k: (k[0] != "syn", k[1], k[2]))
    for pt in order:
        sc, rho, alpha = pt
        rs = runs[pt]
        P("")
        P(f"## rho = {rho:g}, alpha_AF = {alpha:g}, {'ns-2.35 defaults (syn_ 1)' if sc == 'syn' else 'syn_ 0 (no SYN; sensitivity)'}")
        P("")
        m = lambda c: st.mean(float(r[c]) for r in rs)
        s = lambda c: sum(float(r[c]) for r in rs)
        red = s("cp12_pkts") / (s("cp10_pkts") + s("cp12_pkts"))
        ef = lambda cps: pct(sum(s(f"cp{c}_edrops") for c in cps),
                             sum(s(f"cp{c}_edrops") + s(f"cp{c}_drops") for c in cps))
        notdone = sum(float(r["af_started"]) + float(r["be_started"]) - float(r["af_completed"])
                      - float(r["be_completed"]) for r in rs)
        P(f"{len(rs)} runs (seeds {', '.join(sorted((r['seed'] for r in rs), key=int))}), "
          f"t_stop {float(rs[0]['t_stop']):g} s, t_halt {float(rs[0]['t_halt']):g} s; "
          f"bytes sent on the bottleneck / (t_stop x 10 Mb/s) = "
          f"{st.mean(float(r['bneck_util']) * float(r['t_end']) / float(r['t_stop']) for r in rs):.3f} "
          f"(offered {rho:g} of data, plus retransmissions and SYNs); "
          f"{'every transfer completed before t_halt' if notdone == 0 else f'{notdone:.0f} transfers not completed by t_halt'}.")
        P("")
        P("| cloud | transfers started / run | completed by t_halt / run | not completed (all runs) "
          "| pkts at S / run (SYN incl.) | red-marked share of AF pkts | drops at S / run (forced / early) "
          "| early fraction, green prec. | early fraction, red prec. (this cloud's code point) |")
        P("|---|---|---|---|---|---|---|---|---|")
        for cloud in ("AF", "BE"):
            lo = cloud.lower()
            if cloud == "AF":
                pk = s("cp10_pkts") + s("cp12_pkts")
                fd = (s("cp10_drops") + s("cp12_drops"), s("cp10_edrops") + s("cp12_edrops"))
                eg = f3(ef([10]), 1) + " %"
                er = f3(ef([12]), 1) + " % (cp 12)"
                rd = f"{100 * red:.3f} %"
            else:
                pk = s("cp0_pkts")
                fd = (s("cp0_drops"), s("cp0_edrops"))
                eg = "–"
                er = f3(ef([0]), 1) + " % (cp 0)"
                rd = "–"
            n = len(rs)
            P(f"| {cloud} | {s(lo + '_started') / n:.0f} | {s(lo + '_completed') / n:.0f} | "
              f"{s(lo + '_started') - s(lo + '_completed'):.0f} | {pk / n:.0f} | {rd} | "
              f"{fd[0] / n:.1f} / {fd[1] / n:.1f} | {eg} | {er} |")
        P("")
        P(f"Red precedence as a whole (AF out-of-profile + BE): early fraction {f3(ef([12, 0]), 1)} %.")
        P("")
        P("| cloud | size (pkts) | transfers (5 runs) | completed | mean completion time, s | median | p90 "
          "| drop % all | drop % data | early fraction of drops | timeouts / transfer | transfers with ≥1 drop |")
        P("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for cloud in ("AF", "BE"):
            for size in (1, 10, 90, "all"):
                if size == "all":
                    rows = [r for (c, z), v in tr[pt].items() if c == cloud for r in v]
                else:
                    rows = tr[pt].get((cloud, size), [])
                if not rows:
                    continue
                g = lambda c: sum(float(r[c]) for r in rows)
                byrun = collections.defaultdict(list)
                for r in rows:
                    byrun[r["seed"]].append(r)
                runmeans = []
                rundrops = []
                for sd, rr in byrun.items():
                    nc = sum(float(r["n_completed"]) for r in rr)
                    runmeans.append(sum(float(r["ct_rcv_sum"]) for r in rr) / nc if nc else float("nan"))
                    rundrops.append(pct(sum(float(r["drops"]) for r in rr), sum(float(r["pkts_sent"]) for r in rr)))
                nc = g("n_completed")
                mean = g("ct_rcv_sum") / nc if nc else float("nan")
                if size == "all":
                    med = p90 = "–"
                else:
                    med = f3(st.mean(float(r["ct_rcv_median"]) for r in rows))
                    p90 = f3(st.mean(float(r["ct_rcv_p90"]) for r in rows))
                P(f"| {cloud} | {size} | {g('n_started'):.0f} | {nc:.0f} | {f3(mean)} ± {f3(ci_half(runmeans))} | "
                  f"{med} | {p90} | {f3(pct(g('drops'), g('pkts_sent')), 2)} ± {f3(ci_half(rundrops), 2)} | "
                  f"{f3(pct(g('drops_data'), g('bn_arr_data')), 2)} | {f3(pct(g('edrops'), g('drops')), 1)} % | "
                  f"{g('timeouts') / g('n_started'):.3f} | {f3(pct(g('n_with_drop'), g('n_started')), 1)} % |")
        P("")
        P("Median and p90: mean over the runs of each run's median / 90th percentile.")
    P("")


if __name__ == "__main__":
    if sys.argv[1] == "aggregate":
        aggregate(*sys.argv[2:5])
    elif sys.argv[1] == "report":
        report(*sys.argv[2:4])
    else:
        sys.exit(__doc__)
