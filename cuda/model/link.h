// A link: byte-credit service, non-preemptive choice of class, and a delay line to the next
// hop (DESIGN: Links). Each slot adds rate*slot bytes of credit; the head packet leaves when
// the credit covers it; an idle link keeps at most one slot's worth, so a packet reaching an
// idle link leaves after its own transmission time, not earlier.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "../core/ring.h"
#include "sched_cbq.h"
#include "sched_priority.h"
#include "sched_wrr.h"

namespace ds {

// LinkState::deq: the rare steps a departure from the link takes (init_replica)
constexpr uint8_t kDeqRed = 1;   // a class has RED, RIO or WRED: its idle time (red_dequeued)
constexpr uint8_t kDeqPie = 2;   // a class has PIE: its delay estimate (pie_depart)
constexpr uint8_t kDeqHist = 4;  // the queueing-delay histogram (f_qhist)
enum LinkTake : uint8_t { kLinkTakeCodel = 1, kLinkTakeFq = 2 };  // LinkState::codel's bits

struct LinkState {
  double credit;    // bytes the link may still send
  int32_t busy_cls;    // class whose head packet is being transmitted; -1 = none (non-preemptive)
  int32_t idle;        // no packet queued at the end of the last slot
  int32_t wire_bytes;  // the size of that head packet (while busy_cls >= 0)
  // The link's inputs read in every slot or packet, copied here once (init_replica): one
  // load from the line just touched instead of a walk through the batch's arrays.
  int32_t sched;          // link_sched (batch.h Sched)
  double bytes_per_slot;  // link_bytes_per_slot
  double loss_prob;       // link_loss_prob
  int32_t n_classes;      // link_n_classes
  // Rare models, copied here (init_replica) so that the hot paths test a line already loaded:
  uint8_t codel;          // serve_link's dequeue step (codel_take): kLinkTakeCodel, a class of
                          // this link has CoDel (f_codel); kLinkTakeFq, FQ-CoDel (f_fqcodel)
  uint8_t deq;            // link_send's rare steps, one test for all: kDeqRed | kDeqPie | kDeqHist
  uint8_t pie;            // a class of this link has PIE (f_pie): pie_updates
  uint8_t fq;             // 1 + the link's FQ-CoDel class (f_fqcodel), 0: none (fq_side.h)
  uint8_t devq_cap;       // its device queue's capacity (link_devq_pkts; one class), 0: none
  uint8_t devq_n;         // the packets in it: the class ring's places after the wire's
                          // (engine/queue_side.h: devq_fill)
  uint32_t wire_since;    // the slot at whose end busy_cls's head was first on the wire,
                          // the first measured slot for a head that started before it
                          // (engine/queue_side.h: wire_start, the waiting-queue integral)
  double wire_phase;      // that head's start place in its slot less 1/2 (0: not counted)
  WrrState wrr;
  CbqState cbq;     // per-class credit ("cbq")
  RingIdx dline;    // delay line to the next hop
};

DS_HD DS_INLINE void link_init(LinkState& ls, const int32_t* weight) {
  ls.credit = 0.0;
  ls.busy_cls = -1;
  ls.wire_bytes = 0;
  ls.wire_since = 0;
  ls.wire_phase = 0.0;
  ls.idle = 1;
  ls.codel = ls.deq = ls.pie = ls.fq = 0;  // (init_replica sets them from the features)
  ls.devq_cap = ls.devq_n = 0;
  wrr_init(ls.wrr, weight);
  cbq_init(ls.cbq);
  ring_clear(ls.dline);
}

// Start of a slot's service: add this slot's credit (capped while idle).
DS_HD DS_INLINE void link_add_credit(LinkState& ls, double per_slot) {
  ls.credit += per_slot;
  if (ls.idle && ls.credit > per_slot) ls.credit = per_slot;
}

// End of a slot's service: idle when nothing is on the wire and every class is empty.
DS_HD DS_INLINE void link_end_slot(LinkState& ls, const ClassQueue* q) {
  bool idle = ls.busy_cls < 0;
  for (int c = 0; c < kMaxClasses && idle; ++c) idle = q[c].ring.count == 0;
  ls.idle = idle ? 1 : 0;
}

}  // namespace ds
