# Install rules, in four components (one per package):
#   runtime  libisapack.so.N (the embedded code objects live inside it)
#   dev      headers, the libisapack.so link, the CMake package isapack::isapack,
#            isapack.pc and the lists of selectors, code objects and targets;
#            and the toolkit: isapack_add_device_library (the CMake modules and
#            their host programs in <libdir>/isapack) and the device ABI headers
#   tools    the isapack command and its man page
#   tests    the installed tests, the simulated HSA runtime and a runner script
#
# One build tree serves Debian and RPM layouts: CPack sets
# ISAPACK_PACKAGE_LAYOUT (deb or rpm) in the environment for each generator
# (cmake/IsapackPackaging.cmake), and the install script picks the library
# directory and the packaging documents from it. dh and rpmbuild leave it
# unset: they use the configured CMAKE_INSTALL_LIBDIR and add their own
# documents (debian/*.docs, %license/%doc). Because the library directory is
# only known at install time, the CMake package and pkg-config files are
# written then too, relative to where they land.
include(GNUInstallDirs)

set(ISAPACK_DEB_PACKAGES runtime libisapack${ISAPACK_SOVERSION} dev libisapack-dev
  tools isapack-tools tests isapack-tests)

# The packages' library directory does not depend on how the build tree was
# configured: GNUInstallDirs gives lib/<multiarch> only for the /usr prefix,
# and a plain `cmake -B build` has /usr/local.
if(CMAKE_LIBRARY_ARCHITECTURE)
  set(_isapack_deb_libdir "lib/${CMAKE_LIBRARY_ARCHITECTURE}")
else()
  set(_isapack_deb_libdir "lib")
endif()

