# The package lifecycle with apt: the installed version N is upgraded to N+1
# (the repository of CPack's N+1 build), then downgraded back to N; after
# each step every package is at the expected version, dpkg reports no
# conflict, and the installed tools still run. (apt_purge.sh then purges.)
. "$(dirname "$0")/lib.sh"
need_root
. "$(dirname "$0")/apt.sh"

versions() {
  dpkg-query -W -f '${Package} ${Version}\n' $DEB_PACKAGES | LC_ALL=C sort
}
expected() {
  for package in $DEB_PACKAGES; do echo "$package $1"; done | LC_ALL=C sort
}

next=$(cat "$WORK/cpack-next/VERSION")
apt_update next
apt_get next install $DEB_PACKAGES
expect_equal "apt upgraded the four packages to $next" "$(expected "$next")" "$(versions)"
logged "$WORK/apt/verify-after-upgrade.log" isapack verify
echo "ok: isapack verify passes after the upgrade"

apt_update current
set --
for package in $DEB_PACKAGES; do
  set -- "$@" "$package=$VERSION"
done
apt_get current install --allow-downgrades "$@"
expect_equal "apt downgraded the four packages back to $VERSION" "$(expected "$VERSION")" "$(versions)"
logged "$WORK/apt/verify-after-downgrade.log" isapack verify
echo "ok: isapack verify passes after the downgrade"
dpkg --audit >"$WORK/apt/audit.log" 2>&1 || true
expect_equal "dpkg --audit finds nothing half-installed" "" "$(cat "$WORK/apt/audit.log")"
