# cmake -P script: configures test/cmake/multiconfig with Ninja Multi-Config
# and the already-built tool, builds its Release configuration, and checks
# that the build type's -DNDEBUG reached that configuration's rewrite: the
# kernel's failing assert() is gone from the emitted OpenCL C, and the
# rewritten program prints what the reference prints (release_assert.cpp).
#   -DFERRY=<tool> -DFERRY_SOURCE_DIR=<checkout> -DWORK_DIR=<scratch dir>

cmake_minimum_required(VERSION 3.21)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} -S ${FERRY_SOURCE_DIR}/test/cmake/multiconfig
    -B ${WORK_DIR} -G "Ninja Multi-Config"
    -DFERRY_SOURCE_DIR=${FERRY_SOURCE_DIR} -DFERRY_BUILD_TOOL=OFF
    -DFERRY_EXECUTABLE=${FERRY})
run(${CMAKE_COMMAND} --build ${WORK_DIR} --config Release)

set(cl ${WORK_DIR}/ferry/app/Release/release_assert.cl)
if(NOT EXISTS ${cl})
  message(FATAL_ERROR "the Release rewrite did not write ${cl}")
endif()
file(READ ${cl} kernels)
if(kernels MATCHES "Assertion")
  message(FATAL_ERROR "the Release configuration's kernel still checks its "
    "assertion (the rewrite did not see -DNDEBUG):\n${kernels}")
endif()

set(ENV{FERRY_DEVICE} cpu)
run(${WORK_DIR}/Release/app_reference)
set(reference "${out}")
run(${WORK_DIR}/Release/app)
if(NOT out STREQUAL reference OR NOT err STREQUAL "")
  message(FATAL_ERROR "the rewritten Release program printed\n${out}${err}\n"
    "where its reference printed\n${reference}")
endif()
if(NOT reference MATCHES "out\\[5\\] = -10\n")
  message(FATAL_ERROR "unexpected output:\n${reference}")
endif()
