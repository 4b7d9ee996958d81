"""Rossi et al. at rho 0.8, alpha_AF 0.5: replay RIO-C's averages on ns-2.35's own queue trace.

rossi_red_replay.sh runs rossi_web.tcl (rho 0.8, alpha 0.5, syn, t_stop 60 s, t_halt 90 s)
with RW_QTRACE (a line per enqueue '+', dequeue '-' and drop 'd' at S->R with the virtual
queue lengths, ns-2's two RIO-C averages and dsRED's per-code-point counters at that moment)
and RW_SAMPLE=0.01 (ns-2's averages sampled every 10 ms, time means printed as `rio_sample`).

From the trace this script takes, for every arrival, its code point (green 10 -> precedence 0;
red 12 and BE 0 -> precedence 1), its fate (accepted, early drop, forced drop with the average
above max_th, refused by the full buffer) and the waiting queue it saw, and replays the two
averages from zero with three rules on that same sequence of arrivals and dequeues:

  dsredq   ns-2.35's dsredq.cc exactly: calcAvg in float, idle_[i] set by updateREDStateVar
           at a dequeue (the start of a transmission) that empties the precedences <= i,
           cleared by updateIdleFlag on an accepted packet, m = int(ptc (now - idletime_)).
  model    cuda/model/queue_red.h + engine/queue_side.h as they stand: the packet on the wire
           stays in n[] until its transmission ends (red_dequeued then sets cq_idle_since),
           aqm_admits takes it out of n[] around red_arrival, and red_arrival_mred derives
           average i's idle flag from n[0..i] == 0 with cq_idle_since[i] as the idle start.
  flags/end  the fix: an explicit idle flag per average, as dsredq.cc keeps one: cleared when
           a packet of a precedence <= i is accepted, set (with the idle start) when a
           departure leaves n[0..i] empty. An arrival while the last packet is on the wire
           then finds the average busy (ns-2: idle since that packet's dequeue, m = 0 for a
           packet no longer than the mean). Idle start = the end of that transmission.
  flags/start  the same with the idle start = the start of that transmission, dsredq.cc's
           updateREDStateVar time (red.cc's REDQueue::deque sets idle at the end instead).

Each replay is compared with the averages ns-2 printed on every trace line (max |error|) and
on ns-2's 10-ms sampling grid (time means, as RW_SAMPLE computes them).

    python3 benchmarks/ns2/gaps/rossi_red_replay.py /tmp/qtrace.txt [rio_sample line]
"""
from __future__ import annotations

import sys

import numpy as np

W = 0.002                 # q_w of both precedences
PTC = 10e6 / (8 * 1000)   # dsredq setPTC: link bandwidth / (8 mean_pktsize) = 1250 pkt/s
RATE = 10e6               # S->R, b/s
QLIM = 50
MIN_TH = (20.0, 5.0)
MAX_TH = (40.0, 10.0)
NP = 2


def f32(x):
    return float(np.float32(x))


def load(path):
    ev, t, uid, size, q0, q1, a0, a1, n10, n12, dr, ed = ([] for _ in range(12))
    with open(path) as fh:
        for line in fh:
            p = line.split()
            ev.append(p[0]); t.append(float(p[1])); uid.append(int(p[3])); size.append(int(p[4]))
            q0.append(int(p[5])); q1.append(int(p[6])); a0.append(float(p[7])); a1.append(float(p[8]))
            n10.append(int(p[9])); n12.append(int(p[10])); dr.append(int(p[11])); ed.append(int(p[12]))
    return dict(ev=ev, t=t, uid=uid, size=size, q=list(zip(q0, q1)), avg=list(zip(a0, a1)),
                n10=n10, n12=n12, drops=dr, edrops=ed)


