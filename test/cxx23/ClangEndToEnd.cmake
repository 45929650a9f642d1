# cmake -P script: the end-to-end test of a C++23 program (CMakeLists.txt).
# MODE=golden: `ferry rewrite` of SOURCE compared with EXPECTED.ferry.cpp
# and EXPECTED.cl (FerryGolden). MODE=run: the program and its rewrite built
# with CXX against the runtime, then run by FerryCompareRuns with the
# expectations of SOURCE's `// ferry-test:` lines.
#
#   -DMODE=run|golden -DFERRY=tool -DCXX=clang++ -DSOURCE=file
#   -DRUNTIME=<the runtime library> -DINCLUDE=<runtime/include>
#   -DWORK_DIR=dir -DEXPECTED=<dir>/<stem> -DSOURCE_ROOT=<checkout>
#   -DTESTING_DIR=<Ferry's cmake/>

function(run_or_fail what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}${err}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
get_filename_component(stem ${SOURCE} NAME_WE)
set(flags -std=c++23 -I${INCLUDE})
set(rewritten ${WORK_DIR}/${stem})
run_or_fail("ferry rewrite" ${FERRY} rewrite ${SOURCE} -o ${rewritten}.ferry.cpp
            --cl ${rewritten}.cl -- ${flags})

if(MODE STREQUAL "golden")
  run_or_fail("the golden comparison" ${CMAKE_COMMAND} -DGENERATED=${rewritten}
              -DEXPECTED=${EXPECTED} -DSOURCE_ROOT=${SOURCE_ROOT}
              -P ${TESTING_DIR}/FerryCompareGolden.cmake)
  return()
endif()

# As ferry::runtime's users link it (its INTERFACE link option included),
# warning-free as ferry_add_end_to_end requires.
foreach(build "${SOURCE};reference" "${rewritten}.ferry.cpp;rewritten")
  list(GET build 0 source)
  list(GET build 1 exe)
  run_or_fail("${CXX} on ${source}" ${CXX} ${flags} -O1 -Wall -Wextra -Werror
              ${source} -o ${WORK_DIR}/${exe} ${RUNTIME} -lOpenCL
              -Wl,--undefined=ferry_error_reporting_installed)
endforeach()

file(STRINGS "${SOURCE}" directives REGEX "^// ferry-test: ")
set(expectations "")
foreach(line IN LISTS directives)
  string(REGEX REPLACE "^// ferry-test: *" "" line "${line}")
  separate_arguments(words UNIX_COMMAND "${line}")
  if(words STREQUAL "golden")
    continue()
  endif()
  while(words)
    list(POP_FRONT words k v)
    string(TOUPPER "${k}" k)
    list(APPEND expectations "-D${k}=${v}")
  endwhile()
endforeach()
run_or_fail("the runs" ${CMAKE_COMMAND} -DREFERENCE=${WORK_DIR}/reference
            -DREWRITTEN=${WORK_DIR}/rewritten -DWORK_DIR=${WORK_DIR}/runs
            ${expectations} -P ${TESTING_DIR}/FerryCompareRuns.cmake)
