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
# expressions so that they are the final, transitive values; and the
# preprocessor definitions (-D, -U) of CMAKE_CXX_FLAGS and of the build
# type's CMAKE_CXX_FLAGS_<CONFIG> (as they are where ferry_target_sources is
# called), so that a Release build's -DNDEBUG drops a kernel's assert() on
# the device as it does on the host. The build type's are chosen by
# $<CONFIG>, so a multi-config generator gives each configuration its own;
# there each configuration's files go to <binary dir>/ferry/<target>/<config>/.
# The tool writes a depfile, so editing the file or any header it includes
# rewrites it again.
#
# A target may have several Ferry sources (several calls add to one target):
# `ferry summarize` writes each file's function summaries to
# <name>.summary.json, rewriting it only when it changes, and each rewrite
# reads the summaries of all the target's Ferry sources (the target property
# FERRY_SUMMARIES, FERRY_SUMMARIES_<CONFIG> under a multi-config generator,
# read through a generator expression, so files added by a later call count
# too). A call into another Ferry source is then planned as
# a call within one file. Editing b.cpp summarises and rewrites b.cpp again;
# a.cpp is rewritten only when b's summary changed (Ninja's restat).

# The -D and -U flags of a CMAKE_CXX_FLAGS* string ("-DNDEBUG", "-D NAME=1"),
# as a list, each escaped to sit inside a generator expression.
function(_ferry_definitions_of flags out)
  separate_arguments(words UNIX_COMMAND "${flags}")
  set(found "")
  set(pending "")
  foreach(word IN LISTS words)
    if(NOT pending STREQUAL "")
      set(word "${pending}${word}")
      set(pending "")
    elseif(word STREQUAL "-D" OR word STREQUAL "-U")
      set(pending "${word}")
      continue()
    elseif(NOT word MATCHES "^-[DU].")
      continue()
    endif()
    string(REPLACE ">" "$<ANGLE-R>" word "${word}")
    string(REPLACE "," "$<COMMA>" word "${word}")
    string(REPLACE ";" "$<SEMICOLON>" word "${word}")
    list(APPEND found "${word}")
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

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
  # After the target's definitions, as the compiler's command line has them.
  _ferry_definitions_of("${CMAKE_CXX_FLAGS}" common)
  list(APPEND flags ${common})
  set(configs ${CMAKE_CONFIGURATION_TYPES} ${CMAKE_BUILD_TYPE})
  list(REMOVE_DUPLICATES configs)
  foreach(config IN LISTS configs)
    string(TOUPPER "${config}" config_upper)
    _ferry_definitions_of("${CMAKE_CXX_FLAGS_${config_upper}}" definitions)
    if(definitions)
      list(JOIN definitions "$<SEMICOLON>" definitions)
      list(APPEND flags "$<$<CONFIG:${config}>:${definitions}>")
    endif()
  endforeach()
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)

  foreach(file IN LISTS ARGN)
    get_filename_component(source "${file}" ABSOLUTE)
    get_filename_component(source_dir "${source}" DIRECTORY)
    get_filename_component(name "${source}" NAME_WLE)
    set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/ferry/${target}")
    if(multi_config)
      set(out_dir "${out_dir}/$<CONFIG>")
    endif()
    set(rewritten "${out_dir}/${name}.ferry.cpp")
    set(opencl "${out_dir}/${name}.cl")
    set(depfile "${out_dir}/${name}.ferry.d")
    set(summary "${out_dir}/${name}.summary.json")
    set(summary_depfile "${out_dir}/${name}.summary.d")
    if(multi_config)
      # A property read through $<TARGET_PROPERTY> is not evaluated again,
      # so each configuration keeps its own list of plain paths.
      foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
        string(TOUPPER "${config}" config_upper)
        string(REPLACE "$<CONFIG>" "${config}" each "${summary}")
        set_property(TARGET ${target} APPEND PROPERTY
          FERRY_SUMMARIES_${config_upper} "${each}")
      endforeach()
      set(summaries
        "$<TARGET_PROPERTY:${target},FERRY_SUMMARIES_$<UPPER_CASE:$<CONFIG>>>")
    else()
      set_property(TARGET ${target} APPEND PROPERTY FERRY_SUMMARIES "${summary}")
      set(summaries "$<TARGET_PROPERTY:${target},FERRY_SUMMARIES>")
    endif()

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
    set(rewritten_files "${rewritten}")
    if(multi_config)
      # Source file properties take a path, not a generator expression.
      set(rewritten_files "")
      foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
        string(REPLACE "$<CONFIG>" "${config}" each "${rewritten}")
        list(APPEND rewritten_files "${each}")
      endforeach()
    endif()
    set_source_files_properties(${rewritten_files} TARGET_DIRECTORY ${target}
      PROPERTIES GENERATED ON INCLUDE_DIRECTORIES "${source_dir}")
  endforeach()
endfunction()
