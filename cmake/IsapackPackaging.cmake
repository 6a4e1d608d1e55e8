# CPack: the split .deb and .rpm packages, from one build tree, into
# <build>/packages. Package names (one scheme):
#   component  Debian            RPM
#   runtime    libisapack<N>     isapack
#   dev        libisapack-dev    isapack-devel
#   tools      isapack-tools     isapack-tools
#   tests      isapack-tests     isapack-tests
# Descriptions come from debian/control. cmake/IsapackCPackProjectConfig.cmake
# runs at cpack time for each generator (layout, version-pinned RPM
# requirements); cmake/IsapackPackagingPostBuild.cmake then finishes the debs
# with dpkg-deb (fields CPack 3.25 cannot write) and prints the table of
# packages.

# _isapack_debian_description(<package> <out_summary> <out_extended>)
# The Description of a binary package in debian/control: its first line and
# its extended text (continuation lines without their leading space, " ." as
# an empty line).
function(_isapack_debian_description package out_summary out_extended)
  file(STRINGS "${PROJECT_SOURCE_DIR}/debian/control" _lines)
  set(_in_package FALSE)
  set(_in_description FALSE)
  set(_summary "")
  set(_extended "")
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^Package: (.*)$")
      set(_in_package FALSE)
      if(CMAKE_MATCH_1 STREQUAL package)
        set(_in_package TRUE)
      endif()
      set(_in_description FALSE)
    elseif(_in_package AND _line MATCHES "^Description: (.*)$")
      set(_summary "${CMAKE_MATCH_1}")
      set(_in_description TRUE)
    elseif(_in_description AND _line MATCHES "^ (.*)$")
      set(_text "${CMAKE_MATCH_1}")
      if(_text STREQUAL ".")
        set(_text "")
      endif()
      string(APPEND _extended "${_text}\n")
    else()
      set(_in_description FALSE)
    endif()
  endforeach()
  if(NOT _summary)
    message(FATAL_ERROR "debian/control has no Description for ${package}")
  endif()
  string(REGEX REPLACE "\n$" "" _extended "${_extended}")
  set(${out_summary} "${_summary}" PARENT_SCOPE)
  set(${out_extended} "${_extended}" PARENT_SCOPE)
endfunction()

set(CPACK_PACKAGE_NAME isapack)
set(CPACK_PACKAGE_VENDOR "isapack developers")
set(CPACK_PACKAGE_CONTACT "isapack developers <dev@isapack.invalid>")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
# CPackDeb puts CPACK_PACKAGE_DESCRIPTION_SUMMARY in front of each
# component's own synopsis unless it is CPack's placeholder; every package
# has its own summary below, so the global one is that placeholder.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_GENERATOR DEB RPM)
set(CPACK_PACKAGE_DIRECTORY "${PROJECT_BINARY_DIR}/packages")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_COMPONENTS_ALL runtime dev tools)
if(ISAPACK_BUILD_TESTS)
  list(APPEND CPACK_COMPONENTS_ALL tests)
endif()
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_COMPONENT_TOOLS_DEPENDS runtime)
set(CPACK_COMPONENT_TESTS_DEPENDS runtime tools)
set(CPACK_PROJECT_CONFIG_FILE "${PROJECT_SOURCE_DIR}/cmake/IsapackCPackProjectConfig.cmake")
set(CPACK_POST_BUILD_SCRIPTS "${PROJECT_SOURCE_DIR}/cmake/IsapackPackagingPostBuild.cmake")
# The GPUs the runtime package covers, read from the built library
# (tools/cli/CMakeLists.txt) by IsapackCPackProjectConfig.cmake and the
# post-build script: the deb field and the rpm provides.
set(CPACK_ISAPACK_GPU_ARCHITECTURE_FILE "${PROJECT_BINARY_DIR}/isapack-gpu-architecture.txt")
set(CPACK_ISAPACK_RUNTIME_DEB "libisapack${ISAPACK_SOVERSION}")
set(CPACK_ISAPACK_SOURCE_DIR "${PROJECT_SOURCE_DIR}")

