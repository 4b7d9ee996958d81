#!/usr/bin/env bash
# device call 2 (2026-11-26 session, main at e2233ab): shared rounds by default, CPU=CUDA, per warp
set -u
O=$OUT/r; mkdir -p $O; T0=$(date +%s)
el() { echo "== +$(( $(date +%s) - T0 )) s $*" | tee -a $O/summary.txt; }
fin() { tar czf $OUT/call2.tgz -C $OUT r; }
el "$(nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader); $(nproc) threads"
python3 -m pip install --no-build-isolation --no-deps -Ccmake.define.DIFFSWEEP_CUDA_ARCHITECTURES=90-real . > $O/build.log 2>&1; el "build rc=$?"
python3 -c "import diffsweep as ds, json; print(json.dumps(ds.info()))" >> $O/summary.txt
timeout 85 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py tests/test_schedule.py -k "cuda or test_gpu" > $O/tests.log 2>&1; el "tests rc=$?"; tail -1 $O/tests.log >> $O/summary.txt; fin
timeout 55 python3 benchmarks/spread.py --quick --per-warp auto,4 --lanes default,1 --out $O/q > $O/quick.log 2>&1; el "quick rc=$?"; grep "per warp" $O/quick.log >> $O/summary.txt; fin
timeout 75 python3 benchmarks/spread.py --per-warp 32 --lanes 1 --out $O/f32 > $O/full32.log 2>&1; el "full32 rc=$?"; grep "per warp" $O/full32.log >> $O/summary.txt; fin
timeout 80 python3 benchmarks/spread.py --per-warp 8 --lanes 1 --out $O/f8 > $O/full8.log 2>&1; el "full8 rc=$?"; grep "per warp" $O/full8.log >> $O/summary.txt; fin
left=$(( 300 - ($(date +%s) - T0) ))
[ $left -gt 30 ] && { timeout $left python3 benchmarks/spread.py --per-warp auto --out $O/fa > $O/fullauto.log 2>&1; el "fullauto rc=$? (limit $left)"; grep "per warp" $O/fullauto.log >> $O/summary.txt; }
fin; el done; cat $O/summary.txt
