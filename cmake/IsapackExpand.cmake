# Selector expansion: turns a packager's GPU selectors into the smallest set of
# code objects the configured LLVM can build. Reads the variables that
# IsapackTargets.cmake loads from targets/amdgpu-targets.json.
#
# The C++ twin (runtime/src/expansion.cc, used by `isapack expand`) implements
# the same rules and produces the same messages; tests/expansion proves the
# two agree for every selector, mode and LLVM version.
#
# Rules, in order:
# 1. A selector is a group (TheRock family or bundle, or `all`), an LLVM
#    generic processor, or an exact processor, each spelled exactly as in the
#    data file. Exact and generic targets may carry target-ID features
#    (sramecc then xnack, each + or -); a processor must have the feature.
# 2. Each selector stands for exact targets: a group for its members, a
#    generic for its member processors, an exact target for itself.
# 3. An exact target the compiler cannot build stops configure when the user
#    named it; when it came from a group or generic it is left out with the
#    reason (ISAPACK_STRICT_TARGETS=ON makes that an error too).
# 4. Mode `generic`: an exact target maps to its generic processor when the
#    compiler can build that generic and the generic can express the requested
#    features; otherwise to an exact code object. Mode `exact`: one code object
#    per exact target. Generic code objects are code object v6; exact ones use
#    the configured version (5 by default, 4 allowed).
# 5. Code objects are reported in the data file's order of the first exact
#    target each covers, then by target ID; covered targets likewise.

# _isapack_format_target_id(<out> <processor> <sramecc> <xnack>)
# Canonical target ID: processor, then :sramecc±, then :xnack±.
function(_isapack_format_target_id out processor sramecc xnack)
  set(_id "${processor}")
  if(sramecc STREQUAL "on")
    string(APPEND _id ":sramecc+")
  elseif(sramecc STREQUAL "off")
    string(APPEND _id ":sramecc-")
  endif()
  if(xnack STREQUAL "on")
    string(APPEND _id ":xnack+")
  elseif(xnack STREQUAL "off")
    string(APPEND _id ":xnack-")
  endif()
  set(${out} "${_id}" PARENT_SCOPE)
endfunction()

# _isapack_levenshtein(<out> <a> <b>)
function(_isapack_levenshtein out a b)
  string(LENGTH "${a}" _la)
  string(LENGTH "${b}" _lb)
  set(_previous)
  foreach(_j RANGE ${_lb})
    list(APPEND _previous ${_j})
  endforeach()
  if(_la EQUAL 0)
    set(${out} ${_lb} PARENT_SCOPE)
    return()
  endif()
  math(EXPR _last_a "${_la} - 1")
  foreach(_i RANGE ${_last_a})
    string(SUBSTRING "${a}" ${_i} 1 _ca)
    math(EXPR _row_start "${_i} + 1")
    set(_current ${_row_start})
    if(_lb GREATER 0)
      math(EXPR _last_b "${_lb} - 1")
      foreach(_j RANGE ${_last_b})
        string(SUBSTRING "${b}" ${_j} 1 _cb)
        math(EXPR _j1 "${_j} + 1")
        list(GET _previous ${_j} _diagonal)
        list(GET _previous ${_j1} _up)
        list(GET _current ${_j} _left)
        if(_ca STREQUAL _cb)
          set(_cost ${_diagonal})
        else()
          math(EXPR _cost "${_diagonal} + 1")
        endif()
        math(EXPR _via_up "${_up} + 1")
        math(EXPR _via_left "${_left} + 1")
        if(_via_up LESS _cost)
          set(_cost ${_via_up})
        endif()
        if(_via_left LESS _cost)
          set(_cost ${_via_left})
        endif()
        list(APPEND _current ${_cost})
      endforeach()
    endif()
    set(_previous ${_current})
  endforeach()
  list(GET _previous ${_lb} _distance)
  set(${out} ${_distance} PARENT_SCOPE)
endfunction()

