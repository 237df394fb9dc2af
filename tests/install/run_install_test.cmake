# Installs the built praxis into a fresh prefix, checks that what a user needs is there, then
# configures, builds and runs a consumer project that finds it with find_package(praxis CONFIG) —
# the way robot teams consume praxis. With DDS and the examples built, the consumer's controllers
# also run against the installed fake robots, started from the prefix's bin/: a Fourier GR-2
# through Aurora and a Walker Tienkung Pro, each taken, stood, run with the installed example
# controller and its installed parameters, and ended in the robot's safe state.
#   -DBUILD_DIR= -DCONSUMER_DIR= -DWORK_DIR= -DCXX_COMPILER= -DWITH_DDS=
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
string(TIMESTAMP started "%s")

execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}"
                RESULT_VARIABLE r OUTPUT_QUIET)
if(NOT r EQUAL 0)
  message(FATAL_ERROR "cmake --install into ${prefix} failed (${r})")
endif()

# ---- what is installed where (README.md, "Using it from CMake") ----
file(STRINGS "${BUILD_DIR}/CMakeCache.txt" examples_entry REGEX "^PRAXIS_BUILD_EXAMPLES:BOOL=")
set(with_fakes OFF)
if(WITH_DDS AND examples_entry MATCHES "=(ON|on|TRUE|true|1)$")
  set(with_fakes ON)
endif()
set(expected
  include/praxis/graph.hpp
  include/praxis/examples/sinusoid_controller.hpp
  bin/praxis-script
  share/praxis/scripts/g1/wave.json
  share/praxis/scripts/go2/stand.json
  share/praxis/scripts/plot-run.sh
  share/praxis/scripts/install-bench-deps.sh)
foreach(robot IN ITEMS go2 g1 g1_23 h1_2 t1 k1 gr1 gr2 gr3 n1 pro lite)
  list(APPEND expected share/praxis/params/${robot}/params.json)
endforeach()
if(with_fakes)
  list(APPEND expected bin/praxis-fake-robot bin/praxis-fake-booster bin/praxis-fake-aurora bin/praxis-fake-tienkung)
endif()
set(missing "")
file(STRINGS "${BUILD_DIR}/CMakeCache.txt" demos_entry REGEX "^PRAXIS_BUILD_DEMOS:BOOL=")
set(with_demos OFF)
if(examples_entry MATCHES "=(ON|on|TRUE|true|1)$" AND NOT demos_entry MATCHES "=(OFF|off|FALSE|false|0)$")
  set(with_demos ON)
  # A robot owner with the package has the programs to run, and the files they run on.
  list(APPEND expected bin/praxis_demo bin/praxis_motion_demo share/praxis/policy/g1/deploy.json
       share/praxis/policy/g1/policy.onnx)
