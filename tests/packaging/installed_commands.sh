# The installed isapack command (isapack-tools from the apt repository) runs
# from the installed files and reports what the build tree's reports.
. "$(dirname "$0")/lib.sh"
need_root

[ "$(command -v isapack)" = /usr/bin/isapack ] || fail "isapack is not /usr/bin/isapack: $(command -v isapack || true)"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
isapack verify >"$WORK/verify.installed" 2>&1 || { cat "$WORK/verify.installed" >&2; fail "isapack verify failed"; }
"$BUILD/tools/cli/isapack" verify >"$WORK/verify.build" 2>&1
# The loader may name the library through /lib (merged /usr): compare the files.
verified=$(head -n 1 "$WORK/verify.installed" | sed -n 's/^Verifying the code objects embedded in \(.*\):$/\1/p')
expect_equal "isapack verify checks the installed library" \
  "$(readlink -f "/usr/lib/$multiarch/libisapack.so.0")" "$(readlink -f "$verified")"
expect_equal "and finds what the build tree's verify finds" \
  "$(tail -n +2 "$WORK/verify.build")" "$(tail -n +2 "$WORK/verify.installed")"
expect_equal "isapack targets from the installed files equals the build tree's" \
  "$("$BUILD/tools/cli/isapack" targets)" "$(isapack targets)"
expect_equal "isapack --version, the library's path aside" \
  "$("$BUILD/tools/cli/isapack" --version | grep -v '^library: ')" "$(isapack --version | grep -v '^library: ')"
expect_equal "isapack --version names the installed library" \
  "$(readlink -f "/usr/lib/$multiarch/libisapack.so.0")" \
  "$(readlink -f "$(isapack --version | sed -n 's/^library: //p')")"
if grep -qs '^path-exclude=/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
  echo "note: dpkg here excludes /usr/share/man; not looking for the man page"
else
  [ "$(man -w isapack)" = /usr/share/man/man1/isapack.1.gz ] || fail "man cannot find the isapack page"
  echo "ok: man -w isapack finds /usr/share/man/man1/isapack.1.gz"
fi
