// Philox4x32-10 counter-based RNG (Salmon, Moraes, Dror & Shaw, "Parallel
// Random Numbers: As Easy as 1, 2, 3", SC'11; reference code: Random123).
//
// Why counter-based: a draw is a pure function of (counter, key), so a
// replica's random numbers depend only on (seed, component, family, event
// index) -- never on thread scheduling, launch geometry or host vs device.
// Only 32x32->64 integer multiplies, xors and adds are used, so host and
// device produce bit-identical words. No CUDA headers, no cuRAND.
#pragma once

#include <cstdint>

#include "hd.h"

namespace ds {

struct Philox4x32Ctr { uint32_t v[4]; };
struct Philox4x32Key { uint32_t v[2]; };

// Multipliers and Weyl key increments from Salmon et al. SC'11 / Random123.
constexpr uint32_t kPhiloxM0 = 0xD2511F53u;
constexpr uint32_t kPhiloxM1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9u;  // golden ratio
constexpr uint32_t kPhiloxW1 = 0xBB67AE85u;  // sqrt(3) - 1

namespace detail {

// High and low halves of a 32x32 product via one 64-bit multiply: portable,
// and identical on host and device (nvcc lowers it to mul.wide.u32).
DS_HD DS_INLINE void mulhilo32(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
  const uint64_t p = static_cast<uint64_t>(a) * static_cast<uint64_t>(b);
  hi = static_cast<uint32_t>(p >> 32);
  lo = static_cast<uint32_t>(p);
}

// One Philox S-box/permutation round, word order exactly as in Random123.
DS_HD DS_INLINE Philox4x32Ctr philox_round(Philox4x32Ctr c, Philox4x32Key k) {
  uint32_t hi0, lo0, hi1, lo1;
  mulhilo32(kPhiloxM0, c.v[0], hi0, lo0);
  mulhilo32(kPhiloxM1, c.v[2], hi1, lo1);
  Philox4x32Ctr out;
  out.v[0] = hi1 ^ c.v[1] ^ k.v[0];
  out.v[1] = lo1;
  out.v[2] = hi0 ^ c.v[3] ^ k.v[1];
  out.v[3] = lo0;
  return out;
}

DS_HD DS_INLINE Philox4x32Key philox_bump(Philox4x32Key k) {
  k.v[0] += kPhiloxW0;
  k.v[1] += kPhiloxW1;
  return k;
}

}  // namespace detail

// Exactly 10 rounds (the Crush-resistant default of SC'11), with the key
// bumped between rounds. Verified against Random123's kat_vectors.
DS_HD DS_INLINE Philox4x32Ctr philox4x32_10(Philox4x32Ctr ctr, Philox4x32Key key) {
  ctr = detail::philox_round(ctr, key);
  for (int r = 1; r < 10; ++r) {
    key = detail::philox_bump(key);
    ctr = detail::philox_round(ctr, key);
  }
  return ctr;
}

// Uniform double strictly inside (0,1):
//   b = (hi << 20) | (lo >> 12)            -- the top 52 bits of (hi:lo)
//   u = (b + 0.5) * 2^-52                  -- range [2^-53, 1 - 2^-53]
// Why 52 bits and a half-step offset rather than 53 bits: every step is
// exact (b < 2^52 converts exactly, b + 0.5 fits in 53 bits, the scale is a
// power of two), so no rounding can ever push the result onto 0 or 1 and the
// value is bit-identical on any IEEE machine. With 53 bits, (b + 0.5) would
// need 54 bits and b = 2^53-1 would round to exactly 1.0. The grid is also
// symmetric (1-u is on it), so -log(u) and -log(1-u) are both finite.
DS_HD DS_INLINE double u01_open(uint32_t hi, uint32_t lo) {
  const uint64_t b = (static_cast<uint64_t>(hi) << 20) | static_cast<uint64_t>(lo >> 12);
  return (static_cast<double>(b) + 0.5) * 0x1p-52;
}

// A deterministic per-(component, family) stream.
//   key     = (seed_lo, seed_hi)
//   counter = (counter, c0 = component id, c1 = stream family, c2 = spare/0)
// Each uniform() call consumes exactly one counter value (one Philox block),
// using words 0 and 1 and discarding 2 and 3. That wastes half a block but
// keeps the mapping "event index n -> counter n" trivial to reason about and
// to reproduce. The 32-bit counter wraps after 2^32 draws per stream; callers
// needing more must vary c2.
struct RngStream {
  Philox4x32Key key;
  uint32_t c0, c1, c2;
  uint32_t counter;
};

DS_HD DS_INLINE RngStream make_stream(uint64_t seed, uint32_t component, uint32_t family,
                                      uint32_t first_counter = 0, uint32_t spare = 0) {
  RngStream s;
  s.key.v[0] = static_cast<uint32_t>(seed);
  s.key.v[1] = static_cast<uint32_t>(seed >> 32);
  s.c0 = component;
  s.c1 = family;
  s.c2 = spare;
  s.counter = first_counter;
  return s;
}

// The raw block for the stream's current counter, without advancing it.
DS_HD DS_INLINE Philox4x32Ctr peek_block(const RngStream& s) {
  Philox4x32Ctr c;
  c.v[0] = s.counter;
  c.v[1] = s.c0;
  c.v[2] = s.c1;
  c.v[3] = s.c2;
  return philox4x32_10(c, s.key);
}

DS_HD DS_INLINE double uniform(RngStream& s) {
  const Philox4x32Ctr b = peek_block(s);
  ++s.counter;
  return u01_open(b.v[0], b.v[1]);
}

}  // namespace ds
