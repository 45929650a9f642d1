# cmake -P script: compares a rewritten source and its OpenCL C, as the build
# produced them, with the expectations kept in the tree. Absolute paths of the
# checkout (in #line markers) are written as @FERRY_SOURCE_ROOT@. With
# FERRY_UPDATE_GOLDEN=1 in the environment it rewrites the expectations
# instead (test/update-golden.sh).
#
#   -DGENERATED=<build dir>/ferry/<target>/<stem> -DEXPECTED=<dir>/<name>
#   -DSOURCE_ROOT=<checkout>

set(failed "")
foreach(ext ferry.cpp cl)
  file(READ "${GENERATED}.${ext}" actual)
  string(REPLACE "${SOURCE_ROOT}" "@FERRY_SOURCE_ROOT@" actual "${actual}")
  if("$ENV{FERRY_UPDATE_GOLDEN}" STREQUAL "1")
    file(WRITE "${EXPECTED}.${ext}" "${actual}")
    message(STATUS "updated ${EXPECTED}.${ext}")
    continue()
  endif()
  if(NOT EXISTS "${EXPECTED}.${ext}")
    list(APPEND failed "${EXPECTED}.${ext} is missing")
    continue()
  endif()
  file(READ "${EXPECTED}.${ext}" expected)
  if(NOT actual STREQUAL expected)
    file(WRITE "${GENERATED}.${ext}.normalised" "${actual}")
    list(APPEND failed
      "${ext} differs: diff -u ${EXPECTED}.${ext} ${GENERATED}.${ext}.normalised")
  endif()
endforeach()
if(failed)
  string(REPLACE ";" "\n" failed "${failed}")
  message(FATAL_ERROR "${failed}\n(update on purpose with test/update-golden.sh)")
endif()