# isapack_all_selectors(<out>)
# Every valid selector spelling: processors, generics, then groups.
function(isapack_all_selectors out)
  set(${out} ${ISAPACK_DB_PROCESSORS} ${ISAPACK_DB_GENERICS} ${ISAPACK_DB_GROUPS} PARENT_SCOPE)
endfunction()

# _isapack_unknown_selector_message(<out> <selector>)
# The line for a selector that matches nothing: the closest spelling
# (case-insensitive edit distance up to 3), or, for a space-separated list,
# that the separator is ';'.
function(_isapack_unknown_selector_message out selector)
  if(selector MATCHES "[ \t]")
    string(REGEX REPLACE "[ \t]+" ";" _fixed "${selector}")
    set(${out}
      "unknown GPU selector '${selector}': GPU selectors are separated by ';', not by spaces; use '${_fixed}'"
      PARENT_SCOPE)
    return()
  endif()
  string(REGEX REPLACE ":.*" "" _base "${selector}")
  string(TOLOWER "${_base}" _lower)
  isapack_all_selectors(_candidates)
  set(_best "")
  set(_best_distance 4)
  foreach(_candidate IN LISTS _candidates)
    string(TOLOWER "${_candidate}" _candidate_lower)
    _isapack_levenshtein(_distance "${_lower}" "${_candidate_lower}")
    if(_distance LESS _best_distance)
      set(_best "${_candidate}")
      set(_best_distance ${_distance})
    endif()
  endforeach()
  set(_message "unknown GPU selector '${selector}'")
  if(_best)
    string(APPEND _message "; did you mean '${_best}'?")
  endif()
  set(${out} "${_message}" PARENT_SCOPE)
endfunction()

# _isapack_valid_selectors_text(<out>)
# Follows the unknown-selector lines, once.
function(_isapack_valid_selectors_text out)
  set(_families)
  set(_bundles)
  foreach(_group IN LISTS ISAPACK_DB_GROUPS)
    if(ISAPACK_DB_${_group}_KIND STREQUAL "bundle")
      list(APPEND _bundles "${_group}")
    else()
      list(APPEND _families "${_group}")
    endif()
  endforeach()
  string(JOIN " " _p ${ISAPACK_DB_PROCESSORS})
  string(JOIN " " _g ${ISAPACK_DB_GENERICS})
  string(JOIN " " _f ${_families})
  string(JOIN " " _b ${_bundles})
  string(CONCAT _text
    "Valid selectors (spelled exactly so):"
    "\n  exact targets: ${_p}"
    "\n  generic targets: ${_g}"
    "\n  families: ${_f}"
    "\n  bundles: ${_b}"
    "\nExact and generic targets take target-ID features, e.g. gfx90a:xnack+ or gfx942:sramecc+:xnack-.")
  set(${out} "${_text}" PARENT_SCOPE)
endfunction()

