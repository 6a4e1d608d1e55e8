#!/bin/bash
# isapack coverage on third-party-shaped inputs this test builds itself: a
# shared library carrying a HIP-style compressed offload bundle (made with
# clang-offload-bundler -compress) in its .hip_fatbin section, packaged as a
# .deb (dpkg-deb) and an .rpm (rpmbuild) with declared GPU lists; a plain
# directory of .hsaco files; a fake dpkg database; damaged inputs. Every
# expected answer is written out in full.
#   coverage_test.sh <case> (environment: ISAPACK CLANG LLD BUNDLER OBJCOPY WORK)
set -u
case_name=$1
: "${ISAPACK:?}" "${CLANG:?}" "${LLD:?}" "${BUNDLER:?}" "${OBJCOPY:?}" "${WORK:?}"
# The bundler runs llvm-objcopy from PATH to write object files; Debian ships
# the unversioned name only in the LLVM's own bin directory.
PATH="$(dirname "$(readlink -f "$BUNDLER")"):$PATH"
export PATH
W="$WORK/$case_name"
rm -rf "$W" && mkdir -p "$W" || exit 1
export XDG_CACHE_HOME="$W/cache"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
need() { command -v "$1" >/dev/null || { echo "FAIL: $1 is missing: install the Debian package $2"; exit 1; }; }
need dpkg-deb dpkg
need rpmbuild rpm

# expect <name> <want-exit> <command...>; the expected output is on stdin.
expect() {
  local name=$1 want=$2
  shift 2
  local got rc
  got=$("$@" 2>"$W/stderr")
  rc=$?
  if [ "$rc" != "$want" ]; then
    fail "$name: exit $rc, want $want"
    cat "$W/stderr"
  fi
  # BYTES in an expected output stands for $BYTES.
  if ! diff -u <(sed "s/BYTES/${BYTES:-BYTES}/") <(printf '%s\n' "$got") >"$W/diff"; then
    fail "$name: output differs (- expected, + actual)"
    cat "$W/diff"
  fi
}

# --- Fixtures -----------------------------------------------------------------
code_object() {  # <processor> <output> [code object version]
  "$CLANG" -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu="$1" -nogpulib \
    -mcode-object-version="${3:-5}" -c -o "$W/$1.o" - <<<'kernel void k(global int* p) { p[0] = 1; }' &&
    "$LLD" -shared -o "$2" "$W/$1.o"
}
library_with_bundle() {  # <output .so> <compress: -compress or ""> <processor>...
  local out=$1 compress=$2 targets=host-x86_64-unknown-linux-gnu inputs=(-input=/dev/null)
  shift 2
  for p in "$@"; do
    code_object "$p" "$W/$p.co" || return 1
    targets+=",hipv4-amdgcn-amd-amdhsa--$p"
    inputs+=("-input=$W/$p.co")
  done
  "$BUNDLER" -type=o "-targets=$targets" "${inputs[@]}" "-output=$W/fatbin" $compress &&
    printf 'int f(void) { return 1; }\n' | "${CC:-cc}" -shared -fPIC -x c - -o "$out" &&
    "$OBJCOPY" --add-section ".hip_fatbin=$W/fatbin" "$out"
}
deb() {  # <package> <gpu field or ""> <file> <installed path>
  local root="$W/deb-$1"
  mkdir -p "$root/DEBIAN" "$root$(dirname "$4")"
  [ -n "$3" ] && cp "$3" "$root$4"
  {
    echo "Package: $1"
    echo "Version: 1.0-1"
    echo "Architecture: amd64"
    echo "Maintainer: nobody <nobody@example.invalid>"
    echo "Description: a test package"
    [ -n "$2" ] && echo "X-ROCm-GPU-Architecture: $2"
  } >"$root/DEBIAN/control"
  dpkg-deb --root-owner-group -Zxz -b "$root" "$W/$1_1.0-1_amd64.deb" >/dev/null
}

