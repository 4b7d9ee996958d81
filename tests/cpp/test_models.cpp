// Model pieces tested on their own, without building a replica: each model file's narrow
// functions against hand-computed cases (cuda/model/*.h, cuda/core/ring.h).
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Icuda tests/cpp/test_models.cpp -o test_models
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "check.h"
#include "core/ring.h"
#include "engine/replica.h"
#include "model/access_link.h"
#include "model/app_telnet.h"
#include "model/link.h"
#include "model/queue_droptail.h"
#include "model/sched_priority.h"
#include "model/sched_wrr.h"
#include "model/tcp_receiver.h"
#include "model/tcp_rtt.h"

namespace {

// The block's slot-first counters (engine/replica.h) name real output fields: a misspelt or
// renamed one would silently leave its counter among the others.
void test_slot_counters() {
  size_t named = 0;
#define DS_COUNT(name, T, dim) named += ds::slot_counter(#name) ? 1 : 0;
  DS_OUTPUT_FIELDS(DS_COUNT)
#undef DS_COUNT
  check(named == sizeof(ds::kSlotCounters) / sizeof(ds::kSlotCounters[0]),
        "every slot counter names an output field");
}

void test_ring() {
  ds::RingIdx idx{0, 0};
  int buf[4];
  ds::Ring<int> r = ds::make_ring(buf, idx, 4);
  for (int i = 0; i < 4; ++i) r.push(i);
  check(r.full() && r.size() == 4 && r.free() == 0, "ring full at capacity");
  check(r.pop() == 0 && r.pop() == 1, "ring pops in order");
  r.push(4);
  r.push(5);  // wraps
  check(r.front() == 2 && r.back() == 5 && r.size() == 4, "ring wraps around");
}

void test_drop_tail() {
  // Packets: a limit of 3 holds 3 (the one on the wire counts, as in ns-2).
  check(ds::drop_tail_accepts(ds::kLimitPkts, 3, 2, 0, 1500), "3rd packet accepted");
  check(!ds::drop_tail_accepts(ds::kLimitPkts, 3, 3, 0, 1500), "4th packet dropped");
  // Bytes: 200,000-byte buffer holding 199,000 takes 576 B and refuses 1,500 B.
  check(ds::drop_tail_accepts(ds::kLimitBytes, 200000, 345, 199000, 576), "576 B fits");
  check(!ds::drop_tail_accepts(ds::kLimitBytes, 200000, 345, 199000, 1500), "1500 B does not");
  check(ds::drop_tail_accepts(ds::kLimitNone, 0, 1 << 20, 1ll << 40, 1500), "unlimited");
  // The engine's form (the kind folded into two limits at init) answers the same everywhere
  // around each limit, including the limits' edges and an empty or unlimited queue.
  bool same = true;
  for (uint8_t kind : {ds::kLimitPkts, ds::kLimitBytes, ds::kLimitNone})
    for (int64_t limit : {0ll, 1ll, 3ll, 1500ll, 200000ll})
      for (int32_t count : {0, 1, 2, 3, 4, 1 << 20})
        for (int64_t bytes : {0ll, 1499ll, 1500ll, 198500ll, 199000ll, 1ll << 40})
          for (int32_t pkt : {40, 576, 1500}) {
            ds::ClassQueue q{};
            ds::drop_tail_limits(kind, limit, q);
            same &= ds::drop_tail_fits(q, count, bytes, pkt) ==
                    ds::drop_tail_accepts(kind, limit, count, bytes, pkt);
          }
  check(same, "drop_tail_fits == drop_tail_accepts");
}

ds::ClassQueue queue_with(int count) {
  ds::ClassQueue q{};
  q.ring.count = count;
  return q;
}

void test_schedulers() {
  ds::ClassQueue q[4] = {queue_with(0), queue_with(2), queue_with(5), queue_with(0)};
  check(ds::priority_pick(q, 4) == 1, "priority: lowest non-empty class");
  q[1].ring.count = 0;
  q[2].ring.count = 0;
  check(ds::priority_pick(q, 4) == -1, "priority: all empty");
  // WRR 3:1 over two backlogged classes: a a a b a a a b ...
  ds::ClassQueue w[2] = {queue_with(100), queue_with(100)};
  const int32_t weight[4] = {3, 1, 1, 1};
  ds::WrrState s;
  ds::wrr_init(s, weight);
  char got[9] = {0};
  for (int i = 0; i < 8; ++i) {
    const int c = ds::wrr_pick(s, w, 2, weight);
    got[i] = (char)('a' + c);
    ds::wrr_sent(s, c, 2, weight);
  }
  check(std::string(got) == "aaabaaab", "wrr 3:1 order");
  // An empty class gives up its turn at once.
  w[0].ring.count = 0;
  check(ds::wrr_pick(s, w, 2, weight) == 1, "wrr skips an empty class");
}

void test_link_credit() {
  ds::LinkState ls;
  const int32_t weight[4] = {1, 1, 1, 1};
  ds::link_init(ls, weight);
  ds::link_add_credit(ls, 576.0);
  ds::link_add_credit(ls, 576.0);  // idle: keeps one slot's worth only
  check(ls.credit == 576.0, "idle link banks one slot of credit");
  ls.idle = 0;
  ds::link_add_credit(ls, 576.0);
  check(ls.credit == 1152.0, "busy link accumulates");
}

void test_rtt() {
  // ns-2: first sample of 10 ticks -> srtt 10<<3, rttvar 5<<2... rtxcur = (srtt + 4 rttvar)/8.
  const ds::RtoParams p{100.0, 1000.0, 60000.0};  // tick 100 slots, minrto 1000, maxrto 60000
  ds::RttEstimator e;
  ds::rtt_init(p, e, 30000.0);
  check(ds::rto_due_slot(e, 7) == 30007u, "initial RTO armed");
  ds::rtt_sample(p, e, 1000.0);  // 10 ticks
  check(e.t_srtt == 80 && e.t_rttvar == 20, "first sample");
  check(e.t_rtxcur == 30.0 * 100.0, "rtxcur = srtt + 4 rttvar = 30 ticks");
  check(ds::rto_slots(p, e, 1) == 3000.0, "rto above minrto");
  check(ds::rto_slots(p, e, 64) == 60000.0, "rto capped at maxrto");
  check(ds::rto_due_slot(e, 5) == 3005u, "timer after a sample");
  ds::rtt_backoff(p, e);
  check(e.t_backoff == 2, "backoff doubles");
  check(ds::rto_due_slot(e, 5) == 6005u, "timer with the backoff");
  ds::rtt_reset_backoff(p, e);
  check(ds::rto_due_slot(e, 0) == 3000u, "backoff reset");
  // ceil of a fractional RTO, and the one-slot floor
  const ds::RtoParams q{0.3, 0.0, 1000.0};  // tick 0.3 slots, no minrto
  ds::RttEstimator g;
  ds::rtt_init(q, g, 2.5);
  check(ds::rto_due_slot(g, 10) == 13u, "ceil(2.5) = 3");
  ds::rtt_init(q, g, 0.25);
  check(ds::rto_due_slot(g, 10) == 11u, "2-tick floor 0.6 -> one slot");
  ds::rtt_init(q, g, 4.0);
  check(ds::rto_due_slot(g, 10) == 14u, "integral RTO kept");
}

void test_access_link() {
  ds::AccessLink a;
  ds::access_init(a, 288.0, 576);  // 0.5 packets per slot
  check(a.tx_slots == 2.0, "two slots per packet");
  uint32_t seg[8];
  int32_t next[1] = {-1};
  ds::NicPool pool{0, 0};
  const ds::NicFifo fifo{&a, seg, next, &pool};
  for (int s = 0; s < 3; ++s) ds::access_push(fifo, s, false);
  ds::access_push(fifo, 0, true);
  std::vector<int> seqs;
  std::vector<double> starts;
  // 0.5 packets per slot: one packet every 2 slots, starting at slot 10.
  uint32_t wake = ds::access_transmit(a, fifo, 10, [&](int32_t seq, bool, double t) {
    seqs.push_back(seq);
    starts.push_back(t);
  });
  check(seqs.size() == 1 && seqs[0] == 0 && starts[0] == 10.0 && wake == 12, "paced: one, wake at 12");
  wake = ds::access_transmit(a, fifo, 12, [&](int32_t seq, bool rexmit, double t) {
    seqs.push_back(seq + (rexmit ? 100 : 0));
    starts.push_back(t);
  });
  check(seqs.size() == 2 && seqs[1] == 1 && starts[1] == 12.0 && wake == 14, "paced: next at 12");
  // Unpaced: everything at once, in FIFO order, the retransmission last.
  ds::AccessLink u;
  ds::access_init(u, 0.0, 576);
  check(u.tx_slots == 0.0, "unpaced");
  a.tx_slots = u.tx_slots;  // the same FIFO, unpaced from now on
  wake = ds::access_transmit(a, fifo, 13, [&](int32_t seq, bool rexmit, double) {
    seqs.push_back(seq + (rexmit ? 100 : 0));
  });
  check(seqs.size() == 4 && seqs[2] == 2 && seqs[3] == 100 && wake == 0xFFFFFFFFu, "unpaced burst");
}

int free_chunks(const ds::NicPool& pool, const int32_t* next) {
  int n = 0;
  for (int32_t c = pool.free_head; c >= 0; c = next[c]) ++n;
  return n;
}

// Two FIFOs over one pool of 3 chunks (8 segments each): order kept across chunk bounds,
// a push refused when no chunk is free, a chunk back to the pool once read through (an
// empty FIFO keeps its last one), every chunk back on clear.
void test_access_pool() {
  ds::AccessLink a, b;
  ds::access_init(a, 0.0, 576);
  ds::access_init(b, 0.0, 576);
  uint32_t seg[3 * ds::kNicChunkSegs];
  int32_t next[3] = {1, 2, -1};
  ds::NicPool pool{0, 0};
  const ds::NicFifo fa{&a, seg, next, &pool}, fb{&b, seg, next, &pool};
  for (int s = 0; s < 9; ++s) check(ds::access_push(fa, s, s == 4), "A takes two chunks");
  for (int s = 0; s < 7; ++s) check(ds::access_push(fb, 100 + s, false), "B takes the third");
  check(free_chunks(pool, next) == 0 && fb.size() == 7, "pool used up");
  check(ds::access_push(fb, 107, false), "B's chunk has room for an eighth");
  check(!ds::access_push(fb, 108, false) && fb.size() == 8, "no chunk left: refused");
  bool ok = true;
  for (int s = 0; s < 8; ++s) {
    const uint32_t e = fa.pop();
    ok = ok && (int)(e & ~ds::kNicRexmit) == s && ((e & ds::kNicRexmit) != 0) == (s == 4);
  }
  check(ok && fa.size() == 1 && free_chunks(pool, next) == 1, "A's first chunk freed, in order");
  check(ds::access_push(fb, 108, false) && free_chunks(pool, next) == 0, "B takes it");
  check(fa.pop() == 8u && fa.empty() && free_chunks(pool, next) == 0, "A empty keeps its chunk");
  check(ds::access_push(fa, 9, false) && fa.pop() == 9u, "and reuses it");
  for (int s = 0; s < 9; ++s) ok = ok && fb.pop() == (uint32_t)(100 + s);
  check(ok && fb.empty() && free_chunks(pool, next) == 1, "B in order across its two chunks");
  fb.clear();
  check(free_chunks(pool, next) == 2, "clear gives B's kept chunk back");
  for (int s = 0; s < 20; ++s) ds::access_push(fa, s, false);
  fa.pop();
  fa.pop();
  check(fa.size() == 18 && free_chunks(pool, next) == 0, "20 pushed, 2 popped: 3 chunks");
  fa.clear();
  check(fa.empty() && free_chunks(pool, next) == 3, "clear returns every chunk");
  check(ds::access_push(fa, 7, false) && fa.pop() == 7u, "usable after clear");
}

void test_receiver() {
  constexpr int kBits = ds::kRxBitmapBits;  // the width up to a window of 1000
  ds::TcpReceiver r{0, 0xFFFFFFFFu};
  uint32_t bits[kBits / 32] = {0};
  check(ds::rx_accept(r, bits, 0, kBits) == 1 && r.rcv_next == 1, "in order");
  check(ds::rx_accept(r, bits, 2, kBits) == 0 && r.rcv_next == 1, "hole: held");
  check(ds::rx_accept(r, bits, 3, kBits) == 0, "still a hole");
  check(ds::rx_accept(r, bits, 1, kBits) == 3 && r.rcv_next == 4, "hole filled: 3 delivered");
  check(ds::rx_accept(r, bits, 2, kBits) == 0 && r.rcv_next == 4, "duplicate");
  check(ds::rx_accept(r, bits, 4 + kBits, kBits) == -1, "beyond the bitmap: refused");
  // a wider bitmap (BatchShape.rx_bits for larger windows) holds what 1024 bits refuse, and
  // its ring wraps: seq and seq + width share a bit, seq + width - 1 does not
  constexpr int kWide = 8192;
  ds::TcpReceiver w{0, 0xFFFFFFFFu};
  static uint32_t wide[kWide / 32] = {0};
  check(ds::rx_accept(w, wide, 5000, kWide) == 0 && ds::rx_bit(wide, 5000, kWide),
        "wide: 5000 ahead held");
  check(ds::rx_accept(w, wide, kWide, kWide) == -1, "wide: a width ahead refused");
  check(!ds::rx_bit(wide, 5000 - 1, kWide) && ds::rx_bit(wide, 5000 + kWide, kWide),
        "wide: bit seq mod width");
  for (int32_t q = 0; q < 5000; ++q) ds::rx_accept(w, wide, q, kWide);
  check(w.rcv_next == 5001 && !ds::rx_bit(wide, 5000, kWide), "wide: the hole filled, 5001 in order");
}

// tcplib telnet gaps (ns-2 Application/Telnet, interval_ 0): the summary's ends, its median,
// the tail taken exactly, and the moments over a fine grid of u against ns-2's 10,000-sample
// table (mean 1.0919 s, median 0.2364 s: benchmarks/ns2/tcplib).
void test_tcplib_telnet() {
  check(ds::tcplib_telnet_gap_s(0.0) == 0.000606425, "smallest sample at u = 0");
  check(ds::tcplib_telnet_gap_s(0.99999) == 209.921219, "largest sample at the top");
  check(ds::tcplib_telnet_gap_s(ds::kTcplibCut) == 43.8102773, "first tail sample");
  const double med = ds::tcplib_telnet_gap_s(0.5);
  check(med > 0.235 && med < 0.238, "median 0.236 s");
  double sum = 0.0, prev = 0.0;
  bool monotone = true;
  const int n = 1000000;
  for (int i = 0; i < n; ++i) {
    const double g = ds::tcplib_telnet_gap_s((i + 0.5) / n);
    monotone = monotone && g >= prev;
    prev = g;
    sum += g;
  }
  check(monotone, "inverse CDF non-decreasing");
  check(std::fabs(sum / n - 1.0919) < 0.01 * 1.0919, "mean within 1% of ns-2's 1.0919 s");
  check(ds::telnet_gap_slots(-100.0, 0.5) == 100.0 * med, "tcplib: -iat slots per second");
  check(std::fabs(ds::telnet_gap_slots(10.0, std::exp(-1.0)) - 10.0) < 1e-9,
        "exponential: -iat log(u)");
}

}  // namespace

int main() {
  test_tcplib_telnet();
  test_slot_counters();
  test_ring();
  test_drop_tail();
  test_schedulers();
  test_link_credit();
  test_rtt();
  test_access_link();
  test_access_pool();
  test_receiver();
  return report();
}
