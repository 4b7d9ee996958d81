// The CUDA backend: the same engine source (engine/team.h) run by persistent warps. Each team
// of shape.lanes threads (a warp tile) takes a replica from a work queue, runs its flow side
// on all lanes and its queue side on lane 0 in rounds, flushes its counters, and takes the
// next. The arena holds one state block per resident team, not per replica, so a launch can
// carry a whole figure family. Built with -fmad=false so results match the CPU bit for bit.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/control.h"
#include "engine/team.h"

namespace ds {
namespace {

constexpr int kBlockThreads = 128;  // teams of 1..32 lanes tile it exactly

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

// Device words: [0] next replica to take, [1] replica-slots done, [2] replicas finished.
__global__ void __launch_bounds__(kBlockThreads)
    run_teams(unsigned char* arena, size_t stride, unsigned long long* words,
              const volatile int64_t* stop) {
  const BatchInput* in = &c_views[0].in;
  const int lanes = in->shape.lanes;
  const int lane = threadIdx.x % lanes;
  const int team = blockIdx.x * (blockDim.x / lanes) + threadIdx.x / lanes;
  const unsigned first = (threadIdx.x % 32) / lanes * lanes;
  const unsigned mask = lanes == 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1u) << first;
  unsigned char* block = arena + (size_t)team * stride;
  for (;;) {
    int r = 0;
    if (lane == 0) r = *stop ? in->shape.n_replicas : (int)atomicAdd(words, 1ull);
    r = __shfl_sync(mask, r, 0, lanes);
    if (r >= in->shape.n_replicas) return;
    Replica x = bind_replica(r, nullptr, 0, block);
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
    __syncwarp(mask);
  }
}

}  // namespace

void run_batch_cuda(const BatchInput& hin, BatchOutput& hout, int64_t* control) {
  const BatchShape& s = hin.shape;
  if (s.n_replicas <= 0) return;
  DeviceMem mem;
  BatchInput din = hin;
  BatchOutput dout = hout;
#define DS_MIRROR_IN(name, T, dim) din.name = mem.copy_in<T>(hin.name, dim_size(s, dim));
#define DS_MIRROR_OUT(name, T, dim) dout.name = mem.copy_in<T>(hout.name, dim_size(s, dim));
  DS_INPUT_FIELDS(DS_MIRROR_IN)
  DS_OUTPUT_FIELDS(DS_MIRROR_OUT)
  DS_RECORD_FIELDS(DS_MIRROR_OUT)
#undef DS_MIRROR_IN
#undef DS_MIRROR_OUT
  const Layout L = make_layout(s);
  const BatchView view = make_view(din, dout, L);
  check(cudaMemcpyToSymbol(c_views, &view, sizeof view), "copy to constant memory");

  // Resident teams: what the SMs hold at once, capped by the replicas and by free memory.
  int device = 0, sms = 0, per_sm = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attributes");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, run_teams, kBlockThreads, 0),
        "occupancy");
  const long long teams_per_block = kBlockThreads / s.lanes;
  size_t free_b = 0, total_b = 0;
  check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  long long blocks = (long long)sms * std::max(per_sm, 1);
  blocks = std::min(blocks, (s.n_replicas + teams_per_block - 1) / teams_per_block);
  const long long mem_blocks = (long long)(free_b * 0.8 / ((double)L.stride * teams_per_block));
  blocks = std::max(1ll, std::min(blocks, mem_blocks));
  unsigned char* arena = mem.alloc<unsigned char>(L.stride * (size_t)(blocks * teams_per_block));
  unsigned long long* words = mem.alloc<unsigned long long>(4);
  check(cudaMemset(words, 0, 4 * sizeof(unsigned long long)), "cudaMemset");

  // The stop word lives in mapped host memory: the host writes it while the kernel runs.
  int64_t* hstop = nullptr;
  int64_t* dstop = nullptr;
  check(cudaHostAlloc(&hstop, sizeof(int64_t), cudaHostAllocMapped), "cudaHostAlloc");
  *hstop = control ? ctl_load(control + kCtlStop) : 0;
  check(cudaHostGetDevicePointer(&dstop, hstop, 0), "cudaHostGetDevicePointer");
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
  run_teams<<<(unsigned)blocks, kBlockThreads, 0, run>>>(arena, L.stride, words, dstop);
  err = cudaGetLastError();
  while (err == cudaSuccess) {
    err = cudaStreamQuery(run);
    if (err != cudaErrorNotReady) break;
    err = cudaSuccess;
    relay();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (err == cudaSuccess) relay();
  cudaStreamDestroy(run);
  cudaStreamDestroy(poll);
  cudaFreeHost(hstop);
  check(err, "engine kernel");
#define DS_COPY_BACK(name, T, dim) \
  check(cudaMemcpy(hout.name, dout.name, dim_size(s, dim) * sizeof(T), cudaMemcpyDeviceToHost), "copy to host");
  DS_OUTPUT_FIELDS(DS_COPY_BACK)
  DS_RECORD_FIELDS(DS_COPY_BACK)
#undef DS_COPY_BACK
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
