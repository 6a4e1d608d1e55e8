# Finds the device toolchain (clang, ld.lld, llvm-link, llvm-objcopy of one
# LLVM major) and asks clang once which AMDGPU processors it can build.
#
# Cache variables (set them to pick a toolchain):
#   ISAPACK_CLANG   clang that compiles device code; default: the newest
#                   clang-N on PATH (Debian's spelling), then clang
#   ISAPACK_LLD     ld.lld of the same LLVM; default: ld.lld-N, then ld.lld
# Set in the caller by isapack_toolchain_setup():
#   ISAPACK_LLVM_LINK, ISAPACK_LLVM_OBJCOPY, ISAPACK_LLVM_READELF, ISAPACK_LLVM_NM
#                                            tools of the same LLVM major
#   ISAPACK_CLANG_VERSION                    e.g. 19.1.7
#   ISAPACK_CLANG_MAJOR                      e.g. 19
#   ISAPACK_CLANG_SUPPORTED                  processors from --print-supported-cpus
#   ISAPACK_TOOLCHAIN_PROBE                  "cached" or "probed" (what this configure did)

# The LLVM majors isapack looks for, newest first. 19 is the floor: LLVM 19
# is the first with generic processors.
set(_ISAPACK_LLVM_MAJORS 30 29 28 27 26 25 24 23 22 21 20 19)

# _isapack_find_versioned_tool(<var> <base> <major> <doc>)
# Finds <base>-<major>, then <base>, unless <var> is already set.
function(_isapack_find_versioned_tool var base major doc)
  if(${var})
    return()
  endif()
  set(_names)
  if(major)
    list(APPEND _names "${base}-${major}")
  endif()
  list(APPEND _names "${base}")
  find_program(${var} NAMES ${_names} DOC "${doc}")
endfunction()

# isapack_probe_clang(<clang> <out_version> <out_supported>)
# Runs clang --version and --print-supported-cpus for amdgcn-amd-amdhsa.
function(isapack_probe_clang clang out_version out_supported)
  execute_process(
    COMMAND "${clang}" --version
    OUTPUT_VARIABLE _version_text
    ERROR_VARIABLE _version_error
    RESULT_VARIABLE _result)
  if(NOT _result EQUAL 0 OR NOT _version_text MATCHES "clang version ([0-9]+\\.[0-9]+\\.[0-9]+)")
    message(FATAL_ERROR
      "ISAPACK_CLANG=${clang} does not run as clang (${_result}): ${_version_text}${_version_error}\n"
      "Install clang-19 or newer (Debian: apt-get install clang-19 lld-19 llvm-19) or set ISAPACK_CLANG.")
  endif()
  set(_version "${CMAKE_MATCH_1}")
  execute_process(
    COMMAND "${clang}" --target=amdgcn-amd-amdhsa -nogpulib --print-supported-cpus
    OUTPUT_VARIABLE _out
    ERROR_VARIABLE _err
    RESULT_VARIABLE _result)
  # clang prints the list on stdout or stderr depending on its version.
  set(_text "${_out}\n${_err}")
  if(NOT _result EQUAL 0 OR NOT _text MATCHES "Available CPUs for this target:(.*)")
    message(FATAL_ERROR
      "${clang} cannot list AMDGPU processors (exit ${_result}); its LLVM may lack the AMDGPU backend:\n${_text}")
  endif()
  string(REGEX REPLACE "Use -mcpu.*" "" _list "${CMAKE_MATCH_1}")
  string(REGEX MATCHALL "[a-z0-9][a-z0-9-]*" _cpus "${_list}")
  set(${out_version} "${_version}" PARENT_SCOPE)
  set(${out_supported} "${_cpus}" PARENT_SCOPE)
endfunction()

