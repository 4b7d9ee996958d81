// Host/device qualifiers, so the same header-only code compiles under g++
// (plain inline functions) and nvcc (callable from host and kernels).
#pragma once

#if defined(__CUDACC__)
#define DS_HD __host__ __device__
#define DS_INLINE __forceinline__
#else
#define DS_HD
#define DS_INLINE inline
#endif
