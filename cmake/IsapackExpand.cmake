# Selector expansion, glue only: the rules, messages, summary and record live
# in C++ (core/src/expansion.cc, expansion_record.cc). Configure compiles
# the small host program tools/pipeline/expand_gpu_targets.cc once per build
# tree (again only when its sources change) and runs it; this file passes it
# the inputs and reads its JSON record into CMake variables.
#
# ISAPACK_EXPAND_TOOL (cache, optional): a prebuilt host program to run
# instead, e.g. when the configured C++ compiler cannot make programs for
# this machine.

include("${CMAKE_CURRENT_LIST_DIR}/IsapackJson.cmake")
get_filename_component(_ISAPACK_EXPAND_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

# _isapack_compile_all(<what> COMMAND... ): runs the compiler commands at
# once (execute_process runs its COMMANDs concurrently) and stops configure
# with their output when one fails.
function(_isapack_compile_all what)
  execute_process(${ARGN} RESULTS_VARIABLE _results OUTPUT_VARIABLE _output ERROR_VARIABLE _output)
  foreach(_r IN LISTS _results)
    if(NOT _r EQUAL 0)
      message(FATAL_ERROR
        "isapack: the C++ compiler ${CMAKE_CXX_COMPILER} could not build ${what}, which configure "
        "runs:\n${_output}\n"
        "Install a C++20 compiler for this machine (Debian: g++), or set ISAPACK_EXPAND_TOOL to a built one.")
    endif()
  endforeach()
endfunction()

# _isapack_expand_tool(<out>): the program's path, built when missing or stale.
function(_isapack_expand_tool out)
  if(ISAPACK_EXPAND_TOOL)
    set(${out} "${ISAPACK_EXPAND_TOOL}" PARENT_SCOPE)
    return()
  endif()
  get_property(_built GLOBAL PROPERTY _ISAPACK_EXPAND_TOOL_BUILT)
  set(_dir "${CMAKE_BINARY_DIR}/isapack-expand")
  set(_tool "${_dir}/isapack-expand-gpu-targets")
  if(_built)
    set(${out} "${_tool}" PARENT_SCOPE)
    return()
  endif()
  set(_src "${_ISAPACK_EXPAND_SOURCE_DIR}")
  set(_data "${_src}/targets/amdgpu-targets.json")
  set(_generator_source "${_src}/targets/generate_target_table.cc")
  # target_table.cc includes the generated table; the others only its header.
  set(_sources
    "${_src}/tools/pipeline/expand_gpu_targets.cc"
    "${_src}/core/src/expansion.cc"
    "${_src}/core/src/expansion_record.cc"
    "${_src}/core/src/output_file.cc"
    "${_src}/core/src/target_id.cc")
  set(_table_source "${_src}/core/src/target_table.cc")
  file(GLOB _headers "${_src}/core/src/*.h" "${_src}/core/include/isapack/*.h")
  # The stamp: compiler and the content of everything compiled in or read.
  set(_stamp_text "${CMAKE_CXX_COMPILER}")
  foreach(_file IN LISTS _sources _table_source _headers _data _generator_source)
    file(SHA256 "${_file}" _hash)
    string(APPEND _stamp_text "\n${_hash}")
  endforeach()
  string(SHA256 _stamp "${_stamp_text}")
  if(NOT CMAKE_SCRIPT_MODE_FILE)  # a change reconfigures, which rebuilds the program
    set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
      ${_sources} ${_table_source} ${_headers} "${_data}" "${_generator_source}")
  endif()
  set(_stamp_file "${_dir}/stamp")
  if(EXISTS "${_stamp_file}" AND EXISTS "${_tool}")
    file(READ "${_stamp_file}" _old)
  else()
    set(_old "")
  endif()
  if(NOT _old STREQUAL _stamp)
    string(TIMESTAMP _t0 "%s%f")
    file(REMOVE "${_tool}" "${_stamp_file}")
    file(MAKE_DIRECTORY "${_dir}/generated/isapack/generated")
    set(_flags -std=c++20 -O0 -w "-I${_src}/core/src" "-I${_src}/core/include" "-I${_dir}/generated")
    # First the table generator and every source that does not need the
    # table, then the table, then the source that includes it, then one link.
    set(_generator "${_dir}/isapack-generate-target-table")
    set(_compiles COMMAND "${CMAKE_CXX_COMPILER}" -std=c++20 -O0 -w "${_generator_source}" -o "${_generator}")
    set(_objects)
    foreach(_source IN LISTS _sources)
      get_filename_component(_stem "${_source}" NAME_WE)
      list(APPEND _objects "${_dir}/${_stem}.o")
      list(APPEND _compiles COMMAND "${CMAKE_CXX_COMPILER}" ${_flags} -c "${_source}" -o "${_dir}/${_stem}.o")
    endforeach()
    _isapack_compile_all("the selector expansion program (tools/pipeline/expand_gpu_targets.cc)" ${_compiles})
    set(_table "${_dir}/generated/isapack/generated/target_table.inc")
    execute_process(COMMAND "${_generator}" "${_data}" "${_table}"
      RESULT_VARIABLE _result ERROR_VARIABLE _error)
    if(NOT _result EQUAL 0)
      message(FATAL_ERROR "isapack: targets/amdgpu-targets.json: ${_error}")
    endif()
    list(APPEND _objects "${_dir}/target_table.o")
    _isapack_compile_all("the selector expansion program (tools/pipeline/expand_gpu_targets.cc)"
      COMMAND "${CMAKE_CXX_COMPILER}" ${_flags} -c "${_table_source}" -o "${_dir}/target_table.o")
    _isapack_compile_all("the selector expansion program (tools/pipeline/expand_gpu_targets.cc)"
      COMMAND "${CMAKE_CXX_COMPILER}" ${_objects} -o "${_tool}.tmp")
    file(REMOVE ${_objects})
    file(RENAME "${_tool}.tmp" "${_tool}")
    file(WRITE "${_stamp_file}" "${_stamp}")
    string(TIMESTAMP _t1 "%s%f")
    math(EXPR _ms "(${_t1} - ${_t0}) / 1000")
    message(STATUS "isapack: built the selector expansion program in ${_ms} ms")
  endif()
  set_property(GLOBAL PROPERTY _ISAPACK_EXPAND_TOOL_BUILT TRUE)
  set(${out} "${_tool}" PARENT_SCOPE)