mkdir -p "$W/lib" "$W/hsaco"
library_with_bundle "$W/lib/libfoo.so.1" -compress gfx1030 gfx1100 || fail "building libfoo"
library_with_bundle "$W/lib/libbar.so.1" "" gfx1030 || fail "building libbar"
deb libfoo1 "gfx1030 gfx1101" "$W/lib/libfoo.so.1" /usr/lib/x86_64-linux-gnu/libfoo.so.1
deb libbar1 "gfx1030" "$W/lib/libbar.so.1" /usr/lib/x86_64-linux-gnu/libbar.so.1
deb libfoo-dev "" "" /usr/include/foo.h
code_object gfx10-3-generic "$W/hsaco/k-gfx10-3-generic.hsaco" 6 || fail "building the generic"
code_object gfx1030 "$W/gfx1030.co" &&
  "$BUNDLER" -type=o -targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx1030 \
    -input=/dev/null "-input=$W/gfx1030.co" \
    "-output=$W/hsaco/k-gfx1030.hipfb" || fail "building the gfx1030 bundle"

rpm_package() {  # <declared gpu>...: builds $W/rpm/RPMS/x86_64/libfoo-1.0-1.x86_64.rpm
  local provides="" gpu
  for gpu in "$@"; do provides+="Provides: isapack-gpu($gpu)"$'\n'; done
  mkdir -p "$W/rpm/SOURCES"
  cp "$W/lib/libfoo.so.1" "$W/rpm/SOURCES/"
  cat >"$W/libfoo.spec" <<EOF
Name: libfoo
Version: 1.0
Release: 1
Summary: a test package
License: MIT
BuildArch: x86_64
AutoReqProv: no
${provides}%global debug_package %{nil}
%global __os_install_post %{nil}
%description
A test package.
%install
mkdir -p %{buildroot}/usr/lib64
cp %{_sourcedir}/libfoo.so.1 %{buildroot}/usr/lib64/
%files
/usr/lib64/libfoo.so.1
EOF
  rpmbuild -bb --define "_topdir $W/rpm" --define '_binary_payload w19.zstdio' \
    "$W/libfoo.spec" >"$W/rpmbuild.log" 2>&1 || { cat "$W/rpmbuild.log"; fail "rpmbuild"; }
}

# --- Cases ----------------------------------------------------------------------
case "$case_name" in
require_names_exactly_the_packages_and_gpus_missing)
  cd "$W" || exit 1
  expect require 1 "$ISAPACK" coverage --rocr 6.4 --require 'gfx1030;gfx1100' \
    libfoo1_1.0-1_amd64.deb libbar1_1.0-1_amd64.deb libfoo-dev_1.0-1_amd64.deb <<'EOF'
ROCr 6.4 (--rocr)
PACKAGE     VERSION  gfx1030   gfx1100
libfoo1     1.0-1    exact     exact
libbar1     1.0-1    exact     -
libfoo-dev  1.0-1    no code   no code
missing: libbar1: does not cover required gfx1100
EOF
  expect require-met 0 "$ISAPACK" coverage --rocr 6.4 --require 'Radeon RX 6800' \
    libfoo1_1.0-1_amd64.deb libbar1_1.0-1_amd64.deb <<'EOF'
ROCr 6.4 (--rocr)
PACKAGE  VERSION  gfx1030
libfoo1  1.0-1    exact
libbar1  1.0-1    exact
EOF
  expect require-unknown 2 "$ISAPACK" coverage --require 'gfx1O30' libfoo1_1.0-1_amd64.deb <<'EOF'

EOF
  grep -q "unknown GPU 'gfx1O30': did you mean 'gfx1030'" "$W/stderr" ||
    fail "require-unknown: no suggestion: $(cat "$W/stderr")"
  ;;
gpu_on_a_directory_with_a_generic_object_and_a_gfx1030_bundle)
  cd "$W" || exit 1
  expect gpu-rocr64 0 "$ISAPACK" coverage --rocr 6.4 --gpu gfx1036 --gpu gfx1031 hsaco <<'EOF'
