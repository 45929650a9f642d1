# cmake -P script behind the MPI end-to-end tests (ferry_add_mpi_end_to_end
# in FerryTesting.cmake): runs the reference execution and the rewritten
# program as MPI jobs through LAUNCHER (`mpiexec -n RANKS …`), the rewritten
# one with every rank on PoCL (FERRY_DEVICE=cpu:local-rank) under all three
# policies. The outputs must be identical, no run may write to standard
# error, and each rank with expectations must have moved exactly what they
# say in the planned run.
#
# Each rank writes its own statistics file and keeps its own PoCL kernel
# cache (emptied first, so that the first build really runs and shows what
# it prints): every rank starts through `sh -c`, which names both after the
# rank the launcher gives it (OMPI_COMM_WORLD_RANK under Open MPI, PMI_RANK
# under MPICH). That is also how a user gets per-rank statistics
# (docs/mpi.md).
#
#   -DREFERENCE_PROGRAM=exe -DREWRITTEN_PROGRAM=exe -DLAUNCHER="mpiexec;-n;2"
#   -DRANKS=n -DARGS="a;b" -DWORK_DIR=dir
#   [-DRANK<r>_<KEY>=n ...]   KEY: TO_DEVICE, TO_DEVICE_BYTES, FROM_DEVICE,
#     FROM_DEVICE_BYTES, DISPATCHES, FILLS, FILL_BYTES, PARTIAL_TO_DEVICE,
#     PARTIAL_TO_DEVICE_BYTES, PARTIAL_FROM_DEVICE, PARTIAL_FROM_DEVICE_BYTES

cmake_minimum_required(VERSION 3.21) # script mode: today's policies
include(${CMAKE_CURRENT_LIST_DIR}/FerryRunChecks.cmake)

set(wrapper [=[rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
if [ -n "$FERRY_TEST_STATS" ]; then
  FERRY_STATS=$FERRY_TEST_STATS.rank$rank.json
  export FERRY_STATS
fi
POCL_CACHE_DIR=$FERRY_TEST_POCL_CACHE.rank$rank
export POCL_CACHE_DIR
exec "$@"]=])

# Runs `exe` as a job; its output in out_var. With `stats` set, rank r
# writes its statistics to <stats>.rank<r>.json.
function(run_job exe policy out_var stats)
  set(ENV{FERRY_DEVICE} cpu:local-rank)
  set(ENV{FERRY_POLICY} ${policy})
  unset(ENV{FERRY_STATS})
  unset(ENV{FERRY_TRACE})
  set(ENV{FERRY_TEST_STATS} "${stats}")
  set(ENV{FERRY_TEST_POCL_CACHE} ${pocl_cache})
  # CI runs as root; Open MPI's mpiexec refuses to, unless told.
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
  foreach(r RANGE 1 ${RANKS})
    math(EXPR rank "${r} - 1")
    file(REMOVE "${stats}.rank${rank}.json")
  endforeach()
  execute_process(COMMAND ${LAUNCHER} sh -c "${wrapper}" sh ${exe} ${ARGS}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
    WORKING_DIRECTORY ${WORK_DIR} TIMEOUT 100)
  set(run "${LAUNCHER} ${exe} ${ARGS} (FERRY_POLICY=${policy})")
  ferry_require_quiet_success("${run}" "${rc}" "${out}" "${err}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY ${WORK_DIR})
get_filename_component(name ${REWRITTEN_PROGRAM} NAME)
set(stats "${WORK_DIR}/${name}.stats")
set(pocl_cache "${WORK_DIR}/${name}.pocl-cache")
foreach(r RANGE 1 ${RANKS})
  math(EXPR rank "${r} - 1")
  file(REMOVE_RECURSE "${pocl_cache}.rank${rank}")
  file(MAKE_DIRECTORY "${pocl_cache}.rank${rank}")
endforeach()

run_job(${REFERENCE_PROGRAM} planned expected "")
if(expected STREQUAL "")
  message(FATAL_ERROR "the reference execution printed nothing")
endif()
message(STATUS "reference output:\n${expected}")
foreach(policy naive kernel planned)
  run_job(${REWRITTEN_PROGRAM} ${policy} actual "${stats}.${policy}")
  if(NOT actual STREQUAL expected)
    file(WRITE "${WORK_DIR}/${name}.${policy}.out" "${actual}")
    file(WRITE "${WORK_DIR}/${name}.reference.out" "${expected}")
    message(FATAL_ERROR "FERRY_POLICY=${policy}: output differs from the "
      "reference execution; see ${WORK_DIR}/${name}.{reference,${policy}}.out")
  endif()
endforeach()

# Each rank's statistics: printed for every policy (`ctest -V` shows what
# each moved), checked for the planned run.
set(keys TO_DEVICE|to_device|count TO_DEVICE_BYTES|to_device|bytes
         FROM_DEVICE|from_device|count FROM_DEVICE_BYTES|from_device|bytes
         DISPATCHES|dispatches| FILLS|fills|count FILL_BYTES|fills|bytes
         PARTIAL_TO_DEVICE|partial_to_device|count
         PARTIAL_TO_DEVICE_BYTES|partial_to_device|bytes
         PARTIAL_FROM_DEVICE|partial_from_device|count
         PARTIAL_FROM_DEVICE_BYTES|partial_from_device|bytes)
set(wrong "")
foreach(r RANGE 1 ${RANKS})
  math(EXPR rank "${r} - 1")
  foreach(policy naive kernel planned)
    set(file "${stats}.${policy}.rank${rank}.json")
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "rank ${rank} (FERRY_POLICY=${policy}) wrote no "
        "statistics to ${file}")
    endif()
    file(READ "${file}" json)
    set(line "")
    foreach(key IN LISTS keys)
      string(REPLACE "|" ";" parts "${key}")
      list(GET parts 0 var)
      list(GET parts 1 field)
      list(GET parts 2 sub)
      if(sub STREQUAL "")
        string(JSON value GET "${json}" ${field})
      else()
        string(JSON value GET "${json}" ${field} ${sub})
      endif()
      string(TOLOWER "${var}" lower)
      string(APPEND line " ${lower} ${value}")
      if(policy STREQUAL "planned" AND DEFINED RANK${rank}_${var}
         AND NOT value EQUAL RANK${rank}_${var})
        string(APPEND wrong "\n  rank ${rank} ${lower}: expected "
          "${RANK${rank}_${var}}, the planned run did ${value}")
      endif()
    endforeach()
    message(STATUS "rank ${rank} ${policy}:${line}")
  endforeach()
endforeach()
if(NOT wrong STREQUAL "")
  message(FATAL_ERROR "the planned run's statistics differ from the hand-"
    "worked ones:${wrong}")
endif()
