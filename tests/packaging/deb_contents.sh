# The CPack debs and the dpkg-buildpackage debs hold the same files, with
# the same modes and owners, per package; the control fields that matter
# agree; no installed ELF file carries an RPATH or RUNPATH.
. "$(dirname "$0")/lib.sh"

for package in $DEB_PACKAGES; do
  cpack_deb="$WORK/cpack/${package}_${VERSION}_${ARCH}.deb"
  dpkg_deb="$WORK/dpkg/first/${package}_${VERSION}_${ARCH}.deb"
  deb_files "$dpkg_deb" >"$WORK/$package.dpkg.files"
  deb_files "$cpack_deb" >"$WORK/$package.cpack.files"
  expect_same_files "$package: CPack's files are dpkg-buildpackage's" \
    "$WORK/$package.dpkg.files" "$WORK/$package.cpack.files"
  for field in Package Version Architecture Multi-Arch Section Priority Recommends Homepage \
      X-ROCm-GPU-Architecture; do
    expect_equal "$package: $field" "$(deb_field "$dpkg_deb" "$field")" "$(deb_field "$cpack_deb" "$field")"
  done
  for deb in "$cpack_deb" "$dpkg_deb"; do
    [ -z "$(dpkg-deb --ctrl-tarfile "$deb" | tar -t | grep -E '(^|/)(postinst|postrm|preinst|prerm)$' || true)" ] \
      || fail "$deb has maintainer scripts (the ldconfig trigger replaces them)"
  done
done

# Depends pin the library to the exact version.
for package in libisapack-dev isapack-tools isapack-tests; do
  for deb in "$WORK/cpack/${package}_${VERSION}_${ARCH}.deb" "$WORK/dpkg/first/${package}_${VERSION}_${ARCH}.deb"; do
    deb_field "$deb" Depends | grep -q "libisapack0 (= $VERSION)" \
      || fail "$deb: Depends lacks 'libisapack0 (= $VERSION)': $(deb_field "$deb" Depends)"
  done
done
echo "ok: the packages depend on libisapack0 (= $VERSION)"

for deb in "$WORK"/cpack/*.deb; do
  dir="$WORK/unpacked/$(basename "$deb" .deb)"
  rm -rf "$dir"
  mkdir -p "$dir"
  dpkg-deb -x "$deb" "$dir"
  find "$dir" -type f | while read -r file; do
    if [ "$(head -c 4 "$file" | od -An -c | tr -d ' ')" = '177ELF' ] \
        && readelf -d "$file" | grep -qE 'RPATH|RUNPATH'; then
      fail "${file#"$dir"} in $(basename "$deb") has an RPATH or RUNPATH"
    fi
  done
  rm -rf "$dir"
done
rmdir "$WORK/unpacked"
echo "ok: no installed ELF file has an RPATH or RUNPATH"
expect_equal "libisapack0 records the GPUs its binaries cover" \
  "$("$BUILD/tools/cli/isapack" coverage --field debian "$WORK/cpack/libisapack0_${VERSION}_${ARCH}.deb")" \
  "$(deb_field "$WORK/cpack/libisapack0_${VERSION}_${ARCH}.deb" X-ROCm-GPU-Architecture)"
