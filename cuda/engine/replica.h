// One replica's mutable state, carved out of one contiguous block per replica (the arena),
// and the view the model code works through. The block is split by who writes it:
//   flow side  (lanes, in parallel): TCP senders, their access FIFOs, the flow tree, a lane's
//              emission ring and progress;
//   queue side (one lane, slot by slot): links, class queues, delay lines, receivers and
//              their delayed-ACK tree, sources, the same-slot arrival buffer;
//   ACK rings: pushed by the queue side, popped by the flow side, never in the same phase.
// docs/design.md ("The team of lanes") explains the two phases and why they keep the bits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>

#include "../batch.h"
#include "../core/hd.h"
#include "../core/mintree.h"
#include "../core/random.h"
#include "../core/ring.h"
#include "../model/link.h"
#include "../model/marker.h"
#include "../model/packet.h"
#include "../model/queue_droptail.h"
#include "../model/queue_red.h"
#include "../model/source_onoff.h"
#include "../model/tcp_receiver.h"
#include "../model/tcp_sender.h"
#include "../model/traffic_gen.h"

namespace ds {

struct ReplicaHdr {
  uint32_t ctr_tie;      // Philox counters, one per stream family (core/random.h)
  uint32_t ctr_loss;
  uint32_t ctr_mark;     // kFamMarker: probabilistic markers (TSW, Balancing Marker)
  uint32_t ctr_aqm;      // kFamAqm: RED early drops
  uint32_t stage_count;
  uint32_t t_queue;      // the queue side has done every slot before this one
  uint32_t lookahead;    // W: the shortest ACK loop of the replica, in slots (>= 1)
  uint32_t ack_head;     // the ACK pool: entries [ack_head, ack_tail) (mod ack_cap) may be live
  uint32_t ack_tail;
  // What the replica uses beyond plain TCP over drop-tail (init_replica): the per-packet
  // work of colours, markers, RED and transfer generations is skipped when it is not.
  uint8_t f_colour;   // a marker, or a sender whose packets start other than green
  uint8_t f_markers;  // edge conditioners
  uint8_t f_aqm;      // a class with RED/RIO/WRED
  uint8_t f_traffic;  // traffic generators (pool slots, generations)
  uint8_t f_app;      // telnet-like applications
  uint8_t f_tcp_tag;  // a conditioner that reads its senders' TCP state (marker_tcp_aware.h)
  uint8_t f_trace;    // flows whose cwnd is traced
  uint32_t peak_due;  // traffic: the first slot at which an assigned transfer starts and has
                      // not been counted alive yet (engine/traffic.h, count_starts); never
                      // without traffic
  int32_t trace_next[kMaxTraced];  // each traced flow's next sample (written by its lane only)
};

// One flow slot's transfer (slots of a generator's pool; queue side, engine/traffic.h).
struct Transfer {
  double start;       // slot time it starts
  double first_at;    // slot time its first packet left the last link (-1: not yet)
  double next_start;  // sessions: when the slot's next transfer may start
  double free_at;     // the slot may take a new transfer from this slot time on
  int32_t size;       // packets
  int32_t base[3];    // the slot's queue-side counters when it started: drops, early drops,
                      // red packets (a record is the difference; flow-side ones: TcpSender)
  uint8_t gen;        // the generation the receiver works for (4 bits on its packets)
  uint8_t next_gen;   // the generation of the transfer assigned to the slot (== gen once the
                      // receiver has seen its first packet)
  uint8_t active;     // assigned and its record not yet written
  uint8_t rx_done;    // its last packet was received (the record is written)
  uint8_t counted;    // counted alive (its start slot reached by the queue side)
  uint8_t pad[3];
  uint32_t n_assigned;   // transfers the slot has been given (sessions: its draws' counter)
  int32_t next_pending;  // the next transfer of its generator not yet counted alive (-1: none)
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
  size_t hdr, links, queues, red, markers, conns, gens, xfers, websess, sx, qring, dline, snd, acks, nic, nic_next, nic_pool, rcv, rxbits, tree_key, tree_win,
      rx_key, rx_win, sources, lane_t, emit_idx, emit, emit_at, stage, stage2, stride;
  int32_t P;  // tree leaves: a power of two >= max(flows, lanes)
};

DS_HD DS_INLINE size_t align16(size_t x) { return (x + 15) & ~size_t(15); }



inline Layout make_layout(const BatchShape& s) {
  Layout L{};
  const size_t F = s.max_flows, NL = s.max_links, S = s.max_sources, n = s.lanes;
  L.P = pow2_at_least(s.max_flows > s.lanes ? s.max_flows : s.lanes);
  size_t o = 0;
  auto take = [&](size_t& at, size_t bytes) { at = o; o = align16(o + bytes); };
  take(L.hdr, sizeof(ReplicaHdr));
  take(L.links, NL * sizeof(LinkState));
  take(L.queues, NL * kMaxClasses * sizeof(ClassQueue));
  take(L.red, s.aqm_states ? NL * kMaxClasses * sizeof(RedState) : 0);
  take(L.markers, (size_t)s.max_markers * sizeof(MarkerState));
  take(L.conns, s.conn_meters ? (F + S) * sizeof(ConnMeter) : 0);  // by sender: flows, sources
  take(L.gens, (size_t)s.max_gens * sizeof(GenState));
  take(L.xfers, s.flow_ext ? F * sizeof(Transfer) : 0);
  take(L.websess, (size_t)s.max_sessions * sizeof(WebSession));
  take(L.sx, s.flow_ext ? F * sizeof(SenderExt) : 0);
  take(L.qring, NL * (size_t)s.ring_link * sizeof(Packet));
  take(L.dline, NL * (size_t)s.delay_cap * sizeof(TimedPacket));
  take(L.snd, F * sizeof(TcpSender));
  take(L.acks, (size_t)s.ack_cap * sizeof(Ack));
  take(L.nic, n * (size_t)s.nic_chunks * kNicChunkSegs * sizeof(uint32_t));
  take(L.nic_next, n * (size_t)s.nic_chunks * sizeof(int32_t));
  take(L.nic_pool, n * sizeof(NicPool));
  take(L.rcv, F * sizeof(TcpReceiver));
  take(L.rxbits, F * kRxWords * sizeof(uint32_t));
  take(L.tree_key, (size_t)L.P * sizeof(uint32_t));
  take(L.tree_win, 2 * (size_t)L.P * sizeof(uint16_t));
  take(L.rx_key, (size_t)L.P * sizeof(uint32_t));
  take(L.rx_win, 2 * (size_t)L.P * sizeof(uint16_t));
  take(L.sources, S * sizeof(SourceState));
  take(L.lane_t, n * sizeof(uint32_t));
  take(L.emit_idx, n * sizeof(RingIdx));
  take(L.emit, n * (size_t)s.emit_cap * sizeof(Packet));
  take(L.emit_at, n * (size_t)s.emit_cap * sizeof(uint32_t));
  take(L.stage, (size_t)s.stage_cap * sizeof(Packet));
  take(L.stage2, (size_t)s.stage_cap * sizeof(Packet));
  L.out_begin = o;
#define DS_OFF(name, T, dim) take(L.out.name, per_replica(s, dim) * sizeof(T));
  DS_OUTPUT_FIELDS(DS_OFF)
#undef DS_OFF
  L.out_end = o;
  L.stride = align16(o + 48);  // keep neighbouring replicas' hot data off one cache line
  return L;
}

// Bytes of each part of a replica's block, in layout order (benchmarks: where the state goes).
template <class Each>
inline void layout_sections(const Layout& L, Each each) {
  const std::pair<const char*, size_t> at[] = {
      {"header", L.hdr}, {"links", L.links}, {"class_queues", L.queues}, {"red", L.red},
      {"markers", L.markers}, {"conn_meters", L.conns}, {"generators", L.gens},
      {"transfers", L.xfers}, {"web_sessions", L.websess}, {"sender_ext", L.sx},
      {"queue_rings", L.qring}, {"delay_lines", L.dline}, {"senders", L.snd},
      {"ack_pool", L.acks}, {"access_fifos", L.nic}, {"receivers", L.rcv},
      {"receiver_bitmaps", L.rxbits}, {"flow_tree", L.tree_key}, {"delack_tree", L.rx_key},
      {"sources", L.sources}, {"lanes", L.lane_t}, {"emission_rings", L.emit},
      {"arrival_buffer", L.stage}, {"outputs", L.out_begin}, {"", L.stride}};
  const size_t n = sizeof(at) / sizeof(at[0]);
  for (size_t k = 0; k + 1 < n; ++k) each(at[k].first, at[k + 1].second - at[k].second);
}

// Typed view of one replica: its state block, its slice of the inputs and outputs. Each
// lane of a team holds its own copy (cheap: pointers into the one block).
struct Replica {
  int32_t r;
  const BatchInput* in;
  BatchOutput out;     // this replica's counters in its own block, indexed locally
  BatchShape shape;
  ReplicaHdr* hdr;
  LinkState* links;
  ClassQueue* queues;  // [l*kMaxClasses + c]
  RedState* red;       // [l*kMaxClasses + c]: classes with an AQM
  MarkerState* markers;  // [m]
  ConnMeter* conns;    // [sender]: the Balancing Marker's connection table
  GenState* gens;      // [g]
  Transfer* xfers;     // [f]
  WebSession* websess; // [session]: web sessions of every kGenWeb generator
  SenderExt* sxs;      // [f]: senders' rarely used state (transfers, telnet)
  BatchOutput* rec;    // the batch's arrays: transfer records go straight there (row r*T + k)
  Packet* qring;       // [l*ring_link + class_off[c] + i] (BatchShape): class c on link l;
                       // ClassQueue::ring_off holds that start
  TimedPacket* dline;  // [l*delay_cap + i]
  TcpSender* snds;
  Ack* acks;           // [ack_cap]: every ACK in flight, each flow's linked in order
  uint32_t* nic;       // [chunk*kNicChunkSegs + i]: seq | kNicRexmit, waiting at an access
                       // link; lane k owns chunks [k*nic_chunks, (k+1)*nic_chunks)
  int32_t* nic_next;   // [chunk]: next chunk of a FIFO or of its lane's free list
  NicPool* nic_pools;  // [lane]
  TcpReceiver* rcvs;
  uint32_t* rxb;       // [f*kRxWords + w]
  MinTree tree;        // flows by next event slot (flow side; lane k owns subtree n + k)
  MinTree rxtree;      // receivers by delayed-ACK timer (queue side)
  SourceState* sources;
  uint32_t* lane_t;    // [lane]: the lane has done every flow event before this slot
  RingIdx* emit_idx;   // [lane]
  Packet* emit_buf;    // [lane*emit_cap + i]
  uint32_t* emit_at;   // [lane*emit_cap + i]: the slot it arrives in (its t_enq: its time
                       // within that slot, as the arrival buffer wants it)
  Packet* stage;
  Packet* stage2;      // scratch for the tie-break order
  uint64_t seed;
  RtoParams rto;
  int32_t lane;        // the lane this view works for on the flow side
  int32_t leaves_per_lane;
  int32_t lane_shift;  // log2(leaves_per_lane): flow f belongs to lane f >> lane_shift
  bool measuring;      // the slot being worked on is at or after warm-up
  size_t row_f;        // r * max_flows, r * max_links: where the replica's rows of the per-flow
  size_t row_l;        // and per-link input arrays start (read on every packet)

