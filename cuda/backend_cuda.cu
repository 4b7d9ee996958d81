// The CUDA backend's host side: the same engine source (engine/team.h) run by persistent warps
// over a figure family's work list (engine/family.h): every batch (one per shape, no padding)
// in one launch, longest replicas first, each warp a task of replicas of one batch, one replica
// per team of shape.lanes threads (one thread with lanes = 1). A batch's inputs, layout and
// output arrays are its view in the kernel's c_views (engine/replica.h); every replica of a
// launch has its own state block, all resident at once. The kernel is the slim one when no
// replica of the launch uses a rare model, else the full one (kernel.h).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/control.h"
#include "engine/features.h"
#include "engine/family.h"
#include "kernel.h"

namespace ds {
namespace {

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

// Warps a kernel keeps resident on the current device at once with blocks of block_threads.
long long resident_warps(const FamilyKernel& kern, int block_threads, unsigned smem) {
  int device = 0, sms = 0, per_sm = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attributes");
  check(kern.blocks_per_sm(&per_sm, block_threads, smem), "occupancy");
  return (long long)sms * std::max(per_sm, 1) * (block_threads / 32);
}

// One launch sequence of a job whose batches c_views holds: every batch on one kernel, the
// slim one unless a replica uses a rare model (engine/features.h); its state blocks in at
// most `mem_share` of the device's free memory per launch.
void run_launches(const std::vector<BatchInput>& hin, std::vector<BatchOutput>& hout,
                  int64_t* control, int replicas_per_task, double mem_share) {
  const int nb = (int)hin.size();
  const char* name = family_kernel_name(hin);
  const FamilyKernel kern = std::strcmp(name, "full") == 0      ? family_kernel_full()
                            : std::strcmp(name, "classic") == 0 ? family_kernel_classic()
                                                                : family_kernel_slim();
  // The shared-memory experiment: one warp per block, each with smem_per_warp bytes.
  const char* env = std::getenv("DIFFSWEEP_CUDA_SMEM_PER_WARP");
  const unsigned smem_per_warp = env ? (unsigned)(std::strtoul(env, nullptr, 10) & ~15ul) : 0u;
  const int block_threads = smem_per_warp ? 32 : kBlockThreads;
  if (smem_per_warp) check(kern.allow_smem(smem_per_warp), "shared memory size");
  const long long resident = resident_warps(kern, block_threads, smem_per_warp);
  const int per_warp = spread_per_warp(hin, resident, replicas_per_task);
  FamilyPlan plan = plan_family(
      hin, [&](int b) { return std::min(per_warp, 32 / hin[(size_t)b].shape.lanes); });
  if (plan.tasks.empty()) return;
  bool wavefront = false;  // the stage kernels for the whole job when a batch asks for them;
  int phases = 0;          // and their slot phases (the highest mode asked: 2 over 1)
  for (const BatchInput& b : hin) {
    wavefront = wavefront || b.shape.wavefront != 0;
    phases = std::max(phases, (int)b.shape.wave_phases);
  }
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
  // the persistent kernel, or the stage kernels of the same build (slim, classic or full) when
  // the job asks for them
  const WaveKernel wave = std::strcmp(name, "full") == 0      ? wave_kernel_full()
                          : std::strcmp(name, "classic") == 0 ? wave_kernel_classic()
                                                              : wave_kernel_slim();
  check(wavefront ? wave.set_views(views.data(), nb) : kern.set_views(views.data(), nb),
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
  const size_t budget = (size_t)((double)free_b * mem_share);
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
    check(cudaMemset(words, 0, 4 * sizeof(unsigned long long)), "cudaMemset");
    std::memset(seen, 0, sizeof seen);
    if (wavefront) {  // the stage kernels (kernel_wave.cuh), one thread per replica or item
      std::vector<WaveRep> reps;
      for (size_t t = t0; t < t1; ++t) {
        const FamilyTask& task = plan.tasks[t];
        const size_t stride = views[(size_t)task.batch].L.stride;
        for (int32_t m = 0; m < task.count; ++m)
          reps.push_back(WaveRep{task.batch,
                                 task_row(plan.order.data(), plan.order_off.data(), task, m),
                                 task.arena_off + (int64_t)(stride * (size_t)m)});
      }
      const WaveRep* d_reps = launch.copy_in(reps.data(), reps.size());
      // progress between rounds, at most every 50 ms (the rounds synchronise anyway)
      auto last = std::chrono::steady_clock::now();
      auto between = [&] {
        const auto t = std::chrono::steady_clock::now();
        if (t - last < std::chrono::milliseconds(50)) return;
        last = t;
        relay();
      };
      err = wave.run(run, d_reps, (int)reps.size(), arena, words,
                     control ? control + kCtlStop : nullptr, phases,
                     [](void* f) { (*static_cast<decltype(between)*>(f))(); }, &between);
      if (err == cudaSuccess) relay();
      t0 = t1;
      if (control && ctl_load(control + kCtlStop)) break;
      continue;
    }
    const FamilyTask* d_tasks = launch.copy_in(plan.tasks.data() + t0, t1 - t0);
    const long long n_tasks = (long long)(t1 - t0);
    const long long warps_per_block = block_threads / 32;
    long long blocks = resident / warps_per_block;  // every SM's share of resident blocks
    blocks = std::max(1ll, std::min(blocks, (n_tasks + warps_per_block - 1) / warps_per_block));
    err = kern.launch((unsigned)blocks, block_threads, smem_per_warp, run, d_tasks, (int)n_tasks,
                      d_order, d_order_off, arena, words, dstop, smem_per_warp);
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
  // DIFFSWEEP_CUDA_SPLIT (an experiment; unset or 0: off): a job with batches for both kernels
  // runs its batches without a rare model on the slim kernel and the others on the full one,
  // "1" one after the other, "streams" at once (each launch in half the memory budget), where
  // one launch would run them all on the full kernel. Since families Kr, Kt and Ks joined it,
  // the full Kaur & Vin family's paper replicas run on the full kernel (benchmarks/gpu/gpu.md,
  // 2026-11-29); `gpu.sh` step `split` times the three. No result depends on it.
  const char* split = std::getenv("DIFFSWEEP_CUDA_SPLIT");
  const bool serial = split && std::strcmp(split, "1") == 0;
  const bool streams = split && std::strcmp(split, "streams") == 0;
  if (split && *split && !serial && !streams && std::strcmp(split, "0") != 0)
    throw std::runtime_error(std::string("DIFFSWEEP_CUDA_SPLIT is '") + split +
                             "': one of 0 (off), 1 (one launch after the other) or streams");
  if ((serial || streams) && !full_kernel_forced()) {
    std::vector<BatchInput> in[2];  // [0] slim, [1] full
    std::vector<BatchOutput> out[2];
    for (int b = 0; b < nb; ++b) {
      const int k = batch_uses_features(hin[(size_t)b]) ? 1 : 0;
      in[k].push_back(hin[(size_t)b]);
      out[k].push_back(hout[(size_t)b]);  // (host pointers: the results land in hout's arrays)
    }
    if (!in[0].empty() && !in[1].empty()) {
      if (serial) {
        run_launches(in[0], out[0], control, replicas_per_task, 0.8);
        if (!(control && ctl_load(control + kCtlStop)))
          run_launches(in[1], out[1], control, replicas_per_task, 0.8);
        return;
      }
      std::exception_ptr failed;
      std::thread full([&] {
        try {
          run_launches(in[1], out[1], control, replicas_per_task, 0.4);
        } catch (...) {
          failed = std::current_exception();
          if (control) ctl_add(control + kCtlStop, 1);  // the other launch stops too
        }
      });
      try {
        run_launches(in[0], out[0], control, replicas_per_task, 0.4);
      } catch (...) {
        if (control) ctl_add(control + kCtlStop, 1);
        full.join();
        throw;
      }
      full.join();
      if (failed) std::rethrow_exception(failed);
      return;
    }
  }
  run_launches(hin, hout, control, replicas_per_task, 0.8);
}

long long cuda_resident_warps(bool full) {
  if (cuda_device_count() <= 0) return 0;
  return resident_warps(full ? family_kernel_full() : family_kernel_slim(), kBlockThreads, 0);
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

}  // namespace ds