# _isapack_parse_selector(<selector> <out_base> <out_sramecc> <out_xnack> <out_error> <out_unknown>)
# Splits an exact or generic target ID into its processor and feature
# settings (on/off/any), checking the syntax and that the processor has each
# feature. Group names never carry features. <out_unknown> is TRUE when the
# selector names nothing isapack knows.
function(_isapack_parse_selector selector out_base out_sramecc out_xnack out_error out_unknown)
  set(${out_error} "" PARENT_SCOPE)
  set(${out_unknown} FALSE PARENT_SCOPE)
  string(REGEX REPLACE ":.*" "" _base "${selector}")
  # Each part keeps its leading ':' so that empty features survive as ':'.
  string(REGEX MATCHALL ":[^:]*" _parts "${selector}")
  set(${out_base} "${_base}" PARENT_SCOPE)
  set(_kind "${ISAPACK_DB_${_base}_KIND}")
  if(NOT _kind)
    _isapack_unknown_selector_message(_message "${selector}")
    set(${out_error} "${_message}" PARENT_SCOPE)
    set(${out_unknown} TRUE PARENT_SCOPE)
    return()
  endif()
  if(_parts AND (_kind STREQUAL "family" OR _kind STREQUAL "bundle"))
    set(${out_error}
      "GPU selector '${selector}': target features apply to exact and generic targets, not to the ${_kind} ${_base}"
      PARENT_SCOPE)
    return()
  endif()
  set(_settings_sramecc any)
  set(_settings_xnack any)
  foreach(_part IN LISTS _parts)
    string(SUBSTRING "${_part}" 1 -1 _part)
    if(NOT _part MATCHES "^(sramecc|xnack)([+-])$")
      set(${out_error}
        "GPU selector '${selector}': malformed target feature '${_part}'; features are sramecc+, sramecc-, xnack+ and xnack-"
        PARENT_SCOPE)
      return()
    endif()
    set(_feature "${CMAKE_MATCH_1}")
    if(CMAKE_MATCH_2 STREQUAL "+")
      set(_value on)
    else()
      set(_value off)
    endif()
    if(NOT _settings_${_feature} STREQUAL "any")
      set(${out_error}
        "GPU selector '${selector}': target feature '${_feature}' is given twice"
        PARENT_SCOPE)
      return()
    endif()
    string(TOUPPER "${_feature}" _upper)
    set(_support "${ISAPACK_DB_${_base}_${_upper}}")
    if(_support STREQUAL "always")
      set(${out_error}
        "GPU selector '${selector}': ${_base} always has ${_feature} on, so its target ID never carries ${_feature}; use '${_base}'"
        PARENT_SCOPE)
      return()
    elseif(NOT _support STREQUAL "supported")
      set(${out_error}
        "GPU selector '${selector}': ${_base} has no ${_feature} setting; use '${_base}'"
        PARENT_SCOPE)
      return()
    endif()
    set(_settings_${_feature} ${_value})
  endforeach()
  set(${out_sramecc} ${_settings_sramecc} PARENT_SCOPE)
  set(${out_xnack} ${_settings_xnack} PARENT_SCOPE)
endfunction()

# _isapack_cannot_build_reason(<out> <name> <llvm_major>)
# Why a compiler of the given LLVM major cannot build <name>.
function(_isapack_cannot_build_reason out name llvm_major)
  set(_first "${ISAPACK_DB_${name}_LLVM}")
  set(_removed "${ISAPACK_DB_${name}_LLVM_REMOVED}")
  if(llvm_major LESS _first)
    set(_why "it first appears in LLVM ${_first}")
  elseif(_removed AND NOT llvm_major LESS _removed)
    set(_why "LLVM ${_removed} removed it")
  else()
    set(_why "it is missing from the compiler's supported processor list")
  endif()
  set(${out} "LLVM ${llvm_major} cannot build ${name}: ${_why}" PARENT_SCOPE)
endfunction()

