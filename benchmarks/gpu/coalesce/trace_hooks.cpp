// The recorder behind benchmarks/gpu/coalesce.py: the CPU engine is built with clang's
// -fsanitize-coverage=trace-loads,trace-stores (a call before every load and store) and
// DS_TRACE_MEM (engine marks: ds_trace_at, core/hd.h). Between the marks of slots
// [DS_TRACE_T0, DS_TRACE_T1) it keeps each access that falls in the state block of the
// replica being stepped: where in its round (phase, slot), which instruction, which bytes.
// Written to DS_TRACE_OUT when the module unloads. Compiled without the instrumentation.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

#pragma pack(push, 1)
struct Rec {
  uint64_t pc;     // the instruction (its return address into the instrumented code)
  uint64_t block;  // the replica's state block
  uint32_t t;      // the mark's slot: the slot (queue side) or the round's horizon (flow side)
  uint32_t off;    // byte offset in the block
  uint8_t phase;   // TracePhase (core/hd.h): 0 flow side, 1-8 the queue side's phases
  uint8_t size;    // bytes accessed
  uint8_t store;   // 1 store, 0 load
  uint8_t pad;
};
#pragma pack(pop)

struct Recorder {
  std::vector<Rec> recs;
  const unsigned char* block = nullptr;
  size_t stride = 0;
  uint32_t t = 0;
  uint8_t phase = 0;
  bool on = false;
  uint32_t t0 = 0, t1 = 0;
  const char* out = nullptr;
  Recorder() {
    const char* a = std::getenv("DS_TRACE_T0");
    const char* b = std::getenv("DS_TRACE_T1");
    out = std::getenv("DS_TRACE_OUT");
    t0 = a ? (uint32_t)std::strtoul(a, nullptr, 10) : 0;
    t1 = b ? (uint32_t)std::strtoul(b, nullptr, 10) : 0;
    recs.reserve(1 << 22);
  }
  ~Recorder() {
    if (!out) return;
    if (FILE* f = std::fopen(out, "wb")) {
      std::fwrite(recs.data(), sizeof(Rec), recs.size(), f);
      std::fclose(f);
    }
  }
  inline void hit(const void* p, uint8_t size, uint8_t store, void* pc) {
    if (!on) return;
    const unsigned char* a = (const unsigned char*)p;
    if (a < block || a >= block + stride) return;
    recs.push_back(Rec{(uint64_t)pc, (uint64_t)block, t, (uint32_t)(a - block), phase, size,
                       store, 0});
  }
};

Recorder rec;

}  // namespace

extern "C" void ds_trace_at(const void* block, size_t stride, int phase, uint32_t t) {
  rec.block = (const unsigned char*)block;
  rec.stride = stride;
  rec.phase = (uint8_t)phase;
  rec.t = t;
  rec.on = t >= rec.t0 && t < rec.t1;
}

#define DS_HOOK(bits, bytes)                                                            \
  extern "C" void __sanitizer_cov_load##bytes(uint##bits##_t* p) {                     \
    rec.hit(p, bytes, 0, __builtin_return_address(0));                                 \
  }                                                                                    \
  extern "C" void __sanitizer_cov_store##bytes(uint##bits##_t* p) {                    \
    rec.hit(p, bytes, 1, __builtin_return_address(0));                                 \
  }
DS_HOOK(8, 1)
DS_HOOK(16, 2)
DS_HOOK(32, 4)
DS_HOOK(64, 8)
#undef DS_HOOK
extern "C" void __sanitizer_cov_load16(__int128* p) { rec.hit(p, 16, 0, __builtin_return_address(0)); }
extern "C" void __sanitizer_cov_store16(__int128* p) { rec.hit(p, 16, 1, __builtin_return_address(0)); }
