// The CUDA backend: the same engine source instantiated with thrust::cuda::par, one thread
// per replica. Built with -fmad=false so results match the CPU backend bit for bit.
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/run_batch.h"

namespace ds {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

struct CudaBackend {
  static constexpr bool device_sees_host = false;  // the host polls between launches
  std::vector<void*> owned;

  template <class T>
  T* alloc(size_t n) {
    void* p = nullptr;
    check(cudaMalloc(&p, n * sizeof(T) + 16), "cudaMalloc");
    owned.push_back(p);
    return static_cast<T*>(p);
  }
  template <class T>
  T* to_device(const T* host, size_t n) {
    T* d = alloc<T>(n);
    check(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice), "copy to device");
    return d;
  }
  template <class T>
  void to_host(T* host, const T* dev, size_t n) {
    check(cudaMemcpy(host, dev, n * sizeof(T), cudaMemcpyDeviceToHost), "copy to host");
  }
  template <class T>
  T* put(const T& v) { return to_device<T>(&v, 1); }
  template <class F>
  void for_each(int32_t n, F f) {
    thrust::for_each(thrust::cuda::par, thrust::counting_iterator<int32_t>(0),
                     thrust::counting_iterator<int32_t>(n), f);
    check(cudaGetLastError(), "kernel launch");
  }
  void sync() { check(cudaDeviceSynchronize(), "synchronize"); }
  void finish() {
    check(cudaDeviceSynchronize(), "synchronize");
    for (void* p : owned) cudaFree(p);
    owned.clear();
  }
  ~CudaBackend() {
    for (void* p : owned) cudaFree(p);
  }
};

}  // namespace

void run_batch_cuda(const BatchInput& in, BatchOutput& out, int slots_per_launch,
                    int64_t* control) {
  CudaBackend be;
  run_batch_impl(be, in, out, slots_per_launch, control);
}

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver" error
    return 0;
  }
  return n;
}

void cuda_device_name(char* buf, int n) {
  cudaDeviceProp p;
  if (n <= 0) return;
  buf[0] = 0;
  if (cuda_device_count() > 0 && cudaGetDeviceProperties(&p, 0) == cudaSuccess)
    std::snprintf(buf, (size_t)n, "%s (sm_%d%d, %.1f GiB)", p.name, p.major, p.minor,
                  (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
}

}  // namespace ds

namespace ds {
size_t replica_state_bytes(const BatchShape& shape) { return replica_state_bytes_impl(shape); }
}  // namespace ds
