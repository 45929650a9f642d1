# cmake -P script: compares a rewritten source and its OpenCL C, as the build
# produced them, with the expectations kept in the tree (see FerryGolden).
#
#   -DGENERATED=<build dir>/ferry/<target>/<stem> -DEXPECTED=<dir>/<stem>
#   -DSOURCE_ROOT=<checkout>

include(${CMAKE_CURRENT_LIST_DIR}/FerryGolden.cmake)
foreach(ext ferry.cpp cl)
  file(READ "${GENERATED}.${ext}" actual)
  ferry_compare_golden("${actual}" "${EXPECTED}.${ext}"
                       "${GENERATED}.${ext}.normalised")
endforeach()
