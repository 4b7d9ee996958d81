// Telnet-like applications (ns-2 Application/Telnet): the gap before the application hands TCP
// its next segment. ns-2 draws it from an exponential of mean interval_, or, with interval_ 0,
// from tcplib's empirical telnet interarrival distribution (tcplib-telnet.cc: one of 10,000
// sorted samples, uniformly). diffsweep keeps a summary of that sample rather than the sample
// (benchmarks/ns2/tcplib/telnet_quantiles.py derives it): the body as 129 quantile knots at
// equal steps of u, interpolated geometrically, and the 32 largest samples exactly, which keeps
// the heavy tail. Summary vs ns-2's sample: mean 1.0995 vs 1.0919 s, median 0.2364 s both,
// 10% / 90% / 99% quantiles 0.068 / 1.571 / 18.4 vs 0.068 / 1.564 / 17.8 s (docs/model.md).
#pragma once

#include "../core/hd.h"
#include "../core/pmath.h"
#include "../core/random.h"

namespace ds {

constexpr int kTcplibKnots = 129;  // body knots at u = k / 128 * kTcplibCut
constexpr int kTcplibTail = 32;    // the largest samples, each with probability 1 / 10,000
constexpr double kTcplibCut = 1.0 - kTcplibTail / 10000.0;

// One gap in seconds for u in [0, 1).
DS_HD inline double tcplib_telnet_gap_s(double u) {
  // Function-local tables: one definition for the host and the device passes.
  static constexpr double body[kTcplibKnots] = {
        0.000606425, 0.00106162812, 0.00147466275, 0.00215747013, 0.002912131, 0.0045355535,
    0.0155799395, 0.0247811964, 0.031690957, 0.0432462509, 0.0515962355, 0.0589000789,
    0.063651188, 0.0687475969, 0.0738914318, 0.0778622887, 0.0813702775, 0.0856856879,
    0.0891994152, 0.0925716229, 0.095956985, 0.0990276326, 0.0997217697, 0.10226691,
    0.106927025, 0.110690153, 0.113488668, 0.117523671, 0.121271149, 0.125139598,
    0.129201305, 0.132184601, 0.135746154, 0.139688122, 0.142867142, 0.146024315,
    0.149020172, 0.151979399, 0.154627815, 0.157058193, 0.159943657, 0.163028425,
    0.166521145, 0.170218165, 0.173934891, 0.17628015, 0.179047497, 0.182328745,
    0.186153908, 0.188767638, 0.190962903, 0.19277041, 0.1950793, 0.196799352,
    0.199132576, 0.202257717, 0.205863655, 0.209302046, 0.213214253, 0.217390457,
    0.22096347, 0.225035847, 0.228748363, 0.232577543, 0.235805298, 0.238944883,
    0.244520302, 0.249609255, 0.255149017, 0.259838344, 0.264256767, 0.26968967,
    0.273603363, 0.278766972, 0.284410569, 0.290663227, 0.297612732, 0.302790287,
    0.31265599, 0.320090897, 0.329614029, 0.337949863, 0.35092067, 0.362756092,
    0.372232666, 0.381112717, 0.388290817, 0.395345166, 0.401776108, 0.411550003,
    0.423607353, 0.437391296, 0.454027618, 0.474583778, 0.492929153, 0.504258331,
    0.525331237, 0.549468636, 0.575068695, 0.596320168, 0.626797791, 0.660284783,
    0.694231675, 0.739678772, 0.780545411, 0.811703224, 0.856833283, 0.904137397,
    0.966103882, 0.991885201, 1.00464394, 1.08315242, 1.14103723, 1.23726472,
    1.34735324, 1.48479872, 1.63911633, 1.7856758, 2.01332977, 2.2209032,
    2.49859644, 2.94235803, 3.49089813, 4.21005408, 4.95818408, 6.29891821,
    8.81573096, 16.2498459, 43.7971914};
  static constexpr double tail[kTcplibTail] = {
        43.8102773, 44.6522266, 44.6593945, 45.5059219, 45.5493008, 45.9147461,
    59.0328359, 59.1714531, 59.1882422, 59.1945508, 59.2207539, 59.2293984,
    59.2781875, 59.2969687, 59.360043, 59.3895352, 59.4446758, 59.4841211,
    59.5528984, 59.6258789, 59.7025898, 59.7558555, 59.8599453, 59.9355039,
    59.9621406, 59.9811719, 64.4153086, 89.67025, 115.543305, 133.35125,
    137.709781, 209.921219};
  if (u >= kTcplibCut) {
    int k = (int)((u - kTcplibCut) * 10000.0);
    return tail[k < kTcplibTail ? k : kTcplibTail - 1];
  }
  const double pos = u / kTcplibCut * (double)(kTcplibKnots - 1);
  int j = (int)pos;
  if (j > kTcplibKnots - 2) j = kTcplibKnots - 2;
  return body[j] * ppow(body[j + 1] / body[j], pos - (double)j);
}

// The gap in slots before the next segment of a telnet-like application. `iat`: the flow's
// flow_app_iat_slots, > 0 an exponential of that mean (ns-2 interval_ > 0), < 0 tcplib with
// -iat slots per second (interval_ 0).
DS_HD DS_INLINE double telnet_gap_slots(double iat, double u) {
  return iat > 0.0 ? exponential(u, iat) : -iat * tcplib_telnet_gap_s(u);
}

}  // namespace ds
