// ECN (cuda/model/tcp_ecn.h) against hand-computed cases of RFC 3168 and ns-3.44: the queues'
// mark-or-drop decision (RED's early and forced discards with and without UseHardDrop, PIE's
// MarkEcnThreshold 0.1, a non-ECT packet always dropped), the receiver's ECE/CWR state machine
// (RFC 3168 6.1.3) and DCTCP's exact echo (RFC 8257 3.2), and the sender's once-per-window
// reaction (RFC 3168 6.1.2) with ns-3.44's CA_CWR round (the window held, duplicate ACKs
// ignored, a timeout leaving it) and TcpNewReno's ssthresh from the flight.
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_ecn.cpp -o test_ecn
#include <cstdio>

#include "check.h"
#include "model/tcp_ecn.h"

namespace {

void test_verdicts() {
  using namespace ds;
  const uint8_t mark = kClassEcnMark, soft = kClassEcnMark | kClassEcnNoHardDrop;
  // RED's early drop: marked for an ECT packet at a marking class, else dropped
  check(ecn_verdict(mark, true, true) == kEcnMarkIt, "early discard of ECT: mark");
  check(ecn_verdict(mark, false, true) == kEcnDrop, "early discard of non-ECT: drop");
  check(ecn_verdict(0, true, true) == kEcnDrop, "a class without UseEcn drops ECT too");
  // forced (average above max_th): ns-3's UseHardDrop true (default) drops, false marks
  check(ecn_verdict(mark, true, false) == kEcnDrop, "forced with UseHardDrop: drop");
  check(ecn_verdict(soft, true, false) == kEcnMarkIt, "forced without UseHardDrop: mark");
  check(ecn_verdict(soft, false, false) == kEcnDrop, "forced, non-ECT: drop");
  // PIE: mark only while p <= 0.1
  check(pie_ecn_verdict(mark, true, 0.05) == kEcnMarkIt, "PIE p 0.05: mark");
  check(pie_ecn_verdict(mark, true, 0.1) == kEcnMarkIt, "PIE p 0.1 (the threshold): mark");
  check(pie_ecn_verdict(mark, true, 0.1000001) == kEcnDrop, "PIE p above 0.1: drop");
  check(pie_ecn_verdict(mark, false, 0.01) == kEcnDrop, "PIE non-ECT: drop");
}

void test_receiver_classic() {
  using namespace ds;
  EcnFlow e;
  ecn_flow_init(e, kEcnClassic);
  check(e.rx_ece == 0, "idle at start");
  check(!ecn_rx_segment(e, false, false) && e.rx_ece == 0, "a plain packet: no echo");
  check(ecn_rx_segment(e, true, false) && e.rx_ece == 1, "CE: echo starts");
  check(!ecn_rx_segment(e, false, false) && e.rx_ece == 1, "echo persists on plain packets");
  check(!ecn_rx_segment(e, true, false) && e.rx_ece == 1, "a second CE: still echoing");
  check(ecn_rx_segment(e, false, true) && e.rx_ece == 0, "CWR: echo stops");
  check(!ecn_rx_segment(e, false, false) && e.rx_ece == 0, "stays idle");
  ecn_rx_segment(e, true, false);
  check(!ecn_rx_segment(e, true, true) && e.rx_ece == 1, "CWR on a CE packet: echo again");
}

void test_receiver_dctcp() {
  using namespace ds;
  EcnFlow e;
  ecn_flow_init(e, kEcnDctcp);
  // RFC 8257 3.2: ECE is the CE bit of the last packet, CWR ignored
  const bool ce[] = {false, true, true, false, true, false, false};
  const int ece[] = {0, 1, 1, 0, 1, 0, 0};
  for (int i = 0; i < 7; ++i) {
    ecn_rx_segment(e, ce[i], i == 3);
    check(e.rx_ece == ece[i], "DCTCP echoes the last CE bit");
  }
}

void test_sender_once_per_window() {
  using namespace ds;
  EcnFlow e;
  ecn_flow_init(e, kEcnClassic);
  // segments 0..19 sent (maxseq 19), 0..4 acknowledged; ACK of 5 with ECE: reduce, CWR on 20
  check(ecn_should_reduce(e, true, 5, 4, false), "first ECE: reduce");
  ecn_reduced(e, 19);
  check(e.recover == 19 && e.cwr_seq == 20 && e.cwr == 1, "CWR up to 19; CWR bit on 20");
  // further ECEs within the same window (ACKs up to 19) do not reduce again
  for (int32_t a = 6; a <= 19; ++a) check(!ecn_should_reduce(e, true, a, a - 1, false), "same window");
  check(e.cwr == 1, "still in CWR at the ACK of 19 (m_recover not passed)");
  // the first ACK past 19 with ECE: CWR ends and is entered again on the same ACK
  check(ecn_should_reduce(e, true, 20, 19, false), "next window: reduce");
  ecn_reduced(e, 30);
  check(!ecn_should_reduce(e, false, 31, 30, false) && e.cwr == 0, "no ECE past 30: CWR ends");
  check(!ecn_should_reduce(e, true, 25, 31, false), "an old ACK's ECE: nothing");
  check(!ecn_should_reduce(e, true, 32, 31, true), "in loss recovery: the loss's reduction only");
  ecn_reduced(e, 40);
  ecn_sender_reset(e);
  check(e.recover == -1 && e.cwr_seq == -1 && e.cwr == 0 && e.dctcp.alpha == 1.0,
        "a new connection");
}

// ns-3.44's CA_CWR (TcpSocketBase::ReceivedAck / ProcessAck / DupAck, by hand): a flow with
// segments 0..23 sent, ACKs of two segments each (delayed ACKs).
void test_sender_cwr_round() {
  using namespace ds;
  EcnFlow e;
  ecn_flow_init(e, kEcnClassic);
  // the ACK of 11 (segments 10, 11) carries ECE: 12..23 are in flight after it, 12 segments;
  // TcpNewReno::GetSsThresh max(2, 12 / 2) = 6 = cwnd; CWR until an ACK passes 23
  check(ecn_should_reduce(e, true, 11, 9, false), "ECE on a new ACK: CWR");
  check(ecn_newreno_ssthresh(23, 11) == 6.0, "ssthresh: half the flight after the ACK");
  ecn_reduced(e, 23);
  // a duplicate ACK with ECE (ackNumber == SND.UNA) is not a valid echo: no reduction, and in
  // CWR it starts no recovery (e.cwr set: the sender's caller skips fast retransmit)
  check(!ecn_should_reduce(e, true, 11, 11, false) && e.cwr == 1, "dupack in CWR: nothing");
  // the ACKs of 13..23 with ECE: held (no reduction, no growth: the caller reads e.cwr)
  int held = 0;
  for (int32_t a = 13; a <= 23; a += 2) held += !ecn_should_reduce(e, true, a, a - 2, false) && e.cwr;
  check(held == 6, "the ACKs of the CWR round hold the window");
  // the ACK of 25 (past m_recover 23) without ECE: CA_OPEN, the window grows from this ACK on
  check(!ecn_should_reduce(e, false, 25, 23, false) && e.cwr == 0, "CWR ends past recover");
  // a timeout in CWR (ReTxTimeout: CA_LOSS) ends it; the next new ACK's ECE enters it again,
  // even below the last reduction's recover
  check(ecn_should_reduce(e, true, 27, 25, false), "next ECE");
  ecn_reduced(e, 40);
  ecn_timeout(e);
  check(e.cwr == 0, "a timeout leaves CWR");
  check(ecn_should_reduce(e, true, 29, 27, false), "after the timeout: ECE reduces again");
  // the floor: a flight of 3 gives 1.5, ns-3's 2 segments; an odd flight keeps its half
  check(ecn_newreno_ssthresh(10, 7) == 2.0, "at least 2 segments");
  check(ecn_newreno_ssthresh(20, 9) == 5.5, "11 in flight: 5.5 segments");
}

}  // namespace

int main() {
  test_verdicts();
  test_receiver_classic();
  test_receiver_dctcp();
  test_sender_once_per_window();
  test_sender_cwr_round();
  return report();
}
