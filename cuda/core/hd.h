// Host/device qualifiers, so the same header-only code compiles under g++
// (plain inline functions) and nvcc (callable from host and kernels).
#pragma once

#if defined(__CUDACC__)
#define DS_HD __host__ __device__
#define DS_INLINE __forceinline__
#define DS_FLATTEN __forceinline__
// On the device nothing is a call: a replica's view is passed by value in registers, and a
// call made the kernel keep its live values in the ABI's callee-saved registers and spill the
// rest (ptxas -v, benchmarks/gpu/gpu.md: serve_link as a call 96 registers + 200 bytes of spills,
// every rare step as a call 128 + 712; all inlined 128 registers, no spills). On the host the
// rare steps stay calls (below), so that the hot functions they sit in stay small.
#define DS_COLD __forceinline__
#define DS_RARE __forceinline__
// TCP SACK's steps (model/tcp_sack.h) stay calls in the full kernel: inlined, their code
// pushed the full kernel past its 96 registers (ptxas: 48-104 bytes of stack, 50-82 bytes of
// spill stores in the hot loop); Reno and NewReno replicas never make these calls.
#define DS_SACK_CALL __noinline__
#define DS_DEVICE_CALL __forceinline__
#define DS_HOST_CALL inline
#define DS_HOST_INLINE inline
#else
#define DS_DEVICE_CALL inline
#define DS_HD
#define DS_INLINE inline
#define DS_COLD inline
#define DS_RARE __attribute__((noinline))
#define DS_SACK_CALL __attribute__((noinline))
// Hot per-packet helpers that take a callback: inlined into their caller on the host too
// (measured: a call per send cost ~8% of the 1-flow case's time).
#define DS_FLATTEN inline __attribute__((always_inline))
// A call on the host, where g++ would inline it (on the device nvcc decides): keeps the
// function it is called from small where a call costs little against its body.
#define DS_HOST_CALL __attribute__((noinline))
// Inlined on the host where g++ would make it a call (on the device nvcc decides): a
// per-ACK step called from several places (newack: once CUBIC made recv_ack a template of
// two, g++ made it a call, ~20 instructions an ACK in call overhead, callgrind).
#define DS_HOST_INLINE inline __attribute__((always_inline))
#endif

// DS_FEAT(flag): a replica's use of a rare model (ReplicaHdr's f_markers, f_aqm, f_traffic,
// f_app, f_colour, f_trace, f_flow_ext, f_tcp_tag, f_hooks) where the engine reads it. The
// slim CUDA kernel (kernel_slim.cu, DS_CUDA_SLIM) is built with every one false, for launches
// whose replicas use none (cuda/engine/features.h): its code is 16k instructions against the full
// kernel's 36k, and the H200 profile found 41% of a lone replica's cycles waiting to fetch
// instructions (benchmarks/gpu/gpu.md). Elsewhere the flag as it is.
// DS_HOST_SLIM builds the same on the host, for tests only (tests/test_slim.py: the slim code
// path against the plain CPU engine, bit for bit, without a GPU).
#if (defined(__CUDA_ARCH__) && defined(DS_CUDA_SLIM)) || defined(DS_HOST_SLIM)
#define DS_SLIM_BUILD 1
#define DS_FEAT(flag) false
#else
#define DS_SLIM_BUILD 0
#define DS_FEAT(flag) (flag)
#endif

// DS_FEAT_NEW(flag): a replica's use of a model that came after ns-2's (CUBIC, CoDel, PIE,
// FQ-CoDel, ECN and DCTCP: f_cubic, f_codel, f_pie, f_fqcodel, f_ecn and the links' copies).
// False in the slim kernel and in the classic one (kernel_classic.cu, DS_CUDA_CLASSIC), which
// runs the launches whose replicas use rare models of ns-2's alone (the five papers': markers,
// RED/RIO/WRED, traffic, SACK, ...): with these models inlined the full kernel's 96 registers
// spilled 118 / 712 bytes (ptxas sm_90, ECN merged), every ns-2-era replica paying for them.
// DS_HOST_CLASSIC builds the same on the host: the CPU module's classic build
// (backend_cpu_classic.cpp), which runs the families that use none of these models.
#if DS_SLIM_BUILD || (defined(__CUDA_ARCH__) && defined(DS_CUDA_CLASSIC)) || defined(DS_HOST_CLASSIC)
#define DS_CLASSIC_BUILD 1
#define DS_FEAT_NEW(flag) false
#else
#define DS_CLASSIC_BUILD 0
#define DS_FEAT_NEW(flag) (flag)
#endif

// How engine functions take a replica's view (Replica, a few words): by value on the device,
// where it then lives in registers (a reference would put it in local memory, where each
// field access waits for a load); by reference on the host, where a by-value view of more
// than 16 bytes is copied through the stack at every call that is not inlined (callgrind:
// 13 instructions more per serve_link call).
#if defined(__CUDACC__)
#define DS_REF
#else
#define DS_REF &
#endif

// A branch that a run takes only when something went wrong (an internal capacity exceeded:
// the host raises): the compiler lays its code out of the hot path, so that the lines of code
// a slot runs hold no error handling (hot_sass.py: instruction fetch is the GPU's main stall).
#define DS_UNLIKELY(c) __builtin_expect(!!(c), 0)

// benchmarks/gpu/coalesce.py builds the CPU engine with DS_TRACE_MEM to trace which state bytes a
// task's replicas touch at each point of their rounds (a model of a warp's memory requests);
// in every other build the marks are nothing.
// The parts of a round the marks name (issue 43: a slot as phases), in the order a slot runs
// them: the flow side once a round, then the queue side's phases once a slot. A mark's
// number is its trace phase; coalesce.py folds the queue side's back into one for the whole
// slot, and reports each phase on its own.
enum TracePhase : int {
  kTrFlow = 0,         // flow events of a round (engine/flow_side.h)
  kTrTimers = 1,       // a slot's start: delayed-ACK timers (engine/queue_side.h: queue_slot)
  kTrStage = 2,        // the lanes' due emissions staged
  kTrSources = 3,      // on-off, CBR and traffic sources
  kTrDelayLines = 4,   // multi-hop delay lines due
  kTrOrder = 5,        // same-slot arrivals ordered (tie-break)
  kTrArrive = 6,       // arrivals: markers, AQM, enqueue or drop
  kTrServe = 7,        // link service, departures, deliveries to receivers and their ACKs
  kTrRedAvg = 8,       // RED's averages integrated (AQM replicas only)
};
#ifdef DS_TRACE_MEM
#include <cstddef>
#include <cstdint>
extern "C" void ds_trace_at(const void* block, size_t stride, int phase, uint32_t t);
#define DS_TRACE_AT(x, phase, t) ds_trace_at((x).block(), (x).L().stride, (phase), (t))
#else
#define DS_TRACE_AT(x, phase, t) ((void)0)
#endif
