# PRAXIS_SANITIZE: a comma-separated list of sanitizers for every target of this build, e.g.
#   -DPRAXIS_SANITIZE=address,undefined
# Applied project-wide (the library, tests and examples), so a header that only compiles without
# sanitizers fails here as it would for a user building with them. scripts/test.sh runs such a
# build (warnings are the two plain builds' job there, so it does not make them errors);
# ThreadSanitizer cannot be combined with AddressSanitizer, so configure that build with
# -DPRAXIS_TSAN_TESTS=OFF.
set(PRAXIS_SANITIZE "" CACHE STRING "Sanitizers for all targets, e.g. address,undefined (empty: none)")
if(PRAXIS_SANITIZE)
  if(PRAXIS_SANITIZE MATCHES "thread" AND PRAXIS_SANITIZE MATCHES "address")
    message(FATAL_ERROR "PRAXIS_SANITIZE=${PRAXIS_SANITIZE}: thread and address sanitizers exclude each other")
  endif()
  message(STATUS "praxis: building with -fsanitize=${PRAXIS_SANITIZE}")
  add_compile_options(-fsanitize=${PRAXIS_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${PRAXIS_SANITIZE})
  # The instrumentation defeats g++'s flow analysis: -Wmaybe-uninitialized then fires on correct
  # code (libstdc++'s <regex> in Catch2, for one). The GCC manual warns of exactly this and advises
  # against -Werror with sanitizers.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
endif()