# isapack_expand_gpu_targets(
#   SELECTORS <selector>...        what the packager asked for
#   MODE generic|exact
#   CODE_OBJECT_VERSION 4|5         for exact code objects
#   SUPPORTED <processor>...        what the compiler can build (its probe)
#   LLVM_MAJOR <n>                  the compiler's LLVM major, for messages
#   [STRICT <bool>]                 left-out family members become errors
#   OUT_PREFIX <prefix>
#   OUT_ERROR <var>)
# Sets in the caller, on success (<var> empty):
#   <prefix>_OBJECTS          code object target IDs, in report order
#   <prefix>_VERSIONS         code object version of each, same order
#   <prefix>_COVERS_<i>       exact target IDs code object <i> covers
#   <prefix>_COVERED          every covered exact target ID
#   <prefix>_LEFT_OUT         exact targets left out
#   <prefix>_LEFT_OUT_REASONS the reason for each, same order
# On failure <var> holds the message and the other variables are unset.
function(isapack_expand_gpu_targets)
  cmake_parse_arguments(PARSE_ARGV 0 ARG
    ""
    "MODE;CODE_OBJECT_VERSION;LLVM_MAJOR;STRICT;OUT_PREFIX;OUT_ERROR"
    "SELECTORS;SUPPORTED")
  set(_p "${ARG_OUT_PREFIX}")
  set(${ARG_OUT_ERROR} "" PARENT_SCOPE)

  if(NOT ARG_MODE STREQUAL "generic" AND NOT ARG_MODE STREQUAL "exact")
    set(${ARG_OUT_ERROR}
      "ISAPACK_CODE_OBJECT_MODE is '${ARG_MODE}'; use 'generic' or 'exact'"
      PARENT_SCOPE)
    return()
  endif()
  if(NOT ARG_CODE_OBJECT_VERSION STREQUAL "4" AND NOT ARG_CODE_OBJECT_VERSION STREQUAL "5")
    set(${ARG_OUT_ERROR}
      "ISAPACK_CODE_OBJECT_VERSION is '${ARG_CODE_OBJECT_VERSION}'; exact code objects use version 4 or 5 (generic code objects always use 6)"
      PARENT_SCOPE)
    return()
  endif()

  # Requests: one (processor, sramecc, xnack, explicit, selector) per exact
  # target a selector stands for. Selector items are trimmed; empty items
  # (a stray ';') are skipped.
  # Every problem is collected, so that one configure names them all:
  # invalid selectors, then targets named explicitly that the compiler
  # cannot build (one fix sentence for all), then strict-mode members.
  # Messages hold ';', so they are joined with newlines, not kept in lists.
  set(_problems "")
  set(_unbuildable "")
  set(_unbuildable_names)
  set(_strict "")
  set(_unknown FALSE)
  set(_requests)
  set(_selectors)
  foreach(_raw IN LISTS ARG_SELECTORS)
    string(STRIP "${_raw}" _selector)
    if(_selector STREQUAL "")
      continue()
    endif()
    list(APPEND _selectors "${_selector}")
    _isapack_parse_selector("${_selector}" _base _sramecc _xnack _error _is_unknown)
    if(_error)
      string(APPEND _problems "${_error}\n")
      if(_is_unknown)
        set(_unknown TRUE)
      endif()
      continue()
    endif()
    set(_kind "${ISAPACK_DB_${_base}_KIND}")
    if(_kind STREQUAL "processor")
      list(APPEND _requests "${_base}|${_sramecc}|${_xnack}|1|${_selector}")
    elseif(_kind STREQUAL "generic")
      if(ARG_MODE STREQUAL "generic" AND NOT _base IN_LIST ARG_SUPPORTED)
        if(NOT _base IN_LIST _unbuildable_names)
          _isapack_cannot_build_reason(_why "${_base}" "${ARG_LLVM_MAJOR}")
          string(APPEND _unbuildable "GPU selector '${_selector}': ${_why}\n")
          list(APPEND _unbuildable_names "${_base}")
        endif()
        continue()
      endif()
      foreach(_member IN LISTS ISAPACK_DB_${_base}_MEMBERS)
        # A member keeps only the features it has (gfx9-generic:xnack- on
        # gfx900 and gfx906 alike; sramecc never reaches gfx900).
        set(_member_sramecc any)
        set(_member_xnack any)
        if(ISAPACK_DB_${_member}_SRAMECC STREQUAL "supported")
          set(_member_sramecc ${_sramecc})
        endif()
        if(ISAPACK_DB_${_member}_XNACK STREQUAL "supported")
          set(_member_xnack ${_xnack})
        endif()
        list(APPEND _requests "${_member}|${_member_sramecc}|${_member_xnack}|0|${_selector}")
      endforeach()
    else()
      foreach(_member IN LISTS ISAPACK_DB_${_base}_MEMBERS)
        list(APPEND _requests "${_member}|any|any|0|${_selector}")
      endforeach()
    endif()
  endforeach()
  if(NOT _selectors)
    set(${ARG_OUT_ERROR}
      "no GPU selectors given: set ISAPACK_GPU_TARGETS, for example to 'all' or 'gfx110X-all'"
      PARENT_SCOPE)
    return()
  endif()

  # Map each request to a code object, or leave it out.
  set(_object_ids)
  set(_left_out)
  set(_left_out_reasons)
  set(_left_out_keys)
  foreach(_request IN LISTS _requests)
    string(REPLACE "|" ";" _fields "${_request}")
    list(GET _fields 0 _processor)
    list(GET _fields 1 _sramecc)
    list(GET _fields 2 _xnack)
    list(GET _fields 3 _explicit)
    list(GET _fields 4 _selector)
    _isapack_format_target_id(_exact_id "${_processor}" "${_sramecc}" "${_xnack}")
    if(NOT _processor IN_LIST ARG_SUPPORTED)
      _isapack_cannot_build_reason(_why "${_processor}" "${ARG_LLVM_MAJOR}")
      if(_explicit)
        if(NOT _processor IN_LIST _unbuildable_names)
          string(APPEND _unbuildable "GPU selector '${_selector}': ${_why}\n")
          list(APPEND _unbuildable_names "${_processor}")
        endif()
        continue()
      endif()
      if(ARG_STRICT)
        set(_line "ISAPACK_STRICT_TARGETS is ON and GPU selector '${_selector}' includes ${_processor}, but ${_why}\n")
        string(FIND "${_strict}" "${_line}" _seen)
        if(_seen EQUAL -1)
          string(APPEND _strict "${_line}")
        endif()
        continue()
      endif()
      if(NOT _exact_id IN_LIST _left_out)
        list(APPEND _left_out "${_exact_id}")
        list(APPEND _left_out_reasons "${_why}")
        math(EXPR _key "${ISAPACK_DB_${_processor}_INDEX} + 1000")
        list(APPEND _left_out_keys "${_key}|${_exact_id}")
      endif()
      continue()
    endif()

    set(_object_base "${_processor}")
    set(_object_sramecc "${_sramecc}")
    set(_object_xnack "${_xnack}")
    set(_generic "${ISAPACK_DB_${_processor}_GENERIC}")
    if(ARG_MODE STREQUAL "generic" AND _generic AND _generic IN_LIST ARG_SUPPORTED)
      set(_expressible TRUE)
      if(NOT _sramecc STREQUAL "any" AND NOT ISAPACK_DB_${_generic}_SRAMECC STREQUAL "supported")
        set(_expressible FALSE)
      endif()
      if(NOT _xnack STREQUAL "any" AND NOT ISAPACK_DB_${_generic}_XNACK STREQUAL "supported")
        set(_expressible FALSE)
      endif()
      if(_expressible)
        set(_object_base "${_generic}")
      endif()
    endif()
    _isapack_format_target_id(_object_id "${_object_base}" "${_object_sramecc}" "${_object_xnack}")
    string(MAKE_C_IDENTIFIER "${_object_id}" _key)
    if(NOT _object_id IN_LIST _object_ids)
      list(APPEND _object_ids "${_object_id}")
      set(_covers_${_key})
      set(_first_${_key} 9999)
      if(ISAPACK_DB_${_object_base}_KIND STREQUAL "generic")
        set(_version_${_key} 6)
      else()
        set(_version_${_key} ${ARG_CODE_OBJECT_VERSION})
      endif()
    endif()
    math(EXPR _index "${ISAPACK_DB_${_processor}_INDEX} + 1000")
    if(NOT "${_index}|${_exact_id}" IN_LIST _covers_${_key})
      list(APPEND _covers_${_key} "${_index}|${_exact_id}")
    endif()
    if(_index LESS _first_${_key})
      set(_first_${_key} ${_index})
    endif()
  endforeach()

  if(_unbuildable)
    string(REGEX REPLACE "\n$" "" _unbuildable "${_unbuildable}")
    string(JOIN " " _names ${_unbuildable_names})
    string(APPEND _problems
      "${_unbuildable}. Set ISAPACK_CLANG to a clang that can, or remove ${_names} from the selectors.\n")
  endif()
  string(APPEND _problems "${_strict}")
  if(_unknown)
    _isapack_valid_selectors_text(_valid)
    string(APPEND _problems "${_valid}\n")
  endif()
  if(_problems)
    string(REGEX REPLACE "\n$" "" _problems "${_problems}")
    set(${ARG_OUT_ERROR} "${_problems}" PARENT_SCOPE)
    return()
  endif()

  # Left-out targets in data order, each with its reason.
  set(_sorted_left_out)
  set(_sorted_reasons)
  list(SORT _left_out_keys)
  foreach(_left_key IN LISTS _left_out_keys)
    string(REGEX REPLACE "^[0-9]+\\|" "" _id "${_left_key}")
    list(FIND _left_out "${_id}" _at)
    list(GET _left_out_reasons ${_at} _why)
    list(APPEND _sorted_left_out "${_id}")
    list(APPEND _sorted_reasons "${_why}")
  endforeach()

  if(NOT _object_ids)
    set(_detail "")
    foreach(_id _why IN ZIP_LISTS _sorted_left_out _sorted_reasons)
      string(APPEND _detail "\n  ${_id}: ${_why}")
    endforeach()
    string(JOIN ";" _asked ${_selectors})
    set(${ARG_OUT_ERROR}
      "GPU selectors '${_asked}' select no code object that LLVM ${ARG_LLVM_MAJOR} can build; left out:${_detail}"
      PARENT_SCOPE)
    return()
  endif()

  # Order code objects by the first exact target each covers, then by ID.
  set(_sort_keys)
  foreach(_object_id IN LISTS _object_ids)
    string(MAKE_C_IDENTIFIER "${_object_id}" _key)
    list(APPEND _sort_keys "${_first_${_key}}|${_object_id}")
  endforeach()
  list(SORT _sort_keys)
  set(_objects)
  set(_versions)
  set(_covered)
  set(_i 0)
  foreach(_sort_key IN LISTS _sort_keys)
    string(REGEX REPLACE "^[0-9]+\\|" "" _object_id "${_sort_key}")
    string(MAKE_C_IDENTIFIER "${_object_id}" _key)
    list(APPEND _objects "${_object_id}")
    list(APPEND _versions "${_version_${_key}}")
    list(SORT _covers_${_key})
    list(TRANSFORM _covers_${_key} REPLACE "^[0-9]+\\|" "")
    set(${_p}_COVERS_${_i} "${_covers_${_key}}" PARENT_SCOPE)
    list(APPEND _covered ${_covers_${_key}})
    math(EXPR _i "${_i} + 1")
  endforeach()

  # Covered targets across objects, in data order.
  set(_covered_keys)
  foreach(_id IN LISTS _covered)
    string(REGEX REPLACE ":.*" "" _processor "${_id}")
    math(EXPR _index "${ISAPACK_DB_${_processor}_INDEX} + 1000")
    list(APPEND _covered_keys "${_index}|${_id}")
  endforeach()
  list(REMOVE_DUPLICATES _covered_keys)
  list(SORT _covered_keys)
  list(TRANSFORM _covered_keys REPLACE "^[0-9]+\\|" "")

  set(${_p}_OBJECTS "${_objects}" PARENT_SCOPE)
  set(${_p}_VERSIONS "${_versions}" PARENT_SCOPE)
  set(${_p}_COVERED "${_covered_keys}" PARENT_SCOPE)
  set(${_p}_LEFT_OUT "${_sorted_left_out}" PARENT_SCOPE)
  set(${_p}_LEFT_OUT_REASONS "${_sorted_reasons}" PARENT_SCOPE)
endfunction()

# isapack_format_expansion(<out> <prefix>)
# A canonical text form of an expansion result, one line per code object and
# per left-out target; the tests and `isapack expand --format=lines` share it.
#   object <target-id> v<version> <covered>...
#   left-out <target-id> <reason>
function(isapack_format_expansion out prefix)
  set(_text "")
  set(_i 0)
  foreach(_object _version IN ZIP_LISTS ${prefix}_OBJECTS ${prefix}_VERSIONS)
    string(JOIN " " _covers ${${prefix}_COVERS_${_i}})
    string(APPEND _text "object ${_object} v${_version} ${_covers}\n")
    math(EXPR _i "${_i} + 1")
  endforeach()
  foreach(_id _why IN ZIP_LISTS ${prefix}_LEFT_OUT ${prefix}_LEFT_OUT_REASONS)
    string(APPEND _text "left-out ${_id} ${_why}\n")
  endforeach()
  set(${out} "${_text}" PARENT_SCOPE)
endfunction()
