# cmake -P script: a header whose compute functions Ferry plans is rewritten
# into every Ferry source that includes it (between `#line 1 "<header>"` and
# the next #line marker). Those copies of its inline functions must be the
# same text (the one-definition rule): each is planned from the target's
# summaries, not from what its own file happens to see.
#
#   -DHEADER=<file name> -DFILES=a.ferry.cpp,b.ferry.cpp

string(REPLACE "," ";" files "${FILES}")
set(first "")
foreach(file IN LISTS files)
  file(STRINGS "${file}" lines)
  set(copy "")
  set(inside OFF)
  set(found OFF)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#line ")
      if(line MATCHES "^#line 1 \".*/${HEADER}\"$")
        set(inside ON)
        set(found ON)
        continue()
      endif()
      set(inside OFF)
    endif()
    if(inside)
      string(APPEND copy "${line}\n")
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "${file} has no rewritten copy of ${HEADER}")
  endif()
  if(first STREQUAL "")
    set(first "${copy}")
    set(first_file "${file}")
  elseif(NOT copy STREQUAL first)
    file(WRITE "${file}.${HEADER}" "${copy}")
    file(WRITE "${first_file}.${HEADER}" "${first}")
    message(FATAL_ERROR "the copies of ${HEADER} differ: diff -u "
      "${first_file}.${HEADER} ${file}.${HEADER}")
  endif()
endforeach()
message(STATUS "${HEADER}: the same in every file")
