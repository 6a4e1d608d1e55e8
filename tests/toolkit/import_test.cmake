# The import of prebuilt device code (tools/pipeline/import_code_objects.cc)
# on foreign, damaged, duplicate and useless inputs: each stops with exit 1,
# its exact message, and no manifest written; the good input keeps what
# runs on a covered target and lists the rest.
#   cmake -DIMPORT=<tool> -DMANIFEST=<manifest of a library> -DFATBIN=<prebuilt
#         .hip_fatbin> -DFIRST_PART=<its first bundle> -DSECOND_ID=<the target
#         of its second> -DWORK_DIR=<scratch> -P import_test.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/objects")
set(_out "${WORK_DIR}/manifest.json")
set(_failures "")

# refused(<what> <expected message> <input>...)
function(refused what message)
  execute_process(COMMAND "${IMPORT}" "${MANIFEST}" "${_out}" "${WORK_DIR}/objects" ${ARGN}
    RESULT_VARIABLE _result OUTPUT_VARIABLE _stdout ERROR_VARIABLE _stderr)
  set(_expected "isapack: prebuilt device code: ${message}\n")
  if(NOT _result EQUAL 1 OR NOT _stderr STREQUAL _expected OR EXISTS "${_out}")
    string(APPEND _failures "\n${what}: exit ${_result}, expected 1 and\n  ${_expected}got\n  ${_stderr}")
    set(_failures "${_failures}" PARENT_SCOPE)
  endif()
endfunction()

file(WRITE "${WORK_DIR}/notes.txt" "not device code\n")
refused("a text file"
  "${WORK_DIR}/notes.txt: neither an AMDGPU code object nor a clang offload bundle (compressed or not); OBJECTS takes .hsaco/.co files and bundles"
  "${WORK_DIR}/notes.txt")
refused("a host ELF file"
  "${CMAKE_COMMAND}: an ELF file for machine 62, not an AMDGPU code object (machine 224); OBJECTS takes code objects and offload bundles (a program's are listed by `isapack inspect`)"
  "${CMAKE_COMMAND}")
refused("a missing file"
  "cannot open ${WORK_DIR}/missing.hsaco: No such file or directory"
  "${WORK_DIR}/missing.hsaco")

# The first 100 bytes of the .hip_fatbin: an uncompressed bundle cut short.
file(READ "${FATBIN}" _head LIMIT 100 HEX)
string(REGEX REPLACE "(..)" "\\\\x\\1" _escaped "${_head}")
execute_process(COMMAND printf "${_escaped}" OUTPUT_FILE "${WORK_DIR}/truncated.hip_fatbin")
refused("a truncated bundle"
  "${WORK_DIR}/truncated.hip_fatbin, bundle at 0x0: offload bundle entry 'host-x86_64-unknown-linux-gnu-' lies outside the bundle"
  "${WORK_DIR}/truncated.hip_fatbin")

# A copy of the .hip_fatbin: its second bundle (the first compressed one,
# right after the first bundle) is already in the catalog.
file(COPY_FILE "${FATBIN}" "${WORK_DIR}/copy.hip_fatbin")
file(SIZE "${FIRST_PART}" _offset)
math(EXPR _offset "${_offset}" OUTPUT_FORMAT HEXADECIMAL)
set(_entry "compressed bundle at ${_offset}, entry 'hipv4-amdgcn-amd-amdhsa--${SECOND_ID}'")
refused("the same code objects twice"
  "${WORK_DIR}/copy.hip_fatbin, ${_entry}: a code object for ${SECOND_ID} is already in the catalog (from ${FATBIN}, ${_entry}); give each target once"
  "${FATBIN}" "${WORK_DIR}/copy.hip_fatbin")

refused("only code objects for other GPUs"
  "none of the prebuilt code objects runs on a covered target of isapack_toolkit_prebuilt and it has no SOURCES: its catalog would be empty; add selectors that cover them to its GPU_TARGETS"
  "${FIRST_PART}")

# Success: what serves gfx110X-all is kept, gfx90a is listed.
execute_process(COMMAND "${IMPORT}" "${MANIFEST}" "${_out}" "${WORK_DIR}/objects" "${FATBIN}"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _stdout ERROR_VARIABLE _stderr)
set(_expected "isapack: isapack_toolkit_prebuilt: prebuilt gfx90a (${FATBIN}, bundle at 0x0, entry 'hipv4-amdgcn-amd-amdhsa--gfx90a') left out: it runs on none of the covered targets; add a selector that covers it to the library's GPU_TARGETS to keep it\n")
if(NOT _result EQUAL 0 OR NOT _stdout STREQUAL _expected OR NOT EXISTS "${_out}")
  string(APPEND _failures "\nthe .hip_fatbin: exit ${_result}, expected 0 and\n  ${_expected}got\n  ${_stdout}${_stderr}")
endif()

if(_failures)
  message(FATAL_ERROR "the import did not refuse as expected:${_failures}")
endif()
message(STATUS "the import refused 6 kinds of bad input by name, left nothing behind, and kept what the good one serves")
