// The replacement operator new behind allocation_counter.hpp. In its own translation unit so no
// caller sees these bodies inlined (g++ would then pair library deletes with them and warn).

#include "allocation_counter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::size_t> g_allocations{0};
thread_local std::size_t t_allocations = 0;  // trivial: its storage needs no allocation
}  // namespace

std::size_t praxis::bench::allocation_count() { return t_allocations; }
std::size_t praxis::bench::program_allocation_count() { return g_allocations.load(std::memory_order_relaxed); }

void* operator new(std::size_t size) {
  ++t_allocations;
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (size == 0) size = 1;
  if (void* p = std::malloc(size)) return p;
  throw std::bad_alloc{};
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
