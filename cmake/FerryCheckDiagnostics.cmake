# cmake -P script: runs `ferry <subcommand>` on an input that must be
# rejected, and checks its diagnostics against the input's own directives:
#
#   // CHECK: 12:5: error: a dispatch must be a statement of its own
#
# Each directive names line:col and the start of the message; every one must
# appear as `<file>:<line>:<col>: error: <message...>`, the tool must fail,
# and it must report no error the input does not expect.
#
#   -DFERRY=<tool> -DSUBCOMMAND=rewrite -DINPUT=<file> -DFLAGS="a;b"

file(STRINGS "${INPUT}" directives REGEX "// CHECK: ")
if(NOT directives)
  message(FATAL_ERROR "${INPUT} has no // CHECK: directive")
endif()
execute_process(
  COMMAND ${FERRY} ${SUBCOMMAND} ${INPUT} -o ${CMAKE_CURRENT_BINARY_DIR}/diagnostics.out -- ${FLAGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "ferry accepted ${INPUT}; expected it to fail:\n${err}")
endif()
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "ferry ended with ${rc} (a crash?) on ${INPUT}:\n${err}")
endif()
set(expected_count 0)
foreach(line IN LISTS directives)
  string(REGEX REPLACE ".*// CHECK: *" "" check "${line}")
  string(FIND "${err}" "${INPUT}:${check}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing diagnostic `${INPUT}:${check}` in:\n${err}")
  endif()
  math(EXPR expected_count "${expected_count} + 1")
endforeach()
string(REGEX MATCHALL ": error: " errors "${err}")
list(LENGTH errors actual_count)
if(NOT actual_count EQUAL expected_count)
  message(FATAL_ERROR "expected ${expected_count} error(s), got ${actual_count}:\n${err}")
endif()