endfunction()

# isapack_expand_gpu_targets(
#   SELECTORS <selector>...        what the packager asked for, or
#   SELECTORS_VARIABLE <name>       a variable holding them, read as is (a
#                                   list of separators only stays visible)
#   MODE generic|exact
#   CODE_OBJECT_VERSION 4|5         for exact code objects
#   SUPPORTED <processor>...        what the compiler can build (its probe)
#   LLVM_MAJOR <n>
#   [STRICT <bool>]                 left-out family members become errors
#   [FROM <variable>]               where the selectors came from (record, summary)
#   [LIBRARY <name>]                the device library it is for (record, summary)
#   [RECORD <file>]                 where the record goes (default: a scratch file)
#   [OUT_SUMMARY <var>]             the summary lines, as a list
#   OUT_PREFIX <prefix>
#   OUT_ERROR <var>)
# Sets in the caller, on success (<var> empty):
#   <prefix>_OBJECTS          code object target IDs, in report order
#   <prefix>_VERSIONS         code object version of each, same order
#   <prefix>_COVERS_<i>       exact target IDs code object <i> covers
#   <prefix>_COVERED          every covered exact target ID
#   <prefix>_LEFT_OUT         exact targets left out
#   <prefix>_LEFT_OUT_REASONS the reason for each, same order
# On failure <var> holds the message and the other variables are unset.
function(isapack_expand_gpu_targets)
  cmake_parse_arguments(PARSE_ARGV 0 ARG
    ""
    "SELECTORS_VARIABLE;MODE;CODE_OBJECT_VERSION;LLVM_MAJOR;STRICT;FROM;LIBRARY;RECORD;OUT_SUMMARY;OUT_PREFIX;OUT_ERROR"
    "SELECTORS;SUPPORTED")
  _isapack_expand_tool(_tool)
  if(NOT ARG_FROM)
    set(ARG_FROM ISAPACK_GPU_TARGETS)
  endif()
  if(NOT ARG_RECORD)
    string(MD5 _key "${ARG_OUT_PREFIX}")
    set(ARG_RECORD "${CMAKE_BINARY_DIR}/isapack-expand/record-${_key}.json")
  endif()
  if(ARG_STRICT)
    set(_strict ON)
  else()
    set(_strict OFF)
  endif()
  # Lists travel as one argument each, ';' kept.
  if(ARG_SELECTORS_VARIABLE)
    set(_selectors "${${ARG_SELECTORS_VARIABLE}}")
  else()
    string(JOIN ";" _selectors ${ARG_SELECTORS})
  endif()
  string(JOIN ";" _supported ${ARG_SUPPORTED})
  set(_library)
  if(ARG_LIBRARY)
    set(_library --library "${ARG_LIBRARY}")
  endif()
  execute_process(
    COMMAND "${_tool}"
      --record "${ARG_RECORD}"
      --selectors "${_selectors}"
      --from "${ARG_FROM}"
      --mode "${ARG_MODE}"
      --code-object-version "${ARG_CODE_OBJECT_VERSION}"
      --supported "${_supported}"
      --llvm-major "${ARG_LLVM_MAJOR}"
      --strict ${_strict}
      --isapack-version "${ISAPACK_VERSION}"
      ${_library}
      --compiler "${ISAPACK_CLANG}"
      --compiler-version "${ISAPACK_CLANG_VERSION}"
      --probe "${ISAPACK_TOOLCHAIN_PROBE}"
    RESULT_VARIABLE _result
    OUTPUT_VARIABLE _summary
    ERROR_VARIABLE _error)
  set(_p "${ARG_OUT_PREFIX}")
  if(NOT _result EQUAL 0)
    string(REGEX REPLACE "\n$" "" _error "${_error}")
    if(_error STREQUAL "")
      set(_error "${_tool} failed (${_result}) without a message")
    endif()
    set(${ARG_OUT_ERROR} "${_error}" PARENT_SCOPE)
    return()
  endif()
  set(${ARG_OUT_ERROR} "" PARENT_SCOPE)
  if(ARG_OUT_SUMMARY)
    string(REGEX REPLACE "\n$" "" _summary "${_summary}")
    string(REPLACE ";" "\\;" _summary "${_summary}")
    string(REPLACE "\n" ";" _summary "${_summary}")
    set(${ARG_OUT_SUMMARY} "${_summary}" PARENT_SCOPE)
  endif()

  file(READ "${ARG_RECORD}" _json)
  _isapack_json_field_list(_objects "${_json}" target_id code_objects)
  _isapack_json_field_list(_versions "${_json}" code_object_version code_objects)
  set(_i 0)
  foreach(_object IN LISTS _objects)
    _isapack_json_list(_covers "${_json}" code_objects ${_i} covers)
    set(${_p}_COVERS_${_i} "${_covers}" PARENT_SCOPE)
    math(EXPR _i "${_i} + 1")
  endforeach()
  _isapack_json_list(_covered "${_json}" covered_targets)
  _isapack_json_field_list(_left "${_json}" target_id left_out)
  _isapack_json_field_list(_reasons "${_json}" reason left_out)
  set(${_p}_OBJECTS "${_objects}" PARENT_SCOPE)
  set(${_p}_VERSIONS "${_versions}" PARENT_SCOPE)
  set(${_p}_COVERED "${_covered}" PARENT_SCOPE)
  set(${_p}_LEFT_OUT "${_left}" PARENT_SCOPE)
  set(${_p}_LEFT_OUT_REASONS "${_reasons}" PARENT_SCOPE)
endfunction()
