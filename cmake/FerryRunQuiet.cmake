# cmake -P script: runs one program on PoCL and fails if it fails or writes
# anything to standard error (a device compiler's warnings, a runtime
# message). The kernel cache is made empty first, so that the program's
# OpenCL build really runs and shows whatever it prints: PoCL prints the
# build's "N warnings generated." on a first build only.
#
#   -DPROGRAM=exe [-DARGS="a;b"] -DWORK_DIR=dir

file(MAKE_DIRECTORY ${WORK_DIR})
get_filename_component(name ${PROGRAM} NAME)
set(cache "${WORK_DIR}/${name}.pocl-cache")
file(REMOVE_RECURSE ${cache})
file(MAKE_DIRECTORY ${cache})
set(ENV{POCL_CACHE_DIR} ${cache})
set(ENV{FERRY_DEVICE} cpu)
execute_process(COMMAND ${PROGRAM} ${ARGS}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
  WORKING_DIRECTORY ${WORK_DIR})
message("${out}")
include(${CMAKE_CURRENT_LIST_DIR}/FerryRunChecks.cmake)
ferry_require_quiet_success("${PROGRAM}" "${rc}" "" "${err}")
