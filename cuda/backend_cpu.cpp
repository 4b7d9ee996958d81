// The CPU backend: an OpenMP loop over a family's tasks (engine/family.h: replicas of all its
// batches, longest first; dynamic schedule), each task's replicas run to their end by one
// thread with their teams' lanes as a loop. Host arrays are used in place; the arena holds
// one state block per replica of a task, per thread.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/control.h"
#include "engine/family.h"
#include "engine/features.h"
#include "engine/team.h"

namespace ds {

namespace {

// A replica's queue side to the slowest lane's time (queue_phase); an overflow ends it (the
// host raises). Returns the slots it advanced.
uint32_t queue_step(Replica& x, const BatchView& view) {
  const uint32_t tq = x.hdr()->t_queue;
  if (!queue_phase(x)) x.hdr()->t_queue = (uint32_t)view.in.end_slot[x.r];
  return x.hdr()->t_queue - tq;
}

// Reports the replica-slots run since the last report once there are kPollSlots of them;
// true when the host asks the run to stop.
bool poll_control(int64_t* control, uint64_t& unreported) {
  if (!control || unreported < (uint64_t)kPollSlots) return false;
  ctl_add(control + kCtlSlotsDone, (int64_t)unreported);
  unreported = 0;
  return ctl_load(control + kCtlStop) != 0;
}

// The replicas' rounds as a warp runs them with warp_rounds (cuda/kernel.cuh): each round's
// horizon is the nearest of the live replicas' own (round_horizon, within each one's piece of
// `clip` slots), and every live replica that has not reached it runs the round to it, so the
// replicas step the same slots together. A replica ahead of the horizon waits a round; the
// nearest one always moves, so the loop ends. A schedule: no result depends on it.
void run_shared_rounds(Replica* xs, int32_t n, const BatchView& view, int64_t* control,
                       const int32_t* need, uint64_t clip) {
  std::vector<uint32_t> stop_at((size_t)n, 0);
  uint64_t unreported = 0;
  for (;;) {
    bool any = false;
    uint32_t h = 0xFFFFFFFFu;
    for (int32_t i = 0; i < n; ++i) {
      const uint32_t end = (uint32_t)view.in.end_slot[xs[i].r], tq = xs[i].hdr()->t_queue;
      if (tq >= end) continue;
      any = true;
      const uint32_t hi = piece_horizon(xs[i], stop_at[(size_t)i], clip, end);
      if (hi < h) h = hi;
    }
    if (!any) break;
    for (int32_t i = 0; i < n; ++i) {
      Replica& x = xs[i];
      const uint32_t tq = x.hdr()->t_queue;
      if (tq >= (uint32_t)view.in.end_slot[x.r] || tq >= h) continue;
      for (int k = 0; k < x.shape().lanes; ++k) flow_phase(x, k, h, need[i]);
      unreported += queue_step(x, view);
    }
    if (poll_control(control, unreported)) break;
  }
  if (control) ctl_add(control + kCtlSlotsDone, (int64_t)unreported);
}

// Each replica its own rounds, in pieces of `clip` slots (default kPollSlots) so that a stop
// request is seen within milliseconds, the replicas in turn.
void run_own_rounds(Replica* xs, int32_t n, const BatchView& view, int64_t* control,
                    const int32_t* need, uint64_t clip) {
  for (bool more = true, stop = false; more && !stop;) {
    more = false;
    for (int32_t i = 0; i < n && !stop; ++i) {
      Replica& x = xs[i];
      const uint32_t end = (uint32_t)view.in.end_slot[x.r];
      if (x.hdr()->t_queue >= end) continue;
      const uint32_t done = run_rounds(x, (uint64_t)x.hdr()->t_queue + clip, need[i]);
      more = more || x.hdr()->t_queue < end;
      if (control) {
        ctl_add(control + kCtlSlotsDone, done);
        stop = ctl_load(control + kCtlStop) != 0;
      }
    }
  }
}

// The wavefront's queue stage by slot phases (wave_phases; docs/design.md, "The slot
// phases"): a slot of every live replica at a time, each part of queue_slot
// (engine/queue_side.h) a stage over the replicas that need it, as the stage kernels'
// block-local queues run them (kernel_wave.cuh, wave_queue_phases):
//   slot_begin        every replica with slots left in its round;
//   slot_sources      those with a source on or switching (sources_due; compacted);
//   slot_front_end    every one;
//   slot_arrivals     those with arrivals staged (compacted);
//   serve_links_quick every one: the links' quick steps up to the first that needs more;
//   serve_links_from  those with such a link (compacted);
//   slot_serve_end    every one; its slot done.
// A replica's parts come in queue_slot's order, so the bits are queue_phase's. Adds the
// slots run to `unreported`; counts[0..3]: the stages' items (kCtlWaveSlotItems..).
void queue_stage_phases(Replica* xs, const std::vector<int32_t>& live, const BatchView& view,
                        uint64_t& unreported, int64_t* counts) {
  struct Item {
    int32_t i;
    uint32_t t0, t, t_end;
    SlotInputs si;
    int l0;
  };
  std::vector<Item> act;
  act.reserve(live.size());
  for (const int32_t i : live) {
    Replica& x = xs[i];
    const uint32_t tq = x.hdr()->t_queue;
    uint32_t t_end;
    if (!queue_round_end(x, t_end)) {  // an overflow ends it (the host raises), as queue_step
      x.hdr()->t_queue = (uint32_t)view.in.end_slot[x.r];
      unreported += x.hdr()->t_queue - tq;
      continue;
    }
    act.push_back(Item{i, tq, tq, t_end, slot_inputs(x), 0});
  }
  std::vector<Item*> some;
  some.reserve(act.size());
  while (!act.empty()) {
    counts[0] += (int64_t)act.size();
    for (Item& a : act) slot_begin(xs[a.i], a.t, a.t_end, a.si);
    some.clear();
    for (Item& a : act)
      if (sources_due(xs[a.i], a.t, a.si)) some.push_back(&a);
    counts[3] += (int64_t)some.size();
    for (Item* a : some) {
      slot_view(xs[a->i], a->t, a->si);
      slot_sources(xs[a->i], a->t, a->si);
    }
    for (Item& a : act) {
      slot_view(xs[a.i], a.t, a.si);
      slot_front_end(xs[a.i], a.t, a.si);
    }
    some.clear();
    for (Item& a : act)
      if (xs[a.i].hdr()->stage_count > 0) some.push_back(&a);
    counts[1] += (int64_t)some.size();
    for (Item* a : some) {
      slot_view(xs[a->i], a->t, a->si);
      slot_arrivals(xs[a->i], a->t);
    }
    some.clear();
    for (Item& a : act) {
      slot_view(xs[a.i], a.t, a.si);
      a.l0 = serve_links_quick(xs[a.i], a.si);
      if (a.l0 < a.si.n_links) some.push_back(&a);
    }
    counts[2] += (int64_t)some.size();
    for (Item* a : some) {
      slot_view(xs[a->i], a->t, a->si);
      serve_links_from(xs[a->i], a->l0, a->t, a->si);
    }
    size_t kept = 0;
    for (Item& a : act) {
      slot_view(xs[a.i], a.t, a.si);
      slot_serve_end(xs[a.i], a.t, a.si);
      if (++a.t < a.t_end) {
        act[kept++] = a;
        continue;
      }
      queue_round_done(xs[a.i], a.t_end);
      unreported += a.t_end - a.t0;
    }
    act.resize(kept);
  }
}

// The wavefront schedule (issue 51; docs/design.md, "The wavefront schedule"): the replicas
// of a task advance stage by stage rather than replica by replica, as stage kernels over
// compacted work would run them on a GPU (Laine, Karras & Aila 2013). Each round, three
// stages over all live replicas:
//   horizons:   each live replica's own (round_horizon within its piece of `clip` slots, as
//               run_own_rounds), so replicas need not be at the same slot;
//   flow side:  a work queue of the (replica, lane) items whose lane has a flow event before
//               its replica's horizon (lane_has_work), compacted; a lane without one is only
//               marked done to the horizon, which is all flow_phase would do. The queue holds
//               `wave_cap` items (0: all); it is filled, run and filled again until the
//               round's items are spent;
//   queue side: every live replica's queue_phase.
// A replica's own operations come in the replica-major loop's order (run_rounds: its lanes'
// flow phases, then its queue side; lanes are independent within a round, as on a GPU team),
// so no result depends on the batch, the queue's capacity or the order in which independent
// replicas pass a stage (`wave_order` 1 reverses it): tests/test_schedule.py. Counts what a
// stage kernel would be handed (kCtlWave*: functional counts, exact; no timing).
void run_wavefront(Replica* xs, int32_t n, const BatchView& view, int64_t* control,
                   const int32_t* need, uint64_t clip) {
  const int lanes = view.in.shape.lanes;
  const size_t cap = view.in.shape.wave_cap > 0 ? (size_t)view.in.shape.wave_cap : ~(size_t)0;
  const bool reverse = view.in.shape.wave_order != 0;
  const bool phases = view.in.shape.wave_phases != 0;
  int64_t phase_counts[4] = {0, 0, 0, 0};
  std::vector<uint32_t> stop_at((size_t)n, 0), horizon((size_t)n, 0);
  std::vector<int32_t> live;
  std::vector<int32_t> items;  // replica index * lanes + lane
  live.reserve((size_t)n);
  uint64_t unreported = 0;
  int64_t lane_rounds = 0, flow_items = 0, flow_events = 0, queue_items = 0;
  for (;;) {
    live.clear();
    for (int32_t j = 0; j < n; ++j) {
      const int32_t i = reverse ? n - 1 - j : j;
      const uint32_t end = (uint32_t)view.in.end_slot[xs[i].r], tq = xs[i].hdr()->t_queue;
      if (tq >= end) continue;
      horizon[(size_t)i] = piece_horizon(xs[i], stop_at[(size_t)i], clip, end);
      live.push_back(i);
    }
    if (live.empty()) break;
    lane_rounds += (int64_t)live.size() * lanes;
    // the flow stage: compaction into the bounded work queue, then the queue's items
    size_t next = 0;  // the next (live replica, lane) to consider
    const size_t n_lane_items = live.size() * (size_t)lanes;
    while (next < n_lane_items) {
      items.clear();
      for (; next < n_lane_items && items.size() < cap; ++next) {
        const int32_t i = live[next / (size_t)lanes];
        const int k = (int)(next % (size_t)lanes);
        if (lane_has_work(xs[i], k, horizon[(size_t)i]))
          items.push_back(i * lanes + k);
        else
          xs[i].lane_t()[k] = horizon[(size_t)i];
      }
      flow_items += (int64_t)items.size();
      for (const int32_t it : items) {
        const int32_t i = it / lanes;
        flow_events += flow_phase(xs[i], it % lanes, horizon[(size_t)i], need[i]);
      }
    }
    // the queue stage: each live replica's slots in turn, or a slot of all of them at a time
    queue_items += (int64_t)live.size();
    if (phases)
      queue_stage_phases(xs, live, view, unreported, phase_counts);
    else
      for (const int32_t i : live) unreported += queue_step(xs[i], view);
    if (poll_control(control, unreported)) break;
  }
  if (control) {
    ctl_add(control + kCtlSlotsDone, (int64_t)unreported);
    ctl_add(control + kCtlWaveLaneRounds, lane_rounds);
    ctl_add(control + kCtlWaveFlowItems, flow_items);
    ctl_add(control + kCtlWaveFlowEvents, flow_events);
    ctl_add(control + kCtlWaveQueueItems, queue_items);
    for (int c = 0; c < 4; ++c) ctl_add(control + kCtlWaveSlotItems + c, phase_counts[c]);
  }
}

// Runs n replicas of one batch, bound to their blocks, to their ends; where rounds and pieces
// end changes no result (tests/test_schedule.py).
void run_replicas(Replica* xs, int32_t n, const BatchView& view, int64_t* control) {
  std::vector<int32_t> need((size_t)n);
  for (int32_t i = 0; i < n; ++i) {
    init_replica(xs[i]);
    need[(size_t)i] = emit_need(xs[i]);
  }
  const uint64_t clip =
      view.in.shape.clip_slots > 0 ? (uint64_t)view.in.shape.clip_slots : ~(uint64_t)0 >> 1;
  if (view.in.shape.wavefront)
    run_wavefront(xs, n, view, control, need.data(), clip);
  else if (n > 1 && view.in.shape.warp_rounds)
    run_shared_rounds(xs, n, view, control, need.data(), clip);
  else
    run_own_rounds(xs, n, view, control, need.data(), clip);
  for (int32_t i = 0; i < n; ++i) {
    flush_replica(xs[i]);
    if (control && xs[i].hdr()->t_queue >= (uint32_t)view.in.end_slot[xs[i].r])
      ctl_add(control + kCtlReplicasDone, 1);
  }
}

}  // namespace

// This build's run of a family (run_family_cpu below chooses the build).
void run_family_engine(const std::vector<BatchInput>& in, std::vector<BatchOutput>& out,
                       int threads, int64_t* control, int replicas_per_task) {
#ifdef _OPENMP
  const int nt = threads > 0 ? threads : omp_get_max_threads();
#else
  const int nt = 1;
  (void)threads;
#endif
  const int per_task = std::max(1, replicas_per_task);
  const FamilyPlan plan = plan_family(in, [&](int) { return per_task; });
  if (plan.tasks.empty()) return;
  std::vector<BatchView> views;
  size_t stride = 64;
  for (size_t b = 0; b < in.size(); ++b) {
    views.push_back(make_view(in[b], out[b], make_layout(in[b].shape)));
    stride = std::max(stride, views.back().L.stride);
  }
  stride = (stride + 63) & ~(size_t)63;
  // One state block per replica of a task, per thread: a block is needed only while its
  // replica runs.
  const size_t per_thread = stride * (size_t)per_task;
  std::unique_ptr<unsigned char[]> arena(new unsigned char[per_thread * (size_t)nt + 64]);
  unsigned char* base = (unsigned char*)(((uintptr_t)arena.get() + 63) & ~(uintptr_t)63);
  const int64_t n_tasks = (int64_t)plan.tasks.size();
  // Tests: DIFFSWEEP_POISON_STATE=<byte> fills each task's state blocks with that byte before
  // its replicas are bound, so that a field init_replica leaves unset shows as other bits
  // (a block is reused by the thread's next task, and a GPU's is never cleared either).
  const char* poison_env = std::getenv("DIFFSWEEP_POISON_STATE");
  const int poison = poison_env ? (int)(std::strtol(poison_env, nullptr, 0) & 0xFF) : -1;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
  for (int64_t t = 0; t < n_tasks; ++t) {
    if (control && ctl_load(control + kCtlStop)) continue;  // slots_run stays 0: not run
#ifdef _OPENMP
    unsigned char* mine = base + per_thread * (size_t)omp_get_thread_num();
#else
    unsigned char* mine = base;
#endif
    const FamilyTask& task = plan.tasks[(size_t)t];
    const BatchView& view = views[(size_t)task.batch];
    if (poison >= 0) std::memset(mine, poison, stride * (size_t)task.count);
    if (task.count == 1) {
      Replica x = bind_replica(task_row(plan.order.data(), plan.order_off.data(), task, 0), &view,
                               task.batch, mine);
      run_replicas(&x, 1, view, control);
    } else {
      std::vector<Replica> xs;
      for (int32_t i = 0; i < task.count; ++i)
        xs.push_back(bind_replica(task_row(plan.order.data(), plan.order_off.data(), task, i),
                                  &view, task.batch, mine + stride * (size_t)i));
      run_replicas(xs.data(), task.count, view, control);
    }
  }
}

}  // namespace ds