ROCr 6.4 (--rocr)
gfx1036 (Raphael iGPU): from --gpu gfx1036
gfx1031 (Radeon RX 6700 XT): from --gpu gfx1031
PACKAGE                        VERSION  gfx1036   gfx1031
hsaco/k-gfx10-3-generic.hsaco           generic   generic
hsaco/k-gfx1030.hipfb                   -         -
gfx1036: 1 of 2 inputs with GPU code run on it
gfx1031: 1 of 2 inputs with GPU code run on it
note: hsaco/k-gfx1030.hipfb on gfx1036: not covered; only gfx1030 inside; would need HSA_OVERRIDE_GFX_VERSION=10.3.0 or an ISA-fallback patch
note: hsaco/k-gfx1030.hipfb on gfx1031: not covered; only gfx1030 inside; would need HSA_OVERRIDE_GFX_VERSION=10.3.0 or an ISA-fallback patch
EOF
  expect gpu-rocr52 5 "$ISAPACK" coverage --rocr 5.2 --gpu gfx1036 --gpu gfx1031 hsaco <<'EOF'
ROCr 5.2 (--rocr)
gfx1036 (Raphael iGPU): from --gpu gfx1036
gfx1031 (Radeon RX 6700 XT): from --gpu gfx1031
PACKAGE                        VERSION  gfx1036   gfx1031
hsaco/k-gfx10-3-generic.hsaco           -         -
hsaco/k-gfx1030.hipfb                   -         -
gfx1036: 0 of 2 inputs with GPU code run on it
gfx1031: 0 of 2 inputs with GPU code run on it
note: hsaco/k-gfx10-3-generic.hsaco on gfx1036: not covered; needs ROCr >= 6.4 to load the generic code object gfx10-3-generic
note: hsaco/k-gfx10-3-generic.hsaco on gfx1031: not covered; needs ROCr >= 6.4 to load the generic code object gfx10-3-generic
note: hsaco/k-gfx1030.hipfb on gfx1036: not covered; only gfx1030 inside; would need HSA_OVERRIDE_GFX_VERSION=10.3.0 or an ISA-fallback patch
note: hsaco/k-gfx1030.hipfb on gfx1031: not covered; only gfx1030 inside; would need HSA_OVERRIDE_GFX_VERSION=10.3.0 or an ISA-fallback patch
EOF
  expect gpu-product-name 0 "$ISAPACK" coverage --rocr 6.4 --gpu 'amd radeon  rx 6800' \
    hsaco/k-gfx1030.hipfb <<'EOF'
ROCr 6.4 (--rocr)
gfx1030 (Radeon RX 6800): from --gpu amd radeon  rx 6800
PACKAGE                VERSION  gfx1030
hsaco/k-gfx1030.hipfb           exact
gfx1030: 1 of 1 inputs with GPU code run on it
EOF
  BYTES=$(stat -c %s hsaco/k-gfx1030.hipfb)
  expect gpu-json 5 "$ISAPACK" coverage --rocr 5.2 --gpu gfx1036 --json hsaco/k-gfx1030.hipfb <<'EOF'
{
  "bytes_scanned": BYTES,
  "errors": [],
  "exit_code": 5,
  "files_scanned": 1,
  "gpus": [
    {
      "name": "gfx1036",
      "product": "Raphael iGPU",
      "source": "--gpu gfx1036"
    }
  ],
  "packages": [
    {
      "coverage": {
        "gfx1036": {
          "hint": "only gfx1030 inside; would need HSA_OVERRIDE_GFX_VERSION=10.3.0 or an ISA-fallback patch",
          "object": "",
          "way": "not-covered"
        }
      },
      "declared": null,
      "errors": [],
      "files": [
        {
          "errors": [],
          "path": "hsaco/k-gfx1030.hipfb",
          "targets": [
            "gfx1030"
          ]
        }
      ],
      "format": "file",
      "metadata": null,
      "name": "hsaco/k-gfx1030.hipfb",
      "source": "hsaco/k-gfx1030.hipfb",
      "targets": [
        "gfx1030"
      ],
      "version": ""
    }
  ],
  "rocr": {
    "source": "--rocr",
    "version": "5.2"
  },
  "schema": 1,
  "status": "not_covered"
}
EOF
  ;;
check_metadata_reports_every_difference_both_ways)
  cd "$W" || exit 1
  expect metadata 1 "$ISAPACK" coverage --rocr 6.4 --check-metadata \
    libfoo1_1.0-1_amd64.deb libbar1_1.0-1_amd64.deb <<'EOF'
