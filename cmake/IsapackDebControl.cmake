# Editing the control data of a .deb that CPack wrote: CPack 3.25 cannot
# write a user-defined field (X-ROCm-GPU-Architecture) or Multi-Arch. Used
# by CPack post-build scripts: isapack's own (IsapackPackagingPostBuild.cmake)
# and the one isapack_package_gpu_metadata() adds to a consumer's packaging
# (IsapackCPackGpuField.cmake). Needs dpkg-deb.

find_program(ISAPACK_DPKG_DEB dpkg-deb)

# isapack_deb_unpack(<deb> <root>): the package's files and DEBIAN/ in <root>.
function(isapack_deb_unpack deb root)
  if(NOT ISAPACK_DPKG_DEB)
    message(FATAL_ERROR "dpkg-deb is needed to finish ${deb}; install the dpkg package")
  endif()
  file(REMOVE_RECURSE "${root}")
  execute_process(COMMAND "${ISAPACK_DPKG_DEB}" --raw-extract "${deb}" "${root}"
    RESULT_VARIABLE _result ERROR_VARIABLE _error)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "dpkg-deb cannot unpack ${deb}:\n${_error}")
  endif()
endfunction()

# isapack_deb_add_fields(<root> <fields>): <fields> ("Name: value\n" lines)
# go into DEBIAN/control before Description, where dpkg-gencontrol puts them.
function(isapack_deb_add_fields root fields)
  file(READ "${root}/DEBIAN/control" _control)
  string(REPLACE "\nDescription:" "\n${fields}Description:" _control "${_control}")
  file(WRITE "${root}/DEBIAN/control" "${_control}")
endfunction()

# isapack_deb_repack(<root> <deb>): <deb> rebuilt from <root> (root-owned
# files, xz, file times clamped to SOURCE_DATE_EPOCH when it is set), and
# <root> removed. The .deb is written by dpkg-deb to a temporary name and
# renamed, so a failure leaves the original in place.
function(isapack_deb_repack root deb)
  execute_process(
    COMMAND "${ISAPACK_DPKG_DEB}" --root-owner-group -Zxz --build "${root}" "${deb}.new"
    RESULT_VARIABLE _result OUTPUT_QUIET ERROR_VARIABLE _error)
  if(NOT _result EQUAL 0)
    file(REMOVE "${deb}.new")
    message(FATAL_ERROR "dpkg-deb cannot rebuild ${deb}:\n${_error}")
  endif()
  file(RENAME "${deb}.new" "${deb}")
  file(REMOVE_RECURSE "${root}")
endfunction()
