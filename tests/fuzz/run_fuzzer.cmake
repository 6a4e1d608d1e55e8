# Runs one fuzzer for a bounded number of inputs from its seeds, with a fixed
# seed so a run is repeatable, and prints how many it ran.
#   cmake -DFUZZER=<exe> -DSCRATCH=<dir> -DSEEDS=<dir>[;<dir>...] -DRUNS=<n> [-DSECONDS=<s>]
#         [-DMAX_LEN=<bytes>, default 65536] -P run_fuzzer.cmake
# An input that runs longer than 10 s fails the run (libFuzzer -timeout); the
# environment variable ISAPACK_FUZZ_TIMEOUT changes it (scripts/run-fuzzers
# sets 60: a long run shares the machine, and a starved process is no hang).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${SCRATCH}")
file(MAKE_DIRECTORY "${SCRATCH}")
set(_limits "-runs=${RUNS}")
if(NOT MAX_LEN)
  set(MAX_LEN 65536)
endif()
set(_timeout 10)
if(DEFINED ENV{ISAPACK_FUZZ_TIMEOUT})
  set(_timeout "$ENV{ISAPACK_FUZZ_TIMEOUT}")
endif()
if(SECONDS)
  set(_limits "-max_total_time=${SECONDS}")
endif()
execute_process(
  COMMAND "${FUZZER}" ${_limits} -seed=1 -max_len=${MAX_LEN} -rss_limit_mb=2048 -timeout=${_timeout}
    -print_final_stats=1 "${SCRATCH}" ${SEEDS}
  RESULT_VARIABLE _result
  OUTPUT_VARIABLE _out
  ERROR_VARIABLE _err)
string(REGEX MATCH "stat::number_of_executed_units: *([0-9]+)" _ "${_err}")
set(_units "${CMAKE_MATCH_1}")
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (exit ${_result}) after ${_units} inputs:\n${_err}")
endif()
get_filename_component(_name "${FUZZER}" NAME)
message(STATUS "${_name}: ${_units} inputs, no crash, no leak, no sanitizer report")
