#pragma once
// PRAXIS_TEST_SANITIZED: 1 when this translation unit is built with AddressSanitizer or
// ThreadSanitizer. For what means nothing under them (page-fault counts: they fault in shadow
// memory of their own) and for exhaustive loops that a plain build runs in full and a sanitized
// build samples (the sanitizers look for memory and thread errors, which a sample finds as well, at
// many times the cost per iteration).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PRAXIS_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PRAXIS_TEST_SANITIZED 1
#endif
#endif
#ifndef PRAXIS_TEST_SANITIZED
#define PRAXIS_TEST_SANITIZED 0
#endif
