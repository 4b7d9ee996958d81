// The wavefront schedule on CUDA (issue 51; docs/design.md, "The wavefront schedule"): the
// CPU's run_wavefront (backend_cpu.cpp) as stage kernels over all replicas of a launch,
// each a short kernel over a compacted device-wide queue of the items that need it (Laine,
// Karras & Aila 2013), one thread per item:
//   wave_init   a replica:  init_replica, emit_need;
//   wave_plan   a replica:  if live, its own horizon (round_horizon within its piece of
//               clip_slots slots), itself into the live queue, and each of its lanes with a
//               flow event before the horizon into the flow queue (lane_has_work); a lane
//               without one is only marked done, as flow_phase would;
//   wave_flow   a (replica, lane) of the flow queue:  flow_phase to the horizon;
//   wave_queue  a replica of the live queue:  queue_phase; or, with wave_phases,
//   wave_queue_phases  the live queue's replicas a block at a time, a slot of each at a time,
//               the slot's parts as phases between block barriers, the sources due, the
//               arrivals and the links' service past their quick steps each over a
//               block-local queue of the replicas that need them (compacted in shared memory: warps full where the
//               work is rare), as the CPU's queue_stage_phases (backend_cpu.cpp); or
//   wph_start, then per slot wph_begin .. wph_end  the same phases, each a kernel of its own
//               over a device-wide queue (wave_phases 2; below);
//   wave_flush  a replica:  flush_replica.
// The host launches plan, flow and queue once a round until no replica is live (each
// replica its own rounds: no device-wide barrier per slot, one per stage). A replica's own
// operations come in the order of run_rounds (engine/team.h), so the bits are the CPU's
// whatever order the atomics fill the queues in. Built three times as the persistent kernel
// is (kernel_wave_full.cu, kernel_wave_classic.cu, kernel_wave_slim.cu), each defining
// DS_WAVE_KERNEL, its WaveKernel (kernel.h). Built with -fmad=false, as every CUDA unit.
#include "engine/control.h"
#include "engine/team.h"
#include "kernel.h"

namespace ds {
namespace {

__global__ void __launch_bounds__(kWaveThreads) wave_init(const WaveRep* reps, int n,
                                                          unsigned char* arena, int32_t* need,
                                                          uint32_t* stop_at) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const WaveRep w = reps[i];
  Replica x = bind_replica(w.r, nullptr, w.batch, arena + w.off);
  init_replica(x);
  need[i] = emit_need(x);
  stop_at[i] = 0;
}

// counts: [0] the live queue's length, [1] the flow queue's
__global__ void __launch_bounds__(kWaveThreads) wave_plan(const WaveRep* reps, int n,
                                                          unsigned char* arena,
                                                          uint32_t* stop_at, uint32_t* horizon,
                                                          int32_t* live, int32_t* items,
                                                          int32_t* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const WaveRep w = reps[i];
  Replica x = bind_replica(w.r, nullptr, w.batch, arena + w.off);
  const BatchInput* in = &c_views[w.batch].in;
  const uint32_t end = (uint32_t)in->end_slot[w.r], tq = x.hdr()->t_queue;
  if (tq >= end) return;
  const uint32_t clip = in->shape.clip_slots > 0 ? (uint32_t)in->shape.clip_slots : end;
  const uint32_t h = piece_horizon(x, stop_at[i], clip, end);
  horizon[i] = h;
  live[atomicAdd(counts, 1)] = i;
  const int lanes = in->shape.lanes;
  for (int k = 0; k < lanes; ++k) {
    if (lane_has_work(x, k, h))
      items[atomicAdd(counts + 1, 1)] = i * kMaxLanes + k;
    else
      x.lane_t()[k] = h;
  }
}

__global__ void __launch_bounds__(kWaveThreads) wave_flow(const WaveRep* reps,
                                                          unsigned char* arena,
                                                          const uint32_t* horizon,
                                                          const int32_t* need,
                                                          const int32_t* items,
                                                          const int32_t* counts) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= counts[1]) return;
  const int32_t it = items[j];
  const int i = it / kMaxLanes, k = it % kMaxLanes;
  const WaveRep w = reps[i];
  Replica x = bind_replica(w.r, nullptr, w.batch, arena + w.off);
  flow_phase(x, k, horizon[i], need[i]);
}

