# The build-time validator never lets a damaged code object through: a
# truncated object (what a killed linker leaves) and an object for another
# target are refused with a message naming the object; no output is written
# and a stale output from an earlier build is removed. So are a directory, a
# device and a version outside 2-6, each with its exact message. A valid
# object is written unchanged, with no temporary file left behind.
#   cmake -DVALIDATOR=<exe> -DBUILD_DIR=<build> -DWORK_DIR=<dir> -P validator_test.cmake
cmake_minimum_required(VERSION 3.25)
file(READ "${BUILD_DIR}/isapack-targets.json" _json)
string(JSON _file GET "${_json}" code_objects 0 file)
string(JSON _target GET "${_json}" code_objects 0 target_id)
string(JSON _version GET "${_json}" code_objects 0 code_object_version)
set(_object "${BUILD_DIR}/device_library/${_file}")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(_out "${WORK_DIR}/out.hsaco")

# refused(<what> <input> <target>)
function(refused what input target)
  file(WRITE "${_out}" "stale output of an earlier build")
  execute_process(COMMAND "${VALIDATOR}" "${input}" "${_out}" "${target}" ${_version}
    RESULT_VARIABLE _result ERROR_VARIABLE _err)
  if(_result EQUAL 0)
    message(FATAL_ERROR "${what}: the validator accepted it")
  endif()
  if(NOT _err MATCHES "^isapack: code object ${_out}: ")
    message(FATAL_ERROR "${what}: the message does not name the object:\n${_err}")
  endif()
  if(EXISTS "${_out}" OR EXISTS "${_out}.tmp")
    message(FATAL_ERROR "${what}: an output was left behind")
  endif()
  message(STATUS "${what}: refused, no output left: ${_err}")
endfunction()

file(READ "${_object}" _hex HEX)
string(LENGTH "${_hex}" _length)
foreach(_fraction 2 4)
  math(EXPR _keep "${_length} / ${_fraction} / 2 * 2")
  string(SUBSTRING "${_hex}" 0 ${_keep} _part)
  set(_truncated "${WORK_DIR}/truncated.hsaco")
  # Write the bytes back from hex.
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" _escaped "${_part}")
  file(REMOVE "${_truncated}")
  execute_process(COMMAND printf "${_escaped}" OUTPUT_FILE "${_truncated}")
  file(SIZE "${_truncated}" _size)
  math(EXPR _expected "${_keep} / 2")
  if(NOT _size EQUAL _expected)
    message(FATAL_ERROR "could not write the truncated copy (${_size} of ${_expected} bytes)")
  endif()
  refused("${_file} cut to 1/${_fraction}" "${_truncated}" "${_target}")
endforeach()
refused("${_file} checked as gfx1100" "${_object}" "gfx1100")

# refused_exactly(<what> <input> <version> <message>): refused with exactly
# "isapack: code object <output>: <message>".
function(refused_exactly what input version message)
  set(_version ${version})
  refused("${what}" "${input}" "${_target}")
  execute_process(COMMAND "${VALIDATOR}" "${input}" "${_out}" "${_target}" ${version}
    ERROR_VARIABLE _err)
  if(NOT _err STREQUAL "isapack: code object ${_out}: ${message}\n")
    message(FATAL_ERROR "${what}: expected\n  isapack: code object ${_out}: ${message}\ngot\n  ${_err}")
  endif()
endfunction()
refused_exactly("a directory" "${WORK_DIR}" ${_version}
  "${WORK_DIR} is a directory; this command reads one file (a code object)")
refused_exactly("a character device" "/dev/null" ${_version}
  "/dev/null is a character device; isapack reads regular files only (a device, FIFO or socket may never end); copy the data to a file first")
refused_exactly("code object version 7" "${_object}" 7 "code object version '7' is not 2, 3, 4, 5 or 6")
refused_exactly("code object version 5x" "${_object}" 5x "code object version '5x' is not 2, 3, 4, 5 or 6")

execute_process(COMMAND "${VALIDATOR}" "${_object}" "${_out}" "${_target}" ${_version} RESULT_VARIABLE _result)
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${_object}" "${_out}" RESULT_VARIABLE _different)
if(NOT _result EQUAL 0 OR _different OR EXISTS "${_out}.tmp")
  message(FATAL_ERROR "a valid ${_file} was not written unchanged")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "a valid ${_file} is written unchanged, with no temporary file left")
