# cmake -P script: `ferry <subcommand>` (emit unless SUBCOMMAND says) on an
# input it must reject, checked against
# the input's own directives:
#
#   // CHECK: 12:5: error: recursion ('fact' calls itself
#   // CHECK-NOTE: 20:10: note: in helper 'fact', called from kernel 'k'
#
# Each directive names line:col and the start of the message, and must
# appear as `<file>:<line>:<col>: <severity>: <message...>`. The tool must
# fail without crashing and report exactly as many errors as there are
# CHECK lines (notes may be more than the CHECK-NOTE lines).
#
#   -DFERRY=<tool> [-DSUBCOMMAND=rewrite] -DINPUT=<file> -DOUTPUT=<file>
#   -DFLAGS="a;b" [-DCHECK_FILE=<file>]
#
# CHECK_FILE (a header INPUT includes) holds the directives instead, and
# the diagnostics must be located in it.

if(NOT SUBCOMMAND)
  set(SUBCOMMAND emit)
endif()
if(NOT CHECK_FILE)
  set(CHECK_FILE "${INPUT}")
endif()

file(STRINGS "${CHECK_FILE}" directives REGEX "// CHECK(-NOTE)?: ")
if(NOT directives)
  message(FATAL_ERROR "${CHECK_FILE} has no // CHECK: directive")
endif()
get_filename_component(out_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${out_dir}")
execute_process(
  COMMAND ${FERRY} ${SUBCOMMAND} ${INPUT} -o ${OUTPUT} -- ${FLAGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "ferry accepted ${INPUT}; expected it to fail:\n${err}")
endif()
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "ferry ended with ${rc} (a crash?) on ${INPUT}:\n${err}")
endif()
set(expected_errors 0)
foreach(line IN LISTS directives)
  string(REGEX REPLACE ".*// CHECK(-NOTE)?: *" "" check "${line}")
  string(FIND "${err}" "${CHECK_FILE}:${check}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing diagnostic `${CHECK_FILE}:${check}` in:\n${err}")
  endif()
  if(NOT line MATCHES "// CHECK-NOTE: ")
    math(EXPR expected_errors "${expected_errors} + 1")
  endif()
endforeach()
string(REGEX MATCHALL ": error: " errors "${err}")
list(LENGTH errors actual_errors)
if(NOT actual_errors EQUAL expected_errors)
  message(FATAL_ERROR
    "expected ${expected_errors} error(s), got ${actual_errors}:\n${err}")
endif()
