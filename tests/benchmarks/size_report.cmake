# The size report: bytes needed to carry the device library for every
# covered exact target of each selector set, four ways (same kernels, same
# compiler), plus the runtime library and package.
#   cmake -DMANIFEST=<build>/benchmarks/size-manifest.json -DLIBRARY=<libisapack.so>
#         -DLIBRARY_WITHOUT_CATALOG=<the same library with an empty catalog>
#         -DCATALOG_REPORT=<this build's catalog/catalog-report.json>
#         -DOBJCOPY=<llvm-objcopy> -DOUTPUT=<report.json> [-DRUNTIME_DEB=<deb>]
# (RUNTIME_DEB may also come from the environment, ISAPACK_BENCH_RUNTIME_DEB)
#         [-DCHECK=ON] -P size_report.cmake
# CHECK=ON (the test): fails unless every column is present and consistent,
# isapack's catalog is smaller than the exact objects (1) and the
# generic-first objects (3) for every set, and loading one GPU decompresses
# less with isapack than with the offload bundle.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/IsapackText.cmake")
if(NOT RUNTIME_DEB AND DEFINED ENV{ISAPACK_BENCH_RUNTIME_DEB})
  set(RUNTIME_DEB "$ENV{ISAPACK_BENCH_RUNTIME_DEB}")
endif()

# _group(<out> <n>): 1234567 -> 1,234,567
function(_group out n)
  set(_text "${n}")
  set(_result "")
  string(LENGTH "${_text}" _length)
  while(_length GREATER 3)
    math(EXPR _cut "${_length} - 3")
    string(SUBSTRING "${_text}" ${_cut} 3 _tail)
    string(SUBSTRING "${_text}" 0 ${_cut} _text)
    set(_result ",${_tail}${_result}")
    string(LENGTH "${_text}" _length)
  endwhile()
  set(${out} "${_text}${_result}" PARENT_SCOPE)
endfunction()

function(_file_size out file)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${file} is missing: build the target isapack_bench_inputs first")
  endif()
  file(SIZE "${file}" _size)
  set(${out} ${_size} PARENT_SCOPE)
endfunction()

# _le(<out> <file> <offset> <bytes>): a little-endian unsigned integer.
function(_le out file offset bytes)
  file(READ "${file}" _hex OFFSET ${offset} LIMIT ${bytes} HEX)
  set(_value "")
  while(_hex)
    string(SUBSTRING "${_hex}" 0 2 _byte)
    string(SUBSTRING "${_hex}" 2 -1 _hex)
    set(_value "${_byte}${_value}")
  endwhile()
  math(EXPR _decimal "0x${_value}")
  set(${out} ${_decimal} PARENT_SCOPE)
endfunction()

# _ccob_uncompressed(<out> <bundle>): the uncompressed bundle size a CCOB
# header records (v2: u32 at 12; v3: u64 at 16).
function(_ccob_uncompressed out bundle)
  _le(_version "${bundle}" 4 2)
  if(_version EQUAL 2)
    _le(_size "${bundle}" 12 4)
  elseif(_version EQUAL 3)
    _le(_size "${bundle}" 16 8)
  else()
    message(FATAL_ERROR "${bundle}: CCOB version ${_version} is not 2 or 3")
  endif()
  set(${out} ${_size} PARENT_SCOPE)
endfunction()

