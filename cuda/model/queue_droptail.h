// Drop-tail admission of one class queue, in packets or bytes. A class limit counts the
// packet being transmitted, as ns-2's queue limit does: a packet stays at the head of its
// queue until the link's byte credit covers it (model/link.h).
#pragma once
#include <cstdint>

#include "../core/hd.h"
#include "../batch.h"
#include "../core/ring.h"

namespace ds {

struct ClassQueue {  // one class on one link: a ring of packets and its byte count
  RingIdx ring;
  int64_t bytes;
  uint32_t since;  // its length-over-time integrals hold every measured slot before this one
                   // (engine/queue_side.h: occupancy_catch_up)
  uint32_t ring_mask;  // its ring's capacity - 1, and where the ring starts in the replica's
  int64_t ring_off;    // ring storage (packets): set once (init_replica) from the batch shape,
                       // read with the index the queue is reached through anyway
  // class_limit and class_limit_kind, copied once (init_replica) as two limits, the one the
  // kind does not name being kNoLimit: the test is then two comparisons and no branch on the
  // kind (drop_tail_fits), at every arrival
  int64_t limit_pkts;
  int64_t limit_bytes;
  // The waiting queue's adjustment (q_wait_adj_slots, engine/queue_side.h), summed here in the
  // order the engine adds its terms and folded into the output once (flush_replica): the hot
  // path adds to the line it has just touched, no output address, no replica index.
  double wait_adj;
  uint8_t pipe;  // the link is "cbq": this class's head is on its own pipe's wire (init_replica)
  uint8_t pad[7];
};

constexpr int64_t kNoLimit = INT64_MAX / 2;  // (bytes + a packet's never reach it)

// Would a packet of `pkt_bytes` be accepted by a queue holding `count` packets, `bytes` bytes?
DS_HD DS_INLINE bool drop_tail_accepts(uint8_t kind, int64_t limit, int32_t count,
                                       int64_t bytes, int32_t pkt_bytes) {
  switch (kind) {
    case kLimitPkts: return (int64_t)count + 1 <= limit;
    case kLimitBytes: return bytes + pkt_bytes <= limit;
    default: return true;
  }
}

// The engine's form of drop_tail_accepts: the kind folded once into a queue's two limits
// (drop_tail_limits, at init_replica), then drop_tail_fits gives the same answer at every
// arrival without a branch on the kind (tests/cpp/test_models.cpp checks them against each
// other around every limit).
DS_HD DS_INLINE void drop_tail_limits(uint8_t kind, int64_t limit, ClassQueue& q) {
  q.limit_pkts = kind == kLimitPkts ? limit : kNoLimit;
  q.limit_bytes = kind == kLimitBytes ? limit : kNoLimit;
}
DS_HD DS_INLINE bool drop_tail_fits(const ClassQueue& q, int32_t count, int64_t bytes,
                                    int32_t pkt_bytes) {
  return ((int64_t)count + 1 <= q.limit_pkts) & (bytes + pkt_bytes <= q.limit_bytes);
}

}  // namespace ds