  DS_HD DS_INLINE size_t iR() const { return (size_t)r; }
  DS_HD DS_INLINE size_t iL(int l) const { return row_l + l; }
  DS_HD DS_INLINE size_t iLC(int l, int c) const { return iL(l) * kMaxClasses + c; }
  DS_HD DS_INLINE size_t iF(int f) const { return row_f + f; }
  DS_HD DS_INLINE size_t iS(int s) const { return (size_t)r * shape.max_sources + s; }
  // Index of a link class in this replica's own output block.
  DS_HD DS_INLINE size_t oLC(int l, int c) const { return (size_t)l * kMaxClasses + c; }
  DS_HD DS_INLINE size_t iM(int m) const { return (size_t)r * shape.max_markers + m; }
  DS_HD DS_INLINE size_t iG(int g) const { return (size_t)r * shape.max_gens + g; }

  DS_HD DS_INLINE TcpSender& snd(int f) const { return snds[f]; }
  DS_HD DS_INLINE SenderExt& sx(int f) const { return sxs[f]; }
  DS_HD DS_INLINE TcpReceiver& rcv(int f) const { return rcvs[f]; }
  DS_HD DS_INLINE SourceState& src(int s) const { return sources[s]; }
  DS_HD DS_INLINE uint32_t* rxbits(int f) const { return rxb + (size_t)f * kRxWords; }
  // Flow f's access-link FIFO, in its lane's pool (flow side: the owning lane only).
  DS_HD DS_INLINE NicFifo nic_fifo(int f) const {
    return NicFifo{&snds[f].nic, nic, nic_next, nic_pools + (f >> lane_shift)};
  }
  // The first ACK in flight to flow f's sender (null: none).
  DS_HD DS_INLINE Ack* first_ack(int f) const {
    return snds[f].ack_first < 0 ? nullptr : acks + snds[f].ack_first;
  }
  // Flow side: the sender takes its first ACK.
  DS_HD DS_INLINE Ack take_ack(int f) const {
    TcpSender& s = snds[f];
    const Ack a = acks[s.ack_first];  // read whole before the narrow store below
    acks[s.ack_first].consumed = 1;
    s.ack_first = a.next;
    return a;
  }
  DS_HD DS_INLINE ClassQueue* link_queues(int l) const { return queues + (size_t)l * kMaxClasses; }
  DS_HD DS_INLINE Ring<Packet> queue_ring(int l, int c) const {
    ClassQueue& q = queues[(size_t)l * kMaxClasses + c];
    return Ring<Packet>{qring + q.ring_off, &q.ring, q.ring_mask};
  }
  DS_HD DS_INLINE Ring<TimedPacket> dline_ring(int l) const {
    return make_ring(dline + (size_t)l * shape.delay_cap, links[l].dline, shape.delay_cap);
  }
  DS_HD DS_INLINE Ring<Packet> emit_ring(int k) const {
    return make_ring(emit_buf + (size_t)k * shape.emit_cap, emit_idx[k], shape.emit_cap);
  }
  DS_HD DS_INLINE int32_t lane_root(int f) const { return shape.lanes + (f >> lane_shift); }