__global__ void __launch_bounds__(kWaveThreads) wave_queue(const WaveRep* reps,
                                                           unsigned char* arena,
                                                           const int32_t* live,
                                                           const int32_t* counts,
                                                           unsigned long long* words) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= counts[0]) return;
  const int i = live[j];
  const WaveRep w = reps[i];
  Replica x = bind_replica(w.r, nullptr, w.batch, arena + w.off);
  const uint32_t end = (uint32_t)c_views[w.batch].in.end_slot[w.r], tq = x.hdr()->t_queue;
  if (!queue_phase(x)) x.hdr()->t_queue = end;  // overflow: the host raises
  atomicAdd(words + 1, (unsigned long long)(x.hdr()->t_queue - tq));
}

// A round whose queue side could not move (queue_round_end false: an emission ring too small,
// flagged): the replica ends there, its remaining slots counted as run (the host raises).
__device__ DS_INLINE void wave_round_overflow(Replica& x, const WaveRep& w, uint32_t tq,
                                              unsigned long long* words) {
  x.hdr()->t_queue = (uint32_t)c_views[w.batch].in.end_slot[w.r];
  atomicAdd(words + 1, (unsigned long long)(x.hdr()->t_queue - tq));
}

// The queue stage by slot phases: thread t of a block owns live replica blockIdx.x *
// kWaveThreads + t and runs its slot_begin, slot_front_end, serve_links_quick and
// slot_serve_end; the block's replicas with a source due, then those with arrivals staged,
// then those with a link past its quick step, are queued in shared memory and run by the
// block's first threads (slot_sources, slot_arrivals, serve_links_from), each replica's
// parts in queue_slot's order. A block ends when its
// replicas' rounds do (each its own: the barriers wait for the longest).
__global__ void __launch_bounds__(kWaveThreads) wave_queue_phases(const WaveRep* reps,
                                                                  unsigned char* arena,
                                                                  const int32_t* live,
                                                                  const int32_t* counts,
                                                                  unsigned long long* words) {
  __shared__ int32_t q_n;
  __shared__ int32_t q_item[kWaveThreads];   // a queue's owners (thread indices)
  __shared__ uint32_t slot_of[kWaveThreads];  // each owner's slot
  __shared__ int32_t l0_of[kWaveThreads];     // and the link its service goes on from
  __shared__ SlotInputs si_of[kWaveThreads];  // and its inputs (loaded once a round: a
                                              // queued replica's thread took 12% of the
                                              // stage's warp instructions reloading them)
  const int t = threadIdx.x;
  const int j = blockIdx.x * blockDim.x + t;
  const int n = counts[0];
  if (blockIdx.x * blockDim.x >= (unsigned)n) return;  // (the whole block: no barrier waits)
  const bool mine = j < n;
  const WaveRep w = reps[mine ? live[j] : live[0]];
  Replica x = bind_replica(w.r, nullptr, w.batch, arena + w.off);
  const uint32_t tq = x.hdr()->t_queue;
  uint32_t now = tq, t_end = tq;
  bool active = false;
  SlotInputs si{};
  if (mine) {
    if (queue_round_end(x, t_end)) {
      si = slot_inputs(x);
      active = now < t_end;
    } else {
      wave_round_overflow(x, w, tq, words);
    }
  }
  si_of[t] = si;
  // a queued owner's replica, bound by the thread that runs its phase
  auto owner = [&](int k, SlotInputs& s) {
    const WaveRep v = reps[live[blockIdx.x * blockDim.x + q_item[k]]];
    Replica y = bind_replica(v.r, nullptr, v.batch, arena + v.off);
    s = si_of[q_item[k]];
    slot_view(y, slot_of[q_item[k]], s);
    return y;
  };
  __shared__ int32_t any_active;
  for (;;) {  // (a flag in shared memory, not __syncthreads_or: GPGPU-Sim's bar.red.or
              // did not end the loop)
    if (t == 0) any_active = 0;
    __syncthreads();
    if (active) any_active = 1;
    __syncthreads();
    if (!any_active) break;
    if (t == 0) q_n = 0;
    if (active) {
      slot_begin(x, now, t_end, si);
      slot_of[t] = now;
    }
    __syncthreads();
    if (active && sources_due(x, now, si)) q_item[atomicAdd(&q_n, 1)] = t;
    __syncthreads();
    if (t < q_n) {
      SlotInputs s;
      Replica y = owner(t, s);
      slot_sources(y, slot_of[q_item[t]], s);
    }
    __syncthreads();
    if (t == 0) q_n = 0;
    if (active) {
      slot_view(x, now, si);
      slot_front_end(x, now, si);
    }
    __syncthreads();
    if (active && x.hdr()->stage_count > 0) q_item[atomicAdd(&q_n, 1)] = t;
    __syncthreads();
    if (t < q_n) {
      SlotInputs s;
      Replica y = owner(t, s);
      slot_arrivals(y, slot_of[q_item[t]]);
    }
    __syncthreads();
    if (t == 0) q_n = 0;
    __syncthreads();
    if (active) {
      slot_view(x, now, si);
      const int l0 = serve_links_quick(x, si);
      l0_of[t] = l0;
      if (l0 < si.n_links) q_item[atomicAdd(&q_n, 1)] = t;
    }
    __syncthreads();
    if (t < q_n) {
      SlotInputs s;
      Replica y = owner(t, s);
      serve_links_from(y, l0_of[q_item[t]], slot_of[q_item[t]], s);
    }
    __syncthreads();
    if (active) {
      slot_view(x, now, si);
      slot_serve_end(x, now, si);
      if (++now == t_end) {
        active = false;
        queue_round_done(x, t_end);
        atomicAdd(words + 1, (unsigned long long)(t_end - tq));
      }
    }
  }
}

