#pragma once
// A fake robot started by a test ends when the test process is gone. Without this, a test process
// that dies (an abort, a sanitizer report) leaves its fake running - with --duration 0 for ever -
// holding the test's output pipe, and CTest waits for it until its timeout. Opt-in through the
// environment (PRAXIS_EXIT_WITH_PARENT=1, set by the test suites' main and tests/support/
// dds_isolated.sh), so a fake a user starts from a shell keeps running when that shell exits.
// Polling getppid() instead of prctl(PR_SET_PDEATHSIG): the death signal follows the parent
// *thread* that started the process, and a test may start its fake from a thread that ends first.

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace fake_common {

class ParentWatch {
 public:
  ParentWatch() : parent_(::getppid()), enabled_(enabled_by_environment()) {}

  bool parent_gone() const { return enabled_ && ::getppid() != parent_; }

 private:
  static bool enabled_by_environment() {
    const char* value = std::getenv("PRAXIS_EXIT_WITH_PARENT");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }

  pid_t parent_;
  bool enabled_;
};

}  // namespace fake_common
