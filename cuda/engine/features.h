// The rare models a replica uses, read from its inputs: edge conditioners, AQM (CoDel, PIE
// and FQ-CoDel among them), traffic generators, telnet-like applications, traced flows and queues, the
// queueing-delay histogram, TCP-aware tags, packets that start other than green, the
// validation hooks (a link's Bernoulli loss, a flow's injected drops), SACK senders
// (model/tcp_sack.h) and CUBIC senders (model/tcp_cubic.h).
// init_replica keeps them in the replica's header (ReplicaHdr's f_* flags, read through
// DS_FEAT); the CUDA host runs a launch on the slim kernel, built with every flag false
// (kernel_slim.cu), when none of its replicas uses any (batch_uses_features).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../batch.h"
#include "../core/hd.h"

namespace ds {

struct ReplicaFeatures {
  uint8_t markers, traffic, aqm, app, trace, tcp_tag, colour, hooks, sack, qtrace, cubic;
  uint8_t codel;   // a CoDel class (aqm too)
  uint8_t pie;     // a PIE class (aqm too)
  uint8_t fqcodel; // an FQ-CoDel class (aqm too; model/queue_fq_codel.h)
  uint8_t qhist;   // the queueing-delay histogram
  uint8_t ecn;     // ECN: an ECN flow or a marking class (model/tcp_ecn.h)
  uint8_t devq;    // a link with a device queue (aqm too: its arrivals take arrive_full)
  bool balancing;  // a Balancing Marker (its connection table: BatchShape::conn_meters)
  DS_HD bool any() const {
    return (markers | traffic | aqm | app | trace | tcp_tag | colour | hooks | sack | qtrace |
            cubic | codel | pie | fqcodel | qhist | ecn | devq) != 0;
  }
  // a model after ns-2's (DS_FEAT_NEW): the full kernel runs it, the classic one does not
  DS_HD bool any_new() const { return (cubic | codel | pie | fqcodel | ecn | devq) != 0; }
};

// Replica r's rows of a batch's inputs (the layout every per-flow, per-link, per-source and
// per-marker input array has: row r of shape.max_* entries).
DS_HD inline ReplicaFeatures replica_features(const BatchInput& in, int32_t r) {
  const BatchShape& sh = in.shape;
  const size_t rf = (size_t)r * sh.max_flows, rl = (size_t)r * sh.max_links;
  const size_t rs = (size_t)r * sh.max_sources, rm = (size_t)r * sh.max_markers;
  const int nf = in.n_flows[r], ns = in.n_sources[r], nl = in.n_links[r];
  ReplicaFeatures ft{};
  ft.markers = in.n_markers[r] > 0 ? 1 : 0;
  ft.traffic = in.n_gens[r] > 0 ? 1 : 0;
  for (int l = 0; l < nl; ++l)
    for (int c = 0; c < in.link_n_classes[rl + l]; ++c)
      if (in.class_aqm[(rl + l) * kMaxClasses + c] != kAqmDropTail) {
        ft.aqm = 1;
        if (in.class_aqm[(rl + l) * kMaxClasses + c] == kAqmCodel) ft.codel = 1;
        if (in.class_aqm[(rl + l) * kMaxClasses + c] == kAqmPie) ft.pie = 1;
        if (in.class_aqm[(rl + l) * kMaxClasses + c] == kAqmFqCodel) ft.fqcodel = 1;
      }
  ft.qhist = in.qdelay_hist[r] != 0 ? 1 : 0;
  for (int f = 0; f < nf; ++f)
    if (in.flow_app_iat_slots[rf + f] != 0.0) ft.app = 1;
  if (in.trace_samples[r] > 0)
    for (int f = 0; f < nf; ++f)
      if (in.flow_trace[rf + f] >= 0) ft.trace = 1;
  if (in.qtrace_samples[r] > 0)
    for (int l = 0; l < nl; ++l)
      if (in.link_qtrace[rl + l] >= 0) ft.qtrace = 1;
  for (int m = 0; m < in.n_markers[r]; ++m) {
    const uint8_t kind = in.marker_kind[rm + m];
    if (kind == kMarkRttAware || kind == kMarkRttRto || in.marker_sw_k[rm + m] > 0) ft.tcp_tag = 1;
    if (kind == kMarkBalancing) ft.balancing = true;
  }
  for (int l = 0; l < nl; ++l)
    if (in.link_loss_prob[rl + l] > 0.0) ft.hooks = 1;
  for (int l = 0; l < nl; ++l)
    if (in.link_devq_pkts[rl + l] > 0) ft.devq = ft.aqm = 1;
  for (int f = 0; f < nf; ++f)
    if (flow_has_injected_drops(in, rf + f)) ft.hooks = 1;
  for (int f = 0; f < nf; ++f)
    if (in.flow_variant[rf + f] == kSack) ft.sack = 1;
  for (int f = 0; f < nf; ++f)
    if (in.flow_cc[rf + f] == kCcCubic) ft.cubic = 1;
  for (int f = 0; f < nf; ++f)
    if (in.flow_ecn[rf + f] != 0) ft.ecn = 1;
  for (int l = 0; l < nl; ++l)
    for (int c = 0; c < in.link_n_classes[rl + l]; ++c)
      if (in.class_ecn[(rl + l) * kMaxClasses + c] != 0) ft.ecn = 1;
  ft.colour = ft.markers;
  for (int f = 0; f < nf; ++f)
    if (in.flow_colour[rf + f] != kGreen) ft.colour = 1;
  for (int s = 0; s < ns; ++s)
    if (in.src_colour[rs + s] != kGreen) ft.colour = 1;
  return ft;
}

// Whether any replica of the batch uses a rare model (host: which CUDA kernel runs it); with
// `new_only`, a model after ns-2's (ReplicaFeatures::any_new).
inline bool batch_uses_features(const BatchInput& in, bool new_only = false) {
  for (int32_t r = 0; r < in.shape.n_replicas; ++r) {
    const ReplicaFeatures ft = replica_features(in, r);
    if (new_only ? ft.any_new() : ft.any()) return true;
  }
  return false;
}

// DIFFSWEEP_CUDA_KERNEL=full: every job on the full kernel, to compare them.
inline bool full_kernel_forced() {
  const char* forced = std::getenv("DIFFSWEEP_CUDA_KERNEL");
  return forced && std::strcmp(forced, "full") == 0;
}

// The CUDA kernel that runs these batches as one job: "slim" unless a replica uses a rare
// model; "classic" (kernel_classic.cu) when those are ns-2's alone; "full" when a replica uses
// a model after ns-2's (CUBIC, CoDel, PIE, FQ-CoDel, ECN, DCTCP), or full_kernel_forced().
// The CUDA backend launches it and the host reports it (engine.cuda_kernel): one decision,
// made here.
inline const char* family_kernel_name(const std::vector<BatchInput>& in) {
  if (full_kernel_forced()) return "full";
  bool rare = false;
  for (const BatchInput& b : in) {
    if (batch_uses_features(b, true)) return "full";
    rare = rare || batch_uses_features(b);
  }
  return rare ? "classic" : "slim";
}

}  // namespace ds