# Runs first: the install-time layout.
install(CODE "
set(ISAPACK_PACKAGE_LAYOUT \"\$ENV{ISAPACK_PACKAGE_LAYOUT}\")
if(ISAPACK_PACKAGE_LAYOUT STREQUAL \"rpm\")
  set(ISAPACK_LIBDIR lib64)
elseif(ISAPACK_PACKAGE_LAYOUT STREQUAL \"deb\")
  set(ISAPACK_LIBDIR \"${_isapack_deb_libdir}\")
else()
  set(ISAPACK_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
endif()
" ALL_COMPONENTS)

# --- runtime ------------------------------------------------------------------
install(TARGETS isapack
  LIBRARY DESTINATION "\${ISAPACK_LIBDIR}" COMPONENT runtime NAMELINK_COMPONENT dev)

# --- dev -----------------------------------------------------------------------
install(FILES "${PROJECT_SOURCE_DIR}/runtime/include/isapack/isapack.h"
  "${PROJECT_SOURCE_DIR}/core/include/isapack/status_code.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/isapack" COMPONENT dev)
install(FILES "${PROJECT_BINARY_DIR}/isapack-targets.json"
  DESTINATION "\${ISAPACK_LIBDIR}/cmake/isapack" COMPONENT dev)
include(CMakePackageConfigHelpers)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/isapackConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/isapackConfigVersion.cmake"
  DESTINATION "\${ISAPACK_LIBDIR}/cmake/isapack" COMPONENT dev)
string(JOIN ";" ISAPACK_CONFIG_SELECTORS ${ISAPACK_SELECTORS})
string(JOIN ";" ISAPACK_CONFIG_CODE_OBJECTS ${ISAPACK_CODE_OBJECTS})
string(JOIN ";" ISAPACK_CONFIG_TARGETS ${ISAPACK_COVERED_TARGETS})
configure_file("${PROJECT_SOURCE_DIR}/cmake/isapackConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/isapackConfig.cmake.in.configured" @ONLY)
configure_file("${PROJECT_SOURCE_DIR}/cmake/isapack.pc.in"
  "${PROJECT_BINARY_DIR}/isapack.pc.in.configured" @ONLY)
# The CMake package finds the library relative to itself; isapack.pc names
# the prefix outright, so that pkg-config prints -I/usr/include as the system
# directory it filters out (a ${pcfiledir}-relative path would reach
# compilers as -I/usr/lib/<triplet>/pkgconfig/../../../include and break
# #include_next in C++ consumers). CPack installs into a staging directory
# and passes the packages' prefix in ISAPACK_PACKAGE_PREFIX.
install(CODE "
# The prefix as seen from the library directory (e.g. ../.. for lib/x86_64-linux-gnu).
file(RELATIVE_PATH _to_prefix \"/prefix/\${ISAPACK_LIBDIR}\" \"/prefix\")
if(DEFINED ENV{ISAPACK_PACKAGE_PREFIX})
  set(_prefix \"\$ENV{ISAPACK_PACKAGE_PREFIX}\")
else()
  set(_prefix \"\${CMAKE_INSTALL_PREFIX}\")
endif()
foreach(_file isapackConfig.cmake isapack.pc)
  file(READ \"${PROJECT_BINARY_DIR}/\${_file}.in.configured\" _text)
  string(REPLACE __ISAPACK_LIBDIR_TO_PREFIX__ \"\${_to_prefix}\" _text \"\${_text}\")
  string(REPLACE __ISAPACK_PREFIX__ \"\${_prefix}\" _text \"\${_text}\")
  string(REPLACE __ISAPACK_LIBDIR__ \"\${ISAPACK_LIBDIR}\" _text \"\${_text}\")
  file(WRITE \"${PROJECT_BINARY_DIR}/install-layout/\${ISAPACK_LIBDIR}/\${_file}\" \"\${_text}\")
endforeach()
" COMPONENT dev)
install(FILES "${PROJECT_BINARY_DIR}/install-layout/\${ISAPACK_LIBDIR}/isapackConfig.cmake"
  DESTINATION "\${ISAPACK_LIBDIR}/cmake/isapack" COMPONENT dev)
install(FILES "${PROJECT_BINARY_DIR}/install-layout/\${ISAPACK_LIBDIR}/isapack.pc"
  DESTINATION "\${ISAPACK_LIBDIR}/pkgconfig" COMPONENT dev)

# The toolkit: isapack_add_device_library for other projects' device code —
# the same modules, templates and host programs this build uses, found by
# isapackConfig.cmake relative to itself.
install(FILES "${PROJECT_SOURCE_DIR}/device_library/include/isapack/device/device_abi.h"
  "${PROJECT_SOURCE_DIR}/device_library/include/isapack/device/dispatch_packet.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/isapack/device" COMPONENT dev)
install(FILES
  "${PROJECT_SOURCE_DIR}/cmake/IsapackCPackGpuField.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/IsapackDebControl.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/IsapackDeviceLibrary.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/IsapackExpand.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/IsapackGpuTargets.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/IsapackJson.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/IsapackToolchain.cmake"
  DESTINATION "\${ISAPACK_LIBDIR}/cmake/isapack" COMPONENT dev)
install(FILES
  "${PROJECT_SOURCE_DIR}/cmake/device_library/catalog.c.in"
  "${PROJECT_SOURCE_DIR}/cmake/device_library/catalog.h.in"
  DESTINATION "\${ISAPACK_LIBDIR}/cmake/isapack/device_library" COMPONENT dev)
install(TARGETS isapack_expand_gpu_targets isapack_validate_code_object isapack_pack_catalog
    isapack_import_code_objects
  RUNTIME DESTINATION "\${ISAPACK_LIBDIR}/isapack" COMPONENT dev)

# --- tools ---------------------------------------------------------------------
install(TARGETS isapack_cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT tools)
# Compressed here (gzip -n: no name or time stamp) so every packaging path
# ships the same file.
add_custom_command(
  OUTPUT "${PROJECT_BINARY_DIR}/man/isapack.1.gz"
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${PROJECT_BINARY_DIR}/man"
  COMMAND gzip -9n -c "${PROJECT_SOURCE_DIR}/tools/cli/isapack.1" > "${PROJECT_BINARY_DIR}/man/isapack.1.gz"
  DEPENDS "${PROJECT_SOURCE_DIR}/tools/cli/isapack.1"
  COMMENT "Compressing the man page")
add_custom_target(isapack_man_page ALL DEPENDS "${PROJECT_BINARY_DIR}/man/isapack.1.gz")
install(FILES "${PROJECT_BINARY_DIR}/man/isapack.1.gz"
  DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" COMPONENT tools)

# --- packaging documents, for CPack's layouts only -------------------------------
# Debian: copyright and changelog.gz in every package's doc directory, and the
# README for the library, as dh_installdocs/dh_installchangelogs place them.
add_custom_command(
  OUTPUT "${PROJECT_BINARY_DIR}/doc/changelog.gz" "${PROJECT_BINARY_DIR}/doc/README.md.gz"
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${PROJECT_BINARY_DIR}/doc"
  COMMAND gzip -9n -c "${PROJECT_SOURCE_DIR}/debian/changelog" > "${PROJECT_BINARY_DIR}/doc/changelog.gz"
  COMMAND gzip -9n -c "${PROJECT_SOURCE_DIR}/README.md" > "${PROJECT_BINARY_DIR}/doc/README.md.gz"
  DEPENDS "${PROJECT_SOURCE_DIR}/debian/changelog" "${PROJECT_SOURCE_DIR}/README.md"
  COMMENT "Compressing the packaging documents")
add_custom_target(isapack_package_docs ALL
  DEPENDS "${PROJECT_BINARY_DIR}/doc/changelog.gz" "${PROJECT_BINARY_DIR}/doc/README.md.gz")
set(_pairs ${ISAPACK_DEB_PACKAGES})
while(_pairs)
  list(POP_FRONT _pairs _component _package)
  set(_extra "")
  if(_component STREQUAL "runtime")
    set(_extra "\"${PROJECT_BINARY_DIR}/doc/README.md.gz\"")
  endif()
  install(CODE "
if(ISAPACK_PACKAGE_LAYOUT STREQUAL \"deb\")
  file(INSTALL \"${PROJECT_SOURCE_DIR}/debian/copyright\" \"${PROJECT_BINARY_DIR}/doc/changelog.gz\" ${_extra}
    DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATAROOTDIR}/doc/${_package}\"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()
" COMPONENT ${_component})
endwhile()
# The lintian override for X-ROCm-GPU-Architecture, where dh_lintian puts it.
install(CODE "
if(ISAPACK_PACKAGE_LAYOUT STREQUAL \"deb\")
  file(INSTALL \"${PROJECT_SOURCE_DIR}/debian/libisapack${ISAPACK_SOVERSION}.lintian-overrides\"
    DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides\"
    RENAME libisapack${ISAPACK_SOVERSION}
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()
" COMPONENT runtime)
# isapack-tools' lintian override (coverage --installed reads a root's dpkg database).
install(CODE "
if(ISAPACK_PACKAGE_LAYOUT STREQUAL \"deb\")
  file(INSTALL \"${PROJECT_SOURCE_DIR}/debian/isapack-tools.lintian-overrides\"
    DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides\"
    RENAME isapack-tools
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()
" COMPONENT tools)
# RPM: %license and %doc of the main package.
install(CODE "
if(ISAPACK_PACKAGE_LAYOUT STREQUAL \"rpm\")
  file(INSTALL \"${PROJECT_SOURCE_DIR}/LICENSE\"
    DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATAROOTDIR}/licenses/isapack\"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  file(INSTALL \"${PROJECT_SOURCE_DIR}/README.md\"
    DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATAROOTDIR}/doc/isapack\"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()
" COMPONENT runtime)
