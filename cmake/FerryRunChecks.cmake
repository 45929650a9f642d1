# Included by the cmake -P scripts that run programs for the tests
# (FerryCompareRuns, FerryCompareMpiRuns, FerryRunQuiet): a run must succeed
# and write nothing to standard error (a device compiler's warnings, a
# runtime message).
function(ferry_require_quiet_success what rc out err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed with ${rc}:\n${out}\n${err}")
  endif()
  if(NOT err STREQUAL "")
    message(FATAL_ERROR "${what} wrote to standard error, which a run must "
      "not:\n${err}")
  endif()
endfunction()
