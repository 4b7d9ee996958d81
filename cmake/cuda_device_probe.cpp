// DIFFSWEEP_CUDA=AUTO's probe (CMakeLists.txt, issue 53): does the CUDA runtime this build would
// link see a device? The engine asks the same question at run time (device_count() in
// bindings/module.cpp, diffsweep.engine.compiled.cuda_devices), so the build and `--backend
// auto` agree. Prints "<count> <name of device 0>" or the runtime's error; exit 0 only with a
// device. No driver (libcuda missing), a driver too old for this toolkit, a container with the
// driver but no GPU, or CUDA_VISIBLE_DEVICES hiding every GPU: an error or 0 devices, exit 1.
#include <cstdio>

#include <cuda_runtime_api.h>

int main() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    std::printf("%s", cudaGetErrorString(e));
    return 1;
  }
  if (n == 0) {
    std::printf("0 devices");
    return 1;
  }
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) p.name[0] = '\0';
  std::printf("%d %s", n, p.name);
  return 0;
}
