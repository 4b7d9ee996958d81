// PIE (cuda/model/queue_pie.h) against hand-computed cases of RFC 8033 as ns-3's PieQueueDisc
// does it: the probability update with its auto-tuning, the cap of section 5.5, the idle
// decay and the bounds; the early-drop test's work-conserving rules, byte mode and
// derandomisation; the burst allowance (granted at the first test, counted down in exact
// nanoseconds) and the burst states.
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_pie.cpp -o test_pie
#include <cmath>
#include <cstdio>

#include "check.h"
#include "model/queue_pie.h"

namespace {

bool near(double a, double b, double tol = 1e-15) { return std::fabs(a - b) <= tol; }

ds::PieState quiet_state() {  // past its burst allowance, nothing queued yet
  ds::PieState s;
  ds::pie_init(s);
  s.burst_state = ds::kPieInBurstProtecting;
  return s;
}

void test_update() {
  const ds::PieParams p = ds::pie_ns3_defaults();
  ds::PieState s = quiet_state();
  // 30 ms against the 15 ms reference, from p = 0: (0.125 x 0.015 + 1.25 x 0.030) / 2048
  s.qdelay_s = 0.030;
  ds::pie_update(p, s);
  check(near(s.drop_prob, 0.039375 / 2048), "update from 0: /2048");
  check(s.qdelay_old_s == 0.030, "update keeps the delay as the old one");
  // the same delay again: 0.125 x 0.015 only, p in [1e-5, 1e-4): /128
  const double p1 = s.drop_prob;
  ds::pie_update(p, s);
  check(near(s.drop_prob, p1 + 0.001875 / 128), "second update: /128");
  // p >= 0.1: an increase capped at 0.02 a step (RFC 8033 section 5.5)
  s.drop_prob = 0.5;
  s.qdelay_old_s = 0.0;
  s.qdelay_s = 0.100;
  ds::pie_update(p, s);  // uncapped it would add 0.125 x 0.085 + 1.25 x 0.1 = 0.135625
  check(near(s.drop_prob, 0.52, 1e-15), "cap: +0.02");
  ds::PieParams nocap = p;
  nocap.cap_drop_adjustment = 0;
  s.drop_prob = 0.5;
  s.qdelay_old_s = 0.0;
  ds::pie_update(nocap, s);
  check(near(s.drop_prob, 0.635625, 1e-15), "no cap: +0.135625");
  // a decrease below 0.1: halved (0.125 x -0.010 + 1.25 x -0.005 = -0.0075, / 2)
  s.drop_prob = 0.05;
  s.qdelay_old_s = 0.010;
  s.qdelay_s = 0.005;
  ds::pie_update(p, s);
  check(near(s.drop_prob, 0.04625, 1e-15), "decrease: -0.00375");
  // idle (this and the last delay 0): the step (-0.001875, unscaled at p >= 0.1), then x 0.98
  s.drop_prob = 0.3;
  s.qdelay_old_s = 0.0;
  s.qdelay_s = 0.0;
  ds::pie_update(p, s);
  check(near(s.drop_prob, (0.3 - 0.001875) * 0.98, 1e-15), "idle decay");
  // bounds: never below 0, never above 1
  s.drop_prob = 0.001;
  s.qdelay_old_s = 1.0;
  s.qdelay_s = 0.0;
  ds::pie_update(p, s);
  check(s.drop_prob == 0.0, "bounded below by 0");
  s.drop_prob = 0.99;
  s.qdelay_old_s = 0.0;
  s.qdelay_s = 10.0;
  ds::pie_update(nocap, s);
  check(s.drop_prob == 1.0, "bounded above by 1");
}

void test_drop_early() {
  const ds::PieParams p = ds::pie_ns3_defaults();
  ds::PieState s = quiet_state();
  s.drop_prob = 0.1;
  s.qdelay_old_s = 0.020;
  check(ds::pie_drop_early(p, s, 10, 1000, 0.05), "u <= p: dropped");
  check(!ds::pie_drop_early(p, s, 10, 1000, 0.2), "u > p: kept");
  check(!ds::pie_drop_early(p, s, 2, 1000, 0.0), "two packets queued: never");
  s.qdelay_old_s = 0.005;  // under half the reference with p < 0.2: work conserving
  check(!ds::pie_drop_early(p, s, 10, 1000, 0.0), "low delay, p < 0.2: never");
  s.drop_prob = 0.25;      // ... unless p >= 0.2
  check(ds::pie_drop_early(p, s, 10, 1000, 0.2), "low delay, p >= 0.2: tested");
  // byte mode: p scaled by size / MeanPktSize; at most 2 x MeanPktSize queued: never
  ds::PieParams pb = p;
  pb.bytes_mode = 1;
  s.drop_prob = 0.1;
  s.qdelay_old_s = 0.020;
  check(!ds::pie_drop_early(pb, s, 5000, 500, 0.07), "bytes: 500 B at p 0.1 is 0.05 (u 0.07)");
  check(ds::pie_drop_early(pb, s, 5000, 500, 0.04), "bytes: 500 B at p 0.1 is 0.05 (u 0.04)");
  check(!ds::pie_drop_early(pb, s, 2000, 1000, 0.0), "bytes: 2000 B queued: never");
}

void test_derandomisation() {
  ds::PieParams p = ds::pie_ns3_defaults();
  p.derandomize = 1;
  ds::PieState s = quiet_state();
  s.drop_prob = 0.3;
  s.qdelay_old_s = 0.020;
  check(!ds::pie_drop_early(p, s, 10, 1000, 0.0), "accu 0.3 < 0.85: kept whatever u");
  check(!ds::pie_drop_early(p, s, 10, 1000, 0.0), "accu 0.6: kept");
  check(!ds::pie_drop_early(p, s, 10, 1000, 0.5), "accu 0.9: u 0.5 > 0.3 kept");
  check(ds::pie_drop_early(p, s, 10, 1000, 0.1), "accu 1.2: u 0.1 dropped");
  ds::pie_dropped(s);
  check(s.accu_prob == 0.0, "a drop resets the accumulator");
  // at p 0.9 with every u above p, the tenth test reaches 9.0 >= 8.5: dropped regardless
  s.drop_prob = 0.9;
  int first = 0;
  for (int i = 1; i <= 12 && !first; ++i)
    if (ds::pie_drop_early(p, s, 10, 1000, 0.95)) first = i;
  check(first == 10, "accu >= 8.5 drops at the tenth test");
}

void test_burst() {
  const ds::PieParams p = ds::pie_ns3_defaults();
  ds::PieState s;
  ds::pie_init(s);
  s.drop_prob = 0.5;
  s.qdelay_old_s = 0.100;
  // the first test grants the allowance and then still tests this packet (ns-3's DropEarly)
  check(ds::pie_drop_early(p, s, 10, 1000, 0.1), "first test: allowance granted, then tested");
  check(s.burst_state == ds::kPieInBurstProtecting && s.burst_allowance_ns == 150000000,
        "150 ms allowance");
  check(!ds::pie_drop_early(p, s, 10, 1000, 0.0), "inside the allowance: never");
  // while the allowance lasts the update holds p at 0; 10 updates of 15 ms use it up exactly
  s.qdelay_s = 0.100;
  for (int i = 0; i < 10; ++i) ds::pie_update(p, s);
  check(s.burst_allowance_ns == 0, "150 ms - 10 x 15 ms = 0 exactly");
  // ... where 0.15 - 10 x 0.015 in doubles is not 0 from repeated subtraction
  double left = 0.15;
  for (int i = 0; i < 10; ++i) left -= 0.015;
  check(left != 0.0, "(why nanoseconds: the double count-down misses 0)");
  check(s.drop_prob == 0.0, "p held at 0 during the burst");
  // quiet updates: IN_BURST_PROTECTING -> IN_BURST, then after more than 1.5 s / 15 ms = 100
  // further quiet updates NO_BURST
  s.qdelay_s = 0.0;
  s.qdelay_old_s = 0.0;
  s.drop_prob = 0.0;
  ds::pie_update(p, s);
  check(s.burst_state == ds::kPieInBurst && s.burst_reset == 0, "quiet: IN_BURST");
  int updates = 0;
  while (s.burst_state == ds::kPieInBurst && updates < 1000) {
    ds::pie_update(p, s);
    ++updates;
  }
  check(updates == 101 && s.burst_state == ds::kPieNoBurst, "101 quiet updates: NO_BURST");
  // a busy update in IN_BURST restarts the count
  s.burst_state = ds::kPieInBurst;
  s.burst_reset = 50;
  s.qdelay_s = 0.050;
  ds::pie_update(p, s);
  check(s.burst_reset == 0 && s.burst_state == ds::kPieInBurst, "busy: count restarts");
}

void test_departure() {
  ds::PieState s;
  ds::pie_init(s);
  ds::pie_departed(s, 0.012, 3000);
  check(s.qdelay_s == 0.012, "the departure's sojourn is the delay");
  ds::pie_departed(s, 0.012, 0);
  check(s.qdelay_s == 0.0, "the queue left empty: 0");
}

}  // namespace

int main() {
  test_update();
  test_drop_early();
  test_derandomisation();
  test_burst();
  test_departure();
  return report();
}
