// Tournament (min) tree over the flows of one replica: yields the flow with the earliest due
// slot in O(1) and re-keys one flow in O(log F). This is what keeps per-slot work independent
// of the number of idle flows (DESIGN: GPU shape). Ties go to the lower flow index, so flows
// due in the same slot are handled in index order.
// A team of n lanes (a power of two <= P) splits the leaves into n contiguous blocks: node
// n + k is the root of lane k's subtree, and a lane re-keys only up to it, so lanes never
// write the same node (engine/flow_side.h). With one lane the root is node 1.
#pragma once
#include <cstdint>

#include "hd.h"

namespace ds {

constexpr uint32_t kNever = 0xFFFFFFFFu;

struct MinTree {
  uint32_t* key;     // [P] due slot per leaf; kNever = nothing due
  uint16_t* winner;  // [2P] flow index winning each node; node 1 is the root
  int32_t P;         // leaves, a power of two >= number of flows

  DS_HD DS_INLINE uint32_t min_key() const { return key[winner[1]]; }
  DS_HD DS_INLINE int32_t min_index() const { return winner[1]; }

  DS_HD DS_INLINE uint16_t better(uint16_t a, uint16_t b) const {
    return (key[b] < key[a] || (key[b] == key[a] && b < a)) ? b : a;
  }

  DS_HD void init_all_never() {
    for (int32_t i = 0; i < P; ++i) {
      key[i] = kNever;
      winner[P + i] = (uint16_t)i;
    }
    for (int32_t i = P - 1; i >= 1; --i) winner[i] = better(winner[2 * i], winner[2 * i + 1]);
  }

  DS_HD DS_INLINE uint32_t min_key_at(int32_t node) const { return key[winner[node]]; }
  DS_HD DS_INLINE int32_t min_index_at(int32_t node) const { return winner[node]; }

  // Re-keys the leaf that wins every node from it up to `root` (the minimum just taken from
  // that subtree: a flow event's own flow) and replays its matches (Knuth's replacement
  // selection). set() would rewrite every node of the path too, since each held this leaf,
  // but reads both children's winners and keys at each; here the path's winner and its key
  // are carried up and only the other child is read (callgrind, benchmarks/slot_cost.py:
  // 64 flows, 6 levels per flow event, 967 -> 954 instructions per replica-slot). The same
  // winners: the order by key, then index, is total on distinct leaves, so better() is
  // symmetric.
  DS_HD DS_INLINE void replay(int32_t leaf, uint32_t k, int32_t root = 1) {
    if (key[leaf] == k) return;
    key[leaf] = k;
    uint16_t w = (uint16_t)leaf;
    uint32_t kw = k;
    for (int32_t node = P + leaf; (node >> 1) >= root; node >>= 1) {
      const uint16_t o = winner[node ^ 1];
      const uint32_t ko = key[o];
      const bool o_wins = ko < kw || (ko == kw && o < w);
      w = o_wins ? o : w;
      kw = o_wins ? ko : kw;
      winner[node >> 1] = w;
    }
  }

  // Re-keys a leaf and repairs the path up to `root` (1 = the whole tree).
  DS_HD void set(int32_t leaf, uint32_t k, int32_t root = 1) {
    if (key[leaf] == k) return;
    key[leaf] = k;
    for (int32_t i = (P + leaf) >> 1; i >= root; i >>= 1) {
      uint16_t w = better(winner[2 * i], winner[2 * i + 1]);
      if (winner[i] == w && w != leaf) break;  // nothing above can change
      winner[i] = w;
    }
  }
};

DS_HD DS_INLINE int32_t pow2_at_least(int32_t n) {
  int32_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace ds
