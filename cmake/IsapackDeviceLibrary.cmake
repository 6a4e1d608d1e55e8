# Device libraries — isapack's own and any project's — built the same way:
# the selectors expanded by the one engine (IsapackExpand.cmake), then once
# per code object the expansion chose:
#   clang -emit-llvm (per source) -> llvm-link -> ld.lld -shared (LTO)
#   -> llvm-objcopy (drop .comment) -> validate -> <name>.hsaco
# then every code object compressed into one catalog, linked into a static
# library with an accessor (isapack_add_device_library).
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
#   [COMPILE_OPTIONS <flag>...]  more device compiler flags
#   OUTPUT_DIR <dir>
#   VALIDATOR <executable target>
#   OUT_FILE <var>)              receives the validated .hsaco path
function(isapack_add_code_object)
  cmake_parse_arguments(PARSE_ARGV 0 ARG ""
    "TARGET_ID;CODE_OBJECT_VERSION;OUTPUT_DIR;VALIDATOR;OUT_FILE"
    "SOURCES;INCLUDE_DIRS;DEPENDS;COMPILE_OPTIONS")
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
      COMMAND ${CMAKE_C_COMPILER_LAUNCHER} "${ISAPACK_CLANG}" ${ISAPACK_DEVICE_CFLAGS} ${_includes}
        ${ARG_COMPILE_OPTIONS}
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

# isapack_write_catalog_manifest(<path> <files> <build-info-json>
#   [<objects-var> <versions-var> <covers-prefix>])
# The input of tools/pipeline/pack_catalog: one entry per code object of the
# expansion with its validated file. The expansion is read from
# ISAPACK_CODE_OBJECTS, ISAPACK_CODE_OBJECT_VERSIONS and
# ISAPACK_CODE_OBJECT_COVERS_<i>, or from the variables named.
function(isapack_write_catalog_manifest path files build_info)
  set(_objects_var ISAPACK_CODE_OBJECTS)
  set(_versions_var ISAPACK_CODE_OBJECT_VERSIONS)
  set(_covers_prefix ISAPACK_CODE_OBJECT_COVERS_)
  if(ARGC GREATER 3)
    set(_objects_var "${ARGV3}")
    set(_versions_var "${ARGV4}")
    set(_covers_prefix "${ARGV5}")
  endif()
  set(_entries "[]")
  set(_i 0)
  foreach(_object _version _file IN ZIP_LISTS ${_objects_var} ${_versions_var} files)
    set(_entry "{}")
    string(JSON _entry SET "${_entry}" target_id "\"${_object}\"")
    string(JSON _entry SET "${_entry}" code_object_version ${_version})
    string(JSON _entry SET "${_entry}" path "\"${_file}\"")
    string(JOIN "\",\"" _covers ${${_covers_prefix}${_i}})
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

