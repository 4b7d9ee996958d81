// Per-class drop-tail queues of a link and the schedulers that pick among them.
// A class limit counts the packet being transmitted, as ns-2's queue limit does: a packet
// stays at the head of its queue until the link's byte credit covers it (model/link.h).
#pragma once
#include "../engine/ops.h"

namespace ds {

DS_HD DS_INLINE ClassQueue& class_queue(Replica& x, int l, int c) {
  return x.queues[l * kMaxClasses + c];
}
DS_HD DS_INLINE Packet* ring_of(Replica& x, int l, int c) {
  return x.qring + (size_t)(l * kMaxClasses + c) * x.shape.queue_cap;
}
DS_HD DS_INLINE uint32_t ring_mask(const Replica& x) { return (uint32_t)x.shape.queue_cap - 1; }

// Drop-tail admission (packets or bytes); returns false when the packet is dropped.
DS_HD inline bool drop_tail_accepts(const Replica& x, int l, int c, const ClassQueue& q,
                                    int bytes) {
  const size_t k = x.iLC(l, c);
  switch (x.in->class_limit_kind[k]) {
    case kLimitPkts: return q.count + 1 <= x.in->class_limit[k];
    case kLimitBytes: return q.bytes + bytes <= x.in->class_limit[k];
    default: return true;
  }
}

DS_HD inline bool enqueue(Replica& x, int l, int c, Packet p, uint32_t now) {
  ClassQueue& q = class_queue(x, l, c);
  if (!drop_tail_accepts(x, l, c, q, p.bytes)) return false;
  if (q.count >= x.shape.queue_cap) {  // only an unlimited class can get here
    x.out.overflow[0] |= kOvfQueueRing;
    return false;
  }
  p.t_enq = now;
  ring_of(x, l, c)[((uint32_t)q.head + (uint32_t)q.count) & ring_mask(x)] = p;
  q.count += 1;
  q.bytes += p.bytes;
  return true;
}

DS_HD DS_INLINE const Packet& queue_head(Replica& x, int l, int c) {
  return ring_of(x, l, c)[(uint32_t)class_queue(x, l, c).head];
}

DS_HD DS_INLINE Packet dequeue(Replica& x, int l, int c) {
  ClassQueue& q = class_queue(x, l, c);
  Packet p = ring_of(x, l, c)[(uint32_t)q.head];
  q.head = (int32_t)(((uint32_t)q.head + 1) & ring_mask(x));
  q.count -= 1;
  q.bytes -= p.bytes;
  return p;
}

// Which class sends next. A packet whose transmission has begun finishes first
// (non-preemptive priority: EF waits at most for one best-effort packet already on the wire).
// Strict priority: the lowest non-empty class index. WRR: `weight` packets per turn.
DS_HD inline int pick_class(Replica& x, int l) {
  LinkState& ls = x.links[l];
  if (ls.busy_cls >= 0) return ls.busy_cls;
  const int nc = x.in->link_n_classes[x.iL(l)];
  if (x.in->link_sched[x.iL(l)] == kSchedPriority) {
    for (int c = 0; c < nc; ++c)
      if (class_queue(x, l, c).count > 0) return c;
    return -1;
  }
  for (int k = 0; k < nc; ++k) {
    const int c = (ls.wrr_cls + k) % nc;
    if (class_queue(x, l, c).count == 0) continue;
    if (k > 0 || ls.wrr_left <= 0) {
      ls.wrr_cls = (int8_t)c;
      ls.wrr_left = x.in->class_weight[x.iLC(l, c)];
    }
    return c;
  }
  return -1;
}

DS_HD DS_INLINE void wrr_sent(Replica& x, int l, int c) {
  LinkState& ls = x.links[l];
  if (x.in->link_sched[x.iL(l)] == kSchedWrr && c == ls.wrr_cls) {
    ls.wrr_left -= 1;
    if (ls.wrr_left <= 0) {
      const int nc = x.in->link_n_classes[x.iL(l)];
      ls.wrr_cls = (int8_t)((c + 1) % nc);
      ls.wrr_left = x.in->class_weight[x.iLC(l, (c + 1) % nc)];
    }
  }
}

}  // namespace ds
