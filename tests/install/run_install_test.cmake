# Installs the built praxis into a fresh prefix, then configures, builds and runs a consumer project
# that finds it with find_package(praxis CONFIG) — the way robot teams consume praxis.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}"
                RESULT_VARIABLE r OUTPUT_QUIET)
if(NOT r EQUAL 0)
  message(FATAL_ERROR "cmake --install into ${prefix} failed (${r})")
endif()
if(NOT EXISTS "${prefix}/include/praxis/graph.hpp")
  message(FATAL_ERROR "the install did not put include/praxis/graph.hpp into ${prefix}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -S "${CONSUMER_DIR}" -B "${WORK_DIR}/build"
                        -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                RESULT_VARIABLE r)
if(NOT r EQUAL 0)
  message(FATAL_ERROR "configuring the consumer against ${prefix} failed (${r})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/build" RESULT_VARIABLE r)
if(NOT r EQUAL 0)
  message(FATAL_ERROR "building the consumer failed (${r})")
endif()
execute_process(COMMAND "${WORK_DIR}/build/consumer" RESULT_VARIABLE r OUTPUT_VARIABLE out)
message(STATUS "consumer printed: ${out}")
if(NOT r EQUAL 0 OR NOT out MATCHES "Source -> Doubler: 42")
  message(FATAL_ERROR "the consumer did not run as expected (exit ${r}): ${out}")
endif()
if(WITH_DDS)
  execute_process(COMMAND "${WORK_DIR}/build/consumer_unitree" RESULT_VARIABLE r OUTPUT_VARIABLE out)
  message(STATUS "consumer_unitree printed: ${out}")
  if(NOT r EQUAL 0)
    message(FATAL_ERROR "the installed praxis::dds did not produce the fact sheet's CRC (exit ${r}): ${out}")
  endif()
endif()