def annotate(tr):
    """Per '+' line: precedence and fate, from the counters on the next line."""
    n = len(tr["ev"])
    prec, fate = [None] * n, [None] * n
    for k in range(n - 1):
        if tr["ev"][k] != "+":
            continue
        d10 = tr["n10"][k + 1] - tr["n10"][k]
        d12 = tr["n12"][k + 1] - tr["n12"][k]
        prec[k] = 0 if d10 else 1          # cp 10 -> 0; cp 12 and cp 0 -> 1
        if tr["edrops"][k + 1] > tr["edrops"][k]:
            fate[k] = "early"
        elif tr["drops"][k + 1] > tr["drops"][k]:
            fate[k] = "overflow" if sum(tr["q"][k]) > QLIM - 1 else "forced"
        else:
            fate[k] = "accept"
        assert d10 + d12 <= 1
    return prec, fate


def replay(tr, prec, fate, rule):
    """Averages just before every trace line (list of (a0, a1)), under `rule`."""
    n = len(tr["ev"])
    avg = [0.0, 0.0]
    # dsredq state
    idle = [1, 1]
    idletime = [0.0, 0.0]
    qlen = [0, 0]
    # model state: n_all counts the packet on the wire too; ends = pending transmission ends
    n_all = [0, 0]
    cq_since = [0.0, 0.0]
    flag = [1, 1]                    # flags/*: explicit idle flag per average
    wire = None                      # (prec, t_start, t_end) of the packet on the wire
    colour_of = {}
    out = []
    fp = rule == "dsredq"

    def end_tx(t_end):               # red_dequeued at the end of a transmission
        nonlocal wire
        c, t_start = wire[0], wire[1]
        n_all[c] -= 1
        wire = None
        if n_all[c] != 0:
            return
        pre = 0
        for i in range(NP):
            pre += n_all[i]
            if i >= c and pre == 0:
                cq_since[i] = t_start if rule == "flags/start" else t_end
                flag[i] = 1

    for k in range(n):
        t = tr["t"][k]
        if not fp and wire is not None and wire[2] <= t + 1e-9:
            end_tx(wire[2])
        out.append((avg[0], avg[1]))
        ev = tr["ev"][k]
        if ev == "+":
            c, fa = prec[k], fate[k]
            if fa is None:
                break
            colour_of[tr["uid"][k]] = c
            if fa == "overflow":
                continue
            q = tr["q"][k]           # waiting packets, as ns-2 counts them
            if fp:
                assert tuple(qlen) == tuple(q), (k, qlen, q)
                for i in range(c, NP):
                    m = int(PTC * (t - idletime[i])) if idle[i] else 0
                    f = f32(avg[i])
                    m1 = m + 1
                    while m1 - 1 >= 1:   # while (--m >= 1) f *= 1 - q_w
                        f = f32(f * (1.0 - W))
                        m1 -= 1
                    f = f32(f * (1.0 - W))
                    for j in range(i + 1):
                        f = f32(f + W * q[j])
                    avg[i] = f
            else:
                pre = 0
                for i in range(c):
                    pre += q[i]
                for i in range(c, NP):
                    pre += q[i]
                    idl = pre == 0 if rule == "model" else flag[i] == 1
                    since = cq_since[i]
                    m = int(PTC * (t - since)) if idl else 0
                    if m < 0:
                        m = 0
                    avg[i] = avg[i] * (1.0 - W) ** (m + 1) + W * sum(q[: i + 1])
            if fa == "accept":
                if fp:
                    qlen[c] += 1
                    for i in range(c, NP):
                        idle[i] = 0
                else:
                    n_all[c] += 1
                    for i in range(c, NP):
                        flag[i] = 0
        elif ev == "-":
            c = colour_of[tr["uid"][k]]
            if fp:
                qlen[c] -= 1
                if qlen[c] == 0 and all(qlen[i] == 0 for i in range(c)):
                    for i in range(c, NP):
                        if qlen[i] == 0:
                            idle[i] = 1
                            idletime[i] = t
                        else:
                            break
            else:
                assert wire is None, (k, wire)
                wire = (c, t, t + tr["size"][k] * 8 / RATE)
    return out


def sampled_mean(tr, vals, t_stop, dt=0.01):
    """Time mean on RW_SAMPLE's grid: the state at t = 0, dt, 2 dt, ... < t_stop."""
    ts = np.asarray(tr["t"])
    v = np.asarray(vals)
    grid = np.arange(0, int(round(t_stop / dt))) * dt
    grid = grid[grid < t_stop]
    idx = np.searchsorted(ts, grid, side="left")   # first line at or after the sample time
    idx = np.minimum(idx, len(v) - 1)
    return v[idx].mean(axis=0), len(grid)