endif()
foreach(file IN LISTS expected)
  if(NOT EXISTS "${prefix}/${file}")
    list(APPEND missing "${file}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "the install did not put these into ${prefix}: ${missing}")
endif()

# The installed demos run from elsewhere, found through PATH, on the files installed with them (the
# example policy of the prefix, not of the build tree).
if(with_demos)
  file(MAKE_DIRECTORY "${WORK_DIR}/elsewhere")
  set(path_env "PATH=${prefix}/bin:$ENV{PATH}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "${path_env}" praxis_demo --robot g1 --no-log --duration 4
                          --controller policy
                  WORKING_DIRECTORY "${WORK_DIR}/elsewhere" RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
  # A literal search: the prefix is a path (CI's build folder is build/test-g++, not a regex).
  string(FIND "${out}" "controller: policy ${prefix}/share/praxis/policy/g1/deploy.json" installed_policy)
  if(NOT r EQUAL 0 OR installed_policy EQUAL -1 OR NOT out MATCHES "final state: DAMPING")
    message(FATAL_ERROR "the installed praxis_demo did not run the installed example policy (exit ${r}): ${out}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "${path_env}" praxis_demo --robot g1 --no-log --duration 4
                  WORKING_DIRECTORY "${WORK_DIR}/elsewhere" RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT r EQUAL 0 OR NOT out MATCHES "final state: DAMPING")
    message(FATAL_ERROR "the installed praxis_demo did not run its story on the installed parameters (exit ${r}): ${out}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "${path_env}" praxis_motion_demo --robot g1
                  WORKING_DIRECTORY "${WORK_DIR}/elsewhere" RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT r EQUAL 0 OR NOT out MATCHES "mock g1, [0-9]+ library scripts")
    message(FATAL_ERROR "the installed praxis_motion_demo did not run on the installed scripts (exit ${r}): ${out}")
  endif()
  message(STATUS "the installed praxis_demo and praxis_motion_demo ran from ${WORK_DIR}/elsewhere")
endif()

# The installed tools run from the prefix, on the installed files.
execute_process(COMMAND "${prefix}/bin/praxis-script" check "${prefix}/share/praxis/scripts/g1/wave.json" --robot g1
                RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT r EQUAL 0 OR NOT out MATCHES "total: ")
  message(FATAL_ERROR "the installed praxis-script did not check the installed g1/wave.json (exit ${r}): ${out}")
endif()
execute_process(COMMAND bash "${prefix}/share/praxis/scripts/plot-run.sh" "${WORK_DIR}/no-such-run"
                RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT out MATCHES "does not exist")
  message(FATAL_ERROR "the installed plot-run.sh did not run (exit ${r}): ${out}")
endif()

# ---- the consumer project ----
execute_process(COMMAND ${CMAKE_COMMAND} -S "${CONSUMER_DIR}" -B "${WORK_DIR}/build"
                        -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                RESULT_VARIABLE r)
if(NOT r EQUAL 0)
  message(FATAL_ERROR "configuring the consumer against ${prefix} failed (${r})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/build" --parallel 2 RESULT_VARIABLE r)
if(NOT r EQUAL 0)
  message(FATAL_ERROR "building the consumer failed (${r})")
endif()
string(TIMESTAMP built "%s")
math(EXPR build_seconds "${built} - ${started}")
message(STATUS "installed and built the consumer in ${build_seconds} s")

execute_process(COMMAND "${WORK_DIR}/build/consumer" RESULT_VARIABLE r OUTPUT_VARIABLE out)
message(STATUS "consumer printed: ${out}")
if(NOT r EQUAL 0 OR NOT out MATCHES "Source -> Doubler: 42")
  message(FATAL_ERROR "the consumer did not run as expected (exit ${r}): ${out}")
endif()
if(EXISTS "${WORK_DIR}/build/consumer_policy")
  execute_process(COMMAND "${WORK_DIR}/build/consumer_policy" RESULT_VARIABLE r OUTPUT_VARIABLE out)
  message(STATUS "consumer_policy printed: ${out}")
  if(NOT r EQUAL 0 OR NOT out MATCHES "refused: .*praxis_consumer_deploy.json")
    message(FATAL_ERROR "the installed praxis::policy did not refuse a deploy file by name (exit ${r}): ${out}")
  endif()
endif()
if(NOT WITH_DDS)
  return()
endif()
execute_process(COMMAND "${WORK_DIR}/build/consumer_unitree" RESULT_VARIABLE r OUTPUT_VARIABLE out)
message(STATUS "consumer_unitree printed: ${out}")
if(NOT r EQUAL 0)
  message(FATAL_ERROR "the installed praxis::dds did not produce the fact sheet's CRC (exit ${r}): ${out}")
endif()
if(NOT with_fakes)
  message(STATUS "the examples were not built: no fake robots installed, the controllers over DDS are not run")
  return()
endif()

# ---- controllers against the installed fake robots ----
# A discovery tag of this run's own keeps it apart from other tests on the machine; the fakes end if
# the shell that started them dies.
string(RANDOM LENGTH 8 ALPHABET 0123456789abcdef nonce)
set(ENV{PRAXIS_DDS_TAG} "praxis-install-test-${started}-${nonce}")
set(ENV{PRAXIS_EXIT_WITH_PARENT} 1)
set(seconds 4)  # each controller's run; taking and handing back control come on top

# The fake Booster starts from the prefix and runs for a second.
execute_process(COMMAND "${prefix}/bin/praxis-fake-booster" --robot k1 --domain 228 --interface lo --duration 1
                        --report "${WORK_DIR}/fake_booster.json"
                RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(r EQUAL 0 AND EXISTS "${WORK_DIR}/fake_booster.json")
  file(READ "${WORK_DIR}/fake_booster.json" report)
  string(JSON mode ERROR_VARIABLE json_error GET "${report}" mode)
endif()
if(NOT r EQUAL 0 OR NOT mode STREQUAL "Damping")
  message(FATAL_ERROR "the installed praxis-fake-booster did not run for a second (exit ${r}): ${out}")
endif()

# run_story(NAME PROGRAM ARGS... -- FAKE ARGS...): PROGRAM against FAKE, both from the install; the
# program's exit status must be 0 and the fake's report is left in <NAME>_report (its JSON text).
function(run_story name)
  set(report_file "${WORK_DIR}/${name}.json")
  list(FIND ARGN -- split)
  list(SUBLIST ARGN 0 ${split} program)
  math(EXPR after "${split} + 1")
  list(SUBLIST ARGN ${after} -1 fake)
  execute_process(COMMAND bash "${CMAKE_CURRENT_LIST_DIR}/run_against_fake.sh" "${report_file}" ${fake} -- ${program}
                  RESULT_VARIABLE r OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message(STATUS "${name}: exit ${r}\n${out}")
  if(NOT r EQUAL 0)
    message(FATAL_ERROR "${name}: the consumer against the installed fake robot failed (exit ${r})")
  endif()
  file(READ "${report_file}" report)
  set(${name}_report "${report}" PARENT_SCOPE)
endfunction()

# json_number(OUT JSON KEY...): the number at KEY... (the error text when it is missing).
function(json_number out json)
  string(JSON value ERROR_VARIABLE error GET "${json}" ${ARGN})
  if(error)
    set(value "${error}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# Fourier GR-2 through Aurora: PdStand until stable, UserCmd, back to PdStand (state 2) at the end,
# and no rule of the robot's state machine broken on the way.
run_story(aurora "${WORK_DIR}/build/consumer_aurora" "${prefix}/share/praxis/params/gr2" 226 ${seconds}
          -- "${prefix}/bin/praxis-fake-aurora" --robot gr2 --domain 226 --interface lo --stable-after 0.5)
json_number(violations "${aurora_report}" violations_total)
json_number(state "${aurora_report}" state)
if(NOT violations STREQUAL "0" OR NOT state STREQUAL "2")
  message(FATAL_ERROR "the fake Aurora ended with violations_total ${violations} and state ${state} "
                      "(expected 0 and PdStand, 2): ${aurora_report}")
endif()

# Walker Tienkung Pro: every limb's commands accepted, nothing left turning in velocity mode.
run_story(tienkung "${WORK_DIR}/build/consumer_tienkung" "${prefix}/share/praxis/params/pro" 227 ${seconds}
          -- "${prefix}/bin/praxis-fake-tienkung" --robot pro --domain 227 --interface lo)
string(JSON limb_count LENGTH "${tienkung_report}" limbs)
set(applied 0)
set(problems "")
math(EXPR last "${limb_count} - 1")
foreach(i RANGE ${last})
  string(JSON limb MEMBER "${tienkung_report}" limbs ${i})
  foreach(topic IN ITEMS cmd_ctrl cmd_vel cmd_pos)
    foreach(reason IN ITEMS unknown_motor_id wrong_limb non_finite)
      json_number(n "${tienkung_report}" limbs ${limb} ${topic} rejected ${reason})
      if(NOT n STREQUAL "0")
        list(APPEND problems "${limb} ${topic} rejected ${reason}: ${n}")
      endif()
    endforeach()
  endforeach()
  json_number(n "${tienkung_report}" limbs ${limb} cmd_ctrl applied)
  if(n MATCHES "^[0-9]+$")
    math(EXPR applied "${applied} + ${n}")
  endif()
endforeach()
if(applied EQUAL 0)
  list(APPEND problems "no cmd_ctrl sample applied")
endif()
foreach(key IN ITEMS turning_at_exit velocity_mode_at_exit)
  string(JSON motors ERROR_VARIABLE error LENGTH "${tienkung_report}" ${key})
  if(NOT motors STREQUAL "0")
    list(APPEND problems "${key}: ${motors} motors")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "the fake Tienkung: ${problems}: ${tienkung_report}")
endif()

string(TIMESTAMP ended "%s")
math(EXPR total "${ended} - ${started}")
message(STATUS "the installed package worked for the consumer, the fake robots and the example "
               "controller (${total} s; ${applied} cmd_ctrl samples applied by the fake Tienkung)")