  // An internal capacity was exceeded: the result is not trustworthy (the host raises).
  DS_HD DS_INLINE void flag(int32_t bit) const {
#ifdef __CUDA_ARCH__
    atomicOr(out.overflow, bit);
#else
    out.overflow[0] |= bit;
#endif
  }

  // Flow side: a packet handed to the first link of its route in slot `at`; the caller writes
  // it in place (see Ring::push_slot for why), its t_enq being its time within that slot.
  DS_HD DS_INLINE Packet* emit_slot(uint32_t at) const {
    Ring<Packet> e = emit_ring(lane);
    if (e.full()) {
      flag(kOvfStage);
      return nullptr;
    }
    emit_at[(size_t)lane * shape.emit_cap +
            (((uint32_t)e.idx->head + (uint32_t)e.idx->count) & e.mask)] = at;
    return &e.push_slot();
  }

  // Queue side: lane k's next packet arrives in slot `now`.
  DS_HD DS_INLINE bool emitted_due(int k, uint32_t now) const {
    return emit_idx[k].count != 0 &&
           emit_at[(size_t)k * shape.emit_cap + (uint32_t)emit_idx[k].head] == now;
  }

  // Queue side: lane k's next packet into the arrival buffer, whole: one copy of 16 bytes,
  // which the arrival's own reads can forward from.
  DS_HD DS_INLINE void stage_emitted(int k) const {
    Ring<Packet> e = emit_ring(k);
    Packet* d = stage_slot();
    if (d) *d = e.front();
    e.pop();
  }

