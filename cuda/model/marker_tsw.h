// Time Sliding Window markers (RFC 2859; Clark & Fang, "Explicit allocation of best-effort
// packet delivery service", section 3.3; ns-2.35 dsPolicy.cc TSW2CMPolicy/TSW3CMPolicy).
// The estimator, per arrival of `bytes` at `now` (RFC 2859 section 2.2):
//   avg = (avg * win + bytes) / (now - t_front + win);   t_front = now.
// As in ns-2's PolicyClassifier::mark(), the meter is updated first and the colour is drawn
// from the updated rate. ns-2 starts avgRate at the CIR and arrivalTime (t_front) at 0, the
// start of the simulation; so do we (marker_init sets t_front = 0, marker_start sets
// avg_rate = cir at the first packet, which changes nothing before it).
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "marker_state.h"

namespace ds {

// One TSW update of the rate estimate `avg` (bytes per slot) whose window front is `t_front`.
// Shared with the Balancing Marker's per-connection AR_x. `win` > 0 (the host checks); a
// non-positive denominator (win <= 0 and no time elapsed) leaves the estimate unchanged
// instead of dividing by zero.
DS_HD DS_INLINE void tsw_update(double& avg, double& t_front, double win, int bytes,
                                double now) {
  const double den = now - t_front + win;
  if (den > 0.0) avg = (avg * win + (double)bytes) / den;
  t_front = now;
}

// TSW2CM (RFC 2859 section 2.3, two colours; ns-2 TSW2CMPolicy): green while avg <= CIR;
// above it, red with probability (avg - CIR) / avg. ns-2 draws r in [0, 1] and downgrades when
// r <= 1 - CIR/avg; with u in [0, 1), `u < p` gives probability exactly p.
DS_HD inline uint8_t mark_tsw2cm(const MarkerParams& m, MarkerState& s, int bytes, double now,
                                 double u) {
  tsw_update(s.avg_rate, s.t_front, m.win, bytes, now);
  if (s.avg_rate > m.cir && u < 1.0 - m.cir / s.avg_rate) return kRed;
  return kGreen;
}

// TSW3CM (RFC 2859 section 2.3, three colours; ns-2 TSW3CMPolicy). ns-2 draws
// v = avg * (1 - r), uniform on (0, avg], and gives red if v > PIR, yellow if v > CIR, else
// green. That is the RFC's rule:
//   avg <= CIR:        green;
//   CIR < avg <= PIR:  yellow w.p. (avg - CIR)/avg, else green;
//   avg > PIR:         red w.p. (avg - PIR)/avg, yellow w.p. (PIR - CIR)/avg, else green.
DS_HD inline uint8_t mark_tsw3cm(const MarkerParams& m, MarkerState& s, int bytes, double now,
                                 double u) {
  tsw_update(s.avg_rate, s.t_front, m.win, bytes, now);
  const double v = s.avg_rate * (1.0 - u);
  if (v > m.pir) return kRed;
  if (v > m.cir) return kYellow;
  return kGreen;
}

}  // namespace ds
