# rpm --root round trip of the four rpms in an empty root: install, verify,
# upgrade to version N+1 (CPack), erase; nothing the packages installed is
# left. --nodeps: the root holds no C library. The database goes where
# Fedora keeps it (Debian's rpm would put it in $HOME).
. "$(dirname "$0")/lib.sh"

rpm_in_root() {
  rpm --root "$root" --dbpath /usr/lib/sysimage/rpm "$@"
}

# installed_versions: "name-version ..." of what the root holds, sorted.
installed_versions() {
  rpm_in_root -qa --qf '%{NAME}-%{VERSION}\n' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}

# expected_versions <version>
expected_versions() {
  for package in $RPM_PACKAGES; do echo "$package-$1"; done | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}

next=$(cat "$WORK/cpack-next/VERSION")
for set in cpack rpmbuild; do
  root="$WORK/rpm-root"
  rm -rf "$root"
  mkdir -p "$root"
  rpm_in_root --initdb
  case $set in
    cpack) dir="$WORK/cpack" ;;
    rpmbuild) dir="$WORK/rpmbuild/first/RPMS/$RPM_ARCH" ;;
  esac
  logged "$WORK/rpm-install.log" rpm_in_root -i --nodeps $(for p in $RPM_PACKAGES; do echo "$dir/$p-$VERSION-1.$RPM_ARCH.rpm"; done)
  expect_equal "$set: the four packages are installed" "$(expected_versions "$VERSION")" "$(installed_versions)"
  logged "$WORK/rpm-verify.log" rpm_in_root -Va --nodeps
  [ -z "$(cat "$WORK/rpm-verify.log")" ] || { cat "$WORK/rpm-verify.log" >&2; fail "$set: rpm -V finds changed files"; }
  echo "ok: $set: rpm -V finds every file as packaged"
  [ -x "$root/usr/bin/isapack" ] && [ -f "$root/usr/lib64/libisapack.so.0" ] || fail "$set: files missing after install"
  if [ "$set" = cpack ]; then
    logged "$WORK/rpm-upgrade.log" rpm_in_root -U --nodeps \
      $(for p in $RPM_PACKAGES; do echo "$WORK/cpack-next/$p-$next-1.$RPM_ARCH.rpm"; done)
    expect_equal "$set: upgraded to $next" "$(expected_versions "$next")" "$(installed_versions)"
  fi
  logged "$WORK/rpm-erase.log" rpm_in_root -e --nodeps $RPM_PACKAGES
  expect_equal "$set: no package is left" "" "$(rpm_in_root -qa)"
  left=$(cd "$root" && find . ! -type d ! -path './usr/lib/sysimage/rpm/*' | LC_ALL=C sort)
  expect_equal "$set: erase leaves no file behind" "" "$left"
  rm -rf "$root"
done