  // Queue side: a packet arriving at link p.link in this slot. Arrivals are buffered and put
  // in the tie-break order before any queue sees them (DESIGN: Within a slot).
  // The next place in the arrival buffer, to be filled in place (null: full, reported).
  DS_HD DS_INLINE Packet* stage_slot() const {
    if (hdr->stage_count >= (uint32_t)shape.stage_cap) {
      flag(kOvfStage);
      return nullptr;
    }
    return &stage[hdr->stage_count++];
  }

  // Queue side: the receiver of flow f sends an ACK; it reaches the sender after the flow's
  // loop delay, which is at least the lookahead, so beyond anything the flow side has done.
  // Entries are taken in due order per flow but not across flows: the pool reclaims from its
  // oldest entry on, so it must hold every ACK generated within the longest loop delay.
  DS_HD inline void push_ack(int f, int32_t ackno, uint32_t now) const {
    const uint32_t mask = (uint32_t)shape.ack_cap - 1u;
    while (hdr->ack_head != hdr->ack_tail && acks[hdr->ack_head & mask].consumed)
      hdr->ack_head += 1;
    if (hdr->ack_tail - hdr->ack_head > mask) {
      flag(kOvfAckRing);
      return;
    }
    const int32_t k = (int32_t)(hdr->ack_tail & mask);
    hdr->ack_tail += 1;
    Ack& a = acks[k];
    a.due = now + (uint32_t)in->flow_loop_slots[iF(f)];
    a.ackno = ackno;
    a.next = -1;
    a.consumed = 0;
    a.gen = shape.flow_ext ? xfers[f].gen : 0;
    TcpSender& s = snds[f];
    if (s.ack_first >= 0) {
      acks[s.ack_last].next = k;
      s.ack_last = k;
      return;
    }
    s.ack_first = s.ack_last = k;
    if (a.due < tree.key[f]) {
      MinTree t = tree;
      t.set(f, a.due, lane_root(f));
    }
  }

