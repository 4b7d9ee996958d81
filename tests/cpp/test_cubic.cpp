// CUBIC (cuda/model/tcp_cubic.h) against hand-computed cases: K and the window curve
// W(t) = C (t - K)^3 + W_max (RFC 9438 eqs. 1-2) as ns-3.44's TcpCubic truncates it, the
// multiplicative decrease and fast convergence's W_max, the TCP-friendly estimate (Linux's ACK
// count), the per-ACK counter on a small window, slow start, and HyStart's two exits.
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_cubic.cpp -o test_cubic
#include <cmath>
#include <cstdio>

#include "check.h"
#include "model/tcp_cubic.h"

namespace {

using ds::CubicParams;
using ds::CubicState;

// ns-3.44's defaults, slot_s = 1 ms
struct Params {
  double v[ds::kCubicParams] = {0.4, 0.7, 1, 1, 1, 16, 3, 8, 0.002, 0.004, 1.0, 0.010, 20, 0.001};
  CubicParams p() const { return CubicParams{v}; }
};

CubicState fresh() {
  CubicState c{};
  ds::cubic_init(c, 1, 0, 0);
  return c;
}

void test_k_and_curve() {
  // W_max = 100 segments, cwnd 70 = beta W_max: K = cbrt(100 (1 - 0.7) / 0.4) = cbrt(75)
  const double k = ds::cubic_k_s(100, 70, 0.4);
  check(std::fabs(k - 4.2171633265087) < 1e-12, "K = cbrt(W_max (1 - beta) / C) = 4.21716 s");
  check(ds::cubic_k_s(50, 50, 0.4) == 0.0, "K = 0 at W_max");
  Params P;
  CubicState c = fresh();
  c.last_max_cwnd = 100;
  c.delay_min_s = -1.0;  // no RTT yet: t = time since the epoch's start
  ds::cubic_update(c, P.p(), 70, 1, 1000);  // the epoch starts at slot 1000
  check(c.epoch_start == 1000 && c.origin_point == 100, "epoch: origin W_max");
  check(std::fabs(c.bic_k_s - k) < 1e-15, "epoch: K");
  // W(t) = 0.4 (t - K)^3 + 100, the cubic term truncated to whole segments (ns-3):
  // t = 1 s: 100 - 13.32 -> 87; t = K: 100; t = 6 s: 100 + 2.27 -> 102; t = 10 s: 177.35 -> 177
  const struct { uint32_t slot; uint32_t want; double rfc; } pts[] = {
      {1000 + 1000, 87, 86.68}, {1000 + 6000, 102, 102.27}, {1000 + 10000, 177, 177.35}};
  for (const auto& q : pts) {
    const uint32_t w = ds::cubic_target(c, P.p(), q.slot);
    const double t = (q.slot - 1000) * 0.001;
    const double rfc = 0.4 * std::pow(t - k, 3) + 100.0;
    check(w == q.want, "W(t) as ns-3 truncates it");
    check(std::fabs(rfc - q.rfc) < 0.01 && (double)w - rfc < 1.0 && (double)w - rfc > -1.0,
          "W(t) within a segment of RFC 9438 eq. 1");
  }
  // at t = K (4.217 s: slot 5217) the target is W_max itself, offs ~ 0
  check(ds::cubic_target(c, P.p(), 1000 + 4217) == 100, "W(K) = W_max");
  // the counter: 70 segments, the target 1 s ahead is 87 at slot 2000: cnt = 70 / 17 = 4
  CubicState d = c;
  check(ds::cubic_update(d, P.p(), 70, 1, 2000) == 70 / (87 - 70), "cnt = cwnd / (target - cwnd)");
  // above the target: cnt = 100 cwnd (no growth to speak of)
  CubicState e = c;
  Params Q;
  Q.v[ds::kCubFriendly] = 0;
  check(ds::cubic_update(e, Q.p(), 120, 1, 1000 + 1000) == 100u * 120, "above target: 100 cwnd");
}

void test_decrease() {
  Params P;
  CubicState c = fresh();
  // first loss at 100 segments: W_max = 100, ssthresh = beta * 100 = 70
  check(ds::cubic_ssthresh(c, P.p(), 100) == 70, "ssthresh = beta cwnd");
  check(c.last_max_cwnd == 100 && c.epoch_start == ds::kCubicNever, "W_max = cwnd, epoch over");
  // the next loss below W_max: fast convergence W_max = 80 (1 + 0.7) / 2 = 68
  check(ds::cubic_ssthresh(c, P.p(), 80) == 56, "ssthresh = beta 80 = 56");
  check(c.last_max_cwnd == 68, "fast convergence: W_max = cwnd (1 + beta) / 2");
  Params Q;
  Q.v[ds::kCubFastConv] = 0;
  CubicState d = fresh();
  ds::cubic_ssthresh(d, Q.p(), 100);
  ds::cubic_ssthresh(d, Q.p(), 80);
  check(d.last_max_cwnd == 80, "without fast convergence: W_max = cwnd");
  check(ds::cubic_ssthresh(d, Q.p(), 2) == 2, "ssthresh at least 2");
}

void test_friendly() {
  // scale = (uint32)(8 (1024 + 716.8) / 3 / 307.2) = 15; with 10 segments the Reno estimate
  // gains one per (10 * 15) >> 3 = 18 segments acknowledged (RFC 9438: alpha = 0.529 per RTT,
  // one per 18.9 ACKs); once it is ahead (11 > 10), cnt <= 10 / (11 - 10) = 10
  Params P;
  P.v[ds::kCubCntClamp] = 255;  // (no W_max yet: the clamp would hide the friendly bound)
  CubicState c = fresh();
  uint32_t cnt = 0;
  for (uint32_t k = 1; k <= 18; ++k) {
    cnt = ds::cubic_update(c, P.p(), 10, 1, k);
    check(cnt == 255 && c.tcp_cwnd == 10, "Reno estimate not ahead yet");
  }
  cnt = ds::cubic_update(c, P.p(), 10, 1, 19);
  check(c.tcp_cwnd == 11 && c.ack_cnt == 1, "Reno estimate one segment up after 19 ACKs");
  check(cnt == 10, "TCP-friendly: cnt = cwnd / (W_est - cwnd)");
  Params Q = P;
  Q.v[ds::kCubFriendly] = 0;
  CubicState d = fresh();
  for (uint32_t k = 1; k <= 19; ++k) cnt = ds::cubic_update(d, Q.p(), 10, 1, k);
  check(cnt == 255, "TCP friendliness off: the cubic counter alone");
}

void test_counter_growth() {
  // congestion avoidance from 10 segments, no W_max yet (cnt clamped to CntClamp = 20) and the
  // TCP-friendly bound off: one segment more after 20 ACKs, then after 20 more
  Params P;
  P.v[ds::kCubFriendly] = 0;
  CubicState c = fresh();
  double cwnd = 10.0;
  for (uint32_t k = 1; k <= 19; ++k) ds::cubic_increase(c, P.p(), cwnd, 5, 1, (int32_t)k, 100, 1000, k);
  check(cwnd == 10.0 && c.cwnd_cnt == 19, "19 ACKs: no increment yet");
  ds::cubic_increase(c, P.p(), cwnd, 5, 1, 20, 100, 1000, 20);
  check(cwnd == 11.0 && c.cwnd_cnt == 0, "20th ACK: cwnd 11, counter back to 0");
  for (uint32_t k = 21; k <= 40; ++k) ds::cubic_increase(c, P.p(), cwnd, 5, 1, (int32_t)k, 100, 1000, k);
  check(cwnd == 12.0, "20 more: cwnd 12");
  // the receiver's window caps it
  double w = 30.0;
  ds::cubic_increase(c, P.p(), w, 5, 1, 41, 100, 30, 41);
  check(w == 30.0, "no growth at max_window");
  // slow start by segments acknowledged (ABC): 4 + 1, then + 2
  CubicState s = fresh();
  double ss = 4.0;
  ds::cubic_increase(s, P.p(), ss, 100, 1, 0, 10, 1000, 1);
  ds::cubic_increase(s, P.p(), ss, 100, 2, 2, 10, 1000, 2);
  check(ss == 7.0, "slow start: cwnd + segments acknowledged");
  check(s.end_seq == 10, "HyStart: the first ACK starts a round ending at maxseq");
}

void test_hystart() {
  Params P;
  // ACK train: ACKs 1 ms apart (<= HyStartAckDelta 2 ms); delay_min 50 ms: the train ends
  // slow start once it is longer than 50 ms
  CubicState c = fresh();
  int32_t ssthresh = 1000;
  ds::hystart_reset(c, 100, 0);
  uint32_t found_at = 0;
  for (uint32_t now = 1; now <= 100 && !found_at; ++now) {
    ds::cubic_pkts_acked(c, P.p(), 20.0, ssthresh, 0.050, now);
    if (c.found) found_at = now;
  }
  check(found_at == 51 && ssthresh == 20, "ACK train longer than delay_min: ssthresh = cwnd");
  // ACKs 3 ms apart: no train
  CubicState d = fresh();
  ssthresh = 1000;
  ds::hystart_reset(d, 100, 0);
  for (uint32_t now = 3; now <= 300; now += 3) ds::cubic_pkts_acked(d, P.p(), 20.0, ssthresh, 0.050, now);
  check(!d.found && ssthresh == 1000, "ACKs 3 ms apart: no train");
  // below HyStartLowWindow nothing runs
  CubicState e = fresh();
  ds::hystart_reset(e, 100, 0);
  for (uint32_t now = 1; now <= 100; ++now) ds::cubic_pkts_acked(e, P.p(), 15.0, ssthresh, 0.050, now);
  check(!e.found, "cwnd below HyStartLowWindow: no HyStart");
  // delay: delay_min 10 ms, then a round whose first 8 samples are 25 ms > 10 + clamp(10, 4,
  // 1000) = 20 ms: found on the 9th ACK (ACKs 5 ms apart, no train)
  Params D;
  D.v[ds::kCubDetect] = ds::kHystartDelay;
  CubicState g = fresh();
  ssthresh = 1000;
  g.delay_min_s = 0.010;
  ds::hystart_reset(g, 100, 0);
  int k = 0;
  for (uint32_t now = 5; k < 9; now += 5, ++k) ds::hystart_update(g, D.p(), 30.0, ssthresh, 0.025, now);
  check(g.found && ssthresh == 30, "delay increase past the threshold: ssthresh = cwnd");
  CubicState h = fresh();
  ssthresh = 1000;
  h.delay_min_s = 0.010;
  ds::hystart_reset(h, 100, 0);
  for (uint32_t now = 5, j = 0; j < 20; now += 5, ++j) ds::hystart_update(h, D.p(), 30.0, ssthresh, 0.019, now);
  check(!h.found, "delay 19 ms < 20 ms: slow start goes on");
  // CubicDelta: samples within 10 ms of an epoch's start are discarded
  CubicState m = fresh();
  m.epoch_start = 100;
  ds::cubic_pkts_acked(m, P.p(), 20.0, ssthresh, 0.030, 105);
  check(m.delay_min_s < 0.0, "a sample 5 ms after the epoch's start is discarded");
  ds::cubic_pkts_acked(m, P.p(), 20.0, ssthresh, 0.030, 111);
  check(m.delay_min_s == 0.030, "11 ms after it: delay_min = the sample");
}

void test_timeout_reset() {
  CubicState c = fresh();
  c.last_max_cwnd = 90;
  c.origin_point = 90;
  c.bic_k_s = 3.0;
  c.delay_min_s = 0.1;
  c.found = 1;
  ds::cubic_timeout_reset(c, 55, 7);
  check(c.last_max_cwnd == 90, "CubicReset keeps W_max (ns-3.44)");
  check(c.origin_point == 0 && c.bic_k_s == 0.0 && c.delay_min_s < 0.0 && !c.found,
        "CubicReset: origin, K, delay_min, HyStart's exit");
  check(c.end_seq == 55 && c.round_start == 7, "HystartReset: a new round");
}

}  // namespace

int main() {
  test_k_and_curve();
  test_decrease();
  test_friendly();
  test_counter_growth();
  test_hystart();
  test_timeout_reset();
  return report();
}
