// Host words shared with a running batch (batch.h, ControlWord): relaxed atomics, since they
// carry only a flag and counts, never anything a result depends on.
#pragma once
#include <cstdint>

#include "../core/hd.h"

namespace ds {

DS_HD DS_INLINE int64_t ctl_load(const int64_t* p) {
#ifdef __CUDA_ARCH__
  return *(const volatile int64_t*)p;
#else
  return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

DS_HD DS_INLINE void ctl_add(int64_t* p, int64_t v) {
#ifdef __CUDA_ARCH__
  atomicAdd((unsigned long long*)p, (unsigned long long)v);
#else
  __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

}  // namespace ds
