// The bridge between the engine and the bindings: plain structs and the run_batch prototypes.
// No CUDA, no pybind11 here. Every array is flat, C-contiguous, indexed replica-major:
//   R    [r]                 one value per replica
//   RL   [r*L + l]           per link            (L = shape.max_links)
//   RLC  [(r*L + l)*C + c]   per link class      (C = kMaxClasses)
//   RF   [r*F + f]           per flow            (F = shape.max_flows)
//   RFH  [(r*F + f)*H + h]   per flow hop        (H = kMaxHops)
//   RFD  [(r*F + f)*D + k]   per flow injected drop (D = kMaxInjectedDrops)
//   RS   [r*S + s]           per source          (S = shape.max_sources)
//   RSH  [(r*S + s)*H + h]   per source hop
//   RFI  [(r*F + f)*I + i]   per flow interval   (I = shape.max_intervals)
//   RM   [r*M + m]           per edge conditioner (M = shape.max_markers)
//   RLCK [((r*L + l)*C + c)*K + k]  per link class colour (K = kMaxColours)
//   RFK  [(r*F + f)*K + k]   per flow colour
//   RMK  [(r*M + m)*K + k]   per conditioner colour
//   RG   [r*G + g]           per traffic generator (G = shape.max_gens)
//   RGZ  [(r*G + g)*Z + z]   per generator size-set entry (Z = kMaxSizeSet)
//   RT   [r*T + k]           per transfer record (T = shape.max_transfers), written in place
//   RX   [(r*X + k)*Q + j]   per cwnd-trace sample and traced flow (X = shape.max_trace_samples,
//                            Q = shape.max_traced)
//   RY   [((r*Y + k)*N + j)*C + c]  per queue-trace sample, traced link and class
//                            (Y = shape.max_qtrace_samples, N = shape.max_qtrace_links)
//   RC   [(r*kMaxCubicSets + k)*kCubicParams + j]  per CUBIC parameter set and parameter
//   RLCB [((r*L + l)*C + c)*B + b]  per link class and queueing-delay bin
//                            (B = shape.qdelay_bins: 0 or kQDelayBins; qdelay_bin())
// Times are whole slots (int) or slot fractions (double) — converted once on the host
// (python/diffsweep/pack.py); sizes are bytes on the wire unless the name says payload.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/hd.h"

