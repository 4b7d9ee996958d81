// The backend-neutral driver: mirror the batch's arrays to the backend's memory, initialise
// every replica, advance all of them K slots per for_each (lockstep), copy results back.
// Backend B provides: to_device<T>(host ptr, n), to_host<T>(host ptr, dev ptr, n),
// alloc<T>(n), put<T>(const T&) -> T*, for_each(n, functor), finish().
#pragma once
#include <algorithm>

#include "step.h"

namespace ds {

// Host words touched by several threads: relaxed atomics (only counts and a flag).
DS_HD DS_INLINE int64_t ctl_load(int64_t* p) {
#ifdef __CUDA_ARCH__
  return *(volatile int64_t*)p;
#else
  return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}
DS_HD DS_INLINE void ctl_add(int64_t* p, int64_t v) {
#ifdef __CUDA_ARCH__
  atomicAdd((unsigned long long*)p, (unsigned long long)v);
#else
  __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

}  // namespace ds

namespace ds {

struct InitFn {
  const BatchInput* in;
  Layout L;
  unsigned char* arena;
  DS_HD void operator()(int32_t r) const {
    Replica x = bind_replica(r, in, L, arena);
    init_replica(x, L);
  }
};

struct AdvanceFn {
  const BatchInput* in;
  Layout L;
  unsigned char* arena;
  int64_t t0, t1;
  int64_t* control;  // host words (CPU backend); null where the host polls between launches
  DS_HD void operator()(int32_t r) const {
    Replica x = bind_replica(r, in, L, arena);
    if (!control) {
      advance_replica(x, t0, t1);
      return;
    }
    // In pieces of kPollSlots so that a stop request is seen within milliseconds.
    const int64_t end = t1 < x.in->end_slot[r] ? t1 : x.in->end_slot[r];
    for (int64_t a = t0; a < end; a += kPollSlots) {
      if (ctl_load(control + kCtlStop)) return;
      const int64_t b = a + kPollSlots < end ? a + kPollSlots : end;
      advance_replica(x, a, b);
      ctl_add(control + kCtlSlotsDone, b - a);
    }
    if (end >= x.in->end_slot[r] && t0 < end) ctl_add(control + kCtlReplicasDone, 1);
  }
};

// Copies each replica's counters from its block to the batch's output arrays.
struct FlushFn {
  const BatchInput* in;
  BatchOutput* out;
  Layout L;
  unsigned char* arena;
  DS_HD void operator()(int32_t r) const {
    Replica x = bind_replica(r, in, L, arena);
#define DS_FLUSH(name, T, dim)                                  \
    {                                                          \
      const size_t n = per_replica(x.shape, dim);              \
      for (size_t i = 0; i < n; ++i) out->name[r * n + i] = x.out.name[i]; \
    }
    DS_OUTPUT_FIELDS(DS_FLUSH)
#undef DS_FLUSH
  }
};

template <class B>
void run_batch_impl(B& be, const BatchInput& hin, BatchOutput& hout, int slots_per_launch,
                    int64_t* control) {
  const BatchShape& s = hin.shape;
  if (s.n_replicas <= 0) return;
  BatchInput din = hin;
  BatchOutput dout = hout;
#define DS_MIRROR_IN(name, T, dim) din.name = be.template to_device<T>(hin.name, dim_size(s, dim));
#define DS_MIRROR_OUT(name, T, dim) dout.name = be.template to_device<T>(hout.name, dim_size(s, dim));
  DS_INPUT_FIELDS(DS_MIRROR_IN)
  DS_OUTPUT_FIELDS(DS_MIRROR_OUT)
#undef DS_MIRROR_IN
#undef DS_MIRROR_OUT
  const BatchInput* pin = be.put(din);
  BatchOutput* pout = be.put(dout);
  const Layout L = make_layout(s);
  unsigned char* arena = be.template alloc<unsigned char>(L.stride * (size_t)s.n_replicas);
  be.for_each(s.n_replicas, InitFn{pin, L, arena});
  int64_t max_end = 0;
  for (int32_t r = 0; r < s.n_replicas; ++r) max_end = std::max(max_end, hin.end_slot[r]);
  // K slots per for_each. K <= 0: the whole run in one launch (the CPU default: lockstep buys
  // nothing on CPU cores, and one barrier per K slots stalls every thread whenever one is
  // descheduled on a busy machine).
  const int64_t K = slots_per_launch > 0 ? slots_per_launch : std::max<int64_t>(max_end, 1);
  int64_t* dctl = be.device_sees_host ? control : nullptr;
  for (int64_t t0 = 0; t0 < max_end; t0 += K) {
    if (control && !dctl && ctl_load(control + kCtlStop)) break;
    be.for_each(s.n_replicas, AdvanceFn{pin, L, arena, t0, t0 + K, dctl});
    if (control && !dctl) {  // the host counts for the device, one launch at a time
      be.sync();
      int64_t done = 0, finished = 0;
      for (int32_t r = 0; r < s.n_replicas; ++r) {
        const int64_t e = hin.end_slot[r];
        done += std::min(K, std::max<int64_t>(0, std::min(e, t0 + K) - t0));
        finished += (e > t0 && e <= t0 + K) ? 1 : 0;
      }
      ctl_add(control + kCtlSlotsDone, done);
      ctl_add(control + kCtlReplicasDone, finished);
    }
  }
  be.for_each(s.n_replicas, FlushFn{pin, pout, L, arena});
#define DS_COPY_BACK(name, T, dim) be.template to_host<T>(hout.name, dout.name, dim_size(s, dim));
  DS_OUTPUT_FIELDS(DS_COPY_BACK)
#undef DS_COPY_BACK
  be.finish();
}

inline size_t replica_state_bytes_impl(const BatchShape& s) { return make_layout(s).stride; }

}  // namespace ds
