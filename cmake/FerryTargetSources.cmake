# ferry_target_sources(<target> <file>...)
#
# Makes each file a Ferry source of <target>: at build time `ferry rewrite`
# turns it into <binary dir>/ferry/<target>/<name>.ferry.cpp (host code with
# explicit transfers, kernels embedded as OpenCL C) and <name>.cl beside it
# for people to read. The rewritten file is compiled instead of the original,
# and the target links ferry::runtime. (The original is dropped from
# the target's SOURCES; list it once in add_executable as usual.)
#
# The rewrite sees the flags the compiler will see for the target: include
# directories, compile definitions and the C++ standard, passed as generator
# expressions so that they are the final, transitive values. The tool writes a
# depfile, so editing the file or any header it includes rewrites it again.
#
# A target may have several Ferry sources (several calls add to one target):
# `ferry summarize` writes each file's function summaries to
# <name>.summary.json, rewriting it only when it changes, and each rewrite
# reads the summaries of all the target's Ferry sources (the target property
# FERRY_SUMMARIES, read through a generator expression, so files added by a
# later call count too). A call into another Ferry source is then planned as
# a call within one file. Editing b.cpp summarises and rewrites b.cpp again;
# a.cpp is rewritten only when b's summary changed (Ninja's restat).

function(ferry_target_sources target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "ferry_target_sources: no target named '${target}'")
  endif()
  # Decided at each call: a function sees its caller's variables, not those
  # of the directory that defined it (a parent project's, here).
  if(TARGET ferry)
    set(_ferry_tool $<TARGET_FILE:ferry>)
    set(_ferry_tool_target ferry)
  elseif(TARGET ferry::ferry)
    # An installed Ferry (find_package): a new tool rewrites again.
    set(_ferry_tool $<TARGET_FILE:ferry::ferry>)
    set(_ferry_tool_target $<TARGET_FILE:ferry::ferry>)
  else()
    find_program(FERRY_EXECUTABLE ferry)
    if(NOT FERRY_EXECUTABLE)
      message(FATAL_ERROR "ferry_target_sources: the ferry tool was neither "
        "built here (FERRY_BUILD_TOOL) nor found (FERRY_EXECUTABLE)")
    endif()
    set(_ferry_tool ${FERRY_EXECUTABLE})
    set(_ferry_tool_target "")
  endif()
  target_link_libraries(${target} PRIVATE ferry::runtime)

  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(definitions "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(standard "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  set(flags
    "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
    "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},$<SEMICOLON>-D>>"
    # Ferry programs are C++17 at least; a target may ask for more.
    "-std=c++$<IF:$<BOOL:${standard}>,${standard},17>")

  foreach(file IN LISTS ARGN)
    get_filename_component(source "${file}" ABSOLUTE)
    get_filename_component(source_dir "${source}" DIRECTORY)
    get_filename_component(name "${source}" NAME_WLE)
    set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/ferry/${target}")
    set(rewritten "${out_dir}/${name}.ferry.cpp")
    set(opencl "${out_dir}/${name}.cl")
    set(depfile "${out_dir}/${name}.ferry.d")
    set(summary "${out_dir}/${name}.summary.json")
    set(summary_depfile "${out_dir}/${name}.summary.d")
    set_property(TARGET ${target} APPEND PROPERTY FERRY_SUMMARIES "${summary}")
    set(summaries "$<TARGET_PROPERTY:${target},FERRY_SUMMARIES>")

    add_custom_command(
      OUTPUT "${summary}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${out_dir}"
      COMMAND ${_ferry_tool} summarize "${source}" -o "${summary}"
              --depfile "${summary_depfile}" -- ${flags}
      DEPENDS "${source}" ${_ferry_tool_target}
      DEPFILE "${summary_depfile}"
      COMMAND_EXPAND_LISTS
      VERBATIM
      COMMENT "Ferry: summarizing ${file} for ${target}")

    add_custom_command(
      OUTPUT "${rewritten}" "${opencl}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${out_dir}"
      COMMAND ${_ferry_tool} rewrite "${source}" -o "${rewritten}"
              --cl "${opencl}" --depfile "${depfile}"
              "--summaries=$<JOIN:${summaries},$<COMMA>>" -- ${flags}
      DEPENDS "${source}" ${_ferry_tool_target} ${summaries}
      DEPFILE "${depfile}"
      COMMAND_EXPAND_LISTS
      VERBATIM
      COMMENT "Ferry: rewriting ${file} for ${target}")

    # The rewritten file replaces the original in this target only (source
    # file properties are per directory, and the same file may also build a
    # reference execution next door), and still finds headers beside it.
    get_target_property(target_dir ${target} SOURCE_DIR)
    get_target_property(sources ${target} SOURCES)
    set(kept "")
    foreach(listed IN LISTS sources)
      get_filename_component(listed_abs "${listed}" ABSOLUTE
                             BASE_DIR "${target_dir}")
      if(NOT listed_abs STREQUAL source)
        list(APPEND kept "${listed}")
      endif()
    endforeach()
    set_property(TARGET ${target} PROPERTY SOURCES ${kept} "${rewritten}")
    set_source_files_properties("${rewritten}" TARGET_DIRECTORY ${target}
      PROPERTIES GENERATED ON INCLUDE_DIRECTORIES "${source_dir}")
  endforeach()
endfunction()
