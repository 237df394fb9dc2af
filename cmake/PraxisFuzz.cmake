# PRAXIS_BUILD_FUZZERS: the libFuzzer targets and their corpus replays in fuzz/ (see fuzz/README.md).
# With clang every target of this build is compiled with -fsanitize=fuzzer-no-link, so the
# library's own code (the JSON loaders in src/) gives libFuzzer coverage, and - unless
# PRAXIS_SANITIZE already chose sanitizers - with AddressSanitizer and UndefinedBehaviorSanitizer,
# both made fatal so a finding stops the run. Other compilers build only the replays.
option(PRAXIS_BUILD_FUZZERS "Build the fuzz targets (libFuzzer with clang) and the corpus replay tests" OFF)
set(praxis_libfuzzer OFF)
if(PRAXIS_BUILD_FUZZERS AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(praxis_libfuzzer ON)
  # C++ only: the generated IDL sources are C, and the C compiler need not be clang.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>)
  if(NOT PRAXIS_SANITIZE)
    message(STATUS "praxis: fuzz build with -fsanitize=address,undefined")
    add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
  endif()
endif()
