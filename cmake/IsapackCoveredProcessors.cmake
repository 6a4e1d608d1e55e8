# Script mode: prints the processors an isapack-targets.json covers, space
# separated, without feature suffixes (gfx900 gfx906 ...), for package fields
# and virtual provides; FORMAT=rpm-provides prints isapack-gpu(gfxNNNN) lines,
# FORMAT=targets the covered target IDs as a CMake list.
#   cmake -DJSON=<isapack-targets.json> [-DFORMAT=rpm-provides|targets] -P IsapackCoveredProcessors.cmake
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/IsapackJson.cmake")
file(READ "${JSON}" _json)
_isapack_json_list(_targets "${_json}" covered_targets)
list(TRANSFORM _targets REPLACE ":.*" "" OUTPUT_VARIABLE _processors)
list(REMOVE_DUPLICATES _processors)
if(FORMAT STREQUAL "targets")
  string(JOIN ";" _text ${_targets})
elseif(FORMAT STREQUAL "rpm-provides")
  list(TRANSFORM _processors REPLACE "(.+)" "isapack-gpu(\\1)")
  string(JOIN "\n" _text ${_processors})
else()
  string(JOIN " " _text ${_processors})
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E echo "${_text}")
