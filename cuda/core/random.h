// Counter-based draws: a replica's numbers depend only on (seed, family, component, event
// index), never on the batch, chunk, thread count, team size or backend (DESIGN:
// Randomness). A new model takes a new family, so adding it changes no existing result.
#pragma once
#include <cstdint>

#include "hd.h"
#include "philox.h"

namespace ds {

enum Family : uint32_t {
  kFamTie = 1, kFamSource = 2, kFamLoss = 3, kFamJitter = 4, kFamMarker = 5, kFamAqm = 6,
  kFamArrival = 7, kFamApp = 8, kFamPath = 9,
  kFamSession = 10,  // a pool slot's sessions: component the flow slot, counter per transfer
  kFamWeb = 11,      // a web session's pages and objects: component the session, its own counter
  kFamPie = 12       // PIE's early drops: component the link class (l*kMaxClasses + c), its own counter
};

DS_HD DS_INLINE double draw_u01(uint64_t seed, uint32_t family, uint32_t component,
                                uint32_t& counter) {
  Philox4x32Ctr c;
  c.v[0] = counter++;
  c.v[1] = component;
  c.v[2] = family;
  c.v[3] = 0;
  Philox4x32Key k;
  k.v[0] = (uint32_t)seed;
  k.v[1] = (uint32_t)(seed >> 32);
  Philox4x32Ctr o = philox4x32_10(c, k);
  return u01_open(o.v[0], o.v[1]);
}

}  // namespace ds