ROCr 6.4 (--rocr)
PACKAGE  VERSION  gfx1030   gfx1100
libfoo1  1.0-1    exact     exact
libbar1  1.0-1    exact     -
metadata: libfoo1: declares gfx1101 but its binaries do not cover it
metadata: libfoo1: its binaries cover gfx1100 but it does not declare it
EOF
  ;;
field_generators_print_the_covered_processors)
  expect field-debian 0 "$ISAPACK" coverage --field debian "$W/lib" "$W/hsaco" <<'EOF'
gfx1030 gfx1031 gfx1032 gfx1033 gfx1034 gfx1035 gfx1036 gfx1100
EOF
  echo "$W/lib/libfoo.so.1" >"$W/list"
  expect field-rpm 0 "$ISAPACK" coverage --field rpm --files-from "$W/list" <<'EOF'
isapack-gpu(gfx1030)
isapack-gpu(gfx1100)
EOF
  [ "$("$ISAPACK" coverage --field rpm --files-from - <"$W/list" | tr '\n' ' ')" = \
    "isapack-gpu(gfx1030) isapack-gpu(gfx1100) " ] || fail "--files-from - does not read stdin"
  mkdir -p "$W/empty" && echo "no device code" >"$W/empty/README"
  expect field-none 0 "$ISAPACK" coverage --field debian "$W/empty" <<'EOF'

EOF
  ;;
an_rpm_is_read_without_installing_it)
  rpm_package gfx1030 gfx1100
  expect rpm 0 "$ISAPACK" coverage --rocr 6.4 --check-metadata \
    "$W/rpm/RPMS/x86_64/libfoo-1.0-1.x86_64.rpm" <<'EOF'
ROCr 6.4 (--rocr)
PACKAGE  VERSION  gfx1030   gfx1100
libfoo   1.0-1    exact     exact
EOF
  ;;
installed_packages_come_from_the_dpkg_database_and_the_cache)
  R="$W/root"
  mkdir -p "$R/var/lib/dpkg/info" "$R/usr/lib/x86_64-linux-gnu"
  cp "$W/lib/libfoo.so.1" "$R/usr/lib/x86_64-linux-gnu/"
  printf '/.\n/usr\n/usr/lib/x86_64-linux-gnu/libfoo.so.1\n' >"$R/var/lib/dpkg/info/libfoo1.list"
  printf '/usr/share/doc/other\n' >"$R/var/lib/dpkg/info/other.list"
  cat >"$R/var/lib/dpkg/status" <<'EOF'
Package: libfoo1
Status: install ok installed
Maintainer: nobody <nobody@example.invalid>
Architecture: amd64
Version: 2.0-1
X-ROCm-GPU-Architecture: gfx1030 gfx1100
Description: a library

Package: other
Status: install ok installed
Architecture: all
Version: 1

Package: removed
Status: deinstall ok config-files
Architecture: all
Version: 1
EOF
  for run in first second; do
    expect "installed-$run" 0 "$ISAPACK" coverage --rocr 6.4 --installed --root "$R" \
      --check-metadata <<'EOF'
ROCr 6.4 (--rocr)
PACKAGE  VERSION  gfx1030   gfx1100
libfoo1  2.0-1    exact     exact
other    1        no code   no code
EOF
  done
  grep -q "\"$R/usr/lib/x86_64-linux-gnu/libfoo.so.1\"" "$W/cache/isapack/coverage-cache.json" ||
    fail "the cache does not hold libfoo.so.1"
  # Without --rocr, the ROCr is the one installed under --root, not the host's.
  printf '\nPackage: libhsa-runtime64-1\nStatus: install ok installed\nArchitecture: amd64\nVersion: 6.4.0-1\n' \
    >>"$R/var/lib/dpkg/status"
  expect installed-rocr 0 "$ISAPACK" coverage --installed --root "$R" --gpu gfx1030 <<'EOF'
ROCr 6.4 (dpkg: libhsa-runtime64-1 6.4.0-1)
gfx1030 (Radeon RX 6800): from --gpu gfx1030
PACKAGE             VERSION  gfx1030
libfoo1             2.0-1    exact
libhsa-runtime64-1  6.4.0-1  no code
other               1        no code
gfx1030: 1 of 1 inputs with GPU code run on it
EOF
  ;;
