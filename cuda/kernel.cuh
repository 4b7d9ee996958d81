// The kernel source both CUDA kernels are built from (kernel_full.cu, kernel_slim.cu: the
// latter defines DS_CUDA_SLIM first, which compiles every rare model out, DS_FEAT). Persistent
// warps run a figure family's work list (engine/family.h); one replica per team of lanes
// threads, the engine source of engine/team.h. Defines DS_FAMILY_KERNEL, the FamilyKernel of
// this build. Built with -fmad=false so results match the CPU bit for bit.
#include "engine/control.h"
#include "engine/team.h"
#include "kernel.h"

#ifndef DS_KERNEL_MIN_BLOCKS
#define DS_KERNEL_MIN_BLOCKS kMinBlocks
#endif

namespace ds {
namespace {

// Device words: [0] the next task to take, [1] replica-slots done, [2] replicas finished.
// Each warp takes a task (engine/family.h: at most 32 / lanes replicas of one batch, as few as
// spread_per_warp leaves every task resident with) and runs each of
// its replicas as a team of `lanes` threads: the flow side on every lane, the queue side on
// lane 0, in rounds; then flushes its counters and takes the next task. A replica's state
// block is its own (arena + task.arena_off + its place in the task x the batch's stride).
// smem_per_warp > 0: a task whose replicas' blocks fit in that many bytes keeps them in its
// warp's part of the block's shared memory (an experiment, DIFFSWEEP_CUDA_SMEM_PER_WARP:
// a replica's chain of dependent loads at shared-memory latency instead of L1/L2/DRAM).
__global__ void __launch_bounds__(kBlockThreads, DS_KERNEL_MIN_BLOCKS)
    run_family(const FamilyTask* tasks, int n_tasks, const int32_t* order,
               const int64_t* order_off, unsigned char* arena, unsigned long long* words,
               const volatile int64_t* stop, unsigned smem_per_warp) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int wl = threadIdx.x & 31;
  for (;;) {
    int t = 0;
    if (wl == 0) t = *stop ? n_tasks : (int)atomicAdd(words, 1ull);
    t = __shfl_sync(0xFFFFFFFFu, t, 0);
    if (t >= n_tasks) return;
    const FamilyTask task = tasks[t];
    const BatchInput* in = &c_views[task.batch].in;
    const int lanes = in->shape.lanes;
    const int lane = wl % lanes, team = wl / lanes;
    const unsigned mask = lanes == 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1u) << (team * lanes);
    // warp_rounds: the task's replicas share each round (the nearest horizon of theirs), so
    // they step the same slots in the same phase. `group`: the threads that agree on a round,
    // the team alone with each replica its own rounds, else every thread of the task (teams
    // from 0 up), which then goes round the loop until none of its replicas is live. One loop
    // for both: with a branch between two loops the live flag cost the kernel 14 registers.
    const int task_threads = task.count * lanes;
    const unsigned all = task_threads >= 32 ? 0xFFFFFFFFu : (1u << task_threads) - 1u;
    if (team < task.count) {
      const int32_t r = task_row(order, order_off, task, team);
      const size_t stride = c_views[task.batch].L.stride;
      unsigned char* block = (size_t)task.count * stride <= smem_per_warp
                                 ? smem + (size_t)(threadIdx.x >> 5) * smem_per_warp + team * stride
                                 : arena + task.arena_off + (size_t)team * stride;
      Replica x = bind_replica(r, nullptr, task.batch, block);
      x.lane = (uint8_t)lane;
      if (lane == 0) init_replica(x);
      const int32_t need = emit_need(x);
      const uint32_t end = (uint32_t)in->end_slot[r];
      uint32_t polled = 0;
      // Rounds end at every clip_slots slots, as on the CPU (0: never); no result depends on it.
      const uint32_t clip = in->shape.clip_slots > 0 ? (uint32_t)in->shape.clip_slots : end;
      uint32_t stop_at = clip < end ? clip : end;
      bool stopped = false;
      __syncwarp(mask);
      const unsigned group = in->shape.warp_rounds != 0 ? all : mask;
      for (;;) {
        const uint32_t tq = *(volatile uint32_t*)&x.hdr()->t_queue;
        bool live = tq < end && !stopped;
        if (live && tq - polled >= (uint32_t)kPollSlots) {  // lane 0 decides for the team
          int s = 0;
          if (lane == 0) {
            atomicAdd(words + 1, (unsigned long long)(tq - polled));
            s = *stop ? 1 : 0;
          }
          polled = tq;
          if (__shfl_sync(mask, s, 0, lanes)) stopped = true, live = false;
        }
        uint32_t horizon = 0xFFFFFFFFu;
        if (live) {
          if (tq >= stop_at) stop_at = (uint64_t)tq + clip < end ? tq + clip : end;
          horizon = round_horizon(x, stop_at);
        }
        if (!__any_sync(group, live)) break;
        horizon = __reduce_min_sync(group, horizon);  // a live replica's: <= its own
        const bool moves = live && horizon > tq;  // a replica past the nearest horizon waits
        if (moves) flow_phase(x, lane, horizon, need);
        __syncwarp(group);
        if (moves && lane == 0 && !queue_phase(x)) x.hdr()->t_queue = end;  // overflow: host raises
        __syncwarp(group);
      }
      if (lane == 0) {
        flush_replica(x);
        const uint32_t tq = x.hdr()->t_queue;
        atomicAdd(words + 1, (unsigned long long)(tq - polled));
        if (!stopped) atomicAdd(words + 2, 1ull);
      }
    }
    __syncwarp();
  }
}

cudaError_t set_views(const BatchView* views, int n) {
  return cudaMemcpyToSymbol(c_views, views, sizeof(BatchView) * (size_t)n);
}

cudaError_t blocks_per_sm(int* blocks, int block_threads, unsigned smem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, run_family, block_threads, smem);
}

cudaError_t allow_smem(unsigned smem) {
  cudaError_t e = cudaFuncSetAttribute(run_family, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)smem);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute(run_family, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
  return e;
}

cudaError_t launch(unsigned blocks, int block_threads, unsigned smem, cudaStream_t stream,
                   const FamilyTask* tasks, int n_tasks, const int32_t* order,
                   const int64_t* order_off, unsigned char* arena, unsigned long long* words,
                   const volatile int64_t* stop, unsigned smem_per_warp) {
  run_family<<<blocks, block_threads, smem, stream>>>(tasks, n_tasks, order, order_off, arena,
                                                      words, stop, smem_per_warp);
  return cudaGetLastError();
}

}  // namespace

FamilyKernel DS_FAMILY_KERNEL() {
  return FamilyKernel{DS_FAMILY_KERNEL_NAME, set_views, blocks_per_sm, allow_smem, launch};
}

}  // namespace ds
