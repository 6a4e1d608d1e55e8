# Fixture: the native Debian packaging. `dpkg-buildpackage -us -uc -b` on an
# export of the source tree in $WORK/dpkg/first (tests run in dh_auto_test).
. "$(dirname "$0")/lib.sh"

dir="$WORK/dpkg/first"
dpkg_build "$dir"

expected=""
for package in $DEB_PACKAGES; do
  # each holds binaries (libisapack-dev: the toolkit's host programs)
  expected="$expected${package}_${VERSION}_${ARCH}.deb
${package}-dbgsym_${VERSION}_${ARCH}.deb
"
done
expected="${expected}dh-isapack_${VERSION}_all.deb
"
expect_equal "dpkg-buildpackage builds the four packages, their dbgsym packages and dh-isapack" \
  "$(printf '%s' "$expected" | LC_ALL=C sort)" "$(cd "$dir" && ls -1 -- *.deb | LC_ALL=C sort)"
grep -E '^[0-9]+% tests passed' "$dir/build.log" || fail "dh_auto_test ran no tests"