# _sizes(<out_sum> <out_max> <json> <set> <key>): the total and the largest
# size of the files in sets.<set>.<key>
function(_sizes out_sum out_max json set key)
  string(JSON _count LENGTH "${json}" sets "${set}" ${key})
  set(_total 0)
  set(_max 0)
  math(EXPR _last "${_count} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _file GET "${json}" sets "${set}" ${key} ${_i})
    _file_size(_size "${_file}")
    math(EXPR _total "${_total} + ${_size}")
    if(_size GREATER _max)
      set(_max ${_size})
    endif()
  endforeach()
  set(${out_sum} ${_total} PARENT_SCOPE)
  set(${out_max} ${_max} PARENT_SCOPE)
endfunction()

file(READ "${MANIFEST}" _json)
string(JSON _llvm GET "${_json}" llvm)
string(JSON _exact_version GET "${_json}" exact_code_object_version)
string(JSON _set_count LENGTH "${_json}" order)
math(EXPR _last_set "${_set_count} - 1")

set(_report "{}")
string(JSON _report SET "${_report}" llvm "\"${_llvm}\"")
string(JSON _report SET "${_report}" sets "{}")
set(_widths 12 5 16 16 16 16 16 12 12)
set(_lines "")
set(_header "set;GPUs;1 exact objects;2 CCOB zstd -3;2b CCOB zstd -19;3 generic-first;4 isapack;load: CCOB;load: isapack")
# _append_row(<cells>): one table line, each cell right-aligned to its width.
macro(_append_row cells)
  set(_row "")
  foreach(_text _width IN ZIP_LISTS ${cells} _widths)
    isapack_align(_c "${_text}" ${_width} RIGHT)
    string(APPEND _row "${_c}  ")
  endforeach()
  string(APPEND _lines "${_row}\n")
endmacro()
_append_row(_header)

foreach(_s RANGE ${_last_set})
  string(JSON _set GET "${_json}" order ${_s})
  string(JSON _gpus LENGTH "${_json}" sets "${_set}" covered)
  string(JSON _exact_count LENGTH "${_json}" sets "${_set}" exact_objects)
  string(JSON _generic_count LENGTH "${_json}" sets "${_set}" generic_objects)
  _sizes(_way1 _ "${_json}" "${_set}" exact_files)
  _sizes(_way3 _load_isapack "${_json}" "${_set}" generic_files)
  string(JSON _bundle GET "${_json}" sets "${_set}" bundle)
  string(JSON _bundle19 GET "${_json}" sets "${_set}" bundle_level19)
  string(JSON _catalog GET "${_json}" sets "${_set}" catalog)
  _file_size(_way2 "${_bundle}")
  _file_size(_way2b "${_bundle19}")
  _file_size(_way4 "${_catalog}")
  # Bytes decompressed to load one GPU's code: the whole bundle, or at most
  # the largest catalog entry.
  _ccob_uncompressed(_load_ccob "${_bundle}")

  set(_entry "{}")
  foreach(_pair "gpus;${_gpus}" "exact_objects;${_exact_count}" "generic_first_objects;${_generic_count}"
      "exact_objects_bytes;${_way1}" "ccob_bundle_bytes;${_way2}" "ccob_bundle_level19_bytes;${_way2b}"
      "generic_first_objects_bytes;${_way3}" "isapack_catalog_bytes;${_way4}"
      "ccob_bytes_decompressed_per_load;${_load_ccob}" "isapack_max_bytes_decompressed_per_load;${_load_isapack}")
    list(GET _pair 0 _key)
    list(GET _pair 1 _value)
    string(JSON _entry SET "${_entry}" ${_key} ${_value})
  endforeach()
  string(JSON _report SET "${_report}" sets "${_set}" "${_entry}")

  _group(_b1 ${_way1})
  _group(_b2 ${_way2})
  _group(_b2b ${_way2b})
  _group(_b3 ${_way3})
  _group(_b4 ${_way4})
  _group(_lc ${_load_ccob})
  _group(_li ${_load_isapack})
  set(_cells "${_set};${_gpus};${_exact_count}: ${_b1};${_b2};${_b2b};${_generic_count}: ${_b3};${_b4};${_lc};${_li}")
  _append_row(_cells)

  if(CHECK)
    if(NOT _exact_count EQUAL _gpus)
      message(FATAL_ERROR "${_set}: ${_exact_count} exact objects for ${_gpus} covered GPUs")
    endif()
    if(_generic_count GREATER _exact_count OR _generic_count LESS 1)
      message(FATAL_ERROR "${_set}: ${_generic_count} generic-first objects for ${_exact_count} exact ones")
    endif()
    if(NOT _way4 LESS _way1 OR NOT _way4 LESS _way3)
      message(FATAL_ERROR "${_set}: isapack's catalog (${_way4} bytes) is not smaller than the exact objects (${_way1}) and the generic-first objects (${_way3})")
    endif()
    if(NOT _load_isapack LESS _load_ccob)
      message(FATAL_ERROR "${_set}: loading one GPU decompresses ${_load_isapack} bytes with isapack, not less than the bundle's ${_load_ccob}")
    endif()
  endif()
  if(_set STREQUAL "all")
    math(EXPR _percent_of_bundle "(${_way4} * 1000 / ${_way2} + 5) / 10")
    math(EXPR _percent_of_exact "(${_way4} * 1000 / ${_way1} + 5) / 10")
    math(EXPR _percent_of_load "(${_load_isapack} * 1000 / ${_load_ccob} + 5) / 10")
    set(_all_summary "all: isapack's catalog is ${_percent_of_exact}% of the uncompressed exact objects and ${_percent_of_bundle}% of the compressed offload bundle; loading one GPU decompresses at most ${_percent_of_load}% of what the bundle path decompresses")
  endif()
endforeach()

# The runtime library with its catalog and built with an empty one, as built
# and stripped as packages ship it.
function(_stripped_size out library)
  get_filename_component(_dir "${OUTPUT}" DIRECTORY)
  set(_copy "${_dir}/stripped.so")
  execute_process(COMMAND "${OBJCOPY}" --strip-all "${library}" "${_copy}" RESULT_VARIABLE _result)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "${OBJCOPY} cannot strip ${library}")
  endif()
  file(SIZE "${_copy}" _size)
  file(REMOVE "${_copy}")
  set(${out} ${_size} PARENT_SCOPE)
