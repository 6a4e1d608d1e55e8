# Text helpers for the tables CMake prints (CPack's package table); usable
# from configure and script mode.
include_guard(GLOBAL)

# isapack_align(<out> <text> <width> LEFT|RIGHT): <text> padded with spaces
# to <width> characters, on the right (LEFT) or the left (RIGHT). LEFT always
# adds at least one space, so a following column never touches the text.
function(isapack_align out text width side)
  string(LENGTH "${text}" _length)
  math(EXPR _n "${width} - ${_length}")
  if(side STREQUAL "LEFT")
    if(_n LESS 1)
      set(_n 1)
    endif()
    string(REPEAT " " ${_n} _pad)
    set(${out} "${text}${_pad}" PARENT_SCOPE)
  elseif(side STREQUAL "RIGHT")
    if(_n LESS 0)
      set(_n 0)
    endif()
    string(REPEAT " " ${_n} _pad)
    set(${out} "${_pad}${text}" PARENT_SCOPE)
  else()
    message(FATAL_ERROR "isapack_align: side must be LEFT or RIGHT, not '${side}'")
  endif()
endfunction()
