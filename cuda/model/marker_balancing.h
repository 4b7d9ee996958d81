// The Balancing Marker (Lee & Jeong, "Improvement of fairness between assured service TCP
// users in a differentiated service network", section 3 and Fig. 2): two token-bucket checks
// and three colours, to share an aggregate's profile fairly among its TCP connections.
// Per packet of connection x (B bytes, T = n_active active connections counting x):
//  (1) x's first bucket, rate R_x_basic = CIR / T, depth b1: B tokens there -> GREEN (pays),
//      else RED.
//  (2) x's connection-table entry: AR_x by the TSW estimator (window `win`) with
//      t_x_int = now - t_x_pre, then t_x_pre = now.
//  (3) the aggregate's second bucket (CIR, CBS; MarkerState tc/t_last), with B tokens there:
//      GREEN stays GREEN (pays); RED becomes YELLOW with probability P(W_x), W_x = AR_x /
//      R_x_basic (pays when re-marked), else stays RED. Without B tokens: GREEN becomes RED,
//      RED stays RED.
// Choices where the paper is silent (docs/model.md, "Edge conditioners"):
//  - P(W): the paper's curve (Fig. 2) is lost; it says only that P falls as W_x grows. We use
//    p_max for W <= w_lo, 0 for W >= w_hi and linear between.
//  - A connection's first packet finds its first bucket full (b1) and AR_x = R_x_basic before
//    its own TSW update (t_x_int = 0 for it), the way TSW meters start at the CIR in ns-2.
//  - The first bucket refills at the R_x_basic of the current packet for the whole interval
//    since its last update (T may have changed in between; the paper updates lazily too).
//  - The incoming colour is ignored (the paper's marker sees unmarked packets).
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "marker_state.h"
#include "marker_token_bucket.h"
#include "marker_tsw.h"

namespace ds {

// RED-to-YELLOW re-marking probability at channel-possession measure W = AR_x / R_x_basic:
// p_max up to w_lo, falling linearly to 0 at w_hi (our choice of the paper's lost curve).
// w_hi <= w_lo gives a step at w_lo.
DS_HD DS_INLINE double balancing_p(const MarkerParams& m, double w) {
  if (w <= m.w_lo) return m.p_max;
  if (w >= m.w_hi) return 0.0;
  return m.p_max * (m.w_hi - w) / (m.w_hi - m.w_lo);  // here w_lo < w < w_hi
}

// Is connection c in the active set at `now`: seen, and silent for at most active_slots
// (the paper's threshold on t_x_pre).
DS_HD DS_INLINE bool balancing_active(const ConnMeter& c, double now, double active_slots) {
  return c.t_pre >= 0.0 && now - c.t_pre <= active_slots;
}

DS_HD inline uint8_t mark_balancing(const MarkerParams& m, MarkerState& s, ConnMeter& c,
                                    int n_active, int bytes, double now, double u) {
  const double b = (double)bytes;
  const double r_basic = m.cir / (double)(n_active >= 1 ? n_active : 1);
  if (c.t_pre < 0.0) {  // the connection's first packet: a new table entry
    c.tokens = m.b1;
    c.t_last = now;
    c.avg_rate = r_basic;
    c.t_pre = now;
  }
  // (1) first bucket: does x keep to its basic assured bandwidth?
  c.tokens = bucket_refill(c.tokens, r_basic, bucket_elapsed(now, c.t_last), m.b1);
  c.t_last = now;
  uint8_t colour = kRed;
  if (c.tokens >= b) {
    c.tokens -= b;
    colour = kGreen;
  }
  // (2) the connection table: AR_x and t_x_pre (TSW with t_front = t_x_pre).
  tsw_update(c.avg_rate, c.t_pre, m.win, bytes, now);
  // (3) the shared second bucket.
  s.tc = bucket_refill(s.tc, m.cir, bucket_elapsed(now, s.t_last), m.cbs);
  s.t_last = now;
  if (s.tc < b) return kRed;
  if (colour == kGreen) {
    s.tc -= b;
    return kGreen;
  }
  // r_basic > 0 unless cir = 0, in which case no tokens ever arrive beyond the initial cbs;
  // W is then taken as infinite (no re-marking).
  const double w = r_basic > 0.0 ? c.avg_rate / r_basic : 1e300;
  if (u < balancing_p(m, w)) {
    s.tc -= b;
    return kYellow;
  }
  return kRed;
}

}  // namespace ds
