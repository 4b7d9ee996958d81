// Plain C++ tests for cuda/core/{philox,pmath,mintree}.h (no framework).
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Icuda tests/cpp/test_core.cpp -o test_core
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>

#include "check.h"
#include "core/mintree.h"
#include "core/philox.h"
#include "core/pmath.h"
#include "engine/family.h"

namespace {

// Random123 kat_vectors, philox4x32 R=10 (as reproduced in
// DEShawResearch/Random123-Boost libs/random/test/test_philox.cpp).
void test_philox_kat() {
  struct Kat { ds::Philox4x32Ctr ctr; ds::Philox4x32Key key; uint32_t want[4]; };
  const Kat kats[3] = {
      {{{0u, 0u, 0u, 0u}}, {{0u, 0u}}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
      {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, {{0xffffffffu, 0xffffffffu}},
       {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
      {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, {{0xa4093822u, 0x299f31d0u}},
       {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
  };
  for (const Kat& k : kats) {
    const ds::Philox4x32Ctr got = ds::philox4x32_10(k.ctr, k.key);
    bool ok = true;
    for (int i = 0; i < 4; ++i) ok = ok && got.v[i] == k.want[i];
    if (!ok) {
      std::printf("  got %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n", got.v[0],
                  got.v[1], got.v[2], got.v[3]);
    }
    check(ok, "philox4x32_10 known-answer vector");
  }
}

void test_u01_open() {
  const double lo = ds::u01_open(0u, 0u);
  const double hi = ds::u01_open(0xffffffffu, 0xffffffffu);
  check(lo > 0.0 && lo < 1.0, "u01_open(0,0) in (0,1)");
  check(hi > 0.0 && hi < 1.0, "u01_open(~0,~0) in (0,1)");
  check(lo == 0x1p-53, "u01_open(0,0) == 2^-53");
  check(hi == 1.0 - 0x1p-53, "u01_open(~0,~0) == 1 - 2^-53");
  check(lo + hi == 1.0, "u01_open grid symmetric");
  check(std::isfinite(ds::exponential(lo, 1.0)) && std::isfinite(ds::exponential(hi, 1.0)),
        "exponential finite at u01_open extremes");
}

void test_stream() {
  ds::RngStream a = ds::make_stream(0x0123456789abcdefull, 7u, 3u);
  ds::RngStream b = ds::make_stream(0x0123456789abcdefull, 7u, 3u);
  ds::RngStream c = ds::make_stream(0x0123456789abcdefull, 8u, 3u);
  bool same = true, differ = false;
  double sum = 0.0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double x = ds::uniform(a);
    same = same && x == ds::uniform(b);
    differ = differ || x != ds::uniform(c);
    sum += x;
  }
  check(same, "same (seed, component, family) -> same sequence");
  check(differ, "different component -> different sequence");
  check(a.counter == static_cast<uint32_t>(n), "one counter value per uniform()");
  // Event index n is reproducible by jumping the counter directly.
  ds::RngStream d = ds::make_stream(0x0123456789abcdefull, 7u, 3u, 12345u);
  ds::RngStream e = ds::make_stream(0x0123456789abcdefull, 7u, 3u);
  for (int i = 0; i < 12345; ++i) ds::uniform(e);
  check(ds::uniform(d) == ds::uniform(e), "counter jump == sequential draws");
  const double mean = sum / n;  // sd of the mean ~ 0.29/sqrt(n) = 6.5e-4
  check(std::fabs(mean - 0.5) < 0.004, "uniform mean ~ 0.5");
}

// Relative error against the x87 long-double reference.
double rel_err(double got, long double ref) {
  return static_cast<double>(std::fabs((static_cast<long double>(got) - ref) / ref));
}

void test_plog() {
  check(ds::plog(1.0) == 0.0, "plog(1) == 0 exactly");
  double worst = 0.0, worst_x = 0.0;
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next_u01 = [&state]() {  // splitmix64 -> [0,1)
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1p-53;
  };
  const int n = 1000000;
  for (int i = 0; i < n; ++i) {
    double x;
    if (i % 4 == 0) {
      x = 1.0 + (next_u01() - 0.5) * std::ldexp(1.0, -(i % 50));  // near 1: hard case
    } else {
      x = std::exp((next_u01() * 2.0 - 1.0) * 690.7755);  // log-uniform over (1e-300, 1e300)
    }
    if (x == 1.0 || !(x > 1e-300 && x < 1e300)) continue;
    const double err = rel_err(ds::plog(x), std::log(static_cast<long double>(x)));
    if (err > worst) { worst = err; worst_x = x; }
  }
  for (double x : {0.5, 2.0, 0x1.6a09e667f3bcdp+0, 0x1.6a09e667f3bccp+0, 1e-300, 1e300,
                   0x1p-53, 1.0 - 0x1p-53, 1.0 + 0x1p-52}) {
    const double err = rel_err(ds::plog(x), std::log(static_cast<long double>(x)));
    if (err > worst) { worst = err; worst_x = x; }
  }
  std::printf("plog: max relative error %.3e (at x=%.17g)\n", worst, worst_x);
  check(worst < 1e-14, "plog relative error < 1e-14");
  const double inf = std::numeric_limits<double>::infinity();
  check(ds::plog(0.0) == -inf, "plog(0) == -inf");
  check(std::isnan(ds::plog(-1.0)), "plog(-1) is NaN");
  check(ds::plog(inf) == inf, "plog(inf) == inf");
  const double sub = 0x1p-1070;  // subnormal
  check(rel_err(ds::plog(sub), std::log(static_cast<long double>(sub))) < 1e-14, "plog subnormal");
}

void test_pexp() {
  check(ds::pexp(0.0) == 1.0, "pexp(0) == 1 exactly");
  double worst = 0.0, worst_x = 0.0;
  const int n = 1000000;
  for (int i = 0; i < n; ++i) {
    double x = -700.0 + 1400.0 * (i + 0.5) / n;
    if (i % 4 == 0) x = std::ldexp((i % 8 == 0) ? 1.0 : -1.0, -(i % 60)) * (1.0 + i * 1e-7);
    const double err = rel_err(ds::pexp(x), std::exp(static_cast<long double>(x)));
    if (err > worst) { worst = err; worst_x = x; }
  }
  std::printf("pexp: max relative error %.3e (at x=%.17g)\n", worst, worst_x);
  check(worst < 1e-14, "pexp relative error < 1e-14");
  const double inf = std::numeric_limits<double>::infinity();
  check(ds::pexp(710.0) == inf, "pexp(710) == inf");
  check(ds::pexp(-746.0) == 0.0, "pexp(-746) == 0");
  check(ds::pexp(-740.0) > 0.0 && ds::pexp(-740.0) < 0x1p-1022, "pexp(-740) subnormal");
  check(std::isnan(ds::pexp(std::nan(""))), "pexp(NaN) is NaN");
  check(ds::pexp(709.78) < inf, "pexp(709.78) finite");
  check(rel_err(ds::exponential(0.25, 3.0), -3.0L * std::log(0.25L)) < 1e-14, "exponential");
}

// MinTree::replay (the minimum of a lane's subtree re-keyed, as a flow event does) against
// set() on a copy and against a brute-force minimum by (key, index), with many ties, for
// teams of 1, 2, 4 and 8 lanes (each lane's subtree repaired up to its own root).
void test_mintree_replay() {
  constexpr int32_t P = 64;
  uint32_t rng = 12345u;
  auto next = [&rng]() { rng = rng * 1664525u + 1013904223u; return rng >> 8; };
  bool same = true, minimal = true;
  for (int32_t lanes = 1; lanes <= 8; lanes *= 2) {
    uint32_t ka[P], kb[P];
    uint16_t wa[2 * P], wb[2 * P];
    ds::MinTree a{ka, wa, P}, b{kb, wb, P};
    a.init_all_never();
    b.init_all_never();
    const int32_t n = P / lanes;
    for (int step = 0; step < 50000; ++step) {
      const int32_t lane = (int32_t)(next() % (uint32_t)lanes);
      const int32_t root = lanes + lane;
      const uint32_t k = next() % 3 == 0 ? ds::kNever : next() % 40;  // small keys: ties
      if (next() % 2) {  // the subtree's minimum re-keyed
        const int32_t leaf = a.min_index_at(root);
        a.replay(leaf, k, root);
        b.set(leaf, k, root);
      } else {  // any leaf of the subtree, through set() on both (the queue side's re-keys)
        const int32_t leaf = lane * n + (int32_t)(next() % (uint32_t)n);
        a.set(leaf, k, root);
        b.set(leaf, k, root);
      }
      for (int32_t l = 0; l < lanes; ++l) {
        int32_t best = l * n;
        for (int32_t i = l * n; i < (l + 1) * n; ++i)
          if (ka[i] < ka[best]) best = i;  // of equal keys, the lower index
        minimal = minimal && a.min_index_at(lanes + l) == best;
      }
      for (int32_t i = 0; i < P; ++i) same = same && ka[i] == kb[i];
      for (int32_t i = 1; i < 2 * P; ++i) same = same && wa[i] == wb[i];
    }
  }
  check(same, "MinTree::replay leaves the tree as set() does");
  check(minimal, "MinTree::replay: each lane's root holds its minimum by (key, index)");
}

// spread_per_warp: the fewest replicas per warp (any number) with which every task fits
// the resident warps; a team of lanes caps it at 32 / lanes; a request wins.
void test_spread_per_warp() {
  auto batch = [](int32_t replicas, int32_t lanes) {
    ds::BatchInput b{};
    b.shape.n_replicas = replicas;
    b.shape.lanes = lanes;
    return b;
  };
  // Kaur & Vin quick (1,104 replicas) on 132 SMs x 16 warps: one replica per warp.
  check(ds::spread_per_warp({batch(1000, 1), batch(104, 16)}, 2112, 0) == 1, "spread: few replicas");
  // 10,560 one-lane replicas: 10,560 / 2,112 = 5 per warp (2,112 warps; powers of two gave 8).
  check(ds::spread_per_warp({batch(10560, 1)}, 2112, 0) == 5, "spread: 5 per warp");
  check(ds::spread_per_warp({batch(10561, 1)}, 2112, 0) == 6, "spread: one more, 6 per warp");
  // 16-lane teams hold 2 per warp whatever k: 4,000 of them need 2,000 warps at k >= 2.
  check(ds::spread_per_warp({batch(4000, 16)}, 2112, 0) == 2, "spread: teams capped");
  check(ds::spread_per_warp({batch(4000, 16), batch(300, 1)}, 2112, 0) == 3,
        "spread: 2,000 team warps + 100 one-lane warps at k = 3");
  // More replicas than warps hold even at 32 per warp: 32.
  check(ds::spread_per_warp({batch(100000, 1)}, 2112, 0) == 32, "spread: full device");
  check(ds::spread_per_warp({batch(10560, 1)}, 2112, 3) == 3, "spread: requested");
  check(ds::spread_per_warp({batch(10560, 1)}, 2112, 100) == 32, "spread: at most a warp");
}

}  // namespace

int main() {
  test_spread_per_warp();
  test_philox_kat();
  test_u01_open();
  test_stream();
  test_plog();
  test_pexp();
  test_mintree_replay();
  return report();
}
