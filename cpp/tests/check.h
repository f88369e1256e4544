// The one assertion of the C++ core's test programs: CHECK(cond) records a
// failure with its file and line and goes on; finish(name) reports and gives
// main's exit status.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace hexengine::testing {

// Failed CHECKs so far in this test program.
inline int failures = 0;

// Prints the summary of the program `name` and returns its exit status.
inline int finish(const char* name) {
  if (failures) {
    std::printf("%s: %d check(s) failed\n", name, failures);
    return EXIT_FAILURE;
  }
  std::printf("%s: all checks passed\n", name);
  return EXIT_SUCCESS;
}

}  // namespace hexengine::testing

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      std::printf("%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
      ++::hexengine::testing::failures;                                      \
    }                                                                        \
  } while (0)
