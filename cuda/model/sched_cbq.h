// Class-based isolation ("cbq"; Matta & Guo's separate pipes, after Floyd & Jacobson's CBQ):
// class c of a link has its own byte credit, share[c] * (the link's bytes per slot) added each
// slot, and its head packet leaves when that credit covers it, so a class never sends faster
// than its share. Classes are independent pipes: several may send in one slot, in class order.
//
// Idle cap: a class whose queue is empty at the end of a slot keeps no credit, so that at the
// next slot it has exactly one slot's share (the link's own rule, model/link.h): an idle class
// cannot burst later.
//
// Lending (per link): after every class has been served from its own credit, the credit left
// to the classes that are now empty (capacity they leave unused in this slot) is pooled and
// handed, whole, to the backlogged classes in class order: the first backlogged class adds
// the pool to its credit and sends what it can; if that empties it, what it has left passes
// on to the next backlogged class. Borrowed credit a class cannot use yet (its head is larger)
// stays with it, as its own would. Without lending the leftover of an empty class is lost.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "queue_droptail.h"

namespace ds {

struct CbqState {
  double credit[kMaxClasses];  // bytes class c may still send
};

DS_HD DS_INLINE void cbq_init(CbqState& s) {
  for (int c = 0; c < kMaxClasses; ++c) s.credit[c] = 0.0;
}

// Start of a slot: every class gets its share of the slot.
DS_HD DS_INLINE void cbq_add_credit(CbqState& s, const double* share, double per_slot,
                                    int n_classes) {
  for (int c = 0; c < n_classes; ++c) s.credit[c] += share[c] * per_slot;
}

// Lending: the credit of the classes that are empty now, taken from them.
DS_HD DS_INLINE double cbq_collect(CbqState& s, const ClassQueue* q, int n_classes) {
  double pool = 0.0;
  for (int c = 0; c < n_classes; ++c)
    if (q[c].ring.count == 0) {
      pool += s.credit[c];
      s.credit[c] = 0.0;
    }
  return pool;
}

// End of a slot: an empty class keeps nothing (the idle cap).
DS_HD DS_INLINE void cbq_end_slot(CbqState& s, const ClassQueue* q, int n_classes) {
  for (int c = 0; c < n_classes; ++c)
    if (q[c].ring.count == 0) s.credit[c] = 0.0;
}

}  // namespace ds
