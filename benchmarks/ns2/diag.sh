#!/usr/bin/env bash
# Trace diagnostics (seed 1, 100 s): priority check, where TCP drops happen,
# spurious vs. loss-driven RTOs.  Traces (~0.6 GB each) go to $TMPDIR and are
# deleted after analysis; summaries go to diag/<net>_<ton>_<timers>.txt.
#   ./diag.sh                 # the 10 standard cases, 2 in parallel (~3 min)
#   ./diag.sh ef 400 def -v   # one case, list every RTO
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p diag
T=${TMPDIR:-/tmp}
one() {
    local n=$1_$2_$3
    ns kaur_k2.tcl "$1" "$2" 1 "$3" 100 10 0 "$T/kk2_$n" > "diag/$n.csv" 2>/dev/null
    python3 analyze_trace.py "$T/kk2_$n" 10 -v > "diag/$n.txt"
    rm -f "$T/kk2_$n.tr" "$T/kk2_$n.tcp"
    echo "== $n"; cat "diag/$n.txt"
}
export -f one; export T
if [ $# -ge 3 ]; then one "$@"; exit; fi
printf "%s\n" "cbr 0 def" "cbr 0 old" "ef 0.4 def" "ef 4 def" "ef 40 def" "ef 400 def" \
              "ef 0.4 old" "ef 4 old" "ef 40 old" "ef 400 old" | xargs -P2 -L1 bash -c 'one "$@"' _
