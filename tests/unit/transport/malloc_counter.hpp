#pragma once
// Counts C heap allocations (malloc, calloc, realloc) of the calling thread, so a test can see
// what a C library such as Cyclone DDS allocates; the operator new counter in tests/support does
// not see those. Off under sanitizers, which replace malloc themselves: available() says so.

#include <cstdint>

namespace praxis::test {

[[nodiscard]] bool malloc_counting_available();
[[nodiscard]] std::uint64_t thread_malloc_count();

}  // namespace praxis::test
