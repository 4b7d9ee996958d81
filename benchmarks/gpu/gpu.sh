#!/usr/bin/env bash
# The whole GPU check in one call, on a fresh GPU machine without network access whose
# python3 has scikit-build-core, pybind11, numpy, pandas, pyarrow, matplotlib, tqdm, pytest:
#   bash benchmarks/gpu/gpu.sh            (results in $OUT, else benchmarks/gpu/results/gpu-<host>/)
# 1. builds diffsweep with its CUDA engine; 2. runs the GPU tests (CPU vs CUDA bit for bit)
# and the golden engine tests on both backends; 3. engine throughput for 1, 64 and 1,000
# flows against the number of replicas; 4. the quick and full Kaur & Vin reproductions,
# timed, on cuda and on all CPU cores (the full one also on both at once, cuda+cpu); 5. every other paper's quick reproduction on both;
# 6. an Nsight Compute summary of the real 64-flow launch (32,768 replicas, past the warm-up
# launch) when ncu is installed. Each step's log is kept; a failed step does not stop the
# others. A device call is limited to 10 minutes: each step runs under `timeout $STEP_TIMEOUT`
# (default 240 s; rc 124 in the summary means it was cut), and STEPS picks the steps of this
# call; three calls on a fresh machine (each builds: the machine may be a new one; minutes
# from the H100 runs of 2026-11-25/26, the new steps estimated):
#   STEPS="build tests auto throughput" bash benchmarks/gpu/gpu.sh   (~1 + 1 + 1-2 + 3)
#   STEPS="build reproduce papers" bash benchmarks/gpu/gpu.sh        (~1 + 5-6 + 1-2)
#   STEPS="build spread ncu icache" bash benchmarks/gpu/gpu.sh       (~1 + 3-4 + 2 + 2-3)
# A development session lent a device has 15 minutes in all, the machine's start included:
# one call of ~7 minutes, the numbers that decide most first (issue 21's targets):
#   STEPS="build session" bash benchmarks/gpu/gpu.sh                 (~1 + 0.5 + 3-4 + 1-2)
# and, with time left for a second call, issue 51's stage kernels (`wavefront`, ~1 + 3-4):
#   STEPS="build wavefront" bash benchmarks/gpu/gpu.sh
# Last, every call: issue 21's targets, each met / NOT MET / not measured from the logs in
# $OUT (benchmarks/gpu/targets.py; OUT/targets.json).
# `session`: CPU = CUDA on tests/test_gpu.py; the full Kaur & Vin family's one engine call on
# cuda, cuda+cpu and the CPU cores, tables compared (auto_backend.py --full); every paper's
# quick family on the three (auto's constants again).
# `split`: the full family's engine call with its launch split by kernel or not (~3-7 minutes).
# `phases`: issue 43's decision recomputed from this machine's full-family engine calls (the
# engine's choice, 32 a warp), ~3-5 minutes; after `ncu` / `icache` in STEPS, their fetch shares.
# `auto`: what `--backend auto` chooses for each paper's quick family against the engine
# call timed on cpu, cuda and cuda+cpu, and diffsweep.engine.backend_choice's constants measured
# again; `icache`: Nsight Compute's instructions per replica-slot and fetch stalls of lone
# replicas, against benchmarks/gpu/hot_sass.py's estimate. With more device time: `warp` (shared
# rounds off and on: ~2 minutes, ~4 with WARP_FULL=1), `atlas` (~1-2), `occupancy` (~4-5).
set -uo pipefail
STEPS=${STEPS:-"build tests auto spread warp throughput occupancy reproduce papers ncu icache atlas split phases"}
STEP_TIMEOUT=${STEP_TIMEOUT:-240}
want() { [[ " $STEPS " == *" $1 "* ]]; }
cd "$(dirname "$0")/../.."  # the checkout (this script is benchmarks/gpu/gpu.sh)
OUT=${OUT:-benchmarks/gpu/results/gpu-$(hostname)}
mkdir -p "$OUT"
log() { echo "== $(date +%T) $*" | tee -a "$OUT/gpu-summary.txt"; }
step() { local name=$1; shift; local t0=$(date +%s.%N); timeout "$STEP_TIMEOUT" "$@" > "$OUT/$name.log" 2>&1; local rc=$?
  local t1=$(date +%s.%N); log "$name rc=$rc wall=$(python3 -c "print(f'{$t1-$t0:.1f}')") s"; return $rc; }

