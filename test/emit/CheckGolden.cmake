# cmake -P script: `ferry emit` on a golden input, compared with the
# expected OpenCL C beside it. The checkout's absolute path (in #line
# markers) is written as @FERRY_SOURCE_ROOT@. With FERRY_UPDATE_GOLDEN=1 in
# the environment it rewrites the expectation instead (update-golden.sh).
#
#   -DFERRY=<tool> -DINPUT=<NAME.cpp> -DEXPECTED=<NAME.cl> -DOUTPUT=<file>
#   -DSOURCE_ROOT=<checkout> -DFLAGS="a;b"

get_filename_component(out_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${out_dir}")
execute_process(
  COMMAND ${FERRY} emit ${INPUT} -o ${OUTPUT} -- ${FLAGS}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ferry emit failed (${rc}) on ${INPUT}:\n${err}")
endif()
file(READ "${OUTPUT}" actual)
string(REPLACE "${SOURCE_ROOT}" "@FERRY_SOURCE_ROOT@" actual "${actual}")
if("$ENV{FERRY_UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE "${EXPECTED}" "${actual}")
  message(STATUS "updated ${EXPECTED}")
  return()
endif()
if(NOT EXISTS "${EXPECTED}")
  message(FATAL_ERROR "${EXPECTED} is missing (create it with test/emit/update-golden.sh)")
endif()
file(READ "${EXPECTED}" expected)
if(NOT actual STREQUAL expected)
  file(WRITE "${OUTPUT}.normalised" "${actual}")
  message(FATAL_ERROR "the OpenCL C differs: diff -u ${EXPECTED} ${OUTPUT}.normalised\n"
    "(update on purpose with test/emit/update-golden.sh)")
endif()
