// DCTCP's congestion estimate (cuda/model/tcp_dctcp.h) against hand-computed cases of RFC 8257
// section 3.3 as ns-3's TcpDctcp does it: the observation window that ends when the cumulative
// ACK reaches the sequence next to send at its start, alpha's EWMA with g = 1/16, and the
// ssthresh of (1 - alpha/2) x cwnd truncated to whole bytes; and its growth, ns-3.44's
// TcpLinuxReno (cuda/model/tcp_linux_reno.h), on hand-stepped ACKs.
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_dctcp.cpp -o test_dctcp
#include <cmath>
#include <cstdio>

#include "check.h"
#include "model/tcp_dctcp.h"
#include "model/tcp_linux_reno.h"

namespace {

bool near(double a, double b, double tol = 1e-15) { return std::fabs(a - b) <= tol; }

void test_window_and_alpha() {
  const ds::DctcpParams p = ds::dctcp_ns3_defaults();
  check(p.g == 0.0625 && p.alpha_init == 1.0, "ns-3's defaults");
  ds::DctcpState s;
  ds::dctcp_init(p, s);
  check(s.alpha == 1.0, "alpha starts at DctcpAlphaOnInit");
  // the first ACK fixes the window's end: the sequence next to send then (10)
  check(!ds::dctcp_pkts_acked(p, s, 1, false, 2, 10) && s.next_seq == 10, "window ends at 10");
  // seven more ACKs of one segment each, two of them with ECE (ACKs 5 and 6)
  for (int32_t a = 3; a <= 9; ++a)
    check(!ds::dctcp_pkts_acked(p, s, 1, a == 5 || a == 6, a, 10 + a), "inside the window");
  check(s.acked_total == 8 && s.acked_ece == 2, "8 acked, 2 of them with ECE");
  // the ACK reaching 10 ends it: M = 2 / 9, alpha = 15/16 x 1 + 1/16 x 2/9
  check(ds::dctcp_pkts_acked(p, s, 1, false, 10, 20), "window ended");
  check(near(s.alpha, 0.9375 + 0.0625 * 2.0 / 9.0), "alpha after one window");
  check(s.next_seq == 20 && s.acked_total == 0 && s.acked_ece == 0, "a new window from 20");
  // a window all marked: M = 1
  const double a1 = s.alpha;
  check(ds::dctcp_pkts_acked(p, s, 10, true, 20, 35), "a whole window in one ACK");
  check(near(s.alpha, 0.9375 * a1 + 0.0625), "M = 1");
  // sixteen windows without marks from alpha = 1: (15/16)^16
  ds::dctcp_init(p, s);
  int32_t seq = 0;
  for (int w = 0; w < 16; ++w) {
    ds::dctcp_pkts_acked(p, s, 0, false, seq, seq + 10);  // fixes (or moves) the window
    seq += 10;
    ds::dctcp_pkts_acked(p, s, 10, false, seq, seq + 10);
  }
  check(near(s.alpha, std::pow(15.0 / 16.0, 16), 1e-12), "(15/16)^16 = 0.356");
  // a window end reached by an ACK acknowledging nothing new: M = 0, no division by zero
  ds::DctcpState z;
  ds::dctcp_init(p, z);
  check(ds::dctcp_pkts_acked(p, z, 0, false, 5, 5) && near(z.alpha, 0.9375), "empty window");
}

void test_ssthresh() {
  ds::DctcpState s{};
  s.alpha = 0.5;
  check(ds::dctcp_ssthresh_pkts(s, 10.0, 1000) == 7.5, "alpha 0.5: 3/4 of 10 packets");
  s.alpha = 1.0 / 3.0;  // (1 - 1/6) x 7 x 1448 = 8446.67 B -> 8446 B
  check(near(ds::dctcp_ssthresh_pkts(s, 7.0, 1448), 8446.0 / 1448.0), "truncated to bytes");
  s.alpha = 0.0;
  check(ds::dctcp_ssthresh_pkts(s, 12.0, 1000) == 12.0, "no marks: no cut");
  s.alpha = 1.0;
  check(ds::dctcp_ssthresh_pkts(s, 12.0, 1000) == 6.0, "all marked: halved, as Reno");
}

// TcpLinuxReno::IncreaseWindow stepped by hand (ns-3.44 tcp-linux-reno.cc).
void test_linux_reno_growth() {
  uint32_t cnt = 0;
  double cwnd = 1.0;
  // slow start: a segment per acknowledged segment, capped at ssthresh; the rest dropped
  ds::linux_reno_increase(cwnd, 4, cnt, 1, 1000);
  check(cwnd == 2.0 && cnt == 0, "slow start: 1 -> 2");
  cwnd = 3.0;
  ds::linux_reno_increase(cwnd, 4, cnt, 2, 1000);
  check(cwnd == 4.0 && cnt == 0, "slow start capped at ssthresh 4, the other segment dropped");
  ds::linux_reno_increase(cwnd, 4, cnt, 0, 1000);
  check(cwnd == 4.0 && cnt == 0, "an ACK of nothing new grows nothing");
  // congestion avoidance at 4 segments: one segment after 4 acknowledged
  for (int a = 1; a <= 3; ++a) ds::linux_reno_increase(cwnd, 4, cnt, 1, 1000);
  check(cwnd == 4.0 && cnt == 3, "three ACKs counted");
  ds::linux_reno_increase(cwnd, 4, cnt, 1, 1000);
  check(cwnd == 5.0 && cnt == 0, "the fourth adds a segment");
  // DCTCP's cut left 1.9 segments: w = 1, so each ACK adds a whole segment (ns-2's
  // opencwnd would add 1/1.9 = 0.53), then w = 2 at 2.9
  cwnd = 1.9;
  cnt = 0;
  ds::linux_reno_increase(cwnd, 1, cnt, 1, 1000);
  check(std::fabs(cwnd - 2.9) < 1e-15 && cnt == 0, "w 1: 1.9 -> 2.9 in one ACK");
  ds::linux_reno_increase(cwnd, 1, cnt, 1, 1000);
  check(std::fabs(cwnd - 2.9) < 1e-15 && cnt == 1, "w 2: counted");
  ds::linux_reno_increase(cwnd, 1, cnt, 1, 1000);
  check(std::fabs(cwnd - 3.9) < 1e-15 && cnt == 0, "w 2: the second adds a segment");
  // a window below a segment (no floor in DCTCP's cut): w is 1
  cwnd = 0.4;
  cnt = 0;
  ds::linux_reno_increase(cwnd, 0, cnt, 1, 1000);
  check(std::fabs(cwnd - 1.4) < 1e-15 && cnt == 0, "w 0 counts as 1: 0.4 -> 1.4");
  // a counter left above a w that a reduction made smaller: a segment first, then counted
  cwnd = 3.5;
  cnt = 5;
  ds::linux_reno_increase(cwnd, 3, cnt, 1, 1000);
  check(cwnd == 4.5 && cnt == 1, "cnt 5 >= w 3: +1, then cnt 1");
  // an ACK of many segments (a recovery's end: the whole advance): cnt / w segments at once
  cwnd = 6.0;
  cnt = 0;
  ds::linux_reno_increase(cwnd, 6, cnt, 13, 1000);
  check(cwnd == 8.0 && cnt == 1, "13 segments at w 6: +2, 1 left");
  // the receiver's window caps cwnd
  cwnd = 20.0;
  cnt = 19;
  ds::linux_reno_increase(cwnd, 2, cnt, 1, 20);
  check(cwnd == 20.0 && cnt == 0, "capped at the receiver's window");
  // a new connection's estimator state starts the counter at 0
  ds::DctcpState st;
  st.cwnd_cnt = 7;
  ds::dctcp_init(ds::dctcp_ns3_defaults(), st);
  check(st.cwnd_cnt == 0, "dctcp_init clears the growth's counter");
}

}  // namespace

int main() {
  test_window_and_alpha();
  test_ssthresh();
  test_linux_reno_growth();
  return report();
}
