#!/usr/bin/env bash
# Gap check (docs/ns2-gaps.md): Lee & Jeong Method 1, CIR 7 Mb/s, buckets 70 and 35, no UDP,
# seeds 1-10, ns-2.35 defaults (tcpcfg ns): per-connection arrivals, forced and early drops at the
# core RIO-C queue (a per-fid flow monitor, LJ_FLOWMON=1 in ../lee_jeong/lee_jeong_m1.tcl; the
# runs are otherwise the recorded ones). Writes results_gap_lee_jeong_flows_ns2.csv here;
# lee_jeong_flows.py sets diffsweep's per-flow counters beside it.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
out=results_gap_lee_jeong_flows_ns2.csv
echo "tag,cir_mbps,cbs_pkts,udp,seed,fid,arrivals,forced_drops,early_drops" > "$out"
for cbs in 70 35; do
    for s in $(seq 1 10); do
        (cd ../lee_jeong && LJ_FLOWMON=1 "$NS" lee_jeong_m1.tcl 0 7e6 "$cbs" "$s" ns 2>&1 >/dev/null | grep '^ljflow') >> "$out"
    done
done
wc -l "$out"
