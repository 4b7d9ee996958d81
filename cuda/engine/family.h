// A figure family as one engine job: the replicas of several batches (one per shape, no
// padding to the largest) in one work list, longest first, cut into tasks of replicas of one
// batch. On the GPU a task is what one warp runs (32 / lanes replicas, a team each); on the
// CPU a task is what one thread runs, its replicas stepped together piece by piece when a
// task holds more than one (tests drive 32 to run the GPU's grouping on the CPU). Results do
// not depend on the plan: each replica's outputs go to its own row, and nothing a replica
// computes depends on which replicas run beside it or when (tests/test_schedule.py).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "../batch.h"
#include "../core/hd.h"

namespace ds {

struct FamilyTask {
  int32_t batch;     // the batch (its view) the task's replicas belong to
  int32_t first;     // its replicas: order[order_off[batch] + first + i], i < count
  int32_t count;
  int32_t pad;
  int64_t arena_off; // CUDA: where its replicas' state blocks start in the launch's arena
};

struct FamilyPlan {
  std::vector<FamilyTask> tasks;    // longest first
  std::vector<int32_t> order;       // per batch, its replica rows longest first, batches in turn
  std::vector<int64_t> order_off;   // [batch]: where its rows start in `order`
};

// The batch row of a task's m-th replica (each batch's rows sit in `order` from order_off[batch],
// longest first): the CPU's and both CUDA schedules' binding of a task to its replicas.
DS_HD inline int32_t task_row(const int32_t* order, const int64_t* order_off, const FamilyTask& t,
                              int32_t m) {
  return order[order_off[t.batch] + t.first + m];
}

// The work a replica is, for ordering only: its slots, then its flows and sources (a warp or
// a thread is busy for its longest replica's slots, each costing more with more flows).
inline bool runs_longer(const BatchInput& a, int32_t ra, const BatchInput& b, int32_t rb) {
  if (a.end_slot[ra] != b.end_slot[rb]) return a.end_slot[ra] > b.end_slot[rb];
  return a.n_flows[ra] + a.n_sources[ra] > b.n_flows[rb] + b.n_sources[rb];
}

// per_task(b): replicas per task for batch b (>= 1).
template <class PerTask>
FamilyPlan plan_family(const std::vector<BatchInput>& in, PerTask per_task) {
  FamilyPlan p;
  for (size_t b = 0; b < in.size(); ++b) {
    p.order_off.push_back((int64_t)p.order.size());
    std::vector<int32_t> rows((size_t)in[b].shape.n_replicas);
    for (int32_t r = 0; r < in[b].shape.n_replicas; ++r) rows[(size_t)r] = r;
    const BatchInput& x = in[b];
    std::stable_sort(rows.begin(), rows.end(),
                     [&](int32_t u, int32_t v) { return runs_longer(x, u, x, v); });
    const int32_t k = std::max(1, per_task((int)b));
    for (int32_t i = 0; i < (int32_t)rows.size(); i += k)
      p.tasks.push_back(FamilyTask{(int32_t)b, i, std::min(k, (int32_t)rows.size() - i), 0, 0});
    p.order.insert(p.order.end(), rows.begin(), rows.end());
  }
  auto lead = [&](const FamilyTask& t) { return p.order[(size_t)(p.order_off[t.batch] + t.first)]; };
  std::stable_sort(p.tasks.begin(), p.tasks.end(), [&](const FamilyTask& s, const FamilyTask& t) {
    return runs_longer(in[s.batch], lead(s), in[t.batch], lead(t));
  });
  return p;
}

// The family's tasks (warps' worth of work) at most per_warp replicas per warp.
inline long long family_warps(const std::vector<BatchInput>& in, int per_warp) {
  long long warps = 0;
  for (const BatchInput& b : in) {
    const long long per = std::min(per_warp, std::max(1, 32 / std::max(1, (int)b.shape.lanes)));
    warps += (b.shape.n_replicas + per - 1) / per;
  }
  return warps;
}

// Replicas per warp on the GPU, at most (a task's replicas: min(32 / lanes, this)). A warp
// steps its replicas in SIMT: each slot it runs the union of their paths (an arrival here, a
// timeout there), so with 32 one-lane replicas per warp ~3 threads were active per instruction
// (H100, Nsight Compute, benchmarks/gpu/gpu.md) and a warp's slot cost several replicas' slots.
// A family of 10^3-10^4 replicas fills a few percent of the device's resident warps that way;
// fewer replicas per warp then cost no throughput and shorten every warp's chain (H200, the
// quick Kaur & Vin family: 32 / 8 / 4 / 2 / 1 a warp 27.3 / 20.2 / 13.9 / 10.7 / 8.2 s). So:
// the fewest with which every task of the family is resident at once, any number (the full
// family's 7,880 distinct one-lane replicas: 3 a warp, 2,631 tasks for an H100's 3,168
// warps, where powers of two gave 4); `requested` > 0 sets it (tests and
// benchmarks/gpu/spread.py). No result depends on it. (When even 32 leave tasks over, those wait
// for a warp to finish: a second wave.)
inline int spread_per_warp(const std::vector<BatchInput>& in, long long resident_warps,
                           int requested) {
  if (requested > 0) return std::min(32, requested);
  for (int k = 1; k < 32; ++k)
    if (family_warps(in, k) <= resident_warps) return k;
  return 32;
}

}  // namespace ds
