// Token buckets: the refill shared by every bucket model (token bucket, srTCM, trTCM, the
// Balancing Marker's two buckets) and ns-2's TokenBucket policer (dsPolicy.cc, TBPolicy).
// Tokens are bytes and accrue continuously at `rate` bytes per slot, so a bucket is updated
// lazily at each arrival from the time elapsed since its last update (ns-2's applyMeter:
// tokenBytes = cir * (now - arrivalTime), capped at the depth).
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "marker_state.h"

namespace ds {

// Slots since `t_last`, never negative: an arrival stamped before the last update (it should
// not happen; packet times at one marker are non-decreasing) adds no tokens rather than
// taking some away.
DS_HD DS_INLINE double bucket_elapsed(double now, double t_last) {
  const double dt = now - t_last;
  return dt > 0.0 ? dt : 0.0;
}

// A bucket holding `tokens`, after `dt` slots of refill at `rate`, capped at `depth`.
DS_HD DS_INLINE double bucket_refill(double tokens, double rate, double dt, double depth) {
  const double t = tokens + rate * dt;
  return t < depth ? t : depth;
}

// The same refill, returning the tokens that did not fit (srTCM pours them into Te,
// RFC 2697 section 3: Te grows only while Tc is full).
DS_HD DS_INLINE double bucket_refill_overflow(double& tokens, double rate, double dt,
                                              double depth) {
  const double t = tokens + rate * dt;
  if (t <= depth) {
    tokens = t;
    return 0.0;
  }
  tokens = depth;
  return t - depth;
}

// ns-2 TokenBucket (TBPolicy): refill (applyMeter), then a packet that finds at least its
// size in the bucket conforms (green, the bucket pays for it), otherwise it is out of profile
// (red) and the bucket is left as is. Colour-blind: ns-2 polices by the initial code point.
DS_HD inline uint8_t mark_token_bucket(const MarkerParams& m, MarkerState& s, int bytes,
                                       double now) {
  s.tc = bucket_refill(s.tc, m.cir, bucket_elapsed(now, s.t_last), m.cbs);
  s.t_last = now;
  const double b = (double)bytes;
  if (s.tc >= b) {
    s.tc -= b;
    return kGreen;
  }
  return kRed;
}

}  // namespace ds