  DS_HD DS_INLINE void set_delack(int f, uint32_t due) const {
    MinTree t = rxtree;
    t.set(f, due);
  }
};

// Binds replica r to a state block of L.stride bytes (a worker's slot of the arena: a block is
// needed only while its replica runs, so the arena holds one per worker, not one per replica).
DS_HD inline Replica bind_replica(int32_t r, const BatchInput* in, const Layout& L,
                                  unsigned char* b) {
  Replica x;
  x.r = r;
  x.in = in;
#define DS_BIND_OUT(name, T, dim) x.out.name = (T*)(b + L.out.name);
  DS_OUTPUT_FIELDS(DS_BIND_OUT)
#undef DS_BIND_OUT
  x.shape = in->shape;
  x.hdr = (ReplicaHdr*)(b + L.hdr);
  x.links = (LinkState*)(b + L.links);
  x.queues = (ClassQueue*)(b + L.queues);
  x.red = (RedState*)(b + L.red);
  x.markers = (MarkerState*)(b + L.markers);
  x.conns = (ConnMeter*)(b + L.conns);
  x.gens = (GenState*)(b + L.gens);
  x.xfers = (Transfer*)(b + L.xfers);
  x.websess = (WebSession*)(b + L.websess);
  x.sxs = (SenderExt*)(b + L.sx);
  x.rec = nullptr;  // set by the backend (bind_records)
  x.qring = (Packet*)(b + L.qring);
  x.dline = (TimedPacket*)(b + L.dline);
  x.snds = (TcpSender*)(b + L.snd);
  x.acks = (Ack*)(b + L.acks);
  x.nic = (uint32_t*)(b + L.nic);
  x.nic_next = (int32_t*)(b + L.nic_next);
  x.nic_pools = (NicPool*)(b + L.nic_pool);
  x.rcvs = (TcpReceiver*)(b + L.rcv);
  x.rxb = (uint32_t*)(b + L.rxbits);
  x.tree.key = (uint32_t*)(b + L.tree_key);
  x.tree.winner = (uint16_t*)(b + L.tree_win);
  x.tree.P = L.P;
  x.rxtree.key = (uint32_t*)(b + L.rx_key);
  x.rxtree.winner = (uint16_t*)(b + L.rx_win);
  x.rxtree.P = L.P;
  x.sources = (SourceState*)(b + L.sources);
  x.lane_t = (uint32_t*)(b + L.lane_t);
  x.emit_idx = (RingIdx*)(b + L.emit_idx);
  x.emit_buf = (Packet*)(b + L.emit);
  x.emit_at = (uint32_t*)(b + L.emit_at);
  x.stage = (Packet*)(b + L.stage);
  x.stage2 = (Packet*)(b + L.stage2);
  x.seed = in->seed[r];
  x.rto.tick = in->tick_slots[r];
  x.rto.min_rto = in->min_rto_slots[r];
  x.rto.max_rto = in->max_rto_slots[r];
  x.lane = 0;
  x.leaves_per_lane = L.P / x.shape.lanes;
  x.lane_shift = 0;
  while ((1 << x.lane_shift) < x.leaves_per_lane) x.lane_shift += 1;
  x.measuring = false;
  x.row_f = (size_t)r * x.shape.max_flows;
  x.row_l = (size_t)r * x.shape.max_links;
  return x;
}

// Where the replica writes its transfer records: the batch's output arrays.
DS_HD DS_INLINE void bind_records(Replica& x, BatchOutput* out) { x.rec = out; }

}  // namespace ds