log "machine: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1); $(nproc) CPU threads"
# for this machine's GPU only (e.g. 90-real on an H100/H200): a third of the compile time;
# DIFFSWEEP_CUDA=ON, not the default AUTO (CMakeLists.txt, issue 53): here a build without the
# CUDA engine must fail the build step, not leave a CPU-only install whose GPU steps skip
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
arch="-Ccmake.define.DIFFSWEEP_CUDA=ON${cc:+ -Ccmake.define.DIFFSWEEP_CUDA_ARCHITECTURES=${cc}-real}"
if want build; then
  step build python3 -m pip install --no-build-isolation --no-deps -v $arch . || { tail -50 "$OUT/build.log"; exit 1; }
fi
python3 -c "import diffsweep as ds, json; print(json.dumps(ds.info()))" | tee -a "$OUT/gpu-summary.txt"
if want tests; then
  step tests python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py tests/test_engine_golden.py tests/test_schedule.py tests/test_diffserv.py tests/test_traffic.py tests/test_tcp_aware.py
  tail -3 "$OUT/tests.log" | tee -a "$OUT/gpu-summary.txt"
fi
if want throughput; then
  step throughput python3 benchmarks/gpu/gpu.py --backend cuda --out "$OUT"
  step throughput_cpu python3 benchmarks/gpu/gpu.py --backend cpu --max-replicas 1024 --out "$OUT"
  step diffserv python3 benchmarks/cpu/diffserv.py --backend cuda --replicas 4096 --out "$OUT"
  step diffserv_cpu python3 benchmarks/cpu/diffserv.py --backend cpu --replicas 256 --out "$OUT"
  step traffic python3 benchmarks/cpu/traffic.py --backend cuda --replicas 64 --out "$OUT"
  step habib python3 benchmarks/cpu/habib.py --backend cuda --replicas 512 --out "$OUT"
  step habib_cpu python3 benchmarks/cpu/habib.py --backend cpu --replicas 16 --out "$OUT"
  # the host's share of a full reproduction (building and packing 10,560 replicas)
  step host python3 benchmarks/host/host.py --out "$OUT"
  grep -E "flows  R=" "$OUT/throughput.log" "$OUT/throughput_cpu.log" | tee -a "$OUT/gpu-summary.txt"
fi
if want session; then
  # the device's numbers first: a step cut by its timeout keeps the lines printed before
  step session_tests python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py
  tail -1 "$OUT/session_tests.log" | sed 's/^/session tests: /' | tee -a "$OUT/gpu-summary.txt"
  STEP_TIMEOUT=${SESSION_FULL_TIMEOUT:-330} step session_full python3 benchmarks/gpu/auto_backend.py \
    --papers kaur_vin --full --backends cuda,cuda+cpu,cpu --out "$OUT/full"
  step session_quick python3 benchmarks/gpu/auto_backend.py --backends cuda,cuda+cpu,cpu --out "$OUT"
  grep -hE "measured|fastest:|MISMATCH|model:" "$OUT/session_full.log" "$OUT/session_quick.log" \
    | sed 's/^/session: /' | tee -a "$OUT/gpu-summary.txt"
