# Which variable supplies the selectors: ISAPACK_GPU_TARGETS, then the
# distribution-wide GPU_TARGETS, then AMDGPU_TARGETS, then `all`.
#   cmake -DSOURCE_DIR=<repo> -P tests/expansion/precedence_test.cmake
cmake_minimum_required(VERSION 3.25)
list(APPEND CMAKE_MODULE_PATH "${SOURCE_DIR}/cmake")
include(IsapackGpuTargets)

set(FAILURES "")
function(expect_selectors expected_selectors expected_source)
  isapack_resolve_selectors(_selectors _source)
  if(NOT _selectors STREQUAL expected_selectors OR NOT _source STREQUAL expected_source)
    set(FAILURES "${FAILURES}\n  ISAPACK_GPU_TARGETS='${ISAPACK_GPU_TARGETS}' GPU_TARGETS='${GPU_TARGETS}' AMDGPU_TARGETS='${AMDGPU_TARGETS}': expected '${expected_selectors}' from ${expected_source}, got '${_selectors}' from ${_source}" PARENT_SCOPE)
  endif()
endfunction()

expect_selectors("all" "default")

set(AMDGPU_TARGETS "gfx90a;gfx942")
expect_selectors("gfx90a;gfx942" "AMDGPU_TARGETS")

set(GPU_TARGETS "gfx1030;gfx1100")
expect_selectors("gfx1030;gfx1100" "GPU_TARGETS")

set(ISAPACK_GPU_TARGETS "")
expect_selectors("gfx1030;gfx1100" "GPU_TARGETS")

set(ISAPACK_GPU_TARGETS "gfx110X-all")
expect_selectors("gfx110X-all" "ISAPACK_GPU_TARGETS")

unset(GPU_TARGETS)
unset(ISAPACK_GPU_TARGETS)
set(AMDGPU_TARGETS "")
expect_selectors("all" "default")

if(FAILURES)
  message(FATAL_ERROR "selector precedence failed:${FAILURES}")
endif()
message(STATUS "selector precedence: 6 cases passed")
