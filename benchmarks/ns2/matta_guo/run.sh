#!/usr/bin/env bash
# Runs Matta & Guo's dumbbell (Figs. 3-5, Table 2) on ns-2.35 (Debian "ns2"), matched to
# diffsweep's builder `matta_guo`, and summarizes it.
#
#   ./run.sh -> results_ns2_matta_guo.csv       one row per run x class x 20-s interval: Jain's
#                                               index over the class's sessions, goodput,
#                                               connections ended in it (summarize.py aggregate)
#               results_ns2_matta_guo_runs.csv  one row per run: bottleneck counters per class
#               summary_ns2_matta_guo.md        means and 95% CIs over seeds (summarize.py report)
#               ns2_version_defaults_matta_guo.txt  ns version and the TCP parameters in force
#
# Grid (200 s simulated each, seeds 1-5, tcpcfg ds = matched to diffsweep's Reno):
#   Fig. 3: N = 30, k in K (default 1 2 4 8), buffer_ratio 1
#   Fig. 4: N = 60, k in K, buffer_ratio 1
#   Fig. 5: N = 30, k = 4, buffer_ratio in RATIOS (default 0.2 0.5 2 3; 1 is Fig. 3's k = 4)
#   each under MODES (default: iso = ns-2 CBQ, pipes = two separate links, share = one FIFO)
#   and again with tcpcfg dsov (every send delayed U(0, 10 us): simultaneous arrivals in a
#   random order) under OVMODES (default: pipes share)
# Override: SEEDS=, DUR=, K=, RATIOS=, MODES=, P= (parallel runs, default 2), KEEP=dir keeps
# the per-connection files (~0.5 MB per run).
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
P=${P:-2}
SEEDS=${SEEDS:-5}
DUR=${DUR:-200}
K=${K:-"1 2 4 8"}
RATIOS=${RATIOS:-"0.2 0.5 2 3"}
MODES=${MODES:-"iso pipes share"}
OVMODES=${OVMODES:-"pipes share"}
PY=${PY:-python3}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }
if [ -n "${KEEP:-}" ]; then TMP=$KEEP; mkdir -p "$TMP"; else TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT; fi

# args per line: mode n k buffer_ratio seed dur tcpcfg
cells() {  # mode seed tcpcfg
    for k in $K; do
        echo "$1 30 $k 1 $2 $DUR $3"
        echo "$1 60 $k 1 $2 $DUR $3"
    done
    for r in $RATIOS; do echo "$1 30 4 $r $2 $DUR $3"; done
}
grid() {
    for s in $(seq 1 "$SEEDS"); do
        for m in $MODES; do cells "$m" "$s" ds; done
        for m in $OVMODES; do cells "$m" "$s" dsov; done
    done
}

: > ns2_version_defaults_matta_guo.txt
for m in $MODES; do
    "$NS" matta_guo.tcl "$m" 30 4 1 1 0.1 ds 2>&1 >/dev/null | sed 's/^/# /' >> ns2_version_defaults_matta_guo.txt
done

start=$(date +%s.%N)
grid | xargs -P "$P" -L 1 sh -c \
    '"$0" matta_guo.tcl "$@" "'"$TMP"'/$1_$2_$3_$4_$5_$7" 2>/dev/null' "$NS"
end=$(date +%s.%N)
n=$(ls "$TMP"/*.run | wc -l)
echo "ns runs done: $n runs in $(python3 -c "print(round($end - $start, 1))") s wall ($P parallel)"
"$PY" summarize.py aggregate "$TMP" results_ns2_matta_guo_runs.csv results_ns2_matta_guo.csv
"$PY" summarize.py report results_ns2_matta_guo_runs.csv results_ns2_matta_guo.csv > summary_ns2_matta_guo.md
echo "wrote results_ns2_matta_guo_runs.csv, results_ns2_matta_guo.csv, summary_ns2_matta_guo.md"
