#!/usr/bin/env bash
# Runs ns-3.44 (dumbbell.cc, built by setup.sh) on the grid of issue 52's validation: NewReno
# and CUBIC over FIFO, CoDel, PIE and FQ-CoDel with and without ECN, NewReno over RED (as
# diffsweep's builder configures it) with and without ECN, CUBIC and NewReno sharing a FIFO,
# DCTCP over step marking at K packets, NewReno without SACK over FIFO (README.md: why the
# grid runs with SACK), and NewReno over FIFO with a 20-packet window (the window-limited
# check of README.md); 6 cells of N flows x round trips; 5 seeds (RngRun 1..5).
#
#   ./run.sh  -> results_ns3_dumbbell.csv   one row per run (columns: README.md)
#                ns3_defaults.txt           every attribute in force, per model
#
# Common to every run: a 10 Mb/s, 10 ms bottleneck, 100 Mb/s access links, a buffer of 100
# packets (2 BDPs at 40 ms), 1000-B segments, IW 10 (RFC 6928, ns-3's default), an ACK per
# segment, SACK on, a receiver window of 1000 segments (never binding here), 35 s runs
# measured from 5 s. Runs are SEQUENTIAL under nice, one ns-3 process at a time.
# Override: MODELS="newreno/fifo cubic/codel" CELLS="8:40" SEEDS=2 DUR=35 WARM=5 ./run.sh ;
# NS3_ENV as setup.sh; OUT=file writes the rows elsewhere (the defaults file is then left as
# it is); APPEND=1 adds the rows (and the models' defaults) to the recorded files instead of
# writing them anew.
set -euo pipefail
cd "$(dirname "$0")"
./setup.sh >&2
BIN=${BIN:-build/dumbbell}
DUR=${DUR:-35}
WARM=${WARM:-5}
SEEDS=${SEEDS:-5}
CELLS=${CELLS:-"1:40 8:40 32:40 8:100 8:20-100 32:20-100"}   # n_flows:rtt_ms (lo-hi: even spread)
OUT=${OUT:-results_ns3_dumbbell.csv}
COMMON="--bottleneck_mbps=10 --bottleneck_delay_ms=10 --access_mbps=100 --buffer_pkts=100
        --access_buffer_pkts=100 --segment=1000 --init_cwnd=10 --delack=1 --sack=1
        --max_window_pkts=1000 --min_rto_ms=200 --clock_ms=10 --dur_s=$DUR --warm_s=$WARM"
# RED as diffsweep's dumbbell(aqm="red") makes it for this link (red_auto, ns-2.35's automatic
# values with mean_pktsize_ 500, bytes_ and queue_in_bytes_ true): min_th 6.25 and max_th 18.75
# mean-size packets = 3125 and 9375 B, w_q = 1 - exp(-1 / (10 x 0.1 s x 2500 pkt/s)), max_p
# 0.1 (LInterm 10), gentle, wait; the limit 100 x 500 B + one TCP packet less a byte
RED="--red_bytes=1 --red_mean_pkt=500 --red_min_th=3125 --red_max_th=9375 --red_qw=0.000399920 --red_linterm=10"
# DCTCP's K: RFC 8257 s3.1 / Alizadeh et al. 2010 ask K > C x RTT / 7 = 7 packets at 40 ms;
# 10 packets (8.3 ms at 10 Mb/s)
declare -A M=(
  [newreno/fifo]="TcpNewReno FifoQueueDisc 0"
  [newreno/red]="TcpNewReno RedQueueDisc 0 $RED"
  [newreno/red-ecn]="TcpNewReno RedQueueDisc 1 $RED"
  [newreno/codel]="TcpNewReno CoDelQueueDisc 0"
  [newreno/codel-ecn]="TcpNewReno CoDelQueueDisc 1"
  [newreno/pie]="TcpNewReno PieQueueDisc 0"
  [newreno/pie-ecn]="TcpNewReno PieQueueDisc 1"
  [newreno/fq_codel]="TcpNewReno FqCoDelQueueDisc 0"
  [newreno/fq_codel-ecn]="TcpNewReno FqCoDelQueueDisc 1"
  [cubic/fifo]="TcpCubic FifoQueueDisc 0"
  [cubic/codel]="TcpCubic CoDelQueueDisc 0"
  [cubic/codel-ecn]="TcpCubic CoDelQueueDisc 1"
  [cubic/pie]="TcpCubic PieQueueDisc 0"
  [cubic/pie-ecn]="TcpCubic PieQueueDisc 1"
  [cubic/fq_codel]="TcpCubic FqCoDelQueueDisc 0"
  [cubic/fq_codel-ecn]="TcpCubic FqCoDelQueueDisc 1"
  [cubic+newreno/fifo]="TcpCubic+TcpNewReno FifoQueueDisc 0"
  [dctcp/step]="TcpDctcp RedQueueDisc 1 --step_k_pkts=10"
  [newreno-nosack/fifo]="TcpNewReno FifoQueueDisc 0 --sack=0"
  [newreno/fifo-w20]="TcpNewReno FifoQueueDisc 0 --max_window_pkts=20"
)
ORDER="newreno/fifo newreno/red newreno/red-ecn newreno/codel newreno/codel-ecn newreno/pie
       newreno/pie-ecn newreno/fq_codel newreno/fq_codel-ecn cubic/fifo cubic/codel
       cubic/codel-ecn cubic/pie cubic/pie-ecn cubic/fq_codel cubic/fq_codel-ecn
       cubic+newreno/fifo dctcp/step newreno-nosack/fifo newreno/fifo-w20"
