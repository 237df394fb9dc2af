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
