# The layer check fails, naming file, layers and rule, on a tree where core
# includes a runtime header, and resolves same-directory and generated
# includes without complaint.
#   cmake -DCHECK=<check_layers.cmake> -DWORK=<scratch dir> -P upward_include_test.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(WRITE "${WORK}/core/src/error.h" "#include \"isapack/isapack.h\"\n#include \"target_table.h\"\n")
file(WRITE "${WORK}/core/src/target_table.h" "#include \"isapack/generated/target_table.inc\"\n#include <vector>\n")
file(WRITE "${WORK}/runtime/include/isapack/isapack.h" "#include <stddef.h>\n")
file(WRITE "${WORK}/runtime/src/device.cc" "#include \"error.h\"\n#include \"missing.h\"\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -DSOURCE_DIR=${WORK} -DMIN_FILES=1 -P "${CHECK}"
  RESULT_VARIABLE _result ERROR_VARIABLE _err OUTPUT_VARIABLE _out)
string(REGEX REPLACE "[ \n]+" " " _err "${_err}")
set(_expected
  "2 include(s) break the layers (targets -> core -> device_library -> runtime -> tools): "
  "core/src/error.h (core) includes runtime/include/isapack/isapack.h (runtime): core may include only targets, core "
  "runtime/src/device.cc: #include \"missing.h\" names no header of the source tree "
  "Move the shared part down")
string(JOIN "" _expected ${_expected})
string(FIND "${_err}" "${_expected}" _at)
if(_result EQUAL 0 OR _at EQUAL -1)
  message(FATAL_ERROR "expected the check to fail with\n  ${_expected}\ngot (exit ${_result}):\n  ${_err}${_out}")
endif()
message(STATUS "the upward include and the unresolved one are named")
