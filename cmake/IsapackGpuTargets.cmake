# Configure-time GPU target selection: which variable holds the packager's
# selectors (CMake's business), then the expansion, its summary and
# <build>/isapack-targets.json, all made by the C++ engine (IsapackExpand.cmake
# runs it).
include("${CMAKE_CURRENT_LIST_DIR}/IsapackExpand.cmake")

# isapack_resolve_selectors(<out_selectors> <out_source>)
# ISAPACK_GPU_TARGETS wins; when it is empty or unset the distribution-wide
# GPU_TARGETS, then AMDGPU_TARGETS, are honoured; otherwise `all`. None of
# them is ever written back (no FORCE), and the local GPU is never looked at.
function(isapack_resolve_selectors out_selectors out_source)
  foreach(_var ISAPACK_GPU_TARGETS GPU_TARGETS AMDGPU_TARGETS)
    if(DEFINED ${_var} AND NOT "${${_var}}" STREQUAL "")
      set(${out_selectors} "${${_var}}" PARENT_SCOPE)
      set(${out_source} "${_var}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out_selectors} "all" PARENT_SCOPE)
  set(${out_source} "default" PARENT_SCOPE)
endfunction()

# isapack_configure_gpu_targets()
# The whole configure step. Sets in the caller:
#   ISAPACK_EXPAND_PROGRAM (the engine configure ran)
#   ISAPACK_SELECTORS, ISAPACK_SELECTORS_FROM
#   ISAPACK_CODE_OBJECTS, ISAPACK_CODE_OBJECT_VERSIONS, ISAPACK_CODE_OBJECT_COVERS_<i>
#   ISAPACK_COVERED_TARGETS, ISAPACK_COVERED_PROCESSORS (no feature suffixes)
#   ISAPACK_LEFT_OUT_TARGETS, ISAPACK_LEFT_OUT_REASONS
function(isapack_configure_gpu_targets)
  isapack_resolve_selectors(_selectors _source)
  isapack_expand_gpu_targets(
    SELECTORS_VARIABLE _selectors
    FROM "${_source}"
    MODE "${ISAPACK_CODE_OBJECT_MODE}"
    CODE_OBJECT_VERSION "${ISAPACK_CODE_OBJECT_VERSION}"
    SUPPORTED ${ISAPACK_CLANG_SUPPORTED}
    LLVM_MAJOR "${ISAPACK_CLANG_MAJOR}"
    STRICT "${ISAPACK_STRICT_TARGETS}"
    RECORD "${PROJECT_BINARY_DIR}/isapack-targets.json"
    OUT_SUMMARY _summary
    OUT_PREFIX _x
    OUT_ERROR _error)
  if(_error)
    message(FATAL_ERROR "isapack: ${_error}")
  endif()
  foreach(_line IN LISTS _summary)
    message(STATUS "${_line}")
  endforeach()

  set(_processors)
  foreach(_target IN LISTS _x_COVERED)
    string(REGEX REPLACE ":.*" "" _processor "${_target}")
    list(APPEND _processors "${_processor}")
  endforeach()
  list(REMOVE_DUPLICATES _processors)

  _isapack_expand_tool(_program)
  set(ISAPACK_EXPAND_PROGRAM "${_program}" PARENT_SCOPE)
  set(ISAPACK_SELECTORS "${_selectors}" PARENT_SCOPE)
  set(ISAPACK_SELECTORS_FROM "${_source}" PARENT_SCOPE)
  set(ISAPACK_CODE_OBJECTS "${_x_OBJECTS}" PARENT_SCOPE)
  set(ISAPACK_CODE_OBJECT_VERSIONS "${_x_VERSIONS}" PARENT_SCOPE)
  list(LENGTH _x_OBJECTS _count)
  math(EXPR _last "${_count} - 1")
  foreach(_i RANGE ${_last})
    set(ISAPACK_CODE_OBJECT_COVERS_${_i} "${_x_COVERS_${_i}}" PARENT_SCOPE)
  endforeach()
  set(ISAPACK_COVERED_TARGETS "${_x_COVERED}" PARENT_SCOPE)
  set(ISAPACK_COVERED_PROCESSORS "${_processors}" PARENT_SCOPE)
  set(ISAPACK_LEFT_OUT_TARGETS "${_x_LEFT_OUT}" PARENT_SCOPE)
  set(ISAPACK_LEFT_OUT_REASONS "${_x_LEFT_OUT_REASONS}" PARENT_SCOPE)
endfunction()
