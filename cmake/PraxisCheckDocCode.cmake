# Checks that a document shows a program exactly as the file the build compiles: the first ```cpp
# block after the line HEADING in DOC must equal CODE byte for byte, and HEADING must be DOC's first
# "## " section. With -DUPDATE=ON the block is rewritten from CODE instead.
#
#   cmake -DDOC=docs/backends/unitree.md -DCODE=examples/first_programs/unitree.cpp
#         [-DHEADING="## Your first program"] [-DUPDATE=ON] -P cmake/PraxisCheckDocCode.cmake
if(NOT DEFINED HEADING)
  set(HEADING "## Your first program")
endif()
file(READ "${DOC}" doc)
file(READ "${CODE}" code)

string(FIND "${doc}" "\n${HEADING}\n" heading_at)
if(heading_at EQUAL -1)
  message(FATAL_ERROR "${DOC}: no line \"${HEADING}\"")
endif()
string(FIND "${doc}" "\n## " first_section)
if(NOT first_section EQUAL heading_at)
  message(FATAL_ERROR "${DOC}: \"${HEADING}\" must be the first section, right after the title")
endif()

# The block: from after the "```cpp" line to the newline before the closing "```" (kept: CODE ends
# with one).
string(SUBSTRING "${doc}" ${heading_at} -1 after_heading)
string(FIND "${after_heading}" "\n```cpp\n" open)
if(open EQUAL -1)
  message(FATAL_ERROR "${DOC}: no ```cpp block after \"${HEADING}\"")
endif()
math(EXPR begin "${heading_at} + ${open} + 8")  # 8: "\n```cpp\n"
string(SUBSTRING "${doc}" ${begin} -1 from_block)
string(FIND "${from_block}" "\n```\n" close)
if(close EQUAL -1)
  message(FATAL_ERROR "${DOC}: the ```cpp block after \"${HEADING}\" is not closed")
endif()
math(EXPR length "${close} + 1")
string(SUBSTRING "${from_block}" 0 ${length} block)

if("${block}" STREQUAL "${code}")
  return()
endif()
if(UPDATE)
  math(EXPR end "${begin} + ${length}")
  string(SUBSTRING "${doc}" 0 ${begin} head)
  string(SUBSTRING "${doc}" ${end} -1 tail)
  file(WRITE "${DOC}" "${head}${code}${tail}")
  message(STATUS "${DOC}: the program under \"${HEADING}\" is now ${CODE}")
  return()
endif()
message(FATAL_ERROR "${DOC}: the program under \"${HEADING}\" differs from ${CODE}, which the build compiles "
                    "and the tests run. Copy the file into the document with\n"
                    "  cmake -DDOC=${DOC} -DCODE=${CODE} -DUPDATE=ON -P ${CMAKE_CURRENT_LIST_FILE}")
