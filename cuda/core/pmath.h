// Portable, deterministic double-precision log/exp for host and device.
//
// Why not std::log / ::log: glibc and CUDA's libdevice are different
// implementations that may differ in the last bit, and the simulator needs
// CPU and GPU replicas to agree bit for bit. These versions use only IEEE
// +,-,*,/ (each correctly rounded everywhere), integer bit manipulation and
// fixed Horner polynomials, so they give identical results on any IEEE-754
// machine -- PROVIDED the compiler neither contracts a*b+c into an FMA nor
// reassociates: build host code with -ffp-contract=off and device code with
// nvcc -fmad=false, and never with fast-math.
//
// Accuracy (see tests/cpp/test_core.cpp): relative error < 1e-14 (measured
// a few 1e-16) for plog over (1e-300, 1e300) and pexp over |x| < 700.
#pragma once

#include <cstdint>
#include <cstring>

#include "hd.h"

namespace ds {
namespace detail {

// memcpy is the well-defined bit cast in C++17 and is supported in CUDA
// device code, where it compiles to a plain register move.
DS_HD DS_INLINE uint64_t dbits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
DS_HD DS_INLINE double dfrom(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

// 2^j for j in [-1022, 1023], built directly from the exponent field.
DS_HD DS_INLINE double pow2i(int j) {
  return dfrom(static_cast<uint64_t>(j + 1023) << 52);
}

constexpr uint64_t kPosInfBits = 0x7ff0000000000000ull;
constexpr uint64_t kNaNBits = 0x7ff8000000000000ull;
// ln2 split (fdlibm): kLn2Hi has 32 significant bits, so k*kLn2Hi is exact
// for |k| < 2^21 and the range reduction loses nothing.
constexpr double kLn2Hi = 0x1.62e42feep-1;
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
constexpr double kInvLn2 = 0x1.71547652b82fep+0;
constexpr double kSqrt2 = 0x1.6a09e667f3bcdp+0;

}  // namespace detail

// Natural logarithm. plog(1) == 0 exactly; plog(+0) = -inf; plog(+inf) =
// +inf; negative or NaN -> NaN. Subnormal inputs are handled.
DS_HD DS_INLINE double plog(double x) {
  uint64_t b = detail::dbits(x);
  if (b >= detail::kPosInfBits) {  // +inf, NaN, or sign bit set
    if (b == detail::kPosInfBits) return x;
    if (b == 0x8000000000000000ull) return -detail::dfrom(detail::kPosInfBits);  // -0
    return detail::dfrom(detail::kNaNBits);
  }
  if (b == 0) return -detail::dfrom(detail::kPosInfBits);
  int e = 0;
  if (b < 0x0010000000000000ull) {  // subnormal: scale into normal range exactly
    b = detail::dbits(x * 0x1p54);
    e = -54;
  }
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)), so |s| <= 0.1716 below.
  e += static_cast<int>(b >> 52) - 1023;
  double m = detail::dfrom((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  if (m >= detail::kSqrt2) {
    m *= 0.5;  // exact
    ++e;
  }
  // log m = log((1+s)/(1-s)) = 2s + 2s^3/3 + 2s^5/5 + ...,  s = f/(2+f).
  // Written as f - (hfsq - s*(hfsq + R)) (fdlibm's arrangement) so that the
  // leading term is the exact f and rounding errors only touch small terms.
  const double f = m - 1.0;  // exact (Sterbenz)
  const double s = f / (2.0 + f);
  const double z = s * s;  // <= 0.02944
  // R = sum_{k=1..10} 2 z^k/(2k+1); truncation error < 1e-18 relative.
  const double R =
      z * (0x1.5555555555555p-1 +  // 2/3
      z * (0x1.999999999999ap-2 +  // 2/5
      z * (0x1.2492492492492p-2 +  // 2/7
      z * (0x1.c71c71c71c71cp-3 +  // 2/9
      z * (0x1.745d1745d1746p-3 +  // 2/11
      z * (0x1.3b13b13b13b14p-3 +  // 2/13
      z * (0x1.1111111111111p-3 +  // 2/15
      z * (0x1.e1e1e1e1e1e1ep-4 +  // 2/17
      z * (0x1.af286bca1af28p-4 +  // 2/19
      z * 0x1.8618618618618p-4)))))))));  // 2/21
  const double hfsq = 0.5 * f * f;
  const double dk = static_cast<double>(e);
  return dk * detail::kLn2Hi - ((hfsq - (s * (hfsq + R) + dk * detail::kLn2Lo)) - f);
}

// Exponential. pexp(0) == 1 exactly; overflows to +inf above ln(DBL_MAX),
// underflows through subnormals to 0 below ln(2^-1075); NaN -> NaN.
DS_HD DS_INLINE double pexp(double x) {
  if (!(x == x)) return x;
  if (x > 709.782712893384) return detail::dfrom(detail::kPosInfBits);
  if (x < -745.1332191019412) return 0.0;
  // x = k*ln2 + r with |r| <= ln2/2 (+ tiny), k rounded half away from zero.
  const double kd = x * detail::kInvLn2;
  const int k = static_cast<int>(kd + (kd >= 0.0 ? 0.5 : -0.5));
  const double dk = static_cast<double>(k);
  const double r = (x - dk * detail::kLn2Hi) - dk * detail::kLn2Lo;
  // Taylor series to degree 13: truncation < 1e-17 relative for |r| <= 0.35.
  const double p =
      1.0 + r * (1.0 +
      r * (0x1.0000000000000p-1 +   // 1/2!
      r * (0x1.5555555555555p-3 +   // 1/3!
      r * (0x1.5555555555555p-5 +   // 1/4!
      r * (0x1.1111111111111p-7 +   // 1/5!
      r * (0x1.6c16c16c16c17p-10 +  // 1/6!
      r * (0x1.a01a01a01a01ap-13 +  // 1/7!
      r * (0x1.a01a01a01a01ap-16 +  // 1/8!
      r * (0x1.71de3a556c734p-19 +  // 1/9!
      r * (0x1.27e4fb7789f5cp-22 +  // 1/10!
      r * (0x1.ae64567f544e4p-26 +  // 1/11!
      r * (0x1.1eed8eff8d898p-29 +  // 1/12!
      r * 0x1.6124613a86d09p-33))))))))))));  // 1/13!
  // Scale by 2^k in two exact steps so k in [-1075, 1024] never leaves the
  // representable exponent range; only a subnormal result is rounded (once).
  const int k1 = k / 2;
  return (p * detail::pow2i(k1)) * detail::pow2i(k - k1);
}

// a^b for a > 0, from plog and pexp (so it is the same on every backend).
DS_HD DS_INLINE double ppow(double a, double b) { return pexp(b * plog(a)); }

// Exponential variate with the given mean from a uniform u in (0,1)
// (inverse CDF); use u01_open() so u is never 0 and the result is finite.
DS_HD DS_INLINE double exponential(double u, double mean) {
  return -mean * plog(u);
}

}  // namespace ds
