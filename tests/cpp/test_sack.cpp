// TCP SACK (cuda/model/tcp_sack.h) against hand-computed cases: the ns-2.35 SACK sink's blocks
// (Sacker::append_ack: the block of the segment just received first, then the most recent
// earlier ones from its stack of maxSackBlocks_ = 3, covered ones popped) and the sender's
// scoreboard (ScoreBoardRQ: updates, "changed", the next hole to retransmit, clearing below
// the cumulative ACK, merging); and the sender's partial ACK in a fast recovery that follows a
// go-back-N (test_partial_ack_after_go_back_n), the reduction at a fast retransmit, the
// retransmission timer's restarts in a recovery (test_rto_restart_new_ack), and a CUBIC flow's
// window at the ACK that ends a recovery (test_cubic_recovery_exit), through a stand-in for the
// replica view.
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_sack.cpp -o test_sack
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <set>
#include <utility>
#include <vector>

#include "check.h"
#include "one_flow.h"

namespace {

using one_flow::OneFlow;
using one_flow::sent;

using Blocks = std::vector<std::pair<int, int>>;

Blocks blocks(const ds::SackBlocks& b) {
  Blocks v;
  for (int j = 0; j < b.n; ++j) v.emplace_back(b.left[j], b.right[j]);
  return v;
}

// A receiver: segments seen, the next expected one, the sink's state.
struct Sink {
  std::set<int> seen;
  int next = 0;
  ds::SackReceiver k{};
  Sink() { ds::sack_receiver_init(k); }
  Blocks recv(int seq) {
    seen.insert(seq);
    while (seen.count(next)) ++next;
    ds::SackBlocks b{};
    ds::sack_sink_blocks(k, seq, next, [&](int i) { return seen.count(i) > 0; }, b);
    return blocks(b);
  }
};

void test_sink_blocks() {
  Sink s;
  bool ok = s.recv(0).empty() && s.recv(1).empty() && s.recv(2).empty();
  check(ok, "sink: in-order segments carry no blocks");
  check(s.recv(4) == Blocks{{4, 5}}, "sink: segment 4 past the hole at 3: [4,5)");
  check(s.recv(5) == Blocks{{4, 6}}, "sink: 5 extends the block, which covers the old [4,5)");
  check(s.recv(7) == Blocks{{7, 8}, {4, 6}}, "sink: the newest block first, then the older");
  check(s.recv(9) == Blocks{{9, 10}, {7, 8}, {4, 6}}, "sink: three blocks");
  check(s.recv(11) == Blocks{{11, 12}, {9, 10}, {7, 8}},
        "sink: at most three blocks, most recent first ([4,6) falls off the stack)");
  check(s.recv(3) == Blocks{{11, 12}, {9, 10}, {7, 8}},
        "sink: 3 fills the first hole (cumulative ACK 5): the stack's blocks, no own block");
  check(s.recv(6) == Blocks{{11, 12}, {9, 10}},
        "sink: 6 fills the next hole (cumulative ACK 7): [7,8) is covered and popped");
  check(s.recv(10) == Blocks{{9, 12}}, "sink: 10 joins [9,10) and [11,12) into [9,12)");
  check(s.recv(8).empty() && s.k.st_n == 0, "sink: everything in order again: no blocks, stack empty");
  Sink d;
  d.recv(0);
  d.recv(2);
  check(d.recv(2) == Blocks{{2, 3}}, "sink: a duplicate above the hole reports its block again");
  check(d.recv(0) == Blocks{{2, 3}}, "sink: a duplicate below the cumulative ACK: the stack's block");
}

ds::SackBlocks make(std::initializer_list<std::pair<int, int>> bs) {
  ds::SackBlocks b{};
  for (auto [l, r] : bs) {
    b.left[b.n] = l;
    b.right[b.n] = r;
    b.n += 1;
  }
  return b;
}

void test_scoreboard() {
  ds::SackSender k{};
  ds::sack_sender_init(k);
  ds::sb_update(k, 2, make({{4, 5}}));
  check(k.changed && k.sack_min == 3 && k.sb_total == 1, "scoreboard: the first block is news");
  check(ds::sb_next_retran(k) == 3, "scoreboard: hole 3 lies below a SACKed block");
  ds::sb_mark_retran(k, 3);
  check(ds::sb_next_retran(k) == -1, "scoreboard: no hole with a block above it is left");
  ds::sb_update(k, 2, make({{7, 8}, {4, 6}}));
  check(k.changed && k.sb_n == 2 && k.sb_total == 3, "scoreboard: [4,6) and [7,8), 3 segments");
  check(ds::sb_next_retran(k) == 6, "scoreboard: the next hole above the retransmitted 3 is 6");
  ds::sb_mark_retran(k, 6);
  check(ds::sb_next_retran(k) == -1, "scoreboard: nothing SACKed above 8: no retransmission");
  ds::sb_update(k, 2, make({{7, 8}, {4, 6}}));
  check(!k.changed, "scoreboard: the same blocks again are no news (not a duplicate ACK)");
  ds::sb_update(k, 2, make({{8, 9}}));
  check(k.changed && k.sb_n == 2 && k.sb_r[1] == 9 && k.sb_total == 4,
        "scoreboard: an adjacent block merges ([7,9))");
  ds::sb_update(k, 5, make({{7, 9}}));
  check(k.changed && k.sack_min == 6 && k.sb_n == 1 && k.sb_l[0] == 7 && k.sb_total == 2,
        "scoreboard: the cumulative ACK 5 clears [4,6)");
  ds::sb_update(k, 7, make({{10, 12}}));
  check(k.sb_n == 2 && k.sb_l[0] == 8 && k.sb_r[0] == 9 && k.sb_total == 3,
        "scoreboard: the cumulative ACK 7 trims [7,9) to [8,9)");
  ds::sb_update(k, 7, make({{2, 20}}));
  check(k.sb_n == 1 && k.sb_l[0] == 2 && k.sb_r[0] == 20 && k.sb_total == 18,
        "scoreboard: a block over everything merges it all");
  ds::sb_clear(k);
  check(k.sb_n == 0 && k.sb_total == 0 && k.h_seqno == -1 && k.sack_min == 8,
        "scoreboard: cleared (sack_min kept, as ClearScoreBoard)");
  // more intervals than kept: the highest goes
  ds::sack_sender_init(k);
  for (int j = 0; j <= ds::kScoreboardMax; ++j) ds::sb_add(k, 10 + 2 * j, 11 + 2 * j);
  check(k.sb_n == ds::kScoreboardMax && k.sb_l[ds::kScoreboardMax - 1] == 10 + 2 * (ds::kScoreboardMax - 1),
        "scoreboard: beyond its capacity a block above everything kept is forgotten");
  ds::sb_add(k, 2, 3);
  check(k.sb_n == ds::kScoreboardMax && k.sb_l[0] == 2 &&
            k.sb_l[ds::kScoreboardMax - 1] == 10 + 2 * (ds::kScoreboardMax - 2),
        "scoreboard: a lower block makes room by dropping the highest");
}

ds::SackBlocks sack_blocks(std::initializer_list<std::pair<int, int>> bs) {
  ds::SackBlocks b{};
  for (const auto& lr : bs) {
    b.left[b.n] = lr.first;
    b.right[b.n] = lr.second;
    b.n += 1;
  }
  return b;
}

// A fast recovery entered after a timeout's go-back-N, as tests/test_sack_stall.py's stalled
// senders were (seed 3's 200-ms flow at 1.72 s: t_seqno_ 165, highest_ack_ 159, maxseq_ 214,
// pipe_ 52, cwnd_ 2, the scoreboard [161,171) [172,185) [186,194)), here scaled down:
// segments 0..30 sent, the go-back-N resent up to 11 (t_seqno_ 12), the cumulative ACK 9;
// the third duplicate ACK has just started the recovery (recover_ = maxseq_ = 30,
// pipe_ = 30 - 9 - 3 = 18, cwnd_ = ssthresh_ = 2) and retransmitted 10; 11..13, 15..19 and
// 21..23 are SACKed, 14 and 20 lost, 24..30 in flight.
// A sender of window 400 with its timer state, an empty access link and a fresh scoreboard,
// 3 duplicate ACKs counted, 9 acknowledged: the two tests below set the rest.
void sender_at_third_dupack(OneFlow& x, ds::TcpSender& s, ds::SackSender& k) {
  one_flow::sender_base(x, s, 400);
  ds::sack_sender_init(k);
  s.dupacks = 3;
  s.highest_ack = 9;
  k.last_ack = 9;
}

// The same sender before its fast retransmit with a window of 12: segments 10..top out, 9
// acknowledged, no recovery yet, no timer but the retransmission timer.
void window_of_12_at_third_dupack(OneFlow& x, ds::TcpSender& s, ds::SackSender& k, int top) {
  sender_at_third_dupack(x, s, k);
  s.cwnd = 12.0;
  s.ssthresh = 1000;
  s.maxseq = top;
  s.t_seqno = top + 1;
  s.recover = 0;
  s.delsnd_due = s.wake_due = s.start_due = ds::kNeverSlot;
}

void test_partial_ack_after_go_back_n() {
  OneFlow x;
  ds::TcpSender s{};
  ds::SackSender k{};
  sender_at_third_dupack(x, s, k);
  s.cwnd = 2.0;
  s.ssthresh = 2;
  s.t_seqno = 12;
  s.maxseq = 30;
  s.recover = 30;
  s.rtt_seq = 24;
  s.delsnd_due = ds::kNeverSlot;
  s.wake_due = ds::kNeverSlot;
  s.start_due = ds::kNeverSlot;
  s.last_cwnd_action = ds::kActDupack;
  const uint32_t t0 = 1000;
  s.rto_due = ds::rto_due_slot(s.rtt, t0);  // reset_rtx_timer(1, 0) at the fast retransmit
  k.fastrecov = 1;
  k.pipe = 30 - 9 - 3;
  k.sack_min = 10;
  ds::sb_add(k, 11, 14);
  ds::sb_add(k, 15, 20);
  ds::sb_add(k, 21, 24);
  ds::sb_mark_retran(k, 10);
  // 24..30 arrive: seven duplicate ACKs, each one less in the pipe, nothing sent (pipe_ >= cwnd_)
  uint32_t now = t0;
  for (int r = 25; r <= 31; ++r)
    ds::sack_recv_ack(x, 0, s, k, 9, sack_blocks({{21, r}, {15, 20}, {11, 14}}), ++now);
  check(k.pipe == 11 && sent(x, s).empty() && s.rto_due == ds::rto_due_slot(s.rtt, t0),
        "sack sender: duplicate ACKs in the recovery take one each from pipe_, the timer runs");
  // the retransmitted 10 arrives: a partial ACK of 13, past t_seqno_ (12)
  ds::sack_recv_ack(x, 0, s, k, 13, sack_blocks({{15, 20}, {21, 31}}), ++now);
  check(k.fastrecov == 1 && s.highest_ack == 13 && k.pipe == 9 && sent(x, s).empty(),
        "sack sender: the partial ACK takes two from pipe_ (9 >= cwnd_ 2: nothing sent)");
  check(s.t_seqno == 14, "sack sender: t_seqno_ kept past the cumulative ACK at a partial ACK");
  check(s.rto_due == ds::rto_due_slot(s.rtt, now),
        "sack sender: a partial ACK with data outstanding restarts the timer (RFC 6298 5.3); "
        "it was cancelled, and nothing else could arm it again: the sender stalled");
  // no ACK follows (14 and 20 lost): the timer fires, go-back-N from 14
  if (s.rto_due != ds::kNeverSlot) {
    now = s.rto_due;
    ds::sack_rto_fire(x, 0, s, k, now);
    ds::sack_send_much(x, 0, s, k, now, false);
    check(k.fastrecov == 0 && s.cwnd == 1.0 && sent(x, s) == std::vector<int>{14} &&
              s.rto_due != ds::kNeverSlot,
          "sack sender: the timeout resends the first hole (14), the timer runs again");
  }
}

}  // namespace