namespace ds {

constexpr int kMaxHops = 4;           // routes of 1..4 links (DESIGN: Routes)
constexpr int kMaxClasses = 4;        // queues (classes) per link
constexpr int kMaxColours = 3;        // drop precedences: green, yellow, red (IN = green, OUT = red)
constexpr int kMaxMarkers = 64;       // edge conditioners (aggregates) per replica
constexpr int kMaxGens = 64;          // traffic generators (transfer arrivals) per replica
constexpr int kMaxSizeSet = 32;       // entries of an empirical transfer-size set
constexpr int kMaxInjectedDrops = 8;  // validation hook: seqs dropped on first transmission
// The receiver's out-of-order bitmap: BatchShape::rx_bits wide, a power of two >= this and
// > the batch's largest max_window + kRxBitmapSlack (engine/pack: a window of W segments puts
// at most W - 1 beyond rcv_next). Windows up to 1000 keep the 1024 bits they always had.
constexpr int kRxBitmapBits = 1024;
constexpr int kRxBitmapSlack = 24;
constexpr int kMaxFlows = 65000;      // flow indices are 16-bit in a packet, sources after them
constexpr int kMaxSources = 512;
constexpr int kMaxLinks = 127;        // link indices are int8 in routes
constexpr int kMaxLanes = 32;         // a team is at most a warp
constexpr int64_t kMaxSlots = 0xFFFFFFFDll;  // slot times are 32-bit; kNever is 0xFFFFFFFF

enum TcpVariant : uint8_t { kReno = 0, kNewReno = 1, kSack = 2 };  // kSack: model/tcp_sack.h
// A flow's congestion control (ns-3's TcpCongestionOps), orthogonal to its loss recovery
// (TcpVariant): the window's growth and its reduction at a loss.
enum CongestionControl : uint8_t {
  kCcNewReno = 0,  // ns-2's: slow start, 1/cwnd per ACK, half the window at a loss (tcp_sender.h)
  kCcCubic = 1,    // RFC 9438 as ns-3.44's TcpCubic (model/tcp_cubic.h)
  kCcDctcp = 2,    // RFC 8257 as ns-3.44's TcpDctcp (model/tcp_dctcp.h; ECN on: flow_ecn 2)
};
// CUBIC's parameter sets (ns-3 TcpCubic attributes), kMaxCubicSets per replica, each a row of
// kCubicParams doubles of cubic_params (flow_cubic_set picks a flow's row).
constexpr int kMaxCubicSets = 4;
enum CubicParam : int {
  kCubC = 0,          // C (segments / s^3), ns-3 0.4
  kCubBeta = 1,       // Beta, 0.7
  kCubFastConv = 2,   // FastConvergence (0/1), 1
  kCubFriendly = 3,   // TcpFriendliness (0/1), 1
  kCubHystart = 4,    // HyStart (0/1), 1
  kCubLowWindow = 5,  // HyStartLowWindow (segments), 16
  kCubDetect = 6,     // HyStartDetect: 1 packet train, 2 delay, 3 both (HystartDetect), 3
  kCubMinSamples = 7, // HyStartMinSamples, 8
  kCubAckDeltaS = 8,  // HyStartAckDelta (s), 0.002
  kCubDelayMinS = 9,  // HyStartDelayMin (s), 0.004
  kCubDelayMaxS = 10, // HyStartDelayMax (s), 1.0
  kCubDeltaS = 11,    // CubicDelta (s), 0.010
  kCubCntClamp = 12,  // CntClamp, 20
  kCubSlotS = 13,     // the replica's slot (s): CUBIC's time is in seconds
  kCubicParams = 14,
};
enum Scheduler : uint8_t { kSchedPriority = 0, kSchedWrr = 1, kSchedCbq = 2 };
enum TieBreak : uint8_t { kTieRandom = 0, kTieIndex = 1 };
enum LimitKind : uint8_t { kLimitPkts = 0, kLimitBytes = 1, kLimitNone = 2 };
enum Colour : uint8_t { kGreen = 0, kYellow = 1, kRed = 2 };
// Edge conditioners (model/marker*.h).
enum MarkerKind : uint8_t {
  kMarkTokenBucket = 0,  // one bucket (CIR, CBS): green or red (ns-2 TokenBucket)
  kMarkTsw2cm = 1,       // TSW rate estimate, CIR: green or red (RFC 2859, ns-2 TSW2CM)
  kMarkTsw3cm = 2,       // TSW, CIR and PIR: three colours (RFC 2859, ns-2 TSW3CM)
  kMarkSrtcm = 3,        // single-rate three-colour marker (RFC 2697)
  kMarkTrtcm = 4,        // two-rate three-colour marker (RFC 2698)
  kMarkBalancing = 5,    // Lee & Jeong's Balancing Marker (two buckets, three colours)
  kMarkRttAware = 6,     // Nandy et al.'s RTT-aware conditioner (TSW, CIR; DP2 share by RTT^2)
  kMarkRttRto = 7,       // Habib et al.'s RTT-RTO conditioner (DP2 share by RTT and RTO, eq. 9)
};
// Traffic generators (model/traffic_gen.h, engine/traffic.h): how transfers arrive, how big.
enum GenKind : uint8_t {
  kGenPoisson = 0,   // Poisson arrivals of transfers, each a new connection from the pool
  kGenSessions = 1,  // each pool slot a session: the next transfer a think time after the last
  kGenWeb = 2,       // ns-2 WebTraf sessions: pages at exponential intervals, each a number of
                     // objects at exponential intervals, each object a transfer from the pool
};
enum SizeKind : uint8_t {
  kSizeSet = 0,      // uniform choice from an empirical set (packets)
  kSizeExp = 1,      // exponential with mean size_mean, rounded up to whole packets
  kSizePareto = 2,   // bounded Pareto (shape size_alpha) on [size_min, size_max], rounded up
  kSizeParetoII = 3, // Pareto of the second kind (Lomax; ns-2 ParetoII), mean size_mean, shape
                     // size_alpha, rounded up
};
// Active queue management of a class queue (model/queue_droptail.h, model/queue_red.h).
// Two paths per TCP flow and the edge classifier that picks one (docs/model.md, "Two paths
// and the edge classifier"); path 2 is flow_route2. A packet's path rides in its hop byte
// (model/packet.h, kHopPath2).
enum Split : uint8_t {
  kSplitNone = 0,      // every packet on path 1
  kSplitRandom = 1,    // each connection on path 1 or 2 with probability 1/2 (kFamPath)
  kSplitSize = 2,      // connection size (packets) < flow_split_pkts: path 1, else path 2
  kSplitLifetime = 3,  // a segment with seq < flow_split_pkts: path 1, later ones path 2
};
// kAqmCodel (model/queue_codel.h) acts when the link takes the class's next packet; the others
// (model/queue_red.h) at arrival. kAqmPie (model/queue_pie.h) at arrival (its early drop), at
// departure (its delay estimate) and every t_update (its drop probability). kAqmFqCodel
// (model/queue_fq_codel.h, engine/fq_side.h) at arrival (its flow queue, the drop from the
// fattest queue over the limit) and when the link takes the class's next packet (DRR and a
// CoDel per flow queue); at most one such class per link.
enum Aqm : uint8_t { kAqmDropTail = 0, kAqmRed = 1, kAqmRioC = 2, kAqmRioD = 3, kAqmWred = 4,
                     kAqmCodel = 5, kAqmPie = 6, kAqmFqCodel = 7 };
DS_HD DS_INLINE bool aqm_is_red(uint8_t aqm) { return aqm >= kAqmRed && aqm <= kAqmWred; }

// The queueing-delay histogram (Scenario.queue_delay_hist; engine/queue_side.h: link_send):
// each departure's wait (departure slot - arrival slot, whole slots) in one bin: one bin per
// slot for waits 0..kQDelayLinear-1, then kQDelayPerOctave bins per octave (each 1/8 to 1/15
// of its lower edge wide) up to kQDelayLinear << kQDelayOctaves slots, and one bin for longer.
constexpr int kQDelayLinear = 64;
constexpr int kQDelayPerOctave = 8;
constexpr int kQDelayOctaves = 18;
constexpr int kQDelayBins = kQDelayLinear + kQDelayPerOctave * kQDelayOctaves + 1;
DS_HD DS_INLINE int qdelay_bin(uint32_t wait) {
  if (wait < (uint32_t)kQDelayLinear) return (int)wait;
#if defined(__CUDA_ARCH__)
  const int top = 31 - __clz((int)wait);  // the leading one's position, >= 6
#else
  const int top = 31 - __builtin_clz(wait);
#endif
  const int octave = top - 6;  // kQDelayLinear = 2^6
  if (octave >= kQDelayOctaves) return kQDelayBins - 1;
  const int sub = (int)((wait >> (top - 3)) & 7u);  // the 3 bits after the leading one
  return kQDelayLinear + octave * kQDelayPerOctave + sub;
}

// Bits of out_overflow: an internal capacity was exceeded, so the replica's result is not
// trustworthy. The host raises EngineError naming the replica; it is never silent.
enum Overflow : int32_t {
  kOvfStage = 1,      // same-slot arrival buffer
  kOvfAckRing = 2,    // ACKs in flight (the replica's pool)
  kOvfQueueRing = 4,  // an unlimited class held more than its ring (class_cap) packets
  kOvfDelayLine = 8,  // a link's delay line
  kOvfRxWindow = 16,  // a segment beyond the receiver's bitmap
  kOvfShape = 64,     // the batch shape lacks state a replica needs (flow_ext, conn_meters,
                      // aqm_states): a packing bug
  kOvfNic = 32,       // a lane's access-link pool ran out (the host reruns the replica
                      // with a pool that cannot run out: engine.simulate)
};

// Shape shared by every replica of a batch (the host groups replicas by shape).
struct BatchShape {
  int32_t n_replicas;     // R
  int32_t max_flows;      // F >= 1
  int32_t max_links;      // L >= 1
  int32_t max_sources;    // S >= 1 (padding rows have n_sources < S)
  int32_t max_intervals;  // I >= 1
  int32_t max_markers;    // M >= 1 (edge conditioners; n_markers may be 0)
  int32_t max_gens;       // G >= 1 (traffic generators; n_gens may be 0)
  int32_t max_transfers;  // T >= 1: transfer records per replica (more are counted, not kept)
  int32_t max_sessions;   // web sessions per replica, all generators together (>= 1)
  int32_t max_trace_samples;  // X >= 1: cwnd-trace samples per traced flow
  int32_t max_traced;     // Q >= 1: flows whose cwnd a replica traces (the host's memory check
                          // bounds X * Q: python/diffsweep/scenario/checks.py MAX_TRACE_BYTES)
  int32_t max_qtrace_samples;  // Y >= 1: queue-trace samples (Scenario.queue_trace_interval_s)
  int32_t max_qtrace_links;    // N >= 1: links whose class queues a replica samples
  int32_t ring_classes;   // 1..kMaxClasses: the most classes a link of the batch has (the
                          // class rings are kept for these only; RLC arrays keep kMaxClasses)
  int32_t class_cap[kMaxClasses];  // packets per ring of class position c (c < ring_classes),
                                   // on every link; powers of two
  int32_t class_off[kMaxClasses];  // where class c's ring starts among a link's rings, and
  int32_t ring_link;               // all of a link's rings, in packets (set_ring_offsets)
  int32_t ack_cap;        // ACKs in flight per replica (one pool); power of two
  int32_t delay_cap;      // packets in a link's delay line; power of two
  int32_t nic_chunks;     // chunks of kNicChunkSegs segments in each lane's access-link pool
  int32_t stage_cap;      // arrivals at links within one slot, per replica
  int32_t lanes;          // team size: lanes working on one replica; power of two <= 32
  int32_t emit_cap;       // packets a lane may hold ahead of the queue side; power of two
  int32_t clip_slots;     // rounds end at least every clip_slots slots of the queue side (the
                          // CPU polls its stop word there); 0: no clip. Results never depend
                          // on it (tests/test_schedule.py drives it); default kPollSlots
  int32_t warp_rounds;    // 1: the replicas a warp (CPU: a task) steps together share each
                          // round's horizon, the nearest of theirs, so that they run the same
                          // phase of the same slots together instead of drifting apart (their
                          // lookaheads differ); 0 (default): each replica its own rounds.
                          // A schedule like clip_slots: no result depends on it
  int32_t wavefront;      // 1: the replicas stage by stage (CPU: a task's, backend_cpu.cpp
                          // run_wavefront; CUDA: a launch's, the stage kernels of
                          // kernel_wave.cuh): every live replica's flow-side items, compacted,
                          // then every live replica's queue side; 0 (default): replica-major. A schedule: no result depends
                          // on it, nor on wave_cap or wave_order (tests/test_schedule.py)
  int32_t wave_cap;       // the wavefront's work queue: items taken per pass (0: all at once)
  int32_t wave_order;     // 0: items in replica order; 1: reversed (independent replicas)
  int32_t wave_phases;    // 1 (with wavefront): the queue stage too by slot phases, a slot of
                          // every live replica at a time, each phase over the replicas that
                          // need it (docs/design.md, "The slot phases"); on CUDA 1 runs them
                          // in one kernel over block-local queues, 2 a kernel per phase over
                          // device-wide ones (the CPU's one loop for both); a schedule as well
  // State kept only when a replica of the batch needs it (0: none in the block):
  int32_t flow_ext;       // 1: a Transfer and a SenderExt per flow (generators, telnet apps)
  int32_t conn_meters;    // 1: the Balancing Marker's connection table
  int32_t aqm_states;     // 1: RED/RIO/WRED, CoDel and PIE state per (link, class)
  int32_t sack_states;    // 1: SACK senders' and sinks' state per flow, SACK blocks per ACK
  int32_t rx_bits;        // each receiver's out-of-order bitmap: a power of two >=
                          // kRxBitmapBits (model/tcp_receiver.h)
  int32_t cubic_states;   // 1: CUBIC state per flow (model/tcp_cubic.h)
  int32_t ecn_states;     // 1: ECN state per flow (model/tcp_ecn.h)
  int32_t qdelay_bins;    // B: kQDelayBins when a replica of the batch records the
                          // queueing-delay histogram (qdelay_hist), else 0 (no array)
  int32_t fq_queues;      // FQ-CoDel flow queues per link (model/queue_fq_codel.h): the most a
                          // replica of the batch uses (fq_n_queues), <= kMaxFqQueues; 0: none
};

// Fills class_off and ring_link from class_cap (after the host sets the capacities). The
// engine reads them through BatchInput::shape, not through a copy: indexing an array member
// of a copy by a runtime class put a lane's whole view in local memory on the GPU (ptxas:
// 1,080 -> 2,472 bytes of stack frame).
DS_HD inline void set_ring_offsets(BatchShape& s) {
  int32_t o = 0;
  for (int c = 0; c < kMaxClasses; ++c) {
    s.class_off[c] = o;
    if (c < s.ring_classes) o += s.class_cap[c];
  }
  s.ring_link = o;
}

// X(name, C type, dim): the input arrays. Bindings, pack.py (via input_fields()) and the
// engine all read this one list.
#define DS_INPUT_FIELDS(X)                                                                 \
  X(seed, uint64_t, R)              /* Philox key of the replica */                        \
  X(n_flows, int32_t, R)            /* flows in use, <= F */                               \
  X(n_links, int32_t, R)            /* links in use, <= L */                               \
  X(n_sources, int32_t, R)          /* on-off/CBR sources in use, <= S */                  \
  X(n_markers, int32_t, R)          /* edge conditioners in use, <= M */                   \
  X(n_gens, int32_t, R)             /* traffic generators in use, <= G */                  \
  X(end_slot, int64_t, R)           /* the replica runs slots [0, end_slot) */             \
  X(warmup_slot, int64_t, R)        /* counters count events at slots >= warmup_slot */    \
  X(interval_slots, int64_t, R)     /* goodput interval length; 0 = no intervals */        \
  X(trace_interval_slots, double, R) /* cwnd trace: a sample every this; 0 = no trace */  \
  X(trace_samples, int32_t, R)      /* samples at k * trace_interval_slots, k < this */     \
  X(qtrace_interval_slots, double, R) /* queue trace: a sample every this; 0 = no trace */ \
  X(qtrace_samples, int32_t, R)     /* samples at k * qtrace_interval_slots, k < this */    \
  X(tie_break, uint8_t, R)          /* TieBreak: order of same-slot arrivals at a queue */ \
  X(slot_ns, double, R)             /* the slot in ns (CoDel's clock: model/queue_codel.h) */ \
  X(qdelay_hist, uint8_t, R)        /* 1: count each departure's wait in q_delay_hist */    \
  X(fq_n_queues, int32_t, R)        /* FQ-CoDel: flow queues in use (<= shape.fq_queues) */ \
  X(tick_slots, double, R)          /* TCP clock granularity (ns-2 tcpTick_) */            \
  X(min_rto_slots, double, R)       /* ns-2 minrto_ */                                     \
  X(max_rto_slots, double, R)       /* ns-2 maxrto_ */                                     \
  X(init_rto_slots, double, R)      /* ns-2 rtxcur_init_ */                                \
  X(delack_slots, int32_t, R)       /* delayed-ACK timer (ns-2 DelAckSink interval_) */    \
  X(link_bytes_per_slot, double, RL)  /* rate * slot_s / 8 */                              \
  X(link_prop_slots, int32_t, RL)     /* propagation delay to the next hop */              \
  X(link_loss_prob, double, RL)       /* Bernoulli loss at arrival (validation element) */ \
  X(link_sched, uint8_t, RL)          /* Scheduler */                                      \
  X(link_n_classes, int32_t, RL)      /* classes in use, <= kMaxClasses */                 \
  X(link_cbq_lend, uint8_t, RL)       /* cbq: unused share goes to backlogged classes */   \
  X(link_devq_pkts, uint8_t, RL)      /* device queue (Link.device_queue_pkts); 0: none */ \
  X(link_qtrace, int8_t, RL)          /* its column in the queue trace (0..N-1); -1: none */ \
  X(class_limit, int64_t, RLC)        /* drop-tail limit, packets or bytes */              \
  X(class_limit_kind, uint8_t, RLC)   /* LimitKind */                                      \
  X(class_weight, int32_t, RLC)       /* WRR weight in packets per round */                \
  X(class_share, double, RLC)         /* cbq: fraction of the link rate */                 \
  X(class_aqm, uint8_t, RLC)          /* Aqm: drop-tail, or RED/RIO/WRED before the limit */ \
  X(red_w_q, double, RLC)             /* EWMA weight (ns-2 q_weight_) */                   \
  X(red_gentle, uint8_t, RLC)         /* ns-2 gentle_ */                                   \
  X(red_wait, uint8_t, RLC)           /* ns-2 wait_ */                                     \
  X(red_bytes, uint8_t, RLC)          /* ns-2 bytes_: count in bytes, p scaled by size */  \
  X(red_queue_in_bytes, uint8_t, RLC) /* ns-2 queue_in_bytes_: average, thresholds in bytes */ \
  X(red_mean_pkt_bytes, double, RLC)  /* ns-2 mean_pktsize_ */                             \
  X(red_ptc, double, RLC)             /* link rate in mean-size packets per slot */        \
  X(red_min_th, double, RLCK)         /* per colour; packets (or bytes) */                 \
  X(red_max_th, double, RLCK)                                                              \
  X(red_max_p, double, RLCK)                                                               \
  X(codel_target, uint32_t, RLC)      /* CoDel target, CoDel time (ns >> 10) */               \
  X(codel_interval, uint32_t, RLC)    /* CoDel interval, CoDel time */                         \
  X(codel_min_bytes, int32_t, RLC)    /* ns-3 MinBytes: no drop with fewer bytes behind */     \
  X(pie_qdelay_ref_s, double, RLC)    /* PIE QDELAY_REF (ns-3 QueueDelayReference), s */        \
  X(pie_alpha, double, RLC)           /* PIE alpha (ns-3 A), 1/s */                             \
  X(pie_beta, double, RLC)            /* PIE beta (ns-3 B), 1/s */                              \
  X(pie_t_update_ns, int64_t, RLC)    /* PIE T_UPDATE (ns-3 Tupdate), whole ns */               \
  X(pie_max_burst_ns, int64_t, RLC)   /* PIE MAX_BURST (ns-3 MaxBurstAllowance), whole ns */    \
  X(pie_mean_pkt_bytes, double, RLC)  /* ns-3 MeanPktSize: byte mode's p scale */               \
  X(pie_cap_drop_adjustment, uint8_t, RLC) /* ns-3 UseCapDropAdjustment (RFC 8033 5.5) */       \
  X(pie_derandomize, uint8_t, RLC)    /* ns-3 UseDerandomization (RFC 8033 5.1) */              \
  X(class_ecn, uint8_t, RLC)          /* model/tcp_ecn.h: kClassEcnMark | kClassEcnNoHardDrop */ \
  X(fq_quantum, int32_t, RLC)         /* FQ-CoDel DRR quantum, bytes (ns-3 Quantum: MTU) */     \
  X(fq_drop_batch, int32_t, RLC)      /* FQ-CoDel: ns-3 DropBatchSize (64) */                   \
  X(flow_variant, uint8_t, RF)        /* TcpVariant */                                     \
  X(flow_cls, uint8_t, RF)            /* class index on every link of the route */         \
  X(flow_n_hops, uint8_t, RF)         /* 1..kMaxHops */                                    \
  X(flow_route, int8_t, RFH)          /* link index per hop */                             \
  X(flow_n_hops2, uint8_t, RF)        /* hops of path 2; 0 = no second path */              \
  X(flow_route2, int8_t, RFH)         /* path 2: link index per hop */                      \
  X(flow_split, uint8_t, RF)          /* Split: which path a packet takes */                \
  X(flow_split_pkts, int32_t, RF)     /* size/lifetime threshold, packets */                \
  X(flow_wire_bytes, int32_t, RF)     /* segment + header */                               \
  X(flow_payload_bytes, int32_t, RF)  /* segment */                                        \
  X(flow_max_window, int32_t, RF)     /* receiver window in packets (ns-2 window_) */      \
  X(flow_init_window, int32_t, RF)    /* ns-2 windowInit_ */                               \
  X(flow_init_ssthresh, int32_t, RF)  /* initial ssthresh_ in packets; 0 = none */         \
  X(flow_loop_slots, int32_t, RF)     /* last-hop departure -> ACK at sender, access folded in */ \
  X(flow_pace_bytes_per_slot, double, RF) /* access-link rate; 0 = unpaced */              \
  X(flow_access_limit, int32_t, RF)   /* access-link buffer in packets; 0 = unlimited */   \
  X(flow_start_slot, int64_t, RF)                                                          \
  X(flow_size_pkts, int64_t, RF)      /* -1 = backlogged */                                \
  X(flow_delack, uint8_t, RF)                                                              \
  X(flow_bugfix, uint8_t, RF)         /* ns-2 bugFix_: no 2nd fast retransmit per window */ \
  X(flow_limited_transmit, uint8_t, RF) /* RFC 3042 (ns-2 singledup_): new data on dupacks 1-2 */ \
  X(flow_syn, uint8_t, RF)            /* ns-2 syn_: a header-only SYN is seq 0, data 1..n */ \
  X(flow_delay_growth, uint8_t, RF)   /* ns-2 delay_growth_: cwnd = IW on the ACK of seq 0 */ \
  X(flow_send_jitter_slots, double, RF) /* ns-2 overhead_: sends wait U(0, this); 0 = off */ \
  X(flow_drop_seq, int32_t, RFD)      /* seqs lost on first transmission; -1 = none */     \
  X(flow_marker, int8_t, RF)          /* edge conditioner of the flow's aggregate; -1 = none */ \
  X(flow_marker2, int8_t, RF)         /* a second domain's conditioner, later on the route */ \
  X(flow_trace, int32_t, RF)          /* its column in the cwnd trace (0..max_traced-1); -1 */ \
  X(flow_base_rtt_slots, double, RF)  /* propagation round trip (TCP-aware markers' stand-in \
                                         for the smoothed RTT before its first sample) */     \
  X(flow_gen, int8_t, RF)             /* generator whose pool the slot is in; -1 = a fixed flow */ \
  X(flow_app_iat_slots, double, RF)   /* telnet-like: > 0 a segment per Exp(this); < 0 tcplib gaps, -this slots/s; 0 bulk */ \
  X(flow_colour, uint8_t, RF)         /* Colour its packets leave the host with */          \
  X(flow_cc, uint8_t, RF)             /* CongestionControl */                               \
  X(flow_cubic_set, uint8_t, RF)      /* kCcCubic: its row of cubic_params */               \
  X(flow_ssthresh_flight, uint8_t, RF) /* TcpFlow.ssthresh_from "flight" (tcp_sack.h) */      \
  X(flow_rto_new_ack, uint8_t, RF)    /* TcpFlow.rto_restart "new_ack" (tcp_sender.h) */       \
  X(flow_ecn, uint8_t, RF)            /* FlowEcn (model/tcp_ecn.h): 0 off, 1 RFC 3168, 2 DCTCP */ \
  X(flow_fq_queue, int32_t, RF)       /* its FQ-CoDel flow queue (scenario/fq_hash.py) */     \
  X(cubic_params, double, RC)         /* CUBIC parameter sets (CubicParam) */              \
  X(src_cls, uint8_t, RS)                                                                  \
  X(src_n_hops, uint8_t, RS)                                                               \
  X(src_route, int8_t, RSH)                                                                \
  X(src_pkt_bytes, int32_t, RS)                                                            \
  X(src_peak_bytes_per_slot, double, RS)                                                   \
  X(src_t_on_slots, double, RS)       /* mean on-duration */                               \
  X(src_t_off_slots, double, RS)      /* mean off-duration; 0 = always on (CBR) */         \
  X(src_fixed, uint8_t, RS)           /* 1: on/off durations fixed (periodic), 0: Exp */    \
  X(src_marker, int8_t, RS)           /* edge conditioner; -1 = none */                     \
  X(src_colour, uint8_t, RS)          /* Colour its packets leave the host with */          \
  X(src_fq_queue, int32_t, RS)        /* its FQ-CoDel flow queue */                         \
  X(marker_kind, uint8_t, RM)         /* MarkerKind */                                      \
  X(marker_link, int8_t, RM)          /* link at whose ingress it colours packets */        \
  X(marker_colour_aware, uint8_t, RM) /* srTCM/trTCM colour-aware mode */                   \
  X(marker_cir, double, RM)           /* committed rate, bytes per slot */                  \
  X(marker_cbs, double, RM)           /* committed burst, bytes */                          \
  X(marker_pir, double, RM)           /* peak rate, bytes per slot */                       \
  X(marker_pbs, double, RM)           /* peak (trTCM) or excess (srTCM) burst, bytes */     \
  X(marker_win, double, RM)           /* TSW window, slots */                               \
  X(marker_b1, double, RM)            /* Balancing Marker: 1st bucket depth, bytes */       \
  X(marker_w_lo, double, RM)          /* Balancing Marker P(W_x) curve */                   \
  X(marker_w_hi, double, RM)                                                                \
  X(marker_p_max, double, RM)                                                               \
  X(marker_active_slots, double, RM)  /* Balancing Marker: activity timeout, slots */        \
  X(marker_sw_k, int32_t, RM)         /* small-window protection: cwnd < k -> DP0; 0 = off */ \
  X(marker_ref_rtt, double, RM)       /* RTT-aware / RTT-RTO: reference (minimum) RTT, slots */ \
  X(marker_ref_rto, double, RM)       /* RTT-RTO: reference (minimum) RTO, slots */           \
  X(gen_kind, uint8_t, RG)            /* GenKind */                                         \
  X(gen_first_flow, int32_t, RG)      /* its pool: flow slots [first, first + pool) */      \
  X(gen_pool, int32_t, RG)                                                                  \
  X(gen_mean_iat_slots, double, RG)   /* Poisson: mean interarrival */                      \
  X(gen_t_stop_slot, double, RG)      /* no transfer starts at or after this time */        \
  X(gen_think_slots, double, RG)      /* sessions: mean (exponential) think time */         \
  X(gen_size_kind, uint8_t, RG)       /* SizeKind */                                        \
  X(gen_size_mean, double, RG)        /* kSizeExp: mean packets */                          \
  X(gen_size_min, double, RG)         /* kSizePareto: bounds and shape, packets */          \
  X(gen_size_max, double, RG)                                                               \
  X(gen_size_alpha, double, RG)                                                             \
  X(gen_size_n, int32_t, RG)          /* kSizeSet: entries in use */                        \
  X(gen_size_set, int32_t, RGZ)       /* kSizeSet: sizes in packets */                      \
  X(gen_first_session, int32_t, RG)   /* kGenWeb: its sessions [first, first + n) */         \
  X(gen_sessions, int32_t, RG)                                                               \
  X(gen_pages, int32_t, RG)           /* kGenWeb: pages per session */                       \
  X(gen_objects, int32_t, RG)         /* kGenWeb: objects per page */                        \
  X(gen_inter_obj_slots, double, RG)  /* kGenWeb: mean gap between a page's objects; the   \
                                         gap between pages is gen_think_slots */ \
  X(gen_first_start_slots, double, RG) /* kGenSessions: > 0 each session's first transfer at \
                                          a uniform time in [0, this); 0 after a think time */

#define DS_OUTPUT_FIELDS(X)                                                               \
  X(slots_run, int64_t, R)                                                                \
  X(overflow, int32_t, R)              /* Overflow bits */                                \
  X(flow_delivered_bytes, int64_t, RF) /* payload delivered in order */                   \
  X(flow_pkts_sent, int64_t, RF)                                                          \
  X(flow_retransmits, int64_t, RF)                                                        \
  X(flow_timeouts, int64_t, RF)                                                           \
  X(flow_fast_retransmits, int64_t, RF)                                                   \
  X(flow_drops, int64_t, RF)          /* all losses of the flow's packets */               \
  X(flow_access_drops, int64_t, RF)   /* of which at its access link */                    \
  X(flow_rtt_samples, int64_t, RF)                                                        \
  X(flow_rtt_sum_slots, double, RF)                                                       \
  X(flow_rto_sum_slots, double, RF)   /* un-backed-off RTO at each RTT sample */          \
  X(flow_finish_slot, int64_t, RF)    /* -1 = not finished */                             \
  X(flow_app_delivered, int64_t, RF)  /* telnet-like: segments delivered (ACKed) */           \
  X(flow_app_delay_sum_slots, double, RF) /* their write-to-delivery delays less the constant \
                                          delays after the last link and the access delay */ \
  X(q_arrivals, int64_t, RLC)                                                             \
  X(q_departures, int64_t, RLC)                                                           \
  X(q_drops, int64_t, RLC)            /* buffer overflow (drop-tail) */                   \
  X(q_random_drops, int64_t, RLC)     /* Bernoulli loss element and injected drops */     \
  X(q_bytes_departed, int64_t, RLC)                                                       \
  X(q_max_delay_slots, int64_t, RLC)                                                      \
  X(q_pkt_slots, double, RLC)         /* sum over slots of the queue length (packets) */  \
  X(q_byte_slots, double, RLC)                                                            \
  X(q_wait_adj_slots, double, RLC)    /* waiting less slot-end length: -head on wire, +(start place - 1/2) */ \
  X(q_colour_arrivals, int64_t, RLCK)  /* arrivals per colour (after marking) */          \
  X(q_early_drops, int64_t, RLCK)      /* RED/RIO/WRED probabilistic drops */             \
  X(q_marks, int64_t, RLCK)            /* ECN CE marks instead of a drop, per colour */    \
  X(q_forced_drops, int64_t, RLCK)     /* average beyond max_th (2 max_th gentle), or the buffer */ \
  X(q_red_avg_slots, double, RLCK)     /* sum over slots of the average governing a colour */ \
  X(q_delay_hist, int64_t, RLCB)       /* departures per wait bin (qdelay_bin), when recorded */ \
  X(src_pkts, int64_t, RS)                                                                \
  X(src_bytes, int64_t, RS)                                                               \
  X(src_bursts, int64_t, RS)                                                              \
  X(src_on_slots, double, RS)                                                             \
  X(src_delivered_bytes, int64_t, RS) /* bytes that left the last link of its route */    \
  X(interval_bytes, int64_t, RFI)                                                         \
  X(flow_colour_pkts, int64_t, RFK)    /* packets into the network per colour (after marking) */ \
  X(flow_early_drops, int64_t, RFK)    /* per colour */                                   \
  X(flow_ce_marks, int64_t, RF)        /* its packets CE-marked at a queue (ECN) */         \
  X(flow_ecn_reductions, int64_t, RF)  /* window reductions an ECE made (RFC 3168 6.1.2) */ \
  X(flow_forced_drops, int64_t, RFK)   /* per colour, buffer overflow included */         \
  X(marker_pkts, int64_t, RMK)         /* packets a conditioner left with each colour */  \
  X(marker_bytes, int64_t, RMK)                                                           \
  X(n_records, int64_t, R)             /* transfer records written (<= T) */              \
  X(gen_started, int64_t, RG)          /* transfers started */                            \
  X(gen_completed, int64_t, RG)        /* transfers whose last packet was received */     \
  X(gen_refused, int64_t, RG)          /* arrivals that found the pool empty: not started */ \
  X(gen_records_lost, int64_t, RG)     /* records beyond max_transfers: counted only */   \
  X(gen_peak_active, int64_t, RG)      /* most transfers alive at once */                 \
  X(trace_cwnd, float, RX)             /* traced flows' cwnd (packets) at each sample time */ \
  /* the queue trace (engine/queue_side.h: queue_trace_until): each traced link's class       \
     queues at the start of slot ceil(k * qtrace_interval_slots), 16 bytes a (sample, link,    \
     class) */                                                                                \
  X(qtrace_pkts, int32_t, RY)          /* packets queued */                                   \
  X(qtrace_bytes, int64_t, RY)         /* bytes queued */                                     \
  X(qtrace_red_avg, float, RY)         /* RED average governing red (OUT) packets; NaN: no AQM */

// X(name, C type, dim): transfer records. Written by the queue side straight into the batch's
// arrays (row r*T + k), not through the replica's block: they are many, and only written.
// A transfer still running at the end has tr_end_slot = -1.
#define DS_RECORD_FIELDS(X)                                                               \
  X(tr_gen, int32_t, RT)               /* generator */                                    \
  X(tr_slot, int32_t, RT)              /* its slot in the generator's pool (a session's index) */ \
  X(tr_size_pkts, int32_t, RT)                                                            \
  X(tr_start_slot, double, RT)         /* arrival (slot time) */                          \
  X(tr_end_slot, double, RT)           /* its last packet left the last link; -1 = unfinished */ \
  X(tr_first_slot, double, RT)         /* its first packet left the last link; -1 = none yet */ \
  X(tr_pkts_sent, int32_t, RT)         /* as the flow counters: after warm-up only */     \
  X(tr_retransmits, int32_t, RT)                                                          \
  X(tr_timeouts, int32_t, RT)                                                             \
  X(tr_drops, int32_t, RT)                                                                \
  X(tr_early_drops, int32_t, RT)                                                          \
  X(tr_pkts_red, int32_t, RT)          /* packets that left their marker red */

#define DS_DECLARE_IN(name, T, dim) const T* name;
#define DS_DECLARE_OUT(name, T, dim) T* name;

struct BatchInput {
  BatchShape shape;
  DS_INPUT_FIELDS(DS_DECLARE_IN)
};

// Whether flow row i names a segment to drop (a validation hook): its list is padded with -1,
// so the first entry is set when any is. Read by the feature flags (engine/features.h) and
// each sender's copy of its inputs (model/tcp_sender.h).
DS_HD inline bool flow_has_injected_drops(const BatchInput& in, size_t i) {
  return in.flow_drop_seq[i * kMaxInjectedDrops] >= 0;
}

struct BatchOutput {
  DS_OUTPUT_FIELDS(DS_DECLARE_OUT)
  DS_RECORD_FIELDS(DS_DECLARE_OUT)
};

enum Dim { R, RL, RLC, RF, RFH, RFD, RS, RSH, RFI, RM, RLCK, RFK, RMK, RG, RGZ, RT, RX, RY, RC, RLCB };

// Number of elements of an array of dimension d.
DS_HD inline size_t dim_size(const BatchShape& s, Dim d) {
  const size_t r = (size_t)s.n_replicas;
  switch (d) {
    case R: return r;
    case RL: return r * s.max_links;
    case RLC: return r * s.max_links * kMaxClasses;
    case RF: return r * s.max_flows;
    case RFH: return r * s.max_flows * kMaxHops;
    case RFD: return r * s.max_flows * kMaxInjectedDrops;
    case RS: return r * s.max_sources;
    case RSH: return r * s.max_sources * kMaxHops;
    case RFI: return r * s.max_flows * s.max_intervals;
    case RM: return r * s.max_markers;
    case RLCK: return r * s.max_links * kMaxClasses * kMaxColours;
    case RFK: return r * s.max_flows * kMaxColours;
    case RMK: return r * s.max_markers * kMaxColours;
    case RG: return r * s.max_gens;
    case RGZ: return r * s.max_gens * kMaxSizeSet;
    case RT: return r * s.max_transfers;
    case RX: return r * s.max_trace_samples * s.max_traced;
    case RY: return r * s.max_qtrace_samples * s.max_qtrace_links * kMaxClasses;
    case RC: return r * kMaxCubicSets * kCubicParams;
    case RLCB: return r * s.max_links * kMaxClasses * s.qdelay_bins;
  }
  return 0;
}

// Host-visible words shared with a running batch (int64 each): the host asks it to stop and
// reads its progress while it runs. The engine polls the stop word every kPollSlots slots of a
// replica; a stopped replica's out.slots_run is below its end_slot (its results are dropped).
enum ControlWord {
  kCtlStop = 0,
  kCtlSlotsDone = 1,
  kCtlReplicasDone = 2,
  // the wavefront schedule's functional counts (wavefront = 1 on the CPU; 0 otherwise): its
  // rounds' (replica, lane) items, those with flow events before the horizon (the compacted
  // flow stage), the flow events they ran, and the queue stage's items (live replicas)
  kCtlWaveLaneRounds = 3,
  kCtlWaveFlowItems = 4,
  kCtlWaveFlowEvents = 5,
  kCtlWaveQueueItems = 6,
  // and with wave_phases: the slot phases' replica-slots (slot_front's items), those with
  // arrivals (slot_arrivals' compacted items), those with a link that needed more than its
  // quick step (serve_links_from's), and those with a source due (slot_sources')
  kCtlWaveSlotItems = 7,
  kCtlWaveArriveItems = 8,
  kCtlWaveServeItems = 9,
  kCtlWaveSourceItems = 10,
  kCtlWords = 12
};
constexpr int64_t kPollSlots = 4096;

// Run every replica of every batch (a figure family: one batch per shape) from slot 0 to its
// end_slot, as one job: one work list over all batches, longest replicas first
// (engine/family.h). Outputs must be zero-filled by the caller. threads <= 0: OpenMP default.
// control: kCtlWords host words (stop request in, progress out); may be null. Each replica
// runs as a team of shape.lanes lanes (a loop on the CPU). replicas_per_task (CPU): replicas
// one thread steps together, piece by piece (1: one at a time; 32 runs the GPU's grouping
// of a warp); no result depends on it.
void run_family_cpu(const std::vector<BatchInput>& in, std::vector<BatchOutput>& out, int threads,
                    int64_t* control, int replicas_per_task);

// The CPU module's build of the engine that run_family_cpu runs these batches on: "classic"
// (no model after ns-2's compiled in: backend_cpu_classic.cpp) when no replica uses one,
// else "full"; DIFFSWEEP_CPU_ENGINE=full forces "full". Defined only in the CPU modules (the
// event-trace module has the full build alone).
const char* cpu_engine_name(const std::vector<BatchInput>& in);

// Same, on the first CUDA device, in one launch while the state blocks fit: each warp takes a
// task (min(32 / lanes, per warp) replicas of one batch, a team of lanes threads each) from the
// work list; per warp: replicas_per_task when > 0, else spread_per_warp's choice
// (engine/family.h). Defined only in the CUDA module.
void run_family_cuda(const std::vector<BatchInput>& in, std::vector<BatchOutput>& out,
                     int64_t* control, int replicas_per_task);

// Name of CUDA device 0 and its count; count = 0 when none (or the driver is missing).
int cuda_device_count();
void cuda_memory_info(size_t* free_bytes, size_t* total_bytes);
void cuda_device_name(char* buf, int n);
// Warps of 128-thread blocks device 0 keeps resident at once on the full (else the slim)
// kernel: the most tasks one launch runs side by side; 0 without a device.
long long cuda_resident_warps(bool full);

}  // namespace ds
