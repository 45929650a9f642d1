# cmake -P script: configures test/cmake/multifile (one target, two Ferry
# sources added by two ferry_target_sources calls) against this checkout,
# builds and runs it, then edits b.cpp and checks what is rewritten again:
# b.cpp always; a.cpp only when b's summary changed.
#   -DFERRY=<tool> -DFERRY_SOURCE_DIR=<checkout> -DWORK_DIR=<scratch dir>

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed:\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# Builds, and requires exactly the rewrites `expected` (a list of a.cpp,
# b.cpp) to run.
function(expect_rewrites what)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  foreach(file a.cpp b.cpp)
    string(FIND "${out}" "Ferry: rewriting ${file} for app" at)
    list(FIND ARGN ${file} wanted)
    if(wanted EQUAL -1 AND NOT at EQUAL -1)
      message(FATAL_ERROR "after ${what}, the build rewrites ${file} again:\n${out}")
    elseif(NOT wanted EQUAL -1 AND at EQUAL -1)
      message(FATAL_ERROR "after ${what}, the build does not rewrite ${file}:\n${out}")
    endif()
  endforeach()
endfunction()

function(edit_b from to)
  file(READ ${WORK_DIR}/src/b.cpp text)
  string(FIND "${text}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "b.cpp has no '${from}'")
  endif()
  string(REPLACE "${from}" "${to}" text "${text}")
  file(WRITE ${WORK_DIR}/src/b.cpp "${text}")
endfunction()

function(expect_output expected)
  set(ENV{FERRY_DEVICE} cpu)
  set(ENV{FERRY_POLICY} planned)
  run(${WORK_DIR}/build/app)
  if(NOT out STREQUAL "${expected}")
    message(FATAL_ERROR "the rewritten fixture printed:\n${out}\nnot:\n${expected}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(COPY ${FERRY_SOURCE_DIR}/test/cmake/multifile/ DESTINATION ${WORK_DIR}/src)
run(${CMAKE_COMMAND} -S ${WORK_DIR}/src -B ${WORK_DIR}/build -G Ninja
    -DFERRY_SOURCE_DIR=${FERRY_SOURCE_DIR} -DFERRY_BUILD_TOOL=OFF
    -DFERRY_EXECUTABLE=${FERRY})
expect_rewrites("the first build" a.cpp b.cpp)
expect_output("2 4 6\n4 8 12\n")
# a.cpp's plan used b's summary: show() only reads v, so the device copy
# stays valid across it. (The entry's first line, cc.hostWrites(v) for a
# run that code Ferry does not plan may repeat, names no line.)
file(READ ${WORK_DIR}/build/ferry/app/a.ferry.cpp rewritten)
string(FIND "${rewritten}" "hostWrites(v); // ferry: line" stale)
if(NOT stale EQUAL -1)
  message(FATAL_ERROR "a.cpp takes show() to write v, which it only reads:\n${rewritten}")
endif()

expect_rewrites("a full build")
edit_b("// BODY" "// BODY, edited")
expect_rewrites("editing b.cpp without changing what it does to buffers" b.cpp)
edit_b("  // WRITE" "  v[0] += 1; // WRITE")
expect_rewrites("making show() write its buffer" a.cpp b.cpp)
# a.cpp now marks the device copy stale after show(), so the second step
# copies v in again.
expect_output("2 4 6\n6 8 12\n")
file(READ ${WORK_DIR}/build/ferry/app/a.ferry.cpp rewritten)
string(FIND "${rewritten}" "hostWrites(v); // ferry: line" stale)
if(stale EQUAL -1)
  message(FATAL_ERROR "a.cpp misses that show() now writes v:\n${rewritten}")
endif()
