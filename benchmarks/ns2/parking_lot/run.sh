#!/usr/bin/env bash
# Runs ns-2.35 on the cells that diffsweep's standard parking lot is set beside
# (parking_lot.tcl): DropTail and RED (ns-2.35's defaults on every link) x K = 2 and 3
# bottlenecks with 8 long and 8 cross NewReno flows per link, and K = 3 with 4 cross flows per
# link; 10 seeds, 60 s, measured from 10 s. The primary cells draw every bottleneck's delay per
# seed as 10 ms + U(0, one packet time) (phase_delays.py; README.md, "Phase"); the same cells
# with every delay 10 ms are the fixed-phase variant. Then the DropTail cells at 10 ms with
# every TCP send delayed U(0, 1 ms) (overhead_ 1e-3, about one packet time at a bottleneck:
# the gap check of the variant rows; ns-2.35's own default is overhead_ 0).
#
#   ./run.sh  -> results_ns2_parking_lot.csv            one row per run
#                ns2_version_defaults_parking_lot.txt   ns version, TCP and queue values in force
#
# Then the phase check (DropTail, the 8-cross-flow cells): every bottleneck's delay moved by a
# fraction of a packet time (0.832 ms), to 10.2, 10.4 and 10.6 ms (PL_LINK_MS).
#
# Runs are SEQUENTIAL under nice (one ns process at a time); the grid takes under a minute.
# Override: AQMS="RED" CELLS="3:8:8" SEEDS=3 DUR=30 ./run.sh ; KEEP=dir keeps the raw files.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
DUR=${DUR:-60}
WARM=${WARM:-10}
SEEDS=${SEEDS:-10}
AQMS=${AQMS:-"DropTail RED"}
CELLS=${CELLS:-"2:8:8 3:8:8 3:8:4"}   # n_links:n_long:n_cross
OV_AQMS=${OV_AQMS:-"DropTail"}       # the overhead_ variant ("" : none)
OVERHEAD=${OVERHEAD:-1e-3}
PH_CELLS=${PH_CELLS:-"2:8:8 3:8:8"}   # the phase check's cells (DropTail; "" : none)
PH_DELAYS=${PH_DELAYS:-"10.2 10.4 10.6"}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }
if [ -n "${KEEP:-}" ]; then TMP=$KEEP; mkdir -p "$TMP"; else TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT; fi

for a in $AQMS; do
  nice "$NS" parking_lot.tcl "$a" 3 8 8 1 1 0.5 2>&1 >/dev/null | sed 's/^/# /'
done > ns2_version_defaults_parking_lot.txt

start=$(date +%s.%N)
n=0
run_cells() {  # prefix aqms [cells]; PHASE=random: each seed's own delays (phase_delays.py)
  local pfx=$1 aqms=$2 cells=${3:-$CELLS}
  for a in $aqms; do
    for c in $cells; do
      IFS=: read -r k nl nc <<< "$c"
      for s in $(seq 1 "$SEEDS"); do
        ms=""
        if [ "${PHASE:-}" = random ]; then ms=$(python3 phase_delays.py "$s" "$k"); fi
        env ${ms:+PL_LINK_MS=$ms} nice "$NS" parking_lot.tcl "$a" "$k" "$nl" "$nc" "$s" "$DUR" "$WARM" Newreno \
          "$TMP/${pfx}${a}_${k}_${nl}_${nc}_${s}" 2>/dev/null
        n=$((n + 1))
      done
    done
  done
}
PHASE=random run_cells rp_ "$AQMS"
run_cells "" "$AQMS"
if [ -n "$OV_AQMS" ]; then PL_OVERHEAD=$OVERHEAD run_cells ov_ "$OV_AQMS"; fi
if [ -n "$PH_CELLS" ]; then
  for d in $PH_DELAYS; do PL_LINK_MS=$d run_cells "ph${d}_" DropTail "$PH_CELLS"; done
fi
end=$(date +%s.%N)
echo "ns runs done: $n runs in $(python3 -c "print(round($end - $start, 1))") s wall (sequential)"
{ head -1 "$(ls "$TMP"/*.hdr | head -1)"; cat "$TMP"/*.run; } > "$TMP/all.csv"
python3 - "$TMP/all.csv" results_ns2_parking_lot.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
order = {"DropTail": 0, "RED": 1}
# the primary rows first (a delay per link: "/" in link_ms), then by send delay and delay
rows.sort(key=lambda r: ("/" not in r["link_ms"], float(r["overhead_s"]),
                         float(r["link_ms"].split("/")[0]), order[r["aqm"]],
                         int(r["n_links"]),
                         -int(r["n_cross"]), int(r["seed"])))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
print(f"{len(rows)} rows -> {sys.argv[2]}")
PY
