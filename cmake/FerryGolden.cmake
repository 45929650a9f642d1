# Included by the golden-test scripts (cmake -P): one way to compare a tool
# output with its expectation in the tree.
#
# ferry_compare_golden(<text> <expected file> <where to leave the actual>)
#
# The checkout's absolute path (SOURCE_ROOT, in #line markers and reports)
# is written as @FERRY_SOURCE_ROOT@. With FERRY_UPDATE_GOLDEN=1 in the
# environment the expectation is rewritten instead (test/update-golden.sh);
# otherwise a difference fails with the diff command to read it.

function(ferry_compare_golden text expected actual_copy)
  string(REPLACE "${SOURCE_ROOT}" "@FERRY_SOURCE_ROOT@" text "${text}")
  if("$ENV{FERRY_UPDATE_GOLDEN}" STREQUAL "1")
    file(WRITE "${expected}" "${text}")
    message(STATUS "updated ${expected}")
    return()
  endif()
  if(NOT EXISTS "${expected}")
    message(FATAL_ERROR "${expected} is missing\n"
      "(create it on purpose with test/update-golden.sh)")
  endif()
  file(READ "${expected}" wanted)
  if(NOT text STREQUAL wanted)
    file(WRITE "${actual_copy}" "${text}")
    message(FATAL_ERROR "differs: diff -u ${expected} ${actual_copy}\n"
      "(update on purpose with test/update-golden.sh)")
  endif()
endfunction()