// The queue stage by phase kernels (wave_phases 2): the CPU's queue_stage_phases with each
// phase a kernel of its own over a device-wide queue, so a kernel holds one phase's code (the
// block-local phases above hold them all: at an 8 KB instruction cache in the simulator they
// missed as often as wave_queue, benchmarks/gpusim/README.md). A replica's place p in the
// round's live queue indexes its phase state (PhaseState, structure of arrays); per slot the
// host launches
//   wph_begin    the active p:  slot_begin; into the sources' queue if sources_due;
//   wph_sources  that queue:    slot_sources;
//   wph_front    the active p:  slot_front_end; into the arrivals' queue if any staged;
//   wph_arrive   that queue:    slot_arrivals;
//   wph_quick    the active p:  serve_links_quick; into the service's queue past it;
//   wph_rest     that queue:    serve_links_from;
//   wph_end      the active p:  slot_serve_end; into the next slot's active queue while its
//                round lasts, else queue_round_done;
// each replica's parts in queue_slot's order, whatever order the atomics fill the queues in.
// A queue's counter is zeroed by the kernel after the one that read it last (stream order:
// nothing reads it then), so a slot needs no memset.
struct PhaseState {
  uint32_t *t, *t_end;  // (the round's first slot is the header's t_queue until its end)
  int32_t* l0;
  SlotInputs* si;
  int32_t *act[2], *q_src, *q_arr, *q_rest;
  // [0, 1] the active queues' lengths (this slot's, the next's, by parity), [2] sources',
  // [3] arrivals', [4] service's; [5] the round's longest run of slots
  int32_t* n;
};
enum { kPhActive = 0, kPhSources = 2, kPhArrive = 3, kPhRest = 4, kPhLongest = 5, kPhCounts = 6 };

__device__ DS_INLINE Replica ph_replica(const WaveRep* reps, unsigned char* arena,
                                        const int32_t* live, int p) {
  const WaveRep w = reps[live[p]];
  return bind_replica(w.r, nullptr, w.batch, arena + w.off);
}

