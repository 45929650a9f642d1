# cmake -P script: packages this build (already built) as a .deb with cpack,
# then checks what the package holds and that it declares what the tool
# needs: every shared library the packaged tool loads belongs to a package
# in Depends, and so do Clang's resource headers, which it parses with.
# The packaged tree must also work where it is unpacked.
#
#   -DBUILD_DIR=<Ferry's build> -DWORK_DIR=<scratch>
#   -DRESOURCE_DIR=<Clang's resource dir> -DPROJECT_DIR=<test/install/project>

cmake_minimum_required(VERSION 3.21) # script mode: today's policies (IN_LIST)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# The Debian package that owns a file, as dpkg names it: on a merged-/usr
# system a library may be known by its /lib path, its /usr/lib one, or the
# file a symlink points at.
function(owning_package file out_var)
  get_filename_component(real "${file}" REALPATH)
  set(names "")
  foreach(path "${file}" "${real}")
    string(REGEX REPLACE "^/usr/lib/" "/lib/" without_usr "${path}")
    string(REGEX REPLACE "^/lib/" "/usr/lib/" with_usr "${path}")
    list(APPEND names "${path}" "${without_usr}" "${with_usr}")
  endforeach()
  list(REMOVE_DUPLICATES names)
  foreach(path IN LISTS names)
    execute_process(COMMAND dpkg -S "${path}" RESULT_VARIABLE rc
      OUTPUT_VARIABLE owner ERROR_QUIET)
    if(rc EQUAL 0)
      string(REGEX REPLACE "[:,].*" "" owner "${owner}")
      set(${out_var} "${owner}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no Debian package owns ${file}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
run(cpack -G DEB --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK_DIR})
file(GLOB deb ${WORK_DIR}/ferry_*.deb)
if(NOT deb)
  message(FATAL_ERROR "cpack made no ferry_*.deb in ${WORK_DIR}")
endif()

# Contents: the tool, the headers, the library and the CMake package, all
# under /usr, and nothing else (no test or sample went in).
run(dpkg-deb -c ${deb})
string(REGEX MATCHALL "\\./usr/[^\n]*" paths "${out}")
foreach(wanted
    ./usr/bin/ferry
    ./usr/include/ferry/ferry.hpp
    ./usr/lib/libferry_runtime.a
    ./usr/lib/cmake/Ferry/FerryConfig.cmake
    ./usr/lib/cmake/Ferry/FerryConfigVersion.cmake
    ./usr/lib/cmake/Ferry/FerryTargets.cmake
    ./usr/lib/cmake/Ferry/FerryTargetSources.cmake)
  if(NOT wanted IN_LIST paths)
    message(FATAL_ERROR "${deb} lacks ${wanted}:\n${out}")
  endif()
endforeach()
foreach(path IN LISTS paths)
  if(NOT path MATCHES "^\\./usr/(bin/ferry|include/ferry/[^/]+\\.hpp|lib/libferry_runtime\\.a|lib/cmake/Ferry/[^/]+\\.cmake|(bin|include|include/ferry|lib|lib/cmake|lib/cmake/Ferry)/)?$")
    message(FATAL_ERROR "${deb} holds ${path}, which Ferry does not install")
  endif()
endforeach()

run(dpkg-deb -f ${deb} Depends)
string(STRIP "${out}" depends)
string(REGEX REPLACE " *\\([^)]*\\)" "" depends_names "${depends}")
string(REGEX REPLACE " *[,|] *" ";" depends_names "${depends_names}")
message(STATUS "Depends: ${depends}")

# The tool as packaged, unpacked: whatever it loads must come with Depends,
# and it must not look for libraries in this build's directories.
set(root ${WORK_DIR}/root)
run(dpkg-deb -x ${deb} ${root})
run(readelf -d ${root}/usr/bin/ferry)
if(out MATCHES "R(UN)?PATH")
  message(FATAL_ERROR "the packaged tool keeps a build RPATH:\n${out}")
endif()
string(REGEX MATCHALL "Shared library: \\[[^]]+\\]" needed "${out}")
run(ldd ${root}/usr/bin/ferry)
if(out MATCHES "not found")
  message(FATAL_ERROR "the packaged tool misses libraries:\n${out}")
endif()
set(ldd "${out}")
set(needed_packages "")
foreach(entry IN LISTS needed)
  string(REGEX REPLACE "^Shared library: \\[(.*)\\]$" "\\1" soname "${entry}")
  string(REGEX REPLACE "([][+.*()^$?|])" "\\\\\\1" pattern "${soname}")
  string(REGEX MATCH "${pattern} => ([^ ]+)" found "${ldd}")
  owning_package(${CMAKE_MATCH_1} owner)
  list(APPEND needed_packages ${owner})
endforeach()
owning_package(${RESOURCE_DIR}/include/stddef.h owner)
list(APPEND needed_packages ${owner})
list(REMOVE_DUPLICATES needed_packages)
foreach(package IN LISTS needed_packages)
  if(NOT package IN_LIST depends_names)
    message(FATAL_ERROR "the tool needs ${package}, which Depends "
      "(${depends}) does not name")
  endif()
endforeach()
# Programs built with the package link libOpenCL and find OpenCL's headers.
if(NOT "ocl-icd-opencl-dev" IN_LIST depends_names)
  message(FATAL_ERROR "Depends (${depends}) lacks ocl-icd-opencl-dev")
endif()

# Unpacked anywhere, the tool finds the headers that came with it.
run(${root}/usr/bin/ferry rewrite ${PROJECT_DIR}/main.cpp
    -o ${WORK_DIR}/main.ferry.cpp --depfile ${WORK_DIR}/main.d -- -std=c++17)
file(READ ${WORK_DIR}/main.d depfile)
string(FIND "${depfile}" "${root}/usr/include/ferry/ferry.hpp" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the unpacked tool did not parse the packaged "
    "ferry.hpp; its depfile:\n${depfile}")
endif()
message(STATUS "${deb}: contents and Depends as they should be "
  "(needs: ${needed_packages})")
