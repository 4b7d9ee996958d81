#!/usr/bin/env bash
# device call 1 (2026-11-26 session): default build CPU=CUDA, slim kernel spread, shared rounds
set -u
O=$OUT; T0=$(date +%s)
el() { echo "== +$(( $(date +%s) - T0 )) s $*" | tee -a $O/summary.txt; }
el "$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader); $(nproc) threads; $(git log --oneline -1 2>/dev/null)"
arch=-Ccmake.define.DIFFSWEEP_CUDA_ARCHITECTURES=90-real
python3 -m pip install --no-build-isolation --no-deps $arch . > $O/build.log 2>&1; el "build rc=$?"
python3 -c "import diffsweep as ds, json; print(json.dumps(ds.info()))" >> $O/summary.txt
timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py tests/test_schedule.py -k "cuda or test_gpu" > $O/tests.log 2>&1; el "tests rc=$?"; tail -2 $O/tests.log >> $O/summary.txt
timeout 90 python3 benchmarks/spread.py --quick --cpu --per-warp auto,8 --out $O/spread > $O/spread.log 2>&1; el "spread rc=$?"; grep "per warp" $O/spread.log >> $O/summary.txt
python3 -m pip install --no-build-isolation --no-deps $arch -Ccmake.define.DIFFSWEEP_CUDA_WARP_ROUNDS=ON . > $O/build_warp.log 2>&1; el "build_warp rc=$?"
timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_schedule.py -k cuda > $O/tests_warp.log 2>&1; el "tests_warp rc=$?"; tail -2 $O/tests_warp.log >> $O/summary.txt
timeout 130 python3 benchmarks/spread.py --quick --per-warp 8,32 --warp-rounds off,on --out $O/warp > $O/spread_warp.log 2>&1; el "spread_warp rc=$?"; grep "per warp" $O/spread_warp.log >> $O/summary.txt
left=$(( 540 - ($(date +%s) - T0) ))
[ $left -gt 60 ] && { timeout $left python3 benchmarks/spread.py --per-warp auto --warp-rounds on,off --out $O/warp > $O/spread_warp_full.log 2>&1; el "spread_warp_full rc=$? (limit $left s)"; grep "per warp" $O/spread_warp_full.log >> $O/summary.txt; }
el done
