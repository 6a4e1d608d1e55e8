# A dnf repository (createrepo_c) of the rpms, from CPack and from rpmbuild:
# dnf resolves a GPU to the package that covers it, the library's soname and
# the -devel requirement.
. "$(dirname "$0")/lib.sh"

for set in cpack rpmbuild; do
  repo="$WORK/dnf/$set"
  rm -rf "$repo" "$WORK/dnf/root"
  mkdir -p "$repo" "$WORK/dnf/root"
  case $set in
    cpack) cp "$WORK"/cpack/*.rpm "$repo/" ;;
    rpmbuild) cp "$WORK/rpmbuild/first/RPMS/$RPM_ARCH"/*.rpm "$repo/" ;;
  esac
  logged "$WORK/createrepo.log" createrepo_c "$repo"
  query() {
    dnf -q --installroot="$WORK/dnf/root" --setopt=reposdir=/dev/null --releasever=1 \
      --repofrompath="isapack,file://$repo" --repo=isapack repoquery "$@" 2>"$WORK/dnf.err" \
      || { cat "$WORK/dnf.err" >&2; fail "dnf repoquery $* failed"; }
  }
  runtime="isapack-0:$VERSION-1.$RPM_ARCH"
  expect_equal "$set: dnf finds the package for 'isapack-gpu(gfx1103)'" "$runtime" \
    "$(query --whatprovides 'isapack-gpu(gfx1103)')"
  expect_equal "$set: and for 'isapack-gpu(gfx90a)'" "$runtime" "$(query --whatprovides 'isapack-gpu(gfx90a)')"
  expect_equal "$set: no package for a GPU the build does not cover, 'isapack-gpu(gfx803)'" "" \
    "$(query --whatprovides 'isapack-gpu(gfx803)')"
  expect_equal "$set: dnf finds the package for 'libisapack.so.0()(64bit)'" "$runtime" \
    "$(query --whatprovides 'libisapack.so.0()(64bit)')"
  requirement=$(query --requires isapack-devel | grep '^isapack')
  expect_equal "$set: isapack-devel requires its own isapack" "isapack(x86-64) = $VERSION-1" "$requirement"
  expect_equal "$set: which dnf resolves" "$runtime" "$(query --whatprovides "$requirement")"
  expect_equal "$set: isapack-tests requires the library and the tools of its release" \
    "isapack(x86-64) = $VERSION-1
isapack-tools(x86-64) = $VERSION-1" "$(query --requires isapack-tests | grep '^isapack' | LC_ALL=C sort)"
done
rm -rf "$WORK/dnf"
