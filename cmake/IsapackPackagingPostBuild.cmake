# Run by cpack after each generator (CPACK_POST_BUILD_SCRIPTS), with the
# CPack variables of cmake/IsapackPackaging.cmake and CPACK_PACKAGE_FILES.
#
# Debian packages: CPack 3.25 cannot write Multi-Arch (3.31 can) or a
# user-defined field, and calls ldconfig from maintainer scripts where
# Debian uses an ldconfig trigger. Each .deb is unpacked with dpkg-deb, its
# control data finished, and rebuilt with dpkg-deb (IsapackDebControl.cmake,
# shared with isapack_package_gpu_metadata's post-build script).
# Then, for every generator, a table: package, size, files.

include("${CMAKE_CURRENT_LIST_DIR}/IsapackText.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/IsapackDebControl.cmake")
find_program(RPM rpm)

# True when a maintainer script does nothing but run ldconfig.
function(_isapack_only_ldconfig out script)
  file(READ "${script}" _text)
  string(REGEX REPLACE "#![^\n]*\n" "" _text "${_text}")
  string(REGEX REPLACE "set -e|if \\[ \"\\$1\" = \"(configure|remove)\" \\]; then|ldconfig|fi|[ \t\n]" "" _text "${_text}")
  if(_text STREQUAL "")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Installed-Size as dpkg-gencontrol computes it (KiB: each file and symlink
# rounded up, 1 for each directory), from the unpacked package: CPack 3.25
# measures before it strips the binaries.
function(_isapack_installed_size out root)
  file(GLOB_RECURSE _entries LIST_DIRECTORIES true "${root}/*")
  set(_kib 1)  # the root directory
  foreach(_entry IN LISTS _entries)
    if(_entry MATCHES "^${root}/DEBIAN(/|$)")
      continue()
    endif()
    if(IS_SYMLINK "${_entry}")
      file(READ_SYMLINK "${_entry}" _target)
      string(LENGTH "${_target}" _size)
    elseif(IS_DIRECTORY "${_entry}")
      math(EXPR _kib "${_kib} + 1")
      continue()
    else()
      file(SIZE "${_entry}" _size)
    endif()
    math(EXPR _kib "${_kib} + (${_size} + 1023) / 1024")
  endforeach()
  set(${out} ${_kib} PARENT_SCOPE)
endfunction()

function(_isapack_finish_deb deb)
  set(_root "${deb}.finish")
  isapack_deb_unpack("${deb}" "${_root}")
  file(READ "${_root}/DEBIAN/control" _control)
  string(REGEX MATCH "Package: ([^\n]+)" _ "${_control}")
  set(_package "${CMAKE_MATCH_1}")
  set(_fields "")
  if(_package STREQUAL CPACK_ISAPACK_RUNTIME_DEB OR _package STREQUAL "libisapack-dev")
    string(APPEND _fields "Multi-Arch: same\n")
  endif()
  if(_package STREQUAL CPACK_ISAPACK_RUNTIME_DEB)
    # The GPUs libisapack's binaries cover (tools/cli/CMakeLists.txt).
    file(READ "${CPACK_ISAPACK_GPU_ARCHITECTURE_FILE}" _gpus)
    string(STRIP "${_gpus}" _gpus)
    string(APPEND _fields "X-ROCm-GPU-Architecture: ${_gpus}\n")
    file(WRITE "${_root}/DEBIAN/triggers" "activate-noawait ldconfig\n")
  endif()
  isapack_deb_add_fields("${_root}" "${_fields}")
  file(READ "${_root}/DEBIAN/control" _control)
  _isapack_installed_size(_installed "${_root}")
  string(REGEX REPLACE "\nInstalled-Size: [0-9]+\n" "\nInstalled-Size: ${_installed}\n" _control "${_control}")
  file(WRITE "${_root}/DEBIAN/control" "${_control}")
  foreach(_script postinst postrm)
    if(EXISTS "${_root}/DEBIAN/${_script}")
      _isapack_only_ldconfig(_only "${_root}/DEBIAN/${_script}")
      if(_only)
        file(REMOVE "${_root}/DEBIAN/${_script}")
      endif()
    endif()
  endforeach()
  file(GLOB _control_files "${_root}/DEBIAN/*")
  foreach(_file IN LISTS _control_files)
    get_filename_component(_name "${_file}" NAME)
    if(_name MATCHES "^(preinst|postinst|prerm|postrm|config)$")
      file(CHMOD "${_file}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    else()
      file(CHMOD "${_file}" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
    endif()
  endforeach()
  isapack_deb_repack("${_root}" "${deb}")
endfunction()

# Files (not directories) in a package.
function(_isapack_count_files out package)
  if(package MATCHES "\\.deb$")
    execute_process(COMMAND "${ISAPACK_DPKG_DEB}" --contents "${package}" OUTPUT_VARIABLE _list)
    string(REGEX MATCHALL "(^|\n)[^d\n][^\n]*" _entries "${_list}")
  else()
    execute_process(COMMAND "${RPM}" -qp --queryformat "[%{FILEMODES:perms}\n]" "${package}"
      OUTPUT_VARIABLE _list ERROR_QUIET)
    string(REGEX MATCHALL "(^|\n)[^d\n][^\n]*" _entries "${_list}")
  endif()
  list(LENGTH _entries _count)
  set(${out} ${_count} PARENT_SCOPE)
endfunction()

set(_rows "")
foreach(_package IN LISTS CPACK_PACKAGE_FILES)
  if(_package MATCHES "\\.deb$")
    _isapack_finish_deb("${_package}")
  endif()
  file(SIZE "${_package}" _size)
  _isapack_count_files(_files "${_package}")
  get_filename_component(_name "${_package}" NAME)
  isapack_align(_name "${_name}" 44 LEFT)
  string(APPEND _rows "  ${_name}${_size} bytes  ${_files} files\n")
endforeach()
message(STATUS "isapack packages in ${CPACK_PACKAGE_DIRECTORY}:\n${_rows}")
