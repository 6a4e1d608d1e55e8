# Loads targets/amdgpu-targets.json, the one data file of AMDGPU target facts,
# into CMake variables. Everything else in cmake/ (expansion, the device
# library build, the generated C++ table, packaging metadata) reads these
# variables; nothing keeps a second list.
#
# Variables set in the caller's scope (<n> is a processor, generic or group
# name exactly as spelled in the data file):
#   ISAPACK_DB_FILE             absolute path of the data file
#   ISAPACK_DB_PROCESSORS       processor names, in data-file order
#   ISAPACK_DB_GENERICS         generic processor names, in data-file order
#   ISAPACK_DB_GROUPS           TheRock families and bundles (and `all`)
#   ISAPACK_DB_<n>_KIND         processor | generic | family | bundle
#   ISAPACK_DB_<n>_INDEX        position in its list (processors: the order
#                               code objects and targets are reported in)
#   ISAPACK_DB_<n>_MACH         EF_AMDGPU_MACH as a decimal number
#   ISAPACK_DB_<n>_XNACK        none | supported | always
#   ISAPACK_DB_<n>_SRAMECC      none | supported
#   ISAPACK_DB_<n>_LLVM         first LLVM major that can build it
#   processors only:
#   ISAPACK_DB_<n>_ISA          HSA ISA version, e.g. 9.0.10
#   ISAPACK_DB_<n>_GENERIC      generic processor it belongs to, or empty
#   ISAPACK_DB_<n>_GENERIC_VERSION  generic version it joined at (0: none)
#   ISAPACK_DB_<n>_LLVM_REMOVED first LLVM major without it (0: still there)
#   ISAPACK_DB_<n>_PRODUCT      product name, may be empty
#   generics and groups:
#   ISAPACK_DB_<n>_MEMBERS      member processors

# Reads one JSON value or stops with a message naming the file and the path.
function(_isapack_json_get out_var json)
  string(JSON _value ERROR_VARIABLE _error GET "${json}" ${ARGN})
  if(_error)
    string(JOIN "." _path ${ARGN})
    message(FATAL_ERROR "${ISAPACK_DB_FILE}: cannot read '${_path}': ${_error}")
  endif()
  set(${out_var} "${_value}" PARENT_SCOPE)
endfunction()