fi
if want wavefront; then
  # issue 51: the wavefront schedule's stage kernels (cuda/kernel_wave.cuh): CPU = CUDA on the
  # schedule matrix's wavefront entries, then throughput beside the persistent kernel at 32k
  # and 131k replicas of the 1- and 64-flow shapes, with and without the slot phases
  # (wave_phases: block, kernels) (~5-6 minutes; the prediction written
  # before any device run: benchmarks/gpu/gpu.md, "Wavefront")
  step wave_tests python3 -m pytest -q -p no:cacheprovider tests/test_schedule.py -k "wavefront or cuda"
  tail -1 "$OUT/wave_tests.log" | sed 's/^/wavefront tests: /' | tee -a "$OUT/gpu-summary.txt"
  # (the persistent kernel, the stage kernels, and the stage kernels with the slot phases in
  # one kernel and as a kernel each)
  for w in "" "--wavefront" "--wavefront --phases" "--wavefront --phases kernels"; do
    tag=${w:+_on}; [[ $w == *phases* ]] && tag=_phases; [[ $w == *kernels ]] && tag=_kernels
    step "wave_throughput$tag" python3 benchmarks/gpu/gpu.py --backend cuda $w --flows 1,64 \
      --sizes 32768,131072 --max-replicas 131072 --out "$OUT"
    grep -E "flows +R=" "$OUT/wave_throughput$tag.log" | sed "s/^/wavefront${tag}: /" \
      | tee -a "$OUT/gpu-summary.txt"
  done
  # the same shapes on this machine's cores, for targets.py's ratios (they are full by 1,024)
  step wave_throughput_cpu python3 benchmarks/gpu/gpu.py --backend cpu --flows 1,64 \
    --sizes 256,1024,4096 --max-replicas 4096 --out "$OUT"
  grep -E "flows +R=" "$OUT/wave_throughput_cpu.log" | sed "s/^/wavefront cores: /" \
    | tee -a "$OUT/gpu-summary.txt"
fi
if want seeds100; then
  # issue 51: `reproduce kaur-vin --seeds 100` (~110k replicas), its family engine call on the
  # device and on the cores (the cores' ~8-10 minutes: a call of its own, STEPS="seeds100",
  # STEP_TIMEOUT=600; not in the default steps)
  for b in cuda cpu; do
    step "reproduce_seeds100_$b" diffsweep reproduce kaur-vin --seeds 100 --backend "$b" \
      --out "/tmp/kv-seeds100-$b"
  done
  grep -h "^\[family\]" "$OUT"/reproduce_seeds100_*.log | sed 's/^/seeds 100: /' \
    | tee -a "$OUT/gpu-summary.txt"
fi
if want spread; then
  # issue 21: replicas per warp (the engine's choice, then 1..32) against the quick Kaur & Vin
  # family's one engine call, and the same call on the CPU cores; tables bit-identical
  # (the flow teams too: default_lanes gives this family one lane per replica, since it fits
  # one replica per resident warp: 5.94 s against 6.85 s with teams on an H100, 2026-11-26)
  # (SPREAD_PER_WARP=auto for a short call: the engine's choice only)
  step spread python3 benchmarks/gpu/spread.py --quick --cpu --lanes default,teams \
    --per-warp "${SPREAD_PER_WARP:-auto,1,2,4,8,32}" --out "$OUT"
  # the same family on the full kernel (the slim one is the default for Kaur & Vin's replicas)
  step spread_full_kernel env DIFFSWEEP_CUDA_KERNEL=full python3 benchmarks/gpu/spread.py --quick \
    --per-warp auto,8 --out "$OUT/full-kernel"
  # small teams: the quick family's time is its 64-flow replicas' chain (one a warp); 16-lane
  # teams lengthened it (6.85 against 5.94 s, H100): 2, 4 and 8 lanes for every shape, untried
  step spread_lanes python3 benchmarks/gpu/spread.py --quick --lanes 2,4,8 --per-warp auto \
    --out "$OUT/lanes"
  grep -hE "per warp" "$OUT/spread.log" "$OUT/spread_full_kernel.log" "$OUT/spread_lanes.log" \
    | tee -a "$OUT/gpu-summary.txt"