// the active queue of parity par (a select: an index into the by-value PhaseState would copy it
// to the stack, ptxas sm_90: an 88-byte frame)
__device__ DS_INLINE int32_t* ph_act(const PhaseState& s, int par) {
  return par ? s.act[1] : s.act[0];
}

__device__ DS_INLINE void ph_zero(int32_t* n, int k) {
  if (blockIdx.x == 0 && threadIdx.x == 0) n[k] = 0;
}

// A thread's item of a phase kernel: its place p in queue q (of length n[k]), the replica
// bound and its slot's view set (slot_view), its inputs and slot; false past the queue's end.
struct PhItem {
  int p;
  Replica x;
  SlotInputs si;
  uint32_t now;
};

__device__ DS_INLINE bool ph_item(const WaveRep* reps, unsigned char* arena, const int32_t* live,
                                  const PhaseState& s, const int32_t* q, int k, PhItem& it) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= s.n[k]) return false;
  it.p = q[j];
  it.x = ph_replica(reps, arena, live, it.p);
  it.si = s.si[it.p];
  it.now = s.t[it.p];
  slot_view(it.x, it.now, it.si);
  return true;
}

// the round's start: each live replica's slots (queue_round_end) into the first active queue
__global__ void __launch_bounds__(kWaveThreads) wph_start(const WaveRep* reps, unsigned char* arena,
                                                          const int32_t* live,
                                                          const int32_t* counts, PhaseState s,
                                                          unsigned long long* words) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= counts[0]) return;
  const WaveRep w = reps[live[p]];
  Replica x = bind_replica(w.r, nullptr, w.batch, arena + w.off);
  const uint32_t tq = x.hdr()->t_queue;
  uint32_t t_end;
  if (!queue_round_end(x, t_end)) {
    wave_round_overflow(x, w, tq, words);
    return;
  }
  s.t[p] = tq;
  s.t_end[p] = t_end;
  s.si[p] = slot_inputs(x);
  s.act[0][atomicAdd(s.n + kPhActive, 1)] = p;
  atomicMax(s.n + kPhLongest, (int32_t)(t_end - tq));
}

#define DS_PHASE_KERNEL(name, ...)                                                    \
  __global__ void __launch_bounds__(kWaveThreads)                                    \
      name(const WaveRep* reps, unsigned char* arena, const int32_t* live, PhaseState s, \
           __VA_ARGS__)

// (par: the slot's parity, which of the two active queues is this slot's)
DS_PHASE_KERNEL(wph_begin, int par) {
  ph_zero(s.n, kPhActive + (par ^ 1));  // (last read by the slot before's kernels)
  PhItem it;
  if (!ph_item(reps, arena, live, s, ph_act(s, par), kPhActive + par, it)) return;
  slot_begin(it.x, it.now, s.t_end[it.p], it.si);
  if (sources_due(it.x, it.now, it.si)) s.q_src[atomicAdd(s.n + kPhSources, 1)] = it.p;
}

DS_PHASE_KERNEL(wph_sources, int) {
  PhItem it;
  if (ph_item(reps, arena, live, s, s.q_src, kPhSources, it)) slot_sources(it.x, it.now, it.si);
}

DS_PHASE_KERNEL(wph_front, int par) {
  ph_zero(s.n, kPhSources);
  PhItem it;
  if (!ph_item(reps, arena, live, s, ph_act(s, par), kPhActive + par, it)) return;
  slot_front_end(it.x, it.now, it.si);
  if (it.x.hdr()->stage_count > 0) s.q_arr[atomicAdd(s.n + kPhArrive, 1)] = it.p;
}

DS_PHASE_KERNEL(wph_arrive, int) {
  PhItem it;
  if (ph_item(reps, arena, live, s, s.q_arr, kPhArrive, it)) slot_arrivals(it.x, it.now);
}

DS_PHASE_KERNEL(wph_quick, int par) {
  ph_zero(s.n, kPhArrive);
  PhItem it;
  if (!ph_item(reps, arena, live, s, ph_act(s, par), kPhActive + par, it)) return;
  const int l0 = serve_links_quick(it.x, it.si);
  if (l0 < it.si.n_links) {
    s.l0[it.p] = l0;
    s.q_rest[atomicAdd(s.n + kPhRest, 1)] = it.p;
  }
}

