// CoDel, the Controlled Delay AQM (RFC 8289), for one class queue, as ns-3.44's CoDelQueueDisc
// does it (src/traffic-control/model/codel-queue-disc.cc, a port of Linux's codel.h). Plain
// state and pure functions; the engine (engine/queue_side.h: codel_take) calls codel_dequeue()
// when the link takes the class's next packet (RFC 8289 section 3: CoDel acts at dequeue) and
// the buffer limit at arrival stays a drop-tail limit (ns-3's MaxSize, an "Overlimit drop").
//
// Semantics (docs/model.md, "CoDel"):
//  * Time is ns-3's CoDel time: nanoseconds >> 10 (CODEL_SHIFT, units of 1.024 us) in a
//    uint32, compared as ns-3 does (CoDelTimeAfter & co.: the int64 difference, no wrap);
//    the engine converts its slot clock once per dequeue (codel_time).
//  * OkToDrop: a head whose sojourn is below `target`, or that leaves fewer than `min_bytes`
//    bytes behind it in the queue (ns-3's m_minBytes, 1500: no drop while the queue holds
//    less than an MTU), clears first_above_time; the first sojourn at or above target sets
//    first_above_time = now + interval; a later one at a time after it may drop (RFC 8289 3.3).
//  * The control law: the next drop interval / sqrt(count) after the last (RFC 8289 3.3),
//    in ns-3's fixed point: rec_inv_sqrt is 1/sqrt(count) in 16 bits, one Newton step per
//    count change (NewtonStep), and drop_next = t + interval * rec_inv_sqrt (ControlLaw, the
//    kernel's reciprocal_divide).
//  * Entering the dropping state drops the head; count restarts at count - last_count when
//    that is above 1 and the last drop_next is less than 16 intervals ago (RFC 8289 3.3,
//    "count - lastcount"), else at 1.
//  * In the dropping state every dequeue at or after drop_next drops the head and takes the
//    next, while it is still ok to drop and drop_next keeps passing (a while loop: several
//    drops in one dequeue); a head that is not ok to drop leaves the state. A dequeue that
//    finds the queue empty leaves the state too (ns-3's DoDequeue on an empty queue).
//  * ECN (ns-3 UseEcn, RFC 8289 section 5.3 / RFC 3168): where ns-3 marks instead of dropping,
//    codel_dequeue asks q.mark_head() first (the two places marked "ECN"): in the dropping state
//    a mark ends the dequeue with drop_next = control_law(now) (ns-3: ControlLaw(now, ...), not
//    of drop_next as after a drop); entering it, a marked head stays the packet sent. The mark
//    decision is the Q's, so that FQ-CoDel's queues reuse this function unchanged.
#pragma once
#include <cstdint>

#include "../core/hd.h"

