# Fixture: a local apt repository (apt-ftparchive) holding the CPack debs;
# `apt-get install isapack-tools` from it on this machine, with Debian's own
# repositories for the dependencies. Records the file system and the package
# list first, for apt_purge.sh. Needs root; refuses to touch an isapack that
# was installed before.
. "$(dirname "$0")/lib.sh"
need_root

already=$(installed_isapack_packages)
[ -z "$already" ] || fail "isapack packages are already installed on this machine ($already);
the packaging tests install and purge them: remove them first with
  apt-get purge $already"

# make_repository <name> <debs dir>: an apt repository in $WORK/apt/<name>.
make_repository() {
  _repo="$WORK/apt/$1"
  rm -rf "$_repo"
  mkdir -p "$_repo"
  cp "$2"/*.deb "$_repo/"
  (cd "$_repo" && apt-ftparchive packages . >Packages && apt-ftparchive release . >Release)
  mkdir -p "$WORK/apt/$1.parts"
  # The system's sources (Debian) plus this repository.
  for _source in /etc/apt/sources.list.d/*; do
    [ -e "$_source" ] && cp "$_source" "$WORK/apt/$1.parts/"
  done
  echo "deb [trusted=yes] file:$_repo ./" >"$WORK/apt/$1.parts/isapack-test.list"
  mkdir -p "$WORK/apt/$1.only"
  cp "$WORK/apt/$1.parts/isapack-test.list" "$WORK/apt/$1.only/"
}
make_repository current "$WORK/cpack"
make_repository next "$WORK/cpack-next"

fs_snapshot "$WORK/apt/fs.before"
dpkg-query -W -f '${Package} ${Version} ${db:Status-Status}\n' | LC_ALL=C sort >"$WORK/apt/packages.before"

. "$(dirname "$0")/apt.sh"
apt_update current
apt_get current install isapack-tools
expect_equal "installing isapack-tools pulls in libisapack0 from the repository" \
  "isapack-tools $VERSION
libisapack0 $VERSION" \
  "$(dpkg-query -W -f '${Package} ${Version}\n' isapack-tools libisapack0 | LC_ALL=C sort)"
apt_get current install libisapack-dev isapack-tests
expect_equal "libisapack-dev and isapack-tests install" "install ok installed
install ok installed" "$(dpkg-query -W -f '${Status}\n' libisapack-dev isapack-tests)"
