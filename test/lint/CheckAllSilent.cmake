# cmake -P script: the race lint over the samples, or over one folder of
# outside ports, prints no warning (they are race-free, so any warning is a
# false alarm).
#
#   -DFERRY=<tool> -DSOURCE_DIR=<repository> -DOUTPUT_DIR=<dir>
#   -DGROUP=samples        each samples/<name>/*.cpp
#   -DGROUP=<suite>        every .cpp under test/suites/<suite>/

if(GROUP STREQUAL "samples")
  file(GLOB sources ${SOURCE_DIR}/samples/*/*.cpp)
else()
  file(GLOB_RECURSE sources ${SOURCE_DIR}/test/suites/${GROUP}/*.cpp)
endif()
list(LENGTH sources n_sources)
if(n_sources EQUAL 0)
  message(FATAL_ERROR "no sources found for '${GROUP}'")
endif()
file(MAKE_DIRECTORY ${OUTPUT_DIR})
set(warned "")
set(rejected "")
set(linted 0)
foreach(source IN LISTS sources)
  get_filename_component(name ${source} NAME_WE)
  execute_process(
    COMMAND ${FERRY} rewrite ${source} -o ${OUTPUT_DIR}/${name}.cpp --
      -std=c++17 -I${SOURCE_DIR}/runtime/include -I${SOURCE_DIR}/test/suites
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(err MATCHES "warning: ")
    string(APPEND warned "warning on ${source}:\n${err}\n")
  elseif(rc EQUAL 0)
    math(EXPR linted "${linted} + 1")
  else()
    # Its own end-to-end test reports why; the lint never saw it.
    list(APPEND rejected ${source})
  endif()
endforeach()
if(warned)
  message(FATAL_ERROR "${warned}")
endif()
if(linted EQUAL 0)
  message(FATAL_ERROR "ferry rewrote none of the sources: nothing was linted")
endif()
message(STATUS "${linted} of ${n_sources} sources of '${GROUP}' rewritten "
               "with no warning")
if(rejected)
  list(JOIN rejected "\n  " rejected)
  message(STATUS "not linted (ferry rejected them):\n  ${rejected}")
endif()