installed_packages_come_from_the_rpm_database)
  # Fedora's layout: the database in /usr/lib/sysimage/rpm of the root.
  rpm_package gfx1030 gfx1101
  R="$W/root"
  rpm --root "$R" --dbpath /usr/lib/sysimage/rpm --initdb &&
    rpm --root "$R" --dbpath /usr/lib/sysimage/rpm -i --nodeps \
      "$W/rpm/RPMS/x86_64/libfoo-1.0-1.x86_64.rpm" >"$W/rpm-install.log" 2>&1 ||
    { cat "$W/rpm-install.log"; fail "rpm -i into $R"; }
  expect installed-rpm 1 "$ISAPACK" coverage --rocr 6.4 --installed --root "$R" --no-cache \
    --check-metadata <<'EOF'
ROCr 6.4 (--rocr)
PACKAGE  VERSION  gfx1030   gfx1100
libfoo   1.0-1    exact     exact
metadata: libfoo: declares gfx1101 but its binaries do not cover it
metadata: libfoo: its binaries cover gfx1100 but it does not declare it
EOF
  expect no-database 3 "$ISAPACK" coverage --rocr 6.4 --installed --root "$W/rpm" --no-cache <<'EOF'
ROCr 6.4 (--rocr)
EOF
  grep -q "no package database under $W/rpm: --installed reads dpkg's" "$W/stderr" ||
    fail "no-database: $(cat "$W/stderr")"
  ;;
bad_inputs_are_reported_and_the_rest_is_scanned)
  cp "$W/libfoo1_1.0-1_amd64.deb" "$W/good.deb"
  head -c 3000 "$W/libfoo1_1.0-1_amd64.deb" >"$W/truncated.deb"
  mkdir -p "$W/loop" && ln -s b "$W/loop/a" && ln -s a "$W/loop/b"
  mkfifo "$W/loop/fifo"
  truncate -s 17G "$W/sparse.bin" && printf '\177ELF' | dd of="$W/sparse.bin" conv=notrunc 2>/dev/null
  cp "$W/gfx1030.co" "$W/bad-flags.co" &&
    printf '\377' | dd of="$W/bad-flags.co" bs=1 seek=48 conv=notrunc 2>/dev/null
  "$ISAPACK" coverage --rocr 6.4 "$W/good.deb" "$W/truncated.deb" "$W/loop" "$W/sparse.bin" \
    "$W/bad-flags.co" >"$W/out" 2>"$W/err"
  rc=$?
  [ "$rc" = 3 ] || fail "bad inputs: exit $rc, want 3 (incomplete)"
  grep -q '^libfoo1  *1.0-1  *exact  *exact$' "$W/out" || fail "the good package is missing: $(cat "$W/out")"
  grep -q "truncated.deb" "$W/err" || fail "the truncated package is not named"
  grep -q "loop/a: .*symbolic links" "$W/err" || fail "the symlink loop is not named: $(cat "$W/err")"
  grep -q "loop/fifo is a FIFO" "$W/err" || fail "the FIFO is not named"
  grep -q "sparse.bin.*--max-file-size" "$W/err" || fail "the 17 GB file does not name --max-file-size"
  grep -q "bad-flags.co" "$W/err" || fail "the impossible e_flags are not named"
  grep -q "the scan is incomplete" "$W/err" || fail "no incomplete summary"
  ;;
html_page_draws_the_matrix)
  cd "$W" || exit 1
  "$ISAPACK" coverage --rocr 6.4 --require 'gfx1030;gfx1100' --html "$W/page.html" \
    libfoo1_1.0-1_amd64.deb libbar1_1.0-1_amd64.deb >/dev/null 2>&1
  [ "$(grep -o '<td class="cell exact"' "$W/page.html" | wc -l)" = 3 ] || fail "3 exact cells"
  [ "$(grep -o '<td class="cell not-covered"' "$W/page.html" | wc -l)" = 1 ] || fail "1 empty cell"
  grep -q '<li>libbar1 misses required gfx1100</li>' "$W/page.html" || fail "the gap is not listed"
  if grep -q -E '<script|https?://' "$W/page.html"; then fail "the page is not self-contained"; fi
  ;;
