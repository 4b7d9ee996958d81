// The CPU backend: Thrust's OpenMP system runs one worker per thread (thrust::for_each over
// thread indices with thrust::omp::par); each worker takes replicas from a shared counter and
// runs each to its end with its team's lanes as a loop. Taking replicas one at a time keeps
// every thread busy to the end although replicas of one launch differ in flows and duration
// (a whole figure family); a static split of the replicas would not. Host arrays are used in
// place; the arena holds one state block per worker.
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>

#include <atomic>
#include <memory>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/control.h"
#include "engine/team.h"

namespace ds {
namespace {

struct Worker {
  const BatchInput* in;
  BatchOutput* out;
  Layout L;
  unsigned char* arena;
  std::atomic<int32_t>* next;
  int64_t* control;

  void operator()(int32_t w) const {
    unsigned char* block = arena + L.stride * (size_t)w;
    for (;;) {
      if (control && ctl_load(control + kCtlStop)) return;  // the rest keep slots_run = 0
      const int32_t r = next->fetch_add(1, std::memory_order_relaxed);
      if (r >= in->shape.n_replicas) return;
      Replica x = bind_replica(r, in, L, block);
      init_replica(x, L);
      const int32_t need = emit_need(x);
      const uint32_t end = (uint32_t)in->end_slot[r];
      while (x.hdr->t_queue < end) {
        // In pieces of kPollSlots so that a stop request is seen within milliseconds.
        const uint32_t done = run_rounds(x, (uint64_t)x.hdr->t_queue + kPollSlots, need);
        if (control) {
          ctl_add(control + kCtlSlotsDone, done);
          if (ctl_load(control + kCtlStop)) break;
        }
      }
      flush_replica(x, out);
      if (control && x.hdr->t_queue >= end) ctl_add(control + kCtlReplicasDone, 1);
    }
  }
};

}  // namespace

void run_batch_cpu(const BatchInput& in, BatchOutput& out, int threads, int64_t* control) {
  const BatchShape& s = in.shape;
  if (s.n_replicas <= 0) return;
#ifdef _OPENMP
  const int before = omp_get_max_threads();
  const int nt = threads > 0 ? threads : before;
  omp_set_num_threads(nt);
#else
  const int nt = 1;
  (void)threads;
#endif
  const int32_t workers = nt < s.n_replicas ? nt : s.n_replicas;
  const Layout L = make_layout(s);
  std::unique_ptr<unsigned char[]> arena(new unsigned char[L.stride * (size_t)workers + 64]);
  unsigned char* base = (unsigned char*)(((uintptr_t)arena.get() + 63) & ~(uintptr_t)63);
  std::atomic<int32_t> next{0};
  thrust::for_each(thrust::omp::par, thrust::counting_iterator<int32_t>(0),
                   thrust::counting_iterator<int32_t>(workers),
                   Worker{&in, &out, L, base, &next, control});
#ifdef _OPENMP
  omp_set_num_threads(before);
#endif
}

size_t replica_state_bytes(const BatchShape& shape) { return make_layout(shape).stride; }

}  // namespace ds
