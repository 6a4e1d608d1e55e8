# Two consumer projects built against the installed libisapack-dev, one with
# find_package(isapack CONFIG REQUIRED), one with pkg-config; each builds the
# README's example program, which must run on isapack's simulated HSA runtime
# (installed by isapack-tests; a simulation, not a hardware result) and, on
# the system's HSA runtime without a GPU, stop with the no-GPU message.
. "$(dirname "$0")/lib.sh"
need_root

example="$SRC/tests/integration/example.c"
simulated=/usr/libexec/isapack/tests/libisapack-simulated-hsa.so

# check_example <what> <program>
check_example() {
  expect_equal "$1: the example prints b[63] = 42 on the simulated HSA runtime" "b[63] = 42" \
    "$(ISAPACK_LIBHSA_PATH=$simulated ISAPACK_SIMULATED_HSA_AGENTS=gfx1103 "$2")"
  if [ -e /dev/kfd ]; then
    echo "note: /dev/kfd exists; not checking the no-GPU message"
  else
    status=0
    "$2" >"$WORK/example.out" 2>"$WORK/example.err" || status=$?
    expect_equal "$1: without a GPU the example exits 1" 1 "$status"
    grep -q '^isapack: no AMD GPU kernel driver: /dev/kfd is missing' "$WORK/example.err" \
      || { cat "$WORK/example.err" >&2; fail "$1: no no-GPU message"; }
    echo "ok: $1: and says the GPU kernel driver is missing"
  fi
}

dir="$WORK/consumer-cmake"
rm -rf "$dir"
logged "$WORK/consumer-cmake.log" cmake -S "$SRC/tests/packaging/consumer/cmake" -B "$dir" \
  "-DEXAMPLE_SOURCE=$example"
expect_equal "find_package(isapack) finds the installed package and its GPU list" \
  "-- isapack $VERSION covers: $(cmake -DJSON="$BUILD/isapack-targets.json" -DFORMAT=targets \
    -P "$SRC/cmake/IsapackCoveredProcessors.cmake")" \
  "$(grep '^-- isapack .* covers: ' "$WORK/consumer-cmake.log")"
echo "ok: a consumer asking for 0.1 accepts $VERSION (same soname), and isapack_GPU_TARGETS is gone"
logged "$WORK/consumer-cmake-build.log" cmake --build "$dir"
check_example "CMake consumer" "$dir/example"
expect_equal "the CMake consumer loads the installed library" \
  "$(readlink -f "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libisapack.so.0")" \
  "$(readlink -f "$(ldd "$dir/example" | awk '$1 == "libisapack.so.0" { print $3 }')")"

dir="$WORK/consumer-pkg-config"
rm -rf "$dir"
mkdir -p "$dir"
expect_equal "pkg-config --cflags isapack (the system include directory is implied)" "" \
  "$(pkg-config --cflags isapack | sed 's/ *$//')"
expect_equal "pkg-config --libs isapack" "-lisapack" "$(pkg-config --libs isapack | sed 's/ *$//')"
expect_equal "pkg-config --modversion isapack" "$VERSION" "$(pkg-config --modversion isapack)"
logged "$WORK/consumer-pkg-config.log" make -C "$dir" -f "$SRC/tests/packaging/consumer/pkg-config/Makefile" \
  "EXAMPLE_SOURCE=$example"
check_example "pkg-config consumer" "$dir/example"
rm -rf "$WORK/consumer-cmake" "$dir"