MODELS=${MODELS:-$ORDER}

args() {  # label -> the model's arguments (one line: read takes the first)
  read -r tcp aqm ecn extra <<<"${M[$1]}"
  echo "--label=$1 --tcp=$tcp --aqm=$aqm --ecn=$ecn $extra"
}

APPEND=${APPEND:-0}
BASE=newreno/fifo   # ns3_defaults.txt: this model in full, the others as their differences
if [ "$OUT" = results_ns3_dumbbell.csv ]; then
  TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
  for m in $BASE $MODELS; do
    # shellcheck disable=SC2046
    "$BIN" $COMMON $(args "$m") --dur_s=0.01 --warm_s=0 --defaults="$TMP/d" >/dev/null
    { echo "## $m: $(args "$m" | tr -s ' \n' ' ')"; cat "$TMP/d"; } > "$TMP/$(echo "$m" | tr '/+' '__').txt"
  done
  python3 - "$TMP" "$APPEND" $BASE $MODELS > ns3_defaults.txt.new <<'PY'
import sys, pathlib
tmp, append, models = pathlib.Path(sys.argv[1]), sys.argv[2] == "1", sys.argv[3:]
files = [tmp / (m.replace("/", "_").replace("+", "_") + ".txt") for m in models]
first = files[0].read_text().splitlines()
if not append:
    print(first[1])  # the version line
    print("# " + models[0] + "'s values in full; for each other model, the lines that differ"
          " from them and every line of its queue disc")
    print("\n".join([first[0]] + first[2:]))
base = set(first[2:])
for f in files[1:]:
    if f == files[0]:
        continue
    lines = f.read_text().splitlines()
    head, body = lines[0], lines[2:]
    disc = head.split("--aqm=")[1].split()[0]
    keep = [l for l in body if l not in base or l.startswith(f"ns3::{disc}::")]
    print("\n" + "\n".join([head] + keep))
PY
  if [ "$APPEND" = 1 ]; then cat ns3_defaults.txt.new >> ns3_defaults.txt; rm ns3_defaults.txt.new
  else mv ns3_defaults.txt.new ns3_defaults.txt; fi
fi

[ "$APPEND" = 1 ] || "$BIN" --header > "$OUT"
start=$(date +%s.%N)
n=0
for m in $MODELS; do
  for c in $CELLS; do
    nf=${c%%:*}; rtt=${c#*:}
    for s in $(seq 1 "$SEEDS"); do
      # shellcheck disable=SC2046
      nice "$BIN" $COMMON $(args "$m") --n="$nf" --rtt_ms="$rtt" --run="$s" >> "$OUT"
      n=$((n + 1))
    done
  done
  echo "$m done ($n runs, $(python3 -c "print(round($(date +%s.%N) - $start))") s)" >&2
done
end=$(date +%s.%N)
echo "ns-3 runs done: $n runs in $(python3 -c "print(round($end - $start, 1))") s wall (sequential) -> $OUT" >&2