endfunction()
_file_size(_library_size "${LIBRARY}")
_file_size(_without_size "${LIBRARY_WITHOUT_CATALOG}")
_stripped_size(_library_stripped "${LIBRARY}")
_stripped_size(_without_stripped "${LIBRARY_WITHOUT_CATALOG}")
string(JSON _report SET "${_report}" library "{}")
foreach(_pair "bytes;${_library_size}" "bytes_without_catalog;${_without_size}"
    "stripped_bytes;${_library_stripped}" "stripped_bytes_without_catalog;${_without_stripped}")
  list(GET _pair 0 _key)
  list(GET _pair 1 _value)
  string(JSON _report SET "${_report}" library ${_key} ${_value})
endforeach()
_group(_l ${_library_stripped})
_group(_w ${_without_stripped})
_group(_lu ${_library_size})
_group(_wu ${_without_size})
set(_library_line "libisapack.so (this build's selectors), stripped: ${_l} bytes, with an empty catalog ${_w} bytes (unstripped: ${_lu} and ${_wu})")

# The catalog this build embeds: the device code (as column 4 counts it) plus
# the build's expansion record (isapack-targets.json), which column 4 leaves
# out because it is the same whichever way the code is carried.
file(READ "${CATALOG_REPORT}" _catalog_report)
string(JSON _embedded GET "${_catalog_report}" catalog_bytes)
string(JSON _record GET "${_catalog_report}" build_info_bytes)
string(JSON _report SET "${_report}" library catalog_bytes ${_embedded})
string(JSON _report SET "${_report}" library build_record_bytes ${_record})
_group(_e ${_embedded})
_group(_r ${_record})
set(_catalog_line "this build's embedded catalog: ${_e} bytes, of which ${_r} are the build record (isapack-targets.json; column 4 packs a one-line placeholder instead)")

set(_package_line "runtime package: not built (scripts/run-benchmarks builds it)")
if(RUNTIME_DEB)
  execute_process(COMMAND dpkg-deb --field "${RUNTIME_DEB}" Installed-Size
    OUTPUT_VARIABLE _installed OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _result)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "dpkg-deb cannot read ${RUNTIME_DEB}")
  endif()
  file(SIZE "${RUNTIME_DEB}" _deb_size)
  get_filename_component(_deb_name "${RUNTIME_DEB}" NAME)
  string(JSON _report SET "${_report}" runtime_package "{}")
  string(JSON _report SET "${_report}" runtime_package file "\"${_deb_name}\"")
  string(JSON _report SET "${_report}" runtime_package bytes ${_deb_size})
  string(JSON _report SET "${_report}" runtime_package installed_kib ${_installed})
  _group(_d ${_deb_size})
  set(_package_line "runtime package ${_deb_name}: ${_d} bytes, Installed-Size ${_installed} KiB")
endif()

file(WRITE "${OUTPUT}" "${_report}\n")
message("isapack size report (bytes; device library for every covered GPU of each set; LLVM ${_llvm}):
  1 one uncompressed exact code object (v${_exact_version}) per GPU, as ROCr and HIP fat binaries carry them
  2 those objects in a clang-offload-bundler -compress bundle (HIP's --offload-compress; 2b at zstd level 19)
  3 generic-first objects, uncompressed (IREE's approach)
  4 isapack's embedded catalog (generic-first, zstd per object, dictionary, table of contents)
${_lines}${_all_summary}
${_library_line}
${_catalog_line}
${_package_line}
JSON: ${OUTPUT}")
