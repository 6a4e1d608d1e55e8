# Upgrades the installed packages from version N to N+1 with apt (the
# repository of CPack's N+1 build), then checks the upgraded tools still run.
. "$(dirname "$0")/lib.sh"
need_root
. "$(dirname "$0")/apt.sh"

next=$(cat "$WORK/cpack-next/VERSION")
apt_update next
apt_get next install $DEB_PACKAGES
expect_equal "apt upgraded the four packages to $next" \
  "isapack-tests $next
isapack-tools $next
libisapack-dev $next
libisapack0 $next" "$(dpkg-query -W -f '${Package} ${Version}\n' $DEB_PACKAGES | LC_ALL=C sort)"
logged "$WORK/apt/verify-after-upgrade.log" isapack verify
echo "ok: isapack verify passes after the upgrade"
