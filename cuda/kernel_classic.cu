// The classic CUDA kernel: every rare model of ns-2's era (markers, RED/RIO/WRED, traffic,
// SACK, ...) but none after it: DS_FEAT_NEW is false here (core/hd.h), so CUBIC, CoDel, PIE,
// FQ-CoDel, ECN and DCTCP take no registers of the five papers' replicas (engine/features.h:
// family_kernel_name sends a launch here when none of its replicas uses those).
#define DS_CUDA_CLASSIC 1
#define DS_FAMILY_KERNEL family_kernel_classic
#define DS_FAMILY_KERNEL_NAME "classic"
#include "kernel.cuh"
