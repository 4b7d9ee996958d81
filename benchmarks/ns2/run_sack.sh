#!/usr/bin/env bash
# Kaur & Vin under TCP SACK on ns-2.35 (issue 44): kaur_k2.tcl and kaur_k5.tcl with
# KV_TCP=sack, i.e. Agent/TCP/Sack1 senders and Agent/TCPSink/Sack1 sinks (maxSackBlocks_ 3).
#
#   ./run_sack.sh   -> results_ns2_k2_sack.csv  K2: one flow, RTP 8 ms, default timers,
#                                               efcorr 0, EF T_on {0.4, 4, 40, 400} ms and CBR,
#                                               seeds 1-10, 100 s (50 runs)
#                      results_ns2_k5_sack.csv  K5: 64 equal-RTP flows, T_on 1 ms, tcpcfg ds,
#                                               efcorr 1, TCP-only and TCP+EF, overhead_ 0 and
#                                               0.1 ms, seeds 1-10, 100 s (40 runs)
# then: PYTHONPATH=python python benchmarks/ns2/diffsweep_sack.py (diffsweep's side) and
#       PYTHONPATH=python python benchmarks/ns2/agreement.py --out docs/ns2-agreement.md
# Runs niced, P in parallel (default 2); ~5 min on 2 cores.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
P=${P:-2}
SEEDS=${SEEDS:-10}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }
export KV_TCP=sack

HDR=$(KV_HDR=1 "$NS" kaur_k2.tcl cbr 0 1 def 0.2 0.1 2>/dev/null | head -1 || true)
{
    echo "$HDR"
    for s in $(seq 1 "$SEEDS"); do
        echo "cbr 0 $s def 100 10 0"
        for t in 0.4 4 40 400; do echo "ef $t $s def 100 10 0"; done
    done | xargs -P "$P" -L 1 sh -c 'nice "$0" kaur_k2.tcl "$@" 2>/dev/null' "$NS" \
         | sort -t, -k1,1 -k2,2g -k3,3n
} > results_ns2_k2_sack.csv
echo "wrote results_ns2_k2_sack.csv ($(($(wc -l < results_ns2_k2_sack.csv)-1)) runs)"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for ov in 0 1e-4; do
    for s in $(seq 1 "$SEEDS"); do
        echo "none 1 $s $ov ds 100 10 1 64 0"
        echo "ef 1 $s $ov ds 100 10 1 64 0"
    done
done | xargs -P "$P" -L 1 sh -c \
    'nice "$0" kaur_k5.tcl "$@" "'"$TMP"'/$1_$2_$3_$4" 2>/dev/null' "$NS"
hdr=$(cat "$(ls "$TMP"/*.hdr | head -1)")
{ echo "$hdr"; cat "$TMP"/*.run | sort -t, -k1,1r -k4,4g -k3,3n; } > results_ns2_k5_sack.csv
echo "wrote results_ns2_k5_sack.csv ($(($(wc -l < results_ns2_k5_sack.csv)-1)) runs)"
