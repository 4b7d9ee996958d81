// Host/device qualifiers, so the same header-only code compiles under g++
// (plain inline functions) and nvcc (callable from host and kernels).
#pragma once

#if defined(__CUDACC__)
#define DS_HD __host__ __device__
#define DS_INLINE __forceinline__
#define DS_FLATTEN __forceinline__
// Rare, bulky steps (between rounds, a replica's start and end, conditioners): a call on the
// device, so that their registers do not weigh on the per-packet loop.
#define DS_COLD __noinline__
// Rare per-event work of optional features (telnet delays, TCP-aware tags, the cwnd trace):
// a call on both backends, so that the hot functions they sit in stay small enough to inline.
#define DS_RARE __noinline__
// Hot, but a call on the device: its registers are allocated apart from the kernel's, which
// otherwise crosses 128 registers and spills (ptxas -v; benchmarks/gpu.md). Inlined on the host.
#define DS_DEVICE_CALL __noinline__
#else
#define DS_DEVICE_CALL inline
#define DS_HD
#define DS_INLINE inline
#define DS_COLD inline
#define DS_RARE __attribute__((noinline))
// Hot per-packet helpers that take a callback: inlined into their caller on the host too
// (measured: a call per send cost ~8% of the 1-flow case's time).
#define DS_FLATTEN inline __attribute__((always_inline))
#endif
