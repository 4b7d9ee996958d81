#!/usr/bin/env bash
# Gap check (docs/ns2-gaps.md): ns-2.35's RIO-C state at the bottleneck for Rossi et al. at
# rho 0.8, alpha_AF 0.5, syn_ 0 (the recorded comparison's runs), seeds 1-5: the time means
# (sampled every 10 ms until t_stop) of the green and red averages and of the physical queue,
# and the share of samples with the red average above min_th = 5 and max_th = 10. Writes
# results_gap_rossi_red_avg_ns2.csv here; rossi_red_avg.py sets diffsweep's beside it.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
P=${P:-2}
out=results_gap_rossi_red_avg_ns2.csv
echo "tag,rho,alpha_af,seed,syncfg,samples,avg_green,avg_red,queue_pkts,share_red_avg_above_5,share_red_avg_above_10" > "$out"
seq 1 5 | xargs -P "$P" -I{} sh -c 'cd ../rossi && RW_SAMPLE=0.01 "'"$NS"'" rossi_web.tcl 0.8 0.5 {} 200 300 nosyn 2>&1 >/dev/null | grep "^rio_sample" || true' \
    | sort -t, -k4,4n >> "$out"
cat "$out"
