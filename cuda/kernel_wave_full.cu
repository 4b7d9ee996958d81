// The wavefront schedule's stage kernels, full build (kernel_wave.cuh; kernel_full.cu's flags).
#define DS_WAVE_KERNEL wave_kernel_full
#define DS_WAVE_KERNEL_NAME "full"
#include "kernel_wave.cuh"