DS_PHASE_KERNEL(wph_rest, int) {
  PhItem it;
  if (ph_item(reps, arena, live, s, s.q_rest, kPhRest, it))
    serve_links_from(it.x, s.l0[it.p], it.now, it.si);
}

DS_PHASE_KERNEL(wph_end, int par, unsigned long long* words) {
  ph_zero(s.n, kPhRest);
  PhItem it;
  if (!ph_item(reps, arena, live, s, ph_act(s, par), kPhActive + par, it)) return;
  slot_serve_end(it.x, it.now, it.si);
  const uint32_t t_end = s.t_end[it.p];
  if (it.now + 1 < t_end) {
    s.t[it.p] = it.now + 1;
    ph_act(s, par ^ 1)[atomicAdd(s.n + kPhActive + (par ^ 1), 1)] = it.p;
    return;
  }
  // (the header's t_queue is still the round's first slot: queue_round_done moves it)
  atomicAdd(words + 1, (unsigned long long)(t_end - it.x.hdr()->t_queue));
  queue_round_done(it.x, t_end);
}
#undef DS_PHASE_KERNEL

__global__ void __launch_bounds__(kWaveThreads) wave_flush(const WaveRep* reps, int n,
                                                           unsigned char* arena,
                                                           unsigned long long* words) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const WaveRep w = reps[i];
  Replica x = bind_replica(w.r, nullptr, w.batch, arena + w.off);
  flush_replica(x);
  if (x.hdr()->t_queue >= (uint32_t)c_views[w.batch].in.end_slot[w.r]) atomicAdd(words + 2, 1ull);
}

