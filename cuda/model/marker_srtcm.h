// Single-rate three-colour marker (RFC 2697; ns-2.35 dsPolicy.cc SRTCMPolicy). Two buckets
// share one rate: Tc (depth CBS) and Te (depth EBS, MarkerParams::pbs), both full at the
// first packet. RFC 2697 section 3 adds one token CIR times a second, to Tc if it is below
// CBS, else to Te if below EBS; in continuous form (as ns-2's applyMeter) the CIR * dt new
// tokens fill Tc and what overflows goes into Te.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "marker_state.h"
#include "marker_token_bucket.h"

namespace ds {

// Metering (RFC 2697 section 4.1 colour-blind, 4.2 colour-aware), a packet of B bytes:
//   blind: Tc >= B: green, Tc -= B; else Te >= B: yellow, Te -= B; else red.
//   aware: green and Tc >= B: green, Tc -= B; else (green or yellow) and Te >= B: yellow,
//          Te -= B; else red. A packet never leaves better than it came.
// ns-2 implements the colour-blind mode only.
DS_HD inline uint8_t mark_srtcm(const MarkerParams& m, MarkerState& s, int bytes, double now,
                                uint8_t colour_in) {
  const double over = bucket_refill_overflow(s.tc, m.cir, bucket_elapsed(now, s.t_last), m.cbs);
  if (over > 0.0) {
    const double te = s.tp + over;
    s.tp = te < m.pbs ? te : m.pbs;
  }
  s.t_last = now;
  const double b = (double)bytes;
  const bool aware = m.colour_aware != 0;
  if ((!aware || colour_in == kGreen) && s.tc >= b) {
    s.tc -= b;
    return kGreen;
  }
  if ((!aware || colour_in != kRed) && s.tp >= b) {
    s.tp -= b;
    return kYellow;
  }
  return kRed;
}

}  // namespace ds
