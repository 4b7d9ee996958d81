#!/usr/bin/env python3
"""Diagnostics for one kaur_k2.tcl run made with a trace prefix.

usage: analyze_trace.py <prefix> [warm_s] [-v]
Reads <prefix>.tr (ns-2 packet trace) and <prefix>.tcp (cwnd_/ack_/t_seqno_).
Node ids in kaur_k2.tcl: S=0 E=1 R1=2 R2=3 K=4 X=5.  fid 1 = TCP, fid 2 = EF/CBR.
Reports: EF queueing delay and drops at R1->R2; where TCP drops happen; TCP
queue peak at R1->R2; for every RTO (cwnd_ -> 1) whether the packet that is
retransmitted had actually been dropped (else: spurious timeout), the backlog
of TCP in the bottleneck queue at that moment and how long EF had been
continuously occupying the bottleneck.
"""
import sys, collections

pfx = sys.argv[1]
warm = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
verbose = len(sys.argv) > 3 and sys.argv[3] == '-v'

ef_enq = {}
ef_delays = []
drops = collections.Counter(); drops_w = collections.Counter()
tcp_drop_times = collections.defaultdict(list)   # seq -> [t]
tcp_q = 0; tcp_q_max = 0
ef_q = 0
tcp_q_hist = []          # (t, qlen) at changes, for lookup
ef_busy_since = None     # time the bottleneck became continuously busy with EF
ef_last_dep = -1.0
ef_runs = []             # (start, end) of back-to-back EF departures at R1->R2
IPT = 1500 * 8 / 40e6
run_start = None
tx_tcp = collections.Counter()   # seq -> times sent by S (enqueued at S->R1)

with open(pfx + ".tr") as f:
    for line in f:
        p = line.split()
        ev, t, a, b, typ, size, flags, fid = p[0], float(p[1]), p[2], p[3], p[4], p[5], p[6], p[7]
        seq, pid = p[10], p[11]
        if ev == 'd':
            drops[(fid, a + "->" + b)] += 1
            if t >= warm:
                drops_w[(fid, a + "->" + b)] += 1
            if fid == '1':
                tcp_drop_times[int(seq)].append(t)
        if a == '0' and b == '2' and ev == '+' and typ == 'tcp':
            tx_tcp[int(seq)] += 1
        if a == '2' and b == '3':
            if fid == '2':
                if ev == '+':
                    ef_enq[pid] = t
                elif ev == '-':
                    ef_delays.append(t - ef_enq.pop(pid))
                    # track continuous EF runs (departures spaced by one EF tx time)
                    if run_start is None or t - ef_last_dep > IPT * 1.01:
                        if run_start is not None:
                            ef_runs.append((run_start, ef_last_dep + IPT))
                        run_start = t
                    ef_last_dep = t
            elif fid == '1':
                if ev == '+':
                    tcp_q += 1
                elif ev in ('-', 'd'):
                    tcp_q -= 1
                tcp_q_max = max(tcp_q_max, tcp_q)
                tcp_q_hist.append((t, tcp_q))
if run_start is not None:
    ef_runs.append((run_start, ef_last_dep + IPT))

import bisect
qt = [x[0] for x in tcp_q_hist]
def qlen_at(t):
    i = bisect.bisect_right(qt, t) - 1
    return tcp_q_hist[i][1] if i >= 0 else 0
rs = [r[0] for r in ef_runs]
def ef_on_for(t):
    """how long EF has been continuously transmitting at time t (0 if idle)"""
    i = bisect.bisect_right(rs, t) - 1
    if i >= 0 and ef_runs[i][1] >= t:
        return t - ef_runs[i][0]
    return 0.0
def ef_last_run_before(t):
    i = bisect.bisect_right(rs, t) - 1
    return ef_runs[i] if i >= 0 else None

# timeouts from the agent trace: cwnd_ falling to 1
ack = -1; cwnd = None; tos = []; last_ack_t = 0.0; idle_before = []
with open(pfx + ".tcp") as f:
    for line in f:
        p = line.split()
        t, var, val = float(p[0]), p[5], float(p[6])
        if var == 'ack_':
            if int(val) != ack:
                last_ack_t = t
            ack = int(val)
        elif var == 'cwnd_':
            if cwnd is not None and val == 1.0 and cwnd > 1.0 and t >= warm:
                tos.append((t, ack, cwnd, t - last_ack_t))
            cwnd = val

print("EF packets through R1->R2: %d, queueing delay mean %.1f us, max %.1f us"
      % (len(ef_delays), 1e6 * sum(ef_delays) / max(1, len(ef_delays)), 1e6 * max(ef_delays or [0])))
print("drops by (fid, link), whole run:", dict(drops), " after warm-up:", dict(drops_w))
bd = [t for seq, ts in tcp_drop_times.items() for t in ts if t >= warm]
# a drop is "burst-driven" if the TCP backlog was well below the limit when the
# current EF run started, i.e. the EF run itself filled the buffer
q0 = []
for t in bd:
    if ef_on_for(t) > 0:
        q0.append(qlen_at(ef_last_run_before(t)[0]))
q0.sort()
print("TCP drops after warm-up: %d; %d during an EF run; TCP backlog when that run began: min %s, median %s (limit 347)"
      % (len(bd), len(q0), q0[0] if q0 else '-', q0[len(q0) // 2] if q0 else '-'))
print("TCP peak backlog in bottleneck queue: %d pkts" % tcp_q_max)
print("EF busy runs: %d, longest %.1f ms" % (len(ef_runs), 1e3 * max((e - s for s, e in ef_runs), default=0)))
print("timeouts (cwnd_->1): %d" % len(tos))
nsp = 0
for t, a, cw, sincea in tos:
    s = a + 1
    dropped = any(dt < t for dt in tcp_drop_times.get(s, []))
    on = ef_on_for(t)
    last = ef_last_run_before(t)
    gap = (t - last[1]) if last and last[1] < t else 0.0
    lastlen = (last[1] - last[0]) if last else 0.0
    if not dropped:
        nsp += 1
    if verbose:
        print("  t=%8.4f ack=%7d cwnd_before=%6.1f no-ack-for=%5.0fms seg %d %s tcp_q=%3d EF on for %.1f ms (last EF run %.1f ms, ended %.1f ms ago)"
          % (t, a, cw, 1e3 * sincea, s, "DROPPED" if dropped else "NOT dropped (spurious)", qlen_at(t), 1e3 * on, 1e3 * lastlen, 1e3 * gap))
    idle_before.append(sincea)
print("timeouts after warm-up %.0f s: %d, of which spurious (segment not dropped): %d; time since last ACK advance at RTO: min %.0f / median %.0f ms"
      % (warm, len(tos), nsp, 1e3 * min(idle_before or [0]), 1e3 * sorted(idle_before or [0])[len(idle_before) // 2]))
resent = sum(c - 1 for c in tx_tcp.values() if c > 1)
print("TCP segments sent more than once by S (whole run): %d extra transmissions" % resent)
