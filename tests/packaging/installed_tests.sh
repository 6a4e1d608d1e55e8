# The installed tests (package isapack-tests) pass against the installed
# library and command, and so do the autopkgtest commands of
# debian/tests/control, run here by hand on the apt-installed packages
# (autopkgtest.sh runs them through autopkgtest itself).
. "$(dirname "$0")/lib.sh"
need_root

logged "$WORK/installed-run-tests.log" /usr/libexec/isapack/tests/run-tests
tail -n 1 "$WORK/installed-run-tests.log"
expect_equal "run-tests ran the four test programs" 4 \
  "$(grep -c '^== isapack_[a-z_]*: PASS$' "$WORK/installed-run-tests.log")"
# `isapack smoke` needs a GPU: exit 77 (skipped) without /dev/kfd.
status=0
isapack smoke >"$WORK/smoke.log" 2>&1 || status=$?
if [ -e /dev/kfd ]; then
  expect_equal "isapack smoke passes on this machine's GPUs" 0 "$status"
else
  expect_equal "isapack smoke skips (77) without /dev/kfd" 77 "$status"
fi
