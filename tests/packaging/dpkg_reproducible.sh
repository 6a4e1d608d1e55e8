# Builds the Debian packages a second time, from another directory and with
# DEB_BUILD_OPTIONS=nocheck: every .deb must be bit-identical to the
# fixture's (SOURCE_DATE_EPOCH comes from debian/changelog).
. "$(dirname "$0")/lib.sh"

dir="$WORK/dpkg/second"
rm -rf "$dir"
export_source "$dir/isapack"
(cd "$dir/isapack" && logged "$dir/build.log" \
  env DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b)

differ=""
for deb in "$WORK"/dpkg/first/*.deb; do
  name=$(basename "$deb")
  if cmp -s "$deb" "$dir/$name"; then
    echo "ok: $name is bit-identical"
  else
    differ="$differ $name"
  fi
done
[ -z "$differ" ] || fail "debs differ between two dpkg-buildpackage runs:$differ (compare with diffoscope)"
rm -rf "$dir"
