// ns-2.35's Reno/NewReno window reduction (cuda/model/tcp_sender.h) against hand-computed cases:
// TcpAgent::slowdown() with ns-2.35's default precisionReduce_ true (halfwin = windowd() / 2, a
// double: RenoTcpAgent::windowd() = cwnd_ + dupwnd_ capped by wnd_; ssthresh_ = (int) halfwin,
// at least 2; cwnd_ = halfwin at a fast retransmit, 1 at a timeout), and the end of NewReno's
// fast recovery, which keeps cwnd_ (exit_recovery_fix_ 0: no "cwnd = ssthresh"). The values
// are those of an ns-2.35 cwnd_ trace of benchmarks/ns2/dumbbell (DropTail, 8 flows, 40 ms,
// seed 1, flow 3 at 20.59 s: cwnd_ 6.886 -> ssthresh_ 3, cwnd_ 3.443; the next new ACK
// 3.443 -> 3.733).
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_newreno.cpp -o test_newreno
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.h"
#include "one_flow.h"

namespace {

using one_flow::OneFlow;
using one_flow::sent;

bool near(double a, double b) { return std::fabs(a - b) < 1e-12; }

void test_slowdown_precision_reduce() {
  struct Case {
    double cwnd;
    int dupwnd;
    bool timeout;
    int want_ss;
    double want_cwnd;
    const char* what;
  };
  const Case cases[] = {
      {6.886, 0, false, 3, 3.443, "slowdown: cwnd 6.886 -> ssthresh 3, cwnd 3.443 (not 3)"},
      {7.5, 0, false, 3, 3.75, "slowdown: cwnd 7.5 -> ssthresh 3, cwnd 3.75"},
      {4.5, 3, false, 3, 3.75, "slowdown: Reno's inflated window 4.5 + 3 -> 3.75"},
      {20.5, 0, false, 10, 10.0, "slowdown: windowd() capped by wnd_ 20 -> 10"},
      {3.2, 0, false, 2, 1.6, "slowdown: ssthresh at least 2, cwnd 1.6 below it"},
      {1.5, 0, false, 2, 1.0, "slowdown: cwnd at least 1"},
      {9.7, 0, true, 4, 1.0, "slowdown at a timeout: ssthresh (int) 4.85, cwnd 1"},
  };
  for (const Case& c : cases) {
    ds::TcpSender s{};
    s.cwnd = c.cwnd;
    s.dupwnd = c.dupwnd;
    ds::slowdown(s, 20, c.timeout);
    check(s.ssthresh == c.want_ss && near(s.cwnd, c.want_cwnd), c.what);
  }
}

// A NewReno sender at its third duplicate ACK: segments 10..16 outstanding (11 lost), cwnd
// 6.886, bugFix_ false (TcpFlow's default), nothing held back by timers.
void newreno_at_dupacks(OneFlow& x, ds::TcpSender& s) {
  one_flow::sender_base(x, s, 20);
  s.flow.variant = ds::kNewReno;
  s.highest_ack = 10;
  s.maxseq = 16;
  s.t_seqno = 17;
  s.cwnd = 6.886;
  s.ssthresh = 20;
  s.dupacks = 2;
  s.recover = -1;
  s.rtt_seq = 1000;
  s.delsnd_due = s.wake_due = s.start_due = ds::kNeverSlot;
}

void test_fast_recovery_keeps_cwnd() {
  OneFlow x;
  ds::TcpSender s{};
  newreno_at_dupacks(x, s);
  ds::recv_ack<false>(x, 0, s, 10, 100);  // the third duplicate ACK
  check(s.ssthresh == 3 && near(s.cwnd, 3.443) && s.dupwnd == ds::kNumDupacks &&
            s.recover == 16 && sent(x, s) == std::vector<int>{11},
        "newreno: fast retransmit of 11, ssthresh 3, cwnd 3.443, dupwnd 3");
  ds::recv_ack<false>(x, 0, s, 10, 101);  // a fourth: one more segment left the network
  check(s.dupwnd == 4 && near(s.cwnd, 3.443), "newreno: a further dupack inflates dupwnd only");
  ds::recv_ack<false>(x, 0, s, 16, 140);  // the full ACK (recover_ 16 reached)
  check(s.dupwnd == 0 && s.last_cwnd_action == ds::kActExited &&
            near(s.cwnd, 3.443 + 1.0 / 3.443),
        "newreno: the full ACK drops dupwnd and keeps cwnd 3.443 (exit_recovery_fix_ 0), then "
        "opencwnd: 3.733");
}

void test_partial_ack_deflation_kept_at_exit() {
  OneFlow x;
  ds::TcpSender s{};
  newreno_at_dupacks(x, s);
  ds::recv_ack<false>(x, 0, s, 10, 100);  // fast retransmit: cwnd 3.443, dupwnd 3
  (void)sent(x, s);
  // a partial ACK of 5 segments (11..15; 16 still lost): deflate 5 > dupwnd 3, so
  // cwnd_ -= 5 - 3 and dupwnd_ = 1 (partial_window_deflation_ 1)
  ds::recv_ack<false>(x, 0, s, 15, 120);
  check(near(s.cwnd, 1.443) && s.dupwnd == 1 && sent(x, s) == std::vector<int>{16},
        "newreno: a partial ACK past dupwnd deflates cwnd to 1.443 and resends 16");
  ds::recv_ack<false>(x, 0, s, 16, 160);  // the full ACK
  check(s.dupwnd == 0 && near(s.cwnd, 1.443 + 1.0),
        "newreno: the full ACK keeps the deflated cwnd (not ssthresh 3); slow start below "
        "ssthresh adds 1");
}

// The retransmission timer at NewReno's fast retransmit and partial ACKs, by
// TcpFlow.rto_restart (RTO 720 slots: rtt_init, no RTT sample). The last new ACK armed it at
// slot 50 (due 770); 11, 14 and 16 lost. The third duplicate ACK (slot 100): ns-2's
// dupack_action restarts it (reset_rtx_timer: due 820), ns-3.44's EnterRecovery does not
// (770). The first partial ACK (13, slot 120) restarts it in both (ns-2's newreno_changes1_,
// ns-3's m_isFirstPartialAck: due 840), the second (15, slot 140) in neither.
void test_rto_restart_new_ack() {
  for (int new_ack = 0; new_ack <= 1; ++new_ack) {
    OneFlow x;
    x.new_ack8 = (uint8_t)new_ack;
    ds::TcpSender s{};
    newreno_at_dupacks(x, s);
    s.rto_due = ds::rto_due_slot(s.rtt, 50);
    ds::recv_ack<false>(x, 0, s, 10, 100);  // the third duplicate ACK
    check(sent(x, s) == std::vector<int>{11} && s.rto_due == (new_ack ? 770u : 820u),
          new_ack ? "newreno, rto_restart new_ack: the fast retransmit leaves the timer (770)"
                  : "newreno, rto_restart fast_retransmit: the fast retransmit restarts it (820)");
    ds::recv_ack<false>(x, 0, s, 13, 120);
    check(sent(x, s) == std::vector<int>{14} && s.rto_due == 840u,
          "newreno: the first partial ACK restarts the timer in both (840)");
    ds::recv_ack<false>(x, 0, s, 15, 140);
    check(sent(x, s) == std::vector<int>{16} && s.rto_due == 840u,
          "newreno: the second partial ACK restarts it in neither (840)");
  }
}

}  // namespace

int main() {
  test_slowdown_precision_reduce();
  test_fast_recovery_keeps_cwnd();
  test_partial_ack_deflation_kept_at_exit();
  test_rto_restart_new_ack();
  return report();
}