fi
if want warp; then
  # issue 21: a warp's replicas sharing each round (run option warp_rounds, on by default on
  # cuda since the H100 measured it, 2026-11-26: the full family's engine call 82.6 -> 56.8 s):
  # the quick family's engine call off and on at 8 and 32 per warp; WARP_FULL=1 adds the full
  # family at the engine's choice with its teams (3,618 tasks for an H100's 3,168 resident
  # warps: a second wave) and with one lane each (4 per warp, 2,641 tasks: one wave; never
  # timed yet), ~2 x 60 s
  step spread_warp python3 benchmarks/gpu/spread.py --quick --per-warp 8,32 --warp-rounds off,on \
    --out "$OUT/warp"
  if [ "${WARP_FULL:-0}" = 1 ]; then
    step spread_warp_full python3 benchmarks/gpu/spread.py --per-warp auto --lanes default,1 \
      --out "$OUT/warp"
  fi
  grep -h "per warp" "$OUT/spread_warp.log" "$OUT/spread_warp_full.log" 2>/dev/null \
    | sed "s/^/warp rounds step: /" | tee -a "$OUT/gpu-summary.txt"
fi
if want occupancy; then
  # the kernels built for 6 and 8 blocks of 128 per SM (full: 80 / 64 registers, some
  # spilled; the slim one is built for max(6, N)) against the default 5 (full 96): the quick
  # Kaur & Vin family's engine call on each kernel and 16,384 64-flow replicas (slim); then
  # the default build again
  for mb in 5 6 8; do
    step "build_mb$mb" python3 -m pip install --no-build-isolation --no-deps $arch \
      -Ccmake.define.DIFFSWEEP_CUDA_MIN_BLOCKS=$mb . || continue
    step "spread_mb$mb" python3 benchmarks/gpu/spread.py --quick --per-warp auto --out "$OUT/mb$mb"
    step "spread_full_mb$mb" env DIFFSWEEP_CUDA_KERNEL=full python3 benchmarks/gpu/spread.py --quick \
      --per-warp auto --out "$OUT/mb$mb-full"
    step "throughput_mb$mb" python3 benchmarks/gpu/gpu.py --flows 64 --sizes 4096,16384 --min-replicas 1 \
      --duration-s 1 --out "$OUT/mb$mb"
    grep -h "per warp\|flows  R=" "$OUT/spread_mb$mb.log" "$OUT/spread_full_mb$mb.log" \
      "$OUT/throughput_mb$mb.log" | sed "s/^/min blocks $mb: /" | tee -a "$OUT/gpu-summary.txt"
  done
  python3 -m pip install --no-build-isolation --no-deps $arch . > "$OUT/build_default.log" 2>&1
