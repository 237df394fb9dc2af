#pragma once
// Counts heap allocations of the whole program: allocation_counter.cpp replaces the global
// operator new (list it among the benchmark's sources). Read allocation_count() before and after
// the code measured. Aligned new is not counted.

#include <cstddef>

namespace praxis::bench {

std::size_t allocation_count();

}  // namespace praxis::bench
