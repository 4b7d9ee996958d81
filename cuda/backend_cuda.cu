// The CUDA backend: the same engine source (engine/team.h) run by persistent warps over a
// figure family's work list (engine/family.h): every batch (one per shape, no padding) in one
// launch, longest replicas first, each warp a task of replicas of one batch, one replica per
// team of shape.lanes threads (one thread with lanes = 1). A batch's inputs, layout and output
// arrays are its view in c_views (engine/replica.h); every replica of a launch has its own
// state block, all resident at once. Built with -fmad=false so results match the CPU bit for bit.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/control.h"
#include "engine/family.h"
#include "engine/team.h"

namespace ds {
namespace {

constexpr int kBlockThreads = 128;  // whole warps: a warp runs one task
// At least 4 blocks of 128 per SM: ptxas then keeps the kernel within 128 registers (it gave
// 114 and no spills; with the thread bound alone it chose 96 registers and spilled 16 bytes).
// The H200's profile (benchmarks/gpu.md, 2026-11-26) found the kernel latency-bound at 2 warps
// per scheduler, registers limiting occupancy to 25%: DIFFSWEEP_CUDA_MIN_BLOCKS (CMake) builds
// 6 (80 registers, 132 bytes of spill stores) or 8 (64, 368 bytes) to measure against it.
#ifndef DS_CUDA_MIN_BLOCKS
#define DS_CUDA_MIN_BLOCKS 4
#endif
constexpr int kMinBlocks = DS_CUDA_MIN_BLOCKS;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

struct DeviceMem {  // frees everything it handed out, also when an error is thrown
  std::vector<void*> owned;
  template <class T>
  T* alloc(size_t n) {
    void* p = nullptr;
    check(cudaMalloc(&p, n * sizeof(T) + 16), "cudaMalloc");
    owned.push_back(p);
    return static_cast<T*>(p);
  }
  template <class T>
  T* copy_in(const T* host, size_t n) {
    T* d = alloc<T>(n);
    check(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice), "copy to device");
    return d;
  }
  ~DeviceMem() {
    for (void* p : owned) cudaFree(p);
  }
};

// Device words: [0] the next task to take, [1] replica-slots done, [2] replicas finished.
// Each warp takes a task (engine/family.h: 32 / lanes replicas of one batch) and runs each of
// its replicas as a team of `lanes` threads: the flow side on every lane, the queue side on
// lane 0, in rounds; then flushes its counters and takes the next task. A replica's state
// block is its own (arena + task.arena_off + its place in the task x the batch's stride).
// smem_per_warp > 0: a task whose replicas' blocks fit in that many bytes keeps them in its
// warp's part of the block's shared memory (an experiment, DIFFSWEEP_CUDA_SMEM_PER_WARP:
// a replica's chain of dependent loads at shared-memory latency instead of L1/L2/DRAM).
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks)
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
    if (team < task.count) {
      const int32_t r = order[order_off[task.batch] + task.first + team];
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
      for (;;) {
        const uint32_t tq = *(volatile uint32_t*)&x.hdr()->t_queue;
        if (tq >= end) break;
        if (tq - polled >= (uint32_t)kPollSlots) {  // lane 0 decides for the team
          int s = 0;
          if (lane == 0) {
            atomicAdd(words + 1, (unsigned long long)(tq - polled));
            s = *stop ? 1 : 0;
          }
          polled = tq;
          if (__shfl_sync(mask, s, 0, lanes)) {
            stopped = true;
            break;
          }
        }
        if (tq >= stop_at) stop_at = (uint64_t)tq + clip < end ? tq + clip : end;
        const uint32_t horizon = round_horizon(x, stop_at);
        flow_phase(x, lane, horizon, need);
        __syncwarp(mask);
        if (lane == 0 && !queue_phase(x)) x.hdr()->t_queue = end;  // overflow bit set: host raises
        __syncwarp(mask);
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

}  // namespace

void run_family_cuda(const std::vector<BatchInput>& hin, std::vector<BatchOutput>& hout,
                     int64_t* control, int replicas_per_task) {
  const int nb = (int)hin.size();
  // More batches than c_views holds: in groups, one after another.
  if (nb > kMaxViews) {
    for (int b0 = 0; b0 < nb; b0 += kMaxViews) {
      const int b1 = std::min(nb, b0 + kMaxViews);
      std::vector<BatchInput> in(hin.begin() + b0, hin.begin() + b1);
      std::vector<BatchOutput> out(hout.begin() + b0, hout.begin() + b1);
      run_family_cuda(in, out, control, replicas_per_task);
      if (control && ctl_load(control + kCtlStop)) return;
    }
    return;
  }
  int device = 0, sms = 0, per_sm = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attributes");
  // The shared-memory experiment: one warp per block, each with smem_per_warp bytes.
  const char* env = std::getenv("DIFFSWEEP_CUDA_SMEM_PER_WARP");
  const unsigned smem_per_warp = env ? (unsigned)(std::strtoul(env, nullptr, 10) & ~15ul) : 0u;
  const int block_threads = smem_per_warp ? 32 : kBlockThreads;
  if (smem_per_warp) {
    check(cudaFuncSetAttribute(run_family, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int)smem_per_warp), "shared memory size");
    check(cudaFuncSetAttribute(run_family, cudaFuncAttributePreferredSharedMemoryCarveout, 100),
          "shared memory carveout");
  }
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, run_family, block_threads,
                                                      smem_per_warp), "occupancy");
  const long long warps_per_block = block_threads / 32;
  const int per_warp =
      spread_per_warp(hin, (long long)sms * std::max(per_sm, 1) * warps_per_block, replicas_per_task);
  FamilyPlan plan = plan_family(
      hin, [&](int b) { return std::min(per_warp, 32 / hin[(size_t)b].shape.lanes); });
  if (plan.tasks.empty()) return;
  DeviceMem mem;
  std::vector<BatchView> views((size_t)nb);
  std::vector<BatchOutput> dout((size_t)nb);
  for (int b = 0; b < nb; ++b) {
    const BatchShape& s = hin[(size_t)b].shape;
    BatchInput din = hin[(size_t)b];
    const BatchOutput& ho = hout[(size_t)b];
    BatchOutput& d = dout[(size_t)b];
#define DS_MIRROR_IN(name, T, dim) din.name = mem.copy_in<T>(hin[(size_t)b].name, dim_size(s, dim));
#define DS_MIRROR_OUT(name, T, dim) d.name = mem.copy_in<T>(ho.name, dim_size(s, dim));
    DS_INPUT_FIELDS(DS_MIRROR_IN)
    DS_OUTPUT_FIELDS(DS_MIRROR_OUT)
    DS_RECORD_FIELDS(DS_MIRROR_OUT)
#undef DS_MIRROR_IN
#undef DS_MIRROR_OUT
    views[(size_t)b] = make_view(din, d, make_layout(s));
  }
  check(cudaMemcpyToSymbol(c_views, views.data(), sizeof(BatchView) * (size_t)nb),
        "copy the batches' views");
  const int32_t* d_order = mem.copy_in(plan.order.data(), plan.order.size());
  const int64_t* d_order_off = mem.copy_in(plan.order_off.data(), plan.order_off.size());


  // The stop word lives in mapped host memory: the host writes it while the kernel runs.
  int64_t* hstop = nullptr;
  int64_t* dstop = nullptr;
  check(cudaHostAlloc(&hstop, sizeof(int64_t), cudaHostAllocMapped), "cudaHostAlloc");
  *hstop = control ? ctl_load(control + kCtlStop) : 0;
  check(cudaHostGetDevicePointer(&dstop, hstop, 0), "cudaHostGetDevicePointer");
  unsigned long long* words = mem.alloc<unsigned long long>(4);
  cudaStream_t run = nullptr, poll = nullptr;
  check(cudaStreamCreateWithFlags(&run, cudaStreamNonBlocking), "stream");
  check(cudaStreamCreateWithFlags(&poll, cudaStreamNonBlocking), "stream");
  unsigned long long seen[4] = {0, 0, 0, 0}, now_w[4] = {0, 0, 0, 0};
  auto relay = [&] {  // device progress -> host control words; host stop -> device
    if (!control) return;
    check(cudaMemcpyAsync(now_w, words, sizeof now_w, cudaMemcpyDeviceToHost, poll), "progress");
    check(cudaStreamSynchronize(poll), "progress");
    ctl_add(control + kCtlSlotsDone, (int64_t)(now_w[1] - seen[1]));
    ctl_add(control + kCtlReplicasDone, (int64_t)(now_w[2] - seen[2]));
    std::memcpy(seen, now_w, sizeof seen);
    *(volatile int64_t*)hstop = ctl_load(control + kCtlStop);
  };
  cudaError_t err = cudaSuccess;
  // Launches: as many tasks, longest first, as the free memory holds state blocks for (one per
  // replica: every replica of a launch resident at once); usually the whole family.
  size_t free_b = 0, total_b = 0;
  check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  const size_t budget = (size_t)(free_b * 0.8);
  size_t t0 = 0;
  while (t0 < plan.tasks.size() && err == cudaSuccess) {
    size_t t1 = t0, bytes = 0;
    while (t1 < plan.tasks.size()) {
      FamilyTask& task = plan.tasks[t1];
      const size_t need = views[(size_t)task.batch].L.stride * (size_t)task.count;
      if (t1 > t0 && bytes + need > budget) break;
      task.arena_off = (int64_t)bytes;
      bytes += need;
      ++t1;
    }
    DeviceMem launch;
    unsigned char* arena = launch.alloc<unsigned char>(bytes);
    const FamilyTask* d_tasks = launch.copy_in(plan.tasks.data() + t0, t1 - t0);
    check(cudaMemset(words, 0, 4 * sizeof(unsigned long long)), "cudaMemset");
    std::memset(seen, 0, sizeof seen);
    const long long n_tasks = (long long)(t1 - t0);
    long long blocks = (long long)sms * std::max(per_sm, 1);
    blocks = std::max(1ll, std::min(blocks, (n_tasks + warps_per_block - 1) / warps_per_block));
    run_family<<<(unsigned)blocks, block_threads, smem_per_warp, run>>>(
        d_tasks, (int)n_tasks, d_order, d_order_off, arena, words, dstop, smem_per_warp);
    err = cudaGetLastError();
    while (err == cudaSuccess) {
      err = cudaStreamQuery(run);
      if (err != cudaErrorNotReady) break;
      err = cudaSuccess;
      relay();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (err == cudaSuccess) relay();
    if (err == cudaSuccess) err = cudaStreamSynchronize(run);
    t0 = t1;
    if (control && ctl_load(control + kCtlStop)) break;
  }
  cudaStreamDestroy(run);
  cudaStreamDestroy(poll);
  cudaFreeHost(hstop);
  check(err, "engine kernel");
  for (int b = 0; b < nb; ++b) {
    const BatchShape& s = hin[(size_t)b].shape;
#define DS_COPY_BACK(name, T, dim)                                                          \
  check(cudaMemcpy(hout[(size_t)b].name, dout[(size_t)b].name, dim_size(s, dim) * sizeof(T), \
                   cudaMemcpyDeviceToHost),                                                  \
        "copy to host");
    DS_OUTPUT_FIELDS(DS_COPY_BACK)
    DS_RECORD_FIELDS(DS_COPY_BACK)
#undef DS_COPY_BACK
  }
}

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver" error
    return 0;
  }
  return n;
}

void cuda_memory_info(size_t* free_bytes, size_t* total_bytes) {
  *free_bytes = *total_bytes = 0;
  if (cuda_device_count() > 0 && cudaMemGetInfo(free_bytes, total_bytes) != cudaSuccess) {
    cudaGetLastError();
    *free_bytes = *total_bytes = 0;
  }
}

void cuda_device_name(char* buf, int n) {
  cudaDeviceProp p;
  if (n <= 0) return;
  buf[0] = 0;
  if (cuda_device_count() > 0 && cudaGetDeviceProperties(&p, 0) == cudaSuccess)
    std::snprintf(buf, (size_t)n, "%s (sm_%d%d, %.1f GiB)", p.name, p.major, p.minor,
                  (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
}

size_t replica_state_bytes(const BatchShape& shape) { return make_layout(shape).stride; }

std::vector<std::pair<std::string, size_t>> replica_state_sections(const BatchShape& shape) {
  std::vector<std::pair<std::string, size_t>> v;
  layout_sections(make_layout(shape), [&](const char* name, size_t bytes) { v.emplace_back(name, bytes); });
  return v;
}

}  // namespace ds
