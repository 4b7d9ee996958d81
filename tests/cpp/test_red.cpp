// RED, RIO-C, RIO-D and WRED (cuda/model/queue_red.h) against hand-computed cases: the EWMA
// with ns-2's idle correction, red.cc's drop probability with count spacing (with and without
// wait_), gentle_, bytes_ and queue_in_bytes_ (together and apart), and dsredq.cc's per-colour averages and count rule.
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_red.cpp -o test_red
#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "check.h"
#include "model/queue_red.h"

namespace {

bool near(double a, double b, double tol = 1e-12) { return std::fabs(a - b) <= tol; }

// RedParams reads a class's per-colour thresholds through pointers into the batch's inputs;
// the tests' parameters own theirs, and a copy owns a copy (a modified copy leaves the original).
struct Params {
  uint8_t aqm, gentle, wait, bytes, qib;
  double w_q, ptc, mean_pkt_bytes;
  double min_th[ds::kMaxColours], max_th[ds::kMaxColours], max_p[ds::kMaxColours];
  operator ds::RedParams() const {
    ds::RedParams r{};
    r.aqm = aqm;
    r.gentle = gentle;
    r.wait = wait;
    r.bytes = bytes;
    r.qib = qib;
    r.w_q = w_q;
    r.ptc = ptc;
    r.mean_pkt_bytes = mean_pkt_bytes;
    r.min_th = min_th;
    r.max_th = max_th;
    r.max_p = max_p;
    return r;
  }
};

Params params(uint8_t aqm) {
  Params p{};
  p.aqm = aqm;
  p.w_q = 0.0;
  p.ptc = 1.0;
  p.mean_pkt_bytes = 1000.0;
  for (int c = 0; c < ds::kMaxColours; ++c) {
    p.min_th[c] = 5.0;
    p.max_th[c] = 15.0;
    p.max_p[c] = 0.1;
  }
  return p;
}

// Accept-and-queue helper: red_arrival then red_enqueued when accepted.
uint8_t arrive(const Params& p, ds::RedState& s, uint8_t colour, double now,
               double u = 0.5, int bytes = 1000) {
  const uint8_t v = ds::red_arrival(p, s, colour, bytes, now, u);
  if (v == ds::kRedAccept) ds::red_enqueued(s, colour, bytes);
  return v;
}

// 1. The EWMA over 10 arrivals with an idle period. w_q = 1/4, ptc = 2 packets per slot,
//    thresholds far above (every packet is accepted). q = the class queue before the arrival.
//    a1 t=0.0  idle since 0, m = int(2*0) = 0, q=0: avg = 0*0.75 + 0.25*0        = 0
//    a2 t=0.1  q=1: 0*0.75 + 0.25                                               = 0.25
//    a3 t=0.2  q=2: 0.25*0.75 + 0.5                                             = 0.6875
//    a4 t=0.3  q=3: 0.6875*0.75 + 0.75                                          = 1.265625
//    the 4 packets leave at t = 1, 2, 3, 4: idle since 4
//    a5 t=5.6  m = int(2*1.6) = int(3.2) = 3, q=0: 1.265625*0.75^4 = 1.265625*0.31640625
//                                                                               = 0.40045166015625
//    a6 t=5.7  q=1: 0.40045166015625*0.75 + 0.25                                = 0.5503387451171875
//    a7 t=5.8  q=2: 0.5503387451171875*0.75 + 0.5                               = 0.912754058837890625
//    a8 t=5.9  q=3: *0.75 + 0.75                                                = 1.434565544128418
//    a9 t=6.0  q=4: *0.75 + 1.0                                                 = 2.0759241580963135
//    a10 t=6.1 q=5: *0.75 + 1.25                                                = 2.806943118572235
void test_ewma_idle() {
  Params p = params(ds::kAqmRed);
  p.w_q = 0.25;
  p.ptc = 2.0;
  p.min_th[0] = 100.0;
  p.max_th[0] = 200.0;
  ds::RedState s;
  ds::red_init(s);
  check(s.idle == 1 && s.idle_since == 0.0 && s.avg[0] == 0.0, "init: idle since 0");
  const double want[10] = {0.0, 0.25, 0.6875, 1.265625, 0.40045166015625, 0.5503387451171875,
                           0.912754058837890625, 1.434565544128418, 2.0759241580963135,
                           2.806943118572235};
  const double t[10] = {0.0, 0.1, 0.2, 0.3, 5.6, 5.7, 5.8, 5.9, 6.0, 6.1};
  bool ok = true;
  for (int i = 0; i < 10; ++i) {
    if (i == 4) {
      for (int k = 1; k <= 4; ++k) ds::red_dequeued(s, 0, 1000, (double)k);
      check(s.idle == 1 && s.idle_since == 4.0, "idle when the class queue empties");
    }
    ok = ok && arrive(p, s, 0, t[i]) == ds::kRedAccept;
    if (!near(s.avg[0], want[i])) {
      std::printf("  arrival %d: avg %.17g, want %.17g\n", i + 1, s.avg[0], want[i]);
      ok = false;
    }
    if (i == 0) check(s.idle == 0, "an arrival clears idle");
  }
  check(ok, "EWMA over 10 arrivals with ns-2's idle correction");
  check(s.n[0] == 6 && s.b[0] == 6000, "queue counters");
  check(ds::red_avg_of(p, s, 2) == s.avg[0], "RED: one average for every colour");

  // A long idle period (m = 100 > 64: binary powering) matches pow() to rounding:
  // avg = 2.806943118572235 * 0.75^101 + 0.
  for (int k = 0; k < 6; ++k) ds::red_dequeued(s, 0, 1000, 7.0);
  const double before = s.avg[0];
  arrive(p, s, 0, 7.0 + 50.0);  // m = int(2*50) = 100
  check(near(s.avg[0], before * std::pow(0.75, 101), 1e-13 * before * std::pow(0.75, 101)),
        "long idle: (1-w)^(m+1) by powering");
}

// 2. Count spacing (red.cc modify_p). w_q = 0 freezes the average at 10: min_th 5, max_th 15,
//    max_p 0.1 give p_b = 0.1*(10-5)/(15-5) = 0.05. The queue holds 10 packets (qlen > 1).
ds::RedState frozen(double avg, int32_t count, uint8_t old) {
  ds::RedState s;
  ds::red_init(s);
  s.idle = 0;
  s.avg[0] = avg;
  s.count[0] = count;
  s.old[0] = old;
  s.n[0] = 10;
  s.b[0] = 10000;
  return s;
}

void test_count_spacing() {
  const Params p = params(ds::kAqmRed);  // wait = 0
  // count 9 -> 10 at this arrival: p_a = 0.05 / (1 - 10*0.05) = 0.1
  {
    const double pa = 0.05 / (1.0 - 0.5);
    ds::RedState s = frozen(10.0, 9, 1);
    check(ds::red_arrival(p, s, 0, 1000, 1.0, pa * (1 + 1e-9)) == ds::kRedAccept,
          "no wait: u just above p_a accepts");
    check(s.count[0] == 10, "count incremented on an accepted arrival");
    s = frozen(10.0, 9, 1);
    check(ds::red_arrival(p, s, 0, 1000, 1.0, pa * (1 - 1e-9)) == ds::kRedEarly,
          "no wait: u just below p_a drops (early)");
    check(s.count[0] == 0, "count reset after an early drop");
    // The next arrival: count 1, p_a = 0.05 / (1 - 0.05) = 0.052631578947368...
    const double pa1 = 0.05 / 0.95;
    ds::RedState s2 = s;
    check(ds::red_arrival(p, s, 0, 1000, 1.0, pa1 * (1 - 1e-9)) == ds::kRedEarly &&
              ds::red_arrival(p, s2, 0, 1000, 1.0, pa1 * (1 + 1e-9)) == ds::kRedAccept,
          "no wait: after a drop p_a = p_b/(1 - p_b)");
  }
  // count 10 -> 11: p_a = 0.05 / (1 - 0.55) = 0.1111...
  {
    const double pa = 0.05 / 0.45;
    ds::RedState s = frozen(10.0, 10, 1), s2 = s;
    check(ds::red_arrival(p, s, 0, 1000, 1.0, pa * (1 - 1e-9)) == ds::kRedEarly &&
              ds::red_arrival(p, s2, 0, 1000, 1.0, pa * (1 + 1e-9)) == ds::kRedAccept,
          "no wait: p_a = p_b/(1 - 11 p_b)");
    // count*p_b >= 1: p_a = 1, every u drops
    ds::RedState s3 = frozen(10.0, 19, 1);
    check(ds::red_arrival(p, s3, 0, 1000, 1.0, 0.999999) == ds::kRedEarly, "count*p_b >= 1");
  }
  // wait: p_a = 0 while count*p_b < 1; p_b/(2 - count*p_b) below 2; 1 beyond.
  {
    Params pw = p;
    pw.wait = 1;
    ds::RedState s = frozen(10.0, 9, 1);  // count 10: 0.5 < 1
    check(ds::red_arrival(pw, s, 0, 1000, 1.0, 1e-12) == ds::kRedAccept && s.count[0] == 10,
          "wait: no drop while count*p_b < 1");
    const double pa = 0.05 / (2.0 - 1.5);  // count 30: 1.5 -> 0.1
    ds::RedState a = frozen(10.0, 29, 1), b = a;
    check(ds::red_arrival(pw, a, 0, 1000, 1.0, pa * (1 - 1e-9)) == ds::kRedEarly &&
              ds::red_arrival(pw, b, 0, 1000, 1.0, pa * (1 + 1e-9)) == ds::kRedAccept,
          "wait: p_a = p_b/(2 - count p_b)");
    check(a.count[0] == 0, "wait: count reset after the drop");
    ds::RedState c = frozen(10.0, 39, 1);  // count 40: 2.0 -> 1
    check(ds::red_arrival(pw, c, 0, 1000, 1.0, 0.999999) == ds::kRedEarly, "wait: count*p_b >= 2");
  }
  // old_: the first arrival with the average above min_th is never dropped; count = 1.
  {
    ds::RedState s = frozen(10.0, 57, 0);
    check(ds::red_arrival(p, s, 0, 1000, 1.0, 1e-12) == ds::kRedAccept && s.old[0] == 1 &&
              s.count[0] == 1,
          "old_ = 0: first arrival above min_th accepted, count = 1");
    // Below min_th: old_ cleared, no drop; qlen <= 1: no drop either.
    ds::RedState lo = frozen(4.0, 3, 1);
    check(ds::red_arrival(p, lo, 0, 1000, 1.0, 1e-12) == ds::kRedAccept && lo.old[0] == 0 &&
              lo.count[0] == 4,
          "below min_th: accept, old_ = 0, count keeps counting");
    ds::RedState q1 = frozen(10.0, 30, 1);
    q1.n[0] = 1;
    check(ds::red_arrival(p, q1, 0, 1000, 1.0, 1e-12) == ds::kRedAccept && q1.old[0] == 0,
          "qlen <= 1: no RED drop");
  }
  // Buffer overflow after an accept (red.cc: forced drop, count reset).
  {
    ds::RedState s = frozen(10.0, 5, 1);
    check(ds::red_arrival(p, s, 0, 1000, 1.0, 0.99) == ds::kRedAccept && s.count[0] == 6,
          "accepted before the buffer check");
    ds::red_overflow(p, s, 0);
    check(s.count[0] == 0, "red_overflow resets count (RED)");
  }
}

// 3. Gentle: p_b = max_p + (1 - max_p)(avg - max_th)/max_th between max_th and 2 max_th.
//    min 5, max 15, max_p 0.1: avg 20 -> 0.1 + 0.9*5/15 = 0.4; avg 29 -> 0.1 + 0.9*14/15 = 0.94.
void test_gentle() {
  check(near(ds::detail::red_calculate_p(20.0, 5.0, 15.0, 0.1, true), 0.4), "gentle p at 20");
  check(near(ds::detail::red_calculate_p(29.0, 5.0, 15.0, 0.1, true), 0.94), "gentle p at 29");
  check(near(ds::detail::red_calculate_p(15.0, 5.0, 15.0, 0.1, true), 0.1), "gentle p at max_th");
  check(near(ds::detail::red_calculate_p(30.0, 5.0, 15.0, 0.1, true), 1.0), "gentle p at 2 max_th");
  check(near(ds::detail::red_calculate_p(10.0, 5.0, 15.0, 0.1, false), 0.05), "linear p at 10");
  Params p = params(ds::kAqmRed);
  p.gentle = 1;
  // Through red_arrival at avg 20, count 0 -> 1: p_a = 0.4/(1 - 0.4) = 2/3.
  const double pa = 0.4 / 0.6;
  ds::RedState a = frozen(20.0, 0, 1), b = a;
  check(ds::red_arrival(p, a, 0, 1000, 1.0, pa * (1 - 1e-9)) == ds::kRedEarly &&
            ds::red_arrival(p, b, 0, 1000, 1.0, pa * (1 + 1e-9)) == ds::kRedAccept,
        "gentle: early drop with p_a from the gentle slope");
  ds::RedState c = frozen(29.99, 0, 1);
  check(ds::red_arrival(p, c, 0, 1000, 1.0, 0.99) != ds::kRedForced, "gentle: below 2 max_th not forced");
  ds::RedState d = frozen(30.0, 7, 1);
  check(ds::red_arrival(p, d, 0, 1000, 1.0, 0.99) == ds::kRedForced && d.count[0] == 0,
        "gentle: forced at 2 max_th, count reset");
  p.gentle = 0;
  ds::RedState e = frozen(14.99, 0, 1);
  check(ds::red_arrival(p, e, 0, 1000, 1.0, 0.99) == ds::kRedAccept, "non-gentle: below max_th");
  ds::RedState f = frozen(15.0, 7, 1);
  check(ds::red_arrival(p, f, 0, 1000, 1.0, 0.99) == ds::kRedForced && f.count[0] == 0,
        "non-gentle: forced at max_th");
}

// 4. RIO-C vs RIO-D vs WRED. w_q = 1/2, ptc = 1. Green (0): min 20, max 40; red (2): min 2,
//    max 6, max_p 0.5. Ten green packets arrive at t = 0 (none leaves), then one red.
//    Green averages (q = green queue before each arrival; first arrival idle with m = 0):
//      0, 0.5, 1.25, 2.125, 3.0625, 4.03125, 5.015625, 6.0078125, 7.00390625, 8.001953125
//    RIO-C: a green arrival updates averages 0, 1, 2 (each over n[0..i] = the green queue), so
//      avg[2] = 8.001953125 too; the red arrival updates avg[2] only, over n[0]+n[1]+n[2] = 10:
//      0.5*8.001953125 + 0.5*10 = 9.0009765625 > max_th[2] = 6: forced drop.
//    RIO-D: avg[2] is the red queue's alone: 0*0.5 + 0.5*0 = 0 <= min_th: accepted.
//    WRED: one average over the whole queue (= the RIO-C number, 9.0009765625) against red's
//      thresholds: forced; a green arrival next sees 0.5*9.0009765625 + 5 = 9.50048828125
//      against green's (20, 40): accepted.
void test_colours() {
  const double green[10] = {0, 0.5, 1.25, 2.125, 3.0625, 4.03125, 5.015625, 6.0078125,
                            7.00390625, 8.001953125};
  Params p = params(ds::kAqmRioC);
  p.w_q = 0.5;
  p.min_th[0] = 20.0;
  p.max_th[0] = 40.0;
  p.min_th[2] = 2.0;
  p.max_th[2] = 6.0;
  p.max_p[2] = 0.5;
  for (uint8_t aqm : {ds::kAqmRioC, ds::kAqmRioD, ds::kAqmWred}) {
    p.aqm = aqm;
    ds::RedState s;
    ds::red_init(s);
    bool ok = true;
    for (int i = 0; i < 10; ++i) {
      ok = ok && arrive(p, s, 0, 0.0) == ds::kRedAccept;
      ok = ok && near(s.avg[0], green[i]);
    }
    check(ok, "ten green arrivals: green average");
    const uint8_t v = arrive(p, s, 2, 0.0);
    if (aqm == ds::kAqmRioC) {
      check(near(s.avg[2], 9.0009765625) && v == ds::kRedForced,
            "RIO-C: green packets raise the average governing red (forced)");
      check(near(s.avg[0], green[9]), "RIO-C: a red arrival leaves the green average");
      check(near(ds::red_avg_of(p, s, 2), 9.0009765625) && near(ds::red_avg_of(p, s, 0), green[9]),
            "RIO-C: red_avg_of per colour");
    } else if (aqm == ds::kAqmRioD) {
      check(s.avg[2] == 0.0 && v == ds::kRedAccept && s.count[2] == -1,
            "RIO-D: green packets do not touch red's average (accepted, count = -1)");
      check(near(s.avg[0], green[9]), "RIO-D: green average");
      // Per-colour idle: the ten green packets leave at t = 1..10 while the red one stays;
      // green's queue is idle since 10. A green arrival at 12: m = int(1*(12-10)) = 2,
      // avg = 8.001953125 * 0.5^3 + 0.5*0 = 1.000244140625.
      for (int k = 1; k <= 10; ++k) ds::red_dequeued(s, 0, 1000, (double)k);
      check(s.idle == 0 && s.vq_idle_since[0] == 10.0, "RIO-D: green idle, class queue busy");
      arrive(p, s, 0, 12.0);
      check(near(s.avg[0], 1.000244140625), "RIO-D: idle correction per colour");
    } else {
      check(near(s.avg[0], 9.0009765625) && s.avg[2] == s.avg[0] && v == ds::kRedForced,
            "WRED: one average, red's thresholds: forced");
      check(arrive(p, s, 0, 0.0) == ds::kRedAccept && near(s.avg[0], 9.50048828125) &&
                near(ds::red_avg_of(p, s, 2), 9.50048828125),
            "WRED: same average, green's thresholds: accepted");
    }
  }
  // RIO-C idle per average: green queue empty, red packets queued. avg[0] is idle (n[0] = 0),
  // avg[2] is not (n[0]+n[2] > 0). w = 1/2, ptc = 1.
  {
    p.aqm = ds::kAqmRioC;
    ds::RedState s;
    ds::red_init(s);
    arrive(p, s, 0, 0.0);  // avg[0..2] = 0, n0 = 1
    arrive(p, s, 2, 0.0);  // avg[2] = 0.5*0 + 0.5*(1+0) = 0.5, n2 = 1
    ds::red_dequeued(s, 0, 1000, 1.0);  // green idle since 1 (and yellow: n[0..1] = 0)
    check(s.cq_idle_since[0] == 1.0 && s.cq_idle_since[1] == 1.0 && s.idle == 0,
          "RIO-C: green and yellow averages idle, red's not");
    // Green arrival at t = 5: avg[0] = 0*0.5^5 = 0 (m = 4); avg[2] not idle:
    //   0.5*0.5 + 0.5*(0 + 0 + 1) = 0.75
    arrive(p, s, 0, 5.0);
    check(near(s.avg[2], 0.75) && s.avg[0] == 0.0, "RIO-C: red average without idle decay");
  }
  // dsredq.cc count rule (RIO-D, w = 0 freezes avg[0] at 10: p_b = 0.05). count starts at -1
  // below min_th; the first arrival above min_th counts 0 and may drop with p_a = p_b.
  {
    Params q = params(ds::kAqmRioD);
    ds::RedState s;
    ds::red_init(s);
    s.n[0] = 3;
    s.avg[0] = 4.0;
    check(ds::red_arrival(q, s, 0, 1000, 1.0, 1e-12) == ds::kRedAccept && s.count[0] == -1,
          "dsredq: count = -1 at or below min_th");
    s.avg[0] = 10.0;
    ds::RedState s2 = s;
    check(ds::red_arrival(q, s, 0, 1000, 1.0, 0.05 * (1 - 1e-9)) == ds::kRedEarly &&
              s.count[0] == 0,
          "dsredq: first arrival above min_th: p_a = p_b, count reset on drop");
    check(ds::red_arrival(q, s2, 0, 1000, 1.0, 0.05 * (1 + 1e-9)) == ds::kRedAccept &&
              s2.count[0] == 0,
          "dsredq: u above p_b accepts, count 0");
    const double pa = 0.05 / (1.0 - 0.05);  // count 1
    ds::RedState s3 = s2;
    check(ds::red_arrival(q, s2, 0, 1000, 1.0, pa * (1 - 1e-9)) == ds::kRedEarly &&
              ds::red_arrival(q, s3, 0, 1000, 1.0, pa * (1 + 1e-9)) == ds::kRedAccept,
          "dsredq: p_a = p_b/(1 - count p_b)");
    // No clamp: count 21, 21*0.05 > 1: p_a = 0.05/(1 - 1.05) < 0, nothing drops.
    s3.count[0] = 20;
    check(ds::red_arrival(q, s3, 0, 1000, 1.0, 1e-12) == ds::kRedAccept, "dsredq: p_a < 0");
    ds::RedState f = s3;
    f.avg[0] = 15.5;
    check(ds::red_arrival(q, f, 0, 1000, 1.0, 0.99) == ds::kRedForced && f.count[0] == 0,
          "dsredq: forced above max_th, count 0");
  }
}

// 5. Bytes mode (RED): thresholds in bytes (min 5000, max 15000), avg 10000 (frozen):
//    p_b = 0.05. count holds count_bytes; count1 = int(count_bytes / 1000).
//    500 B after 9000 B: count_bytes 9500 -> count1 9 -> 0.05/(1 - 0.45) = 0.0909...
//      scaled by 500/1000: 0.045454545...
//    1500 B after 9000 B: 10500 -> 10 -> 0.05/0.5 = 0.1, scaled by 1.5: 0.15.
void test_bytes() {
  Params p = params(ds::kAqmRed);
  p.bytes = 1;
  p.qib = 1;
  p.min_th[0] = 5000.0;
  p.max_th[0] = 15000.0;
  const double small = 0.05 / 0.55 * 0.5, big = 0.1 * 1.5;
  ds::RedState a = frozen(10000.0, 9000, 1), b = a, c = a, d = a;
  check(ds::red_arrival(p, a, 0, 500, 1.0, small * (1 - 1e-9)) == ds::kRedEarly &&
            ds::red_arrival(p, b, 0, 500, 1.0, small * (1 + 1e-9)) == ds::kRedAccept,
        "bytes: small packet, p scaled by 500/1000");
  check(b.count[0] == 9500, "bytes: count holds count_bytes");
  check(ds::red_arrival(p, c, 0, 1500, 1.0, big * (1 - 1e-9)) == ds::kRedEarly &&
            ds::red_arrival(p, d, 0, 1500, 1.0, big * (1 + 1e-9)) == ds::kRedAccept,
        "bytes: large packet, p scaled by 1500/1000");
  // The average follows the byte count: w = 1/2, 10000 B queued: avg = 0.5*10000 + 0.5*10000.
  p.w_q = 0.5;
  ds::RedState e = frozen(10000.0, 0, 0);
  e.b[0] = 12000;
  ds::red_arrival(p, e, 0, 500, 1.0, 0.5);
  check(near(e.avg[0], 11000.0), "bytes: average over queued bytes");
}

// 5b. bytes_ and queue_in_bytes_ apart (red.cc: qib_ picks the averaged queue's unit in
//     enque(); bytes_ alone drives modify_p's count_bytes_ / mean_pktsize_ and size scaling).
//   bytes_ 1, queue_in_bytes_ 0: thresholds in packets (min 5, max 15), avg 10 packets
//     (frozen): p_b = 0.1 x (10 - 5) / 10 = 0.05; count holds count_bytes: 9000 + 500 = 9500
//     -> count1 = int(9500 / 1000) = 9 -> 0.05 / (1 - 0.45) = 0.0909..., x 500/1000 =
//     0.045454...; the average over 12 queued packets (12000 B), w = 1/2: 0.5 x 10 + 0.5 x 12
//     = 11 packets (with the queue in bytes: 11000).
//   bytes_ 0, queue_in_bytes_ 1: thresholds in bytes (5000, 15000), avg 10000 B: p_b = 0.05;
//     count in packets: 9 + 1 = 10 -> 0.05 / (1 - 0.5) = 0.1, not scaled by the 1500-B size
//     (bytes_ would make it 0.15); the average over 12000 queued bytes: 11000.
void test_bytes_split() {
  Params p = params(ds::kAqmRed);  // thresholds 5 / 15, wait 0
  p.bytes = 1;
  p.qib = 0;
  const double small = 0.05 / 0.55 * 0.5;
  ds::RedState a = frozen(10.0, 9000, 1), b = a;
  check(ds::red_arrival(p, a, 0, 500, 1.0, small * (1 - 1e-9)) == ds::kRedEarly &&
            ds::red_arrival(p, b, 0, 500, 1.0, small * (1 + 1e-9)) == ds::kRedAccept,
        "bytes_ without queue_in_bytes_: p from count_bytes, scaled by 500/1000");
  check(b.count[0] == 9500, "bytes_ without queue_in_bytes_: count holds count_bytes");
  p.w_q = 0.5;
  ds::RedState e = frozen(10.0, 0, 0);
  e.n[0] = 12;
  e.b[0] = 12000;
  ds::red_arrival(p, e, 0, 500, 1.0, 0.5);
  check(near(e.avg[0], 11.0), "bytes_ without queue_in_bytes_: average over queued packets");

  Params q = params(ds::kAqmRed);
  q.bytes = 0;
  q.qib = 1;
  q.min_th[0] = 5000.0;
  q.max_th[0] = 15000.0;
  ds::RedState c = frozen(10000.0, 9, 1), d = c;
  check(ds::red_arrival(q, c, 0, 1500, 1.0, 0.1 * (1 - 1e-9)) == ds::kRedEarly &&
            ds::red_arrival(q, d, 0, 1500, 1.0, 0.1 * (1 + 1e-9)) == ds::kRedAccept,
        "queue_in_bytes_ without bytes_: p from the packet count, not scaled by size");
  check(d.count[0] == 10, "queue_in_bytes_ without bytes_: count in packets");
  q.w_q = 0.5;
  ds::RedState f = frozen(10000.0, 0, 0);
  f.b[0] = 12000;
  ds::red_arrival(q, f, 0, 500, 1.0, 0.5);
  check(near(f.avg[0], 11000.0), "queue_in_bytes_ without bytes_: average over queued bytes");
}

}  // namespace