# --- Debian ---------------------------------------------------------------------
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The other packages link libisapack from this build (their dependency on it
# is the pinned component dependency).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${PROJECT_BINARY_DIR}/runtime")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(_triples
  runtime "libisapack${ISAPACK_SOVERSION}" libs
  dev libisapack-dev libdevel
  tools isapack-tools utils
  tests isapack-tests misc)
while(_triples)
  list(POP_FRONT _triples _component _package _section)
  string(TOUPPER "${_component}" _upper)
  _isapack_debian_description("${_package}" _summary _extended)
  set(CPACK_DEBIAN_${_upper}_PACKAGE_NAME "${_package}")
  set(CPACK_DEBIAN_${_upper}_PACKAGE_SECTION "${_section}")
  set(CPACK_DEBIAN_${_upper}_DESCRIPTION "${_summary}\n${_extended}")
  set(CPACK_COMPONENT_${_upper}_DESCRIPTION "${_summary}\n${_extended}")
  # Debian synopses start in lower case, RPM summaries with a capital.
  string(SUBSTRING "${_summary}" 0 1 _first)
  string(SUBSTRING "${_summary}" 1 -1 _rest)
  string(TOUPPER "${_first}" _first)
  set(CPACK_RPM_${_upper}_PACKAGE_SUMMARY "${_first}${_rest}")
  set(CPACK_RPM_${_upper}_PACKAGE_DESCRIPTION "${_extended}")
endwhile()
# libhsa-runtime64 is loaded with dlopen: recommended, not required.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "libhsa-runtime64-1")
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "libhsa-runtime64-1")
# The same symbols file dh_makeshlibs installs (a control file must be
# named "symbols").
configure_file("${PROJECT_SOURCE_DIR}/debian/libisapack${ISAPACK_SOVERSION}.symbols"
  "${PROJECT_BINARY_DIR}/deb-control/symbols" COPYONLY)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA "${PROJECT_BINARY_DIR}/deb-control/symbols")

# --- RPM ------------------------------------------------------------------------
set(CPACK_RPM_COMPONENT_INSTALL ON)
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_MAIN_COMPONENT runtime)
set(CPACK_RPM_PACKAGE_LICENSE "Apache-2.0")
set(CPACK_RPM_PACKAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_RPM_PACKAGE_RELEASE 1)
set(CPACK_RPM_PACKAGE_RELEASE_DIST ON)
set(CPACK_RPM_COMPRESSION_TYPE xz)
set(CPACK_RPM_DEV_PACKAGE_NAME isapack-devel)
# CPack always writes a Group tag (Fedora no longer uses it): a correct one.
set(CPACK_RPM_DEV_PACKAGE_GROUP "Development/Libraries")
set(CPACK_RPM_TOOLS_PACKAGE_NAME isapack-tools)
set(CPACK_RPM_TESTS_PACKAGE_NAME isapack-tests)
# A weak dependency (CPack 3.25 can write Suggests, not Recommends, which
# rpm/isapack.spec uses): the HSA runtime by the soname it provides in any
# distribution. See IsapackCPackProjectConfig.cmake for why CPack needs help.
set(CPACK_RPM_RUNTIME_PACKAGE_SUGGESTS "libhsa-runtime64.so.1()(64bit)")
set(CPACK_RPM_TOOLS_PACKAGE_SUGGESTS "libhsa-runtime64.so.1()(64bit)")
# `dnf install 'isapack-gpu(gfx1103)'` finds the package that covers a GPU:
# CPACK_RPM_RUNTIME_PACKAGE_PROVIDES is set from the built library by
# IsapackCPackProjectConfig.cmake.
# Directories the distribution owns.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
  /usr/lib64/cmake /usr/lib64/pkgconfig /usr/libexec /usr/share/man /usr/share/man/man1
  /usr/share/licenses /usr/share/doc)
# The tests package's simulated HSA runtime is private: no soname provide
# (rpm/isapack.spec excludes the same directory). Reproducible RPMs: file times clamped to SOURCE_DATE_EPOCH, which is also
# the build time; no build-ID links; a fixed build host.
set(CPACK_RPM_SPEC_MORE_DEFINE "%define _build_id_links none
%define clamp_mtime_to_source_date_epoch 1
%define use_source_date_epoch_as_buildtime 1
%define _buildhost reproducible
%global __provides_exclude_from ^.*/isapack/tests/.*$")

include(CPack)
