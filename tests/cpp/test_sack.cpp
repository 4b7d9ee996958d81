// TCP SACK (cuda/model/tcp_sack.h) against hand-computed cases: the ns-2.35 SACK sink's blocks
// (Sacker::append_ack: the block of the segment just received first, then the most recent
// earlier ones from its stack of maxSackBlocks_ = 3, covered ones popped) and the sender's
// scoreboard (ScoreBoardRQ: updates, "changed", the next hole to retransmit, clearing below
// the cumulative ACK, merging).
// Build (from the repo root):
//   g++ -std=c++17 -O2 -ffp-contract=off -Wall -Wextra -Werror -Icuda tests/cpp/test_sack.cpp -o test_sack
#include <cstdio>
#include <initializer_list>
#include <set>
#include <utility>
#include <vector>

#include "check.h"
#include "model/tcp_sack.h"

namespace {

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

}  // namespace

int main() {
  test_sink_blocks();
  test_scoreboard();
  return report();
}
