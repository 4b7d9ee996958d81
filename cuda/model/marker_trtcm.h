// Two-rate three-colour marker (RFC 2698; ns-2.35 dsPolicy.cc TRTCMPolicy). Bucket Tp (depth
// PBS) fills at PIR, bucket Tc (depth CBS) at CIR, each on its own (section 3), both full at
// the first packet.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "marker_state.h"
#include "marker_token_bucket.h"

namespace ds {

// Metering (RFC 2698 section 3), a packet of B bytes:
//   blind: Tp < B: red; else Tc < B: yellow, Tp -= B; else green, Tp -= B and Tc -= B.
//   aware: red or Tp < B: red; else yellow or Tc < B: yellow, Tp -= B; else green, both pay.
// ns-2 implements the colour-blind mode only (same order of tests as the RFC).
DS_HD inline uint8_t mark_trtcm(const MarkerParams& m, MarkerState& s, int bytes, double now,
                                uint8_t colour_in) {
  const double dt = bucket_elapsed(now, s.t_last);
  s.tc = bucket_refill(s.tc, m.cir, dt, m.cbs);
  s.tp = bucket_refill(s.tp, m.pir, dt, m.pbs);
  s.t_last = now;
  const double b = (double)bytes;
  const bool aware = m.colour_aware != 0;
  if ((aware && colour_in == kRed) || s.tp < b) return kRed;
  if ((aware && colour_in == kYellow) || s.tc < b) {
    s.tp -= b;
    return kYellow;
  }
  s.tp -= b;
  s.tc -= b;
  return kGreen;
}

}  // namespace ds
