# The folders are the layers: targets/ -> core/ -> device_library/ ->
# runtime/ -> tools/. A file may include only headers of its own layer or of a
# layer before it (each folder's README.md says the same in words). Every
# quoted include, and every <isapack/...> include, is resolved to the file it
# names; an include that runs back up the layers, one that names headers in
# two layers, or one that resolves to nothing fails, with the file and line.
#   cmake -DSOURCE_DIR=<repo> [-DMIN_FILES=<n>, default 10] -P check_layers.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED MIN_FILES)
  set(MIN_FILES 10)
endif()
set(_layers targets core device_library runtime tools)
# Where the build looks for quoted includes, layer by layer.
set(_search_dirs
  core/src core/include
  device_library/include device_library/host
  runtime/src runtime/include
  tools/cli tools/pipeline)

function(_layer_of path out)
  string(REGEX MATCH "^[^/]+" _top "${path}")
  list(FIND _layers "${_top}" _index)
  set(${out} ${_index} PARENT_SCOPE)
endfunction()

set(_files)
foreach(_layer IN LISTS _layers)
  file(GLOB_RECURSE _found RELATIVE "${SOURCE_DIR}"
    "${SOURCE_DIR}/${_layer}/*.c" "${SOURCE_DIR}/${_layer}/*.h" "${SOURCE_DIR}/${_layer}/*.cc"
    "${SOURCE_DIR}/${_layer}/*.def" "${SOURCE_DIR}/${_layer}/*.in")
  list(APPEND _files ${_found})
endforeach()
list(LENGTH _files _count)
if(_count LESS MIN_FILES)
  message(FATAL_ERROR "found only ${_count} source files under ${SOURCE_DIR}; is SOURCE_DIR the source tree?")
endif()

set(_problems)
set(_arrows 0)
foreach(_file IN LISTS _files)
  _layer_of("${_file}" _from)
  list(GET _layers ${_from} _from_name)
  get_filename_component(_dir "${_file}" DIRECTORY)
  file(STRINGS "${SOURCE_DIR}/${_file}" _lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "include[ \t]*\"([^\"]+)\"")
      set(_name "${CMAKE_MATCH_1}")
    elseif(_line MATCHES "include[ \t]*<(isapack/[^>]+)>")
      set(_name "${CMAKE_MATCH_1}")
    else()
      continue()  # a system header
    endif()
    set(_targets)
    if(_name MATCHES "^isapack/generated/")
      set(_targets "targets/${_name}")  # generated from targets/amdgpu-targets.json
    elseif(EXISTS "${SOURCE_DIR}/${_dir}/${_name}")
      set(_targets "${_dir}/${_name}")
    else()
      foreach(_search IN LISTS _search_dirs)
        if(EXISTS "${SOURCE_DIR}/${_search}/${_name}")
          list(APPEND _targets "${_search}/${_name}")
        endif()
      endforeach()
    endif()
    list(LENGTH _targets _matches)
    if(_matches EQUAL 0)
      list(APPEND _problems "${_file}: #include \"${_name}\" names no header of the source tree")
      continue()
    elseif(_matches GREATER 1)
      string(JOIN " and " _both ${_targets})
      list(APPEND _problems "${_file}: #include \"${_name}\" could be ${_both}; rename one")
      continue()
    endif()
    _layer_of("${_targets}" _to)
    list(GET _layers ${_to} _to_name)
    math(EXPR _arrows "${_arrows} + 1")
    if(_to GREATER _from)
      list(SUBLIST _layers 0 ${_from} _allowed)
      list(APPEND _allowed ${_from_name})
      string(JOIN ", " _allowed ${_allowed})
      list(APPEND _problems
        "${_file} (${_from_name}) includes ${_targets} (${_to_name}): ${_from_name} may include only ${_allowed}")
    endif()
  endforeach()
endforeach()
if(_problems)
  list(LENGTH _problems _n)
  string(JOIN "\n  " _list ${_problems})
  message(FATAL_ERROR "${_n} include(s) break the layers (targets -> core -> device_library -> runtime -> tools):\n"
    "  ${_list}\nMove the shared part down to the lower layer, or pass it in from above "
    "(see ARCHITECTURE.md).")
endif()
message(STATUS "${_count} files, ${_arrows} includes inside the project, none runs back up the layers")
