#!/usr/bin/env bash
# Runs ns-2.35 on the cells that diffsweep's standard dumbbell is set beside (dumbbell.tcl):
# DropTail and RED (ns-2.35's defaults) x 1, 8, 32 NewReno flows at a 40-ms round trip, and
# x 8 flows with round trips spread evenly over 20..100 ms; 10 seeds, 60 s, measured from 10 s.
# Then the same DropTail cells with every TCP send delayed U(0, 1 ms) (overhead_ 1e-3, about
# one packet time at the bottleneck: the gap check of the variant rows, README.md; ns-2.35's
# own default is overhead_ 0).
#
#   ./run.sh  -> results_ns2_dumbbell.csv            one row per run
#                ns2_version_defaults_dumbbell.txt   ns version, TCP and queue values in force
#
# Runs are SEQUENTIAL under nice (one ns process at a time); the grid takes about a minute.
# Override: AQMS="RED" CELLS="8:40" SEEDS=3 DUR=30 ./run.sh ; KEEP=dir keeps the raw files.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
DUR=${DUR:-60}
WARM=${WARM:-10}
SEEDS=${SEEDS:-10}
AQMS=${AQMS:-"DropTail RED"}
CELLS=${CELLS:-"1:40 8:40 32:40 8:20-100"}   # n_flows:rtt_ms (lo-hi: an even spread)
OV_AQMS=${OV_AQMS:-"DropTail"}               # the overhead_ variant ("" : none)
OVERHEAD=${OVERHEAD:-1e-3}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }
if [ -n "${KEEP:-}" ]; then TMP=$KEEP; mkdir -p "$TMP"; else TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT; fi

for a in $AQMS; do
  nice "$NS" dumbbell.tcl "$a" 8 40 1 1 0.5 2>&1 >/dev/null | sed 's/^/# /'
done > ns2_version_defaults_dumbbell.txt

start=$(date +%s.%N)
n=0
for a in $AQMS; do
  for c in $CELLS; do
    nf=${c%%:*}; rtt=${c#*:}
    for s in $(seq 1 "$SEEDS"); do
      nice "$NS" dumbbell.tcl "$a" "$nf" "$rtt" "$s" "$DUR" "$WARM" Newreno "$TMP/${a}_${nf}_${rtt}_${s}" 2>/dev/null
      n=$((n + 1))
    done
  done
done
for a in $OV_AQMS; do
  for c in $CELLS; do
    nf=${c%%:*}; rtt=${c#*:}
    for s in $(seq 1 "$SEEDS"); do
      DB_OVERHEAD=$OVERHEAD nice "$NS" dumbbell.tcl "$a" "$nf" "$rtt" "$s" "$DUR" "$WARM" Newreno "$TMP/ov_${a}_${nf}_${rtt}_${s}" 2>/dev/null
      n=$((n + 1))
    done
  done
done
end=$(date +%s.%N)
echo "ns runs done: $n runs in $(python3 -c "print(round($end - $start, 1))") s wall (sequential)"
{ head -1 "$(ls "$TMP"/*.hdr | head -1)"; cat "$TMP"/*.run; } > "$TMP/all.csv"
python3 - "$TMP/all.csv" results_ns2_dumbbell.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
order = {"DropTail": 0, "RED": 1}
rows.sort(key=lambda r: (float(r["overhead_s"]), order[r["aqm"]], "-" in r["rtt_ms"],
                         int(r["n_flows"]), int(r["seed"])))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
print(f"{len(rows)} rows -> {sys.argv[2]}")
PY