get_filename_component(_ISAPACK_DEVICE_LIBRARY_TEMPLATES "${CMAKE_CURRENT_LIST_DIR}/device_library" ABSOLUTE)
set(_ISAPACK_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

# _isapack_catalog_accessor(<name> <symbol> <catalog> <dir> <out-source>)
# Writes <dir>/include/<name>.h and the source that links <catalog> into
# section .isapack_catalog (symbols <symbol>_catalog_begin/_end) with
# <name>_catalog_data() and <name>_catalog_data_size().
function(_isapack_catalog_accessor name symbol catalog dir out)
  set(ISAPACK_LIBRARY_NAME "${name}")
  set(ISAPACK_LIBRARY_SYMBOL "${symbol}")
  set(ISAPACK_LIBRARY_CATALOG "${catalog}")
  string(TOUPPER "${name}" ISAPACK_LIBRARY_GUARD)
  configure_file("${_ISAPACK_DEVICE_LIBRARY_TEMPLATES}/catalog.h.in" "${dir}/include/${name}.h" @ONLY)
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("C" IN_LIST _languages)
    set(_source "${dir}/${name}_catalog.c")
  else()
    set(_source "${dir}/${name}_catalog.cc")
  endif()
  configure_file("${_ISAPACK_DEVICE_LIBRARY_TEMPLATES}/catalog.c.in" "${_source}" @ONLY)
  set_source_files_properties("${_source}" PROPERTIES OBJECT_DEPENDS "${catalog}")
  set(${out} "${_source}" PARENT_SCOPE)
endfunction()

# isapack_add_device_library(<name>
#   SOURCES <file>...                freestanding C17 kernels (isapack/device/device_abi.h)
#   [OBJECTS <file>...]              prebuilt code objects, offload bundles, compressed bundles:
#                                    each amdgcn object is validated and kept when it runs on a
#                                    covered target, else left out and listed at build time
#   [GPU_TARGETS <selector>...]      default: ISAPACK_GPU_TARGETS, GPU_TARGETS,
#                                    AMDGPU_TARGETS, then all
#   [CODE_OBJECT_MODE generic|exact] default: ISAPACK_CODE_OBJECT_MODE, else generic
#   [CODE_OBJECT_VERSION 4|5]        exact code objects; default ISAPACK_CODE_OBJECT_VERSION, else 5
#   [STRICT_TARGETS]                 a left-out family member is an error
#   [COMPILE_OPTIONS <flag>...]      more device compiler flags
#   [INCLUDE_DIRECTORIES <dir>...]   for the device and the host build
#   [DEPENDS <file>...]              headers the sources include
#   [HOST_LIBRARY]                   also <name>_host: the sources built for the host
#                                    (a shared library exporting isapack_host_kernel_<kernel>),
#                                    what the simulated HSA runtime runs)
# Expands the selectors with the same engine, messages, configure summary
# and record (<build>/<name>-targets.json) as isapack's own build; compiles
# one code object per entry (device compiles go through
# CMAKE_C_COMPILER_LAUNCHER: ccache, sccache, distcc); validates each; packs
# them into <build>/<name>/catalog.bin; and creates the static library
# <name> whose header <name>.h declares <name>_catalog_data(),
# <name>_catalog_size() and <name>_catalog_open(isapack_catalog_t*). The
# catalog sits in section .isapack_catalog of whatever links it, where
# `isapack inspect` finds it. Target properties: ISAPACK_CATALOG (the file),
# ISAPACK_TARGETS_RECORD, ISAPACK_COVERED_TARGETS, ISAPACK_CODE_OBJECTS.
function(isapack_add_device_library name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "STRICT_TARGETS;HOST_LIBRARY"
    "CODE_OBJECT_MODE;CODE_OBJECT_VERSION;_EXPANSION;_RECORD;_EMBED_AS;_OBJECT_DIR;_CATALOG_DIR"
    "SOURCES;OBJECTS;GPU_TARGETS;COMPILE_OPTIONS;INCLUDE_DIRECTORIES;DEPENDS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "isapack_add_device_library(${name}): unknown arguments '${ARG_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT ISAPACK_CLANG_MAJOR)  # a consumer of the installed package: find the device LLVM now
    isapack_toolchain_setup()
  endif()
  if(NOT ARG_SOURCES AND NOT ARG_OBJECTS)
    message(FATAL_ERROR "isapack_add_device_library(${name}): SOURCES and OBJECTS are empty; name "
      "the kernel sources or the prebuilt code objects")
  endif()
  set(_prebuilt)
  foreach(_object IN LISTS ARG_OBJECTS)
    get_filename_component(_object "${_object}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND _prebuilt "${_object}")
  endforeach()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "isapack_add_device_library(${name}): the name becomes C identifiers "
      "(${name}_catalog_open); use letters, digits and underscores")
  endif()
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  set(_object_dir "${_dir}")
  set(_catalog_dir "${_dir}")
  if(ARG__OBJECT_DIR)  # isapack's own keeps its long-standing build-tree layout
    set(_object_dir "${ARG__OBJECT_DIR}")
    set(_catalog_dir "${ARG__CATALOG_DIR}")
  endif()
  set(_sources)
  foreach(_source IN LISTS ARG_SOURCES)
    get_filename_component(_source "${_source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND _sources "${_source}")
  endforeach()
  set(_includes "${ISAPACK_DEVICE_INCLUDE_DIR}")
  foreach(_include IN LISTS ARG_INCLUDE_DIRECTORIES)
    get_filename_component(_include "${_include}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND _includes "${_include}")
  endforeach()

  if(ARG__EXPANSION)  # isapack's own library: the expansion configure already ran
    set(_objects "${${ARG__EXPANSION}_OBJECTS}")
    set(_versions "${${ARG__EXPANSION}_OBJECT_VERSIONS}")
    set(_covers_prefix "${ARG__EXPANSION}_OBJECT_COVERS_")
    set(_record "${ARG__RECORD}")
    set(_covered "${ISAPACK_COVERED_TARGETS}")
  else()
    if(DEFINED ARG_GPU_TARGETS)
      set(_selectors "${ARG_GPU_TARGETS}")
      set(_from "GPU_TARGETS of isapack_add_device_library(${name})")
    else()
      isapack_resolve_selectors(_selectors _from)
    endif()
    foreach(_knob MODE VERSION)
      set(_default_MODE generic)
      set(_default_VERSION 5)
      if(ARG_CODE_OBJECT_${_knob})
        set(_${_knob} "${ARG_CODE_OBJECT_${_knob}}")
      elseif(ISAPACK_CODE_OBJECT_${_knob})
        set(_${_knob} "${ISAPACK_CODE_OBJECT_${_knob}}")
      else()
        set(_${_knob} "${_default_${_knob}}")
      endif()
    endforeach()
    set(_strict OFF)
    if(ARG_STRICT_TARGETS OR ISAPACK_STRICT_TARGETS)
      set(_strict ON)
    endif()
    set(_record "${CMAKE_CURRENT_BINARY_DIR}/${name}-targets.json")
    isapack_expand_gpu_targets(
      SELECTORS_VARIABLE _selectors
      FROM "${_from}"
      LIBRARY "${name}"
      MODE "${_MODE}"
      CODE_OBJECT_VERSION "${_VERSION}"
      SUPPORTED ${ISAPACK_CLANG_SUPPORTED}
      LLVM_MAJOR "${ISAPACK_CLANG_MAJOR}"
      STRICT "${_strict}"
      RECORD "${_record}"
      OUT_SUMMARY _summary
      OUT_PREFIX _lib
      OUT_ERROR _error)
    if(_error)
      message(FATAL_ERROR "isapack: ${name}: ${_error}")
    endif()
    foreach(_line IN LISTS _summary)
      message(STATUS "${_line}")
    endforeach()
    set(_objects "${_lib_OBJECTS}")
    set(_versions "${_lib_VERSIONS}")
    set(_covers_prefix _lib_COVERS_)
    set(_covered "${_lib_COVERED}")
  endif()

  file(GLOB _abi_headers CONFIGURE_DEPENDS "${ISAPACK_DEVICE_INCLUDE_DIR}/isapack/device/*.h")
  set(_files)
  set(_compiled_objects)
  set(_compiled_versions)
  foreach(_object _version IN ZIP_LISTS _objects _versions)
    if(NOT ARG_SOURCES)
      break()
    endif()
    list(APPEND _compiled_objects "${_object}")
    list(APPEND _compiled_versions "${_version}")
    isapack_add_code_object(
      TARGET_ID "${_object}"
      CODE_OBJECT_VERSION "${_version}"
      SOURCES ${_sources}
      INCLUDE_DIRS ${_includes}
      DEPENDS ${ARG_DEPENDS} ${_abi_headers}
      COMPILE_OPTIONS ${ARG_COMPILE_OPTIONS}
      OUTPUT_DIR "${_object_dir}"
      VALIDATOR "${ISAPACK_VALIDATOR}"
      OUT_FILE _file)
    list(APPEND _files "${_file}")
  endforeach()
  add_custom_target(${name}_code_objects DEPENDS ${_files})

  # The catalog: compressed, hashed, with the record embedded.
  set(_catalog "${_catalog_dir}/catalog.bin")
  file(READ "${_record}" _build_info)
  set(_manifest "${_catalog_dir}/manifest.json")
  if(_prebuilt)
    # Prebuilt code objects join the compiled ones at build time: the import
    # reads them, keeps what serves a covered target and lists the rest.
    set(_manifest "${_catalog_dir}/manifest-with-prebuilt.json")
    add_custom_command(
      OUTPUT "${_manifest}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${_catalog_dir}/prebuilt"
      COMMAND ${ISAPACK_IMPORT_CODE_OBJECTS} "${_catalog_dir}/manifest.json" "${_manifest}"
        "${_catalog_dir}/prebuilt" ${_prebuilt}
      DEPENDS ${_prebuilt} ${ISAPACK_IMPORT_CODE_OBJECTS_DEPENDS} "${_catalog_dir}/manifest.json"
      COMMENT "Importing the prebuilt code objects of ${name}"
      VERBATIM)
  endif()
  isapack_write_catalog_manifest("${_catalog_dir}/manifest.json" "${_files}" "${_build_info}"
    _compiled_objects _compiled_versions "${_covers_prefix}")
  add_custom_command(
    OUTPUT "${_catalog}" "${_catalog_dir}/catalog-report.json"
    COMMAND ${ISAPACK_PACK_CATALOG} "${_manifest}" "${_catalog}"
      "${_catalog_dir}/catalog-report.json"
    DEPENDS ${_files} ${ISAPACK_PACK_CATALOG_DEPENDS} "${_manifest}"
    COMMENT "Compressing the code objects of ${name} into its catalog"
    VERBATIM)
  add_custom_target(${name}_catalog DEPENDS "${_catalog}")

  # The catalog linked in, and its accessor: a static library, or (isapack's
  # own, _EMBED_AS) a source that libisapack compiles in.
  if(ARG__EMBED_AS)
    _isapack_catalog_accessor(${name} "${ARG__EMBED_AS}" "${_catalog}" "${_catalog_dir}" _accessor)
    set(${name}_ACCESSOR "${_accessor}" PARENT_SCOPE)
  else()
    _isapack_catalog_accessor(${name} ${name} "${_catalog}" "${_dir}" _accessor)
    add_library(${name} STATIC "${_accessor}")
    add_dependencies(${name} ${name}_catalog)
    target_include_directories(${name} PUBLIC "$<BUILD_INTERFACE:${_dir}/include>")
    target_link_libraries(${name} PUBLIC ${ISAPACK_RUNTIME_TARGET})
    set_target_properties(${name} PROPERTIES
      POSITION_INDEPENDENT_CODE ON
      ISAPACK_CATALOG "${_catalog}"
      ISAPACK_TARGETS_RECORD "${_record}"
      ISAPACK_COVERED_TARGETS "${_covered}"
      ISAPACK_CODE_OBJECTS "${_objects}")
  endif()
  set(${name}_CATALOG "${_catalog}" PARENT_SCOPE)
  set(${name}_CODE_OBJECT_FILES "${_files}" PARENT_SCOPE)

  if(ARG_HOST_LIBRARY)
    # The same sources for the host: each kernel exports
    # isapack_host_kernel_<name> for the simulated HSA runtime.
    add_library(${name}_host SHARED ${_sources})
    target_include_directories(${name}_host PRIVATE ${_includes})
    set_target_properties(${name}_host PROPERTIES C_STANDARD 17 C_STANDARD_REQUIRED ON)
  endif()
endfunction()

# isapack_package_gpu_metadata(<device library>...)
# Before include(CPack): the packages this project's CPack makes say which
# GPUs they run on, as distributions record it — Debian's
# X-ROCm-GPU-Architecture field in every .deb (a CPack post-build script
# adds it: CPack cannot write such a field) and an isapack-gpu(<processor>)
# provide per GPU in every .rpm, so `dnf install 'isapack-gpu(gfx1103)'`
# finds them. The GPUs are the processors every named device library covers
# (a program that needs all of them runs only where all of them do), in the
# first library's order, without feature suffixes. Sets
# CPACK_ISAPACK_GPU_ARCHITECTURE and appends to CPACK_RPM_PACKAGE_PROVIDES
# and CPACK_POST_BUILD_SCRIPTS in the caller's scope.
function(isapack_package_gpu_metadata)
  if(ARGC EQUAL 0)
    message(FATAL_ERROR "isapack_package_gpu_metadata: name the device libraries "
      "(targets of isapack_add_device_library) whose GPUs the packages run on")
  endif()
  set(_processors "")
  set(_first ON)
  foreach(_library IN LISTS ARGV)
    if(NOT TARGET ${_library})
      message(FATAL_ERROR "isapack_package_gpu_metadata: '${_library}' is not a target; "
        "name a device library made by isapack_add_device_library")
    endif()
    get_target_property(_covered ${_library} ISAPACK_COVERED_TARGETS)
    if(NOT _covered)
      message(FATAL_ERROR "isapack_package_gpu_metadata: '${_library}' is not a device library "
        "made by isapack_add_device_library (it has no ISAPACK_COVERED_TARGETS)")
    endif()
    list(TRANSFORM _covered REPLACE ":.*" "")
    list(REMOVE_DUPLICATES _covered)
    if(_first)
      set(_processors "${_covered}")
      set(_first OFF)
    else()
      set(_common "")
      foreach(_processor IN LISTS _processors)
        if(_processor IN_LIST _covered)
          list(APPEND _common "${_processor}")
        endif()
      endforeach()
      set(_processors "${_common}")
    endif()
  endforeach()
  if(NOT _processors)
    message(FATAL_ERROR "isapack_package_gpu_metadata: no GPU is covered by every one of "
      "'${ARGV}'; choose selectors that overlap")
  endif()
  string(JOIN " " _field ${_processors})
  set(CPACK_ISAPACK_GPU_ARCHITECTURE "${_field}" PARENT_SCOPE)
  set(_provides "${CPACK_RPM_PACKAGE_PROVIDES}")
  foreach(_processor IN LISTS _processors)
    if(_provides)
      string(APPEND _provides ", ")
    endif()
    string(APPEND _provides "isapack-gpu(${_processor})")
  endforeach()
  set(CPACK_RPM_PACKAGE_PROVIDES "${_provides}" PARENT_SCOPE)
  set(CPACK_POST_BUILD_SCRIPTS ${CPACK_POST_BUILD_SCRIPTS}
    "${_ISAPACK_CMAKE_DIR}/IsapackCPackGpuField.cmake" PARENT_SCOPE)
  message(STATUS "isapack: packages run on ${_field}")
endfunction()
