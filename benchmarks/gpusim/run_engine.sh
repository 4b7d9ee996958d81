#!/bin/bash
# run_engine.sh NAME slim|full [sim_engine.py args...]: one engine run under GPGPU-Sim in
# $W/eng/NAME (the config copied there, the simulator's log in sim.log, then stats.sh's summary).
# FUNC=1: functional simulation only (PTX_SIM_MODE_FUNC=1: ~100x faster, no cycles or caches).
# CFG: the config folder (default configs/SM86_RTX3070_shfl). OPTS: names of option files in
# configs/opts (say OPTS="1sm il1_8k"), appended in turn to the run's copy of gpgpusim.config:
# GPGPU-Sim parses a config's options in order, a later value replacing an earlier one.
set -uo pipefail
name=${1:?NAME}; kernel=${2:?slim or full}; shift 2
HERE=$(cd "$(dirname "$0")" && pwd); W=${W:-$HOME/gpusim}; PY=${PY:-/work/main/.venv/bin/python}
D=$W/proj-$kernel${WAVE:+-wave}   # WAVE=1: the stage kernels' module (build_engine.sh)
[ -f $D/KERNEL ] || { echo "no $D: run ${WAVE:+WAVE=1 }build_engine.sh $kernel" >&2; exit 2; }
cfg=${CFG:-$HERE/configs/SM86_RTX3070_shfl}
d=$W/eng/$name; rm -rf $d; mkdir -p $d; cp $cfg/*.config $cfg/*.icnt $d/; cd $d
for o in ${OPTS:-}; do
  [ -f $HERE/configs/opts/$o ] || { echo "OPTS: no configs/opts/$o (one of: $(ls $HERE/configs/opts | tr '\n' ' '))" >&2; exit 2; }
  { echo; echo "# OPTS=$o (configs/opts/$o)"; cat $HERE/configs/opts/$o; } >> gpgpusim.config
done
export CUDA_INSTALL_PATH=$W/cuda-11.8
set +u; source $W/gpgpu-sim/setup_environment >/dev/null; set -u
export LD_LIBRARY_PATH=$(ls -d $W/gpgpu-sim/lib/*/cuda-11080/release)
export PYTORCH_BIN=$(ls $D/python/diffsweep/_engine_cuda*.so)   # where its cuobjdump finds the PTX
export PYTHONPATH=$D/python DS_PROJ=$D OMP_NUM_THREADS=1 DS_KERNEL=$kernel
[ "${FUNC:-0}" = 1 ] && export PTX_SIM_MODE_FUNC=1
s=$(date +%s.%N); $PY $HERE/sim_engine.py --kernel $kernel "$@" > sim.log 2>&1; rc=$?
echo "wall_s=$(echo "$(date +%s.%N) - $s" | bc)" >> sim.log; echo "rc=$rc" >> sim.log
grep -E "^(RESULT|DIFF)" sim.log; [ "${FUNC:-0}" = 1 ] || $HERE/micro/stats.sh sim.log
exit $rc
