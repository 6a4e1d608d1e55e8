# Builds the device library once per code object the expansion chose:
#   clang -emit-llvm (per source) -> llvm-link -> ld.lld -shared (LTO)
#   -> llvm-objcopy (drop .comment) -> validate -> <name>.hsaco
# The validated .hsaco only appears after validation passed (the validator
# writes a temporary file and renames it), so an interrupted or failed step
# never leaves a code object that a later build would embed.
#
# Device compiles use only the flags below: no CFLAGS from the environment,
# no host hardening flags (-fstack-protector-strong, -fcf-protection and
# friends are host-only and meaningless or harmful for AMDGPU code).

# Flags for every device compile. No debug info and no identity strings; the
# source path is mapped so no build path reaches even the intermediate bitcode.
set(ISAPACK_DEVICE_CFLAGS
  -x c -std=c17
  --target=amdgcn-amd-amdhsa
  -nogpulib -ffreestanding -fno-ident -fvisibility=hidden
  -O3 -Wall -Wextra
  "-ffile-prefix-map=${PROJECT_SOURCE_DIR}=."
  "-ffile-prefix-map=${PROJECT_BINARY_DIR}=.")

# isapack_code_object_file_name(<out> <target-id>)
# amdgcn-amd-amdhsa--<target-id>.hsaco, the name offload tooling uses.
function(isapack_code_object_file_name out target_id)
  set(${out} "amdgcn-amd-amdhsa--${target_id}.hsaco" PARENT_SCOPE)
endfunction()

# isapack_add_code_object(
#   TARGET_ID <id>               e.g. gfx11-generic or gfx90a:xnack+
#   CODE_OBJECT_VERSION <4|5|6>
#   SOURCES <file>...
#   INCLUDE_DIRS <dir>...
#   DEPENDS <file>...            headers the sources include
#   OUTPUT_DIR <dir>
#   VALIDATOR <executable target>
#   OUT_FILE <var>)              receives the validated .hsaco path
function(isapack_add_code_object)
  cmake_parse_arguments(PARSE_ARGV 0 ARG ""
    "TARGET_ID;CODE_OBJECT_VERSION;OUTPUT_DIR;VALIDATOR;OUT_FILE"
    "SOURCES;INCLUDE_DIRS;DEPENDS")
  isapack_code_object_file_name(_file_name "${ARG_TARGET_ID}")
  string(MAKE_C_IDENTIFIER "${ARG_TARGET_ID}" _key)
  set(_work "${ARG_OUTPUT_DIR}/work/${_key}")
  set(_final "${ARG_OUTPUT_DIR}/${_file_name}")
  string(REGEX REPLACE ":.*" "" _processor "${ARG_TARGET_ID}")
  set(_includes)
  foreach(_dir IN LISTS ARG_INCLUDE_DIRS)
    list(APPEND _includes "-I${_dir}")
  endforeach()

  set(_bitcode)
  foreach(_source IN LISTS ARG_SOURCES)
    get_filename_component(_stem "${_source}" NAME_WE)
    set(_bc "${_work}/${_stem}.bc")
    add_custom_command(
      OUTPUT "${_bc}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${_work}"
      COMMAND "${ISAPACK_CLANG}" ${ISAPACK_DEVICE_CFLAGS} ${_includes}
        "-mcpu=${ARG_TARGET_ID}" "-mcode-object-version=${ARG_CODE_OBJECT_VERSION}"
        -emit-llvm -c "${_source}" -o "${_bc}"
      DEPENDS "${_source}" ${ARG_DEPENDS}
      COMMENT "Compiling ${_stem}.c for ${ARG_TARGET_ID} (code object v${ARG_CODE_OBJECT_VERSION})"
      VERBATIM)
    list(APPEND _bitcode "${_bc}")
  endforeach()

  add_custom_command(
    OUTPUT "${_final}"
    COMMAND "${ISAPACK_LLVM_LINK}" ${_bitcode} -o "${_work}/device_library.bc"
    COMMAND "${ISAPACK_LLD}" -shared --build-id=none --no-undefined
      "-plugin-opt=mcpu=${_processor}" -plugin-opt=O3
      "${_work}/device_library.bc" -o "${_work}/linked.so"
    COMMAND "${ISAPACK_LLVM_OBJCOPY}" --remove-section=.comment
      "${_work}/linked.so" "${_work}/unvalidated.hsaco"
    COMMAND "${ARG_VALIDATOR}" "${_work}/unvalidated.hsaco" "${_final}"
      "${ARG_TARGET_ID}" "${ARG_CODE_OBJECT_VERSION}"
    DEPENDS ${_bitcode} "${ARG_VALIDATOR}"
    COMMENT "Linking and validating ${_file_name}"
    VERBATIM)
  set(${ARG_OUT_FILE} "${_final}" PARENT_SCOPE)
endfunction()

# isapack_write_catalog_manifest(<path> <files> <build-info-json>)
# The input of tools/pipeline/pack_catalog: one entry per code object of the
# expansion (ISAPACK_CODE_OBJECTS ...) with its validated file.
function(isapack_write_catalog_manifest path files build_info)
  set(_entries "[]")
  set(_i 0)
  foreach(_object _version _file IN ZIP_LISTS ISAPACK_CODE_OBJECTS ISAPACK_CODE_OBJECT_VERSIONS files)
    set(_entry "{}")
    string(JSON _entry SET "${_entry}" target_id "\"${_object}\"")
    string(JSON _entry SET "${_entry}" code_object_version ${_version})
    string(JSON _entry SET "${_entry}" path "\"${_file}\"")
    string(JOIN "\",\"" _covers ${ISAPACK_CODE_OBJECT_COVERS_${_i}})
    string(JSON _entry SET "${_entry}" covers "[\"${_covers}\"]")
    string(JSON _entries SET "${_entries}" ${_i} "${_entry}")
    math(EXPR _i "${_i} + 1")
  endforeach()
  set(_json "{}")
  string(JSON _json SET "${_json}" entries "${_entries}")
  string(JSON _json SET "${_json}" zstd_level 19)
  string(JSON _json SET "${_json}" build_info "${build_info}")
  file(CONFIGURE OUTPUT "${path}" CONTENT "${_json}\n" @ONLY)
endfunction()
