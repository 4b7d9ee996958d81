// The slim CUDA kernel: every rare model compiled out (DS_FEAT false: no edge conditioners,
// AQM, traffic generators, applications, traced flows, TCP-aware tags or non-green packets),
// for launches whose replicas use none (engine/features.h). Same source as the full kernel
// (kernel.cuh); with those flags false both run the same operations on every replica.
#define DS_CUDA_SLIM 1
#define DS_FAMILY_KERNEL family_kernel_slim
#define DS_FAMILY_KERNEL_NAME "slim"
#include "kernel.cuh"
