#!/usr/bin/env python3
"""Checks one rossi_web.tcl run against its full packet trace (see check.sh).

    python3 check_trace.py <trace> <prefix>.tr <prefix>.trhdr

1. ct_rcv: for every completed transfer, t_start + ct_rcv (= t_ack - 12.0384 ms) against the
   time the sink had every packet (SYN = seqno 0 with syn_ 1, data 1..size; with syn_ 0 data
   0..size-1), i.e. the max over seqnos of the first 'r' of that seqno at AD/BD (nodes 4, 5).
2. drops: per fid, flow-monitor drops minus early drops against the trace's 'd' events (the
   trace sees forced drops only; early drops go to the flow monitor's early-drop snoop).
"""
import collections
import csv
import sys

trace, trf, hdrf = sys.argv[1:4]
first = collections.defaultdict(dict)
forced = collections.Counter()
for line in open(trace):
    p = line.split()
    ev, t, a, b, typ = p[0], float(p[1]), int(p[2]), int(p[3]), p[4]
    fid, seq = int(p[7]), int(p[10])
    if ev == "r" and typ == "tcp" and b in (4, 5):
        first[fid].setdefault(seq, t)
    if ev == "d":
        forced[fid] += 1
rows = list(csv.DictReader(open(trf), fieldnames=open(hdrf).read().strip().split(",")))
diffs = []
for r in rows:
    if r["completed"] != "1":
        continue
    d = first[int(r["fid"])]
    size = int(r["size_pkts"])
    seqs = range(0, size + 1) if r["syncfg"] == "syn" else range(0, size)
    t_all = max(d[s] for s in seqs)
    diffs.append(float(r["t_start"]) + float(r["ct_rcv_s"]) - t_all)
bad = sum(1 for x in diffs if abs(x) > 1.5e-6)
print(f"ct_rcv check: {len(diffs)} completed transfers; t_rcv - trace: min {min(diffs)*1e6:.1f} us, "
      f"max {max(diffs)*1e6:.1f} us; {bad} differ by more than 1.5 us (the trace prints 6 decimals)")
mis = sum(1 for r in rows if int(r["bn_drop_pkts"]) - int(r["bn_edrop_pkts"]) != forced[int(r["fid"])])
print(f"drop check: {sum(forced.values())} forced drops in the trace, "
      f"{sum(int(r['bn_drop_pkts']) - int(r['bn_edrop_pkts']) for r in rows)} in the flow monitor; "
      f"{mis} transfers disagree; early drops (monitor only): {sum(int(r['bn_edrop_pkts']) for r in rows)}")
