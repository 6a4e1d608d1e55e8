# Builds the project a second time in another directory with the same
# configuration and packages it: with SOURCE_DATE_EPOCH set, every .deb and
# .rpm must be bit-identical to the fixture's.
. "$(dirname "$0")/lib.sh"

cache() {
  sed -n "s/^$1:[A-Z]*=//p" "$BUILD/CMakeCache.txt"
}
rebuild="$WORK/rebuild/build"
rm -rf "$WORK/rebuild"
set -- -G "$(cache CMAKE_GENERATOR)"
for var in CMAKE_BUILD_TYPE CMAKE_INSTALL_PREFIX ISAPACK_GPU_TARGETS ISAPACK_CODE_OBJECT_MODE \
    ISAPACK_CODE_OBJECT_VERSION ISAPACK_STRICT_TARGETS ISAPACK_HARDENING ISAPACK_WERROR \
    ISAPACK_SANITIZER ISAPACK_BUILD_TESTS ISAPACK_MAP_SOURCE_PATHS ISAPACK_CLANG ISAPACK_LLD; do
  if grep -q "^$var:" "$BUILD/CMakeCache.txt"; then
    set -- "$@" "-D$var=$(cache "$var")"
  fi
done
logged "$WORK/rebuild-configure.log" cmake -S "$SRC" -B "$rebuild" "$@"
logged "$WORK/rebuild-build.log" cmake --build "$rebuild"
logged "$WORK/rebuild-cpack.log" cpack --config "$rebuild/CPackConfig.cmake" -B "$WORK/rebuild/packages"

expect_bit_identical "packages" "$WORK/cpack" "$WORK/rebuild/packages" \
  $(cd "$WORK/cpack" && ls -- *.deb *.rpm)
rm -rf "$WORK/rebuild"
