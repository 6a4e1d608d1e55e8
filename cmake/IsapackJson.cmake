# Reading the JSON the C++ programs write (CMake reads results; C++ makes them).

# _isapack_json_list(<out> <json> <key>...): the JSON array at <key>... as a
# CMake list (strings and numbers as they are written).
function(_isapack_json_list out json)
  string(JSON _count LENGTH "${json}" ${ARGN})
  set(_list)
  if(_count GREATER 0)
    math(EXPR _last "${_count} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _item GET "${json}" ${ARGN} ${_i})
      list(APPEND _list "${_item}")
    endforeach()
  endif()
  set(${out} "${_list}" PARENT_SCOPE)
endfunction()

# _isapack_json_field_list(<out> <json> <field> <key>...): field <field> of
# each object of the JSON array at <key>..., as a CMake list.
function(_isapack_json_field_list out json field)
  string(JSON _count LENGTH "${json}" ${ARGN})
  set(_list)
  if(_count GREATER 0)
    math(EXPR _last "${_count} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _item GET "${json}" ${ARGN} ${_i} ${field})
      list(APPEND _list "${_item}")
    endforeach()
  endif()
  set(${out} "${_list}" PARENT_SCOPE)
endfunction()