namespace ds {

constexpr int kCodelShift = 10;        // ns-3 CODEL_SHIFT: CoDel time = ns >> 10
constexpr int kRecInvSqrtShift = 16;   // ns-3 REC_INV_SQRT_SHIFT: 32 - 16 bits of rec_inv_sqrt
constexpr uint16_t kRecInvSqrtOne = 0xFFFF;  // ~0U >> REC_INV_SQRT_SHIFT: 1/sqrt(1)

// One class queue's CoDel parameters, in CoDel time units (ns >> 10), from the RLC inputs.
struct CodelParams {
  uint32_t target;    // ns-3 Target (5 ms: 4882)
  uint32_t interval;  // ns-3 Interval (100 ms: 97656)
  int32_t min_bytes;  // ns-3 MinBytes (1500)
};

// One class queue's CoDel state (replica state, one per link class; ns-3's members).
struct CodelState {
  uint32_t count;             // m_count: drops since entering the dropping state (and before)
  uint32_t last_count;        // m_lastCount: count when the dropping state was last entered
  uint32_t first_above_time;  // m_firstAboveTime: 0, or when a drop may start
  uint32_t drop_next;         // m_dropNext
  uint16_t rec_inv_sqrt;      // m_recInvSqrt: 1/sqrt(count), 16-bit fixed point
  uint8_t dropping;           // m_dropping
  uint8_t pad;
};

DS_HD DS_INLINE void codel_init(CodelState& s) {
  s.count = 0;
  s.last_count = 0;
  s.first_above_time = 0;
  s.drop_next = 0;
  s.rec_inv_sqrt = kRecInvSqrtOne;
  s.dropping = 0;
  s.pad = 0;
}

// ns-3 CoDelTimeAfter / AfterEq / Before: the int64 difference of two CoDel times.
DS_HD DS_INLINE bool codel_after(uint32_t a, uint32_t b) { return (int64_t)a - (int64_t)b > 0; }
DS_HD DS_INLINE bool codel_after_eq(uint32_t a, uint32_t b) { return (int64_t)a - (int64_t)b >= 0; }
DS_HD DS_INLINE bool codel_before(uint32_t a, uint32_t b) { return (int64_t)a - (int64_t)b < 0; }

// A time of `slots` slots of `ns_per_slot` ns in CoDel units (ns-3 Time2CoDel: ns >> 10).
DS_HD DS_INLINE uint32_t codel_time(double slots, double ns_per_slot) {
  return (uint32_t)((uint64_t)(slots * ns_per_slot) >> kCodelShift);
}

// ns-3 NewtonStep: rec_inv_sqrt <- rec_inv_sqrt (3 - count rec_inv_sqrt^2) / 2 in fixed point.
DS_HD DS_INLINE uint16_t codel_newton_step(uint16_t rec_inv_sqrt, uint32_t count) {
  const uint32_t invsqrt = (uint32_t)rec_inv_sqrt << kRecInvSqrtShift;
  const uint32_t invsqrt2 = (uint32_t)(((uint64_t)invsqrt * invsqrt) >> 32);
  uint64_t val = (3ull << 32) - (uint64_t)count * invsqrt2;
  val >>= 2;  // (ns-3: avoid overflow)
  val = (val * invsqrt) >> (32 - 2 + 1);
  return (uint16_t)(val >> kRecInvSqrtShift);
}

// ns-3 ControlLaw: t + interval / sqrt(count), the division by the reciprocal (reciprocal_divide).
DS_HD DS_INLINE uint32_t codel_control_law(uint32_t t, uint32_t interval, uint16_t rec_inv_sqrt) {
  const uint32_t r = (uint32_t)rec_inv_sqrt << kRecInvSqrtShift;
  return t + (uint32_t)(((uint64_t)interval * r) >> 32);
}

// ns-3 OkToDrop for the packet just taken (have = false: the queue was empty), its `sojourn`
// (CoDel units) and the `bytes_left` behind it.
DS_HD DS_INLINE bool codel_ok_to_drop(const CodelParams& p, CodelState& s, bool have,
                                      uint32_t sojourn, int64_t bytes_left, uint32_t now) {
  if (!have) {
    s.first_above_time = 0;
    return false;
  }
  if (codel_before(sojourn, p.target) || bytes_left < (int64_t)p.min_bytes) {
    s.first_above_time = 0;  // went below: stays below for at least an interval
    return false;
  }
  if (s.first_above_time == 0) {  // just went above: may drop after an interval above
    s.first_above_time = now + p.interval;
    return false;
  }
  return codel_after(now, s.first_above_time);
}

// ns-3 DoDequeue at CoDel time `now`. Q is the class queue as CoDel sees it:
//   bool head(uint32_t& sojourn, int64_t& bytes_left)  the head's sojourn and the bytes behind
//                                                      it; false when the queue is empty
//   void drop_head()                                   drop the head (counted by the caller)
//   bool mark_head()                                   CE-mark the head instead (ECN: true
//                                                      when it was ECT and the queue marks)
// On return the head (if any) is the packet the link sends.
template <class Q>
DS_HD inline void codel_dequeue(const CodelParams& p, CodelState& s, uint32_t now, Q& q) {
  uint32_t sojourn = 0;
  int64_t left = 0;
  if (!q.head(sojourn, left)) {  // leave the dropping state when the queue is empty
    s.dropping = 0;
    return;
  }
  const bool ok = codel_ok_to_drop(p, s, true, sojourn, left, now);
  if (s.dropping) {
    if (!ok) {  // sojourn fell below target: leave the dropping state
      s.dropping = 0;
    } else {
      while (s.dropping && codel_after_eq(now, s.drop_next)) {
        s.count += 1;
        s.rec_inv_sqrt = codel_newton_step(s.rec_inv_sqrt, s.count);
        // ECN: ns-3 marks here instead (drop_next = control_law(now, ...), and stops)
        if (q.mark_head()) {
          s.drop_next = codel_control_law(now, p.interval, s.rec_inv_sqrt);
          return;
        }
        q.drop_head();
        const bool have = q.head(sojourn, left);
        if (!codel_ok_to_drop(p, s, have, sojourn, left, now))
          s.dropping = 0;
        else
          s.drop_next = codel_control_law(s.drop_next, p.interval, s.rec_inv_sqrt);
      }
    }
  } else if (ok) {
    // ECN: ns-3 marks the head here instead of dropping it
    if (!q.mark_head()) {
      q.drop_head();
      const bool have = q.head(sojourn, left);
      codel_ok_to_drop(p, s, have, sojourn, left, now);
    }
    s.dropping = 1;
    // a new dropping state soon after the last one starts from the drop rate that controlled
    // the queue then (RFC 8289 3.3; ns-3: int delta = m_count - m_lastCount)
    const int32_t delta = (int32_t)(s.count - s.last_count);
    if (delta > 1 && codel_before(now - s.drop_next, 16u * p.interval)) {
      s.count = (uint32_t)delta;
      s.rec_inv_sqrt = codel_newton_step(s.rec_inv_sqrt, s.count);
    } else {
      s.count = 1;
      s.rec_inv_sqrt = kRecInvSqrtOne;
    }
    s.last_count = s.count;
    s.drop_next = codel_control_law(now, p.interval, s.rec_inv_sqrt);
  }
}

}  // namespace ds
