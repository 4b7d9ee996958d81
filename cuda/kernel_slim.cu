// The slim CUDA kernel: every rare model compiled out (DS_FEAT false: no edge conditioners,
// AQM, traffic generators, applications, traced flows, TCP-aware tags, non-green packets or
// validation hooks: a lossy link, injected drops),
// for launches whose replicas use none (engine/features.h). Same source as the full kernel
// (kernel.cuh); with those flags false both run the same operations on every replica.
#define DS_CUDA_SLIM 1
// At least 6 blocks of 128 per SM: 80 registers and still no spills (ptxas, sm_90; it
// chose 81 by itself, 5 blocks), a fifth more warps to hide latency with.
#define DS_KERNEL_MIN_BLOCKS (DS_CUDA_MIN_BLOCKS > 6 ? DS_CUDA_MIN_BLOCKS : 6)
#define DS_FAMILY_KERNEL family_kernel_slim
#define DS_FAMILY_KERNEL_NAME "slim"
#include "kernel.cuh"
