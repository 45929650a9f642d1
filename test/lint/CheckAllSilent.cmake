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
set(failures "")
foreach(source IN LISTS samples ports)
  get_filename_component(name ${source} NAME_WE)
  execute_process(
    COMMAND ${FERRY} rewrite ${source} -o ${OUTPUT_DIR}/${name}.cpp --
      -std=c++17 -I${SOURCE_DIR}/runtime/include -I${SOURCE_DIR}/test/suites
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(APPEND failures "ferry failed (${rc}) on ${source}:\n${err}\n")
  elseif(err MATCHES "warning: ")
    string(APPEND failures "warning on ${source}:\n${err}\n")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
message(STATUS "${n_samples} samples and ${n_ports} ports: no warning")
