# Regenerates the motion pipeline DOT with the demo and compares it with the committed copy.
execute_process(COMMAND "${DEMO}" --robot g1 --dot "${OUT}" RESULT_VARIABLE r OUTPUT_QUIET)
if(NOT r EQUAL 0)
  message(FATAL_ERROR "praxis_motion_demo failed (${r})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUT}" "${EXPECTED}" RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "${EXPECTED} is out of date: regenerate it with\n  praxis_motion_demo --robot g1 --dot ${EXPECTED}\n(and docs/motion_pipeline.svg with: dot -Tsvg docs/motion_pipeline.dot > docs/motion_pipeline.svg)")
endif()
