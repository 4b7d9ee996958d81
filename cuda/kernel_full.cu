// The full CUDA kernel: every model (kernel.cuh).
#define DS_FAMILY_KERNEL family_kernel_full
#define DS_FAMILY_KERNEL_NAME "full"
#include "kernel.cuh"