# isapack_toolchain_setup()
# Finds the tools and probes clang, caching the answer keyed by clang's path,
# size and modification time so a reconfigure does not run clang again.
function(isapack_toolchain_setup)
  if(NOT ISAPACK_CLANG)
    set(_names)
    foreach(_major IN LISTS _ISAPACK_LLVM_MAJORS)
      list(APPEND _names clang-${_major})
    endforeach()
    find_program(ISAPACK_CLANG NAMES ${_names} clang
      DOC "clang used for AMDGPU device code (LLVM 19 or newer)")
  endif()
  if(NOT ISAPACK_CLANG)
    message(FATAL_ERROR
      "No clang found for AMDGPU device code. Install clang-19, lld-19 and llvm-19 "
      "(Debian 12: apt-get install clang-19 lld-19 llvm-19) or set ISAPACK_CLANG.")
  endif()
  if(NOT IS_ABSOLUTE "${ISAPACK_CLANG}")
    # A bare name (ISAPACK_CLANG=clang-20) is looked up on PATH.
    find_program(_isapack_clang_on_path NAMES "${ISAPACK_CLANG}" NO_CACHE)
    if(_isapack_clang_on_path)
      set(ISAPACK_CLANG "${_isapack_clang_on_path}" CACHE FILEPATH "clang used for AMDGPU device code" FORCE)
    endif()
  endif()
  if(NOT EXISTS "${ISAPACK_CLANG}" OR IS_DIRECTORY "${ISAPACK_CLANG}")
    message(FATAL_ERROR
      "ISAPACK_CLANG is '${ISAPACK_CLANG}', which is not a file. Point it at clang 19 or newer "
      "(Debian 12: apt-get install clang-19 lld-19 llvm-19, then -DISAPACK_CLANG=/usr/bin/clang-19), "
      "or leave it unset to use the newest clang-N on PATH.")
  endif()
  get_filename_component(_clang_real "${ISAPACK_CLANG}" REALPATH)
  file(TIMESTAMP "${_clang_real}" _stamp "%s" UTC)
  file(SIZE "${_clang_real}" _size)
  set(_key "${ISAPACK_CLANG}|${_clang_real}|${_size}|${_stamp}")
  if(ISAPACK_TOOLCHAIN_PROBE_KEY STREQUAL _key)
    set(_probe cached)
  else()
    isapack_probe_clang("${ISAPACK_CLANG}" _version _supported)
    set(ISAPACK_CLANG_VERSION_CACHED "${_version}" CACHE INTERNAL "")
    set(ISAPACK_CLANG_SUPPORTED_CACHED "${_supported}" CACHE INTERNAL "")
    set(ISAPACK_TOOLCHAIN_PROBE_KEY "${_key}" CACHE INTERNAL "")
    set(_probe probed)
  endif()
  string(REGEX MATCH "^[0-9]+" _major "${ISAPACK_CLANG_VERSION_CACHED}")
  if(_major LESS 19)
    message(FATAL_ERROR
      "${ISAPACK_CLANG} is LLVM ${ISAPACK_CLANG_VERSION_CACHED}; isapack needs LLVM 19 or newer "
      "(generic code objects). Debian 12: apt-get install clang-19 lld-19 llvm-19.")
  endif()

  # ld.lld, llvm-link and llvm-objcopy of the same LLVM major as clang.
  _isapack_find_versioned_tool(ISAPACK_LLD ld.lld ${_major} "ld.lld of the device clang's LLVM")
  _isapack_find_versioned_tool(ISAPACK_LLVM_LINK llvm-link ${_major} "llvm-link of the device clang's LLVM")
  _isapack_find_versioned_tool(ISAPACK_LLVM_OBJCOPY llvm-objcopy ${_major} "llvm-objcopy of the device clang's LLVM")
  _isapack_find_versioned_tool(ISAPACK_LLVM_READELF llvm-readelf ${_major} "llvm-readelf of the device clang's LLVM")
  # Benchmarks only: what the runtime library is made of.
  _isapack_find_versioned_tool(ISAPACK_LLVM_NM llvm-nm ${_major} "llvm-nm of the device clang's LLVM (benchmarks)")
  # Tests and benchmarks only: HIP's bundler, to compare with and to inspect.
  _isapack_find_versioned_tool(ISAPACK_CLANG_OFFLOAD_BUNDLER clang-offload-bundler ${_major}
    "clang-offload-bundler of the device clang's LLVM (tests and benchmarks)")
  foreach(_tool ISAPACK_LLD ISAPACK_LLVM_LINK ISAPACK_LLVM_OBJCOPY ISAPACK_LLVM_READELF)
    if(NOT ${_tool})
      message(FATAL_ERROR
        "${_tool} not found for LLVM ${_major}. Debian: apt-get install lld-${_major} llvm-${_major}; "
        "or set ${_tool} to its path.")
    endif()
  endforeach()
  if(ISAPACK_BUILD_TESTS AND NOT ISAPACK_CLANG_OFFLOAD_BUNDLER)
    message(FATAL_ERROR
      "clang-offload-bundler not found for LLVM ${_major}: the tests and benchmarks compare with and "
      "inspect offload bundles. Debian: apt-get install clang-tools-${_major}; or set "
      "ISAPACK_CLANG_OFFLOAD_BUNDLER to its path, or configure with -DISAPACK_BUILD_TESTS=OFF.")
  endif()

  if(ISAPACK_CLANG_OFFLOAD_BUNDLER)
    # The bundler runs llvm-objcopy from PATH to write object files; Debian
    # ships the unversioned name only in the LLVM's own bin directory.
    file(REAL_PATH "${ISAPACK_CLANG_OFFLOAD_BUNDLER}" _bundler)
    get_filename_component(_llvm_bin "${_bundler}" DIRECTORY)
    set(ISAPACK_OFFLOAD_BUNDLER_COMMAND
      "${CMAKE_COMMAND}" -E env "PATH=${_llvm_bin}:$ENV{PATH}" "${ISAPACK_CLANG_OFFLOAD_BUNDLER}" PARENT_SCOPE)
  endif()

  set(ISAPACK_CLANG_VERSION "${ISAPACK_CLANG_VERSION_CACHED}" PARENT_SCOPE)
  set(ISAPACK_CLANG_MAJOR "${_major}" PARENT_SCOPE)
  set(ISAPACK_CLANG_SUPPORTED "${ISAPACK_CLANG_SUPPORTED_CACHED}" PARENT_SCOPE)
  set(ISAPACK_TOOLCHAIN_PROBE "${_probe}" PARENT_SCOPE)
endfunction()
