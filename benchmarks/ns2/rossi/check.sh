#!/usr/bin/env bash
# Full-trace checks of rossi_web.tcl on two short runs (rho 0.8, alpha_AF 0.5, seed 2,
# t_stop 15 s, t_halt 25 s), with and without the SYN. A few seconds.
set -euo pipefail
cd "$(dirname "$0")"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
for sc in syn nosyn; do
    echo "== syncfg $sc"
    RW_TRACE="$TMP/trace" ns rossi_web.tcl 0.8 0.5 2 15 25 "$sc" "$TMP/c" 2>/dev/null
    python3 check_trace.py "$TMP/trace" "$TMP/c.tr" "$TMP/c.trhdr"
done
