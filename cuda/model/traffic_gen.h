// Transfer arrivals and sizes of a traffic generator (web-like short-lived TCP, Rossi et al.
// sec. II; sessions of back-to-back transfers): plain state and pure functions of the replica's
// seed and the generator's own Philox stream (kFamArrival, component = generator index), so a
// generator's arrival times and sizes depend on nothing but (seed, generator): not on the
// network, the pool or the backend. The engine (engine/traffic.h) turns arrivals into
// transfers on free flow slots of the generator's pool.
#pragma once
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "../core/pmath.h"
#include "../core/random.h"

namespace ds {

struct GenState {
  double next_arrival;  // Poisson: slot time of the next arrival
  uint32_t ctr;         // Philox counter of the generator's stream (Poisson; first starts)
  int32_t scan;         // next pool slot to look at (next-fit search for a free slot)
  int32_t live;         // transfers started (start slot reached by the queue side), not done
  int32_t pend_head;    // assigned transfers not yet counted live, a list in start order
  int32_t pend_tail;    // through Transfer::next_pending (-1: empty)
  int32_t pad;
};

// One ns-2 WebTraf-like session (kGenWeb): its pages and the objects of the current page.
struct WebSession {
  double next_page;   // slot time of its next page
  double next_obj;    // slot time of the current page's next object
  int32_t pages_left;
  int32_t objs_left;  // objects of the current page still to request
  uint32_t ctr;       // Philox counter of its own stream (kFamWeb, component: the session)
  uint32_t pad;
};

struct GenParams {
  uint8_t size_kind;   // SizeKind
  double size_mean;    // kSizeExp: mean packets
  double size_min;     // kSizePareto: bounds (packets) and shape
  double size_max;
  double size_alpha;
  int32_t size_n;      // kSizeSet: entries
  const int32_t* size_set;
};

DS_HD DS_INLINE double gen_u01(uint64_t seed, int g, GenState& st) {
  return draw_u01(seed, kFamArrival, (uint32_t)g, st.ctr);
}

// Exponential interarrival (or think time) of mean `mean` slots.
DS_HD DS_INLINE double gen_exp(uint64_t seed, int g, GenState& st, double mean) {
  return exponential(gen_u01(seed, g, st), mean);
}

// Draws that belong to one event, not to a stream shared by many: a web session's own stream
// (kFamWeb, component the session, counter its own), a pool slot's n-th transfer of a
// sessions generator (kFamSession, component the slot, counter 2n: its size, 2n + 1: the
// think time after it). Such a draw does not depend on the order in which events of other
// sessions or slots are handled, hence not on where the engine's rounds fall.
DS_HD DS_INLINE double event_u01(uint64_t seed, uint32_t family, uint32_t component,
                                 uint32_t counter) {
  uint32_t c = counter;
  return draw_u01(seed, family, component, c);
}

// A transfer size in whole packets (>= 1) from a uniform draw u.
//  set:         a uniform choice of one entry (Rossi et al.: "uniformly chosen among a coarse
//               set of empirically selected flow lengths");
//  exponential: ceil(Exp(mean));
//  Pareto:      bounded Pareto on [min, max] with shape alpha by inversion,
//               x = min / (1 - u (1 - (min/max)^alpha))^(1/alpha), then ceil;
//  ParetoII:    ns-2's RandomVariable/ParetoII (Lomax) of mean m and shape alpha,
//               x = m (alpha - 1) ((1 - u)^(-1/alpha) - 1), then ceil (ns-2's web objects).
DS_HD inline int32_t size_of(double u, const GenParams& p) {
  double x = 1.0;
  if (p.size_kind == kSizeSet) {
    int32_t k = (int32_t)(u * (double)p.size_n);
    if (k >= p.size_n) k = p.size_n - 1;
    return p.size_set[k] < 1 ? 1 : p.size_set[k];
  }
  if (p.size_kind == kSizeExp) {
    x = exponential(u, p.size_mean);
  } else if (p.size_kind == kSizeParetoII) {
    x = p.size_mean * (p.size_alpha - 1.0) * (ppow(1.0 - u, -1.0 / p.size_alpha) - 1.0);
  } else {
    const double ratio = ppow(p.size_min / p.size_max, p.size_alpha);
    x = p.size_min / ppow(1.0 - u * (1.0 - ratio), 1.0 / p.size_alpha);
    if (x > p.size_max) x = p.size_max;
  }
  const double c = (double)(int64_t)x;
  const int64_t n = (int64_t)(c < x ? c + 1.0 : c);
  return n < 1 ? 1 : (n > 0x3FFFFFFF ? 0x3FFFFFFF : (int32_t)n);
}

// The next size from the generator's own stream (Poisson arrivals, in arrival order).
DS_HD DS_INLINE int32_t gen_size(uint64_t seed, int g, GenState& st, const GenParams& p) {
  return size_of(gen_u01(seed, g, st), p);
}

}  // namespace ds