// 6. Multi-RED idle with the packet on the wire (dsredq.cc idle_/idletime_, Rossi gap:
//    benchmarks/ns2/gaps/rossi_red_replay.py). One colour (green), w_q = 1/2, ptc = 1 packet
//    per slot, thresholds far above; RIO-C, RIO-D and WRED average the same queue here.
//    An arrival while the last packet is on the wire sees n[] without it (the engine takes it
//    out around red_arrival) and must find the average busy: ns-2 marked the queue idle at
//    that packet's dequeue, so m = int(ptc (now - dequeue)) = 0.
//    G1 t=0   q=0, idle since 0, m = 0:        avg = 0
//    G2 t=0   q=1, busy:                       avg = 0*0.5 + 0.5*1              = 0.5
//    G1 sent [1,2], G2 sent [2,3]: idle since 2 (the start of G2's transmission)
//    G3 t=6   q=0, m = int(6 - 2) = 4:         avg = 0.5*0.5^5                  = 0.015625
//    G4 t=6.5 G3 on the wire (out of n[]), q=0, busy (G3 accepted; ns-2: idle since 6,
//             m = int(0.5) = 0):               avg = 0.015625*0.5               = 0.0078125
//             (the flag derived from n[] gave m = int(6.5 - 2) = 4: 0.015625*0.5^5)
//    G3 sent [6,7], G4 sent [7,8]: idle since 7
//    G5 t=10  m = int(10 - 7) = 3:             avg = 0.0078125*0.5^4            = 0.00048828125
//             (idle from the end of G4's transmission, 8, would give m = 2: 0.0009765625)
void test_idle_on_wire() {
  for (uint8_t aqm : {ds::kAqmRioC, ds::kAqmRioD, ds::kAqmWred}) {
    Params p = params(aqm);
    p.w_q = 0.5;
    for (int c = 0; c < ds::kMaxColours; ++c) {
      p.min_th[c] = 100.0;
      p.max_th[c] = 200.0;
    }
    ds::RedState s;
    ds::red_init(s);
    bool ok = arrive(p, s, 0, 0.0) == ds::kRedAccept && s.avg[0] == 0.0;
    ok = ok && arrive(p, s, 0, 0.0) == ds::kRedAccept && near(s.avg[0], 0.5);
    ds::red_dequeued(s, 0, 1000, 1.0, 2.0);
    ds::red_dequeued(s, 0, 1000, 2.0, 3.0);
    ok = ok && arrive(p, s, 0, 6.0) == ds::kRedAccept && near(s.avg[0], 0.015625);
    s.n[0] -= 1;  // G3 on the wire
    s.b[0] -= 1000;
    ok = ok && ds::red_arrival(p, s, 0, 1000, 6.5, 0.5) == ds::kRedAccept;
    s.n[0] += 1;
    s.b[0] += 1000;
    ds::red_enqueued(s, 0, 1000);
    ok = ok && near(s.avg[0], 0.0078125);
    ds::red_dequeued(s, 0, 1000, 6.0, 7.0);
    ds::red_dequeued(s, 0, 1000, 7.0, 8.0);
    ok = ok && arrive(p, s, 0, 10.0) == ds::kRedAccept && near(s.avg[0], 0.00048828125);
    check(ok, aqm == ds::kAqmRioC   ? "RIO-C: busy while the last packet is on the wire, idle from its start"
              : aqm == ds::kAqmRioD ? "RIO-D: busy while the last packet is on the wire, idle from its start"
                                    : "WRED: busy while the last packet is on the wire, idle from its start");
  }
  // RED keeps red.cc's moment: idle from the end of the last transmission.
  Params p = params(ds::kAqmRed);
  p.w_q = 0.5;
  p.min_th[0] = 100.0;
  p.max_th[0] = 200.0;
  ds::RedState s;
  ds::red_init(s);
  arrive(p, s, 0, 0.0);
  arrive(p, s, 0, 0.0);  // avg 0.5
  ds::red_dequeued(s, 0, 1000, 1.0, 2.0);
  ds::red_dequeued(s, 0, 1000, 2.0, 3.0);
  arrive(p, s, 0, 6.0);  // m = int(6 - 3) = 3: 0.5*0.5^4
  check(s.idle == 0 && near(s.avg[0], 0.03125), "RED: idle from the end of the transmission");
}

int main() {
  test_ewma_idle();
  test_count_spacing();
  test_gentle();
  test_colours();
  test_bytes();
  test_bytes_split();
  test_idle_on_wire();
  return report();
}
