# apt-get with the test repositories of apt_install.sh (sourced). The
# repositories live in the build tree, which apt's unprivileged _apt user may
# not be able to read (a private temporary directory): apt fetches as root.
export DEBIAN_FRONTEND=noninteractive

# apt_update <repository>: fetches only that repository's index.
apt_update() {
  logged "$WORK/apt/update.log" apt-get update -o APT::Sandbox::User=root \
    -o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$WORK/apt/$1.only" \
    -o APT::Get::List-Cleanup=false
}

# apt_get <repository> <apt-get arguments>: with Debian's sources and that repository.
apt_get() {
  _repository=$1
  shift
  logged "$WORK/apt/apt-get.log" apt-get -y --no-install-recommends -o APT::Sandbox::User=root \
    -o "Dir::Etc::SourceParts=$WORK/apt/$_repository.parts" "$@"
}
