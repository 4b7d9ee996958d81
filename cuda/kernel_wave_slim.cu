// The wavefront schedule's stage kernels, slim build (kernel_wave.cuh; kernel_slim.cu's flags).
#define DS_CUDA_SLIM 1
#define DS_WAVE_KERNEL wave_kernel_slim
#define DS_WAVE_KERNEL_NAME "slim"
#include "kernel_wave.cuh"
