#!/usr/bin/env bash
# Lee & Jeong Method 1 under TCP SACK on ns-2.35 (issue 44, "one cell of another paper"):
# lee_jeong_m1.tcl with LJ_TCP=sack, i.e. Agent/TCP/Sack1 senders and Agent/TCPSink/Sack1
# sinks (maxSackBlocks_ 3) for all 17 TCP connections, in one cell of Table 2: CIR 7 Mb/s,
# bucket 70 packets, no UDP, tcpcfg ns (ns-2.35 defaults: bugFix_ 1, singledup_ 1), 60 s,
# seeds 1-SEEDS (default 10); and again with tcpcfg nsov (every send delayed U(0, 10 us), so
# simultaneous arrivals at the edge meet in a random order: the variant rows, as run.sh's).
#
#   ./run_sack.sh -> results_ns2_lee_jeong_sack_runs.csv  one row per run (as run.sh's _runs)
#                    ns2_version_defaults_lee_jeong.txt   its Sack1 line (agent, sink, parameters)
# then: PYTHONPATH=python python benchmarks/ns2/lee_jeong/diffsweep_lee_jeong.py --sack
#       PYTHONPATH=python python benchmarks/ns2/agreement.py --out docs/ns2-agreement.md
# Runs niced, P in parallel (default 2); ~5 s on 2 cores (20 runs).
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
P=${P:-2}
SEEDS=${SEEDS:-10}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }
export LJ_TCP=sack
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# the SACK agents' parameters in force, one line in ns2_version_defaults_lee_jeong.txt (run.sh
# rewrites the Reno lines of that file; this replaces only the Sack1 line)
{ grep -v 'agent=Agent/TCP/Sack1' ns2_version_defaults_lee_jeong.txt 2>/dev/null || true
  "$NS" lee_jeong_m1.tcl 0 7e6 70 1 ns 0.1 0.05 2>&1 >/dev/null | sed 's/^/# /'
} > "$TMP/defaults" && cp "$TMP/defaults" ns2_version_defaults_lee_jeong.txt
# args per line: udp cir_bps cbs_pkts seed tcpcfg dur warm
for s in $(seq 1 "$SEEDS"); do for c in ns nsov; do echo "0 7e6 70 $s $c 60 10"; done; done \
    | xargs -P "$P" -L 1 sh -c \
        'nice "$0" lee_jeong_m1.tcl "$@" "'"$TMP"'/$1_$2_$3_$4_$5" 2>/dev/null' "$NS"
{ cat "$(ls "$TMP"/*.hdr | head -1)"; cat "$TMP"/*.run | sort -t, -k5,5 -k4,4n; } \
    > results_ns2_lee_jeong_sack_runs.csv
echo "wrote results_ns2_lee_jeong_sack_runs.csv ($(($(wc -l < results_ns2_lee_jeong_sack_runs.csv)-1)) runs)"
