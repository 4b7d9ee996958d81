#!/bin/bash
# Build the project's CUDA engine for GPGPU-Sim: nvcc 11.8 (setup.sh's, under $W), PTX for
# compute_86 only, no -lineinfo (GPGPU-Sim's parser drops the rest of a kernel at
# `.loc ... inlined_at`), linked to the shared CUDA runtime (GPGPU-Sim's libcudart.so takes its
# place at run time: run_engine.sh). One kernel per module: the simulator loads every PTX of a
# binary into one symbol table and both kernel builds define ds::(anon)::run_family and c_views,
# so KERNEL=slim builds kernel_slim.cu with "full" answering with the slim kernel, KERNEL=full
# the other way round (kernel_one.cu); the driver checks that the job runs on the kernel built.
# WAVE=1: the wavefront schedule's stage kernels instead (kernel_wave_KERNEL.cu, into
# $W/proj-KERNEL-wave): the persistent kernel is left out of the module (its c_views would
# share the stage kernels' name in the simulator's table), and a stub unit answers for it
# (views accepted, one block per SM, a launch an error): only run_packed(wavefront=True) runs.
#
# usage: build_engine.sh slim|full [CHECKOUT]   (CHECKOUT: default this checkout)
#   -> $W/proj-KERNEL: a copy of CHECKOUT's python/ (with its CPU module, the reference: build
#      it first, docs: benchmarks/gpusim/README.md), benchmarks/cpu/, the CUDA module, and
#      lineinfo.ptx (the kernel unit's PTX with line info: line_profile.py).
set -euo pipefail
KERNEL=${1:?slim or full}; HERE=$(cd "$(dirname "$0")" && pwd)
P=$(cd "${2:-$HERE/../..}" && pwd); W=${W:-$HOME/gpusim}
C=${CUDA_INSTALL_PATH:-$W/cuda-11.8}; PY=${PY:-/work/main/.venv/bin/python}
case $KERNEL in slim) OTHER=full ;; full) OTHER=slim ;; *) echo "KERNEL is '$KERNEL': one of slim, full" >&2; exit 2 ;; esac
ls $P/python/diffsweep/_engine_cpu*.so >/dev/null || { echo "no CPU module in $P/python/diffsweep: build it first" >&2; exit 2; }
D=$W/proj-$KERNEL${WAVE:+-wave}; B=$D/build; rm -rf $D; mkdir -p $B $D/benchmarks
cp -r $P/python $D/python; cp -r $P/benchmarks/cpu $D/benchmarks/cpu
find $D/python -name _engine_cuda*.so -delete
EXT=$($PY -c "import sysconfig;print(sysconfig.get_config_var('EXT_SUFFIX'))")
DEFS="-DDS_BACKEND_CUDA -DDS_CUDA_MIN_BLOCKS=${MIN_BLOCKS:-5}"
NVCC="$C/bin/nvcc -ccbin g++-11 -std=c++17 -O3 -gencode arch=compute_86,code=compute_86 -fmad=false --expt-relaxed-constexpr $DEFS -I$P/cuda ${NVCC_EXTRA:-} -Xcompiler -fPIC,-ffp-contract=off,-fno-fast-math"
if [ -n "${WAVE:-}" ]; then
  cat > $B/kernel_one.cu <<EOF
#include "kernel.h"
namespace ds { namespace {
cudaError_t views(const BatchView*, int) { return cudaSuccess; }
cudaError_t per_sm(int* b, int, unsigned) { *b = 1; return cudaSuccess; }
cudaError_t smem(unsigned) { return cudaSuccess; }
cudaError_t no_launch(unsigned, int, unsigned, cudaStream_t, const FamilyTask*, int,
                      const int32_t*, const int64_t*, unsigned char*, unsigned long long*,
                      const volatile int64_t*, unsigned) { return cudaErrorNotSupported; }
FamilyKernel none(const char* n) { return FamilyKernel{n, views, per_sm, smem, no_launch}; }
}
FamilyKernel family_kernel_full() { return none("full"); }
FamilyKernel family_kernel_classic() { return none("classic"); }
FamilyKernel family_kernel_slim() { return none("slim"); }
WaveKernel wave_kernel_$OTHER() { return wave_kernel_$KERNEL(); }
WaveKernel wave_kernel_classic() { return wave_kernel_$KERNEL(); }
}
EOF
  UNIT=$P/cuda/kernel_wave_$KERNEL.cu
else  # the persistent kernel; the stage kernels' entries an error
  cat > $B/kernel_one.cu <<EOF
#include "kernel.h"
namespace ds { namespace {
cudaError_t views(const BatchView*, int) { return cudaSuccess; }
cudaError_t no_run(cudaStream_t, const WaveRep*, int, unsigned char*, unsigned long long*,
                   const volatile int64_t*, int, void (*)(void*), void*) { return cudaErrorNotSupported; }
WaveKernel none(const char* n) { return WaveKernel{n, views, no_run}; }
}
FamilyKernel family_kernel_$OTHER() { return family_kernel_$KERNEL(); }
FamilyKernel family_kernel_classic() { return family_kernel_$KERNEL(); }
WaveKernel wave_kernel_full() { return none("full"); }
WaveKernel wave_kernel_classic() { return none("classic"); }
WaveKernel wave_kernel_slim() { return none("slim"); }
}
EOF
  UNIT=$P/cuda/kernel_$KERNEL.cu
fi
pids=()
$NVCC -c $UNIT -o $B/kernel.o & pids+=($!)
$NVCC -c $P/cuda/backend_cuda.cu -o $B/backend_cuda.o & pids+=($!)
$NVCC -c $B/kernel_one.cu -o $B/kernel_one.o & pids+=($!)
g++-11 -std=c++17 -O2 -fPIC -ffp-contract=off -fno-fast-math $DEFS -I$P/cuda -isystem $C/include \
    $($PY -m pybind11 --includes) -c $P/bindings/module.cpp -o $B/module.o
# the same unit's PTX with -lineinfo (the same instructions, .loc lines added), for
# line_profile.py to name the source lines of the simulator's per-PTX-line counts
$NVCC -ptx -lineinfo $UNIT -o $D/lineinfo.ptx & pids+=($!)
for p in "${pids[@]}"; do wait $p; done   # (a failed compile stops the build)
g++-11 -shared -o $D/python/diffsweep/_engine_cuda$EXT $B/module.o $B/backend_cuda.o $B/kernel.o \
    $B/kernel_one.o -L$C/lib64 -lcudart
echo "$KERNEL" > $D/KERNEL
echo "built $D/python/diffsweep/_engine_cuda$EXT ($KERNEL kernel)"
