# cmake -P script: a summary that cannot be read is a warning, and the plan
# stays correct without it (issue 23, part 4).
#   -DFERRY=<tool> -DSOURCE_DIR=<test/multifile/chain> -DWORK_DIR=<dir>
# solver.cpp with main.cpp's summary missing: step() cannot know that only
# planned code calls it, so it brings a and b home before it returns.
# main.cpp with solver.cpp's summary missing: step() is a call Ferry cannot
# see, so a and b are made current on the host before each call.
file(MAKE_DIRECTORY ${WORK_DIR})
set(flags -- -std=c++17 -I${SOURCE_DIR})

function(rewrite file summaries out_var err_var)
  execute_process(COMMAND ${FERRY} rewrite ${SOURCE_DIR}/${file}
      -o ${WORK_DIR}/${file}.ferry.cpp --summaries=${summaries} ${flags}
    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ferry rewrite ${file} failed:\n${err}")
  endif()
  file(READ ${WORK_DIR}/${file}.ferry.cpp text)
  set(${out_var} "${text}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()

function(expect what text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: no match for '${pattern}' in:\n${text}")
  endif()
endfunction()

execute_process(COMMAND ${FERRY} summarize ${SOURCE_DIR}/main.cpp
    -o ${WORK_DIR}/main.summary.json ${flags} RESULT_VARIABLE rc)
execute_process(COMMAND ${FERRY} summarize ${SOURCE_DIR}/solver.cpp
    -o ${WORK_DIR}/solver.summary.json ${flags} RESULT_VARIABLE rc2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "ferry summarize failed")
endif()

# With both summaries: step() leaves a and b on the device.
rewrite(solver.cpp "${WORK_DIR}/main.summary.json" with err)
if(with MATCHES "fromDevice")
  message(FATAL_ERROR "step() brings buffers home though only run() calls it:\n${with}")
endif()
if(NOT err STREQUAL "")
  message(FATAL_ERROR "a rewrite with every summary warns:\n${err}")
endif()

# Without main.cpp's: a located warning, and step() brings them home.
rewrite(solver.cpp "${WORK_DIR}/missing.summary.json" without err)
expect("the warning" "${err}"
  "solver.cpp:1:1: warning: cannot use the summary '[^']*missing.summary.json'")
expect("step() without main.cpp's summary" "${without}"
  "fromDevice[A-Za-z]*\\(a\\)[^\n]*goes back to the caller")

# A summary of another format is refused the same way.
file(WRITE ${WORK_DIR}/bogus.summary.json "{\"ferry_summary\": 99}")
rewrite(main.cpp "${WORK_DIR}/bogus.summary.json" opaque err)
expect("the warning" "${err}" "main.cpp:1:1: warning: cannot use the summary .*not a Ferry summary of version 1")
# step() is then a call Ferry cannot see: b comes home before it.
expect("main.cpp without solver.cpp's summary" "${opaque}"
  "fromDeviceIfStale\\(b\\)[^\n]*passed to step\\(\\)")
