// Weighted round robin by packets: class c sends up to weight[c] packets per turn; an empty
// class gives up its turn at once.
#pragma once
#include <cstdint>

#include "../core/hd.h"
#include "queue_droptail.h"

namespace ds {

struct WrrState {
  int8_t cls;    // class whose turn it is
  int8_t pad[3];
  int32_t left;  // packets left in that turn
};

DS_HD DS_INLINE void wrr_init(WrrState& w, const int32_t* weight) {
  w.cls = 0;
  w.left = weight[0];
}

DS_HD DS_INLINE int wrr_pick(WrrState& w, const ClassQueue* q, int n_classes,
                             const int32_t* weight) {
  for (int k = 0; k < n_classes; ++k) {
    const int c = (w.cls + k) % n_classes;
    if (q[c].ring.count == 0) continue;
    if (k > 0 || w.left <= 0) {
      w.cls = (int8_t)c;
      w.left = weight[c];
    }
    return c;
  }
  return -1;
}

// A packet of class c has been sent.
DS_HD DS_INLINE void wrr_sent(WrrState& w, int c, int n_classes, const int32_t* weight) {
  if (c != w.cls) return;
  w.left -= 1;
  if (w.left <= 0) {
    w.cls = (int8_t)((c + 1) % n_classes);
    w.left = weight[(c + 1) % n_classes];
  }
}

}  // namespace ds
