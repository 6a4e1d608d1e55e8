# A CPack post-build script (CPACK_POST_BUILD_SCRIPTS) that
# isapack_package_gpu_metadata() adds to a project's packaging: every .deb
# this CPack run made gets the field Debian uses for the GPUs a package
# supports,
#   X-ROCm-GPU-Architecture: <CPACK_ISAPACK_GPU_ARCHITECTURE>
# (the processors its device libraries cover, space separated). RPMs get
# their isapack-gpu(<processor>) provides from CPACK_RPM_PACKAGE_PROVIDES.
include("${CMAKE_CURRENT_LIST_DIR}/IsapackDebControl.cmake")

if(NOT CPACK_ISAPACK_GPU_ARCHITECTURE)
  message(FATAL_ERROR "CPACK_ISAPACK_GPU_ARCHITECTURE is empty: call "
    "isapack_package_gpu_metadata(<device library>...) before include(CPack)")
endif()
foreach(_package IN LISTS CPACK_PACKAGE_FILES)
  if(NOT _package MATCHES "\\.deb$")
    continue()
  endif()
  isapack_deb_unpack("${_package}" "${_package}.gpu-field")
  isapack_deb_add_fields("${_package}.gpu-field"
    "X-ROCm-GPU-Architecture: ${CPACK_ISAPACK_GPU_ARCHITECTURE}\n")
  isapack_deb_repack("${_package}.gpu-field" "${_package}")
  message(STATUS "isapack: ${_package}: X-ROCm-GPU-Architecture: ${CPACK_ISAPACK_GPU_ARCHITECTURE}")
endforeach()
