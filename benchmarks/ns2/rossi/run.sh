#!/usr/bin/env bash
# Runs the Rossi, Casetti & Mellia web-over-DiffServ scenario (HTTP only, SLA50, TSW2CM +
# RIO-C at S) on ns-2.35 (Debian "ns2") and summarizes it.
#
#   ./run.sh  -> results_ns2_rossi_transfers.csv  one row per run x cloud x transfer size
#                                                  (sums over the transfers of that run; the
#                                                  per-transfer files are ~1 MB per run and are
#                                                  kept only with KEEP=dir)
#                results_ns2_rossi_transfers_syn.csv.gz  one row per transfer, syn runs only
#                results_ns2_rossi_runs.csv       one row per run (counts, dsRED counters per
#                                                  code point, utilisation)
#                summary_ns2_rossi.md             per point, cloud and size class
#                ns2_version_defaults_rossi.txt   ns version and the TCP parameters in force
#
# Grid: (rho, alpha_af) = (0.5, 0.5), (0.8, 0.5), (0.85, 0.8); seeds 1-5; t_stop 200 s,
# t_halt 300 s; syncfg syn (ns-2.35 defaults) and, as a sensitivity check, nosyn (syn_ 0).
# Override: SEEDS=, TSTOP=, THALT=, POINTS="rho:alpha ...", SYNCFGS="syn nosyn", P= (parallel).
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
P=${P:-$(nproc)}
SEEDS=${SEEDS:-5}
TSTOP=${TSTOP:-200}
THALT=${THALT:-300}
POINTS=${POINTS:-"0.5:0.5 0.8:0.5 0.85:0.8"}
SYNCFGS=${SYNCFGS:-"syn nosyn"}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }
if [ -n "${KEEP:-}" ]; then TMP=$KEEP; mkdir -p "$TMP"; else TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT; fi

grid() {
    for sc in $SYNCFGS; do
        for pt in $POINTS; do
            for s in $(seq 1 "$SEEDS"); do echo "${pt%%:*} ${pt##*:} $s $TSTOP $THALT $sc"; done
        done
    done
}

: > ns2_version_defaults_rossi.txt
for sc in $SYNCFGS; do
    "$NS" rossi_web.tcl 0.5 0.5 1 0.1 0.2 "$sc" 2>&1 >/dev/null | sed 's/^/# /' >> ns2_version_defaults_rossi.txt
done

start=$(date +%s.%N)
grid | xargs -P "$P" -L 1 sh -c \
    '"$0" rossi_web.tcl "$@" "'"$TMP"'/$1_$2_$3_$6" 2>/dev/null' "$NS"
end=$(date +%s.%N)
n=$(ls "$TMP"/*.run | wc -l)
echo "ns runs done: $n runs in $(python3 -c "print(round($end - $start, 1))") s wall ($P parallel)"

# one row per transfer, ns-2.35 defaults (syn) only: ~3.7 MB gzipped (the nosyn runs add as much)
if ls "$TMP"/*_syn.tr >/dev/null 2>&1; then
    { cat "$(ls "$TMP"/*.trhdr | head -1)"
      cat $(cd "$TMP" && ls *_syn.tr | sort -t_ -k1,1g -k2,2g -k3,3n | sed "s|^|$TMP/|"); } \
        | gzip -9n > results_ns2_rossi_transfers_syn.csv.gz
fi
python3 summarize.py aggregate "$TMP" results_ns2_rossi_runs.csv results_ns2_rossi_transfers.csv
python3 summarize.py report results_ns2_rossi_runs.csv results_ns2_rossi_transfers.csv > summary_ns2_rossi.md
echo "wrote results_ns2_rossi_runs.csv, results_ns2_rossi_transfers.csv, summary_ns2_rossi.md"
