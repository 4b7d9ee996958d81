// The replica view the TCP sender's functions take (engine/replica.h), for one flow of one
// replica, shared by the sender tests (test_sack.cpp, test_newreno.cpp).
#pragma once
#include <cstddef>
#include <climits>
#include <cstdint>
#include <vector>

// (set_rtx_timer() takes the replica view it does not read: only a test instantiates it with
// -Wextra)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "model/tcp_sack.h"
#pragma GCC diagnostic pop

namespace one_flow {

// For one flow of one replica
// that has no CUBIC, ECN, application or trace: its inputs, its counters, its RTO parameters
// and its access-link FIFO (segments handed to output() wait there; nothing drains it).
struct OneFlow {
  struct In {
    const uint8_t* flow_bugfix;
    const uint8_t* flow_delay_growth;
    const uint8_t* flow_limited_transmit;
    const int32_t* flow_init_window;
    const double* flow_app_iat_slots;
    const int64_t* flow_size_pkts;
    const double* cubic_params;
    const int32_t* flow_loop_slots;
    const uint8_t* flow_ssthresh_flight;  // TcpFlow.ssthresh_from "flight"
    const uint8_t* flow_cc;               // kCcNewReno
    const uint8_t* flow_rto_new_ack;      // TcpFlow.rto_restart "new_ack"
  };
  struct Hdr {
    uint8_t f_cubic = 0, f_app = 0, f_ecn = 0;
  };
  uint8_t zero8 = 0;
  uint8_t flight8 = 0;  // ssthresh_from: 0 "window" (ns-2), 1 "flight" (ns-3)
  uint8_t new_ack8 = 0;  // rto_restart: 0 "fast_retransmit" (ns-2), 1 "new_ack" (ns-3)
  int32_t iw = 2;
  double zerod = 0.0;
  int64_t size = -1;
  In in_{&zero8, &zero8, &zero8, &iw, &zerod, &size, nullptr, nullptr, &flight8,
         &zero8, &new_ack8};  // bugFix_ false (TcpFlow's default)
  Hdr hdr_;
  ds::RtoParams rto_{1.0, 240.0, 72000.0};  // a tick of one slot, minrto_ 240 slots
  bool measuring = false;
  int64_t counters[8] = {};
  uint32_t seg[64 * ds::kNicChunkSegs] = {};
  int32_t next[64];
  ds::NicPool pool{0, 0};
  ds::CubicState cubic{};
  ds::EcnFlow ecn{};  // (f_ecn is 0: ecn_cwr_holds reads nothing)
  OneFlow() {
    for (int c = 0; c < 64; ++c) next[c] = c + 1 < 64 ? c + 1 : -1;
  }
  const In* in() const { return &in_; }
  const Hdr* hdr() const { return &hdr_; }
  size_t iF(int f) const { return (size_t)f; }
  size_t iR() const { return 0; }
  uint64_t seed() const { return 1; }
  const ds::RtoParams& rto() const { return rto_; }
  ds::CubicState* cubics() { return &cubic; }
  ds::EcnFlow* ecns() { return &ecn; }
  ds::NicFifo nic_fifo(int, ds::TcpSender& s) { return ds::NicFifo{&s.nic, seg, next, &pool}; }
  void flag(int32_t) {}
  int64_t* out_flow_pkts_sent() { return counters; }
  int64_t* out_flow_retransmits() { return counters + 1; }
  int64_t* out_flow_fast_retransmits() { return counters + 2; }
  int64_t* out_flow_timeouts() { return counters + 3; }
  int64_t* out_flow_rtt_samples() { return counters + 4; }
  double* out_flow_rtt_sum_slots() { return nullptr; }
  double* out_flow_rto_sum_slots() { return nullptr; }
  int64_t* out_flow_finish_slot() { return counters + 5; }
  int64_t* out_flow_access_drops() { return counters + 6; }
  int64_t* out_flow_app_delivered() { return counters + 7; }
  double* out_flow_app_delay_sum_slots() { return nullptr; }
  ds::SenderExt& sx(int) { return ext; }
  ds::SenderExt ext{};
};

// The segments output() has handed to the access link, in order (emptied).
std::vector<int> sent(OneFlow& x, ds::TcpSender& s) {
  std::vector<int> v;
  const ds::NicFifo fifo = x.nic_fifo(0, s);
  while (!fifo.empty()) v.push_back((int)(fifo.pop() & ~ds::kNicRexmit));
  return v;
}


// A sender of that flow with its RTT estimate (720-slot round trip), its access link and
// endless data: what every sender test starts from.
inline void sender_base(OneFlow& x, ds::TcpSender& s, int32_t max_window) {
  s.flow.max_window = max_window;
  ds::rtt_init(x.rto(), s.rtt, 720.0);
  ds::access_init(s.nic, 0.0, 1040);
  s.curseq = INT32_MAX;
}

}  // namespace one_flow
