# Fixture: the README main command's packages. cpack from the build tree
# into $WORK/cpack (version N), and the same build repackaged as version N+1
# into $WORK/cpack-next for the upgrade tests.
. "$(dirname "$0")/lib.sh"

rm -rf "$WORK/cpack" "$WORK/cpack-next"
logged "$WORK/cpack.log" cpack --config "$BUILD/CPackConfig.cmake" -B "$WORK/cpack"
sed -n '/isapack packages in/,/^$/p' "$WORK/cpack.log"

expected=$(printf '%s\n' \
  "isapack-${VERSION}-1.${RPM_ARCH}.rpm" \
  "isapack-devel-${VERSION}-1.${RPM_ARCH}.rpm" \
  "isapack-tests-${VERSION}-1.${RPM_ARCH}.rpm" \
  "isapack-tests_${VERSION}_${ARCH}.deb" \
  "isapack-tools-${VERSION}-1.${RPM_ARCH}.rpm" \
  "isapack-tools_${VERSION}_${ARCH}.deb" \
  "libisapack-dev_${VERSION}_${ARCH}.deb" \
  "libisapack0_${VERSION}_${ARCH}.deb" | LC_ALL=C sort)
expect_equal "CPack builds the four debs and four rpms (DEB-DEFAULT, RPM-DEFAULT names)" \
  "$expected" "$(cd "$WORK/cpack" && ls -1 -- *.deb *.rpm | LC_ALL=C sort)"

next=$(echo "$VERSION" | awk -F. '{ printf "%s.%s.%s", $1, $2, $3 + 1 }')
logged "$WORK/cpack-next.log" \
  env ISAPACK_PACKAGE_VERSION="$next" cpack --config "$BUILD/CPackConfig.cmake" -B "$WORK/cpack-next"
expect_equal "version N+1 ($next) of the eight packages" 8 \
  "$(cd "$WORK/cpack-next" && ls -1 -- *"$next"*.deb *"$next"*.rpm | wc -l)"
echo "$next" >"$WORK/cpack-next/VERSION"
