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
#include <cstring>
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
#include "../model/queue_codel.h"
#include "../model/queue_fq_codel.h"
#include "../model/queue_pie.h"
#include "../model/queue_red.h"
#include "../model/source_onoff.h"
#include "../model/tcp_receiver.h"
#include "../model/tcp_cubic.h"
#include "../model/tcp_ecn.h"
#include "../model/tcp_sack.h"
#include "../model/tcp_sender.h"
#include "../model/traffic_gen.h"
#include "events.h"

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
  uint8_t f_aqm;      // a class with an AQM (RED/RIO/WRED, CoDel or PIE)
  uint8_t f_codel;    // a class with CoDel (model/queue_codel.h): its dequeue step
  uint8_t f_pie;      // a class with PIE (model/queue_pie.h): its update every t_update
  uint8_t f_fqcodel;  // a class with FQ-CoDel (model/queue_fq_codel.h): engine/fq_side.h
  uint8_t f_traffic;  // traffic generators (pool slots, generations)
  uint8_t f_app;      // telnet-like applications
  uint8_t f_tcp_tag;  // a conditioner that reads its senders' TCP state (marker_tcp_aware.h)
  uint8_t f_trace;    // flows whose cwnd is traced
  uint8_t f_flow_ext; // f_trace | f_traffic | f_app: a flow event's rare steps (flow_side.h)
  uint8_t f_hooks;    // validation hooks: a link's Bernoulli loss, a flow's injected drops
  uint8_t f_sack;     // SACK senders (model/tcp_sack.h)
  uint8_t f_qtrace;   // a queue trace (Scenario.queue_trace_interval_s): queue_side.h
  uint8_t f_cubic;    // CUBIC senders (model/tcp_cubic.h)
  uint8_t f_qhist;    // the queueing-delay histogram (Scenario.queue_delay_hist): link_send
  uint8_t f_ecn;      // ECN flows or marking classes (model/tcp_ecn.h)
  uint8_t f_arrive;   // f_colour | f_markers | f_aqm | f_traffic: arrivals take arrive_full
                      // (engine/queue_side.h: arrive), one test instead of four
  uint8_t f_hops;     // a route of more than one link: the delay lines (queue_slot) are read
  uint32_t peak_due;  // traffic: the first slot at which an assigned transfer starts and has
                      // not been counted alive yet (engine/traffic.h, count_starts); never
                      // without traffic
  int32_t qtrace_next;  // the queue trace's next sample (queue side; engine/queue_side.h)
  uint32_t qtrace_due;  // the slot before which it is taken: ceil(qtrace_next * interval)
};

// A PIE class's state (model/queue_pie.h) and the engine's two counters beside it.
struct PieQueue {
  PieState st;
  uint32_t ctr;      // Philox counter of its early-drop draws (kFamPie, component the class k)
  uint32_t updates;  // pie_update calls so far: the next is due at the first slot whose start
                     // is at or after updates x t_update (ns-3's first at Supdate 0)
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
  size_t hdr, links, queues, red, codel, pie, fq_lists, fq_flows, markers, conns, gens, xfers, websess, sx, sack_snd, sack_rcv, cubic, ecn,
      ack_sack, qring, dline, snd, acks, nic, nic_next, nic_pool, rcv, rxbits, tree_key, tree_win,
      rx_key, rx_win, sources, lane_t, emit_idx, emit, emit_at, stage, stage_perm, trace_next,
      stride;
  int32_t P;  // tree leaves: a power of two >= max(flows, lanes)
};

DS_HD DS_INLINE size_t align16(size_t x) { return (x + 15) & ~size_t(15); }

// The counters a slot updates whatever its events (benchmarks/gpu/coalesce.py's trace of the Kaur
// & Vin replicas: each at least ~0.2 times a slot), placed first among the outputs. Each must
// name a DS_OUTPUT_FIELDS entry (tests/cpp/test_models.cpp checks it).
constexpr const char* kSlotCounters[] = {
    "q_pkt_slots", "q_byte_slots", "q_arrivals", "q_departures", "q_bytes_departed",
    "q_max_delay_slots", "src_on_slots", "src_bursts", "src_pkts", "src_bytes",
    "src_delivered_bytes", "flow_delivered_bytes", "flow_pkts_sent", "flow_colour_pkts"};

inline bool slot_counter(const char* name) {
  for (const char* k : kSlotCounters)
    if (std::strcmp(k, name) == 0) return true;
  return false;
}

