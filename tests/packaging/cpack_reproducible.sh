# Builds the project a second time in another directory the conventional way,
# without the presets (`cmake -S . -B build -G Ninja`, no build type, no
# install prefix: /usr/local), with the same GPU selection and toolchain, and
# packages it with a plain `cpack` in the build tree (into build/packages,
# CPACK_PACKAGE_DIRECTORY): the packages' layout
# must not depend on how the build tree was configured, and with
# SOURCE_DATE_EPOCH set every .deb and .rpm must be bit-identical to the
# fixture's.
. "$(dirname "$0")/lib.sh"

cache() {
  sed -n "s/^$1:[A-Z]*=//p" "$BUILD/CMakeCache.txt"
}
rebuild="$WORK/rebuild/build"
rm -rf "$WORK/rebuild"
set -- -G "$(cache CMAKE_GENERATOR)"
for var in ISAPACK_GPU_TARGETS ISAPACK_CODE_OBJECT_MODE ISAPACK_CODE_OBJECT_VERSION ISAPACK_STRICT_TARGETS \
    ISAPACK_HARDENING ISAPACK_SANITIZER ISAPACK_BUILD_TESTS ISAPACK_MAP_SOURCE_PATHS ISAPACK_CLANG ISAPACK_LLD; do
  if grep -q "^$var:" "$BUILD/CMakeCache.txt"; then
    set -- "$@" "-D$var=$(cache "$var")"
  fi
done
logged "$WORK/rebuild-configure.log" cmake -S "$SRC" -B "$rebuild" "$@"
logged "$WORK/rebuild-build.log" cmake --build "$rebuild"
(cd "$rebuild" && logged "$WORK/rebuild-cpack.log" cpack)
expect_equal "a plain build tree installs to /usr/local" /usr/local \
  "$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$rebuild/CMakeCache.txt")"
expect_equal "its runtime deb has the library in the multiarch directory" \
  "./usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libisapack.so.0" \
  "$(dpkg-deb --contents "$rebuild/packages/libisapack0_${VERSION}_${ARCH}.deb" | awk '{ print $6 }' | grep '/libisapack.so.0$')"

expect_bit_identical "packages" "$WORK/cpack" "$rebuild/packages" \
  $(cd "$WORK/cpack" && ls -- *.deb *.rpm)
rm -rf "$WORK/rebuild"
