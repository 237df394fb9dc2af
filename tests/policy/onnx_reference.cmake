# praxis' own inference checked against an engine nobody here wrote: ONNX Runtime (npm
# onnxruntime-node, CPU, tests/js/onnx_reference.mjs) and numpy in float64, on models
# tests/policy/make_models.py writes with random weights (one per operator and attribute case, the
# actor MLPs exporters write, LSTM and GRU policies stepped 20 times with their state carried). The
# tests run in order through fixtures: models -> ONNX Runtime's results -> the comparison.
# Per-operator tests with hand-computed values are in tests/unit/policy/network_test.cpp (policy_tests).

# Debian's python3 (python3-onnx, python3-numpy): a python3 earlier on PATH may be another one.
set(PRAXIS_POLICY_PYTHON /usr/bin/python3 CACHE FILEPATH
    "Python with Debian's python3-onnx and python3-numpy, for tests/policy/make_models.py")
# Defined by the observe tests too, which come later in tests/CMakeLists.txt (or not at all).
if(NOT DEFINED PRAXIS_NODE)
  find_program(PRAXIS_NODE node)
endif()
if(NOT DEFINED PRAXIS_JS_DIR)
  set(PRAXIS_JS_DIR ${CMAKE_CURRENT_SOURCE_DIR}/js)
endif()

add_executable(policy_onnx_compare ${CMAKE_CURRENT_SOURCE_DIR}/policy/compare_main.cpp)
target_link_libraries(policy_onnx_compare PRIVATE praxis::policy nlohmann_json::nlohmann_json)
praxis_set_warnings(policy_onnx_compare)

set(policy_models_dir ${CMAKE_CURRENT_BINARY_DIR}/policy_models)

add_test(NAME "policy onnx reference: make_models.py writes the models and numpy's outputs"
  COMMAND ${PRAXIS_POLICY_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/policy/make_models.py ${policy_models_dir})
set_tests_properties("policy onnx reference: make_models.py writes the models and numpy's outputs"
  PROPERTIES FIXTURES_SETUP policy_onnx_models TIMEOUT 300)

if(PRAXIS_NODE)
  add_test(NAME "policy onnx reference: ONNX Runtime runs the models"
    COMMAND ${PRAXIS_NODE} ${PRAXIS_JS_DIR}/onnx_reference.mjs ${policy_models_dir})
else()
  add_test(NAME "policy onnx reference: ONNX Runtime runs the models"
    COMMAND ${CMAKE_COMMAND} -E echo
            "FAIL: Node.js not found: install node and run scripts/install-js-test-deps.sh")
endif()
set_tests_properties("policy onnx reference: ONNX Runtime runs the models"
  PROPERTIES FIXTURES_REQUIRED policy_onnx_models FIXTURES_SETUP policy_onnx_ort
             FAIL_REGULAR_EXPRESSION "FAIL:" TIMEOUT 300)

add_test(NAME "policy onnx reference: praxis matches ONNX Runtime and numpy to 1e-5 of each output's scale"
  COMMAND policy_onnx_compare ${policy_models_dir} --require-ort)
set_tests_properties("policy onnx reference: praxis matches ONNX Runtime and numpy to 1e-5 of each output's scale"
  PROPERTIES FIXTURES_REQUIRED "policy_onnx_models;policy_onnx_ort" FAIL_REGULAR_EXPRESSION "FAIL:"
             TIMEOUT 300)
