#!/usr/bin/env python3
"""Seed-mean tables (markdown) from results_ns2_k2*.csv.

U      = TCP goodput (unique segments x 576 B, sink bytes_) / (0.7 * 40 Mb/s)
U_avail= same goodput / ((1 - measured EF share) * 40 Mb/s)  (removes EF-load sampling noise)
loss   = U_CBR - U_EF (same timer setting, seed-mean)
"""
import csv, sys, statistics as st, collections

def load(path):
    with open(path) as f:
        return list(csv.DictReader(f))

def table(rows, title):
    g = collections.defaultdict(list)
    for r in rows:
        g[(r['timers'], r['network'], float(r['ton_ms']), int(r['efcorr']))].append(r)
    out = ["### " + title, "",
           "| timers | network | T_on ms | efcorr | n | EF share meas. | U (mean ± sd) | loss U_CBR−U_EF | U_avail | loss_avail | timeouts (mean) | rexmit pkts | dup deliveries | TCP drops access / bneck | EF drops |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for tm in ('def', 'old'):
        cbr = g.get((tm, 'cbr', 0.0, 0), [])
        ucbr = st.mean(float(r['U_good']) for r in cbr) if cbr else float('nan')
        uacbr = st.mean(float(r['U_avail']) for r in cbr) if cbr else float('nan')
        keys = sorted(k for k in g if k[0] == tm)
        keys.sort(key=lambda k: (k[1] == 'cbr', k[2], k[3]))
        for k in keys:
            rs = g[k]
            m = lambda c: st.mean(float(r[c]) for r in rs)
            U = [float(r['U_good']) for r in rs]
            sd = st.stdev(U) if len(U) > 1 else 0.0
            loss = "" if k[1] == 'cbr' else "%.3f" % (ucbr - st.mean(U))
            lossa = "" if k[1] == 'cbr' else "%.3f" % (uacbr - m('U_avail'))
            out.append("| %s | %s | %s | %d | %d | %.3f | %.3f ± %.3f | %s | %.3f | %s | %.1f | %.0f | %.0f | %.1f / %.1f | %d |" % (
                tm, k[1].upper(), ("%g" % k[2]) if k[1] == 'ef' else "–", k[3], len(rs),
                m('ef_frac_meas'), st.mean(U), sd, loss, m('U_avail'), lossa,
                m('timeouts'), m('rexmit_pkts'), m('dup_deliveries'),
                m('drops_access'), m('drops_bneck_tcp'), sum(int(r['drops_bneck_ef']) for r in rs)))
    return "\n".join(out) + "\n"

if __name__ == "__main__":
    paths = sys.argv[1:] or ["../../python/diffsweep/papers/kaur_vin/data/results_ns2_k2.csv"]
    for p in paths:
        print(table(load(p), p))
