# What isapack_package_gpu_metadata() gives a consumer's CPack, as
# tests/toolkit/CMakeLists.txt recorded it at configure time, and its
# refusal of a name that is not a device library.
#   cmake -DWORK=<tests/toolkit build dir> -DMODULE=<IsapackDeviceLibrary.cmake> -P gpu_metadata_test.cmake
set(_failures "")
function(_expect file expected)
  file(READ "${WORK}/${file}" _actual)
  if(NOT _actual STREQUAL expected)
    set(_failures "${_failures}\n${file}:\n--- expected\n${expected}--- actual\n${_actual}" PARENT_SCOPE)
  endif()
endfunction()
_expect(gpu-metadata-one.txt "field=gfx90a gfx1100 gfx1101 gfx1102 gfx1103
provides=toolkit-test, isapack-gpu(gfx90a), isapack-gpu(gfx1100), isapack-gpu(gfx1101), isapack-gpu(gfx1102), isapack-gpu(gfx1103)
scripts=IsapackCPackGpuField.cmake
")
_expect(gpu-metadata-two.txt "field=gfx1100 gfx1101 gfx1102 gfx1103
provides=toolkit-test, isapack-gpu(gfx1100), isapack-gpu(gfx1101), isapack-gpu(gfx1102), isapack-gpu(gfx1103)
scripts=IsapackCPackGpuField.cmake
")

# A name that is not a target: the message names it and what to pass.
file(WRITE "${WORK}/gpu-metadata-refusal.cmake"
  "include(\"${MODULE}\")\nisapack_package_gpu_metadata(saxpy)\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -P "${WORK}/gpu-metadata-refusal.cmake"
  RESULT_VARIABLE _result ERROR_VARIABLE _error)
string(REGEX REPLACE "[ \n]+" " " _error "${_error}")
set(_message "isapack_package_gpu_metadata: 'saxpy' is not a target; name a device library made by isapack_add_device_library")
if(_result EQUAL 0 OR NOT _error MATCHES "${_message}")
  string(APPEND _failures "\nthe refusal of 'saxpy' (exit ${_result}): ${_error}")
endif()
if(_failures)
  message(FATAL_ERROR "isapack_package_gpu_metadata:${_failures}")
endif()
message(STATUS "one library, two libraries and the refusal are as expected")
