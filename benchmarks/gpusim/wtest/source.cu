// The engine's on-off source (cuda/model/source_onoff.h: source_init, source_step) on a mock
// replica under GPGPU-Sim, every slot's state compared with the host build of the same source.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include "model/source_onoff.h"

using namespace ds;
constexpr int kSrc = 64, kSlots = 200, kStage = 64;
struct MockIn {
  double src_t_on_slots[kSrc], src_t_off_slots[kSrc], src_peak_bytes_per_slot[kSrc];
  uint8_t src_fixed[kSrc], src_cls[kSrc];
  int32_t src_pkt_bytes[kSrc];
  int8_t src_route[kSrc * kMaxHops];
};
struct MockShape { int max_flows; };
struct Mem {  // one replica per source
  SourceState st[kSrc];
  double on_slots[kSrc];
  int64_t bursts[kSrc], pkts[kSrc], bytes[kSrc];
  Packet stage[kSrc][kStage];
  uint32_t n_stage[kSrc];
  uint64_t trace[kSrc][kSlots][3];
};
struct X {
  Mem* m; const MockIn* i; int s; uint8_t measuring;
  DS_HD SourceState& src(int) const { return m->st[s]; }
  DS_HD size_t iS(int) const { return (size_t)s; }
  DS_HD const MockIn* in() const { return i; }
  DS_HD uint64_t seed() const { return 0x1234567800000000ull + (uint64_t)s * 977u; }
  DS_HD MockShape shape() const { return MockShape{1}; }
  DS_HD double* out_src_on_slots() const { return m->on_slots; }
  DS_HD int64_t* out_src_bursts() const { return m->bursts; }
  DS_HD int64_t* out_src_pkts() const { return m->pkts; }
  DS_HD int64_t* out_src_bytes() const { return m->bytes; }
  DS_HD Packet* stage_slot() const {
    uint32_t& n = m->n_stage[s];
    return n < kStage ? &m->stage[s][n++] : nullptr;
  }
};
// (the counters are indexed by the source index s of source_step: every mock source is s)
DS_HD void run(Mem* m, const MockIn* in, int s) {
  X x{m, in, s, 1};
  source_init(x, s);
  for (uint32_t t = 0; t < kSlots; ++t) {
    m->n_stage[s] = 0;
    source_step(x, s, t);
    uint64_t pe; memcpy(&pe, &m->st[s].phase_end, 8);
    m->trace[s][t][0] = pe;
    m->trace[s][t][1] = (uint64_t)m->st[s].on | (uint64_t)m->n_stage[s] << 8 | (uint64_t)(uint32_t)m->st[s].seq << 32;
    uint64_t cr; memcpy(&cr, &m->st[s].credit, 8);
    m->trace[s][t][2] = cr ^ m->st[s].ctr;
  }
}
__global__ void k(Mem* m, const MockIn* in) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < kSrc) run(m, in, s);
}
int main() {
  static MockIn in; static Mem h, ref;
  memset(&in, 0, sizeof in);
  for (int s = 0; s < kSrc; ++s) {  // Kaur & Vin's EF: 1 ms on, f = 0.3, 1500-byte packets
    in.src_t_on_slots[s] = 40.0 * (1 + s % 4);
    in.src_t_off_slots[s] = s % 8 == 7 ? 0.0 : in.src_t_on_slots[s] * 0.7 / 0.3;
    in.src_fixed[s] = s % 5 == 4;
    in.src_peak_bytes_per_slot[s] = 125.0;
    in.src_pkt_bytes[s] = 1500; in.src_cls[s] = 0;
  }
  memset(&h, 0, sizeof h); memset(&ref, 0, sizeof ref);
  Mem* dm; MockIn* di;
  cudaMalloc(&dm, sizeof h); cudaMalloc(&di, sizeof in);
  cudaMemcpy(dm, &h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(di, &in, sizeof in, cudaMemcpyHostToDevice);
  k<<<kSrc / 32, 32>>>(dm, di);
  cudaMemcpy(&h, dm, sizeof h, cudaMemcpyDeviceToHost);
  for (int s = 0; s < kSrc; ++s) run(&ref, &in, s);
  int bad = 0;
  for (int s = 0; s < kSrc; ++s)
    for (int t = 0; t < kSlots; ++t)
      for (int j = 0; j < 3; ++j)
        if (h.trace[s][t][j] != ref.trace[s][t][j]) {
          if (bad++ < 10) printf("MISMATCH src %d slot %d word %d got %016llx want %016llx\n", s, t, j,
                                 (unsigned long long)h.trace[s][t][j], (unsigned long long)ref.trace[s][t][j]);
        }
  int ons = 0; for (int s = 0; s < kSrc; ++s) ons += ref.st[s].on;
  printf("source: %d mismatches (%d sources x %d slots; host: %d sources on at the end, %lld bursts)\n",
         bad, kSrc, kSlots, ons, (long long)ref.bursts[0]);
  return bad != 0;
}
