# Builds the Debian packages a second time, from another directory and with
# DEB_BUILD_OPTIONS=nocheck: every .deb must be bit-identical to the
# fixture's (SOURCE_DATE_EPOCH comes from debian/changelog).
. "$(dirname "$0")/lib.sh"

dir="$WORK/dpkg/second"
DEB_BUILD_OPTIONS=nocheck dpkg_build "$dir"
expect_bit_identical "debs" "$WORK/dpkg/first" "$dir" $(cd "$WORK/dpkg/first" && ls -- *.deb)
rm -rf "$dir"
