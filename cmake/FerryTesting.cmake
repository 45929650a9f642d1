# Helpers for Ferry's own end-to-end tests and samples (not part of the
# user-facing CMake contract).
#
# ferry_add_end_to_end(<name> <source> [LABEL <label>] [SOURCES <plain C++>...]
#                      [FERRY_SOURCES <more Ferry sources of the target>...])
#
# Builds <source> twice, rewritten (target <name>) and as the reference
# execution (<name>_reference), and adds ctest `<label>.<stem>` (<stem>: the
# source's name without extension) running both
# on PoCL under all three policies with identical output required. The source
# states the rest in comments, next to the working that justifies it:
#
#   // ferry-test: args 16 3
#   // ferry-test: to_device 1 from_device 1 dispatches 3
#   // ferry-test: to_device_bytes 64 from_device_bytes 64
#   // ferry-test: fills 1 fill_bytes 64   (0 when to_device is given alone)
#   // ferry-test: unnamed_from_device 1 unnamed_from_device_bytes 64
#   //   (the safety net's copies home, fromDeviceAllOf / hostWritesAllOf: 0
#   //   when from_device is given alone)
#   // ferry-test: golden
#
# `golden` also adds ctest `<label>.<stem>.golden`, comparing the rewritten
# source and its OpenCL C with <source dir>/expected/<stem>.ferry.cpp and .cl
# (regenerate on purpose with test/update-golden.sh).
#
# ferry_add_mpi_end_to_end(<name> <source> [LABEL <label>])
#
# The same for an MPI program (find_package(MPI COMPONENTS CXX) first): both
# builds link MPI::MPI_CXX, and ctest `<label>.<stem>` (labelled <label>)
# runs the reference and the rewritten program under `mpiexec -n RANKS`,
# every rank on PoCL (FERRY_DEVICE=cpu:local-rank), under all three
# policies, with identical output required, and each rank's planned
# statistics (FERRY_STATS, a file per rank) equal to the source's:
#
#   // ferry-test-mpi: ranks 2
#   // ferry-test-mpi: args 64 32 100
#   // ferry-test-mpi: rank 0 to_device 101 to_device_bytes 30208 ...
#
# with the keys of ferry-test lines, and partial_to_device,
# partial_to_device_bytes, partial_from_device, partial_from_device_bytes.

set(_ferry_testing_dir ${CMAKE_CURRENT_LIST_DIR})

function(ferry_add_end_to_end name source)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "LABEL" "SOURCES;FERRY_SOURCES")
  if(NOT arg_LABEL)
    set(arg_LABEL e2e)
  endif()
  get_filename_component(source "${source}" ABSOLUTE)
  get_filename_component(source_dir "${source}" DIRECTORY)
  get_filename_component(stem "${source}" NAME_WLE)

  add_executable(${name} ${source} ${arg_FERRY_SOURCES} ${arg_SOURCES})
  ferry_target_sources(${name} ${source} ${arg_FERRY_SOURCES})
  add_executable(${name}_reference ${source} ${arg_FERRY_SOURCES} ${arg_SOURCES})
  target_link_libraries(${name}_reference PRIVATE ferry::runtime)
  foreach(t ${name} ${name}_reference)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
      # The rewritten source must compile warning-free wherever the original
      # does.
      target_compile_options(${t} PRIVATE -Wall -Wextra -Werror)
    endif()
  endforeach()

  file(STRINGS "${source}" directives REGEX "^// ferry-test: ")
  set(run_args "")
  set(expectations "")
  set(golden OFF)
  foreach(line IN LISTS directives)
    string(REGEX REPLACE "^// ferry-test: *" "" line "${line}")
    separate_arguments(words UNIX_COMMAND "${line}")
    list(POP_FRONT words key)
    if(key STREQUAL "args")
      list(APPEND run_args ${words})
    elseif(key STREQUAL "golden")
      set(golden ON)
    else()
      list(PREPEND words ${key})
      while(words)
        list(POP_FRONT words k v)
        string(TOUPPER "${k}" k)
        list(APPEND expectations "-D${k}=${v}")
      endwhile()
    endif()
  endforeach()

  add_test(NAME ${arg_LABEL}.${stem}
    COMMAND ${CMAKE_COMMAND}
      -DREFERENCE=$<TARGET_FILE:${name}_reference>
      -DREWRITTEN=$<TARGET_FILE:${name}>
      "-DARGS=${run_args}"
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/runs
      ${expectations}
      -P ${_ferry_testing_dir}/FerryCompareRuns.cmake)
  set_tests_properties(${arg_LABEL}.${stem} PROPERTIES TIMEOUT 300)

  if(golden)
    set(generated "${CMAKE_CURRENT_BINARY_DIR}/ferry/${name}/${stem}")
    add_test(NAME ${arg_LABEL}.${stem}.golden
      COMMAND ${CMAKE_COMMAND}
        -DGENERATED=${generated}
        -DEXPECTED=${source_dir}/expected/${stem}
        -DSOURCE_ROOT=${PROJECT_SOURCE_DIR}
        -P ${_ferry_testing_dir}/FerryCompareGolden.cmake)
  endif()
