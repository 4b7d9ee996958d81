#!/usr/bin/env bash
# Runs the ns-2.35 reference of Habib, Bhargava & Fahmy, Sec. V.A, topology 2(a): two
# aggregates of 200 TCP NewReno flows each, standard conditioner (TSW + TSW3CM, CIR 2 Mb/s,
# PIR 3 Mb/s) at each edge, RIO-C (3 precedences) at the 10 Mb/s core bottleneck.
#
#   ./run.sh  -> results_ns2_habib.csv            one row per run (all counters)
#                summary_ns2_habib.md             means over the seeds per (cond, F2 RTT)
#                ns2_version_defaults_habib.txt   ns version + TCP defaults in force
#
# Grid (default): cond tsw3cm and none, F2 RTT 20 50 100 150 200 ms, seeds 1..10,
# 100 s simulated each, measured over [20, 100] s. Runs are SEQUENTIAL (one ns process at a
# time) under nice; one run takes ~2.5 s of wall time, the whole grid ~4-5 minutes.
# Override: CONDS="tsw3cm" RTTS="20 100 200" SEEDS=3 ./run.sh ; KEEP=dir keeps raw files.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
DUR=${DUR:-100}
WARM=${WARM:-20}
NF=${NF:-200}
SEEDS=${SEEDS:-10}
RTTS=${RTTS:-"20 50 100 150 200"}
CONDS=${CONDS:-"tsw3cm none"}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }
if [ -n "${KEEP:-}" ]; then TMP=$KEEP; mkdir -p "$TMP"; else TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT; fi

{ for c in $CONDS; do
    nice "$NS" habib_2a.tcl 20 1 0.1 "$c" 0.05 "$NF" 2>&1 >/dev/null | sed 's/^/# /'
  done
  HB_PRINTPOLICY=1 nice "$NS" habib_2a.tcl 100 1 0.1 tsw3cm 0.05 "$NF" 2>/dev/null | grep -v '^cond,\|^tsw3cm,' | sed 's/^/# /'
} > ns2_version_defaults_habib.txt

start=$(date +%s.%N)
n=0
for c in $CONDS; do
  for r in $RTTS; do
    for s in $(seq 1 "$SEEDS"); do
      t0=$(date +%s.%N)
      nice "$NS" habib_2a.tcl "$r" "$s" "$DUR" "$c" "$WARM" "$NF" "$TMP/${c}_${r}_${s}" 2>/dev/null
      t1=$(date +%s.%N)
      echo "$c,$r,$s,$(python3 -c "print(round($t1 - $t0, 2))")" >> "$TMP/walltime.csv"
      n=$((n + 1))
    done
  done
done
end=$(date +%s.%N)
echo "ns runs done: $n runs in $(python3 -c "print(round($end - $start, 1))") s wall (sequential)"
python3 summarize.py "$TMP" results_ns2_habib.csv | tee summary_ns2_habib.md
