// Random Early Detection and its colour-aware variants for one class queue (ns-2.35 RED,
// red.cc, and the DiffServ module's multi-RED, dsredq.cc): RED, RIO-C (coupled), RIO-D
// (decoupled) and WRED. Plain state and pure functions; the engine (engine/queue_side.h) calls
// red_arrival() before the drop-tail limit (which stays the buffer size: its overflow is a
// forced drop), red_enqueued() when the packet is queued and red_dequeued() when it leaves.
//
// Semantics (docs/model.md, "RED, RIO and WRED"):
//  * kAqmRed follows red.cc (REDQueue::enque, estimator, drop_early, calculate_p_new,
//    modify_p): one average over the whole class queue, gentle_, wait_, bytes_, old_, and
//    count_ (count_bytes_ in bytes mode) incremented on every arrival.
//  * Two byte settings, as red.cc keeps them apart: queue_in_bytes_ (qib_; `qib` here) makes
//    the averaged queue count bytes (enque: estimator(qib_ ? byteLength() : length(), ...);
//    the thresholds and the limit, scaled by mean_pktsize_ in reset() and enque(), are given
//    in that unit by the caller); bytes_ (edp_.bytes; `bytes` here) makes modify_p() count
//    count_bytes_ / mean_pktsize_ and scale p by size / mean_pktsize_. ns-default.tcl sets
//    both true; either may be set alone.
//  * kAqmRioC / kAqmRioD / kAqmWred follow dsredq.cc (redQueue::enque, calcAvg,
//    updateREDStateVar, updateIdleFlag): no gentle, no wait, a per-precedence count set to -1
//    while the average is at or below min_th, p_a = p_b / (1 - count p_b) with no clamp.
//  * The queue averaged: RED and WRED the whole class queue (sum over colours); RIO-D the
//    packet's own colour's virtual queue; RIO-C colour k averages n[0..k] (green = 0 is the
//    most protected). A RIO-C arrival of colour c updates the averages of colours c..2 (every
//    average whose queue contains colour c), as dsredq.cc's enque loops i = prec..numPrec-1.
//  * ns-2 counts only waiting packets; diffsweep keeps the packet being transmitted at the head
//    of its queue until it leaves, so the engine takes it out of n[]/b[] around red_arrival()
//    (engine/queue_side.h: arrive).
//  * Idle (multi-RED): one explicit flag per average, as dsredq.cc keeps idle_[prec]: set by a
//    departure that empties the averaged queue, cleared when a packet of that queue is
//    accepted (updateIdleFlag). Not derived from n[]: with the packet on the wire left out of
//    n[], an arrival behind the last packet would find n[] empty and take the idle period
//    before that packet's arrival a second time (ns-2: idle since that packet's dequeue, m = 0).
//    The idle period starts when the last packet started its transmission (dsredq.cc marks a
//    virtual queue idle at the dequeue, updateREDStateVar); RED's when it ended (red.cc: the
//    deque() that finds the queue empty). benchmarks/ns2/gaps/rossi_red_replay.py.
//  * Buffer overflow: red.cc updates the average first, then drops (forced) and resets count_;
//    the engine does the same for kAqmRed by calling red_overflow() after red_arrival().
//    dsredq.cc refuses an overflowing packet before touching any RED state, so for RIO/WRED
//    the engine should test the buffer first and call red_arrival() only when it fits.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"

