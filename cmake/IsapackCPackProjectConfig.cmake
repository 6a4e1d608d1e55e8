# Included by cpack for each generator (CPACK_PROJECT_CONFIG_FILE).

# Which layout the install script uses (cmake/IsapackInstall.cmake), and the
# prefix the packages install to (CPack's own install runs in a staging
# directory).
set(ENV{ISAPACK_PACKAGE_PREFIX} "${CPACK_PACKAGING_INSTALL_PREFIX}")
if(CPACK_GENERATOR STREQUAL "DEB")
  set(ENV{ISAPACK_PACKAGE_LAYOUT} deb)
elseif(CPACK_GENERATOR STREQUAL "RPM")
  set(ENV{ISAPACK_PACKAGE_LAYOUT} rpm)
  # CMake 3.25's CPackRPM probes weak-dependency support with
  # "${RPM_EXECUTABLE} --suggests" but never sets RPM_EXECUTABLE, so the
  # probe always fails and Suggests is dropped. Give it the rpm it meant.
  find_program(RPM_EXECUTABLE rpm)
endif()

# The GPUs libisapack covers, read from the built library by `isapack
# coverage` (tools/cli/CMakeLists.txt): the deb field and the rpm provides.
if(NOT EXISTS "${CPACK_ISAPACK_GPU_ARCHITECTURE_FILE}")
  message(FATAL_ERROR "${CPACK_ISAPACK_GPU_ARCHITECTURE_FILE} is missing: build the project "
    "(cmake --build) before running cpack")
endif()
file(READ "${CPACK_ISAPACK_GPU_ARCHITECTURE_FILE}" CPACK_ISAPACK_GPU_ARCHITECTURE)
string(STRIP "${CPACK_ISAPACK_GPU_ARCHITECTURE}" CPACK_ISAPACK_GPU_ARCHITECTURE)
string(REPLACE " " ";" _isapack_gpus "${CPACK_ISAPACK_GPU_ARCHITECTURE}")
list(TRANSFORM _isapack_gpus REPLACE "(.+)" "isapack-gpu(\\1)")
string(JOIN ", " CPACK_RPM_RUNTIME_PACKAGE_PROVIDES ${_isapack_gpus})

# A package version other than the project's, for upgrade tests:
#   ISAPACK_PACKAGE_VERSION=0.1.1 cpack
if(DEFINED ENV{ISAPACK_PACKAGE_VERSION})
  set(CPACK_PACKAGE_VERSION "$ENV{ISAPACK_PACKAGE_VERSION}")
  set(CPACK_DEBIAN_PACKAGE_VERSION "$ENV{ISAPACK_PACKAGE_VERSION}")
  set(CPACK_RPM_PACKAGE_VERSION "$ENV{ISAPACK_PACKAGE_VERSION}")
endif()

# Subpackages require the library of exactly their own build; rpm expands
# the macros, so the release with its dist tag is always right.
set(CPACK_RPM_DEV_PACKAGE_REQUIRES "isapack%{?_isa} = %{version}-%{release}")
set(CPACK_RPM_TOOLS_PACKAGE_REQUIRES "isapack%{?_isa} = %{version}-%{release}")
set(CPACK_RPM_TESTS_PACKAGE_REQUIRES
  "isapack%{?_isa} = %{version}-%{release}, isapack-tools%{?_isa} = %{version}-%{release}")
