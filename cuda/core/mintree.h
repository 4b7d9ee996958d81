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
  // but reads both children's winners and keys at each and branches on the comparison; here
  // the path's winner is carried up as one number, (key << 16) | index, so each level reads
  // only the other child and takes the smaller without a branch (the order by key, then
  // index, is total on distinct leaves: the same winners as better()). A 64-flow flow event
  // re-keys 6 levels, and which side wins is close to a coin toss: callgrind 967 -> 939
  // instructions per replica-slot, ab.py 1.00 -> 1.31 x f36c9ee (benchmarks/cpu/README.md).
  DS_HD DS_INLINE void replay(int32_t leaf, uint32_t k, int32_t root = 1) {
    if (key[leaf] == k) return;
    key[leaf] = k;
    // (key, index) as one number: one comparison, no branch on which of equal keys wins
    uint64_t w = (uint64_t)k << 16 | (uint16_t)leaf;
    for (int32_t node = P + leaf; (node >> 1) >= root; node >>= 1) {
      const uint16_t o = winner[node ^ 1];
      const uint64_t c = (uint64_t)key[o] << 16 | o;
      w = c < w ? c : w;
      winner[node >> 1] = (uint16_t)w;
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
