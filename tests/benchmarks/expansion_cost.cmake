# Configure cost of the GPU selectors: building the expansion program (once
# per build tree), the toolchain probe (clang --print-supported-cpus), and
# the expansion of `all` with the program, cold and warm (probe cached and
# program built, as on every reconfigure).
#   cmake -DSOURCE_DIR=<repo> -DCLANG=<clang> -DCXX=<c++ compiler> -DWORK_DIR=<dir> [-DREPEAT=20]
#         -P expansion_cost.cmake
cmake_minimum_required(VERSION 3.25)
# string(TIMESTAMP) would report SOURCE_DATE_EPOCH instead of the clock.
unset(ENV{SOURCE_DATE_EPOCH})
list(APPEND CMAKE_MODULE_PATH "${SOURCE_DIR}/cmake")
include(IsapackExpand)
include(IsapackToolchain)
if(NOT REPEAT)
  set(REPEAT 20)
endif()
# What the program build reads from a configured project.
set(CMAKE_CXX_COMPILER "${CXX}")
set(CMAKE_BINARY_DIR "${WORK_DIR}")
set(CMAKE_SOURCE_DIR "${SOURCE_DIR}")
file(REMOVE_RECURSE "${WORK_DIR}/isapack-expand")

function(_now out)
  string(TIMESTAMP _t "%s%f")
  set(${out} ${_t} PARENT_SCOPE)
endfunction()
# _ms(<out> <from> <to> [divisor]): milliseconds with one decimal
function(_ms out from to)
  set(_divisor 1)
  if(ARGC GREATER 3)
    set(_divisor ${ARGV3})
  endif()
  math(EXPR _tenths "(${to} - ${from}) / (100 * ${_divisor})")
  math(EXPR _whole "${_tenths} / 10")
  math(EXPR _fraction "${_tenths} % 10")
  set(${out} "${_whole}.${_fraction}" PARENT_SCOPE)
endfunction()

function(_expand supported major)
  isapack_expand_gpu_targets(SELECTORS all MODE generic CODE_OBJECT_VERSION 5
    SUPPORTED ${supported} LLVM_MAJOR ${major} OUT_PREFIX _x OUT_ERROR _error)
  if(_error)
    message(FATAL_ERROR "${_error}")
  endif()
  list(LENGTH _x_OBJECTS _count)
  set(_objects ${_count} PARENT_SCOPE)
endfunction()

_now(_t0)
_isapack_expand_tool(_program)
_now(_t1)
isapack_probe_clang("${CLANG}" _version _supported)
string(REGEX MATCH "^[0-9]+" _major "${_version}")
_now(_t2)
_expand("${_supported}" ${_major})
_now(_t3)
foreach(_i RANGE 1 ${REPEAT})
  _expand("${_supported}" ${_major})
endforeach()
_now(_t4)

_ms(_build "${_t0}" "${_t1}")
_ms(_probe "${_t1}" "${_t2}")
_ms(_first "${_t2}" "${_t3}")
_ms(_warm "${_t3}" "${_t4}" ${REPEAT})
message("configure cost of the GPU selectors (clang ${_version}, ${CXX}):
  building the expansion program (once per build tree)   ${_build} ms
  toolchain probe (cold; cached on reconfigure)          ${_probe} ms
  expansion of all, first run                            ${_first} ms
  expansion of all, warm                                 ${_warm} ms (mean of ${REPEAT})
  result: ${_objects} code objects")
file(REMOVE_RECURSE "${WORK_DIR}/isapack-expand")
