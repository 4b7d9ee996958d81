// CoDel (cuda/model/queue_codel.h) against hand-computed cases: ns-3's CoDel time (ns >> 10),
// its fixed-point control law (t + interval * rec_inv_sqrt) and Newton steps against the real
// recurrence and RFC 8289's interval / sqrt(count), the entry into the dropping state after an
// interval above target, the drop schedule, the exit below target, MinBytes, the count reset
// on re-entry, and the queueing-delay histogram's bins (cuda/batch.h: qdelay_bin).
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_codel.cpp -o test_codel
#include <cmath>
#include <cstdio>
#include <vector>

#include "batch.h"
#include "check.h"
#include "model/queue_codel.h"

namespace {

using ds::CodelParams;
using ds::CodelState;

// A backlog as CoDel sees it: n packets, each with the same sojourn and `left` bytes behind
// the head; records when (CoDel time) each drop happened.
struct FakeQueue {
  int n = 1000;
  uint32_t sojourn = 0;
  int64_t left = 100000;
  uint32_t now = 0;
  std::vector<uint32_t> drops;
  bool head(uint32_t& s, int64_t& b) {
    if (n == 0) return false;
    s = sojourn;
    b = left;
    return true;
  }
  void drop_head() {
    --n;
    drops.push_back(now);
  }
  bool ecn = false;  // every packet ECT and the queue marking (ns-3 UseEcn)
  std::vector<uint32_t> marks;
  bool mark_head() {
    if (ecn) marks.push_back(now);
    return ecn;
  }
};

CodelParams ns3_defaults() {
  CodelParams p;
  p.target = 5000000 >> 10;     // Time2CoDel(5 ms) = 4882
  p.interval = 100000000 >> 10;  // Time2CoDel(100 ms) = 97656
  p.min_bytes = 1500;
  return p;
}

void dequeue_at(const CodelParams& p, CodelState& s, FakeQueue& q, uint32_t t) {
  q.now = t;
  ds::codel_dequeue(p, s, t, q);
}

constexpr uint32_t kT0 = 1000000;  // the first dequeue (> 0: first_above_time 0 is "not above")
constexpr uint32_t kMs = 977;      // ~1 ms of CoDel time

// ns-3's defaults, a fresh state and a backlog whose heads all have `sojourn_ms`, dequeued
// from kT0 on.
struct Bench {
  CodelParams p = ns3_defaults();
  CodelState s;
  FakeQueue q;
  uint32_t t = kT0;
  explicit Bench(uint32_t sojourn_ms) {
    ds::codel_init(s);
    q.sojourn = (sojourn_ms * 1000000u) >> 10;
  }
  void every_ms(int n) {  // n dequeues a ms apart
    for (int i = 0; i < n; ++i, t += kMs) dequeue_at(p, s, q, t);
  }
};

void test_time_units() {
  const CodelParams p = ns3_defaults();
  check(p.target == 4882 && p.interval == 97656, "5 ms and 100 ms in CoDel time: 4882, 97656");
  // a 10 Mb/s slot of 1040 B is 832 us: 6 slots = 4.992 ms (below target), 7 = 5.824 ms
  check(ds::codel_time(6.0, 832000.0) == 4875 && ds::codel_time(7.0, 832000.0) == 5687,
        "codel_time: 6 and 7 slots of 832 us");
  check(ds::codel_before(ds::codel_time(6.0, 832000.0), p.target) &&
            !ds::codel_before(ds::codel_time(7.0, 832000.0), p.target),
        "6 slots below the 5-ms target, 7 at or above it");
}

void test_control_law() {
  // count 1: rec_inv_sqrt 0xFFFF (1 - 2^-16): floor(97656 x 65535 / 65536) = 97654
  check(ds::codel_control_law(0, 97656, ds::kRecInvSqrtOne) == 97654,
        "control law at count 1: t + 97654");
  check(ds::codel_control_law(1000, 97656, ds::kRecInvSqrtOne) == 98654,
        "control law adds to t");
  // rec_inv_sqrt 0x8000 (1/2): interval / 2 = 48828 exactly
  check(ds::codel_control_law(0, 97656, 0x8000) == 48828, "control law at 1/sqrt(count) = 1/2");
  // One Newton step per count, from 1 (ns-3 and Linux): x <- x (3 - c x^2) / 2. The fixed point
  // follows the real recurrence to 16 bits, and reaches RFC 8289's 1/sqrt(count): 0.5 at count
  // 2 (a first step from 1; 1/sqrt(2) = 0.707), within 3% from count 3, 1% from count 7.
  uint16_t rec = ds::kRecInvSqrtOne;
  double x = 1.0;
  bool follows = true, near3 = true, near6 = true;
  for (uint32_t c = 2; c < 64; ++c) {
    rec = ds::codel_newton_step(rec, c);
    x = x / 2.0 * (3.0 - (double)c * x * x);
    const double got = rec / 65536.0;
    if (std::fabs(got - x) > 4.0 / 65536.0) follows = false;
    const double ideal = 1.0 / std::sqrt((double)c);
    if (c >= 3 && std::fabs(got / ideal - 1.0) > 0.03) near3 = false;
    if (c >= 7 && std::fabs(got / ideal - 1.0) > 0.01) near6 = false;
    if (c == 2) check(std::fabs(got - 0.5) < 4.0 / 65536.0, "Newton step 1 -> count 2: 0.5");
  }
  check(follows, "fixed-point Newton steps follow x (3 - c x^2) / 2 to 4/65536");
  check(near3, "rec_inv_sqrt within 3% of 1/sqrt(count) for count >= 3");
  check(near6, "rec_inv_sqrt within 1% of 1/sqrt(count) for count >= 7");
  // repeated steps at one count converge to 1/sqrt(count): count 4 -> 1/2
  uint16_t r4 = 0x8000 + 0x1000;
  for (int i = 0; i < 8; ++i) r4 = ds::codel_newton_step(r4, 4);
  check(std::abs((int)r4 - 0x8000) <= 2, "Newton steps at count 4 converge to 1/2");
}

// A standing queue (sojourn 20 ms) dequeued every ms: the first sojourn above target arms
// first_above_time = now + interval; the first dequeue strictly after it drops and enters the
// dropping state; later drops come interval * rec_inv_sqrt(count) after the last.
void test_drop_schedule() {
  Bench b(20);
  const CodelParams& p = b.p;
  CodelState& s = b.s;
  FakeQueue& q = b.q;
  const uint32_t t0 = kT0, step = kMs;
  uint32_t t = t0;
  dequeue_at(p, s, q, t);
  check(s.first_above_time == t0 + p.interval && !s.dropping && q.drops.empty(),
        "first sojourn above target: first_above_time = now + interval, no drop");
  dequeue_at(p, s, q, t0 + p.interval);
  check(q.drops.empty(), "no drop at exactly first_above_time (CoDelTimeAfter is strict)");
  t = t0 + p.interval + 1;
  dequeue_at(p, s, q, t);
  check(q.drops.size() == 1 && q.drops[0] == t && s.dropping && s.count == 1,
        "first dequeue after an interval above target drops, count 1");
  check(s.drop_next == t + 97654, "next drop one interval later (count 1)");
  // run on: each drop at the first dequeue at or after drop_next
  std::vector<uint32_t> due{s.drop_next};
  for (t += step; q.drops.size() < 12; t += step) {
    const uint32_t before = (uint32_t)q.drops.size();
    const uint32_t next = s.drop_next;
    dequeue_at(p, s, q, t);
    if (q.drops.size() > before) {
      check(t >= next && t < next + step, "a drop at the first dequeue at or after drop_next");
      due.push_back(s.drop_next);
    } else {
      check(t < next, "no drop before drop_next");
    }
  }
  // the gaps between scheduled drops: interval * rec_inv_sqrt(count), as RFC 8289's
  // interval / sqrt(count) within the Newton steps' error (3% from count 3)
  bool gaps = true;
  for (size_t k = 2; k < due.size(); ++k) {  // due[k]: scheduled at drop k + 1, count k + 1
    const double gap = (double)(due[k] - due[k - 1]);
    const double ideal = p.interval / std::sqrt((double)(k + 1));
    if (std::fabs(gap / ideal - 1.0) > 0.03) gaps = false;
  }
  check(gaps, "drop gaps interval / sqrt(count) within 3% (counts 3..12)");
  check(s.count == 12, "count = drops since entering the dropping state");
}

// ECN (ns-3 UseEcn): the same backlog with every packet ECT marks where it would drop: the
// first mark enters the dropping state with count 1 and drop_next = now + 97654, the head is
// not dropped (it is the packet sent); a later mark in the dropping state takes one count and
// schedules the next from now (ns-3: ControlLaw(now, ...)), one mark per dequeue.
void test_ecn_marks() {
  Bench b(20);
  b.q.ecn = true;
  const CodelParams& p = b.p;
  CodelState& s = b.s;
  FakeQueue& q = b.q;
  uint32_t t = kT0;
  dequeue_at(p, s, q, t);
  t = kT0 + p.interval + 1;
  dequeue_at(p, s, q, t);
  check(q.marks.size() == 1 && q.drops.empty() && q.n == 1000, "the first mark drops nothing");
  check(s.dropping && s.count == 1 && s.drop_next == t + 97654, "dropping state, count 1");
  // a dequeue 2 intervals later: one mark only (no while loop of marks), count 2,
  // drop_next = now + interval x rec_inv_sqrt(2)
  t += 2 * p.interval;
  dequeue_at(p, s, q, t);
  check(q.marks.size() == 2 && q.drops.empty(), "one mark per dequeue");
  check(s.count == 2 && s.drop_next == ds::codel_control_law(t, p.interval, s.rec_inv_sqrt),
        "the next from now, not from the old drop_next");
}

void test_exit_and_reentry() {
  Bench b(20);
  const CodelParams& p = b.p;
  CodelState& s = b.s;
  FakeQueue& q = b.q;
  b.every_ms(400);  // 400 ms above target
  uint32_t t = b.t;
  const uint32_t count = s.count, dropped = (uint32_t)q.drops.size();
  check(s.dropping && count >= 4, "still dropping after 400 ms above target");
  q.sojourn = 4000000 >> 10;  // 4 ms: below target
  dequeue_at(p, s, q, t);
  check(!s.dropping && s.first_above_time == 0 && q.drops.size() == dropped,
        "a head below target leaves the dropping state, no drop");
  // back above target soon after (well within 16 intervals of drop_next): after an interval
  // above target the dropping state resumes with count = count - last_count (RFC 8289 3.3)
  q.sojourn = 20000000 >> 10;
  t += kMs;
  dequeue_at(p, s, q, t);
  const uint32_t armed = s.first_above_time;
  dequeue_at(p, s, q, armed + 1);
  check(s.dropping && s.count == count - 1, "re-entry within 16 intervals: count - last_count");
  check(s.last_count == s.count, "last_count = the count the state was entered with");
  // far later (beyond 16 intervals of drop_next): count restarts at 1
  CodelState s2 = s;
  s2.dropping = 0;
  s2.first_above_time = 0;
  FakeQueue q2 = q;
  const uint32_t late = s2.drop_next + 17 * p.interval;
  dequeue_at(p, s2, q2, late);
  dequeue_at(p, s2, q2, late + p.interval + 1);
  check(s2.dropping && s2.count == 1, "re-entry after 16 intervals: count 1");
}

void test_min_bytes_and_empty() {
  Bench b(50);
  const CodelParams& p = b.p;
  CodelState& s = b.s;
  FakeQueue& q = b.q;
  q.left = 1499;  // less than MinBytes behind the head: never ok to drop
  b.every_ms(300);
  check(q.drops.empty() && !s.dropping && s.first_above_time == 0,
        "fewer than MinBytes (1499 of 1500) behind the head: no drop");
  q.left = 1500;
  b.every_ms(300);
  const uint32_t t = b.t;
  check(!q.drops.empty() && s.dropping, "MinBytes (1500) behind the head: drops");
  q.n = 0;  // the queue empty at a dequeue: the dropping state ends
  dequeue_at(p, s, q, t);
  check(!s.dropping, "a dequeue of an empty queue leaves the dropping state");
}

void test_qdelay_bins() {
  check(ds::qdelay_bin(0) == 0 && ds::qdelay_bin(63) == 63, "one bin per slot below 64");
  check(ds::qdelay_bin(64) == 64 && ds::qdelay_bin(71) == 64 && ds::qdelay_bin(72) == 65,
        "[64, 72) then [72, 80): 8 bins in the octave 64..127");
  check(ds::qdelay_bin(127) == 71 && ds::qdelay_bin(128) == 72 && ds::qdelay_bin(143) == 72 &&
            ds::qdelay_bin(144) == 73,
        "octave 128..255 in bins of 16");
  check(ds::qdelay_bin((1u << 24) - 1) == ds::kQDelayBins - 2 &&
            ds::qdelay_bin(1u << 24) == ds::kQDelayBins - 1 &&
            ds::qdelay_bin(0xFFFFFFFFu) == ds::kQDelayBins - 1,
        "waits of 2^24 slots and more in the last bin");
  check(ds::kQDelayBins == 209, "64 + 8 x 18 + 1 bins");
}

}  // namespace

int main() {
  test_time_units();
  test_control_law();
  test_drop_schedule();
  test_exit_and_reentry();
  test_ecn_marks();
  test_min_bytes_and_empty();
  test_qdelay_bins();
  return report();
}
