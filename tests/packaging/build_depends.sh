# Every program and library the configure step, the build and the tests use
# comes from a package reachable from debian/control's Build-Depends (all
# profiles), build-essential or an Essential package, following Depends and
# Pre-Depends only (apt-get build-dep --no-install-recommends installs no
# more). What is checked:
#   - every file a find_program / find_library / pkg_check_modules /
#     find_package call put in this build tree's CMakeCache.txt;
#   - every command named in the test scripts, the CMake test scripts, the
#     string literals of the C++ tests, scripts/ and debian/ (a word that
#     `command -v` resolves on this machine).
# A file from a package outside that set fails the test, naming the package
# to add to Build-Depends; on a fresh machine such a package is missing and
# the configure step or the test that needs it fails instead.
. "$(dirname "$0")/lib.sh"

# --- What debian/control declares, and what that reaches ---------------------
declared=$(awk '
  /^Build-Depends:/ { on = 1; sub(/^Build-Depends:/, ""); print; next }
  on && /^#/ { next }
  on && /^[ \t]/ { print; next }
  on { exit }' "$SRC/debian/control" \
  | tr ',|' '\n\n' | sed 's/([^)]*)//g; s/<[^>]*>//g; s/\[[^]]*\]//g; s/[[:space:]]//g' | grep -v '^$' | sort -u)
[ -n "$declared" ] || fail "no Build-Depends found in $SRC/debian/control"
essential=$(dpkg-query -W -f '${Package} ${Essential}\n' | awk '$2 == "yes" { print $1 }')
# closure <package>...: the packages reached through Depends and Pre-Depends,
# with the providers of every virtual package met on the way.
closure() {
  # shellcheck disable=SC2068
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
      --no-breaks --no-replaces --no-enhances $@ 2>/dev/null \
    | awk '/^[^ ]/ { gsub(/[<>]/, ""); print; next } /^    [^ ]/ { print $1 }' | sed 's/:.*//'
}
# shellcheck disable=SC2086
providers=$(for name in $declared; do
  apt-cache showpkg "$name" 2>/dev/null | sed -n '/^Reverse Provides:/,$p' | sed '1d' | awk '{ print $1 }'
done)
# shellcheck disable=SC2086
first=$(closure $declared $providers build-essential $essential | sort -u)
# shellcheck disable=SC2086
reachable=$(closure $first | sort -u)
echo "$reachable" | grep -qx cmake || fail "apt-cache knows no cmake: run apt-get update first"

# --- What this build tree and the tests use -----------------------------------
cache="$BUILD/CMakeCache.txt"
[ -f "$cache" ] || fail "no $cache: configure the build tree first"
used_files=$(sed -n 's/^[A-Za-z0-9_]*:\(FILEPATH\|PATH\)=\(\/.*\)$/\2/p' "$cache" | while read -r f; do
  [ -e "$f" ] || continue
  # a *_DIR entry is a package's CMake config directory: the package owns its files
  if [ -d "$f" ]; then find "$f" -maxdepth 1 -type f -name '*onfig*.cmake' | head -n 1; else echo "$f"; fi
done)
# The word in command position of every shell command line (after a
# separator, `then`, `do`, an assignment or a wrapper such as env or logged),
# and the program after COMMAND in CMake scripts.
shell_commands() {
  sed 's/^[[:space:]]*#.*//; s/[[:space:]]#.*//' "$@" \
    | sed 's/\$(/\n/g; s/`/\n/g; s/&&/\n/g; s/||/\n/g; s/[|;({]/\n/g' \
    | awk '{
        for (i = 1; i <= NF; i++) {
          w = $i
          if (w ~ /^(!|then|do|else|elif|if|while|until|exec|env|time|nice|sudo|command|xargs|-[A-Za-z0-9-]+)$/) continue
          if (w ~ /^[A-Za-z_][A-Za-z0-9_]*=/) continue
          if (w == "logged") { i++; continue }
          print w; break
        }
      }'
}
words=$(cd "$SRC" && {
  shell_commands $(find tests scripts debian -type f \( -name '*.sh' -o -name 'run-*' -o -name rules \
    -o -path 'scripts/*' \))
  sed -n 's/^Test-Command: *//p' debian/tests/control | awk '{ print $1 }'
  find tests cmake -name '*.cmake' -o -name CMakeLists.txt | xargs grep -ho 'COMMAND  *[A-Za-z][A-Za-z0-9_.+-]*' \
    | awk '{ print $2 }'
  find tests -name '*.cc' -exec grep -ho '"[A-Za-z][A-Za-z0-9_.+-]* ' {} + | tr -d '"'
} | grep '^[A-Za-z][A-Za-z0-9_.+-]*$' | sort -u)
used_commands=$(for w in $words; do
  p=$(command -v "$w" 2>/dev/null) || continue
  case $p in /*) echo "$p" ;; esac
done)

# --- Each used file's package must be reachable ----------------------------------
# usrmerge: dpkg knows /bin/cp, not /usr/bin/cp; alternatives: the link's target.
candidates() {
  echo "$1"
  case $1 in /usr/bin/* | /usr/sbin/* | /usr/lib/*) echo "${1#/usr}" ;; esac
  readlink -f "$1"
}
files=$(printf '%s\n%s\n' "$used_files" "$used_commands" | grep -v '^$' | sort -u)
# shellcheck disable=SC2046
owners=$(dpkg -S $(for f in $files; do candidates "$f"; done | sort -u) 2>/dev/null || true)
problems=""
checked=0
for f in $files; do
  checked=$((checked + 1))
  owner=""
  for c in $(candidates "$f"); do
    owner=$(echo "$owners" | awk -v path="$c" '{ p = $0; sub(/^[^:]*(:[a-z0-9]+)?(, [^:]*(:[a-z0-9]+)?)*: /, "", p) } p == path { sub(/: .*/, ""); print; exit }')
    [ -z "$owner" ] || break
  done
  if [ -z "$owner" ]; then
    case $f in
      "$BUILD"/* | "$SRC"/*) continue ;;  # the project's own files
    esac
    problems="$problems
  $f: installed by hand, not from a Debian package (install the Debian package that provides it, and declare it)"
    continue
  fi
  ok=""
  for package in $(echo "$owner" | sed 's/, /\n/g; s/:[a-z0-9]*//g'); do
    if echo "$reachable" | grep -qx "$package"; then ok=yes; fi
  done
  [ -n "$ok" ] || problems="$problems
  $f comes from $owner, which is not reachable from Build-Depends: add $owner to debian/control"
done
echo "checked $checked files and commands against $(echo "$reachable" | wc -l) packages reachable from $(echo "$declared" | wc -l) Build-Depends"
[ -z "$problems" ] || fail "programs or libraries from undeclared packages:$problems"
echo "ok: every program and library used comes from a declared build dependency"
