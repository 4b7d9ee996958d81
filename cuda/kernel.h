// The CUDA engine's kernel as the host driver (backend_cuda.cu) sees it: two builds of one
// kernel source (kernel.cuh), the full one (kernel_full.cu) and the slim one (kernel_slim.cu,
// every rare model compiled out: DS_FEAT, engine/features.h), each with its own copy of the
// batches' views (c_views), reached through a FamilyKernel.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "engine/family.h"
#include "engine/replica.h"

namespace ds {

constexpr int kBlockThreads = 128;  // whole warps: a warp runs one task
// At least 5 blocks of 128 per SM: the full kernel in 96 registers, no stack frame, no spills
// (ptxas sm_90; left to 4 blocks ptxas takes 110 since the round loop shares rounds, and 4
// blocks fit). The H200's profile (benchmarks/gpu/gpu.md, 2026-11-26) found the kernel
// latency-bound at 2 warps per scheduler, registers limiting occupancy to 25%:
// DIFFSWEEP_CUDA_MIN_BLOCKS (CMake) builds 6 (full: 80 registers, 150 bytes of spill stores;
// slim 80, none) or 8 (full 64, 514 bytes; slim 64, 110 bytes) to measure against it (ptxas
// sm_90, nvcc 13.0, 2026-11-26, fourth session).
#ifndef DS_CUDA_MIN_BLOCKS
#define DS_CUDA_MIN_BLOCKS 5
#endif
constexpr int kMinBlocks = DS_CUDA_MIN_BLOCKS;

// The wavefront schedule's stage kernels (kernel_wave.cuh): a replica of the launch, its row
// in its batch and where its state block starts in the launch's arena.
struct WaveRep {
  int32_t batch;
  int32_t r;
  int64_t off;
};
constexpr int kWaveThreads = 128;  // threads per block of every stage kernel

struct FamilyKernel {
  const char* name;
  // the launch's batch views into this kernel's c_views
  cudaError_t (*set_views)(const BatchView* views, int n);
  // blocks of block_threads threads per SM with smem bytes of dynamic shared memory each
  cudaError_t (*blocks_per_sm)(int* blocks, int block_threads, unsigned smem);
  // dynamic shared memory above 48 KiB per block, the carveout to match
  cudaError_t (*allow_smem)(unsigned smem);
  cudaError_t (*launch)(unsigned blocks, int block_threads, unsigned smem, cudaStream_t stream,
                        const FamilyTask* tasks, int n_tasks, const int32_t* order,
                        const int64_t* order_off, unsigned char* arena, unsigned long long* words,
                        const volatile int64_t* stop, unsigned smem_per_warp);
};

// The wavefront schedule's stage kernels (kernel_wave.cuh), built in translation units of
// their own (kernel_wave_full.cu, _classic, _slim) with their own c_views: in the persistent
// kernel's unit they changed its inlining (ptxas sm_90, full: spill loads 4,220 -> 6,176 B).
struct WaveKernel {
  const char* name;
  cudaError_t (*set_views)(const BatchView* views, int n);
  // the stage kernels' rounds over n replicas, to their ends or until *host_stop (read
  // between rounds, after between_rounds(ctx) where that is given: the host's progress relay);
  // synchronous; phases: the queue stage by slot phases (BatchShape::wave_phases: 1 block-local,
  // 2 a kernel per phase)
  cudaError_t (*run)(cudaStream_t stream, const WaveRep* reps, int n, unsigned char* arena,
                     unsigned long long* words, const volatile int64_t* host_stop, int phases,
                     void (*between_rounds)(void*), void* ctx);
};

FamilyKernel family_kernel_full();     // every model
FamilyKernel family_kernel_classic();  // ns-2's rare models only (DS_CUDA_CLASSIC: no DS_FEAT_NEW)
FamilyKernel family_kernel_slim();  // replicas that use no rare model (batch_uses_features)
WaveKernel wave_kernel_full();
WaveKernel wave_kernel_classic();
WaveKernel wave_kernel_slim();

}  // namespace ds