html_matrix_renders_in_headless_chromium)
  # The page as a browser draws it: Chromium (headless) takes a screenshot and
  # matrix_from_screenshot.py reads the coloured cells back from its pixels.
  browser=$(command -v chromium || command -v chromium-browser) ||
    { echo "FAIL: chromium is missing: install the Debian package chromium"; exit 1; }
  /usr/bin/python3 -c 'import PIL' 2>/dev/null ||
    { echo "FAIL: Pillow is missing: install the Debian package python3-pil"; exit 1; }
  cd "$W" || exit 1
  "$ISAPACK" coverage --rocr 6.4 --gpu gfx1030 --gpu gfx1100 --gpu gfx1036 --html "$W/page.html" \
    libfoo1_1.0-1_amd64.deb libbar1_1.0-1_amd64.deb hsaco >/dev/null 2>"$W/stderr"
  rc=$?
  [ "$rc" = 0 ] || fail "coverage --gpu: exit $rc, want 0 (each GPU has a package): $(cat "$W/stderr")"
  # Root needs --no-sandbox; a chroot may lack /dev/shm and a D-Bus session.
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --hide-scrollbars --force-device-scale-factor=1 --window-size=1000,800 --no-first-run \
    --user-data-dir="$W/profile" --screenshot="$W/page.png" "file://$W/page.html" \
    >"$W/browser.log" 2>&1
  [ -s "$W/page.png" ] || { cat "$W/browser.log"; fail "Chromium wrote no screenshot"; }
  # The legend's colours, in the page's order (exact, generic, retargeted, not covered).
  colours=$(grep -o 'class="legend">.*</p>' "$W/page.html" | grep -o 'background:#[0-9a-f]*' | cut -d: -f2)
  set -- $colours
  [ "$#" = 4 ] || fail "the legend has $# colours, want 4"
  expect screenshot 0 /usr/bin/python3 "$SRC/tests/cli/matrix_from_screenshot.py" "$W/page.png" \
    "exact=$1" "generic=$2" "retargeted=$3" "not-covered=$4" <<'EOF'
legend: exact generic retargeted not-covered
row 1: exact exact not-covered
row 2: exact not-covered not-covered
row 3: generic not-covered generic
row 4: exact not-covered not-covered
cell swatch: 120x24 pixels
EOF
  ;;
system_libhsa_runtime_carries_26_code_object_v4_blit_kernels)
  lib=$(dpkg -L libhsa-runtime64-1 2>/dev/null | grep 'libhsa-runtime64\.so\.1\.[0-9.]*$' | head -1)
  [ -n "$lib" ] || { echo "FAIL: libhsa-runtime64-1 is not installed: install it"; exit 1; }
  expect libhsa 0 "$ISAPACK" coverage --field debian "$lib" <<'EOF'
gfx700 gfx701 gfx702 gfx801 gfx802 gfx803 gfx805 gfx810 gfx900 gfx902 gfx904 gfx906 gfx908 gfx909 gfx90a gfx90c gfx1010 gfx1011 gfx1012 gfx1013 gfx1030 gfx1031 gfx1032 gfx1033 gfx1034 gfx1035
EOF
  ;;
dh_isapack_writes_the_field_of_a_consumer_package)
  # A third-party source package with two binary packages, built with
  # dpkg-buildpackage and the dh-sequence-isapack add-on from this source
  # tree (PERL5LIB, PATH) and this build's isapack (-d: the add-on is not
  # installed as the package dh-sequence-isapack).
  : "${SRC:?}"
  need dpkg-buildpackage dpkg-dev
  need dh debhelper
  P="$W/consumer"
  mkdir -p "$P/debian" "$W/perl5/Debian/Debhelper/Sequence" "$W/bin"
  cp "$SRC/tools/debhelper/isapack.pm" "$W/perl5/Debian/Debhelper/Sequence/"
  cp "$SRC/tools/debhelper/dh_isapack" "$W/bin/"
  cp "$W/lib/libfoo.so.1" "$P/"
  cat >"$P/debian/control" <<'EOF'
Source: foo
Section: libs
Priority: optional
Maintainer: nobody <nobody@example.invalid>
Build-Depends: debhelper-compat (= 13), dh-sequence-isapack
Standards-Version: 4.6.2

