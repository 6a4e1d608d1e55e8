# Every device compile of isapack_toolkit_launched went through the logging
# compiler launcher: one line per code object that runs the device clang on
# saxpy.c for that target.
#   cmake -DLOG=<launcher log> -DCLANG=<device clang> -DOBJECTS=<target IDs> -P launcher_test.cmake
if(NOT EXISTS "${LOG}")
  message(FATAL_ERROR "${LOG} does not exist: no device compile went through the launcher")
endif()
file(STRINGS "${LOG}" _lines)
foreach(_object IN LISTS OBJECTS)
  set(_found OFF)
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^${CLANG} .*-mcpu=${_object} .*saxpy\\.c")
      set(_found ON)
    endif()
  endforeach()
  if(NOT _found)
    message(FATAL_ERROR "no launcher line compiles saxpy.c for ${_object}; the log:\n${_lines}")
  endif()
endforeach()
message(STATUS "the launcher ran the device compile for ${OBJECTS}")
