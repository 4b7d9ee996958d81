#!/usr/bin/env bash
# Gap check (docs/ns2-gaps.md): ns-2.35's delay_growth_ (default 1) resets cwnd to windowInit_
# on the ACK of seqno 0. Meant for the SYN's ACK; with syn_ false (as both benchmarks run to
# match diffsweep, which has no SYN) it is the first data packet's ACK, and every connection's
# slow start loses a round trip. Reruns parts of two benchmarks with delay_growth_ false:
#
#   Matta & Guo (../matta_guo/matta_guo.tcl, tcpcfg dsng): sharing at N = 30, k = 1, 4, 8 and
#     N = 60, k = 4, 8; two links at N = 30, k = 1, 4; seeds 1-5, 200 s
#       -> results_gap_delay_growth_matta_guo.csv (the columns of results_ns2_matta_guo.csv)
#   Rossi (../rossi/rossi_web.tcl, syncfg nosyn_ng): the three points, seeds 1-5
#       -> results_gap_delay_growth_rossi.csv (the columns of results_ns2_rossi_transfers.csv)
#
# About 2 + 6 minutes on 2 cores. P= parallel runs (default 2), PY= python with diffsweep.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
P=${P:-2}
PY=${PY:-python3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/mg" "$TMP/rossi"
{
    for s in 1 2 3 4 5; do
        for c in "share 30 1" "share 30 4" "share 30 8" "share 60 4" "share 60 8" "pipes 30 1" "pipes 30 4"; do
            set -- $c
            echo "mg $1 $2 $3 1 $s 200 dsng $TMP/mg/$1_$2_$3_1_$s"
        done
    done
    for s in 1 2 3 4 5; do
        for pt in "0.5 0.5" "0.8 0.5" "0.85 0.8"; do
            set -- $pt
            echo "rossi $1 $2 $s 200 300 nosyn_ng $TMP/rossi/$1_$2_${s}_nosyn_ng"
        done
    done
} | xargs -P "$P" -L 1 sh -c '
    if [ "$0" = mg ]; then cd ../matta_guo && "'"$NS"'" matta_guo.tcl "$@" 2>/dev/null;
    else cd ../rossi && "'"$NS"'" rossi_web.tcl "$@" 2>/dev/null; fi'
(cd ../matta_guo && "$PY" summarize.py aggregate "$TMP/mg" /dev/null "$OLDPWD/results_gap_delay_growth_matta_guo.csv")
(cd ../rossi && "$PY" summarize.py aggregate "$TMP/rossi" /dev/null "$OLDPWD/results_gap_delay_growth_rossi.csv")
echo "wrote results_gap_delay_growth_matta_guo.csv, results_gap_delay_growth_rossi.csv"
