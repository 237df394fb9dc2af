#include "malloc_counter.hpp"

#include <stdlib.h>

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PRAXIS_NO_MALLOC_COUNT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PRAXIS_NO_MALLOC_COUNT 1
#endif
#endif

namespace {
thread_local std::uint64_t t_mallocs = 0;
}

namespace praxis::test {
#ifdef PRAXIS_NO_MALLOC_COUNT
bool malloc_counting_available() { return false; }
#else
bool malloc_counting_available() { return true; }
#endif
std::uint64_t thread_malloc_count() { return t_mallocs; }
}  // namespace praxis::test

#ifndef PRAXIS_NO_MALLOC_COUNT
// glibc's own entry points; defining malloc in the executable makes every shared library in the
// process (libddsc included) call these definitions, which count and forward. free() is not
// replaced: the blocks still come from glibc's allocator.
extern "C" {
void* __libc_malloc(std::size_t size) noexcept;
void* __libc_calloc(std::size_t n, std::size_t size) noexcept;
void* __libc_realloc(void* p, std::size_t size) noexcept;

void* malloc(std::size_t size) noexcept {
  ++t_mallocs;
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) noexcept {
  ++t_mallocs;
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  ++t_mallocs;
  return __libc_realloc(p, size);
}
}
#endif

#undef PRAXIS_NO_MALLOC_COUNT
