# The live server's clients that nobody here wrote: Foxglove's ws-protocol client (node) and the page in
# headless Chromium (puppeteer-core), each against tests/observe/live_sample_server, driven by
# live_node_check.sh. Without Node.js the tests are still registered and fail saying so.
add_executable(live_sample_server observe/live_sample_server.cpp)
target_link_libraries(live_sample_server PRIVATE praxis::observe)
praxis_set_warnings(live_sample_server)

add_test(NAME "live: Foxglove's ws-protocol client reads every channel of the sample server"
  COMMAND ${PRAXIS_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/observe/live_node_check.sh
    $<TARGET_FILE:live_sample_server> "${PRAXIS_NODE}" ${PRAXIS_JS_DIR}/foxglove_client_check.mjs)
set_tests_properties("live: Foxglove's ws-protocol client reads every channel of the sample server"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL:" TIMEOUT 60)

# The page in headless Chromium; its screenshot (live_page.png) lands in this folder of the build.
add_test(NAME "live: the page plots a field of the sample server in headless Chromium"
  COMMAND ${PRAXIS_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/observe/live_node_check.sh
    $<TARGET_FILE:live_sample_server> "${PRAXIS_NODE}" ${PRAXIS_JS_DIR}/page_check.mjs
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties("live: the page plots a field of the sample server in headless Chromium"
  PROPERTIES PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL:" TIMEOUT 120)
