# One knob per packaging tool picks the GPUs:
#   debian/rules   ISAPACK_GPU_TARGETS, else ROCM_TARGET_ARCH_FIXED, else all
#                  (generic code objects for every ROCr; ISAPACK_CODE_OBJECT_MODE=exact)
#   rpm spec       --define 'isapack_gpu_targets ...' (generic code objects for
#                  every ROCr; --define 'isapack_code_object_mode exact')
#   CMake/CPack    -DISAPACK_GPU_TARGETS=...
# and a build for gfx110X-all records what its binaries cover: its gfx11-generic object runs on gfx1100-gfx1103 and gfx1150-gfx1154.
. "$(dirname "$0")/lib.sh"

# rules_targets [VAR=value...]: the selector list debian/rules passes to CMake.
rules_targets() {
  (cd "$SRC" && env -u ISAPACK_GPU_TARGETS -u ROCM_TARGET_ARCH_FIXED "$@" \
    make -s -n -f debian/rules override_dh_auto_configure) \
    | sed -n 's/.*"-DISAPACK_GPU_TARGETS=\([^"]*\)".*/\1/p'
}
expect_equal "debian/rules: all by default" "all" "$(rules_targets)"
expect_equal "debian/rules: ROCM_TARGET_ARCH_FIXED (space separated) becomes a CMake list" \
  "gfx1030;gfx1100" "$(rules_targets ROCM_TARGET_ARCH_FIXED='gfx1030 gfx1100')"
expect_equal "debian/rules: ISAPACK_GPU_TARGETS wins over ROCM_TARGET_ARCH_FIXED" \
  "gfx110X-all" "$(rules_targets ISAPACK_GPU_TARGETS=gfx110X-all ROCM_TARGET_ARCH_FIXED=gfx1030)"
# rules_mode [VAR=value...]: the code object options debian/rules passes.
rules_mode() {
  (cd "$SRC" && env -u ISAPACK_CODE_OBJECT_MODE -u ISAPACK_ROCR_VERSION "$@" \
    make -s -n -f debian/rules override_dh_auto_configure) \
    | grep -o '\-DISAPACK_CODE_OBJECT_[A-Z]*=[a-z0-9]*' | tr '\n' ' ' | sed 's/ $//'
}
expect_equal "debian/rules: Debian 12's ROCr ($(dpkg-query -W -f '${Version}' libhsa-runtime-dev)) gets generic code objects (retargeted at load time)" \
  "-DISAPACK_CODE_OBJECT_MODE=generic -DISAPACK_CODE_OBJECT_VERSION=5" "$(rules_mode)"
expect_equal "debian/rules: the installed ROCr's version no longer picks the mode" \
  "-DISAPACK_CODE_OBJECT_MODE=generic -DISAPACK_CODE_OBJECT_VERSION=5" "$(rules_mode ISAPACK_ROCR_VERSION=6.3.4-2)"
expect_equal "debian/rules: ISAPACK_CODE_OBJECT_MODE=exact still gives exact code objects v5" \
  "-DISAPACK_CODE_OBJECT_MODE=exact -DISAPACK_CODE_OBJECT_VERSION=5" "$(rules_mode ISAPACK_CODE_OBJECT_MODE=exact)"

spec_targets() {
  rpmspec -P "$@" "$SRC/rpm/isapack.spec" | sed -n 's/.*"-DISAPACK_GPU_TARGETS=\([^"]*\)".*/\1/p' | head -n 1
}
expect_equal "rpm spec: all by default" "all" "$(spec_targets)"
expect_equal "rpm spec: --define isapack_gpu_targets" "gfx110X-all;gfx120X-all" \
  "$(spec_targets --define 'isapack_gpu_targets gfx110X-all;gfx120X-all')"

# The spec builds generic code objects whatever ROCr it builds against.
spec_mode() {
  rpmspec -P "$@" "$SRC/rpm/isapack.spec" | sed -n 's/.*-DISAPACK_CODE_OBJECT_MODE=\([a-z]*\).*/\1/p' | head -n 1
}
expect_equal "rpm spec: generic by default (retargeted at load time for ROCr < 6.4)" "generic" "$(spec_mode)"
expect_equal "rpm spec: isapack_rocr_version no longer picks the mode" "generic" \
  "$(spec_mode --define 'isapack_rocr_version 6.3.1')"
expect_equal "rpm spec: --define isapack_code_object_mode exact still gives exact code objects" "exact" \
  "$(spec_mode --define 'isapack_code_object_mode exact')"

# A real dpkg-buildpackage for gfx110X-all (nocheck: no tests, no isapack-tests).
dir="$WORK/custom-dpkg"
DEB_BUILD_OPTIONS=nocheck dpkg_build "$dir" ISAPACK_GPU_TARGETS=gfx110X-all DEB_BUILD_PROFILES=nocheck
# The native field comes from the binaries (dh_isapack): the gfx11-generic
# object built for gfx110X-all runs on every gfx11 GPU, gfx115x included.
expect_equal "dpkg-buildpackage with ISAPACK_GPU_TARGETS=gfx110X-all: X-ROCm-GPU-Architecture, from the binaries" \
  "gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 gfx1153 gfx1154" \
  "$(deb_field "$dir/libisapack0_${VERSION}_${ARCH}.deb" X-ROCm-GPU-Architecture)"
[ ! -e "$dir/isapack-tests_${VERSION}_${ARCH}.deb" ] || fail "the nocheck profile still built isapack-tests"
rm -rf "$dir"

# CPack from a build configured with -DISAPACK_GPU_TARGETS=gfx110X-all.
dir="$WORK/custom-cpack"
rm -rf "$dir"
logged "$dir.configure.log" cmake -S "$SRC" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_INSTALL_PREFIX=/usr -DISAPACK_GPU_TARGETS=gfx110X-all -DISAPACK_BUILD_TESTS=OFF
logged "$dir.build.log" cmake --build "$dir/build"
logged "$dir.cpack.log" cpack --config "$dir/build/CPackConfig.cmake" -B "$dir/packages"
expect_equal "CPack with -DISAPACK_GPU_TARGETS=gfx110X-all: X-ROCm-GPU-Architecture, from the binaries" \
  "gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 gfx1153 gfx1154" \
  "$(deb_field "$dir/packages/libisapack0_${VERSION}_${ARCH}.deb" X-ROCm-GPU-Architecture)"
expect_equal "and the rpm provides isapack-gpu() for exactly those" \
  "isapack-gpu(gfx1100)
isapack-gpu(gfx1101)
isapack-gpu(gfx1102)
isapack-gpu(gfx1103)
isapack-gpu(gfx1150)
isapack-gpu(gfx1151)
isapack-gpu(gfx1152)
isapack-gpu(gfx1153)
isapack-gpu(gfx1154)" \
  "$(rpm -qp --provides "$dir/packages/isapack-$VERSION-1.$RPM_ARCH.rpm" | grep '^isapack-gpu(' | LC_ALL=C sort)"
rm -rf "$dir" "$dir".*.log
