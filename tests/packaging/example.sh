# examples/saxpy — a project with its own kernels and about 20 lines of
# CMake — built against the installed libisapack-dev with
# GPU_TARGETS='gfx110X-all;gfx90a': configure prints the expansion, the
# program runs on isapack's simulated HSA runtime (installed by
# isapack-tests; a simulation, not a hardware result) as a gfx1103 and as a
# gfx90a with every value right, and the installed `isapack inspect` lists
# the code objects of the catalog linked into it. Its own CPack packaging
# (isapack_package_gpu_metadata) gives a .deb with X-ROCm-GPU-Architecture
# and an .rpm with an isapack-gpu(<processor>) provide per covered GPU.
. "$(dirname "$0")/lib.sh"
need_root

dir="$WORK/example-saxpy"
rm -rf "$dir"
logged "$WORK/example-configure.log" cmake -S "$SRC/examples/saxpy" -B "$dir" \
  "-DGPU_TARGETS=gfx110X-all;gfx90a"
expect_equal "the example's configure summary" \
"-- isapack: device library saxpy_kernels
-- isapack: 2 code objects:
--   gfx90a                  v5  gfx90a
--   gfx11-generic           v6  gfx1100 gfx1101 gfx1102 gfx1103" \
  "$(grep -E '^-- (isapack: device library|isapack: [0-9]+ code object|  gfx)' "$WORK/example-configure.log")"
grep -q "^-- isapack: GPU selectors 'gfx110X-all;gfx90a' (from GPU_TARGETS), code object mode generic, LLVM " \
  "$WORK/example-configure.log" || fail "the example's configure does not name its selectors"
logged "$WORK/example-build.log" cmake --build "$dir"

simulated=/usr/libexec/isapack/tests/libisapack-simulated-hsa.so
for run in "gfx1103 gfx11-generic" "gfx90a:xnack- gfx90a"; do
  set -- $run
  expect_equal "the example on a simulated $1" \
"saxpy: ${1%%:*} (SIMULATED) runs code object $2
saxpy: 1000 of 1000 values right; sum 1499500 (expected 1499500)" \
    "$(ISAPACK_LIBHSA_PATH=$simulated ISAPACK_SIMULATED_HSA_AGENTS=$1 \
       ISAPACK_SIMULATED_HSA_HOST_KERNELS="$dir/libsaxpy_kernels_host.so" "$dir/saxpy")"
done
expect_equal "isapack inspect lists the example's catalog" \
  "  GPU targets (2): gfx90a gfx11-generic" \
  "$(isapack inspect "$dir/saxpy" | grep '^  GPU targets')"

logged "$WORK/example-cpack.log" cpack --config "$dir/CPackConfig.cmake" -B "$dir/packages"
gpus="gfx90a gfx1100 gfx1101 gfx1102 gfx1103"
deb="$dir/packages/isapack-saxpy-example_1.0.0_$ARCH.deb"
rpm="$dir/packages/isapack-saxpy-example-1.0.0-1.$RPM_ARCH.rpm"
expect_equal "the example's .deb lists the GPUs its kernels cover" \
  "$gpus" "$(dpkg-deb --field "$deb" X-ROCm-GPU-Architecture)"
dpkg-deb --field "$deb" Depends | grep -q 'libisapack0 (>= 0.2' ||
  fail "the example's .deb does not depend on libisapack0 (>= 0.2): $(dpkg-deb --field "$deb" Depends)"
echo "ok: and depends on libisapack0 (>= 0.2)"
expect_equal "the example's .rpm provides isapack-gpu() for each" \
  "$(printf 'isapack-gpu(%s)\n' $gpus | sort)" \
  "$(rpm -qp --provides "$rpm" 2>/dev/null | grep '^isapack-gpu(' | sort)"
rpm -qp --requires "$rpm" 2>/dev/null | grep -qx 'libisapack.so.0()(64bit)' ||
  fail "the example's .rpm does not require libisapack.so.0()(64bit)"
echo "ok: and requires libisapack.so.0()(64bit)"
rm -rf "$dir"
