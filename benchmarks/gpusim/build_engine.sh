#!/bin/bash
# Build the project's CUDA engine for GPGPU-Sim: nvcc 11.8 (setup.sh's, under $W), PTX for
# compute_86 only, no -lineinfo (GPGPU-Sim's parser drops the rest of a kernel at
# `.loc ... inlined_at`), linked to the shared CUDA runtime (GPGPU-Sim's libcudart.so takes its
# place at run time: run_engine.sh). One kernel per module: the simulator loads every PTX of a
# binary into one symbol table and both kernel builds define ds::(anon)::run_family and c_views,
# so KERNEL=slim builds kernel_slim.cu with "full" answering with the slim kernel, KERNEL=full
# the other way round (kernel_one.cu); the driver checks that the job runs on the kernel built.
#
# usage: build_engine.sh slim|full [CHECKOUT]   (CHECKOUT: default this checkout)
#   -> $W/proj-KERNEL: a copy of CHECKOUT's python/ (with its CPU module, the reference: build
#      it first, docs: benchmarks/gpusim/README.md), benchmarks/cpu/ and the CUDA module.
set -euo pipefail
KERNEL=${1:?slim or full}; HERE=$(cd "$(dirname "$0")" && pwd)
P=$(cd "${2:-$HERE/../..}" && pwd); W=${W:-$HOME/gpusim}
C=${CUDA_INSTALL_PATH:-$W/cuda-11.8}; PY=${PY:-/work/main/.venv/bin/python}
case $KERNEL in slim) OTHER=full ;; full) OTHER=slim ;; *) echo "KERNEL is '$KERNEL': one of slim, full" >&2; exit 2 ;; esac
ls $P/python/diffsweep/_engine_cpu*.so >/dev/null || { echo "no CPU module in $P/python/diffsweep: build it first" >&2; exit 2; }
D=$W/proj-$KERNEL; B=$D/build; rm -rf $D; mkdir -p $B $D/benchmarks
cp -r $P/python $D/python; cp -r $P/benchmarks/cpu $D/benchmarks/cpu
find $D/python -name _engine_cuda*.so -delete
EXT=$($PY -c "import sysconfig;print(sysconfig.get_config_var('EXT_SUFFIX'))")
DEFS="-DDS_BACKEND_CUDA -DDS_CUDA_MIN_BLOCKS=${MIN_BLOCKS:-5}"
NVCC="$C/bin/nvcc -ccbin g++-11 -std=c++17 -O3 -gencode arch=compute_86,code=compute_86 -fmad=false --expt-relaxed-constexpr $DEFS -I$P/cuda ${NVCC_EXTRA:-} -Xcompiler -fPIC,-ffp-contract=off,-fno-fast-math"
printf '#include "kernel.h"\nnamespace ds { FamilyKernel family_kernel_%s() { return family_kernel_%s(); } }\n' \
  $OTHER $KERNEL > $B/kernel_one.cu
pids=()
$NVCC -c $P/cuda/kernel_$KERNEL.cu -o $B/kernel.o & pids+=($!)
$NVCC -c $P/cuda/backend_cuda.cu -o $B/backend_cuda.o & pids+=($!)
$NVCC -c $B/kernel_one.cu -o $B/kernel_one.o & pids+=($!)
g++-11 -std=c++17 -O2 -fPIC -ffp-contract=off -fno-fast-math $DEFS -I$P/cuda -isystem $C/include \
    $($PY -m pybind11 --includes) -c $P/bindings/module.cpp -o $B/module.o
for p in "${pids[@]}"; do wait $p; done   # (a failed compile stops the build)
g++-11 -shared -o $D/python/diffsweep/_engine_cuda$EXT $B/module.o $B/backend_cuda.o $B/kernel.o \
    $B/kernel_one.o -L$C/lib64 -lcudart
echo "$KERNEL" > $D/KERNEL
echo "built $D/python/diffsweep/_engine_cuda$EXT ($KERNEL kernel)"