// The host's loop of one launch (backend_cuda.cu run_launches): n replicas (reps, on the
// device), their state blocks in `arena`; rounds until none is live or *host_stop is set
// (read between rounds, after between_rounds(ctx) where given); phases: the queue stage by
// slot phases, 1 block-local (wave_queue_phases), 2 phase kernels (wph_*). words as the persistent
// kernel's: [1] replica-slots, [2] replicas finished.
cudaError_t wave_run(cudaStream_t stream, const WaveRep* reps, int n, unsigned char* arena,
                     unsigned long long* words, const volatile int64_t* host_stop,
                     int phases, void (*between_rounds)(void*), void* ctx) {
  if (n <= 0) return cudaSuccess;
  int32_t *need = nullptr, *live = nullptr, *items = nullptr, *counts = nullptr;
  uint32_t *stop_at = nullptr, *horizon = nullptr;
  cudaError_t e = cudaSuccess;
  auto get = [&](auto** p, size_t count) {
    if (e == cudaSuccess) e = cudaMalloc((void**)p, count * sizeof(**p) + 16);
  };
  get(&need, (size_t)n);
  get(&live, (size_t)n);
  get(&items, (size_t)n * kMaxLanes);
  get(&counts, 2);
  get(&stop_at, (size_t)n);
  get(&horizon, (size_t)n);
  PhaseState ph{};  // (phases 2 only)
  if (phases == 2) {
    get(&ph.t, (size_t)n);
    get(&ph.t_end, (size_t)n);
    get(&ph.l0, (size_t)n);
    get(&ph.si, (size_t)n);
    get(&ph.act[0], (size_t)n);
    get(&ph.act[1], (size_t)n);
    get(&ph.q_src, (size_t)n);
    get(&ph.q_arr, (size_t)n);
    get(&ph.q_rest, (size_t)n);
    get(&ph.n, (size_t)kPhCounts);
  }
  int32_t host_counts[2] = {0, 0};  // (pageable: a synchronous copy a round)
  const unsigned rep_blocks = (unsigned)((n + kWaveThreads - 1) / kWaveThreads);
  const unsigned item_blocks = (unsigned)(((size_t)n * kMaxLanes + kWaveThreads - 1) / kWaveThreads);
  if (e == cudaSuccess) {
    wave_init<<<rep_blocks, kWaveThreads, 0, stream>>>(reps, n, arena, need, stop_at);
    e = cudaGetLastError();
  }
  while (e == cudaSuccess) {
    e = cudaMemsetAsync(counts, 0, 2 * sizeof(int32_t), stream);
    if (e != cudaSuccess) break;
    wave_plan<<<rep_blocks, kWaveThreads, 0, stream>>>(reps, n, arena, stop_at, horizon, live,
                                                       items, counts);
    // (a thread per possible item: those past the queue's length return at once)
    wave_flow<<<item_blocks, kWaveThreads, 0, stream>>>(reps, arena, horizon, need, items, counts);
    if (phases == 2) {
      e = cudaMemsetAsync(ph.n, 0, kPhCounts * sizeof(int32_t), stream);
      if (e != cudaSuccess) break;
      wph_start<<<rep_blocks, kWaveThreads, 0, stream>>>(reps, arena, live, counts, ph, words);
      // the round's live replicas and its longest run of slots: the slot loop's bounds (a
      // synchronous copy a round more, against 7 launches a slot)
      int32_t got[kPhCounts];
      e = cudaGetLastError();
      if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
      if (e == cudaSuccess) e = cudaMemcpy(got, ph.n, sizeof got, cudaMemcpyDeviceToHost);
      if (e == cudaSuccess) e = cudaMemcpy(host_counts, counts, sizeof host_counts, cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) break;
      const unsigned b = (unsigned)((host_counts[0] + kWaveThreads - 1) / kWaveThreads);
      for (int32_t k = 0; b > 0 && k < got[kPhLongest]; ++k) {
        const int par = k & 1;
        wph_begin<<<b, kWaveThreads, 0, stream>>>(reps, arena, live, ph, par);
        wph_sources<<<b, kWaveThreads, 0, stream>>>(reps, arena, live, ph, par);
        wph_front<<<b, kWaveThreads, 0, stream>>>(reps, arena, live, ph, par);
        wph_arrive<<<b, kWaveThreads, 0, stream>>>(reps, arena, live, ph, par);
        wph_quick<<<b, kWaveThreads, 0, stream>>>(reps, arena, live, ph, par);
        wph_rest<<<b, kWaveThreads, 0, stream>>>(reps, arena, live, ph, par);
        wph_end<<<b, kWaveThreads, 0, stream>>>(reps, arena, live, ph, par, words);
      }
    } else if (phases)
      wave_queue_phases<<<rep_blocks, kWaveThreads, 0, stream>>>(reps, arena, live, counts, words);
    else
      wave_queue<<<rep_blocks, kWaveThreads, 0, stream>>>(reps, arena, live, counts, words);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e == cudaSuccess) e = cudaMemcpy(host_counts, counts, sizeof host_counts, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess && between_rounds) between_rounds(ctx);
    if (e != cudaSuccess || host_counts[0] == 0 || (host_stop && *host_stop)) break;
  }
  if (e == cudaSuccess) {
    wave_flush<<<rep_blocks, kWaveThreads, 0, stream>>>(reps, n, arena, words);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  cudaFree(need);
  cudaFree(live);
  cudaFree(items);
  cudaFree(counts);
  cudaFree(stop_at);
  cudaFree(horizon);
  for (void* q : {(void*)ph.t, (void*)ph.t_end, (void*)ph.l0, (void*)ph.si,
                  (void*)ph.act[0], (void*)ph.act[1], (void*)ph.q_src, (void*)ph.q_arr,
                  (void*)ph.q_rest, (void*)ph.n})
    cudaFree(q);  // (cudaFree(nullptr) does nothing)
  return e;
}

cudaError_t wave_set_views(const BatchView* views, int n) {
  return cudaMemcpyToSymbol(c_views, views, sizeof(BatchView) * (size_t)n);
}

}  // namespace

WaveKernel DS_WAVE_KERNEL() { return WaveKernel{DS_WAVE_KERNEL_NAME, wave_set_views, wave_run}; }

}  // namespace ds
