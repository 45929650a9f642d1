# cmake -P script: a multi-file port's main.cpp must state the very transfer
# counts its one-file form states (its `ferry-test:` lines), so that the
# end-to-end tests of the two check the same bytes.
#   -DMULTI=<dir>/main.cpp -DONE=<suite>/<program>.cpp
foreach(which MULTI ONE)
  file(STRINGS "${${which}}" lines_${which} REGEX "^// ferry-test: ")
endforeach()
if(NOT lines_MULTI)
  message(FATAL_ERROR "${MULTI} states no transfer counts")
endif()
if(NOT lines_MULTI STREQUAL lines_ONE)
  message(FATAL_ERROR "${MULTI} states\n  ${lines_MULTI}\nbut its one-file "
    "form ${ONE} states\n  ${lines_ONE}")
endif()
