#!/usr/bin/env bash
# Runs the Kaur & Vin K5 (Fig. 5a, equal RTPs, N = 64) comparison on ns-2.35 (Debian "ns2"),
# with and without the TCP send jitter Agent/TCP overhead_.
#
#   ./run_k5.sh         -> results_ns2_k5.csv        per-run rows
#                          results_ns2_k5_flows.csv  per-flow goodput rows
#                          summary_ns2_k5.md         means and 95% CIs over seeds
#   ./run_k5.sh extra   -> also the T_on sweep (13 log-spaced T_on 0.4..400 ms, 5 seeds)
#
# Grid (every run 100 s simulated, measured over [10, 100] s, 64 flows):
#   main : tcpcfg ds (matched to diffsweep), efcorr 1, networks none/ef (T_on = 1 ms),
#          overhead_ 0 and 1e-4 s, seeds 1-20                        (80 runs)
#   nsdef: tcpcfg ns (ns-2.35 defaults: bugFix_ 1, singledup_ 1), same, seeds 1-10 (40 runs)
#   efc0 : TCP+EF with efcorr 0 (idle_time_ = T_on (1-f)/f literally), seeds 1-10  (20 runs)
#   start: as main but flow starts drawn U(0, 1 s) (start_s 1), seeds 1-10          (40 runs)
#   extra: TCP+EF at the 13 T_on of k5_equal.toml, tcpcfg ds, efcorr 1, seeds 1-5  (130 runs)
# One run takes ~3.5 s of wall time on one core; P runs in parallel (default 2).
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
P=${P:-2}
DUR=${DUR:-100}
WARM=${WARM:-10}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# args per line: net ton_ms seed overhead tcpcfg dur warm efcorr nflows start_s
grid() {
    local cfg="$1" seeds="$2" nets="$3" tons="$4" corr="$5" st="${6:-0}"
    for ov in 0 1e-4; do
        for s in $seeds; do
            for net in $nets; do
                if [ "$net" = none ]; then
                    echo "none 1 $s $ov $cfg $DUR $WARM $corr 64 $st"
                else
                    for t in $tons; do echo "ef $t $s $ov $cfg $DUR $WARM $corr 64 $st"; done
                fi
            done
        done
    done
}
runit() {   # reads arg lines on stdin; each run writes its own files under $TMP
    xargs -P "$P" -L 1 sh -c \
        '"$0" kaur_k5.tcl "$@" "'"$TMP"'/$1_$2_$3_$4_$5_${8}_${10}" 2>/dev/null' "$NS"
}

"$NS" kaur_k5.tcl none 1 1 0 ds 0.2 0.1 1 64 2>&1 >/dev/null | sed 's/^/# /' > ns2_version_defaults_k5.txt
"$NS" kaur_k5.tcl none 1 1 0 ns 0.2 0.1 1 64 2>&1 >/dev/null | sed 's/^/# /' >> ns2_version_defaults_k5.txt

start=$(date +%s)
{
    grid ds "$(seq 1 20)" "none ef" "1" 1
    grid ns "$(seq 1 10)" "none ef" "1" 1
    grid ds "$(seq 1 10)" "ef" "1" 0
    grid ds "$(seq 1 10)" "none ef" "1" 1 1
    if [ "${1:-}" = extra ]; then
        # k5_equal.toml's T_on axis: logspace(0.4, 400, 13)
        TONS=$(python3 -c 'print(" ".join("%.6g" % (0.4 * 1000 ** (i / 12)) for i in range(13)))')
        grid ds "$(seq 1 5)" "ef" "$TONS" 1
    fi
} | sort -u | runit
echo "ns runs done in $(( $(date +%s) - start )) s wall ($P parallel)"

hdr=$(cat "$(ls "$TMP"/*.hdr | head -1)")
{ echo "$hdr"; cat "$TMP"/*.run | sort -t, -k5,5 -k6,6nr -k7,7g -k1,1r -k4,4g -k2,2g -k3,3n; } > results_ns2_k5.csv
{ echo "network,ton_ms,seed,overhead_s,tcpcfg,efcorr,start_s,flow,goodput_wire_bps,goodput_payload_bps,timeouts,rexmit_pkts,cwnd_cuts,drops_access"
  cat "$TMP"/*.flows | sort -t, -k5,5 -k6,6nr -k7,7g -k1,1r -k4,4g -k2,2g -k3,3n -k8,8n; } > results_ns2_k5_flows.csv
echo "wrote results_ns2_k5.csv ($(($(wc -l < results_ns2_k5.csv)-1)) runs), results_ns2_k5_flows.csv"
python3 summarize_k5.py results_ns2_k5.csv results_ns2_k5_flows.csv > summary_ns2_k5.md
echo "wrote summary_ns2_k5.md"
