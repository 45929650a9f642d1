# cmake -P script: configures test/cmake/project against this checkout with
# the already-built tool, builds it, runs it, and checks that the rewrite
# re-runs when (and only when) the file or a header it includes changes.
#   -DFERRY=<tool> -DFERRY_SOURCE_DIR=<checkout> -DWORK_DIR=<scratch dir>

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed:\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(expect_rewrite expected what)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -- -n)
  string(FIND "${out}" "Ferry: rewriting" at)
  if(expected AND at EQUAL -1)
    message(FATAL_ERROR "after ${what}, the build does not rewrite main.cpp:\n${out}")
  elseif(NOT expected AND NOT at EQUAL -1)
    message(FATAL_ERROR "after ${what}, the build rewrites main.cpp again:\n${out}")
  endif()
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(COPY ${FERRY_SOURCE_DIR}/test/cmake/project/ DESTINATION ${WORK_DIR}/src)
run(${CMAKE_COMMAND} -S ${WORK_DIR}/src -B ${WORK_DIR}/build -G Ninja
    -DFERRY_SOURCE_DIR=${FERRY_SOURCE_DIR} -DFERRY_BUILD_TOOL=OFF
    -DFERRY_EXECUTABLE=${FERRY})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)

set(ENV{FERRY_DEVICE} cpu)
set(ENV{FERRY_POLICY} planned)
run(${WORK_DIR}/build/app)
if(NOT out STREQUAL "3 6 9 (C++20)\n")
  message(FATAL_ERROR "the rewritten fixture printed: ${out}")
endif()

expect_rewrite(OFF "a full build")
file(TOUCH ${WORK_DIR}/src/include/unrelated.h)
expect_rewrite(OFF "touching a header main.cpp does not include")
file(TOUCH ${WORK_DIR}/src/include/scale.h)
expect_rewrite(ON "touching a header main.cpp includes")
file(TOUCH ${WORK_DIR}/src/main.cpp)
expect_rewrite(ON "touching main.cpp")