// The reduction at a fast retransmit (sack_dupack_action), by TcpFlow.ssthresh_from. A window
// of 12 (segments 10..21 out, 9 acknowledged), three duplicate ACKs: ns-2's Sack1 halves the
// window (ssthresh_ = cwnd_ = 6) and sets pipe_ = 21 - 9 - 3 = 9; ns-3.44 halves its
// BytesInFlight, the pipe less the head it marks lost: (9 - 1) / 2 = 4. One more segment out
// (22): pipe_ 10, (10 - 1) / 2 = 4.5 (ns-3 halves bytes): ssthresh 4, cwnd 4.5.
void test_fast_retransmit_ssthresh_from_flight() {
  for (int flight = 0; flight <= 1; ++flight)
    for (int top = 21; top <= 22; ++top) {
      OneFlow x;
      x.flight8 = (uint8_t)flight;
      ds::TcpSender s{};
      ds::SackSender k{};
      window_of_12_at_third_dupack(x, s, k, top);
      ds::sack_dupack_action(x, 0, s, k, 100);
      const double want_cwnd = flight ? 0.5 * (top - 9 - 3 - 1) : 6.0;
      const int want_ss = flight ? (top - 9 - 3 - 1) / 2 : 6;
      check(k.fastrecov == 1 && k.pipe == top - 9 - 3 && s.ssthresh == want_ss &&
                s.cwnd == want_cwnd && sent(x, s) == std::vector<int>{10},
            flight ? "sack sender: ssthresh_from flight halves ns-3's BytesInFlight (the pipe "
                     "less the lost head), cwnd = ssthresh with its half segment"
                   : "sack sender: ssthresh_from window halves the window (ns-2's slowdown)");
    }
}