namespace ds {

// One class queue's RED parameters (gathered from the RLC / RLCK input arrays). Thresholds
// are in packets, or in bytes when `qib` is set; index = colour (drop precedence).
struct RedParams {
  uint8_t aqm;               // Aqm (kAqmRed .. kAqmWred); kAqmRed reads index 0 only
  uint8_t gentle;            // ns-2 gentle_: p rises from max_p to 1 between max_th and 2 max_th
  uint8_t wait;              // ns-2 wait_: wait between drops (count-based spacing)
  uint8_t bytes;             // ns-2 bytes_: count in bytes, p scaled by size (modify_p)
  uint8_t qib;               // ns-2 queue_in_bytes_: the averaged queue (and thresholds) in bytes
  double w_q;                // EWMA weight (ns-2 q_weight_)
  double ptc;                // link rate in mean-size packets per slot (idle-time correction)
  double mean_pkt_bytes;     // ns-2 mean_pktsize_
  // per colour, kMaxColours each: pointers into the batch's inputs rather than copies, so that
  // indexing them by a packet's colour does not put an array in a GPU thread's local memory
  const double* min_th;
  const double* max_th;
  const double* max_p;
};

// One class queue's RED state (replica state, one per link class).
struct RedState {
  double avg[kMaxColours];      // EWMA per colour (RED, WRED: avg[0] is the one average)
  int32_t count[kMaxColours];   // packets since the last drop (ns-2 count_), per colour;
                                // kAqmRed in bytes mode: bytes (ns-2 count_bytes_)
  uint8_t old[kMaxColours];     // ns-2 old_: the average was above min_th at the last arrival
  uint8_t vq_idle[kMaxColours];  // RIO-D: colour c's virtual queue idle (dsredq idle_[c])
  uint8_t cq_idle[kMaxColours];  // RIO-C: average c over n[0..c] idle; WRED: [kMaxColours-1]
  uint8_t idle;                 // the queue has been empty since idle_since
  double idle_since;            // slot time it went idle
  int32_t n[kMaxColours];       // packets queued per colour (virtual queues)
  int64_t b[kMaxColours];       // bytes queued per colour
  // Added for RIO and WRED (dsredq.cc keeps an idle flag and time per precedence): the slot
  // times the flags above were set (the start of the last packet's transmission).
  double vq_idle_since[kMaxColours];  // RIO-D: n[c] == 0 since
  double cq_idle_since[kMaxColours];  // RIO-C: n[0..c] all 0 since; WRED: [kMaxColours-1]
};

enum RedVerdict : uint8_t { kRedAccept = 0, kRedEarly = 1, kRedForced = 2 };

// Functions, all DS_HD inline (defined in this file):
//   void red_init(RedState& s);
//   uint8_t red_arrival(const RedParams& p, RedState& s, uint8_t colour, int bytes,
//                       double now, double u);   // updates the averages, returns RedVerdict
//   void red_enqueued(RedState& s, uint8_t colour, int bytes);
//   void red_dequeued(RedState& s, uint8_t colour, int bytes, double start, double end);
//                                     // the transmission's start and end; idle if empty
//   double red_avg_of(const RedParams& p, const RedState& s, uint8_t colour); // for outputs
//   void red_overflow(const RedParams& p, RedState& s, uint8_t colour);  // buffer-full drop

DS_HD DS_INLINE void red_init(RedState& s) {
  for (int c = 0; c < kMaxColours; ++c) {
    s.avg[c] = 0.0;
    s.count[c] = 0;
    s.old[c] = 0;
    s.vq_idle[c] = 1;  // dsredq config(): idle_ = 1, idletime_ = now (0)
    s.cq_idle[c] = 1;
    s.n[c] = 0;
    s.b[c] = 0;
    s.vq_idle_since[c] = 0.0;
    s.cq_idle_since[c] = 0.0;
  }
  s.idle = 1;
  s.idle_since = 0.0;
}

namespace detail {

DS_HD DS_INLINE int red_colour(uint8_t colour) {
  return colour < kMaxColours ? (int)colour : kMaxColours - 1;
}

// ns-2's m: the number of mean-size packets the link could have sent while the queue was idle,
// int(ptc * (now - idle_since)), truncated toward zero. Capped at 2^30 (far past the point where
// (1 - w_q)^m underflows for any usable w_q) so the int conversion cannot overflow.
DS_HD DS_INLINE int64_t red_idle_pkts(double ptc, double idle_time) {
  double m = ptc * idle_time;
  if (!(m > 0.0)) return 0;
  if (m > 1073741824.0) m = 1073741824.0;
  return (int64_t)m;
}

// ns-2 estimator(nq, k, ave, q_w) without the final "+ q_w * nq": ave * (1 - q_w)^k, k >= 1.
// Up to 64 factors are applied one at a time as ns-2's loop does (same rounding); a longer
// idle period uses binary powering (deterministic IEEE products, O(log k)).
DS_HD DS_INLINE double red_decay(double ave, int64_t k, double w) {
  const double f = 1.0 - w;
  if (k <= 64) {
    for (int64_t i = 0; i < k; ++i) ave *= f;
    return ave;
  }
  double r = 1.0, x = f;
  while (k > 0) {
    if (k & 1) r *= x;
    x *= x;
    k >>= 1;
  }
  return ave * r;
}

DS_HD DS_INLINE int32_t red_count_add(int32_t c, int32_t d) {  // saturating (ns-2: int)
  return (int64_t)c + d > 2147483647 ? 2147483647 : c + d;
}

// red.cc calculate_p_new(), in its own arithmetic (v_a, v_b, v_c, v_d of REDQueue::reset()).
DS_HD DS_INLINE double red_calculate_p(double ave, double min_th, double max_th, double max_p,
                                       bool gentle) {
  double p;
  if (gentle && ave >= max_th) {
    const double v_c = (1.0 - max_p) / max_th;
    const double v_d = 2.0 * max_p - 1.0;
    p = v_c * ave + v_d;  // max_p at max_th, 1 at 2 max_th
  } else if (!gentle && ave >= max_th) {
    p = 1.0;
  } else {
    double th_diff = max_th - min_th;
    if (th_diff == 0.0) th_diff = 1.0;
    const double v_a = 1.0 / th_diff;
    const double v_b = -min_th / th_diff;
    p = v_a * ave + v_b;
    p *= max_p;
  }
  if (p > 1.0) p = 1.0;
  return p;
}

// red.cc modify_p(): uniform instead of geometric inter-drop spacing. `count` is count_ (or
// count_bytes_ when bytes: count1 = count_bytes / mean_pktsize, truncated as ns-2's int
// division), then p scaled by size / mean_pktsize in bytes mode.
DS_HD DS_INLINE double red_modify_p(double p, int32_t count, bool bytes, double mean,
                                    bool wait, int size) {
  double count1 = (double)count;
  if (bytes) count1 = (double)(int64_t)((double)count / mean);
  if (wait) {
    if (count1 * p < 1.0)
      p = 0.0;
    else if (count1 * p < 2.0)
      p /= (2.0 - count1 * p);
    else
      p = 1.0;
  } else {
    if (count1 * p < 1.0)
      p /= (1.0 - count1 * p);
    else
      p = 1.0;
  }
  if (bytes && p < 1.0) p = (p * size) / mean;
  if (p > 1.0) p = 1.0;
  return p;
}

// kAqmRed: red.cc REDQueue::enque + drop_early, on the whole class queue, index 0.
template <class Draw>
DS_HD DS_INLINE uint8_t red_arrival_red(const RedParams& p, RedState& s, int bytes, double now,
                                        const Draw& u) {
  double q = 0.0;
  for (int c = 0; c < kMaxColours; ++c) q += p.qib ? (double)s.b[c] : (double)s.n[c];
  int64_t m = 0;
  if (s.idle) {  // red.cc clears idle_ on any arrival, dropped or not
    s.idle = 0;
    m = red_idle_pkts(p.ptc, now - s.idle_since);
  }
  s.avg[0] = red_decay(s.avg[0], m + 1, p.w_q) + p.w_q * q;
  const double ave = s.avg[0];
  // count_ and count_bytes_ tally every arrival since the last drop.
  s.count[0] = red_count_add(s.count[0], p.bytes ? bytes : 1);
  uint8_t verdict = kRedAccept;
  if (ave >= p.min_th[0] && q > 1.0) {
    if ((!p.gentle && ave >= p.max_th[0]) || (p.gentle && ave >= 2.0 * p.max_th[0])) {
      verdict = kRedForced;
    } else if (s.old[0] == 0) {
      // First arrival with the average above min_th (or after a near-empty queue): no drop,
      // the count restarts at this packet.
      s.count[0] = p.bytes ? bytes : 1;
      s.old[0] = 1;
    } else {
      const double pb = red_calculate_p(ave, p.min_th[0], p.max_th[0], p.max_p[0], p.gentle);
      const double pa = red_modify_p(pb, s.count[0], p.bytes, p.mean_pkt_bytes, p.wait, bytes);
      if (u() <= pa) {
        s.count[0] = 0;
        verdict = kRedEarly;
      }
    }
  } else {
    s.old[0] = 0;
  }
  if (verdict == kRedForced) s.count[0] = 0;  // red.cc (ns1_compat_ off)
  return verdict;
}

// One dsredq.cc calcAvg(i, m + 1) with the idle correction of enque(): returns the new average.
DS_HD DS_INLINE double red_mred_avg(const RedParams& p, const RedState& s, double ave,
                                    bool idle, double since, double now, int lo, int hi) {
  const int64_t m = idle ? red_idle_pkts(p.ptc, now - since) : 0;
  double f = red_decay(ave, m + 1, p.w_q);
  for (int j = lo; j <= hi; ++j)  // "f += q_w * qlen" per virtual queue, as calcAvg adds them
    f += p.w_q * (p.qib ? (double)s.b[j] : (double)s.n[j]);
  return f;
}

// RIO-C, RIO-D, WRED: dsredq.cc redQueue::enque (non-ECN).
template <class Draw>
DS_HD DS_INLINE uint8_t red_arrival_mred(const RedParams& p, RedState& s, int c, int bytes,
                                         double now, const Draw& u) {
  if (p.aqm == kAqmRioC) {
    // Every average whose queue holds colour c: i = c .. kMaxColours-1, average i over n[0..i].
    for (int i = c; i < kMaxColours; ++i)
      s.avg[i] = red_mred_avg(p, s, s.avg[i], s.cq_idle[i] != 0, s.cq_idle_since[i], now, 0, i);
  } else if (p.aqm == kAqmRioD) {
    s.avg[c] = red_mred_avg(p, s, s.avg[c], s.vq_idle[c] != 0, s.vq_idle_since[c], now, c, c);
  } else {  // WRED: one average over the whole queue, copied to every precedence
    constexpr int top = kMaxColours - 1;  // its idle flag: the whole-queue one of RIO-C
    const double a = red_mred_avg(p, s, s.avg[0], s.cq_idle[top] != 0, s.cq_idle_since[top],
                                  now, 0, top);
    for (int i = 0; i < kMaxColours; ++i) s.avg[i] = a;
  }
  const double ave = s.avg[c];
  if (ave > p.min_th[c]) {
    if (ave <= p.max_th[c]) {
      s.count[c] = red_count_add(s.count[c], 1);
      const double pb = p.max_p[c] * (ave - p.min_th[c]) / (p.max_th[c] - p.min_th[c]);
      // No clamp, as in dsredq.cc: count*pb == 1 gives +inf (drop), beyond 1 a negative p_a
      // (no early drop until the count is reset).
      double pa = pb / (1.0 - (double)s.count[c] * pb);
      if (p.bytes && pa < 1.0) pa = (pa * bytes) / p.mean_pkt_bytes;  // diffsweep extension
      if (u() <= pa) {
        s.count[c] = 0;
        return kRedEarly;
      }
    } else {
      s.count[c] = 0;
      return kRedForced;
    }
  } else {
    s.count[c] = -1;
  }
  // Accepted: dsredq.cc updateIdleFlag(): RIO-C clears the averages c.. (WRED reads the last
  // of them), RIO-D colour c's. (s.idle, RED's flag, is kept as well; nothing reads it here.)
  for (int i = c; i < kMaxColours; ++i) s.cq_idle[i] = 0;
  s.vq_idle[c] = 0;
  s.idle = 0;
  return kRedAccept;
}

}  // namespace detail

// An arriving packet of `colour` and `bytes` at slot time `now`, `u` a uniform draw in (0, 1):
// updates the average(s) and the count, returns kRedAccept, kRedEarly (probabilistic drop) or
// kRedForced (average beyond the drop region). The caller queues an accepted packet with
// red_enqueued() (and applies the buffer limit; see red_overflow()).
// `draw()` is called only when a drop probability has to be tested (the engine's draws are
// counter-based: drawing only when needed keeps the cost off the common accept path).
template <class Draw>
DS_HD DS_INLINE uint8_t red_arrival(const RedParams& p, RedState& s, uint8_t colour, int bytes,
                                    double now, const Draw& draw) {
  if (p.aqm == kAqmRed) return detail::red_arrival_red(p, s, bytes, now, draw);
  return detail::red_arrival_mred(p, s, detail::red_colour(colour), bytes, now, draw);
}

DS_HD DS_INLINE uint8_t red_arrival(const RedParams& p, RedState& s, uint8_t colour, int bytes,
                                    double now, double u) {
  return red_arrival(p, s, colour, bytes, now, [u]() { return u; });
}

// A packet that red_arrival() accepted was refused by the buffer limit: red.cc counts it a
// forced drop and resets count_ (and count_bytes_). dsredq.cc never reaches its RED state for
// such a packet (the engine tests the buffer before red_arrival() there): nothing to do.
DS_HD DS_INLINE void red_overflow(const RedParams& p, RedState& s, uint8_t colour) {
  (void)colour;
  if (p.aqm == kAqmRed) s.count[0] = 0;
}

DS_HD DS_INLINE void red_enqueued(RedState& s, uint8_t colour, int bytes) {
  const int c = detail::red_colour(colour);
  s.n[c] += 1;
  s.b[c] += bytes;
}

// A packet of `colour` left the queue: its transmission ran from slot time `start` to `end`.
//  * Whole queue empty: idle = 1, idle_since = end (red.cc deque() finding the queue empty
//    once the link has sent it; RED).
//  * RIO-D: colour c's virtual queue idle (vq_idle[c]) since `start` when n[c] reaches 0
//    (dsredq.cc updateREDStateVar sets idle_[prec], idletime_ = now at the dequeue that leaves
//    qlen[prec] = 0, i.e. when the packet goes on the wire; updateIdleFlag clears it when a
//    packet of prec is accepted: red_arrival).
//  * RIO-C: average i idle (cq_idle[i]) since `start` when n[0..i] are all 0 and i >= c
//    (updateREDStateVar: when qlen[prec] reaches 0 and every more protected qlen is 0, mark
//    i = prec, prec+1, ... idle until the first non-empty one; updateIdleFlag clears i >= prec).
//    WRED uses the last of these, the whole queue's.
// The flags are kept, not derived from n[]: while the last packet is on the wire the engine
// leaves it out of n[] around red_arrival(), and an arrival then must find the average busy
// (ns-2: idle since that packet's dequeue, m = int(ptc (now - start)) = 0 for a packet up to
// the mean size), not idle since the queue's previous idle period.
DS_HD DS_INLINE void red_dequeued(RedState& s, uint8_t colour, int bytes, double start,
                                  double end) {
  const int c = detail::red_colour(colour);
  s.n[c] -= 1;
  s.b[c] -= bytes;
  if (s.n[c] != 0) return;
  s.vq_idle[c] = 1;
  s.vq_idle_since[c] = start;
  int32_t prefix = 0;
  for (int i = 0; i < kMaxColours; ++i) {
    prefix += s.n[i];
    if (i >= c && prefix == 0) {
      s.cq_idle[i] = 1;
      s.cq_idle_since[i] = start;
    }
  }
  if (prefix == 0) {
    s.idle = 1;
    s.idle_since = end;
  }
}

// A zero-length transmission at `now` (start = end; the hand-computed tests).
DS_HD DS_INLINE void red_dequeued(RedState& s, uint8_t colour, int bytes, double now) {
  red_dequeued(s, colour, bytes, now, now);
}

// The average that governs `colour` (RED and WRED: the one average).
DS_HD DS_INLINE double red_avg_of(const RedParams& p, const RedState& s, uint8_t colour) {
  if (p.aqm == kAqmRed || p.aqm == kAqmWred) return s.avg[0];
  return s.avg[detail::red_colour(colour)];
}

}  // namespace ds