// No report of the block's parts (make_layout's default).
struct NoParts {
  void operator()(const char*, size_t) const {}
};

// The block's layout for shape s; part(name, bytes) hears of each part of the block in block
// order as it is placed (the bytes of each part, for benchmarks: where the state goes), its
// alignment padding and, for the last, the stride's included.
template <class Part = NoParts>
inline Layout make_layout(const BatchShape& s, Part part = {}) {
  Layout L{};
  const size_t F = s.max_flows, NL = s.max_links, S = s.max_sources, n = s.lanes;
  L.P = pow2_at_least(s.max_flows > s.lanes ? s.max_flows : s.lanes);
  size_t o = 0;
  const char* open = nullptr;  // the part being placed (arrays of one part share its name)
  size_t open_at = 0;
  auto take = [&](const char* name, size_t& at, size_t bytes) {
    if (!open || std::strcmp(open, name) != 0) {
      if (open) part(open, o - open_at);
      open = name;
      open_at = o;
    }
    at = o;
    o = align16(o + bytes);
  };
  // Block order: what a slot touches whatever its events first, small parts side by side,
  // then the per-flow state and the rings, so that a slot's own scalars share few cache
  // lines (a GPU thread's working set; benchmarks/gpu/coalesce.py, lines per replica-slot). Any
  // order gives the same results: every part is found by its offset.
  take("header", L.hdr, sizeof(ReplicaHdr));
  take("links", L.links, NL * sizeof(LinkState));
  take("class_queues", L.queues, NL * kMaxClasses * sizeof(ClassQueue));
  take("red", L.red, s.aqm_states ? NL * kMaxClasses * sizeof(RedState) : 0);
  take("codel", L.codel, s.aqm_states ? NL * kMaxClasses * sizeof(CodelState) : 0);
  take("pie", L.pie, s.aqm_states ? NL * kMaxClasses * sizeof(PieQueue) : 0);
  // FQ-CoDel: one class a link at most, its lists and fq_queues flow queues per link
  take("fq_codel", L.fq_lists, s.fq_queues ? NL * sizeof(FqLists) : 0);
  take("fq_codel", L.fq_flows, NL * (size_t)s.fq_queues * sizeof(FqFlow));
  take("markers", L.markers, (size_t)s.max_markers * sizeof(MarkerState));
  take("generators", L.gens, (size_t)s.max_gens * sizeof(GenState));
  take("sources", L.sources, S * sizeof(SourceState));
  take("lanes", L.lane_t, n * sizeof(uint32_t));
  take("emission_heads", L.emit_idx, n * sizeof(RingIdx));
  take("access_pools", L.nic_pool, n * sizeof(NicPool));
  take("flow_tree", L.tree_key, (size_t)L.P * sizeof(uint32_t));
  take("flow_tree", L.tree_win, 2 * (size_t)L.P * sizeof(uint16_t));
  take("delack_tree", L.rx_key, (size_t)L.P * sizeof(uint32_t));
  take("delack_tree", L.rx_win, 2 * (size_t)L.P * sizeof(uint16_t));
  take("arrival_buffer", L.stage, (size_t)s.stage_cap * sizeof(Packet));
  take("arrival_buffer", L.stage_perm, (size_t)s.stage_cap * sizeof(uint32_t));
  // The counters, those a slot updates first (every slot: its queues' lengths and
  // departures; its sources' and flows' packets), then the others.
  L.out_begin = o;
#define DS_OFF(name, T, dim) \
  if (slot_counter(#name)) take("outputs", L.out.name, per_replica(s, dim) * sizeof(T));
  DS_OUTPUT_FIELDS(DS_OFF)
#undef DS_OFF
#define DS_OFF(name, T, dim) \
  if (!slot_counter(#name)) take("outputs", L.out.name, per_replica(s, dim) * sizeof(T));
  DS_OUTPUT_FIELDS(DS_OFF)
#undef DS_OFF
  L.out_end = o;
  take("conn_meters", L.conns, s.conn_meters ? (F + S) * sizeof(ConnMeter) : 0);  // by sender: flows, sources
  take("transfers", L.xfers, s.flow_ext ? F * sizeof(Transfer) : 0);
  take("web_sessions", L.websess, (size_t)s.max_sessions * sizeof(WebSession));
  take("sender_ext", L.sx, s.flow_ext ? F * sizeof(SenderExt) : 0);
  // each traced flow's next cwnd sample (flow_side.h: trace_until; written by its lane only)
  take("trace_next", L.trace_next, (size_t)s.max_traced * sizeof(int32_t));
  take("sack", L.sack_snd, s.sack_states ? F * sizeof(SackSender) : 0);
  take("sack", L.sack_rcv, s.sack_states ? F * sizeof(SackReceiver) : 0);
  take("sack", L.ack_sack, s.sack_states ? (size_t)s.ack_cap * sizeof(SackBlocks) : 0);
  take("cubic", L.cubic, s.cubic_states ? F * sizeof(CubicState) : 0);
  take("ecn", L.ecn, s.ecn_states ? F * sizeof(EcnFlow) : 0);
  take("senders", L.snd, F * sizeof(TcpSender));
  take("receivers", L.rcv, F * sizeof(TcpReceiver));
  take("receiver_bitmaps", L.rxbits, F * (size_t)(s.rx_bits / 32) * sizeof(uint32_t));
  take("ack_pool", L.acks, (size_t)s.ack_cap * sizeof(Ack));
  take("queue_rings", L.qring, NL * (size_t)s.ring_link * sizeof(Packet));
  take("delay_lines", L.dline, NL * (size_t)s.delay_cap * sizeof(TimedPacket));
  take("access_fifos", L.nic, n * (size_t)s.nic_chunks * kNicChunkSegs * sizeof(uint32_t));
  take("access_fifos", L.nic_next, n * (size_t)s.nic_chunks * sizeof(int32_t));
  take("emission_rings", L.emit, n * (size_t)s.emit_cap * sizeof(Packet));
  take("emission_rings", L.emit_at, n * (size_t)s.emit_cap * sizeof(uint32_t));
  L.stride = align16(o + 48);  // keep neighbouring replicas' hot data off one cache line
  part(open, L.stride - open_at);
  return L;
}

// What every replica of a batch shares and only reads while it runs: the inputs (with the
// shape), where each part of a state block lies and the batch's output arrays. The CPU keeps
// one per batch and each Replica points at it; CUDA keeps the launch's views in one device
// array (c_views), read as warp-wide broadcasts through the L1: no per-thread copy in local
// memory (../shared/gpu/README.md section 2: a 920-byte view per thread, a 1,040-byte stack
// frame). Not __constant__: the compiler then treats every input pointer and offset as loop
// invariant, hoists them all out of the slot loop and spills (ptxas: 168-255 registers and
// 212-592 bytes of spills, against 128 registers and none; benchmarks/gpu/gpu.md).
struct BatchView {
  BatchInput in;
  BatchOutput out;          // the batch's arrays: records are written in place, counters at the end
  Layout L;
  int32_t lane_shift;       // log2(flow-tree leaves per lane): flow f is lane f >> lane_shift's
};

DS_HD inline BatchView make_view(const BatchInput& in, const BatchOutput& out, const Layout& L) {
  BatchView v;
  v.in = in;
  v.out = out;
  v.L = L;
  const int32_t leaves_per_lane = L.P / in.shape.lanes;
  v.lane_shift = 0;
  while ((1 << v.lane_shift) < leaves_per_lane) v.lane_shift += 1;
  return v;
}

// Batches one CUDA launch can carry.
constexpr int kMaxViews = 64;
#if defined(__CUDACC__)
// static: each CUDA translation unit (kernel_full.cu, kernel_slim.cu) has its own, filled for
// its kernel by its set_views (kernel.cuh).
static __device__ BatchView c_views[kMaxViews];
#endif

// X(name, type, Layout field, use): the arrays of a replica's state block, as Replica methods.
// `use`: kHot for the arrays a replica of the common models reads, kRare for the rare models'
// state (and the tie-break scratch), which the full kernel reaches with plain offset loads
// to stay at 96 registers without spills (DS_LAYOUT_RO, below).
enum StateArrayUse { kHot, kRare };
#define DS_STATE_ARRAYS(X)                                                                        \
  X(hdr, ReplicaHdr, hdr, kHot)                                                                   \
  X(links, LinkState, links, kHot)                                                                \
  X(queues, ClassQueue, queues, kHot)       /* [l*kMaxClasses + c] */                             \
  X(red, RedState, red, kRare)              /* [l*kMaxClasses + c]: classes with an AQM */        \
  X(codel, CodelState, codel, kRare)        /* [l*kMaxClasses + c]: CoDel classes' state */       \
  X(pie, PieQueue, pie, kRare)              /* [l*kMaxClasses + c]: PIE classes' state */         \
  X(fq_lists, FqLists, fq_lists, kRare)     /* [l]: FQ-CoDel's new and old lists (fq_queues) */   \
  X(fq_flows, FqFlow, fq_flows, kRare)      /* [l*fq_queues + i]: FQ-CoDel's flow queues */       \
  X(markers, MarkerState, markers, kRare)                                                         \
  X(conns, ConnMeter, conns, kRare)         /* [sender]: the Balancing Marker's table */          \
  X(gens, GenState, gens, kRare)                                                                  \
  X(xfers, Transfer, xfers, kRare)          /* [f] */                                             \
  X(websess, WebSession, websess, kRare)    /* [session]: every kGenWeb generator's */            \
  X(sxs, SenderExt, sx, kRare)              /* [f]: senders' rarely used state */                 \
  X(sack_snds, SackSender, sack_snd, kRare) /* [f]: SACK senders (sack_states) */                 \
  X(sack_rcvs, SackReceiver, sack_rcv, kRare) /* [f]: SACK sinks */                               \
  X(ack_sacks, SackBlocks, ack_sack, kRare) /* [ack_cap]: each ACK in flight's SACK blocks */     \
  X(cubics, CubicState, cubic, kRare)       /* [f]: CUBIC senders (cubic_states) */               \
  X(ecns, EcnFlow, ecn, kRare)              /* [f]: ECN senders and receivers (ecn_states) */     \
  /* [l*ring_link + class_off[c] + i] (BatchShape): class c on link l; ClassQueue::ring_off       \
     holds that start */                                                                          \
  X(qring, Packet, qring, kHot)                                                                   \
  X(dline, TimedPacket, dline, kHot)        /* [l*delay_cap + i] */                               \
  X(snds, TcpSender, snd, kHot)                                                                   \
  X(acks, Ack, acks, kHot)                  /* [ack_cap]: every ACK in flight, linked per flow */ \
  /* [chunk*kNicChunkSegs + i]: seq | kNicRexmit waiting at an access link; lane k owns           \
     chunks [k*nic_chunks, (k+1)*nic_chunks) */                                                   \
  X(nic, uint32_t, nic, kHot)                                                                     \
  X(nic_next, int32_t, nic_next, kHot)      /* [chunk]: next chunk of a FIFO or free list */      \
  X(nic_pools, NicPool, nic_pool, kHot)     /* [lane] */                                          \
  X(rcvs, TcpReceiver, rcv, kHot)                                                                 \
  X(rxb, uint32_t, rxbits, kHot)            /* [f*(rx_bits/32) + w] */                                \
  X(sources, SourceState, sources, kHot)                                                          \
  X(lane_t, uint32_t, lane_t, kHot)         /* [lane]: every flow event before this slot done */  \
  X(emit_idx, RingIdx, emit_idx, kHot)      /* [lane] */                                          \
  X(emit_buf, Packet, emit, kHot)           /* [lane*emit_cap + i] */                             \
  /* [lane*emit_cap + i]: the slot it arrives in (its t_enq is its time in that slot) */          \
  X(emit_at, uint32_t, emit_at, kHot)                                                             \
  X(stage, Packet, stage, kHot)                                                                   \
  X(stage_perm, uint32_t, stage_perm, kRare) /* [stage_cap]: tie-break order */           \
  X(trace_next, int32_t, trace_next, kRare) /* [max_traced]: cwnd trace (flow_side.h) */

// Host only: what a bound replica reads on every packet, one load away (bind_replica fills
// it): the host passes the Replica by reference, so that the fields below cost one load each,
// as the old per-replica view did; reaching them through the batch's view costs the CPU ~10%
// more instructions per replica-slot (callgrind, benchmarks/cpu/slot_cost.py).
struct HostCache {
  unsigned char* b;       // the state block
  const BatchView* bv;    // the batch
  const BatchInput* in;   // &bv->in
  BatchShape shape;       // bv->in.shape
  int32_t lane_shift;     // bv->lane_shift
  uint64_t seed;          // in->seed[r]
  RtoParams rto;          // in->tick_slots[r], min_rto_slots[r], max_rto_slots[r]
#define DS_CACHE_FIELD(name, T, off, use) T* name;
  DS_STATE_ARRAYS(DS_CACHE_FIELD)
#undef DS_CACHE_FIELD
  BatchOutput out;  // the replica's own counters, in its block
  MinTree tree, rxtree;
  size_t row_f;     // r * max_flows, r * max_links: its rows of the per-flow and per-link inputs
  size_t row_l;
};

#ifdef __CUDA_ARCH__
#ifdef DS_CUDA_SLIM
constexpr bool kSlimKernel = true;
#else
constexpr bool kSlimKernel = false;
#endif
#endif

// One replica as the engine code sees it: its state block, its index, its batch. Small enough
// to live in registers and to be passed by value (16-24 bytes): every array of the block is
// found from the block's address and the batch's Layout, every input from the batch's view.
struct Replica {
#ifdef __CUDA_ARCH__
  unsigned char* b;      // the replica's state block (Layout: L.stride bytes)
#else
  HostCache c;           // its block, its batch, its arrays' addresses (bind_replica)
#endif
  int32_t r;             // its row in the batch
  uint16_t vi;           // on the device: its batch's view in c_views
  uint8_t lane;          // the lane this copy works for on the flow side
  uint8_t measuring;     // the slot being worked on is at or after warm-up

  DS_HD DS_INLINE const BatchView& v() const {
#ifdef __CUDA_ARCH__
    return c_views[vi];
#else
    return *c.bv;
#endif
  }
  DS_HD DS_INLINE const Layout& L() const { return v().L; }
  DS_HD DS_INLINE BatchOutput* rec() const { return const_cast<BatchOutput*>(&v().out); }
#ifdef __CUDA_ARCH__
  DS_HD DS_INLINE const BatchInput* in() const { return &v().in; }
#ifdef DS_CUDA_SLIM
  // The slim kernel reads the batch's shape through the read-only path too (DS_LAYOUT_RO):
  // a copy made of __ldg words, of which the compiler keeps only the fields read.
  DS_HD DS_INLINE BatchShape shape() const {
    static_assert(sizeof(BatchShape) % 4 == 0, "BatchShape: 32-bit fields");
    BatchShape s;
    const int32_t* src = (const int32_t*)&v().in.shape;
    int32_t* dst = (int32_t*)&s;
#pragma unroll
    for (int i = 0; i < (int)(sizeof(BatchShape) / 4); ++i) dst[i] = __ldg(src + i);
    return s;
  }
#else
  DS_HD DS_INLINE const BatchShape& shape() const { return v().in.shape; }
#endif
  DS_HD DS_INLINE uint64_t seed() const { return v().in.seed[r]; }
  DS_HD DS_INLINE RtoParams rto() const {
    const BatchInput& i = v().in;
    return RtoParams{i.tick_slots[r], i.min_rto_slots[r], i.max_rto_slots[r]};
  }
  DS_HD DS_INLINE int32_t lane_shift() const { return v().lane_shift; }
#else
  DS_HD DS_INLINE const BatchInput* in() const { return c.in; }
  DS_HD DS_INLINE const BatchShape& shape() const { return c.shape; }
  DS_HD DS_INLINE uint64_t seed() const { return c.seed; }
  DS_HD DS_INLINE const RtoParams& rto() const { return c.rto; }
  DS_HD DS_INLINE int32_t lane_shift() const { return c.lane_shift; }
#endif

  DS_HD DS_INLINE unsigned char* block() const {
#ifdef __CUDA_ARCH__
    return b;
#else
    return c.b;
#endif
  }
  template <class T>
  DS_HD DS_INLINE T* at(size_t off) const { return (T*)(block() + off); }
  // Each array of the state block (DS_STATE_ARRAYS): on the device its address from the
  // block's and the Layout's offset; on the host the address bind_replica cached (HostCache:
  // one load, as the old per-replica view had; computing it costs the CPU 16% more
  // instructions per replica-slot, benchmarks/cpu/slot_cost.py).
#ifdef __CUDA_ARCH__
// The kernels read the Layout's offsets through the read-only path (__ldg): c_views is
// written by the host before a launch and never during one, and a read-only load may be
// kept and reused across the stores to the state that follow, where a plain one is loaded
// again at every use (the compiler cannot tell a store to the state from one to c_views).
// The slim kernel for every array and the flow trees, with the shape read the same way
// (shape(), above): ~20% fewer SASS instructions per replica-slot (benchmarks/gpu/hot_sass.py,
// Kaur & Vin's 1- and 64-flow replicas; benchmarks/gpu/gpu.md), 80 registers and no spills
// still. The full kernel for the counters and every array but the rare models'
// (kRare in DS_STATE_ARRAYS): ~12% fewer, 96 registers and no spills; with those arrays, the trees
// or the shape too ptxas spilled 26-54 bytes. A copy of the inputs' addresses made the same
// way went to a 3,328-byte stack frame: not done.
#define DS_LAYOUT_RO(field) ((size_t)__ldg((const unsigned long long*)&L().field))
#ifdef DS_CUDA_SLIM
#define DS_LAYOUT_P() (__ldg(&L().P))
#define DS_TREE_OFF(field) DS_LAYOUT_RO(field)
#else
#define DS_LAYOUT_P() (L().P)
#define DS_TREE_OFF(field) (L().field)
#endif
#define DS_STATE_ACCESSOR(name, T, off, use)                                       \
  DS_HD DS_INLINE T* name() const {                                                \
    if constexpr (kSlimKernel || use == kHot) return at<T>(DS_LAYOUT_RO(off));     \
    else return at<T>(L().off);                                                    \
  }
#define DS_OUT_ACCESSOR(name, T, dim) \
  DS_HD DS_INLINE T* out_##name() const { return at<T>(DS_LAYOUT_RO(out.name)); }
#else
#define DS_STATE_ACCESSOR(name, T, off, use) \
  DS_HD DS_INLINE T* name() const { return c.name; }
#define DS_OUT_ACCESSOR(name, T, dim) \
  DS_HD DS_INLINE T* out_##name() const { return c.out.name; }
#endif
  DS_STATE_ARRAYS(DS_STATE_ACCESSOR)
  // This replica's counters in its own block, indexed locally (out_<field>()).
  DS_OUTPUT_FIELDS(DS_OUT_ACCESSOR)
#undef DS_STATE_ACCESSOR
#undef DS_OUT_ACCESSOR
  // Flows by next event slot (flow side; lane k owns subtree n + k); receivers by delayed-ACK
  // timer (queue side).
#ifdef __CUDA_ARCH__
  DS_HD DS_INLINE MinTree tree() const {
    return MinTree{at<uint32_t>(DS_TREE_OFF(tree_key)), at<uint16_t>(DS_TREE_OFF(tree_win)),
                   DS_LAYOUT_P()};
  }
  DS_HD DS_INLINE MinTree rxtree() const {
    return MinTree{at<uint32_t>(DS_TREE_OFF(rx_key)), at<uint16_t>(DS_TREE_OFF(rx_win)),
                   DS_LAYOUT_P()};
  }
#else
  DS_HD DS_INLINE MinTree tree() const { return c.tree; }
  DS_HD DS_INLINE MinTree rxtree() const { return c.rxtree; }
#endif

  DS_HD DS_INLINE size_t iR() const { return (size_t)r; }
  // Where the replica's rows of the per-link and per-flow input arrays start.
  DS_HD DS_INLINE size_t iL(int l) const { return row_l() + l; }
  DS_HD DS_INLINE size_t iLC(int l, int c) const { return iL(l) * kMaxClasses + c; }
  DS_HD DS_INLINE size_t iF(int f) const { return row_f() + f; }
#ifdef __CUDA_ARCH__
  DS_HD DS_INLINE size_t row_f() const { return (size_t)r * shape().max_flows; }
  DS_HD DS_INLINE size_t row_l() const { return (size_t)r * shape().max_links; }
#else
  DS_HD DS_INLINE size_t row_f() const { return c.row_f; }
  DS_HD DS_INLINE size_t row_l() const { return c.row_l; }
#endif
  DS_HD DS_INLINE size_t iS(int s) const { return (size_t)r * shape().max_sources + s; }
  // Index of a link class in this replica's own output block.
  DS_HD DS_INLINE size_t oLC(int l, int c) const { return (size_t)l * kMaxClasses + c; }
  DS_HD DS_INLINE size_t iM(int m) const { return (size_t)r * shape().max_markers + m; }
  DS_HD DS_INLINE size_t iG(int g) const { return (size_t)r * shape().max_gens + g; }

  DS_HD DS_INLINE TcpSender& snd(int f) const { return snds()[f]; }
  DS_HD DS_INLINE SenderExt& sx(int f) const { return sxs()[f]; }
  DS_HD DS_INLINE TcpReceiver& rcv(int f) const { return rcvs()[f]; }
  DS_HD DS_INLINE SourceState& src(int s) const { return sources()[s]; }
  DS_HD DS_INLINE uint32_t* rxbits(int f) const {
    return rxb() + (size_t)f * (size_t)(shape().rx_bits >> 5);
  }
  // Flow f's access-link FIFO, in its lane's pool (flow side: the owning lane only). These
  // take the flow's sender, which the caller holds: finding it again from f is a multiply
  // and a reload of the senders' address per use, several times per flow event (callgrind,
  // benchmarks/cpu/slot_cost.py: 1 flow 817 -> 809 instructions per replica-slot).
  DS_HD DS_INLINE NicFifo nic_fifo(int f, TcpSender& s) const {
    return NicFifo{&s.nic, nic(), nic_next(), nic_pools() + (f >> lane_shift())};
  }
  // Flow side: sender s takes its first ACK.
  DS_HD DS_INLINE Ack take_ack(TcpSender& s) const {
    Ack* pool = acks();
    const Ack a = pool[s.ack_first];  // read whole before the narrow store below
    pool[s.ack_first].consumed = 1;
    s.ack_first = a.next;
    return a;
  }
  DS_HD DS_INLINE ClassQueue* link_queues(int l) const { return queues() + (size_t)l * kMaxClasses; }
  DS_HD DS_INLINE Ring<Packet> queue_ring(int l, int c) const {
    ClassQueue& q = queues()[(size_t)l * kMaxClasses + c];
    return Ring<Packet>{qring() + q.ring_off, &q.ring, q.ring_mask};
  }
  DS_HD DS_INLINE Ring<TimedPacket> dline_ring(int l) const {
    return make_ring(dline() + (size_t)l * shape().delay_cap, links()[l].dline, shape().delay_cap);
  }
  DS_HD DS_INLINE Ring<Packet> emit_ring(int k) const {
    return make_ring(emit_buf() + (size_t)k * shape().emit_cap, emit_idx()[k], shape().emit_cap);
  }
  DS_HD DS_INLINE int32_t lane_root(int f) const { return shape().lanes + (f >> lane_shift()); }

  // An internal capacity was exceeded: the result is not trustworthy (the host raises).
  DS_HD DS_INLINE void flag(int32_t bit) const {
#ifdef __CUDA_ARCH__
    atomicOr(out_overflow(), bit);
#else
    out_overflow()[0] |= bit;
#endif
  }

  // Flow side: a packet handed to the first link of its route in slot `at`; the caller writes
  // it in place (see Ring::push_slot for why), its t_enq being its time within that slot.
  DS_HD DS_INLINE Packet* emit_slot(uint32_t when) const {
    Ring<Packet> e = emit_ring(lane);
    if (DS_UNLIKELY(e.full())) {
      flag(kOvfStage);
      return nullptr;
    }
    emit_at()[(size_t)lane * shape().emit_cap +
              (((uint32_t)e.idx->head + (uint32_t)e.idx->count) & e.mask)] = when;
    return &e.push_slot();
  }

  // Queue side: lane k's packets that arrive in slot `now` into the arrival buffer, each
  // whole (one copy of 16 bytes, which the arrival's own reads can forward from). The ring
  // and its due slots are found once for the lane, not once per packet and once more for
  // the test that ends the loop (hot_sass.py).
  DS_HD DS_INLINE void stage_emitted(int k, uint32_t now) const {
    RingIdx& idx = emit_idx()[k];
    if (idx.count == 0) return;
    const size_t row = (size_t)k * shape().emit_cap;
    const uint32_t* at = emit_at() + row;
    Ring<Packet> e{emit_buf() + row, &idx, (uint32_t)shape().emit_cap - 1u};
    do {
      if (at[(uint32_t)idx.head] != now) return;
      Packet* d = stage_slot();
      if (d) *d = e.front();
      e.pop_front();
    } while (idx.count != 0);
  }

  // Queue side: a packet arriving at link p.link in this slot. Arrivals are buffered and put
  // in the tie-break order before any queue sees them (DESIGN: Within a slot).
  // The next place in the arrival buffer, to be filled in place (null: full, reported).
  DS_HD DS_INLINE Packet* stage_slot() const {
    ReplicaHdr* h = hdr();
    if (DS_UNLIKELY(h->stage_count >= (uint32_t)shape().stage_cap)) {
      flag(kOvfStage);
      return nullptr;
    }
    return &stage()[h->stage_count++];
  }

  // Queue side: the receiver of flow f sends an ACK; it reaches the sender after the flow's
  // loop delay, which is at least the lookahead, so beyond anything the flow side has done.
  // Entries are taken in due order per flow but not across flows: the pool reclaims from its
  // oldest entry on, so it must hold every ACK generated within the longest loop delay.
  // Returns the entry's index (-1: the pool overflowed), where a SACK sink puts its blocks.
  DS_HD DS_HOST_INLINE int32_t push_ack(int f, int32_t ackno, uint32_t now) const {
    const uint32_t mask = (uint32_t)shape().ack_cap - 1u;
    ReplicaHdr* h = hdr();
    Ack* pool = acks();
    if (h->ack_tail - h->ack_head > mask) {  // full: reclaim the consumed entries at its head
      // Lazily, when the pool is full, not at every push: entries turn consumed and never back
      // until rewritten, and none is rewritten before the head has passed it, so the head
      // reaches the same place as an eager reclaim would, with the same overflows.
      while (h->ack_head != h->ack_tail && pool[h->ack_head & mask].consumed) h->ack_head += 1;
      if (DS_UNLIKELY(h->ack_tail - h->ack_head > mask)) {
        flag(kOvfAckRing);
        return -1;
      }
    }
    const int32_t k = (int32_t)(h->ack_tail & mask);
    h->ack_tail += 1;
    Ack& a = pool[k];
    TcpSender& s = snds()[f];
    a.due = now + (uint32_t)s.flow.loop_slots;
    DS_EV(ev_ack(r, f, ackno, now, a.due));  // an ACK's events (engine/events.h)
    a.ackno = ackno;
    a.next = -1;
    a.consumed = 0;
    // a.ece: set by every caller of an ECN replica after the push (model/tcp_receiver.h,
    // queue_side.h's delayed-ACK timers) and read only with ECN (flow_side.h)
    a.gen = shape().flow_ext ? xfers()[f].gen : 0;
    if (s.ack_first >= 0) {
      pool[s.ack_last].next = k;
      s.ack_last = k;
      return k;
    }
    s.ack_first = s.ack_last = k;
    MinTree t = tree();
    if (a.due < t.key[f]) t.set(f, a.due, lane_root(f));
    return k;
  }

  DS_HD DS_INLINE void set_delack(int f, uint32_t due) const {
    MinTree t = rxtree();
    t.set(f, due);
  }
};

// Binds replica r of a batch to a state block of L.stride bytes (a worker's slot of the arena:
// a block is needed only while its replica runs). The batch is `v` on the host, c_views[vi]
// on the device (v is not read there).
DS_HD DS_INLINE Replica bind_replica(int32_t r, const BatchView* v, int vi, unsigned char* b) {
  Replica x;
#ifndef __CUDA_ARCH__
  HostCache* hc = &x.c;
  const Layout& L = v->L;
#define DS_CACHE_BIND(name, T, off, use) hc->name = (T*)(b + L.off);
  DS_STATE_ARRAYS(DS_CACHE_BIND)
#undef DS_CACHE_BIND
#define DS_CACHE_OUT(name, T, dim) hc->out.name = (T*)(b + L.out.name);
  DS_OUTPUT_FIELDS(DS_CACHE_OUT)
#undef DS_CACHE_OUT
  hc->b = b;
  hc->bv = v;
  hc->tree = MinTree{(uint32_t*)(b + L.tree_key), (uint16_t*)(b + L.tree_win), L.P};
  hc->rxtree = MinTree{(uint32_t*)(b + L.rx_key), (uint16_t*)(b + L.rx_win), L.P};
  hc->row_f = (size_t)r * v->in.shape.max_flows;
  hc->row_l = (size_t)r * v->in.shape.max_links;
  hc->in = &v->in;
  hc->shape = v->in.shape;
  hc->lane_shift = v->lane_shift;
  hc->seed = v->in.seed[r];
  hc->rto = RtoParams{v->in.tick_slots[r], v->in.min_rto_slots[r], v->in.max_rto_slots[r]};
#else
  x.b = b;
  (void)v;
#endif
  x.r = r;
  x.vi = (uint16_t)vi;
  x.lane = 0;
  x.measuring = 0;
  return x;
}

}  // namespace ds