# Reads a JSON array of strings into a CMake list.
function(_isapack_json_string_list out_var json)
  _isapack_json_get(_array "${json}" ${ARGN})
  string(JSON _count LENGTH "${_array}")
  set(_result)
  if(_count GREATER 0)
    math(EXPR _last "${_count} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _item GET "${_array}" ${_i})
      list(APPEND _result "${_item}")
    endforeach()
  endif()
  set(${out_var} "${_result}" PARENT_SCOPE)
endfunction()

# isapack_targets_load(<path>)
# Loads the data file once per scope; a second call with the same path is a
# no-op. Stops configure with a message naming the entry when the file is
# malformed.
function(isapack_targets_load path)
  get_filename_component(_path "${path}" ABSOLUTE)
  if(ISAPACK_DB_FILE STREQUAL _path AND ISAPACK_DB_PROCESSORS)
    return()
  endif()
  set(ISAPACK_DB_FILE "${_path}")
  file(READ "${_path}" _json)
  _isapack_json_get(_schema "${_json}" schema)
  if(NOT _schema EQUAL 1)
    message(FATAL_ERROR "${_path}: schema ${_schema} is not supported (expected 1)")
  endif()

  set(_names)
  set(_exports ISAPACK_DB_FILE)

  # Processors: one JSON object each; every field is required.
  _isapack_json_get(_processors "${_json}" processors)
  string(JSON _count LENGTH "${_processors}")
  math(EXPR _last "${_count} - 1")
  set(_processor_names)
  foreach(_i RANGE ${_last})
    string(JSON _entry GET "${_processors}" ${_i})
    _isapack_json_get(_n "${_entry}" name)
    if(_n IN_LIST _names)
      message(FATAL_ERROR "${_path}: '${_n}' is defined twice")
    endif()
    list(APPEND _names "${_n}")
    list(APPEND _processor_names "${_n}")
    set(ISAPACK_DB_${_n}_KIND processor)
    set(ISAPACK_DB_${_n}_INDEX ${_i})
    foreach(_field isa xnack sramecc generic generic_version llvm llvm_removed product)
      string(TOUPPER "${_field}" _upper)
      _isapack_json_get(ISAPACK_DB_${_n}_${_upper} "${_entry}" ${_field})
    endforeach()
    _isapack_json_get(_mach "${_entry}" mach)
    math(EXPR ISAPACK_DB_${_n}_MACH "${_mach}")
    list(APPEND _exports
      ISAPACK_DB_${_n}_KIND ISAPACK_DB_${_n}_INDEX ISAPACK_DB_${_n}_MACH
      ISAPACK_DB_${_n}_ISA ISAPACK_DB_${_n}_XNACK ISAPACK_DB_${_n}_SRAMECC
      ISAPACK_DB_${_n}_GENERIC ISAPACK_DB_${_n}_GENERIC_VERSION
      ISAPACK_DB_${_n}_LLVM ISAPACK_DB_${_n}_LLVM_REMOVED
      ISAPACK_DB_${_n}_PRODUCT)
  endforeach()

  # Generic processors.
  _isapack_json_get(_generics "${_json}" generics)
  string(JSON _count LENGTH "${_generics}")
  math(EXPR _last "${_count} - 1")
  set(_generic_names)
  foreach(_i RANGE ${_last})
    string(JSON _entry GET "${_generics}" ${_i})
    _isapack_json_get(_n "${_entry}" name)
    if(_n IN_LIST _names)
      message(FATAL_ERROR "${_path}: '${_n}' is defined twice")
    endif()
    list(APPEND _names "${_n}")
    list(APPEND _generic_names "${_n}")
    set(ISAPACK_DB_${_n}_KIND generic)
    set(ISAPACK_DB_${_n}_INDEX ${_i})
    foreach(_field xnack sramecc llvm)
      string(TOUPPER "${_field}" _upper)
      _isapack_json_get(ISAPACK_DB_${_n}_${_upper} "${_entry}" ${_field})
    endforeach()
    _isapack_json_get(_mach "${_entry}" mach)
    math(EXPR ISAPACK_DB_${_n}_MACH "${_mach}")
    # Members: the processors that name this generic (in processor order);
    # the data file writes the membership once, on the processor.
    string(JSON _listed ERROR_VARIABLE _no_members GET "${_entry}" members)
    if(NOT _no_members)
      message(FATAL_ERROR "${_path}: generic '${_n}' lists members; membership is written once, "
        "as the 'generic' field of each member processor")
    endif()
    set(ISAPACK_DB_${_n}_MEMBERS)
    foreach(_p IN LISTS _processor_names)
      if(ISAPACK_DB_${_p}_GENERIC STREQUAL _n)
        list(APPEND ISAPACK_DB_${_n}_MEMBERS "${_p}")
      endif()
    endforeach()
    list(APPEND _exports
      ISAPACK_DB_${_n}_KIND ISAPACK_DB_${_n}_INDEX ISAPACK_DB_${_n}_MACH
      ISAPACK_DB_${_n}_XNACK ISAPACK_DB_${_n}_SRAMECC ISAPACK_DB_${_n}_LLVM
      ISAPACK_DB_${_n}_MEMBERS)
  endforeach()

  foreach(_p IN LISTS _processor_names)
    if(NOT ISAPACK_DB_${_p}_GENERIC STREQUAL "" AND NOT ISAPACK_DB_${_p}_GENERIC IN_LIST _generic_names)
      message(FATAL_ERROR "${_path}: processor '${_p}' names generic '${ISAPACK_DB_${_p}_GENERIC}', "
        "which is not in 'generics'")
    endif()
  endforeach()

  # TheRock families and bundles; `all` is computed from its ISA rule.
  _isapack_json_get(_groups "${_json}" selector_groups)
  string(JSON _count LENGTH "${_groups}")
  math(EXPR _last "${_count} - 1")
  set(_group_names)
  foreach(_i RANGE ${_last})
    string(JSON _entry GET "${_groups}" ${_i})
    _isapack_json_get(_n "${_entry}" name)
    if(_n IN_LIST _names)
      message(FATAL_ERROR "${_path}: '${_n}' is defined twice")
    endif()
    list(APPEND _names "${_n}")
    list(APPEND _group_names "${_n}")
    _isapack_json_get(ISAPACK_DB_${_n}_KIND "${_entry}" kind)
    set(ISAPACK_DB_${_n}_INDEX ${_i})
    string(JSON _min_major ERROR_VARIABLE _no_rule GET "${_entry}" min_isa_major)
    if(_no_rule)
      _isapack_json_string_list(ISAPACK_DB_${_n}_MEMBERS "${_entry}" members)
    else()
      set(ISAPACK_DB_${_n}_MEMBERS)
      foreach(_p IN LISTS _processor_names)
        string(REGEX MATCH "^[0-9]+" _major "${ISAPACK_DB_${_p}_ISA}")
        if(_major GREATER_EQUAL _min_major)
          list(APPEND ISAPACK_DB_${_n}_MEMBERS "${_p}")
        endif()
      endforeach()
    endif()
    list(APPEND _exports
      ISAPACK_DB_${_n}_KIND ISAPACK_DB_${_n}_INDEX ISAPACK_DB_${_n}_MEMBERS)
  endforeach()

  set(ISAPACK_DB_PROCESSORS "${_processor_names}")
  set(ISAPACK_DB_GENERICS "${_generic_names}")
  set(ISAPACK_DB_GROUPS "${_group_names}")
  list(APPEND _exports ISAPACK_DB_PROCESSORS ISAPACK_DB_GENERICS ISAPACK_DB_GROUPS)
  foreach(_var IN LISTS _exports)
    set(${_var} "${${_var}}" PARENT_SCOPE)
  endforeach()
endfunction()
