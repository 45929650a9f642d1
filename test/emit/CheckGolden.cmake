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
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/FerryGolden.cmake)
ferry_compare_golden("${actual}" "${EXPECTED}" "${OUTPUT}.normalised")
