# Every C and C++ file of the source tree matches .clang-format, as
# clang-format-19 formats it (the toolchain's own version: another major may
# format differently). Lists each file that does not, with the fix.
#   cmake -DSOURCE_DIR=<repo> -DCLANG_FORMAT=<clang-format-19> -P check_format.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT CLANG_FORMAT OR NOT EXISTS "${CLANG_FORMAT}")
  message(FATAL_ERROR "clang-format-19 was not found at configure time: install it "
    "(Debian: apt-get install clang-format-19; debian/control lists it) and configure again")
endif()
file(GLOB_RECURSE _files RELATIVE "${SOURCE_DIR}"
  "${SOURCE_DIR}/*.c" "${SOURCE_DIR}/*.h" "${SOURCE_DIR}/*.cc")
# Build trees inside the source tree, git's own files and fuzzer inputs are not source.
list(FILTER _files EXCLUDE REGEX "^(build[^/]*|\\.git|obj-[^/]*|debian/isapack[^/]*|debian/tmp)/")
list(FILTER _files EXCLUDE REGEX "^tests/fuzz/corpus/")
list(LENGTH _files _count)
if(_count LESS 50)
  message(FATAL_ERROR "found only ${_count} C/C++ files under ${SOURCE_DIR}; is SOURCE_DIR the source tree?")
endif()
# One run for all; file by file only to name the culprits.
execute_process(COMMAND "${CLANG_FORMAT}" --dry-run -Werror ${_files}
  WORKING_DIRECTORY "${SOURCE_DIR}"
  RESULT_VARIABLE _all OUTPUT_QUIET ERROR_QUIET)
set(_bad)
foreach(_file IN LISTS _files)
  if(_all EQUAL 0)
    break()
  endif()
  execute_process(COMMAND "${CLANG_FORMAT}" --dry-run -Werror "${_file}"
    WORKING_DIRECTORY "${SOURCE_DIR}"
    RESULT_VARIABLE _result OUTPUT_QUIET ERROR_QUIET)
  if(NOT _result EQUAL 0)
    list(APPEND _bad "${_file}")
  endif()
endforeach()
if(_bad)
  list(LENGTH _bad _n)
  string(JOIN "\n  " _list ${_bad})
  message(FATAL_ERROR "${_n} of ${_count} C/C++ files do not match .clang-format:\n  ${_list}\n"
    "Fix: ${CLANG_FORMAT} -i <file>... (a format-only change is its own commit)")
endif()
message(STATUS "${_count} C/C++ files match .clang-format (${CLANG_FORMAT})")
