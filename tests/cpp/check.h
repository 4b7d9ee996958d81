// The two counters and the check() of the C++ tests (no framework): each test binary prints
// "N passed, M failed" and exits non-zero on a failure (tests/test_core_cpp.py runs them).
#pragma once
#include <cstdio>

namespace {

int g_passed = 0;
int g_failed = 0;

void check(bool ok, const char* what) {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    std::printf("FAIL: %s\n", what);
  }
}

int report() {
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}

}  // namespace
