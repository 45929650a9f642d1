# cmake -P script: runs `ferry analyze` on one source and compares what it
# prints with the expectation kept in the tree (JSON must also parse). With
# FERRY_UPDATE_GOLDEN=1 in the environment it rewrites the expectation
# instead (test/update-golden.sh).
#
#   -DFERRY=<ferry> -DSOURCE=<file> -DFORMAT=text|json|dot
#   -DEXPECTED=<file> -DFLAGS=<;-list of compiler flags> -DSOURCE_ROOT=<checkout>

execute_process(
  COMMAND "${FERRY}" analyze "${SOURCE}" "--format=${FORMAT}" -- ${FLAGS}
  OUTPUT_VARIABLE actual ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ferry analyze failed (${rc}):\n${errors}")
endif()
if(FORMAT STREQUAL "json")
  string(JSON kind ERROR_VARIABLE json_error TYPE "${actual}")
  if(json_error)
    message(FATAL_ERROR "ferry analyze --format=json printed invalid JSON: ${json_error}")
  endif()
endif()
get_filename_component(name "${EXPECTED}" NAME)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/FerryGolden.cmake)
ferry_compare_golden("${actual}" "${EXPECTED}"
                     "${CMAKE_CURRENT_BINARY_DIR}/${name}.actual")
