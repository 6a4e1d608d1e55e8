# Script mode: prints the processors an isapack-targets.json covers, space
# separated, without feature suffixes (gfx900 gfx906 ...), for package fields
# and virtual provides; FORMAT=rpm-provides prints isapack-gpu(gfxNNNN) lines,
# FORMAT=targets the covered target IDs as a CMake list.
#   cmake -DJSON=<isapack-targets.json> [-DFORMAT=rpm-provides|targets] -P IsapackCoveredProcessors.cmake
cmake_minimum_required(VERSION 3.25)
file(READ "${JSON}" _json)
string(JSON _count LENGTH "${_json}" covered_targets)
set(_processors)
set(_targets)
if(_count GREATER 0)
  math(EXPR _last "${_count} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _target GET "${_json}" covered_targets ${_i})
    list(APPEND _targets "${_target}")
    string(REGEX REPLACE ":.*" "" _processor "${_target}")
    list(APPEND _processors "${_processor}")
  endforeach()
  list(REMOVE_DUPLICATES _processors)
endif()
if(FORMAT STREQUAL "targets")
  string(JOIN ";" _text ${_targets})
elseif(FORMAT STREQUAL "rpm-provides")
  list(TRANSFORM _processors REPLACE "(.+)" "isapack-gpu(\\1)")
  string(JOIN "\n" _text ${_processors})
else()
  string(JOIN " " _text ${_processors})
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E echo "${_text}")
