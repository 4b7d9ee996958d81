#!/usr/bin/env bash
# Runs the Kaur & Vin Fig. 2 grid on ns-2.35 (Debian package "ns2").
#
#   ./run.sh          -> results_ns2_k2.csv (in python/diffsweep/papers/kaur_vin/data/: package
#                        data the report reads)   (brief's grid: T_on {0.4,4,40,400} ms
#                                                    EF + CBR, seeds 1-3, timers def/old)
#   ./run.sh extra    -> also results_ns2_k2_extra.csv (20 seeds, extra T_on points,
#                                                    efcorr=1 variant)  ~3-4 min on 2 cores
# then:  python3 summarize.py   (prints the markdown tables used in README.md)
#
# One ns run = 100 s simulated, ~1 s wall. Runs in parallel with xargs -P2.
set -euo pipefail
cd "$(dirname "$0")"
NS=${NS:-ns}
P=${P:-2}
command -v "$NS" >/dev/null || { echo "ns not found: apt-get install -y ns2" >&2; exit 1; }

HDR=$(KV_HDR=1 "$NS" kaur_k2.tcl cbr 0 1 def 0.2 0.1 2>/dev/null | head -1)

# args per line: net ton_ms seed timers dur warm efcorr
grid() {
    local seeds="$1" tons="$2" corr="$3"
    for tm in def old; do
        for s in $seeds; do
            for t in $tons; do echo "ef $t $s $tm 100 10 $corr"; done
            if [ "$corr" = 0 ]; then echo "cbr 0 $s $tm 100 10 0"; fi
        done
    done
}
runit() {   # reads arg lines on stdin, writes sorted CSV body
    xargs -P "$P" -L 1 sh -c '"$0" kaur_k2.tcl "$@" 2>/dev/null' "$NS" | sort -t, -k1,1 -k4,4 -k2,2g -k3,3n
}

"$NS" kaur_k2.tcl cbr 0 1 def 0.2 0.1 2>&1 >/dev/null | sed 's/^/# /' > ns2_version_defaults.txt
"$NS" kaur_k2.tcl cbr 0 1 old 0.2 0.1 2>&1 >/dev/null | sed 's/^/# /' >> ns2_version_defaults.txt

# The report (diffsweep reproduce kaur-vin, family K2v) reads this file as package data.
K2=../../python/diffsweep/papers/kaur_vin/data/results_ns2_k2.csv
{ echo "$HDR"; grid "1 2 3" "0.4 4 40 400" 0 | runit; } > "$K2"
echo "wrote $K2 ($(($(wc -l < "$K2")-1)) runs)"

if [ "${1:-}" = extra ]; then
    {
        echo "$HDR"
        { grid "$(seq 1 20)" "0.4 1 4 10 40 100 400 1000" 0
          grid "$(seq 1 20)" "0.4" 1; } | runit
    } > results_ns2_k2_extra.csv
    echo "wrote results_ns2_k2_extra.csv ($(($(wc -l < results_ns2_k2_extra.csv)-1)) runs)"
fi
