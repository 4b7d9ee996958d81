#!/usr/bin/env bash
# Gap check (docs/ns2-gaps.md, "Rossi et al.: best effort at rho 0.8"): one ns-2.35 run of
# Rossi et al. (rho 0.8, alpha_AF 0.5, seed 1, syn, t_stop 60 s, t_halt 90 s) with the S->R
# queue trace (RW_QTRACE) and ns-2's own 10-ms sampling of its RIO-C averages (RW_SAMPLE);
# rossi_red_replay.py replays the averages on that trace with dsredq.cc's rule and with
# diffsweep's (cuda/model/queue_red.h) and writes the table kept in rossi_red_replay.txt.
# Also checks that the two options leave the run's output unchanged.
#   PY=/path/to/python ./rossi_red_replay.sh     (needs numpy; ~15 s of ns-2, a 10 MB trace)
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
PY=${PY:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd ../rossi && RW_SAMPLE=0.01 RW_QTRACE="$tmp/qtrace.txt" "$NS" rossi_web.tcl 0.8 0.5 1 60 90 syn "$tmp/traced" \
    >/dev/null 2>"$tmp/traced.err")
(cd ../rossi && "$NS" rossi_web.tcl 0.8 0.5 1 60 90 syn "$tmp/plain" >/dev/null 2>&1)
same=yes
for e in run tr; do cmp -s "$tmp/traced.$e" "$tmp/plain.$e" || same=no; done
{
  echo "ns rossi_web.tcl 0.8 0.5 1 60 90 syn, with RW_QTRACE and RW_SAMPLE=0.01; .run and .tr identical to the run without them: $same"
  "$PY" rossi_red_replay.py "$tmp/qtrace.txt" 60 "$(grep '^rio_sample' "$tmp/traced.err")"
} | tee rossi_red_replay.txt