fi
if want reproduce; then
  for b in cuda cpu; do
    rm -rf "/tmp/kv-quick-$b" "/tmp/kv-full-$b"
    step "reproduce_quick_$b" diffsweep reproduce kaur-vin --quick --backend "$b" --out "/tmp/kv-quick-$b"
    step "reproduce_full_$b" diffsweep reproduce kaur-vin --backend "$b" --out "/tmp/kv-full-$b"
  done
  cmp /tmp/kv-full-cuda/verdicts.json /tmp/kv-full-cpu/verdicts.json && log "full verdicts.json: cuda == cpu"
  # both at once (diffsweep.engine.hybrid; the model predicts ~34 s of engine time on an H100 and 16
  # threads against 57 on cuda alone), and what auto chooses for the full family
  rm -rf /tmp/kv-full-both
  step reproduce_full_both diffsweep reproduce kaur-vin --backend cuda+cpu --out /tmp/kv-full-both
  cmp /tmp/kv-full-both/verdicts.json /tmp/kv-full-cpu/verdicts.json && log "full verdicts.json: cuda+cpu == cpu"
  grep -hE "engine call|replicas in" /tmp/kv-*/*.log "$OUT"/reproduce_*.log 2>/dev/null | tee -a "$OUT/gpu-summary.txt"
fi
if want papers; then
  for paper in lee-jeong rossi habib matta-guo; do
    for b in cuda cpu; do
      rm -rf "/tmp/$paper-quick-$b"
      step "reproduce_${paper}_quick_$b" diffsweep reproduce "$paper" --quick --backend "$b" --out "/tmp/$paper-quick-$b"
    done
    cmp "/tmp/$paper-quick-cuda/verdicts.json" "/tmp/$paper-quick-cpu/verdicts.json" && log "$paper quick verdicts.json: cuda == cpu"
  done
fi
if want auto; then
  step auto python3 benchmarks/gpu/auto_backend.py --out "$OUT"
  grep -E "fastest:|measured" "$OUT/auto.log" | sed 's/^/auto: /' | tee -a "$OUT/gpu-summary.txt"
fi
if want atlas; then
  # issue 25: the quick Kaur & Vin C4 atlas (12 cells, 2,304 replicas in the first round) on
  # both backends: the same statuses, verdicts and seeds per cell (the full one, 17,280
  # replicas of 100 s, needs a call of its own: docs/atlas/README.md)
  for b in cuda cpu; do
    rm -rf "/tmp/atlas-c4-$b"
    step "atlas_c4_quick_$b" diffsweep atlas kaur-vin C4 --axes send_jitter_s=0,1e-5,1e-4,1e-3 \
      buffer_bytes=100000,200000,400000 --max-seeds 8 --quick --backend "$b" --out "/tmp/atlas-c4-$b"
  done
  cmp "/tmp/atlas-c4-cuda/verdicts.csv" "/tmp/atlas-c4-cpu/verdicts.csv" && log "atlas C4 quick verdicts.csv: cuda == cpu"
  grep -h "^\[atlas\]" "$OUT"/atlas_*.log | tee -a "$OUT/gpu-summary.txt"
fi
if want ncu && command -v ncu > /dev/null; then
  step ncu ncu --kernel-name regex:run_family --launch-skip 1 --launch-count 1 --section SpeedOfLight \
    --section Occupancy --section LaunchStats --section WarpStateStats --section SourceCounters \
    python3 benchmarks/gpu/gpu.py --backend cuda --flows 64 --min-replicas 32768 --max-replicas 32768 \
    --duration-s 0.5 --out /tmp/ncu-out
  grep -E "Registers Per|Achieved Occupancy|Theoretical Occupancy|Local Memory|Stall|Duration|Block Limit" \
    "$OUT/ncu.log" | head -40 | tee -a "$OUT/gpu-summary.txt"
elif want ncu; then
  log "ncu not found: no Nsight Compute summary"
fi
if want icache && command -v ncu > /dev/null; then
  # issue 21: what benchmarks/gpu/hot_sass.py estimates without a GPU, measured: SASS instructions
  # a lone replica executes per slot in steady state (1,056 Kaur & Vin replicas of 1 and of 64
  # flows, hot_sass.py's own: T_on 10 ms, warm-up 1 s; one lane, one per warp; runs of 2 and
  # 7 s, the launch past the warm-up call, and the difference over the difference in
  # replica-slots, as hot_sass.py takes its counts, so start-up cancels), and the share of its
  # cycles spent waiting for an instruction (WarpStateStats' rule text, the 7-s run)
  for n in 1 64; do
    for d in 2 7; do
      step "icache_${n}_$d" ncu --kernel-name regex:run_family --launch-skip 1 --launch-count 1 \
        --section WarpStateStats --section SpeedOfLight --metrics smsp__inst_executed.sum \
        python3 benchmarks/gpu/gpu.py --backend cuda --case slot --flows $n --sizes 1056 \
        --min-replicas 1 --lanes 1 --per-warp 1 --duration-s $d --out "$OUT/icache${n}_$d"
    done
    python3 - "$OUT" "$n" <<'PY' | tee -a "$OUT/gpu-summary.txt"
import json, re, sys
out, n = sys.argv[1], sys.argv[2]
def run(d):
    log = open(f"{out}/icache_{n}_{d}.log").read()
    m = re.search(r"smsp__inst_executed\.sum\s+\S+\s+([\d,.]+)", log)
    rows = json.load(open(f"{out}/icache{n}_{d}/gpu-throughput-cuda.json"))["rows"]
    return (float(m.group(1).replace(",", "")) if m else float("nan")), rows[-1]["replica_slots"], log
(i2, s2, _), (i7, s7, log) = run(2), run(7)
cpi = re.search(r"Warp Cycles Per Issued Instruction\s+\S+\s+([\d.]+)", log)
fetch = re.search(r"([\d.]+)% of the total average of ([\d.]+) cycles", log)
print(f"icache {n} flows: {(i7 - i2) / (s7 - s2):.0f} warp instructions per replica-slot in "
      f"steady state (one replica a warp; the 7-s run alone {i7 / s7:.0f}), "
      f"{cpi.group(1) if cpi else '?'} cycles per issued instruction, "
      f"{fetch.group(1) + '% of them waiting for an instruction' if fetch else 'fetch stall share not printed'}")
PY
  done
  if command -v gcov > /dev/null && command -v nvcc > /dev/null; then  # the estimate, beside it
    step hot_sass python3 benchmarks/gpu/hot_sass.py --arch "sm_${cc:-90}" --out "$OUT"
    grep -E "flows: ~" "$OUT/hot_sass.log" | sed 's/^/hot_sass estimate: /' | tee -a "$OUT/gpu-summary.txt"
  fi
elif want icache; then
  log "ncu not found: no instruction counts"
fi
if want split; then
  # the full Kaur & Vin family's engine call (its paper replicas without a rare model, families
  # Kr, Kt and Ks with one) in one launch on the full kernel (the default), split by kernel one
  # launch after the other, and split on two streams at once (DIFFSWEEP_CUDA_SPLIT,
  # backend_cuda.cu); the tables' digests must agree; ~3 x SPLIT_TIMEOUT at most
  for v in 0 1 streams; do
    STEP_TIMEOUT=${SPLIT_TIMEOUT:-150} step "split_$v" env DIFFSWEEP_CUDA_SPLIT=$v \
      python3 benchmarks/gpu/spread.py --per-warp auto --out "$OUT/split-$v"
  done
  grep -h "per warp" "$OUT"/split_*.log | sed 's/^/split: /' | tee -a "$OUT/gpu-summary.txt"
  n=$(grep -h "per warp" "$OUT"/split_*.log | grep -oE "[0-9a-f]{16} same" | sort -u | wc -l)
  [ "$n" = 1 ] && log "split: the three calls' tables agree" || log "split: TABLES DIFFER or a call was cut ($n digests)"
fi
if want phases; then
  # issue 43 (decided 2026-11-29 from the recorded runs: a phase-major slot not built,
  # benchmarks/gpu/phase_decision.py): the full family's engine call at the engine's choice and at
  # 32 replicas a warp with one lane each (a cut run counts as at least its wall time), then
  # the decision again from this call's numbers (with steps ncu / icache in the same call,
  # their fetch shares too); ~2 x PHASES_TIMEOUT at most
  STEP_TIMEOUT=${PHASES_TIMEOUT:-150} step phases_auto python3 benchmarks/gpu/spread.py --per-warp auto \
    --out "$OUT/phases"
  STEP_TIMEOUT=${PHASES_TIMEOUT:-150} step phases_32 python3 benchmarks/gpu/spread.py --per-warp 32 \
    --lanes 1 --out "$OUT/phases"
  python3 benchmarks/gpu/phase_decision.py --call "$OUT" --out "$OUT/phases" 2>&1 \
    | sed 's/^/phases: /' | tee -a "$OUT/gpu-summary.txt"
fi
# issue 21's targets against what this call measured (and earlier calls into the same $OUT;
# `python3 benchmarks/gpu/targets.py OUT1 OUT2 ...` puts several calls' folders together)
python3 benchmarks/gpu/targets.py "$OUT" 2>&1 | grep -E "^target|^issue" | tee -a "$OUT/gpu-summary.txt"
log "done"