endfunction()

function(ferry_add_mpi_end_to_end name source)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "LABEL" "")
  if(NOT arg_LABEL)
    set(arg_LABEL mpi)
  endif()
  get_filename_component(source "${source}" ABSOLUTE)
  get_filename_component(stem "${source}" NAME_WLE)

  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE MPI::MPI_CXX)
  # The rewrite takes the target's include directories with those of what
  # it links (a generator expression), MPI's among them: it parses the
  # <mpi.h> the compiler will.
  ferry_target_sources(${name} ${source})
  add_executable(${name}_reference ${source})
  target_link_libraries(${name}_reference PRIVATE ferry::runtime MPI::MPI_CXX)
  foreach(t ${name} ${name}_reference)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
      target_compile_options(${t} PRIVATE -Wall -Wextra -Werror)
    endif()
  endforeach()

  file(STRINGS "${source}" directives REGEX "^// ferry-test-mpi: ")
  set(ranks 2)
  set(run_args "")
  set(expectations "")
  foreach(line IN LISTS directives)
    string(REGEX REPLACE "^// ferry-test-mpi: *" "" line "${line}")
    separate_arguments(words UNIX_COMMAND "${line}")
    list(POP_FRONT words key)
    if(key STREQUAL "ranks")
      list(GET words 0 ranks)
    elseif(key STREQUAL "args")
      list(APPEND run_args ${words})
    elseif(key STREQUAL "rank")
      list(POP_FRONT words rank)
      while(words)
        list(POP_FRONT words k v)
        if(NOT k MATCHES "^(to_device|from_device|partial_to_device|partial_from_device)(_bytes)?$|^(dispatches|fills|fill_bytes)$"
           OR NOT v MATCHES "^[0-9]+$")
          message(FATAL_ERROR "${source}: ferry-test-mpi: '${k} ${v}' is no "
            "statistic and count")
        endif()
        string(TOUPPER "${k}" k)
        list(APPEND expectations "-DRANK${rank}_${k}=${v}")
      endwhile()
    else()
      message(FATAL_ERROR "${source}: unknown ferry-test-mpi key '${key}'")
    endif()
  endforeach()

  # Open MPI refuses to run as root (CI does) unless told, which the test
  # does through its environment, and counts slots by cores: a small machine
  # may have fewer than ranks.
  if(NOT DEFINED FERRY_MPIEXEC_IS_OPEN_MPI)
    execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version
      OUTPUT_VARIABLE version ERROR_VARIABLE version RESULT_VARIABLE rc)
    set(open_mpi OFF)
    if(rc EQUAL 0 AND version MATCHES "Open MPI|OpenRTE")
      set(open_mpi ON)
    endif()
    set(FERRY_MPIEXEC_IS_OPEN_MPI ${open_mpi} CACHE INTERNAL
      "mpiexec is Open MPI's (it takes --oversubscribe)")
  endif()
  set(launcher ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks})
  if(FERRY_MPIEXEC_IS_OPEN_MPI)
    list(APPEND launcher --oversubscribe)
  endif()
  list(APPEND launcher ${MPIEXEC_PREFLAGS})
  # Not REFERENCE and REWRITTEN: scripts/device-e2e takes the tests that
  # name those for programs it runs as one process.
  add_test(NAME ${arg_LABEL}.${stem}
    COMMAND ${CMAKE_COMMAND}
      -DREFERENCE_PROGRAM=$<TARGET_FILE:${name}_reference>
      -DREWRITTEN_PROGRAM=$<TARGET_FILE:${name}>
      "-DLAUNCHER=${launcher}"
      -DRANKS=${ranks}
      "-DARGS=${run_args}"
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/mpi-runs
      ${expectations}
      -P ${_ferry_testing_dir}/FerryCompareMpiRuns.cmake)
  set_tests_properties(${arg_LABEL}.${stem} PROPERTIES TIMEOUT 120
    LABELS ${arg_LABEL})
