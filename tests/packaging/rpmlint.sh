# rpmlint on every rpm, from CPack and from rpmbuild (with the source rpm),
# and on the spec, with rpm/rpmlint.toml (Fedora's settings; each filter
# there says why): no errors, no warnings.
. "$(dirname "$0")/lib.sh"

# Each build's packages in one run: some checks look across packages (the
# -devel .so link must point into a package of the set).
lint() {
  rpmlint -c "$SRC/rpm/rpmlint.toml" "$@" >"$WORK/rpmlint.out" 2>&1 || true
  summary=$(grep -E 'packages? and [0-9]+ specfiles? checked' "$WORK/rpmlint.out" || true)
  case $summary in
    *" 0 errors, 0 warnings"*) echo "ok: rpmlint: $summary" ;;
    *) cat "$WORK/rpmlint.out" >&2; fail "rpmlint reports errors or warnings for $*" ;;
  esac
}
lint "$WORK"/cpack/*.rpm
# The packages the spec defines (find-debuginfo generates the -debuginfo and
# -debugsource ones).
set --
for package in $RPM_PACKAGES; do
  set -- "$@" "$WORK/rpmbuild/first/RPMS/$RPM_ARCH/$package-$VERSION-1.$RPM_ARCH.rpm"
done
lint "$@" "$WORK"/rpmbuild/first/RPMS/noarch/*.rpm "$WORK"/rpmbuild/first/SRPMS/*.rpm
expect_equal "rpmlint checked the four CPack rpms" 4 "$(ls "$WORK"/cpack/*.rpm | wc -l)"
rpmlint -c "$SRC/rpm/rpmlint.toml" "$SRC/rpm/isapack.spec" >"$WORK/rpmlint.out" 2>&1 || true
grep -q ' 0 errors, 0 warnings' "$WORK/rpmlint.out" || { cat "$WORK/rpmlint.out" >&2; fail "rpmlint reports errors or warnings for rpm/isapack.spec"; }
echo "ok: rpmlint is clean for rpm/isapack.spec"
