// The test suites' main. Before Catch runs, every test process gets a DDS discovery tag of its own
// (PRAXIS_DDS_TAG, inherited by the fake robots it starts), unless the caller chose one: the suites
// use fixed domain ids, and without the tag two test runs on one machine would hear each other.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <random>
#include <string>

int main(int argc, char* argv[]) {
  if (std::getenv("PRAXIS_DDS_TAG") == nullptr) {
    const std::string tag = "praxis-test-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}());
    ::setenv("PRAXIS_DDS_TAG", tag.c_str(), 0);
  }
  // The fake robots a test starts end when the test process is gone (examples/common/parent_watch.hpp).
  ::setenv("PRAXIS_EXIT_WITH_PARENT", "1", 0);
  return Catch::Session().run(argc, argv);
}
