# cmake -P script behind the tests of programs that must fail well: given a
# bad setting or bad arguments, the program exits with status 1 (not an
# abort's 134, nor a crash), and its first line on standard error is the
# expected one (or starts with the expected text); with EXPECT_LINES, there
# are exactly that many lines. With STATS, the run has FERRY_STATS set and
# must still write it. Runs on PoCL unless ENVIRONMENT says otherwise.
#
#   -DPROGRAM=exe [-DARGS="a;b"] [-DENVIRONMENT="NAME=value;..."]
#   -DEXPECT_FIRST_LINE=<text> | -DEXPECT_FIRST_LINE_PREFIX=<text>
#   [-DEXPECT_LINES=n] [-DEXPECT_SECOND_LINE_PREFIX=<text>] [-DSTATS=ON]
#   -DWORK_DIR=dir

cmake_minimum_required(VERSION 3.21) # script mode: today's policies (IN_LIST)

file(MAKE_DIRECTORY ${WORK_DIR})
get_filename_component(name ${PROGRAM} NAME)
set(ENV{POCL_CACHE_DIR} ${WORK_DIR}/${name}.pocl-cache)
set(ENV{FERRY_DEVICE} cpu)
foreach(setting IN LISTS ENVIRONMENT)
  string(REGEX MATCH "^([^=]+)=(.*)$" _ "${setting}")
  set(ENV{${CMAKE_MATCH_1}} "${CMAKE_MATCH_2}")
endforeach()
# One file per case: the cases of one program (bad_policy, bad_device, ...)
# run in parallel, and one's REMOVE must not take another's statistics.
string(MD5 case "${ENVIRONMENT};${ARGS}")
set(stats ${WORK_DIR}/${name}.${case}.failure-stats.json)
file(REMOVE ${stats})
if(STATS)
  set(ENV{FERRY_STATS} ${stats})
endif()

execute_process(COMMAND ${PROGRAM} ${ARGS}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
  WORKING_DIRECTORY ${WORK_DIR})
set(run "${name} ${ARGS} (${ENVIRONMENT})")
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "${run} ended with ${rc}, not exit status 1:\n"
    "stdout:\n${out}\nstderr:\n${err}")
endif()

# Lines by hand, not as a CMake list: messages may hold semicolons.
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines count)
if(err STREQUAL "")
  message(FATAL_ERROR "${run} failed without a message on standard error")
endif()
string(FIND "${err}" "\n" end)
string(SUBSTRING "${err}" 0 ${end} first)
if(DEFINED EXPECT_FIRST_LINE AND NOT first STREQUAL EXPECT_FIRST_LINE)
  message(FATAL_ERROR "${run}: standard error begins\n  ${first}\n"
    "instead of\n  ${EXPECT_FIRST_LINE}\n(all of it:\n${err})")
endif()
if(DEFINED EXPECT_FIRST_LINE_PREFIX)
  string(FIND "${first}" "${EXPECT_FIRST_LINE_PREFIX}" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "${run}: standard error begins\n  ${first}\n"
      "instead of with\n  ${EXPECT_FIRST_LINE_PREFIX}\n(all of it:\n${err})")
  endif()
endif()
if(DEFINED EXPECT_LINES AND NOT count EQUAL EXPECT_LINES)
  message(FATAL_ERROR "${run}: ${count} lines on standard error, not "
    "${EXPECT_LINES}:\n${err}")
endif()
if(DEFINED EXPECT_SECOND_LINE_PREFIX)
  math(EXPR after "${end} + 1")
  string(SUBSTRING "${err}" ${after} -1 rest)
  string(FIND "${rest}" "${EXPECT_SECOND_LINE_PREFIX}" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "${run}: standard error goes on\n${rest}\n"
      "instead of with a line starting ${EXPECT_SECOND_LINE_PREFIX}")
  endif()
endif()

if(STATS)
  if(NOT EXISTS ${stats})
    message(FATAL_ERROR "${run} failed without writing FERRY_STATS")
  endif()
  file(READ ${stats} json)
  string(JSON dispatches ERROR_VARIABLE bad GET "${json}" dispatches)
  if(bad)
    message(FATAL_ERROR "${run} wrote FERRY_STATS that are not the "
      "statistics: ${json}")
  endif()
endif()
message(STATUS "${run} failed as it should:\n${err}")
