# cmake -P script: in a build configured with FERRY_WARNINGS_AS_ERRORS=ON
# (scripts/build, and scripts/demo under scripts/test), every compile command
# of the tool's and the runtime's own sources has -Werror, so that a compiler
# warning there fails CI's build. It fails if a target listed lost the flag
# or has no compile command at all (renamed: this list must follow).
#   -DCOMPILE_COMMANDS=<build>/compile_commands.json -DTARGETS=<target>;...

cmake_minimum_required(VERSION 3.21)

file(READ "${COMPILE_COMMANDS}" json)
string(JSON count LENGTH "${json}")
math(EXPR last "${count} - 1")
foreach(target IN LISTS TARGETS)
  set(seen_${target} 0)
endforeach()
set(missing "")
foreach(i RANGE ${last})
  string(JSON command GET "${json}" ${i} command)
  foreach(target IN LISTS TARGETS)
    # The object file names its target: -o .../CMakeFiles/<target>.dir/...
    if(command MATCHES " -o [^ ]*CMakeFiles/${target}\\.dir/")
      math(EXPR seen_${target} "${seen_${target}} + 1")
      if(NOT command MATCHES " -Werror( |$)")
        string(JSON file GET "${json}" ${i} file)
        list(APPEND missing "${target}: ${file}")
      endif()
    endif()
  endforeach()
endforeach()
foreach(target IN LISTS TARGETS)
  if(seen_${target} EQUAL 0)
    message(FATAL_ERROR "no compile command of target ${target} in "
      "${COMPILE_COMMANDS}")
  endif()
  message(STATUS "${target}: ${seen_${target}} compile commands, all -Werror")
endforeach()
if(missing)
  list(JOIN missing "\n  " missing)
  message(FATAL_ERROR "compiled without -Werror although "
    "FERRY_WARNINGS_AS_ERRORS is on:\n  ${missing}")
endif()
