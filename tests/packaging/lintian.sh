# lintian on every deb, from CPack and from dpkg-buildpackage: no errors and
# no warnings; every override in debian/ carries a justification (a comment
# line right above it).
. "$(dirname "$0")/lib.sh"

for overrides in "$SRC"/debian/*.lintian-overrides; do
  awk -v file="$overrides" '
    /^#/ { justified = 1; next }
    /^[[:space:]]*$/ { justified = 0; next }
    { if (!justified) { print file ": override without a justification: " $0; bad = 1 } justified = 0 }
    END { exit bad }' "$overrides" || fail "every lintian override needs a '#' justification line above it"
done
echo "ok: every lintian override is justified"

checked=0
for deb in "$WORK"/cpack/*.deb "$WORK"/dpkg/first/*.deb; do
  # --fail-on: lintian's exit status is 2 for an error or warning.
  if ! lintian --fail-on error,warning --tag-display-limit 0 "$deb" >"$WORK/lintian.out" 2>&1; then
    cat "$WORK/lintian.out" >&2
    fail "lintian reports errors or warnings for $deb"
  fi
  if grep -E '^[EW]: ' "$WORK/lintian.out" >&2; then
    fail "lintian reports errors or warnings for $deb"
  fi
  echo "ok: lintian is clean for ${deb#"$WORK"/}"
  checked=$((checked + 1))
done
expect_equal "lintian checked the four CPack debs and the nine dpkg-buildpackage debs" 13 "$checked"
