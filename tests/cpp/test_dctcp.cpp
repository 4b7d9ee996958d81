// DCTCP's congestion estimate (cuda/model/tcp_dctcp.h) against hand-computed cases of RFC 8257
// section 3.3 as ns-3's TcpDctcp does it: the observation window that ends when the cumulative
// ACK reaches the sequence next to send at its start, alpha's EWMA with g = 1/16, and the
// ssthresh of (1 - alpha/2) x cwnd truncated to whole bytes.
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_dctcp.cpp -o test_dctcp
#include <cmath>
#include <cstdio>

#include "check.h"
#include "model/tcp_dctcp.h"

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

}  // namespace

int main() {
  test_window_and_alpha();
  test_ssthresh();
  return report();
}
