# cmake -P script: installs this build (already built: nothing is compiled
# again) into a fresh prefix, then configures, builds and runs
# test/install/project, which finds that prefix with find_package(Ferry)
# alone. The rewritten program must print what its reference execution
# prints, on PoCL, having run its kernels through OpenCL.
#
#   -DBUILD_DIR=<Ferry's build> -DPROJECT_DIR=<test/install/project>
#   -DSOURCE_DIR=<Ferry's sources> -DWORK_DIR=<scratch> -DGENERATOR=<generator>

cmake_minimum_required(VERSION 3.21) # script mode: today's policies (IN_LIST)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

foreach(installed
    bin/ferry
    include/ferry/ferry.hpp
    lib/libferry_runtime.a
    lib/cmake/Ferry/FerryConfig.cmake
    lib/cmake/Ferry/FerryConfigVersion.cmake
    lib/cmake/Ferry/FerryTargets.cmake
    lib/cmake/Ferry/FerryTargetSources.cmake)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "cmake --install did not install ${installed}")
  endif()
endforeach()

# The installed tool finds the headers installed beside it, with no -I: the
# depfile names the ferry.hpp it parsed.
run(${prefix}/bin/ferry rewrite ${PROJECT_DIR}/main.cpp
    -o ${WORK_DIR}/direct.ferry.cpp --depfile ${WORK_DIR}/direct.d -- -std=c++17)
file(READ ${WORK_DIR}/direct.d depfile)
string(FIND "${depfile}" "${prefix}/include/ferry/ferry.hpp" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the installed tool did not parse the installed "
    "ferry.hpp; its depfile:\n${depfile}")
endif()

# The outside project: only CMAKE_PREFIX_PATH says where Ferry is.
run(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --verbose)
string(FIND "${out}" "${prefix}/bin/ferry rewrite" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the build did not rewrite with the installed tool:\n${out}")
endif()
string(FIND "${out}" "${SOURCE_DIR}/runtime" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "the outside build used Ferry's source tree:\n${out}")
endif()

set(ENV{FERRY_DEVICE} cpu)
set(ENV{POCL_CACHE_DIR} ${WORK_DIR}/pocl-cache)
file(MAKE_DIRECTORY ${WORK_DIR}/pocl-cache)
unset(ENV{FERRY_POLICY})
unset(ENV{FERRY_TRACE})
set(ENV{FERRY_STATS} ${WORK_DIR}/reference.json)
run(${WORK_DIR}/build/app_reference)
set(expected "${out}")
set(ENV{FERRY_STATS} ${WORK_DIR}/app.json)
run(${WORK_DIR}/build/app)
if(NOT err STREQUAL "")
  message(FATAL_ERROR "the rewritten program wrote to standard error:\n${err}")
endif()
if(NOT out STREQUAL expected OR expected STREQUAL "")
  message(FATAL_ERROR "the rewritten program printed\n${out}\nits reference "
    "execution\n${expected}")
endif()
file(READ ${WORK_DIR}/app.json stats)
string(JSON device GET "${stats}" device)
string(JSON dispatches GET "${stats}" dispatches)
if(NOT device MATCHES "Portable Computing Language" OR NOT dispatches EQUAL 10)
  message(FATAL_ERROR "the rewritten program did not run its 10 dispatches "
    "on PoCL: ${stats}")
endif()
message(STATUS "installed Ferry: app and app_reference both print ${out}")
