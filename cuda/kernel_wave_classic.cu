// The wavefront schedule's stage kernels, classic build (kernel_wave.cuh; kernel_classic.cu's flags).
#define DS_CUDA_CLASSIC 1
#define DS_WAVE_KERNEL wave_kernel_classic
#define DS_WAVE_KERNEL_NAME "classic"
#include "kernel_wave.cuh"
