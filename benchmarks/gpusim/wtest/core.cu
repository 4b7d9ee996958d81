// The engine's core device functions (cuda/core: Philox, the uniform and exponential draws,
// plog/pexp) on fixed inputs under GPGPU-Sim, each output word compared with the host build
// of the same source. Build: nvcc -fmad=false -Icuda (see run_wtests.sh).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include "core/pmath.h"
#include "core/random.h"

constexpr int kN = 256, kOut = 8;
DS_HD void compute(int i, uint64_t* o) {
  using namespace ds;
  const uint64_t seed = 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1);
  uint32_t ctr = (uint32_t)i * 7u;
  const double u = draw_u01(seed, kFamSource, (uint32_t)(i % 5), ctr);
  const double e = exponential(u, 40.0);
  const double l = plog(u * 1e3 + (double)i);
  const double x = pexp(-(double)i * 0.37 + 3.0);
  Philox4x32Ctr c{{(uint32_t)i, 1u, 2u, 3u}};
  Philox4x32Key k{{(uint32_t)seed, (uint32_t)(seed >> 32)}};
  Philox4x32Ctr p = philox4x32_10(c, k);
  memcpy(&o[0], &u, 8); memcpy(&o[1], &e, 8); memcpy(&o[2], &l, 8); memcpy(&o[3], &x, 8);
  o[4] = ((uint64_t)p.v[0] << 32) | p.v[1]; o[5] = ((uint64_t)p.v[2] << 32) | p.v[3];
  o[6] = ctr;
  const double pw = ppow(1.0 + (double)i / 64.0, -1.5);
  memcpy(&o[7], &pw, 8);
}
__global__ void k(uint64_t* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) compute(i, out + (size_t)i * kOut);
}
int main() {
  uint64_t *d, h[kN * kOut], ref[kN * kOut];
  cudaMalloc(&d, sizeof h); cudaMemset(d, 0, sizeof h);
  k<<<kN / 64, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < kN; ++i) compute(i, ref + (size_t)i * kOut);
  const char* names[kOut] = {"draw_u01", "exponential", "plog", "pexp", "philox01", "philox23", "ctr", "ppow"};
  int bad[kOut] = {0}, total = 0;
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < kOut; ++j)
      if (h[i * kOut + j] != ref[i * kOut + j]) {
        if (bad[j]++ < 3) printf("MISMATCH %s i=%d got %016llx want %016llx\n", names[j], i, (unsigned long long)h[i * kOut + j], (unsigned long long)ref[i * kOut + j]);
        ++total;
      }
  for (int j = 0; j < kOut; ++j) printf("%-12s %d of %d differ\n", names[j], bad[j], kN);
  printf("core: %d mismatches\n", total);
  return total != 0;
}
