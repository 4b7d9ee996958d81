#!/bin/bash
# GPGPU-Sim (Accel-Sim's gpgpu-sim_distribution, dev branch, PTX mode) on a Debian 12 machine
# with no GPU, built against CUDA 11.8 from Debian's non-free archive, unpacked under $W
# (nothing is installed system-wide except bison, flex, makedepend and gcc/g++-11).
# Times are from a 2-core machine (2026-12-01).
#
# usage: bash setup.sh /path/to/bare/gpgpu-sim_distribution.git
#   the source: any git repository (bare or not) of Accel-Sim's gpgpu-sim_distribution (or any clone
#   of https://github.com/accel-sim/gpgpu-sim_distribution); tested at dev 667834cf (2024-10-07).
set -euo pipefail
SRC=${1:?give the path of a gpgpu-sim_distribution git repository}
W=${W:-$HOME/gpusim}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p $W && cd $W
t() { echo "[$(date +%T)] $*"; }

# 1. Debian's contrib/non-free components (CUDA 11.8 is nvidia-cuda-toolkit 11.8.89 in
#    bookworm/non-free), as a separate sources file.                              (~5 s)
t "apt sources"
if ! grep -rqs "non-free" /etc/apt/sources.list /etc/apt/sources.list.d/; then
  cat > /etc/apt/sources.list.d/debian-nonfree.sources <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
fi
apt-get update -qq

# 2. Build tools (system-wide, harmless: gcc-11 is only /usr/bin/gcc-11).        (~40 s)
t "apt install build tools"
apt-get install -y -qq --no-install-recommends bison flex xutils-dev gcc-11 g++-11 zlib1g-dev \
  libglu1-mesa-dev >/dev/null

# 3. CUDA 11.8 unpacked, not installed (its packages would pull libcuda1 and GL diversions
#    and put nvcc 11.8 in /usr/bin).                          (download ~10 s, 867 MB; unpack ~70 s)
t "CUDA 11.8 debs"
if [ ! -x deb118/usr/lib/nvidia-cuda-toolkit/bin/nvcc ]; then   # (a rerun keeps them)
  mkdir -p debs deb118 && (cd debs && apt-get download -qq nvidia-cuda-toolkit nvidia-cuda-dev \
    libcudart11.0 libnvvm4 2>/dev/null)
  for f in debs/*.deb; do dpkg-deb -x "$f" deb118; done
fi
C=$W/cuda-11.8; D=$W/deb118; rm -rf $C; mkdir -p $C/bin $C/nvvm $C/lib64
for f in $D/usr/bin/*; do [ "$(basename $f)" = nvcc ] || ln -sf $f $C/bin/; done   # usr/bin/nvcc is a wrapper
for f in $D/usr/lib/nvidia-cuda-toolkit/bin/*; do
  case $(basename $f) in nvcc|nvcc.profile|g++|gcc) ;; *) ln -sfn $f $C/bin/ ;; esac
done
cp $D/usr/lib/nvidia-cuda-toolkit/bin/nvcc $C/bin/nvcc   # a copy: nvcc reads nvcc.profile beside itself
ln -sfn $D/usr/lib/nvidia-cuda-toolkit/libdevice $C/nvvm/libdevice
ln -sfn $D/usr/include $C/include
for f in $D/usr/lib/x86_64-linux-gnu/*; do ln -sfn $f $C/lib64/; done
cat > $C/bin/nvcc.profile <<'EOF'
TOP              = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib64:
PATH            += $(TOP)/bin:
INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64/stubs" "-L$(TOP)/lib64"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
EOF
$C/bin/nvcc --version | tail -2

# 4. GPGPU-Sim: clone, patch, build.                                        (~6 min on 2 cores)
#    gpgpu-sim-ptx-fixes.patch: redux.sync (sm_80, __reduce_*_sync) added; shfl.sync d|p
#    destination (nvcc >= 11) parsed as PTXPlus p|d, so d was never written; shfl lane id
#    wrong with inactive lanes; warp id unset for shfl in functional mode; cvt from 64-bit
#    integers read an uninitialised register; 4 int config flags registered as bool (3 bytes
#    uninitialised: PTXPlus mode or a GB-sized inst_debug.txt switched on at random).
t "GPGPU-Sim build"
rm -rf gpgpu-sim && git clone -q "$SRC" gpgpu-sim && cd gpgpu-sim && git checkout -q dev
git apply $HERE/patches/gpgpu-sim-ptx-fixes.patch
#    gpgpu-sim-int64-literals-bfi.patch: integer literals parsed into an int (atoi, %x), so every
#    64-bit immediate (Philox's multipliers in mul.lo.s64, 0x000fffffffffffff masks) was wrong;
#    bfi.b64 inserted into the low 32 bits only. The engine's wrong execution (README).
git apply $HERE/patches/gpgpu-sim-int64-literals-bfi.patch
#    gpgpu-sim-line-warp-count.patch: the per-PTX-line statistics (gpgpu_inst_stats.txt) count
#    threads only; a last column counts the warp instructions each line completed, so that
#    line_profile.py can give active lanes per source line (timing model only).
git apply $HERE/patches/gpgpu-sim-line-warp-count.patch
export CUDA_INSTALL_PATH=$C PATH=$C/bin:$PATH
set +u; source setup_environment >/dev/null; set -u   # it reads unset variables
make -j"$(nproc)" > $W/build.log 2>&1
ls lib/*/*/release/libcudart.so
cd $W

