#pragma once
// Counts every call of the global operator new in the test binary (all threads), so tests can prove
// that a loop performs no heap allocation.

#include <cstdint>

namespace praxis::test {

[[nodiscard]] std::uint64_t allocation_count();
// Allocations made by the calling thread only.
[[nodiscard]] std::uint64_t thread_allocation_count();

// Allocations made while the object is alive.
class AllocationScope {
 public:
  AllocationScope() : start_(allocation_count()) {}
  [[nodiscard]] std::uint64_t allocations() const { return allocation_count() - start_; }

 private:
  std::uint64_t start_;
};

}  // namespace praxis::test
