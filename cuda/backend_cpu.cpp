// The CPU backend: an OpenMP loop over replicas (dynamic schedule: replicas of one launch may
// differ in flows and duration), each run to its end by one thread with its team's lanes as a
// loop. Host arrays are used in place; the arena holds one state block per thread.
#include <algorithm>
#include <memory>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/control.h"
#include "engine/team.h"

namespace ds {

void run_batch_cpu(const BatchInput& in, BatchOutput& out, int threads, int64_t* control) {
  const BatchShape& s = in.shape;
  if (s.n_replicas <= 0) return;
#ifdef _OPENMP
  const int nt = threads > 0 ? threads : omp_get_max_threads();
#else
  const int nt = 1;
  (void)threads;
#endif
  const Layout L = make_layout(s);
  const BatchView view = make_view(in, out, L);
  std::unique_ptr<unsigned char[]> arena(new unsigned char[L.stride * (size_t)nt + 64]);
  unsigned char* base = (unsigned char*)(((uintptr_t)arena.get() + 63) & ~(uintptr_t)63);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
  for (int32_t r = 0; r < s.n_replicas; ++r) {
    if (control && ctl_load(control + kCtlStop)) continue;  // slots_run stays 0: not run
#ifdef _OPENMP
    unsigned char* block = base + L.stride * (size_t)omp_get_thread_num();
#else
    unsigned char* block = base;
#endif
    Replica x = bind_replica(r, &view, 0, block);
    init_replica(x);
    const int32_t need = emit_need(x);
    const uint32_t end = (uint32_t)in.end_slot[r];
    const uint64_t clip = s.clip_slots > 0 ? (uint64_t)s.clip_slots : (uint64_t)end;
    while (x.hdr()->t_queue < end) {
      // In pieces of clip_slots (default kPollSlots) so that a stop request is seen within
      // milliseconds; where the pieces end changes no result (tests/test_schedule.py).
      const uint32_t done = run_rounds(x, (uint64_t)x.hdr()->t_queue + clip, need);
      if (control) {
        ctl_add(control + kCtlSlotsDone, done);
        if (ctl_load(control + kCtlStop)) break;
      }
    }
    flush_replica(x);
    if (control && x.hdr()->t_queue >= end) ctl_add(control + kCtlReplicasDone, 1);
  }
}

size_t replica_state_bytes(const BatchShape& shape) { return make_layout(shape).stride; }

std::vector<std::pair<std::string, size_t>> replica_state_sections(const BatchShape& shape) {
  std::vector<std::pair<std::string, size_t>> v;
  layout_sections(make_layout(shape), [&](const char* name, size_t bytes) { v.emplace_back(name, bytes); });
  return v;
}

}  // namespace ds
