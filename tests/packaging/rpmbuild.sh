# rpmbuild.sh first: the fixture, rpm/isapack.spec built with `rpmbuild -ba`
# from a git-archive style tarball (%check runs the tests); the rpms land in
# $WORK/rpmbuild/first/{RPMS,SRPMS}.
# rpmbuild.sh reproducible: a second build (--nocheck); every rpm must be
# bit-identical to the first build's. Both build in $WORK/rpmbuild/top: rpm
# records the build directory in every header (the expanded build scripts),
# so rpms are reproducible in the same directory, as Koji and mock build.
# --nodeps: Debian has the build dependencies, under names rpm cannot see.
# tests/packaging/fedora.macros gives Debian's rpm Fedora's settings where
# they differ (debuginfo, %doc directory names, reproducible builds).
. "$(dirname "$0")/lib.sh"

# rpmbuild_in <topdir> <log> [rpmbuild options]
rpmbuild_in() {
  _top=$1
  _log=$2
  shift 2
  rm -rf "$_top"
  mkdir -p "$_top/SOURCES"
  source_tarball "$_top/SOURCES/isapack-$VERSION.tar.gz" "isapack-$VERSION"
  logged "$_log" rpmbuild -ba --nodeps \
    --define "_topdir $_top" \
    --define "_smp_mflags -j$(nproc)" \
    --load "$SRC/tests/packaging/fedora.macros" \
    "$@" "$SRC/rpm/isapack.spec"
}

top="$WORK/rpmbuild/top"
case ${1:-} in
  first)
    rm -rf "$WORK/rpmbuild/first"
    rpmbuild_in "$top" "$WORK/rpmbuild-first.log"
    mkdir -p "$WORK/rpmbuild/first"
    mv "$top/RPMS" "$top/SRPMS" "$WORK/rpmbuild/first/"
    rm -rf "$top"
    out="$WORK/rpmbuild/first"
    expected=""
    for package in $RPM_PACKAGES; do
      expected="$expected$package-$VERSION-1.$RPM_ARCH.rpm
"
    done
    expect_equal "rpmbuild -ba builds the four packages" \
      "$(printf '%s' "$expected" | LC_ALL=C sort)" \
      "$(cd "$out/RPMS/$RPM_ARCH" && ls -1 -- *.rpm | grep -v -- '-debug\(info\|source\)-' | LC_ALL=C sort)"
    expect_equal "and debuginfo packages for the four (each holds binaries; isapack-devel the toolkit's host programs), and debugsource" \
      "isapack-debuginfo isapack-debugsource isapack-devel-debuginfo isapack-tests-debuginfo isapack-tools-debuginfo" \
      "$(cd "$out/RPMS/$RPM_ARCH" && ls -1 -- *-debug*.rpm | sed 's/-[0-9].*//' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')"
    expect_equal "and the noarch isapack-rpm-macros" "isapack-rpm-macros-$VERSION-1.noarch.rpm" \
      "$(ls "$out/RPMS/noarch")"
    expect_equal "isapack provides isapack-gpu() for what its binaries cover (the isapack-rpm-macros generator)" \
      "$(printf 'isapack-gpu(%s)\n' $("$BUILD/tools/cli/isapack" coverage --field debian \
          "$out/RPMS/$RPM_ARCH/isapack-$VERSION-1.$RPM_ARCH.rpm") | LC_ALL=C sort)" \
      "$(rpm -qp --provides "$out/RPMS/$RPM_ARCH/isapack-$VERSION-1.$RPM_ARCH.rpm" | grep '^isapack-gpu(' | LC_ALL=C sort)"
    expect_equal "and no other package provides isapack-gpu()" "" \
      "$(for r in "$out"/RPMS/*/*.rpm; do case $r in */isapack-$VERSION-*) ;; *) rpm -qp --provides "$r" | grep '^isapack-gpu(';; esac; done)"
    expect_equal "and the source package" "isapack-$VERSION-1.src.rpm" "$(ls "$out/SRPMS")"
    grep -E '^[0-9]+% tests passed' "$WORK/rpmbuild-first.log" || fail "%check ran no tests"
    ;;
  reproducible)
    rpmbuild_in "$top" "$WORK/rpmbuild-second.log" --nocheck
    first="$WORK/rpmbuild/first"
    expect_bit_identical "rpms" "$first/RPMS/$RPM_ARCH" "$top/RPMS/$RPM_ARCH" $(cd "$first/RPMS/$RPM_ARCH" && ls -- *.rpm)
    expect_bit_identical "source rpms" "$first/SRPMS" "$top/SRPMS" $(cd "$first/SRPMS" && ls -- *.rpm)
    rm -rf "$top"
    ;;
  *) fail "usage: rpmbuild.sh first|reproducible" ;;
esac
