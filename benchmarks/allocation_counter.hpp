#pragma once
// Counts heap allocations: allocation_counter.cpp replaces the global operator new (list it among the
// benchmark's sources). Read allocation_count() before and after the code measured: it counts the
// calling thread's allocations only, because the rule measured is that the control cycle allocates
// nothing, while the runtime's reporter thread (which formats and logs what the cycle queued) may.
// program_allocation_count() counts every thread's. Aligned new is not counted.

#include <cstddef>

namespace praxis::bench {

std::size_t allocation_count();
std::size_t program_allocation_count();

}  // namespace praxis::bench
