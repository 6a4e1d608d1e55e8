# The configure step's summary and record for the lists packagers use, kept
# in golden files (tests/expansion/golden/<case>-<mode>.summary and .json):
# `all`, `dgpu-all`, Debian's list (the ROCm team's sid packages), and a
# Fedora-style list of per-GPU targets with xnack settings, each in both
# modes, with LLVM 19's processor list. Runs the engine through the same glue
# configure uses (cmake/IsapackExpand.cmake).
#   cmake -DSOURCE_DIR=<repo> -DTOOL=<isapack-expand-gpu-targets> -DWORK_DIR=<dir> -P golden_test.cmake
# To refresh after an intended change: -DUPDATE=ON, then review the diff.
cmake_minimum_required(VERSION 3.25)
list(APPEND CMAKE_MODULE_PATH "${SOURCE_DIR}/cmake")
include(IsapackExpand)
set(ISAPACK_EXPAND_TOOL "${TOOL}")
set(ISAPACK_VERSION 0.2.0)
set(ISAPACK_CLANG /usr/bin/clang-19)
set(ISAPACK_CLANG_VERSION 19.1.7)
set(ISAPACK_TOOLCHAIN_PROBE probed)
file(STRINGS "${SOURCE_DIR}/tests/expansion/llvm19.txt" _supported REGEX "^[^#]")
set(_golden "${SOURCE_DIR}/tests/expansion/golden")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(_cases
  "all|all"
  "dgpu-all|dgpu-all"
  "debian|gfx803\;gfx900\;gfx906\;gfx908\;gfx90a\;gfx1010\;gfx1030\;gfx1100\;gfx1101\;gfx1102"
  "fedora-style|gfx900\;gfx906:xnack-\;gfx908:xnack-\;gfx90a:xnack+\;gfx90a:xnack-\;gfx942\;gfx1010\;gfx1012\;gfx1030\;gfx1031\;gfx1035\;gfx1100\;gfx1101\;gfx1102\;gfx1103\;gfx1150\;gfx1151\;gfx1200\;gfx1201")
set(_failures "")
set(_checked 0)
foreach(_case IN LISTS _cases)
  string(REGEX REPLACE "\\|.*" "" _name "${_case}")
  string(REGEX REPLACE "^[^|]*\\|" "" _selectors "${_case}")
  foreach(_mode generic exact)
    set(_record "${WORK_DIR}/${_name}-${_mode}.json")
    isapack_expand_gpu_targets(
      SELECTORS_VARIABLE _selectors
      FROM ISAPACK_GPU_TARGETS
      MODE ${_mode}
      CODE_OBJECT_VERSION 5
      SUPPORTED ${_supported}
      LLVM_MAJOR 19
      RECORD "${_record}"
      OUT_SUMMARY _summary
      OUT_PREFIX _x
      OUT_ERROR _error)
    if(_error)
      string(APPEND _failures "\n${_name} ${_mode}: expansion failed: ${_error}")
      continue()
    endif()
    string(JOIN "\n" _summary_text ${_summary})
    string(APPEND _summary_text "\n")
    file(READ "${_record}" _json)
    if(UPDATE)
      file(WRITE "${_golden}/${_name}-${_mode}.summary" "${_summary_text}")
      file(WRITE "${_golden}/${_name}-${_mode}.json" "${_json}")
      continue()
    endif()
    file(READ "${_golden}/${_name}-${_mode}.summary" _expected_summary)
    file(READ "${_golden}/${_name}-${_mode}.json" _expected_json)
    if(NOT _summary_text STREQUAL _expected_summary)
      string(APPEND _failures "\n${_name} ${_mode}: the summary differs.\n--- expected:\n${_expected_summary}--- got:\n${_summary_text}")
    endif()
    string(JSON _same EQUAL "${_json}" "${_expected_json}")
    if(NOT _same)
      string(APPEND _failures "\n${_name} ${_mode}: the record differs.\n--- expected:\n${_expected_json}--- got:\n${_json}")
    endif()
    math(EXPR _checked "${_checked} + 1")
  endforeach()
endforeach()
if(_failures)
  message(FATAL_ERROR "golden expansion cases failed:${_failures}")
endif()
if(NOT UPDATE AND NOT _checked EQUAL 8)
  message(FATAL_ERROR "checked ${_checked} of 8 cases")
endif()
message(STATUS "8 golden cases: summary and record as kept")