Package: libfoo1
Architecture: amd64
Depends: ${misc:Depends}
XB-X-ROCm-GPU-Architecture: ${isapack:GPU-Architecture}
Description: a library with GPU code
 Carries a HIP-style compressed offload bundle.

Package: foo-doc
Architecture: all
Depends: ${misc:Depends}
XB-X-ROCm-GPU-Architecture: ${isapack:GPU-Architecture}
Description: documentation without GPU code
 Plain text.
EOF
  printf 'foo (1.0-1) unstable; urgency=medium\n\n  * Test.\n\n -- nobody <nobody@example.invalid>  Mon, 01 Jan 2024 00:00:00 +0000\n' \
    >"$P/debian/changelog"
  printf '#!/usr/bin/make -f\n%%:\n\tdh $@\noverride_dh_strip:\noverride_dh_shlibdeps:\n' >"$P/debian/rules"
  chmod +x "$P/debian/rules"
  echo "libfoo.so.1 usr/lib/x86_64-linux-gnu" >"$P/debian/libfoo1.install"
  echo "debian/changelog usr/share/doc/foo-doc/notes" >"$P/debian/foo-doc.install"
  (cd "$P" && ISAPACK="$ISAPACK" PERL5LIB="$W/perl5" PATH="$W/bin:$PATH" \
    dpkg-buildpackage -us -uc -b -d >"$W/build.log" 2>&1) || { tail -30 "$W/build.log"; fail "dpkg-buildpackage"; }
  expect field 0 dpkg-deb --field "$W/libfoo1_1.0-1_amd64.deb" X-ROCm-GPU-Architecture <<'EOF'
gfx1030 gfx1100
EOF
  expect no-field 0 dpkg-deb --field "$W/foo-doc_1.0-1_all.deb" X-ROCm-GPU-Architecture <<'EOF'

EOF
  grep -q "dh_isapack" "$W/build.log" || fail "dh ran no dh_isapack"
  ;;
rpm_macros_give_isapack_gpu_provides)
  : "${SRC:?}"
  mkdir -p "$W/rpm/SOURCES" "$W/fileattrs"
  ln -s /usr/lib/rpm/fileattrs/*.attr "$W/fileattrs/"
  cp "$SRC/rpm/isapack_gpu.attr" "$W/fileattrs/"
  cp "$W/lib/libfoo.so.1" "$W/rpm/SOURCES/"
  cat >"$W/libfoo.spec" <<'EOF'
Name: libfoo
Version: 1.0
Release: 1
Summary: a test package
License: MIT
BuildArch: x86_64
%global debug_package %{nil}
%global __os_install_post %{nil}
%description
A test package.
%package doc
Summary: no GPU code
BuildArch: noarch
%description doc
Plain text.
%install
mkdir -p %{buildroot}/usr/lib64 %{buildroot}/usr/share/doc/foo
cp %{_sourcedir}/libfoo.so.1 %{buildroot}/usr/lib64/
echo text >%{buildroot}/usr/share/doc/foo/notes
%files
/usr/lib64/libfoo.so.1
%files doc
/usr/share/doc/foo/notes
EOF
  # rpm loads attribute definitions from its own fileattrs directory only:
  # --load stands for the installed isapack-rpm-macros.
  rpmbuild -bb --nodeps --define "_topdir $W/rpm" --define "_fileattrsdir $W/fileattrs" \
    --load "$W/fileattrs/isapack_gpu.attr" \
    --define "isapack_coverage_command $ISAPACK" "$W/libfoo.spec" >"$W/rpmbuild.log" 2>&1 ||
    { tail -30 "$W/rpmbuild.log"; fail "rpmbuild"; }
  expect provides 0 sh -c "rpm -qp --provides '$W/rpm/RPMS/x86_64/libfoo-1.0-1.x86_64.rpm' | grep '^isapack-gpu('" <<'EOF'
isapack-gpu(gfx1030)
isapack-gpu(gfx1100)
EOF
  expect no-provides 1 sh -c "rpm -qp --provides '$W/rpm/RPMS/noarch/libfoo-doc-1.0-1.noarch.rpm' | grep '^isapack-gpu('" <<'EOF'

EOF
  ;;
*)
  echo "unknown case $case_name"
  exit 2
  ;;
esac
[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "PASS $case_name"
