# MCAP recording checked from outside Catch: by Foxglove's own reader (@mcap/core through node,
# tests/js/mcap_check.mjs) and against a writer killed with SIGKILL. The unit tests are in
# tests/unit/observe/mcap_test.cpp (observe_tests).
add_executable(observe_mcap_tool ${CMAKE_CURRENT_SOURCE_DIR}/observe/mcap_tool.cpp)
target_link_libraries(observe_mcap_tool PRIVATE praxis::observe nlohmann_json::nlohmann_json)
praxis_set_warnings(observe_mcap_tool)

foreach(compression none zstd lz4)
  add_test(NAME "observe mcap: @mcap/core reads a ${compression} file praxis wrote and a copy cut short"
    COMMAND ${PRAXIS_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/observe/mcap_js_test.sh
            $<TARGET_FILE:observe_mcap_tool> ${compression} "${PRAXIS_NODE}" ${PRAXIS_JS_DIR})
  set_tests_properties("observe mcap: @mcap/core reads a ${compression} file praxis wrote and a copy cut short"
    PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL:" TIMEOUT 120)
endforeach()

# SIGKILL loses at most the open chunk: 1000 ms of log time plus a margin. Measured here (2 cores,
# two busy loops beside it, the kill placed just before the next chunk closes): the newest message
# was 930 to 1007 ms older than the kill over 11 runs, so 500 ms of margin is about 70 times the
# largest overshoot seen.
add_test(NAME "observe mcap: a writer killed with SIGKILL loses at most its last second"
  COMMAND ${PRAXIS_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/observe/mcap_kill_test.sh
          $<TARGET_FILE:observe_mcap_tool> "${PRAXIS_NODE}" ${PRAXIS_JS_DIR} zstd 1500)
set_tests_properties("observe mcap: a writer killed with SIGKILL loses at most its last second"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL:" TIMEOUT 120)

# The other way round: files Foxglove's own writer made (schemas and channels inside its chunks,
# channel ids from 0, its summary layout) read by praxis' reader.
foreach(compression none zstd)
  add_test(NAME "observe mcap: praxis reads a ${compression} file @mcap/core wrote"
    COMMAND ${PRAXIS_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/observe/mcap_foreign_test.sh
            $<TARGET_FILE:observe_mcap_tool> ${compression} "${PRAXIS_NODE}" ${PRAXIS_JS_DIR})
  set_tests_properties("observe mcap: praxis reads a ${compression} file @mcap/core wrote"
    PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL:" TIMEOUT 120)
endforeach()
