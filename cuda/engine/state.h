// One replica's mutable state: fixed-capacity arrays carved out of one contiguous block per
// replica (the arena). With one thread per replica the accesses are data-dependent, so
// interleaving replicas field by field buys no coalescing; a contiguous block per replica
// gives cache locality on the CPU and keeps the layout one offset table (docs/design.md).
#pragma once
#include <cstddef>
#include <cstdint>

#include "../batch.h"
#include "../core/hd.h"
#include "../core/mintree.h"
#include "../core/philox.h"

namespace ds {

// A packet in a queue, a delay line or the same-slot arrival buffer. 16 bytes.
struct Packet {
  int32_t seq;       // TCP sequence number (packets); source packets: running count
  uint32_t t_enq;    // slot it entered its current queue (queueing-delay statistics)
  uint16_t sender;   // flow index, or n_flows-independent F + source index
  uint16_t bytes;    // size on the wire
  uint8_t hop;       // index into the sender's route
  uint8_t cls;       // class index on every link of the route
  uint8_t flags;     // kPktSource | kPktRexmit
  uint8_t link;      // link it is arriving at (stage buffer only)
};
constexpr uint8_t kPktSource = 1;
constexpr uint8_t kPktRexmit = 2;
constexpr uint32_t kNicRexmit = 0x80000000u;  // marks a retransmission in the access FIFO

struct TimedPacket {  // delay-line entry
  uint32_t due;
  uint32_t pad;
  Packet pkt;
};

struct Ack {  // in flight to the sender; ACKs are never queued or lost (all five papers)
  uint32_t due;
  int32_t ackno;  // highest in-order seq received (ns-2 TCPSink convention)
};

struct ClassQueue {  // drop-tail FIFO of one class on one link
  int32_t head, count;
  int64_t bytes;
};

struct LinkState {
  double credit;     // bytes the link may still send (byte-credit service)
  int8_t busy_cls;   // class whose head packet is being transmitted; -1 = none (non-preemptive)
  int8_t wrr_cls;    // WRR: class whose turn it is
  int8_t idle;       // no packet queued at the end of the last slot
  int8_t pad;
  int32_t wrr_left;  // WRR: packets left in that turn
  int32_t dl_head, dl_count;  // delay line
};

enum CwndAction : uint8_t { kActNone = 0, kActDupack = 1, kActExited = 2, kActTimeout = 3 };

// TCP sender + receiver of one flow, in ns-2's vocabulary (tcp.cc, tcp-reno.cc, tcp-newreno.cc).
struct FlowState {
  double cwnd;          // cwnd_ (packets)
  double nic_free;      // slot time at which the access link can start the next packet
  double t_rtxcur;      // t_rtxcur_ in slots (RTO before backoff and clamping)
  int32_t ssthresh;     // ssthresh_
  int32_t dupwnd;       // dupwnd_: Reno window inflation during fast recovery
  int32_t dupacks;      // dupacks_
  int32_t t_seqno;      // t_seqno_: next sequence number to send
  int32_t highest_ack;  // highest_ack_ == last_ack_: -1 before the first ACK
  int32_t maxseq;       // maxseq_: highest sequence number sent
  int32_t recover;      // recover_
  int32_t curseq;       // packets the application has to send (INT32_MAX = backlogged)
  int32_t rtt_seq;      // rtt_seq_: seq being timed (Karn)
  uint32_t rtt_ts;      // slot it was sent
  int32_t t_srtt;       // t_srtt_ (ticks << 3)
  int32_t t_rttvar;     // t_rttvar_ (ticks << 2)
  int32_t t_backoff;    // t_backoff_
  uint32_t rto_due;     // retransmission timer; kNever = not pending
  uint32_t wake_due;    // access link free again while data waits; kNever = none
  uint32_t start_due;   // flow start; kNever once started
  uint32_t delack_due;  // receiver's delayed-ACK timer; kNever = none
  int32_t rcv_next;     // receiver: next in-order seq expected
  int32_t ack_head, ack_count;
  int32_t nic_head, nic_count;  // access-link FIFO (nicring): segments handed over, not sent
  uint8_t last_cwnd_action;
  uint8_t rtt_active;
  uint8_t finished;
  uint8_t pad;
};

struct SourceState {  // exponential on-off (or always-on CBR) at a peak rate
  double phase_end;   // slot time the current on/off period ends
  double credit;      // bytes accrued while on and not yet sent as whole packets
  int32_t seq;
  uint8_t on;
  uint8_t pad[3];
};

struct ReplicaHdr {
  uint32_t ctr_tie;   // Philox counters, one per stream family (core/philox.h)
  uint32_t ctr_loss;
  uint32_t stage_count;
  uint32_t pad;
};

// Elements of an output array that belong to one replica.
DS_HD inline size_t per_replica(const BatchShape& s, Dim d) {
  BatchShape one = s;
  one.n_replicas = 1;
  return dim_size(one, d);
}

// Offsets (bytes) of each output array inside a replica's block: a replica accumulates its
// counters in its own block and they are copied out once at the end, so threads working on
// neighbouring replicas never write to the same cache line.
struct OutOffsets {
#define DS_OFF(name, T, dim) size_t name;
  DS_OUTPUT_FIELDS(DS_OFF)
#undef DS_OFF
};

// Offsets (bytes) of each array inside a replica's block. Computed once per batch.
struct Layout {
  OutOffsets out;
  size_t out_begin, out_end;
  size_t hdr, links, queues, qring, dline, flows, acks, nicring, rxbits, tree_key, tree_win, sources,
      src_ctr, stage, stride;
  int32_t P;  // tree leaves
};

DS_HD DS_INLINE size_t align16(size_t x) { return (x + 15) & ~size_t(15); }

inline Layout make_layout(const BatchShape& s) {
  Layout L{};
  const size_t F = s.max_flows, NL = s.max_links, S = s.max_sources;
  L.P = pow2_at_least(s.max_flows);
  size_t o = 0;
  L.hdr = o;       o = align16(o + sizeof(ReplicaHdr));
  L.links = o;     o = align16(o + NL * sizeof(LinkState));
  L.queues = o;    o = align16(o + NL * kMaxClasses * sizeof(ClassQueue));
  L.qring = o;     o = align16(o + NL * kMaxClasses * (size_t)s.queue_cap * sizeof(Packet));
  L.dline = o;     o = align16(o + NL * (size_t)s.delay_cap * sizeof(TimedPacket));
  L.flows = o;     o = align16(o + F * sizeof(FlowState));
  L.acks = o;      o = align16(o + F * (size_t)s.ack_cap * sizeof(Ack));
  L.nicring = o;   o = align16(o + F * (size_t)s.nic_cap * sizeof(uint32_t));
  L.rxbits = o;    o = align16(o + F * (kRxBitmapBits / 32) * sizeof(uint32_t));
  L.tree_key = o;  o = align16(o + (size_t)L.P * sizeof(uint32_t));
  L.tree_win = o;  o = align16(o + 2 * (size_t)L.P * sizeof(uint16_t));
  L.sources = o;   o = align16(o + S * sizeof(SourceState));
  L.src_ctr = o;   o = align16(o + S * sizeof(uint32_t));
  L.stage = o;     o = align16(o + (size_t)s.stage_cap * sizeof(Packet));
  L.out_begin = o;
#define DS_OFF(name, T, dim) L.out.name = o; o = align16(o + per_replica(s, dim) * sizeof(T));
  DS_OUTPUT_FIELDS(DS_OFF)
#undef DS_OFF
  L.out_end = o;
  L.stride = align16(o + 48);  // keep neighbouring replicas' hot data off one cache line
  return L;
}

// Typed view of one replica: its state block, its slice of the inputs and outputs.
struct Replica {
  int32_t r;
  const BatchInput* in;
  BatchOutput out;     // this replica's counters in its own block, indexed locally
  BatchShape shape;
  ReplicaHdr* hdr;
  LinkState* links;
  ClassQueue* queues;  // [l*kMaxClasses + c]
  Packet* qring;       // [(l*kMaxClasses + c)*queue_cap + i]
  TimedPacket* dline;  // [l*delay_cap + i]
  FlowState* flows;
  Ack* acks;           // [f*ack_cap + i]
  uint32_t* nicring;   // [f*nic_cap + i]: seq | kNicRexmit
  uint32_t* rxbits;    // [f*32 + w]
  MinTree tree;
  SourceState* sources;
  uint32_t* src_ctr;
  Packet* stage;
  uint64_t seed;
  bool measuring;      // this slot is at or after warm-up

