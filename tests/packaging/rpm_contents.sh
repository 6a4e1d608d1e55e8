# The CPack rpms and the rpmbuild rpms hold the same files, with the same
# modes and owners, per package (rpmbuild's /usr/lib/.build-id links aside:
# they come from the distribution's rpm configuration, not from the spec);
# the same virtual provides and version-pinned requirements.
. "$(dirname "$0")/lib.sh"

rpmbuild_dir="$WORK/rpmbuild/first/RPMS/$RPM_ARCH"
for package in $RPM_PACKAGES; do
  name="$package-$VERSION-1.$RPM_ARCH.rpm"
  rpm_files "$rpmbuild_dir/$name" | grep -v ' /usr/lib/\.build-id' >"$WORK/$package.rpmbuild.files" || true
  rpm_files "$WORK/cpack/$name" >"$WORK/$package.cpack-rpm.files"
  expect_same_files "$package: CPack's files are rpmbuild's" \
    "$WORK/$package.rpmbuild.files" "$WORK/$package.cpack-rpm.files"
  provides() {
    rpm -qp --provides "$1" | grep -v '^isapack\(-[a-z]*\)\?\((x86-64)\)\? = ' | LC_ALL=C sort
  }
  expect_equal "$package: virtual provides" "$(provides "$rpmbuild_dir/$name")" "$(provides "$WORK/cpack/$name")"
  pinned() {
    rpm -qp --requires "$1" | grep '^isapack' | LC_ALL=C sort
  }
  expect_equal "$package: requirements on isapack packages" \
    "$(pinned "$rpmbuild_dir/$name")" "$(pinned "$WORK/cpack/$name")"
done

gpus=$("$BUILD/tools/cli/isapack" coverage --field rpm "$WORK/cpack/isapack-$VERSION-1.$RPM_ARCH.rpm" | LC_ALL=C sort)
expect_equal "isapack provides isapack-gpu(gfxNNNN) for every GPU its binaries cover" "$gpus" \
  "$(rpm -qp --provides "$WORK/cpack/isapack-$VERSION-1.$RPM_ARCH.rpm" | grep '^isapack-gpu(' | LC_ALL=C sort)"
expect_equal "isapack-devel requires exactly its own isapack" "isapack(x86-64) = $VERSION-1" \
  "$(pinned "$WORK/cpack/isapack-devel-$VERSION-1.$RPM_ARCH.rpm")"
# CPack 3.25 writes weak dependencies as Suggests, the spec as Recommends.
for package in isapack isapack-tools; do
  expect_equal "$package: the HSA runtime is a weak dependency" \
    "libhsa-runtime64.so.1()(64bit)" "$(rpm -qp --recommends "$rpmbuild_dir/$package-$VERSION-1.$RPM_ARCH.rpm")"
  expect_equal "$package (CPack): the HSA runtime is a weak dependency" \
    "libhsa-runtime64.so.1()(64bit)" "$(rpm -qp --suggests "$WORK/cpack/$package-$VERSION-1.$RPM_ARCH.rpm")"
done
