// FQ-CoDel (cuda/model/queue_fq_codel.h) against hand-computed cases of RFC 8290 sections 4.1-4.4
// as ns-3.44's FqCoDelQueueDisc runs them: a new flow's priority over old ones, a new flow
// moving to the old list once its quantum is used, an empty new flow going to the old list's
// tail and an empty old flow becoming inactive, deficit round robin's byte shares, the drop
// from the fattest queue over the limit (half its bytes or DropBatchSize packets), a CoDel per
// flow queue, and the sender hash's values (the host's, python/diffsweep/scenario/fq_hash.py).
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_fq_codel.cpp -o test_fq_codel
#include <cstdio>
#include <deque>
#include <vector>

#include "check.h"
#include "model/queue_fq_codel.h"

namespace {

using ds::FqFlow;
using ds::FqLists;
using ds::FqParams;

struct Pkt {
  uint32_t t_enq;  // CoDel time it joined
  int32_t bytes;
};

// The engine's side in miniature: a FIFO per flow queue, the packets sent and dropped.
struct Disc {
  static constexpr int kN = 8;
  FqParams p;
  FqLists L;
  FqFlow f[kN];
  std::deque<Pkt> q[kN];
  uint32_t now = 0;
  std::vector<int> sent, dropped, marked;
  bool ecn = false;  // every packet ECT and the class marking (ns-3 UseEcn)
  Disc(int32_t quantum = 1500, int32_t batch = 64) {
    p.quantum = quantum;
    p.drop_batch = batch;
    p.codel.target = 5000000 >> 10;
    p.codel.interval = 100000000 >> 10;
    p.codel.min_bytes = 1500;
    ds::fq_init(L, f, kN);
  }
  void enqueue(int i, int32_t bytes = 1040) {
    q[i].push_back(Pkt{now, bytes});
    ds::fq_enqueued(p, L, f, i, bytes);
  }
  // the Q of fq_dequeue / fq_overlimit
  bool head(int i, uint32_t& sojourn, int32_t& bytes) {
    if (q[i].empty()) return false;
    sojourn = now - q[i].front().t_enq;
    bytes = q[i].front().bytes;
    return true;
  }
  int32_t drop_head(int i) {
    const int32_t b = q[i].front().bytes;
    q[i].pop_front();
    dropped.push_back(i);
    return b;
  }
  bool mark_head(int i) {
    if (!ecn) return false;
    marked.push_back(i);
    return true;
  }
  int32_t take(int i) {
    const int32_t b = q[i].front().bytes;
    q[i].pop_front();
    sent.push_back(i);
    return b;
  }
  int dequeue() { return ds::fq_dequeue(p, L, f, now, *this); }
  std::vector<int> list(int16_t head) const {
    std::vector<int> v;
    for (int i = head; i >= 0; i = f[i].next) v.push_back(i);
    return v;
  }
};

void test_new_flow_priority() {
  Disc d;
  for (int k = 0; k < 4; ++k) d.enqueue(0);
  // flow 0 is new (deficit 1500): 1040 -> 460, then 460 -> -580 (a packet while positive)
  check(d.dequeue() == 0 && d.f[0].deficit == 460, "a new flow sends first from its quantum");
  check(d.dequeue() == 0 && d.f[0].deficit == -580, "it sends while its deficit is positive");
  // deficit <= 0: a quantum more (920) and to the old list, then chosen from there
  check(d.dequeue() == 0 && d.f[0].status == ds::kFqOld && d.f[0].deficit == 920 - 1040,
        "a new flow that used its quantum moves to the old list (RFC 8290 4.2)");
  d.enqueue(1);  // a sparse flow arrives while flow 0 is old and backlogged
  check(d.f[1].status == ds::kFqNew && d.f[1].deficit == 1500, "an arrival makes a new flow");
  check(d.dequeue() == 1, "a new flow is served before the old ones (RFC 8290 4.1)");
  check(d.list(d.L.new_head) == std::vector<int>{1} && d.list(d.L.old_head) == std::vector<int>{0},
        "lists after the sparse flow's packet: new [1], old [0]");
  // the sparse flow's queue is empty: it goes to the old list's tail, [0, 1]; flow 0 (deficit
  // -120) gets a quantum (1380) and goes behind it, [1, 0]; flow 1, empty and old, becomes
  // inactive; flow 0 sends (1380 - 1040 = 340)
  check(d.dequeue() == 0, "the empty new flow gives way");
  check(d.f[1].status == ds::kFqInactive && d.f[0].deficit == 340 &&
            d.list(d.L.old_head) == std::vector<int>{0} && d.L.new_head < 0,
        "an empty new flow goes to the old list's end, behind flow 0 (RFC 8290 4.2), and "
        "inactive when met there empty");
  // the same with flow 0's deficit still positive: flow 1 waits at the old tail, still old
  Disc e;
  for (int k = 0; k < 3; ++k) e.enqueue(0, 500);
  e.dequeue();  // flow 0: 1500 -> 1000
  e.dequeue();  // 1000 -> 500
  e.dequeue();  // 500 -> 0
  for (int k = 0; k < 3; ++k) e.enqueue(0, 500);
  e.dequeue();  // deficit 0: +1500, to old; 1500 -> 1000
  e.enqueue(1, 500);
  check(e.dequeue() == 1, "the sparse flow first");
  check(e.dequeue() == 0 && e.list(e.L.old_head) == std::vector<int>{0, 1} &&
            e.f[1].status == ds::kFqOld,
        "an empty new flow goes to the end of the old list (RFC 8290 4.2)");
}

void test_empty_old_inactive() {
  Disc d;
  d.enqueue(2);
  check(d.dequeue() == 2, "one packet, sent");
  check(d.dequeue() == -1, "then nothing to send");
  check(d.f[2].status == ds::kFqInactive && d.L.new_head < 0 && d.L.old_head < 0,
        "empty new -> old -> inactive: both lists empty (RFC 8290 4.3)");
  d.enqueue(2);
  check(d.f[2].status == ds::kFqNew && d.f[2].deficit == 1500,
        "an inactive flow returns as a new flow with a fresh quantum");
}

void test_drr_byte_shares() {
  // two backlogged flows, packets of 1040 and 300 bytes, quantum 1500: their bytes sent
  // stay within a quantum (+ a packet) of each other (DRR)
  Disc d;
  for (int k = 0; k < 400; ++k) d.enqueue(0, 1040);
  for (int k = 0; k < 1400; ++k) d.enqueue(1, 300);
  long b0 = 0, b1 = 0;
  bool close = true;
  for (int k = 0; k < 600; ++k) {
    const int i = d.dequeue();
    (i == 0 ? b0 : b1) += i == 0 ? 1040 : 300;
    const long diff = b0 > b1 ? b0 - b1 : b1 - b0;
    if (k > 10 && diff > 1500 + 1040) close = false;
  }
  check(close, "DRR: the two flows' bytes within a quantum + a packet of each other");
  check(b0 > 100000 && b1 > 100000, "both flows served");
}

void test_overlimit_fattest() {
  Disc d(1500, 64);
  for (int k = 0; k < 10; ++k) d.enqueue(3, 1000);  // 10000 B: the fattest
  for (int k = 0; k < 6; ++k) d.enqueue(4, 1500);   //  9000 B
  const int i = ds::fq_overlimit(d.p, d.f, Disc::kN, d);
  // half of 10000 = 5000 B: five packets of 1000 B
  check(i == 3 && d.dropped.size() == 5 && d.f[3].pkts == 5 && d.f[3].bytes == 5000,
        "over the limit: drops from the fattest queue's head until half its bytes are gone");
  check(d.f[4].pkts == 6, "the other queue keeps its packets");
  Disc e(1500, 3);
  for (int k = 0; k < 10; ++k) e.enqueue(1, 1000);
  ds::fq_overlimit(e.p, e.f, Disc::kN, e);
  check(e.dropped.size() == 3 && e.f[1].pkts == 7, "at most DropBatchSize packets");
  Disc g;
  g.enqueue(5, 1000);
  g.enqueue(6, 1000);
  ds::fq_overlimit(g.p, g.f, Disc::kN, g);
  check(g.dropped == std::vector<int>{5}, "equal backlogs: the first queue, one packet");
}

// flow 0 with a standing queue of 40 ms sojourn, flow 1's packets fresh, two dequeues a ms
void run_standing_queue(Disc& d) {
  d.now = 1000000;
  for (int k = 0; k < 300; ++k) d.enqueue(0, 1040);
  const uint32_t ms = 977;
  d.now += 40 * ms;
  for (int step = 0; step < 250; ++step) {
    d.enqueue(1, 1040);
    d.dequeue();
    d.dequeue();
    d.now += ms;
  }
}

void test_codel_per_queue() {
  // flow 0 keeps a standing queue of 40 ms sojourn; flow 1's packets are fresh. Only flow 0's
  // CoDel drops, after an interval above target (RFC 8289 3.3), none of flow 1's.
  Disc d;
  run_standing_queue(d);
  int d0 = 0, d1 = 0;
  for (int i : d.dropped) (i == 0 ? d0 : d1) += 1;
  check(d0 > 0 && d1 == 0, "CoDel drops only in the queue whose sojourn stays above target");
  check(d.f[0].codel.dropping == 1, "flow 0's CoDel is in its dropping state");
  check(d.f[1].codel.count == 0, "flow 1's CoDel never dropped");
}

void test_codel_per_queue_marks_with_ecn() {
  // the same standing queue with ECN: flow 0's CoDel marks where it dropped (ns-3 CoDel's
  // UseEcn inside FqCoDelQueueDisc), nothing is dropped, and flow 1 is never marked
  Disc d;
  d.ecn = true;
  run_standing_queue(d);
  int m0 = 0, m1 = 0;
  for (int i : d.marked) (i == 0 ? m0 : m1) += 1;
  check(d.dropped.empty(), "with ECN nothing is dropped");
  check(m0 > 0 && m1 == 0, "CoDel marks only the queue whose sojourn stays above target");
  check(d.sent.size() == 500, "every dequeue sent a packet (a marked head is sent)");
}

void test_bucket_hash() {
  // values of python/diffsweep/scenario/fq_hash.py's fq_bucket
  const uint32_t want[8] = {0, 747, 990, 748, 735, 187, 188, 844};
  bool ok = true;
  for (uint32_t s = 0; s < 8; ++s) ok &= ds::fq_bucket(s, 0, 1024) == want[s];
  check(ok, "bucket of senders 0..7 in 1024 flows");
  check(ds::fq_bucket(65536, 0, 1024) == 486 && ds::fq_bucket(3, 7, 1024) == 139 &&
            ds::fq_bucket(5, 0, 4) == 3,
        "bucket with a source id, a perturbation, 4 flows");
}

}  // namespace

int main() {
  test_new_flow_priority();
  test_empty_old_inactive();
  test_drr_byte_shares();
  test_overlimit_fattest();
  test_codel_per_queue();
  test_codel_per_queue_marks_with_ecn();
  test_bucket_hash();
  return report();
}
