#!/usr/bin/python3
"""The whole-system scan benchmark: a HIP-built math library's shape, at scale.

Builds a host shared library whose .hip_fatbin holds BUNDLES compressed
offload bundles back to back (4096-aligned, as HIP links them), each made by
clang-offload-bundler -compress from the build's real code objects, one entry
per target, each entry padded to ENTRY_BYTES with bytes that compress about
2:1 (code objects of a real math library are large; the tail is what makes
them so here). Then it times `cat FILE >/dev/null` and `isapack coverage
--json --no-cache FILE`, both from the page cache (best of RUNS), measures
the scan's peak resident memory, and prints both ratios.

  big_library.py --isapack I --bundler B --clang C --objcopy O \
      --objects DIR --work DIR [--size-mib 1024] [--runs 3] [--json OUT]
      [--expect-targets "gfx1030 gfx1100 ..."]

--expect-targets (the test suite's small run): exit 1 unless the scan ran
without errors and found exactly these targets. Timings are printed, never
asserted.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

ALIGN = 4096


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, **kwargs)
    if result.returncode != 0:
        sys.exit("big_library: %s failed (exit %d): %s" %
                 (command[0], result.returncode, result.stderr.decode(errors="replace")))
    return result


def objects_by_target(directory):
    found = {}
    prefix = "amdgcn-amd-amdhsa--"
    for name in sorted(os.listdir(directory)):
        if name.startswith(prefix) and name.endswith(".hsaco"):
            found[name[len(prefix):-len(".hsaco")]] = os.path.join(directory, name)
    if not found:
        sys.exit("big_library: no amdgcn-amd-amdhsa--*.hsaco in " + directory)
    return found


def build(args, work):
    objects = objects_by_target(args.objects)
    targets = list(objects)
    per_bundle = min(len(targets), args.targets_per_bundle)
    # Each target's tail compresses about 2:1 (each byte one of 16 values)
    # and differs from the others', so zstd cannot match one against another.
    sixteen = bytes(i & 0x0f for i in range(256))
    entries = {}
    for number, (target, path) in enumerate(objects.items()):
        tail = random.Random(20261125 + number).randbytes(args.entry_bytes).translate(sixteen)
        with open(path, "rb") as f:
            code = f.read()
        padded = os.path.join(work, "entry-" + target + ".hsaco")
        with open(padded, "wb") as f:
            f.write(code + tail[:max(0, args.entry_bytes - len(code))])
        entries[target] = padded
    empty = os.path.join(work, "host.o")
    open(empty, "wb").close()
    # Bundles of per_bundle targets, rotating through the list, until the
    # section reaches the size asked for.
    fatbin = os.path.join(work, "fatbin.bin")
    wanted = args.size_mib << 20
    covered = set()
    written = 0
    index = 0
    with open(fatbin, "wb") as out:
        while written < wanted:
            chosen = [targets[(index * per_bundle + k) % len(targets)] for k in range(per_bundle)]
            covered.update(chosen)
            bundle = os.path.join(work, "bundle.ccob")
            run([args.bundler, "-type=o", "-compress", "-compression-level=3",
                 "-targets=" + ",".join(["host-x86_64-unknown-linux-gnu-"] +
                                        ["hipv4-amdgcn-amd-amdhsa--" + t for t in chosen]),
                 "-input=" + empty] + ["-input=" + entries[t] for t in chosen] +
                ["-output=" + bundle])
            with open(bundle, "rb") as f:
                data = f.read()
            pad = (-written) % ALIGN
            out.write(b"\0" * pad + data)
            written += pad + len(data)
            index += 1
    source = os.path.join(work, "host.c")
    with open(source, "w") as f:
        f.write("int big_library_entry(int x) { return x + 1; }\n")
    host = os.path.join(work, "host.so")
    run([args.clang, "-shared", "-fPIC", "-o", host, source])
    library = os.path.join(work, "libbig.so")
    run([args.objcopy, "--add-section", ".hip_fatbin=" + fatbin,
         "--set-section-flags", ".hip_fatbin=alloc,readonly",
         "--set-section-alignment", ".hip_fatbin=4096", host, library])
    os.remove(fatbin)
    return library, index, sorted(covered)


# Runs COMMAND once in a fresh interpreter (so the peak resident memory is
# this command's alone), after dropping FILE from the page cache when cold.
MEASURE = """
import os, resource, subprocess, sys, time
cold, keep, path, command = sys.argv[1] == "cold", sys.argv[2] == "keep", sys.argv[3], sys.argv[4:]
if cold:
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
start = time.perf_counter()
result = subprocess.run(command, stdout=subprocess.PIPE if keep else subprocess.DEVNULL,
                        stderr=subprocess.PIPE)
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
# One binary stream, so the line comes first (the text layer would flush it last).
sys.stdout.buffer.write(b"%r %d %d\\n" % (elapsed, peak, result.returncode))
sys.stdout.buffer.write(result.stdout or b"")
sys.stderr.buffer.write(result.stderr)
"""


def measure(command, path, cold, runs, keep=True):
    """Best time, the peak memory of that run, exit code and output (`keep`;
    otherwise the output goes to /dev/null, as `cat FILE >/dev/null`)."""
    best = None
    for _ in range(runs):
        probe = subprocess.run([sys.executable, "-c", MEASURE, "cold" if cold else "warm",
                                "keep" if keep else "discard", path] + command,
                               capture_output=True)
        first, _, output = probe.stdout.partition(b"\n")
        seconds, peak_kb, code = first.decode().split()
        run = (float(seconds), int(peak_kb), int(code), output, probe.stderr)
        if best is None or run[0] < best[0]:
            best = run
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--isapack", required=True)
    parser.add_argument("--bundler", required=True)
    parser.add_argument("--clang", required=True)
    parser.add_argument("--objcopy", required=True)
    parser.add_argument("--objects", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--size-mib", type=int, default=1024)
    parser.add_argument("--entry-bytes", type=int, default=1 << 20)
    parser.add_argument("--targets-per-bundle", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json")
    parser.add_argument("--expect-targets")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)

    started = time.perf_counter()
    library, bundles, covered = build(args, args.work)
    built = time.perf_counter() - started
    size = os.path.getsize(library)

    scan = [args.isapack, "coverage", "--json", "--no-cache", "--max-file-size", str(size),
            library]
    report = {"file_bytes": size, "bundles": bundles, "targets": len(covered),
              "build_seconds": round(built, 2)}
    print("  %s: %.1f MiB, %d compressed offload bundles in .hip_fatbin, %d targets"
          % (os.path.basename(library), size / 1048576, bundles, len(covered)))
    found = []
    scan_exit = 0
    for mode, cold in (("warm", False), ("cold", True)):
        if not cold:
            measure(["cat", library], library, False, 1, keep=False)  # into the page cache
        cat_seconds, _, _, _, _ = measure(["cat", library], library, cold, args.runs, keep=False)
        seconds, peak_kb, code, output, errors = measure(scan, library, cold, args.runs)
        if code != 0:
            print("  isapack coverage exited %d: %s" % (code, errors.decode(errors="replace")))
        scan_exit = scan_exit or code
        document = json.loads(output) if output.strip() else {}
        found = sorted({t for p in document.get("packages", []) for t in p.get("targets", [])})
        report[mode] = {"cat_seconds": cat_seconds, "scan_seconds": seconds,
                        "scan_to_cat": seconds / cat_seconds, "scan_peak_rss_kb": peak_kb}
        where = ("page cache" if not cold else
                 "cold: the file dropped from the page cache before each run")
        print("  %s (%s, best of %d)" % (mode, where, args.runs))
        print("    cat FILE >/dev/null                   %8.3f s" % cat_seconds)
        print("    isapack coverage --json FILE          %8.3f s   %.2fx cat (goal <= 2x)"
              % (seconds, seconds / cat_seconds))
        print("    isapack coverage peak resident memory %8.1f MB  (goal < 100 MB)"
              % (peak_kb / 1024))
    report["scan_exit"] = scan_exit
    report["found_targets"] = found
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2, sort_keys=True)
            f.write("\n")
    if args.expect_targets is not None:
        expected = sorted(args.expect_targets.split())
        if scan_exit != 0 or found != expected:
            sys.exit("big_library: expected exit 0 and targets %s, got exit %d and %s"
                     % (expected, scan_exit, found))


if __name__ == "__main__":
    main()
