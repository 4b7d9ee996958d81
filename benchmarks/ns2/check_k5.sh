#!/usr/bin/env bash
# Two trace checks for kaur_k5.tcl (a few seconds; traces go to a temp dir):
#  1. the bottleneck's TCP queue (dsRED limit 346) holds 346 waiting + 1 on the wire = 347
#     packets, like diffsweep's 200 KB = 347 x 576 B limit;
#  2. overhead_: time from an ACK's arrival at S_0 to the next data packet S_0 sends,
#     with overhead_ 0 and 1e-4 s.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

KV_TRACEQ=$TMP/bn.tr "$NS" kaur_k5.tcl none 1 1 0 ds 4 2 1 64 2>/dev/null >/dev/null
python3 - "$TMP/bn.tr" <<'PY'
import sys
q = mx = drops = 0
at_drop = set()
for line in open(sys.argv[1]):
    f = line.split()
    if f[4] != "tcp":
        continue
    if f[0] == "+":
        q += 1
    elif f[0] == "-":
        mx = max(mx, q)      # waiting, incl. the packet now starting on the wire
        q -= 1
    elif f[0] == "d":
        at_drop.add(q - 1)   # waiting when the dropped packet arrived
        q -= 1
        drops += 1
print(f"1. R1->R2 TCP queue, 4 s: max waiting at a dequeue {mx}; {drops} drops, each when an "
      f"arrival found {sorted(at_drop)} waiting -> {mx} waiting + 1 on the wire = {mx + 1} packets")
PY

for ov in 0 1e-4; do
    KV_TRACE0=$TMP/f0_$ov.tr "$NS" kaur_k5.tcl none 1 1 $ov ds 3 1 1 4 2>/dev/null >/dev/null
done
python3 - "$TMP" <<'PY'
import bisect, sys
for ov in ("0", "1e-4"):
    ev = [l.split() for l in open(f"{sys.argv[1]}/f0_{ov}.tr")]
    acks = [float(f[1]) for f in ev if f[0] == "r" and f[4] == "ack"]       # ACK reaches S_0
    seen, gaps, zero_rx = set(), [], 0
    for f in ev:
        if f[0] != "+" or f[4] != "tcp":                                     # data enters S_0->R1
            continue
        t, seq = float(f[1]), int(f[10])
        i = bisect.bisect_right(acks, t) - 1
        if t > 0.5 and i >= 0:
            g = t - acks[i]
            gaps.append(g)
            if g < 1e-9 and seq in seen:
                zero_rx += 1
        seen.add(seq)
    gaps.sort()
    n = len(gaps)
    z = sum(g < 1e-9 for g in gaps)
    us = lambda p: gaps[min(n - 1, int(p * n))] * 1e6
    print(f"2. overhead_ {ov}: {n} sends by flow 0 after t = 0.5 s; ACK-to-send gap "
          f"min {gaps[0]*1e6:.1f} median {us(.5):.1f} p90 {us(.9):.1f} max {gaps[-1]*1e6:.1f} us; "
          f"{z} at 0 ({z/n:.2%}), of which {zero_rx} retransmissions")
PY
