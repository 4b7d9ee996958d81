// Strict (non-preemptive) priority among a link's classes: the lowest non-empty class index
// sends next. Non-preemption is the link's rule (model/link.h): a packet whose transmission
// has begun finishes first, so EF waits at most for one best-effort packet on the wire.
#pragma once
#include "../core/hd.h"
#include "queue_droptail.h"

namespace ds {

DS_HD DS_INLINE int priority_pick(const ClassQueue* q, int n_classes) {
  for (int c = 0; c < n_classes; ++c)
    if (q[c].ring.count > 0) return c;
  return -1;
}

}  // namespace ds