#ifndef DS_CPU_CLASSIC_TU
#ifdef DS_CPU_CLASSIC_ENGINE
namespace ds_classic {  // backend_cpu_classic.cpp: this file built with DS_FEAT_NEW false
void run_family_engine(const std::vector<ds::BatchInput>& in, std::vector<ds::BatchOutput>& out,
                       int threads, int64_t* control, int replicas_per_task);
}  // namespace ds_classic
#endif

namespace ds {

// The engine a family runs on: "classic" (backend_cpu_classic.cpp, the CUDA classic kernel's
// build: every test of a model after ns-2's compiled out) when no replica of it uses one of
// those models, else "full"; DIFFSWEEP_CPU_ENGINE=full runs every family on the full build,
// to compare them (tests/test_cpu_engines.py). The same bits either way: the classic build
// is the full one with those tests false, which they are for such a replica.
const char* cpu_engine_name(const std::vector<BatchInput>& in) {
#ifdef DS_CPU_CLASSIC_ENGINE
  const char* forced = std::getenv("DIFFSWEEP_CPU_ENGINE");
  if (forced && std::strcmp(forced, "full") == 0) return "full";
  for (const BatchInput& b : in)
    if (batch_uses_features(b, true)) return "full";
  return "classic";
#else
  (void)in;
  return "full";
#endif
}

void run_family_cpu(const std::vector<BatchInput>& in, std::vector<BatchOutput>& out, int threads,
                    int64_t* control, int replicas_per_task) {
#ifdef DS_CPU_CLASSIC_ENGINE
  if (std::strcmp(cpu_engine_name(in), "classic") == 0) {
    ds_classic::run_family_engine(in, out, threads, control, replicas_per_task);
    return;
  }
#endif
  run_family_engine(in, out, threads, control, replicas_per_task);
}

}  // namespace ds
#endif
