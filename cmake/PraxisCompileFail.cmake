# Run with cmake -P: compiles one source that must NOT compile, and checks that the compiler's
# output contains every line the source announces with "// expect: <words>".
#   -DCOMPILER=... -DSOURCE=... -DFLAGS="a;b" -DINCLUDES="dir1;dir2"
foreach(var COMPILER SOURCE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "PraxisCompileFail.cmake: ${var} is not set")
  endif()
endforeach()

file(STRINGS "${SOURCE}" expectations REGEX "^// expect: ")
if(NOT expectations)
  message(FATAL_ERROR "${SOURCE}: no '// expect: ' line says what the compiler must report")
endif()

set(include_flags)
foreach(dir IN LISTS INCLUDES)
  list(APPEND include_flags "-I${dir}")
endforeach()

execute_process(
  COMMAND ${COMPILER} ${FLAGS} ${include_flags} -fsyntax-only "${SOURCE}"
  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(log "${out}${err}")

if(result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must be rejected")
endif()
foreach(line IN LISTS expectations)
  string(REPLACE "// expect: " "" words "${line}")
  string(FIND "${log}" "${words}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${SOURCE}: compiler output lacks \"${words}\". Output was:\n${log}")
  endif()
endforeach()
# "// expect once: <words>": the words appear in exactly one error line of the output (a diagnostic
# that fires once, not once per place that checks the same thing; the compilers' echo of the source
# line is not counted).
file(STRINGS "${SOURCE}" once_expectations REGEX "^// expect once: ")
string(REPLACE ";" "," log_lines "${log}")
string(REPLACE "\n" ";" log_lines "${log_lines}")
foreach(line IN LISTS once_expectations)
  string(REPLACE "// expect once: " "" words "${line}")
  set(count 0)
  foreach(out_line IN LISTS log_lines)
    string(FIND "${out_line}" "${words}" at)
    string(FIND "${out_line}" "error" is_error)
    if(NOT at EQUAL -1 AND NOT is_error EQUAL -1)
      math(EXPR count "${count} + 1")
    endif()
  endforeach()
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "${SOURCE}: \"${words}\" is in ${count} error lines of the compiler output, expected exactly 1. Output was:\n${log}")
  endif()
endforeach()
message(STATUS "${SOURCE}: rejected with the expected diagnostics")