// When the retransmission timer restarts in a SACK recovery, by TcpFlow.rto_restart. The RTO
// is 720 slots (rtt_init; minrto_ 240, backoff 1: no RTT sample in a recovery changes it).
// Segments 10..21 out, 9 acknowledged; 10, 13 and 16 lost, 11..12, 14..15 and 17..21 SACKed;
// the last new ACK armed the timer at slot 50 (due 770). The third duplicate ACK (slot 100):
// ns-2's Sack1 restarts it at the fast retransmit (reset_rtx_timer: due 820), ns-3.44 does
// not (EnterRecovery's SendDataPacket schedules only when no timer is pending: due 770). The
// first partial ACK (12, slot 200) restarts it in both (due 920); the second (15, slot 300)
// restarts ns-2's (newtimer(): due 1020) and not ns-3's (NewAck(ackNumber,
// m_isFirstPartialAck), false after the first: still 920). With no ACK after that, ns-3's
// timer fires at 920, ns-2's at 1020.
void test_rto_restart_new_ack() {
  for (int new_ack = 0; new_ack <= 1; ++new_ack) {
    OneFlow x;
    x.new_ack8 = (uint8_t)new_ack;
    ds::TcpSender s{};
    ds::SackSender k{};
    window_of_12_at_third_dupack(x, s, k, 21);
    s.rto_due = ds::rto_due_slot(s.rtt, 50);
    k.sack_min = 10;
    ds::sb_add(k, 11, 13);
    ds::sb_add(k, 14, 16);
    ds::sb_add(k, 17, 22);
    check(s.rtt.rto_ceil == 720 && s.rto_due == 770, "sack sender: an RTO of 720 slots, due 770");
    ds::sack_dupack_action(x, 0, s, k, 100);
    check(k.fastrecov == 1 && sent(x, s) == std::vector<int>{10} &&
              s.rto_due == (new_ack ? 770u : 820u),
          new_ack ? "sack sender, rto_restart new_ack: the fast retransmit leaves the timer "
                    "running (due 770)"
                  : "sack sender, rto_restart fast_retransmit: the fast retransmit restarts "
                    "the timer (due 820)");
    ds::sack_recv_ack(x, 0, s, k, 12, sack_blocks({{17, 22}, {14, 16}}), 200);
    check(k.fastrecov == 1 && s.highest_ack == 12 && s.rto_due == 920u,
          "sack sender: the first partial ACK restarts the timer in both (due 920)");
    ds::sack_recv_ack(x, 0, s, k, 15, sack_blocks({{17, 22}}), 300);
    check(k.fastrecov == 1 && s.highest_ack == 15 && s.rto_due == (new_ack ? 920u : 1020u),
          new_ack ? "sack sender, rto_restart new_ack: a second partial ACK leaves the timer "
                    "(due 920)"
                  : "sack sender, rto_restart fast_retransmit: every partial ACK restarts the "
                    "timer (due 1020)");
  }
}

