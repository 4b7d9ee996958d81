#!/bin/bash
# run_wtests.sh [NAME...]: build wtest/NAME.cu (default: every one) with nvcc 11.8 as the engine
# is built (-fmad=false, compute_86 PTX, the engine's headers) and run each under GPGPU-Sim in
# functional mode (FUNC=0: the timing model), in $W/wtest/NAME; prints each program's output.
# Exit status: the number of programs that failed (a mismatch, or a crash).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd); W=${W:-$HOME/gpusim}; C=$W/cuda-11.8
cfg=${CFG:-$HERE/configs/SM86_RTX3070_shfl}
names=("$@"); [ ${#names[@]} -gt 0 ] || names=($(cd $HERE/wtest && ls *.cu | sed 's/\.cu$//'))
export CUDA_INSTALL_PATH=$C
set +u; source $W/gpgpu-sim/setup_environment >/dev/null; set -u
export LD_LIBRARY_PATH=$(ls -d $W/gpgpu-sim/lib/*/cuda-11080/release)
[ "${FUNC:-1}" = 1 ] && export PTX_SIM_MODE_FUNC=1
failed=0
for n in "${names[@]}"; do
  d=$W/wtest/$n; rm -rf $d; mkdir -p $d; cp $cfg/*.config $cfg/*.icnt $d/
  if ! $C/bin/nvcc -ccbin g++-11 -std=c++17 -O3 -fmad=false -gencode arch=compute_86,code=compute_86 \
      --cudart shared --expt-relaxed-constexpr -I$HERE/../../cuda ${NVCC_EXTRA:-} \
      -Xcompiler -ffp-contract=off,-fno-fast-math -o $d/$n $HERE/wtest/$n.cu > $d/build.log 2>&1; then
    echo "== $n: build failed ($d/build.log)"; failed=$((failed + 1)); continue
  fi
  (cd $d && ./$n > sim.log 2>&1); rc=$?
  echo "== $n (rc=$rc)"; grep -E "MISMATCH|mismatch|differ|bad|words=|checked|^thread [0-9]+:|Aborted|ERROR" $d/sim.log | tail -15
  [ $rc = 0 ] || failed=$((failed + 1))
done
exit $failed