def main() -> None:
    path = sys.argv[1]
    t_stop = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    tr = load(path)
    prec, fate = annotate(tr)
    arr = [k for k in range(len(prec)) if prec[k] is not None]
    nacc = {f: sum(1 for k in arr if fate[k] == f) for f in ("accept", "early", "forced", "overflow")}
    print(f"trace: {len(tr['ev'])} lines, {len(arr)} arrivals at S->R in [0, {t_stop:g}) s: "
          f"{sum(1 for k in arr if prec[k] == 0)} green (cp 10), "
          f"{sum(1 for k in arr if prec[k] == 1)} precedence 1 (cp 12 + cp 0); "
          + ", ".join(f"{v} {f}" for f, v in nacc.items()))
    # the arrivals that see no waiting packet while one is on the wire (ns-2 terms)
    busy0 = 0
    on_wire = False
    for k in range(len(tr["ev"])):
        ev = tr["ev"][k]
        if ev == "+" and prec[k] is not None and fate[k] != "overflow" and sum(tr["q"][k]) == 0:
            # on the wire: the last '-' is less than its transmission time ago
            j = k - 1
            while j >= 0 and tr["ev"][j] != "-":
                j -= 1
            if j >= 0 and tr["t"][j] + tr["size"][j] * 8 / RATE > tr["t"][k]:
                busy0 += 1
    print(f"arrivals (buffer not full) that find no packet waiting but one on the wire: {busy0} "
          f"({busy0 / max(1, len(arr)):.3f} of all arrivals)")
    ns = np.asarray(tr["avg"])
    (m_ns, n_grid) = sampled_mean(tr, ns, t_stop)
    print(f"ns-2's own averages on the trace lines, sampled on the 10-ms grid ({n_grid} samples): "
          f"green {m_ns[0]:.4f}, red {m_ns[1]:.4f}")
    if len(sys.argv) > 3:
        print(f"ns-2's RW_SAMPLE line: {sys.argv[3]}")
    print()
    print("| replay rule | max abs. error vs ns-2, green / red (every trace line) | "
          "time mean green | time mean red | red: mean (replay - ns-2) |")
    print("|---|---|---|---|---|")
    print(f"| ns-2.35 as traced | - | {m_ns[0]:.4f} | {m_ns[1]:.4f} | - |")
    first = []
    for rule in ("dsredq", "model", "flags/end", "flags/start"):
        r = np.asarray(replay(tr, prec, fate, rule))
        r = r[: len(ns)]
        err = np.abs(r - ns[: len(r)]).max(axis=0)
        m, _ = sampled_mean(tr, r, t_stop)
        d = (r[:, 1] - ns[: len(r), 1]).mean()
        print(f"| {rule} | {err[0]:.6f} / {err[1]:.6f} | {m[0]:.4f} | {m[1]:.4f} | {d:+.4f} |")
        # off: beyond the trace's 6 decimals and float rounding (ns-2 keeps the average in float)
        off = np.abs(r - ns[: len(r)]) > 2e-6 + 1e-5 * np.abs(ns[: len(r)])
        bad = np.nonzero(off.any(axis=1))[0]
        if len(bad):
            k = int(bad[0]) - 1      # the arrival processed just before the first wrong line
            first.append(f"{rule}: {len(bad)} of {len(r)} lines off; the first (by more than 2e-6 + 1e-5 |avg|) is {k + 1} (t = "
                          f"{tr['t'][k + 1]:.6f} s), after the '{tr['ev'][k]}' of uid "
                          f"{tr['uid'][k]} (precedence {prec[k]}, {fate[k]}) that saw "
                          f"{tr['q'][k][0]} + {tr['q'][k][1]} waiting: ns-2 {tr['avg'][k + 1]}, "
                          f"replay ({r[k + 1][0]:.6f}, {r[k + 1][1]:.6f})")
    print()
    print("\n".join(first))


if __name__ == "__main__":
    main()