// The ACK that ends a SACK fast recovery of a CUBIC flow (model/tcp_sender.h
// cubic_recovery_exit): ns-3.44's TcpSocketBase::ProcessAck passes IncreaseWindow the whole
// cumulative advance (ackNumber - oldHeadSequence) / segmentSize, at cwnd = ssthresh. A loss at
// a window of 100 (segments 10..109 out, 9 acknowledged, 10 lost and resent): W_max 100,
// ssthresh = cwnd = 70; delay_min 100 ms, a slot of 1 ms, the counter at 0. The ACK of 109
// (recover_) arrives at slot 5000 and advances 100 segments. By hand (ns-3.44's TcpCubic::Update
// and IncreaseWindow): the epoch starts, K = cbrt((100 - 70) / 0.4) = 4.2172 s, t = delay_min
// = 0.1 s, 0.4 (K - t)^3 = 27.92 -> 27, target 100 - 27 = 73, cnt = 70 / 3 = 23; the
// TCP-friendly count m_ackCnt = 100 is below (70 x 15) >> 3 = 131 (no Reno gain, W_est 70).
// m_cWndCnt = 100 >= 23: cwnd 71, 77 left. The next ACK (one segment, slot 5001): 78,
// target 73 (0.4 x 4.1162^3 = 27.90 -> 27), cnt = 71 / 2 = 35: cwnd 72, 43 left. The next
// (slot 5002): 44, cnt = 72 / 1 = 72: no increment. Counted one per ACK (the engine before,
// kCubicAckedMax), the epoch would have started one ACK later and cwnd stayed 70 for 23 ACKs.
// A NewReno flow of the same replica (CUBIC off for it) keeps cwnd = ssthresh at that ACK.
void test_cubic_recovery_exit() {
  for (int on = 1; on >= 0; --on) {
    OneFlow x;
    double cub[ds::kMaxCubicSets * ds::kCubicParams] = {};
    const double defaults[ds::kCubicParams] = {0.4, 0.7, 1,     1,     1,   16, 3,
                                               8,   0.002, 0.004, 1.0, 0.010, 20, 0.001};
    for (int j = 0; j < ds::kCubicParams; ++j) cub[j] = defaults[j];
    uint8_t cc = on ? (uint8_t)ds::kCcCubic : (uint8_t)ds::kCcNewReno;
    x.in_.cubic_params = cub;
    x.in_.flow_cc = &cc;
    x.hdr_.f_cubic = 1;
    ds::cubic_init(x.cubic, (uint8_t)on, 0, 0);
    ds::TcpSender s{};
    ds::SackSender k{};
    sender_at_third_dupack(x, s, k);
    s.cwnd = 70.0;
    s.ssthresh = 70;
    s.maxseq = 109;
    s.t_seqno = 110;
    s.recover = 109;
    s.curseq = 112;  // two more segments to send after the recovery, no more
    s.delsnd_due = s.wake_due = s.start_due = ds::kNeverSlot;
    s.last_cwnd_action = ds::kActDupack;
    k.fastrecov = 1;
    k.pipe = 1;
    x.cubic.last_max_cwnd = 100;  // GetSsThresh at the loss (epoch ended: kCubicNever)
    x.cubic.delay_min_s = 0.100;
    x.cubic.cwnd_cnt = 0;
    // (s.rtt.t_srtt 0: no RTT sample yet, PktsAcked learns nothing)
    ds::sack_recv_ack(x, 0, s, k, 109, sack_blocks({}), 5000);
    if (on) {
      check(k.fastrecov == 0 && s.highest_ack == 109 && s.cwnd == 71.0 &&
                x.cubic.cwnd_cnt == 77 && x.cubic.epoch_start == 5000 && x.cubic.ack_cnt == 100 &&
                x.cubic.tcp_cwnd == 70 && x.cubic.origin_point == 100,
            "cubic: the recovery's last ACK counts its whole advance (100): the epoch starts, "
            "cnt 23, cwnd 70 -> 71, 77 carried in the counter");
    } else {
      check(k.fastrecov == 0 && s.cwnd == 70.0 && x.cubic.epoch_start == ds::kCubicNever,
            "newreno beside cubic: the recovery's last ACK grows nothing (ns-2's Sack1)");
      continue;
    }
    ds::sack_recv_ack(x, 0, s, k, 110, sack_blocks({}), 5001);
    check(s.cwnd == 72.0 && x.cubic.cwnd_cnt == 43,
          "cubic: the next ACK spends the carried count: cnt 35, cwnd 72, 43 left");
    ds::sack_recv_ack(x, 0, s, k, 111, sack_blocks({}), 5002);
    check(s.cwnd == 72.0 && x.cubic.cwnd_cnt == 44, "cubic: then cnt 72 > 44: no increment");
  }
}

int main() {
  test_sink_blocks();
  test_scoreboard();
  test_partial_ack_after_go_back_n();
  test_fast_retransmit_ssthresh_from_flight();
  test_rto_restart_new_ack();
  test_cubic_recovery_exit();
  return report();
}
