# cmake -P script: would the .deb install on a fresh Debian 12? apt resolves
# its Depends against this machine's package lists as if nothing at all were
# installed (an empty dpkg status), without installing anything.
#
#   -DWORK_DIR=<where install.deb left ferry_*.deb>

cmake_minimum_required(VERSION 3.21) # script mode: today's policies (IN_LIST)

file(GLOB deb ${WORK_DIR}/ferry_*.deb)
if(NOT deb)
  message(FATAL_ERROR "no ferry_*.deb in ${WORK_DIR} (install.deb makes it)")
endif()
execute_process(COMMAND apt-cache show libclang-cpp19
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
  message("skipped: no apt package lists here (apt-get update makes them)")
  return()
endif()
execute_process(
  COMMAND apt-get install --simulate --no-install-recommends
    -o Dir::State::status=/dev/null ${deb}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "Conf ferry ")
  message(FATAL_ERROR "apt cannot install ${deb} on an empty system:\n${out}\n${err}")
endif()
message(STATUS "apt would install ${deb} on an empty Debian system")
