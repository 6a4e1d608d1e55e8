# Fixture cleanup: `apt-get purge` of every isapack package; the file system
# and the package list must be as they were before apt_install.sh (the
# piuparts check), and no isapack package may be left.
. "$(dirname "$0")/lib.sh"
need_root
. "$(dirname "$0")/apt.sh"

installed=$(installed_isapack_packages)
[ -z "$installed" ] || apt_get current purge $installed
expect_equal "no isapack package is left" "" "$(installed_isapack_packages)"
[ -f "$WORK/apt/fs.before" ] || fail "apt_install.sh recorded no file system snapshot"
fs_snapshot "$WORK/apt/fs.after"
expect_same_files "purge leaves the file system as it was before the install" \
  "$WORK/apt/fs.before" "$WORK/apt/fs.after"
dpkg-query -W -f '${Package} ${Version} ${db:Status-Status}\n' | LC_ALL=C sort >"$WORK/apt/packages.after"
expect_same_files "and the installed packages as they were" \
  "$WORK/apt/packages.before" "$WORK/apt/packages.after"
# The test repositories' indexes leave apt's lists with the next update.
rm -f /var/lib/apt/lists/*"$(echo "$WORK" | tr / _)"*
rm -rf "$WORK/apt"
