# cmake -P script: `ferry rewrite` on an input the race lint looks at.
#
#   MODE=warn: the input carries its expected diagnostics,
#     // CHECK: 12:5: warning: data race: every work-item
#     // CHECK-NOTE: 20:10: note: in 'store', called from kernel 'k' here
#   each of which must appear as `<file>:<line>:<col>: <severity>: <text...>`;
#   the tool must succeed, print exactly as many warnings as there are CHECK
#   lines, and write the same rewritten file with -Wno-ferry-race, which
#   must print nothing.
#   MODE=silent: the tool must succeed and print nothing at all.
#
#   -DFERRY=<tool> -DMODE=warn|silent -DINPUT=<file> -DOUTPUT=<file>
#   -DFLAGS="a;b"

get_filename_component(out_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${out_dir}")

function(run_ferry output extra)
  execute_process(
    COMMAND ${FERRY} rewrite ${INPUT} -o ${output} ${extra} -- ${FLAGS}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ferry failed (${rc}) on ${INPUT}; warnings must not "
                        "fail the build:\n${err}")
  endif()
  set(err "${err}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "silent")
  run_ferry(${OUTPUT} "")
  if(NOT err STREQUAL "")
    message(FATAL_ERROR "expected no diagnostics on ${INPUT}, got:\n${err}")
  endif()
  return()
endif()

file(STRINGS "${INPUT}" directives REGEX "// CHECK(-NOTE)?: ")
if(NOT directives)
  message(FATAL_ERROR "${INPUT} has no // CHECK: directive")
endif()
run_ferry(${OUTPUT} "")
set(expected 0)
foreach(line IN LISTS directives)
  string(REGEX REPLACE ".*// CHECK(-NOTE)?: *" "" check "${line}")
  string(FIND "${err}" "${INPUT}:${check}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing diagnostic `${INPUT}:${check}` in:\n${err}")
  endif()
  if(NOT line MATCHES "// CHECK-NOTE: ")
    math(EXPR expected "${expected} + 1")
  endif()
endforeach()
string(REGEX MATCHALL ": warning: " warnings "${err}")
list(LENGTH warnings actual)
if(NOT actual EQUAL expected)
  message(FATAL_ERROR "expected ${expected} warning(s), got ${actual}:\n${err}")
endif()
if(err MATCHES ": error: ")
  message(FATAL_ERROR "expected warnings only, got an error:\n${err}")
endif()

# The flag silences them, and the rewritten program is the same either way.
run_ferry(${OUTPUT}.quiet.cpp "-Wno-ferry-race")
if(NOT err STREQUAL "")
  message(FATAL_ERROR "-Wno-ferry-race still printed:\n${err}")
endif()
file(READ ${OUTPUT} loud)
file(READ ${OUTPUT}.quiet.cpp quiet)
if(NOT loud STREQUAL quiet)
  message(FATAL_ERROR "the warnings changed the rewritten output of ${INPUT}")
endif()