endfunction()

# ferry_add_failure_tests(<name> [LABEL <label>])
#
# The rewritten program <name> (a sample: its first argument is a size) must
# fail well, with exit status 1 and a message, never an abort:
#   <label>.<name>.bad_policy    FERRY_POLICY=bogus: the runtime's one line,
#                                "ferry: ...", and FERRY_STATS still written
#   <label>.<name>.bad_device    FERRY_DEVICE=foo: "ferry: FERRY_DEVICE='foo'
#                                matches no device", then the devices found
#   <label>.<name>.bad_number    `-5`, <label>.<name>.bad_word `12x`,
#   <label>.<name>.too_many_args six arguments: "<name>: ...", then its usage
function(ferry_add_failure_tests name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "LABEL" "")
  if(NOT arg_LABEL)
    set(arg_LABEL e2e)
  endif()
  set(script ${_ferry_testing_dir}/FerryExpectFailure.cmake)
  set(common -DPROGRAM=$<TARGET_FILE:${name}>
             -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/failures)
  add_test(NAME ${arg_LABEL}.${name}.bad_policy
    COMMAND ${CMAKE_COMMAND} ${common} -DENVIRONMENT=FERRY_POLICY=bogus
      "-DEXPECT_FIRST_LINE=ferry: FERRY_POLICY: unknown value 'bogus' (accepted values: planned, kernel, naive, whole)"
      -DEXPECT_LINES=1 -DSTATS=ON -P ${script})
  add_test(NAME ${arg_LABEL}.${name}.bad_device
    COMMAND ${CMAKE_COMMAND} ${common} -DENVIRONMENT=FERRY_DEVICE=foo
      "-DEXPECT_FIRST_LINE_PREFIX=ferry: FERRY_DEVICE='foo' matches no device"
      -P ${script})
  foreach(case "bad_number;-5" "bad_word;12x" "too_many_args;1 1 1 1 1 1")
    list(GET case 0 test)
    list(GET case 1 args)
    separate_arguments(args UNIX_COMMAND "${args}")
    if(test STREQUAL "too_many_args")
      set(first "-DEXPECT_FIRST_LINE=${name}: too many arguments")
    else()
      set(first "-DEXPECT_FIRST_LINE_PREFIX=${name}: ")
    endif()
    add_test(NAME ${arg_LABEL}.${name}.${test}
      COMMAND ${CMAKE_COMMAND} ${common} "-DARGS=${args}" "${first}"
        "-DEXPECT_SECOND_LINE_PREFIX=usage: ${name} " -P ${script})
  endforeach()
endfunction()
