# Builds the device library and its catalog a second time, in a second build
# tree at another path, interrupting that build again and again (the whole
# process group killed after 0.2 s, 0.4 s, ... of work) until one run
# completes. After every
# interruption each code object present must pass the validator: a killed
# compile leaves no half-written object. Then every code object and the
# catalog must equal the main build's, byte for byte.
#   cmake -DSOURCE_DIR= -DBUILD_DIR= -DWORK_DIR= -DGENERATOR= -P reproducible_build.cmake
cmake_minimum_required(VERSION 3.25)

file(READ "${BUILD_DIR}/isapack-targets.json" _json)
string(JSON _mode GET "${_json}" mode)
string(JSON _version GET "${_json}" exact_code_object_version)
string(JSON _clang GET "${_json}" compiler path)
string(JSON _selectors_from GET "${_json}" selectors_from)
string(JSON _count LENGTH "${_json}" selectors)
set(_selectors)
math(EXPR _last "${_count} - 1")
foreach(_i RANGE ${_last})
  string(JSON _selector GET "${_json}" selectors ${_i})
  list(APPEND _selectors "${_selector}")
endforeach()

set(_tree "${WORK_DIR}/second-tree")
file(REMOVE_RECURSE "${_tree}")
file(MAKE_DIRECTORY "${_tree}")
# Configure exactly as the main tree was: same variable, same selectors
# (the build info embedded in the catalog records which variable it was).
set(_selector_line "")
if(NOT _selectors_from STREQUAL "default")
  set(_selector_line "set(${_selectors_from} \"${_selectors}\" CACHE STRING \"\")\n")
endif()
file(WRITE "${_tree}.cache.cmake"
  "${_selector_line}"
  "set(ISAPACK_CODE_OBJECT_MODE \"${_mode}\" CACHE STRING \"\")\n"
  "set(ISAPACK_CODE_OBJECT_VERSION \"${_version}\" CACHE STRING \"\")\n"
  "set(ISAPACK_CLANG \"${_clang}\" CACHE FILEPATH \"\")\n"
  "set(ISAPACK_BUILD_TESTS OFF CACHE BOOL \"\")\n")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${_tree}" -G "${GENERATOR}" -C "${_tree}.cache.cmake"
  RESULT_VARIABLE _result OUTPUT_QUIET ERROR_VARIABLE _error)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "configuring the second tree failed:\n${_error}")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" --build "${_tree}" --target isapack_validate_code_object isapack_pack_catalog
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _error)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "building the second tree's tools failed:\n${_out}${_error}")
endif()

# Every code object present is one the validator accepts.
function(_check_objects_after what)
  file(GLOB _objects "${_tree}/device_library/*.hsaco")
  foreach(_object IN LISTS _objects)
    get_filename_component(_name "${_object}" NAME)
    string(REGEX REPLACE "^amdgcn-amd-amdhsa--(.*)\\.hsaco$" "\\1" _target "${_name}")
    set(_object_version ${_version})
    if(_target MATCHES "-generic")
      set(_object_version 6)
    endif()
    execute_process(
      COMMAND "${_tree}/tools/pipeline/isapack_validate_code_object" "${_object}" "${_tree}/check.hsaco" "${_target}"
        ${_object_version}
      RESULT_VARIABLE _bad OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    if(_bad)
      message(FATAL_ERROR "after ${what}, ${_name} is present but invalid:\n${_err}")
    endif()
  endforeach()
  file(REMOVE "${_tree}/check.hsaco")
  list(LENGTH _objects _count)
  set(_present ${_count} PARENT_SCOPE)
endfunction()

set(_interruptions 0)
set(_completed FALSE)
foreach(_timeout 0.2 0.4 0.6 0.8 1 1.5 2 4 8 16 32 64 128 600)
  # GNU timeout kills the whole process group: ninja and every compiler,
  # linker and validator it runs, with SIGKILL, mid-write.
  execute_process(
    COMMAND timeout -s KILL ${_timeout} "${CMAKE_COMMAND}" --build "${_tree}" --target isapack_catalog
    RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _error)
  if(_result EQUAL 0)
    set(_completed TRUE)
    break()
  endif()
  # timeout's status (124, or 137 for SIGKILL), or CMake's "Subprocess killed".
  if(NOT _result MATCHES "^(124|137|Subprocess killed)$")
    message(FATAL_ERROR "building the second tree failed (${_result}):\n${_out}${_error}")
  endif()
  math(EXPR _interruptions "${_interruptions} + 1")
  _check_objects_after("interruption ${_interruptions} (after ${_timeout} s)")
  message(STATUS "killed after ${_timeout} s: ${_present} code objects present, all valid")
endforeach()
if(NOT _completed)
  message(FATAL_ERROR "the second tree never finished building")
endif()
message(STATUS "the second build completed after ${_interruptions} interruptions")

set(_failures "")
string(JSON _count LENGTH "${_json}" code_objects)
math(EXPR _last "${_count} - 1")
foreach(_i RANGE ${_last})
  string(JSON _file GET "${_json}" code_objects ${_i} file)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files
    "${BUILD_DIR}/device_library/${_file}" "${_tree}/device_library/${_file}"
    RESULT_VARIABLE _different)
  if(_different)
    string(APPEND _failures "\n  ${_file}")
  endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files
  "${BUILD_DIR}/catalog/catalog.bin" "${_tree}/catalog/catalog.bin" RESULT_VARIABLE _different)
if(_different)
  string(APPEND _failures "\n  catalog/catalog.bin")
endif()
if(_failures)
  message(FATAL_ERROR "two builds differ in:${_failures}")
endif()
file(REMOVE_RECURSE "${_tree}")
message(STATUS "${_count} code objects and the catalog are identical in both build trees")
