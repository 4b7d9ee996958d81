#!/usr/bin/env python3
"""Collects the per-run files of habib_2a.tcl into results_ns2_habib.csv and prints a
markdown summary: per (conditioner, F2 RTT) the mean over seeds (with the 95 % CI half-width
t * sd / sqrt(n)) of F1, F2 and total goodput and of the drop / mark / timeout counters.

usage: summarize.py RAWDIR [OUT_CSV]   (RAWDIR holds <cond>_<rtt>_<seed>.run/.hdr and,
                                         optionally, walltime.csv written by run.sh)
       summarize.py --csv results_ns2_habib.csv   (only print the summary of an existing CSV)
Python 3 standard library only.
"""
import csv
import glob
import math
import os
import statistics
import sys

T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 19: 2.093, 29: 2.045}


def ci(xs):
    n = len(xs)
    if n < 2:
        return float("nan")
    t = T975.get(n - 1, 1.96)
    return t * statistics.stdev(xs) / math.sqrt(n)


def collect(rawdir):
    rows = []
    hdr = None
    wall = {}
    wpath = os.path.join(rawdir, "walltime.csv")
    if os.path.exists(wpath):
        with open(wpath) as f:
            for line in f:
                c, r, s, w = line.strip().split(",")
                wall[(c, r, s)] = w
    for path in glob.glob(os.path.join(rawdir, "*.run")):
        with open(path[:-4] + ".hdr") as f:
            h = f.read().strip().split(",")
        if hdr is None:
            hdr = h
        assert h == hdr, path
        with open(path) as f:
            vals = f.read().strip().split(",")
        row = dict(zip(hdr, vals))
        for a in ("f1", "f2"):
            sent = float(row[a + "_sent_pkts"])
            row[a + "_drop_ratio"] = "%.5f" % (float(row[a + "_core_drops"]) / sent if sent else 0.0)
            m = [float(row[a + "_marked_" + c]) for c in ("green", "yellow", "red")]
            row[a + "_red_share"] = "%.5f" % (m[2] / sum(m) if sum(m) else 0.0)
        row["wall_s"] = wall.get((row["cond"], row["f2_rtt_ms"], row["seed"]), "")
        rows.append(row)
    order = {"tsw3cm": 0, "none": 1}
    rows.sort(key=lambda r: (order.get(r["cond"], 9), float(r["f2_rtt_ms"]), int(r["seed"])))
    cols = hdr[:7] + ["f1_mbps", "f2_mbps", "total_mbps"]
    cols += [c for c in hdr[7:] if c not in cols]
    cols += ["f1_drop_ratio", "f2_drop_ratio", "f1_red_share", "f2_red_share", "wall_s"]
    return cols, rows


def summarize(rows, out=sys.stdout):
    keys = []
    for r in rows:
        k = (r["cond"], r["f2_rtt_ms"])
        if k not in keys:
            keys.append(k)
    p = lambda s="": print(s, file=out)
    p("# ns-2.35, Habib et al. Sec. V.A, topology 2(a): mean over seeds (± 95 % CI half-width)")
    p()
    p("Goodput over [warm, dur] in Mb/s of 1024-B payload (wire-byte Mb/s in brackets).")
    p()
    p("| cond | F2 RTT ms | seeds | F1 Mb/s | F2 Mb/s | total Mb/s | F2/F1 | bottleneck util |")
    p("|---|---|---|---|---|---|---|---|")
    for k in keys:
        g = [r for r in rows if (r["cond"], r["f2_rtt_ms"]) == k]
        f = lambda c: [float(r[c]) for r in g]
        ratio = [float(r["f2_mbps"]) / float(r["f1_mbps"]) for r in g]
        p("| %s | %s | %d | %.3f ± %.3f (%.3f) | %.3f ± %.3f (%.3f) | %.3f ± %.3f (%.3f) | %.3f | %.4f |" % (
            k[0], k[1], len(g),
            statistics.mean(f("f1_mbps")), ci(f("f1_mbps")), statistics.mean(f("f1_wire_mbps")),
            statistics.mean(f("f2_mbps")), ci(f("f2_mbps")), statistics.mean(f("f2_wire_mbps")),
            statistics.mean(f("total_mbps")), ci(f("total_mbps")), statistics.mean(f("total_wire_mbps")),
            statistics.mean(ratio), statistics.mean(f("bneck_util"))))
    p()
    p("Per aggregate, per run over [warm, dur] (means over seeds): packets sent (ndatapack_),")
    p("core drops (all / early), drop ratio = core drops / sent, edge marks green/yellow/red,")
    p("timeouts (sum of nrexmit_), retransmitted packets (nrexmitpack_), Jain index over the")
    p("micro-flows of the aggregate (per-flow goodput), flows with zero goodput in the window.")
    p()
    p("| cond | F2 RTT ms | agg | sent | core drops (early) | drop ratio | green / yellow / red | timeouts | rexmits | Jain | zero flows |")
    p("|---|---|---|---|---|---|---|---|---|---|---|")
    for k in keys:
        g = [r for r in rows if (r["cond"], r["f2_rtt_ms"]) == k]
        for a in ("f1", "f2"):
            m = lambda c: statistics.mean(float(r[a + "_" + c]) for r in g)
            p("| %s | %s | %s | %.0f | %.0f (%.0f) | %.4f | %.0f / %.0f / %.0f | %.0f | %.0f | %.3f | %.1f |" % (
                k[0], k[1], a.upper(), m("sent_pkts"), m("core_drops"), m("core_edrops"), m("drop_ratio"),
                m("marked_green"), m("marked_yellow"), m("marked_red"), m("timeouts"), m("rexmit_pkts"),
                m("jain_flows"), m("zero_flows")))
    w = [float(r["wall_s"]) for r in rows if r.get("wall_s")]
    p()
    if w:
        p("Wall time per run: mean %.2f s, min %.2f, max %.2f (%d runs, sequential, nice)." % (
            statistics.mean(w), min(w), max(w), len(w)))
    de = sum(int(r["drops_elsewhere"]) for r in rows)
    p("Drops anywhere but the c->d bottleneck, all runs: %d." % de)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--csv":
        with open(sys.argv[2]) as f:
            rows = list(csv.DictReader(f))
        summarize(rows)
        return
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[2] if len(sys.argv) > 2 else "results_ns2_habib.csv"
    cols, rows = collect(sys.argv[1])
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    print("<!-- wrote %s: %d runs -->" % (out, len(rows)))
    print()
    summarize(rows)


if __name__ == "__main__":
    main()
