# Shared by the packaging tests (sourced, POSIX sh). Each test is run by
# CTest as `sh tests/packaging/<test>.sh` with:
#   ISAPACK_SOURCE_DIR  the source tree
#   ISAPACK_BUILD_DIR   the configured and built tree
#   ISAPACK_PACKAGING_WORK  where the tests build, unpack and install
# Exit status: 0 pass, anything else fail (no packaging test skips; only a
# missing GPU may skip a test, and these need none).
set -eu

SRC=${ISAPACK_SOURCE_DIR:?ISAPACK_SOURCE_DIR is not set}
BUILD=${ISAPACK_BUILD_DIR:?ISAPACK_BUILD_DIR is not set}
WORK=${ISAPACK_PACKAGING_WORK:?ISAPACK_PACKAGING_WORK is not set}
mkdir -p "$WORK"

# Every package the project builds, by scheme.
DEB_PACKAGES="libisapack0 libisapack-dev isapack-tools isapack-tests"
RPM_PACKAGES="isapack isapack-devel isapack-tools isapack-tests"
VERSION=$(sed -n '1s/^isapack (\([^)]*\)).*/\1/p' "$SRC/debian/changelog")
ARCH=$(dpkg --print-architecture)
RPM_ARCH=$(uname -m)

# The package build time every build uses: the date of the newest changelog
# entry, as dpkg-buildpackage sets it.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(cd "$SRC" && dpkg-parsechangelog -STimestamp)}
export SOURCE_DATE_EPOCH

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# expect_equal <what> <expected> <actual>
expect_equal() {
  if [ "$2" != "$3" ]; then
    printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3" >&2
    exit 1
  fi
  echo "ok: $1"
}

# expect_same_files <what> <expected file> <actual file>: a unified diff on failure.
expect_same_files() {
  if ! diff -u "$2" "$3" >&2; then
    fail "$1 (diff above: - expected, + actual)"
  fi
  echo "ok: $1"
}

# Runs a command with its output in a log; shows the log's tail on failure.
logged() {
  _log=$1
  shift
  if ! "$@" >"$_log" 2>&1; then
    tail -n 60 "$_log" >&2
    fail "'$*' failed (full log: $_log)"
  fi
}

# export_source <dir>: the source tree as a release tarball would have it
# (tracked and new files in a git checkout, without ignored ones such as build
# trees; the whole tree otherwise).
export_source() {
  rm -rf "$1"
  mkdir -p "$1"
  if git -C "$SRC" rev-parse --show-toplevel >/dev/null 2>&1; then
    (cd "$SRC" && git ls-files -z --cached --others --exclude-standard \
      | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh \
      | tar --null -T - -cf -) | tar -xf - -C "$1"
  else
    (cd "$SRC" && tar --exclude='./build*' -cf - .) | tar -xf - -C "$1"
  fi
}

# source_tarball <file> <prefix>: export_source packed reproducibly.
source_tarball() {
  _stage="$WORK/tarball-stage"
  export_source "$_stage/$2"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    -C "$_stage" -cf - "$2" | gzip -9n >"$1"
  rm -rf "$_stage"
}

# dpkg_build <dir> [VAR=value...]: dpkg-buildpackage -us -uc -b on an export
# of the source tree in <dir>/isapack, with the given environment
# (DEB_BUILD_OPTIONS gets parallel=N added); the debs land in <dir>.
dpkg_build() {
  _dir=$1
  shift
  rm -rf "$_dir"
  export_source "$_dir/isapack"
  (cd "$_dir/isapack" && logged "$_dir/build.log" \
    env "$@" DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-} parallel=$(nproc)" dpkg-buildpackage -us -uc -b)
}

# expect_bit_identical <what> <first dir> <second dir> <file>...: every file
# of the first build is byte for byte the same in the second.
expect_bit_identical() {
  _what=$1
  _first=$2
  _second=$3
  shift 3
  _differ=""
  for _name in "$@"; do
    if cmp -s "$_first/$_name" "$_second/$_name"; then
      echo "ok: $_name is bit-identical"
    else
      _differ="$_differ $_name"
    fi
  done
  [ -z "$_differ" ] || fail "$_what differ between two builds:$_differ (compare with diffoscope)"
}

# deb_files <deb>: one line per entry: mode owner path [-> target], sorted.
deb_files() {
  dpkg-deb --contents "$1" \
    | awk '{ path = $6; for (i = 7; i <= NF; i++) path = path " " $i; print $1, $2, path }' \
    | sed 's| \./| /|; s|^\(d[^ ]* [^ ]*\) /\(.*[^/]\)$|\1 /\2/|' | sort
}

# rpm_files <rpm>: the same, for an rpm (directories end in /).
rpm_files() {
  rpm -qp --queryformat '[%{FILEMODES:perms} %{FILEUSERNAME}/%{FILEGROUPNAME} %{FILENAMES}\t%{FILELINKTOS}\n]' "$1" \
    | awk -F '\t' '{ if ($2 != "") print $1 " -> " $2; else print $1 }' \
    | sed 's|^\(d[^ ]* [^ ]* .*\)$|\1/|' | sort
}

# deb_field <deb> <field>
deb_field() {
  dpkg-deb --field "$1" "$2"
}

need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    fail "needs root to install packages on this machine (run the suite as root, as scripts/run-tests does)"
  fi
}

# The packages this project builds that are installed on this machine.
installed_isapack_packages() {
  for _p in $DEB_PACKAGES; do
    if dpkg-query -W -f '${db:Status-Status}\n' "$_p" 2>/dev/null | grep -qv '^not-installed$'; then
      echo "$_p"
    fi
  done
}

# fs_snapshot <file>: every path the packages could touch, with type and
# mode (piuparts-style: compared before install and after purge). Left out,
# as piuparts leaves them out: the package managers' own state, and what
# other programs legitimately write while the test runs — Python bytecode
# caches (__pycache__, written by autopkgtest's own Python on its first run
# on a machine), which no isapack package ships or removes.
fs_snapshot() {
  find /usr /etc /opt /var/lib -xdev \
    \( -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/lib/ucf -o -path /var/lib/systemd \
       -o -path /var/lib/dhcp -o -path /var/lib/autopkgtest -o -name __pycache__ \) -prune \
    -o -printf '%y %m %p\n' | sort >"$1"
}
