# Runs the README's ten-line C program (tests/integration/example.c):
#   MODE=simulated: on the simulated HSA runtime, it must print b[63] = 42
#                   and exit 0 (a simulation result, not a hardware one);
#   MODE=real:      on the system's HSA runtime without /dev/kfd it must exit
#                   non-zero with the clear no-GPU message (exit 77, skipped,
#                   when /dev/kfd exists).
#   cmake -DEXAMPLE= -DMODE= [-DSIMULATED_HSA=] -P example_test.cmake
cmake_minimum_required(VERSION 3.25)
if(MODE STREQUAL "simulated")
  set(ENV{ISAPACK_LIBHSA_PATH} "${SIMULATED_HSA}")
  set(ENV{ISAPACK_SIMULATED_HSA_AGENTS} "gfx1103")
  execute_process(COMMAND "${EXAMPLE}" RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0 OR NOT out STREQUAL "b[63] = 42\n")
    message(FATAL_ERROR "expected 'b[63] = 42' and exit 0, got exit ${result}:\n${out}${err}")
  endif()
else()
  if(EXISTS /dev/kfd)
    message(STATUS "/dev/kfd exists: skipping the no-GPU check")
    cmake_language(EXIT 77)
  endif()
  unset(ENV{ISAPACK_LIBHSA_PATH})
  execute_process(COMMAND "${EXAMPLE}" RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(result EQUAL 0 OR NOT err MATCHES "^isapack: no AMD GPU kernel driver: /dev/kfd is missing")
    message(FATAL_ERROR "expected a non-zero exit and the no-GPU message, got exit ${result}:\n${out}${err}")
  endif()
endif()
message(STATUS "example (${MODE}) behaved as documented")