  // Flat indices into the input/output arrays.
  DS_HD DS_INLINE size_t iR() const { return (size_t)r; }
  DS_HD DS_INLINE size_t iL(int l) const { return (size_t)r * shape.max_links + l; }
  DS_HD DS_INLINE size_t iLC(int l, int c) const { return iL(l) * kMaxClasses + c; }
  DS_HD DS_INLINE size_t iF(int f) const { return (size_t)r * shape.max_flows + f; }
  DS_HD DS_INLINE size_t iS(int s) const { return (size_t)r * shape.max_sources + s; }
  // Index of a link class in this replica's own output block.
  DS_HD DS_INLINE size_t oLC(int l, int c) const { return (size_t)l * kMaxClasses + c; }
};

DS_HD inline Replica bind_replica(int32_t r, const BatchInput* in, const Layout& L,
                                  unsigned char* arena) {
  Replica x;
  unsigned char* b = arena + (size_t)r * L.stride;
  x.r = r;
  x.in = in;
#define DS_BIND_OUT(name, T, dim) x.out.name = (T*)(b + L.out.name);
  DS_OUTPUT_FIELDS(DS_BIND_OUT)
#undef DS_BIND_OUT
  x.shape = in->shape;
  x.hdr = (ReplicaHdr*)(b + L.hdr);
  x.links = (LinkState*)(b + L.links);
  x.queues = (ClassQueue*)(b + L.queues);
  x.qring = (Packet*)(b + L.qring);
  x.dline = (TimedPacket*)(b + L.dline);
  x.flows = (FlowState*)(b + L.flows);
  x.acks = (Ack*)(b + L.acks);
  x.nicring = (uint32_t*)(b + L.nicring);
  x.rxbits = (uint32_t*)(b + L.rxbits);
  x.tree.key = (uint32_t*)(b + L.tree_key);
  x.tree.winner = (uint16_t*)(b + L.tree_win);
  x.tree.P = L.P;
  x.sources = (SourceState*)(b + L.sources);
  x.src_ctr = (uint32_t*)(b + L.src_ctr);
  x.stage = (Packet*)(b + L.stage);
  x.seed = in->seed[r];
  x.measuring = false;
  return x;
}

// Random stream families: a replica's numbers depend only on (seed, family, component,
// event index), never on the batch, chunk, thread count or backend (DESIGN: Randomness).
enum Family : uint32_t { kFamTie = 1, kFamSource = 2, kFamLoss = 3 };

DS_HD DS_INLINE double draw_u01(uint64_t seed, uint32_t family, uint32_t component,
                                uint32_t& counter) {
  Philox4x32Ctr c;
  c.v[0] = counter++;
  c.v[1] = component;
  c.v[2] = family;
  c.v[3] = 0;
  Philox4x32Key k;
  k.v[0] = (uint32_t)seed;
  k.v[1] = (uint32_t)(seed >> 32);
  Philox4x32Ctr o = philox4x32_10(c, k);
  return u01_open(o.v[0], o.v[1]);
}

}  // namespace ds
