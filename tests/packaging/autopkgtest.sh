# debian/tests/control run by autopkgtest itself (the null virtualisation
# server: on this machine) with the dpkg-buildpackage debs, as Debian's CI
# runs it. Without /dev/kfd, `isapack smoke` exits 77 and is reported SKIP
# (Restrictions: skippable). Then purges the packages; the file system and
# the package list must be as before. Needs root.
. "$(dirname "$0")/lib.sh"
need_root

already=$(installed_isapack_packages)
[ -z "$already" ] || fail "isapack packages are already installed on this machine ($already);
remove them first with: apt-get purge $already"

dir="$WORK/autopkgtest"
rm -rf "$dir"
mkdir -p "$dir"
export_source "$dir/isapack"
fs_snapshot "$dir/fs.before"
dpkg-query -W -f '${Package} ${Version} ${db:Status-Status}\n' | LC_ALL=C sort >"$dir/packages.before"

set --
for package in $DEB_PACKAGES; do
  set -- "$@" "$WORK/dpkg/first/${package}_${VERSION}_${ARCH}.deb"
done
status=0
autopkgtest --output-dir "$dir/out" "$@" "$dir/isapack" -- null >"$dir/autopkgtest.log" 2>&1 || status=$?

# Always leave the machine as it was.
export DEBIAN_FRONTEND=noninteractive
installed=$(installed_isapack_packages)
[ -z "$installed" ] || logged "$dir/purge.log" apt-get -y purge $installed

if [ -e /dev/kfd ]; then
  smoke="command3             PASS"
  expected_status=0
else
  smoke="command3             SKIP exit status 77 and marked as skippable"
  expected_status=2
fi
expect_equal "autopkgtest's summary" "command1             PASS
command2             PASS
$smoke
command4             PASS" "$(cat "$dir/out/summary" 2>/dev/null || tail -n 30 "$dir/autopkgtest.log")"
expect_equal "autopkgtest's exit status (2: a test was skipped)" "$expected_status" "$status"

fs_snapshot "$dir/fs.after"
expect_same_files "purge leaves the file system as it was before autopkgtest" "$dir/fs.before" "$dir/fs.after"
dpkg-query -W -f '${Package} ${Version} ${db:Status-Status}\n' | LC_ALL=C sort >"$dir/packages.after"
expect_same_files "and the installed packages as they were" "$dir/packages.before" "$dir/packages.after"
rm -rf "$dir"
