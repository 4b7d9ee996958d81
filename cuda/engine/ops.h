// Small operations the model pieces share: staging an arrival, re-keying a flow in the tree.
#pragma once
#include "state.h"

namespace ds {

// A packet arriving at `link` in this slot. Arrivals are buffered and ordered (tie-break
// policy) before any queue sees them, so that processing order inside a slot — flow index,
// source index — cannot become a queueing bias (DESIGN: Within a slot).
DS_HD DS_INLINE void stage_arrival(Replica& x, Packet p, int link) {
  if (x.hdr->stage_count >= (uint32_t)x.shape.stage_cap) {
    x.out.overflow[0] |= kOvfStage;
    return;
  }
  p.link = (uint8_t)link;
  x.stage[x.hdr->stage_count++] = p;
}

DS_HD DS_INLINE uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

// The earliest slot at which flow f has something to do: a timer, an ACK reaching the
// sender, the access link freeing up, the receiver's delayed-ACK timer, or its start.
DS_HD DS_INLINE void rekey_flow(Replica& x, int f) {
  const FlowState& s = x.flows[f];
  uint32_t k = min_u32(min_u32(s.rto_due, s.wake_due), min_u32(s.start_due, s.delack_due));
  if (s.ack_count > 0) k = min_u32(k, x.acks[(size_t)f * x.shape.ack_cap + s.ack_head].due);
  x.tree.set(f, k);
}

}  // namespace ds
