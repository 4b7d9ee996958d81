#!/usr/bin/env bash
# Runs Lee & Jeong (Balancing Marker) Method 1 -- the ns-2 TokenBucket marker shared by the
# 7 aggregated TCP connections, 2 colours, RIO-C -- on ns-2.35 (Debian "ns2").
#
#   ./run.sh   -> results_ns2_lee_jeong.csv       one row per run x variant x connection
#                 results_ns2_lee_jeong_runs.csv  one row per run (Jain, totals, dsRED counters)
#                 summary_ns2_lee_jeong.md        means and 95% CIs over the 10 seeds, beside
#                                                 the paper's Table 2 (Marker columns)
#                 ns2_version_defaults_lee_jeong.txt
#
# Grid (every run 60 s simulated, seeds 1-10, tcpcfg ns = ns-2.35 Reno defaults):
#   the four (CIR, bucket) cells of the paper's Table 2: (7 Mb/s, 70), (3.5, 70), (7, 35),
#   (3.5, 35) packets, each without and with the two UDP on-off sources  (80 runs)
#   sensitivity: case 1 with tcpcfg ds (bugFix_ false, singledup_ 0)       (20 runs)
#   ties: the four cells with tcpcfg nsov (every send delayed U(0, 10 us))   (80 runs)
# One run takes ~0.4 s of wall time on one core; P runs in parallel (default: nproc).
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
P=${P:-$(nproc)}
DUR=${DUR:-60}
WARM=${WARM:-10}
SEEDS=${SEEDS:-10}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# args per line: udp cir_bps cbs_pkts seed tcpcfg dur warm
grid() {
    for s in $(seq 1 "$SEEDS"); do
        for cell in "7e6 70" "3.5e6 70" "7e6 35" "3.5e6 35"; do
            for u in 0 1; do echo "$u $cell $s ns $DUR $WARM"; done
        done
        for u in 0 1; do echo "$u 7e6 70 $s ds $DUR $WARM"; done
        for cell in "7e6 70" "3.5e6 70" "7e6 35" "3.5e6 35"; do
            for u in 0 1; do echo "$u $cell $s nsov $DUR $WARM"; done
        done
    done
}

"$NS" lee_jeong_m1.tcl 0 7e6 70 1 ns 0.1 0.05 2>&1 >/dev/null | sed 's/^/# /' > ns2_version_defaults_lee_jeong.txt
"$NS" lee_jeong_m1.tcl 0 7e6 70 1 ds 0.1 0.05 2>&1 >/dev/null | sed 's/^/# /' >> ns2_version_defaults_lee_jeong.txt

start=$(date +%s.%N)
grid | xargs -P "$P" -L 1 sh -c \
    '"$0" lee_jeong_m1.tcl "$@" "'"$TMP"'/$1_$2_$3_$4_$5" 2>/dev/null' "$NS"
end=$(date +%s.%N)
n=$(ls "$TMP"/*.run | wc -l)
echo "ns runs done: $n runs in $(python3 -c "print(round($end - $start, 1))") s wall ($P parallel)"

# sort: tcpcfg, cir desc, cbs desc, variant (noudp first), seed, connection order as written
{ cat "$(ls "$TMP"/*.hdr | head -1)"
  cat "$TMP"/*.run | sort -t, -k5,5 -k2,2gr -k3,3nr -k1,1 -k4,4n; } > results_ns2_lee_jeong_runs.csv
{ cat "$(ls "$TMP"/*.fhdr | head -1)"
  for f in $(cd "$TMP" && ls *.flows | sort -t_ -k5,5 -k2,2gr -k3,3nr -k1,1n -k4,4n); do cat "$TMP/$f"; done
} > results_ns2_lee_jeong.csv
echo "wrote results_ns2_lee_jeong_runs.csv ($(($(wc -l < results_ns2_lee_jeong_runs.csv)-1)) runs)," \
     "results_ns2_lee_jeong.csv ($(($(wc -l < results_ns2_lee_jeong.csv)-1)) rows)"
python3 summarize.py results_ns2_lee_jeong_runs.csv results_ns2_lee_jeong.csv > summary_ns2_lee_jeong.md
echo "wrote summary_ns2_lee_jeong.md"
