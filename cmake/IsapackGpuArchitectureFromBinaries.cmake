# Script mode, run by the build after libisapack and the isapack command:
# writes the GPUs libisapack's binaries cover, as `isapack coverage --field
# debian` reads them (the list dh-isapack and isapack-rpm-macros give the
# native packages), for CPack's X-ROCm-GPU-Architecture and isapack-gpu()
# provides (cmake/IsapackCPackProjectConfig.cmake).
#   cmake -DCLI=<isapack> -DLIBRARY=<libisapack.so.N.N.N> -DOUTPUT=<file> -P IsapackGpuArchitectureFromBinaries.cmake
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND "${CLI}" coverage --field debian --no-cache "${LIBRARY}"
  OUTPUT_VARIABLE _list ERROR_VARIABLE _errors RESULT_VARIABLE _result OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _result EQUAL 0 OR _list STREQUAL "")
  message(FATAL_ERROR "isapack coverage found no GPU code in ${LIBRARY} (exit ${_result}): ${_errors}")
endif()
file(WRITE "${OUTPUT}.tmp" "${_list}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
