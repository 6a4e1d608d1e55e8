# ISAPACK_LIBHSA_PATH is ignored in setuid programs (secure_getenv): a setuid
# copy of tests/loader/env_probe.cc, run by an unprivileged user with
# ISAPACK_LIBHSA_PATH naming the simulated HSA runtime, does not load it;
# the same program run normally does. Needs root (to make the setuid copy)
# and a file system that honours setuid; fails, saying so, otherwise.
#   sh setuid_test.sh <env_probe> <simulated HSA runtime>
set -eu
probe=$1
simulated=$2
if [ "$(id -u)" -ne 0 ]; then
  echo "FAIL: needs root to make a setuid program (run the suite as root, as scripts/run-tests does)" >&2
  exit 1
fi
if ! command -v setpriv >/dev/null 2>&1 || ! id nobody >/dev/null 2>&1; then
  echo "FAIL: needs setpriv (apt-get install util-linux) and the user nobody (base-passwd)" >&2
  exit 1
fi
dir=$(mktemp -d /tmp/isapack-setuid.XXXXXX)
trap 'rm -rf "$dir"' EXIT
case ",$(findmnt -no OPTIONS --target "$dir")," in
  *,nosuid,*) echo "FAIL: $dir is on a nosuid file system: set TMPDIR to a directory that honours setuid" >&2; exit 1 ;;
esac
chmod 755 "$dir"
# Copies nobody can read, wherever the build tree is.
cp "$simulated" "$dir/libisapack-simulated-hsa.so"
chmod 644 "$dir/libisapack-simulated-hsa.so"
simulated="$dir/libisapack-simulated-hsa.so"
cp "$probe" "$dir/probe"
chown root:root "$dir/probe"
chmod 4755 "$dir/probe"

setuid=$(ISAPACK_LIBHSA_PATH="$simulated" setpriv --reuid=nobody --regid=nogroup --clear-groups "$dir/probe" || true)
chmod 0755 "$dir/probe"
# Without the setuid bit, as nobody: the environment is honoured.
plain=$(ISAPACK_LIBHSA_PATH="$simulated" setpriv --reuid=nobody --regid=nogroup --clear-groups "$dir/probe" 2>&1 || true)
echo "without setuid: $plain"
echo "setuid:         $setuid"
case $plain in
  "loaded: $simulated") ;;
  *) echo "FAIL: without setuid the probe should load $simulated" >&2; exit 1 ;;
esac
case $setuid in
  *"$simulated"*) echo "FAIL: the setuid probe used ISAPACK_LIBHSA_PATH" >&2; exit 1 ;;
  "loaded: "* | "error: "*) ;;
  *) echo "FAIL: the setuid probe did not run" >&2; exit 1 ;;
esac
echo "ok: ISAPACK_LIBHSA_PATH is honoured normally and ignored in a setuid program"
