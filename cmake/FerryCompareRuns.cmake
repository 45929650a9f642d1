# cmake -P script behind Ferry's end-to-end tests: runs the reference
# execution and the rewritten program (on PoCL, under all three policies),
# requires identical output, and, when expected counts are given, requires
# the planned run's transfer statistics to equal them exactly. Every run must
# also be quiet: anything on standard error (a device compiler's warnings, a
# runtime message) fails the test. The statistics go to a file, so nothing
# on standard error is asked for. The OpenCL runs share a PoCL kernel cache
# made empty for this test, so the first run builds the program and shows
# whatever the build prints (a cached build prints nothing).
#
#   -DREFERENCE=exe -DREWRITTEN=exe -DARGS="a;b" -DWORK_DIR=dir
#   [-DTO_DEVICE=n -DFROM_DEVICE=n] [-DTO_DEVICE_BYTES=n -DFROM_DEVICE_BYTES=n]
#   [-DDISPATCHES=n] [-DFILLS=n -DFILL_BYTES=n]
#   [-DUNNAMED_FROM_DEVICE=n -DUNNAMED_FROM_DEVICE_BYTES=n]

include(${CMAKE_CURRENT_LIST_DIR}/FerryRunChecks.cmake)

function(run_program exe policy out_var stats_file)
  set(ENV{FERRY_DEVICE} cpu)
  set(ENV{FERRY_POLICY} ${policy})
  set(ENV{FERRY_STATS} ${stats_file})
  unset(ENV{FERRY_TRACE})
  set(ENV{POCL_CACHE_DIR} ${pocl_cache})
  execute_process(COMMAND ${exe} ${ARGS}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
    WORKING_DIRECTORY ${WORK_DIR})
  ferry_require_quiet_success("${exe} (FERRY_POLICY=${policy})" "${rc}"
    "${out}" "${err}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY ${WORK_DIR})
get_filename_component(name ${REWRITTEN} NAME)
set(stats "${WORK_DIR}/${name}.stats.json")
set(pocl_cache "${WORK_DIR}/${name}.pocl-cache")
file(REMOVE_RECURSE ${pocl_cache})
file(MAKE_DIRECTORY ${pocl_cache})

run_program(${REFERENCE} planned expected "")
foreach(policy naive kernel planned)
  run_program(${REWRITTEN} ${policy} actual "${stats}.${policy}")
  if(NOT actual STREQUAL expected)
    file(WRITE "${WORK_DIR}/${name}.${policy}.out" "${actual}")
    file(WRITE "${WORK_DIR}/${name}.reference.out" "${expected}")
    message(FATAL_ERROR "FERRY_POLICY=${policy}: output differs from the "
      "reference execution; see ${WORK_DIR}/${name}.{reference,${policy}}.out")
  endif()
endforeach()

file(READ "${stats}.planned" json)
string(JSON to_count GET "${json}" to_device count)
string(JSON to_bytes GET "${json}" to_device bytes)
string(JSON from_count GET "${json}" from_device count)
string(JSON from_bytes GET "${json}" from_device bytes)
string(JSON dispatches GET "${json}" dispatches)
string(JSON fill_count GET "${json}" fills count)
string(JSON fill_bytes GET "${json}" fills bytes)
string(JSON unnamed_count GET "${json}" unnamed_from_device count)
string(JSON unnamed_bytes GET "${json}" unnamed_from_device bytes)
message(STATUS "planned: to_device ${to_count} (${to_bytes} B), "
  "from_device ${from_count} (${from_bytes} B), dispatches ${dispatches}, "
  "fills ${fill_count} (${fill_bytes} B), "
  "unnamed_from_device ${unnamed_count} (${unnamed_bytes} B)")

# Fills (a copy in of a buffer still as made, done on the device) are
# expected to be 0 unless a test says otherwise: each one is worked out too.
if(DEFINED TO_DEVICE AND NOT DEFINED FILLS)
  set(FILLS 0)
endif()
# Likewise the safety net's copies home (buffers the plan could not name):
# a program whose every buffer the analysis names needs none.
if(DEFINED FROM_DEVICE AND NOT DEFINED UNNAMED_FROM_DEVICE)
  set(UNNAMED_FROM_DEVICE 0)
endif()
foreach(pair "TO_DEVICE;to_count" "FROM_DEVICE;from_count"
             "TO_DEVICE_BYTES;to_bytes" "FROM_DEVICE_BYTES;from_bytes"
             "DISPATCHES;dispatches" "FILLS;fill_count"
             "FILL_BYTES;fill_bytes" "UNNAMED_FROM_DEVICE;unnamed_count"
             "UNNAMED_FROM_DEVICE_BYTES;unnamed_bytes")
  list(GET pair 0 expected_var)
  list(GET pair 1 actual_var)
  if(DEFINED ${expected_var} AND NOT ${expected_var} STREQUAL "")
    if(NOT ${${expected_var}} EQUAL ${${actual_var}})
      message(FATAL_ERROR "${expected_var}: expected ${${expected_var}}, "
        "the planned run did ${${actual_var}}")
    endif()
  endif()
endforeach()
