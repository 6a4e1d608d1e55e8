# Runs the CMake expansion (cmake/IsapackExpand.cmake) in script mode against
# a cases file and the stand-in compiler lists, comparing exactly.
#   cmake -DSOURCE_DIR=<repo> -DCASES=<file> -P tests/expansion/run_cases.cmake
#
# Cases file format, one block per case:
#   case <name>
#   selectors <selector> [<selector>...]   (space separated)
#   mode generic|exact                     (default generic)
#   llvm 19|20|23                          (tests/expansion/llvm<N>.txt; default 19)
#   version 4|5                            (default 5)
#   strict ON|OFF                          (default OFF)
#   expect                                 then `object ...`/`left-out ...` lines
#   error                                  or the exact error message lines
#   end
# Lines starting with '#' outside a block are comments.
cmake_minimum_required(VERSION 3.25)
list(APPEND CMAKE_MODULE_PATH "${SOURCE_DIR}/cmake")
include(IsapackTargets)
include(IsapackExpand)
isapack_targets_load("${SOURCE_DIR}/targets/amdgpu-targets.json")

function(load_supported out llvm)
  file(STRINGS "${SOURCE_DIR}/tests/expansion/llvm${llvm}.txt" _lines REGEX "^[^#]")
  set(${out} "${_lines}" PARENT_SCOPE)
endfunction()

# Runs one case; appends a report to the FAILURES variable of the caller.
function(run_case)
  cmake_parse_arguments(C "" "NAME;MODE;LLVM;VERSION;STRICT;KIND;BODY" "SELECTORS" ${ARGN})
  load_supported(_supported "${C_LLVM}")
  isapack_expand_gpu_targets(
    SELECTORS ${C_SELECTORS}
    MODE "${C_MODE}"
    CODE_OBJECT_VERSION "${C_VERSION}"
    SUPPORTED ${_supported}
    LLVM_MAJOR "${C_LLVM}"
    STRICT "${C_STRICT}"
    OUT_PREFIX _r
    OUT_ERROR _error)
  if(_error)
    set(_actual_kind error)
    set(_actual "${_error}\n")
  else()
    set(_actual_kind expect)
    isapack_format_expansion(_actual _r)
  endif()
  # The body keeps its ';' as a placeholder until here (argument lists split on ';').
  string(REPLACE "<semicolon>" ";" _expected "${C_BODY}")
  if(NOT _actual_kind STREQUAL C_KIND OR NOT _actual STREQUAL _expected)
    set(FAILURES "${FAILURES}\n--- case ${C_NAME}: expected ${C_KIND}:\n${_expected}--- got ${_actual_kind}:\n${_actual}" PARENT_SCOPE)
  endif()
endfunction()

file(READ "${CASES}" _content)
# Keep ';' (messages quote selector lists) and '[' out of CMake list syntax.
string(REPLACE ";" "<semicolon>" _content "${_content}")
string(REPLACE "[" "<lbracket>" _content "${_content}")
string(REPLACE "\n" ";" _lines "${_content}")

set(FAILURES "")
set(_count 0)
set(_in_body FALSE)
foreach(_line IN LISTS _lines)
  string(REPLACE "<lbracket>" "[" _line "${_line}")
  if(_in_body)
    if(_line STREQUAL "end")
      run_case(NAME "${_name}" SELECTORS ${_selectors} MODE "${_mode}" LLVM "${_llvm}"
        VERSION "${_version}" STRICT "${_strict}" KIND "${_kind}" BODY "${_body}")
      math(EXPR _count "${_count} + 1")
      set(_in_body FALSE)
    else()
      string(APPEND _body "${_line}\n")
    endif()
  elseif(_line MATCHES "^case (.+)$")
    set(_name "${CMAKE_MATCH_1}")
    set(_selectors)
    set(_mode generic)
    set(_llvm 19)
    set(_version 5)
    set(_strict OFF)
  elseif(_line MATCHES "^selectors( (.*))?$")
    separate_arguments(_selectors UNIX_COMMAND "${CMAKE_MATCH_2}")
  elseif(_line MATCHES "^(mode|llvm|version|strict) (.+)$")
    set(_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  elseif(_line STREQUAL "expect" OR _line STREQUAL "error")
    set(_kind "${_line}")
    set(_body "")
    set(_in_body TRUE)
  elseif(NOT _line STREQUAL "" AND NOT _line MATCHES "^#")
    message(FATAL_ERROR "${CASES}: cannot parse line '${_line}'")
  endif()
endforeach()

if(_count EQUAL 0)
  message(FATAL_ERROR "${CASES}: no cases found")
endif()
if(FAILURES)
  message(FATAL_ERROR "expansion cases failed:${FAILURES}")
endif()
message(STATUS "${_count} expansion cases passed (${CASES})")
