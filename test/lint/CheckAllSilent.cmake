# cmake -P script: the race lint over every sample and every outside port
# prints no warning (they are race-free, so any warning is a false alarm).
#
#   -DFERRY=<tool> -DSOURCE_DIR=<repository> -DOUTPUT_DIR=<dir>

file(GLOB samples ${SOURCE_DIR}/samples/*/*.cpp)
file(GLOB_RECURSE ports ${SOURCE_DIR}/test/suites/*.cpp)
list(LENGTH samples n_samples)
list(LENGTH ports n_ports)
if(n_samples EQUAL 0 OR n_ports EQUAL 0)
  message(FATAL_ERROR "no samples (${n_samples}) or ports (${n_ports}) found")
endif()
file(MAKE_DIRECTORY ${OUTPUT_DIR})
set(warned "")
set(rejected "")
set(linted 0)
foreach(source IN LISTS samples ports)
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
math(EXPR total "${n_samples} + ${n_ports}")
message(STATUS "${linted} of ${total} sources (${n_samples} samples, "
               "${n_ports} ports) rewritten with no warning")
if(rejected)
  list(JOIN rejected "\n  " rejected)
  message(STATUS "not linted (ferry rejected them):\n  ${rejected}")
endif()