# 5. A config: the shipped SM86_RTX3070 with the 6th integer latency (shfl) it lacks (without
#    it shfl's latency is stack garbage and the timing model segfaults), plus progress lines.
t "config"
mkdir -p configs/SM86_RTX3070_shfl && cp gpgpu-sim/configs/tested-cfgs/SM86_RTX3070/* configs/SM86_RTX3070_shfl/
cat >> configs/SM86_RTX3070_shfl/gpgpusim.config <<'EOF'

# added: shfl latency/initiation (values of the shipped SM7_QV100 config)
-ptx_opcode_latency_int 4,4,4,4,21,21
-ptx_opcode_initiation_int 2,2,2,2,2,4
# progress (cycles, instructions, sim rate) every 10 s
-trace_enabled 1
-trace_components LIVENESS
-liveness_message_freq 10
EOF

# 6. Micro-benchmarks: divergent vs convergent, coalesced vs strided.       (~3.5 min)
#    An app must be built with this nvcc (11.8), g++-11, PTX for compute_86, and the shared
#    runtime; it is run from a folder holding gpgpusim.config, with setup_environment sourced.
t "micro-benchmarks"
mkdir -p $W/micro && cp $HERE/micro/*.cu $HERE/micro/*.sh $W/micro/
export LD_LIBRARY_PATH=$(ls -d $W/gpgpu-sim/lib/*/cuda-11080/release)   # its libcudart.so
cd $W/micro
$C/bin/nvcc -ccbin g++-11 -O3 -gencode arch=compute_86,code=compute_86 --cudart shared -o micro micro.cu
[ -n "${SKIP_MICRO:-}" ] || for m in conv div coal stride; do ./runsim.sh $W/configs/SM86_RTX3070_shfl runs/3070_$m -- ../../micro $m; done
[ -n "${SKIP_MICRO:-}" ] || ./stats.sh runs/3070_*/sim.log
t "done"

# 7. (optional) The project's CUDA engine under the simulator. PROJ: a checkout of the project.
#    A venv (~1 min), a copy of the checkout, its CPU module with g++ (~1 min, the reference),
#    its CUDA module with nvcc 11.8 (~25 s: slim kernel only, no -lineinfo: GPGPU-Sim cannot
#    parse `.loc ... inlined_at`), then a run: 32 one-lane Kaur & Vin replicas x 43 slots
#    (~1-1.5 min in the timing model, ~6 s with PTX_SIM_MODE_FUNC=1).
if [ -n "${PROJ:-}" ]; then
  t "project engine"
  [ -x $W/venv/bin/python ] || { python3 -m venv $W/venv && $W/venv/bin/pip install -q numpy pandas pyarrow matplotlib tqdm SALib pybind11; }
  rm -rf $W/proj && mkdir -p $W/proj && git -C "$PROJ" archive HEAD | tar -x -C $W/proj
  cd $W/proj
  EXT=$($W/venv/bin/python -c "import sysconfig;print(sysconfig.get_config_var('EXT_SUFFIX'))")
  CCCL=$(ls -d /usr/local/cuda/include/cccl 2>/dev/null || true)   # any Thrust headers do
  g++ -std=c++17 -O3 -fPIC -shared -fopenmp -ffp-contract=off -fno-fast-math \
    -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP -DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP \
    -Icuda -isystem $CCCL $($W/venv/bin/python -m pybind11 --includes) bindings/module.cpp \
    cuda/backend_cpu.cpp -o python/diffsweep/_engine_cpu$EXT
  $W/simbuild/build_engine_cuda.sh $W/proj
  for pw in 32 1; do
    $W/eng/run.sh kv32_pw$pw $W/configs/SM86_RTX3070_shfl --replicas 32 --duration-s 0.005 --per-warp $pw
    grep RESULT $W/eng/kv32_pw$pw/sim.log; $W/micro/stats.sh $W/eng/kv32_pw$pw/sim.log
  done
fi
