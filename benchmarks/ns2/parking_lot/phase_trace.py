"""Where in link 1's packet time ns-2.35's data packets reach it (README.md, "Why the
drop-tail cells disagree"): reads a queue trace of link 1 (parking_lot.tcl with PL_TRACE=file)
and prints, for the long flows (fid 1..n_long) and the cross flows, the share of their
arrivals after warm_s that fall within 1 us of a dequeue at link 1 (a tie: ns-2's trace has
microseconds), or in each quarter of the packet time after the last dequeue, with each
group's drop % at link 1. Standard library only.

    PL_TRACE=/tmp/t.txt ns parking_lot.tcl DropTail 2 8 8 1 20 10
    python3 phase_trace.py /tmp/t.txt [n_long=8] [warm_s=10]
"""
from __future__ import annotations

import bisect
import collections
import sys

PKT_S = 1040 * 8 / 10e6  # a data packet's transmission time at a 10 Mb/s link


def phases(path: str, n_long: int = 8, warm_s: float = 10.0) -> dict:
    deq, arr = [], []
    n_arr, n_drop = collections.Counter(), collections.Counter()
    with open(path) as f:
        for line in f:
            ev, t, _, _, kind, size, _, fid = line.split()[:8]
            if kind != "tcp" or size != "1040":
                continue  # ACKs
            t, group = float(t), "long" if int(fid) <= n_long else "cross"
            if ev == "-":
                deq.append(t)
            elif ev == "+" and t >= warm_s:
                arr.append((t, group))
                n_arr[group] += 1
            elif ev == "d" and t >= warm_s:
                n_drop[group] += 1
    out = {}
    for group in ("long", "cross"):
        bins = collections.Counter()
        for t, g in arr:
            i = bisect.bisect_right(deq, t + 1e-7) - 1  # the last dequeue at or before t
            if g != group or i < 0 or t - deq[i] > 1.5 * PKT_S:
                continue  # the link was idle: no phase
            d = t - deq[i]
            bins["tie" if d <= 1.01e-6 else f"q{min(int(d / PKT_S * 4), 3)}"] += 1
        tot = sum(bins.values()) or 1
        out[group] = ({b: bins[b] / tot for b in ("tie", "q0", "q1", "q2", "q3")},
                      100.0 * n_drop[group] / max(n_arr[group], 1))
    return out


if __name__ == "__main__":
    a = sys.argv[1:]
    res = phases(a[0], int(a[1]) if len(a) > 1 else 8, float(a[2]) if len(a) > 2 else 10.0)
    for group, (share, drop_pct) in res.items():
        print(f"{group:5s} " + " ".join(f"{b} {v:.3f}" for b, v in share.items())
              + f"  drop % at link 1: {drop_pct:.2f}")
