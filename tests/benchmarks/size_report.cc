// The size report: bytes needed to carry the device library for every
// covered exact target of each selector set, four ways (same kernels, same
// compiler), the bytes one load decompresses, plus the runtime library and
// package.
//   isapack_size_report_tool --manifest <build>/benchmarks/size-manifest.json
//     --library <libisapack.so> --library-without-catalog <the same library
//     with an empty catalog> --catalog-report <this build's catalog-report.json>
//     --objcopy <llvm-objcopy> --output <report.json> [--runtime-deb <deb>]
//     [--check]
// The runtime .deb may also come from the environment (ISAPACK_BENCH_RUNTIME_DEB).
// --check (the test): fails unless every column is present and consistent,
// isapack's catalog is smaller than the exact objects (1) and the
// generic-first objects (3) for every set, loading one GPU decompresses less
// with isapack than with the offload bundle, and for `all` and `gfx110X-all`
// the catalog, build record included, is no larger than the smaller of the
// two offload bundles at zstd level 19 (2b: the exact objects, 3b: the
// generic-first objects).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "offload_bundle.h"

extern char** environ;

namespace {

using json = nlohmann::json;

struct Options {
  std::string manifest;
  std::string library;
  std::string library_without_catalog;
  std::string catalog_report;
  std::string objcopy;
  std::string nm;
  std::string output;
  std::string runtime_deb;
  bool check = false;
};

// One selector set as the manifest lists it.
struct SetInputs {
  std::string name;
  size_t gpus = 0;
  size_t exact_count = 0;
  size_t generic_count = 0;
  std::vector<std::string> exact_files;
  std::vector<std::string> generic_files;
  std::string bundle;
  std::string bundle19;
  std::string generic_bundle19;
  std::string catalog;
};

struct Manifest {
  std::string llvm;
  int64_t exact_version = 0;
  std::vector<SetInputs> sets;
};

// One set's bytes: the four ways (2b: the bundle at zstd level 19; 3b: the
// generic-first objects in such a bundle) and what loading one GPU
// decompresses.
struct SetSizes {
  uint64_t way1 = 0;
  uint64_t way2 = 0;
  uint64_t way2b = 0;
  uint64_t way3 = 0;
  uint64_t way3b = 0;
  uint64_t way4 = 0;
  uint64_t load_ccob = 0;
  uint64_t load_isapack = 0;
};

[[noreturn]] void Die(const std::string& message) {
  std::cerr << "isapack_size_report: " << message << "\n";
  std::exit(1);
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("cannot read " + path + ": " + std::strerror(errno));
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

json ReadJson(const std::string& path) {
  try {
    return json::parse(ReadFile(path));
  } catch (const json::exception& e) {
    Die(path + ": " + e.what());
  }
}

uint64_t FileSize(const std::string& path) {
  std::error_code error;
  const uint64_t size = std::filesystem::file_size(path, error);
  if (error) Die(path + " is missing: build the target isapack_bench_inputs first");
  return size;
}

// 1234567 -> 1,234,567
std::string Group(uint64_t n) {
  std::string text = std::to_string(n);
  for (size_t at = text.size(); at > 3; at -= 3) text.insert(at - 3, ",");
  return text;
}

// One table line, each cell right-aligned to its column's width and followed
// by two spaces.
std::string Row(const std::vector<std::string>& cells) {
  constexpr std::array<size_t, 11> kWidths = {12, 5, 16, 15, 16, 16, 13, 10, 11, 13, 14};
  std::string row;
  for (size_t i = 0; i < cells.size() && i < kWidths.size(); ++i) {
    if (cells[i].size() < kWidths[i]) row.append(kWidths[i] - cells[i].size(), ' ');
    row += cells[i] + "  ";
  }
  return row + "\n";
}

Manifest ParseManifest(const json& j) {
  Manifest manifest;
  manifest.llvm = j.at("llvm").get<std::string>();
  manifest.exact_version = j.at("exact_code_object_version").get<int64_t>();
  for (const json& name : j.at("order")) {
    const json& set = j.at("sets").at(name.get<std::string>());
    SetInputs inputs;
    inputs.name = name.get<std::string>();
    inputs.gpus = set.at("covered").size();
    inputs.exact_count = set.at("exact_objects").size();
    inputs.generic_count = set.at("generic_objects").size();
    inputs.exact_files = set.at("exact_files").get<std::vector<std::string>>();
    inputs.generic_files = set.at("generic_files").get<std::vector<std::string>>();
    inputs.bundle = set.at("bundle").get<std::string>();
    inputs.bundle19 = set.at("bundle_level19").get<std::string>();
    inputs.generic_bundle19 = set.at("generic_bundle_level19").get<std::string>();
    inputs.catalog = set.at("catalog").get<std::string>();
    manifest.sets.push_back(std::move(inputs));
  }
  return manifest;
}

Manifest LoadManifest(const std::string& path) {
  const json j = ReadJson(path);
  try {
    return ParseManifest(j);
  } catch (const json::exception& e) {
    Die(path + ": " + e.what());
  }
}

// The uncompressed bundle size a CCOB header records.
uint64_t CcobUncompressed(const std::string& bundle) {
  const std::vector<uint8_t> bytes = ReadFile(bundle);
  auto header = isapack::ParseCompressedBundleHeader(bytes);
  if (!header) Die(bundle + ": " + header.error().message);
  return header->uncompressed_size;
}

SetSizes MeasureSet(const SetInputs& set) {
  SetSizes sizes;
  for (const std::string& file : set.exact_files) sizes.way1 += FileSize(file);
  for (const std::string& file : set.generic_files) {
    const uint64_t size = FileSize(file);
    sizes.way3 += size;
    sizes.load_isapack = std::max(sizes.load_isapack, size);
  }
  sizes.way2 = FileSize(set.bundle);
  sizes.way2b = FileSize(set.bundle19);
  sizes.way3b = FileSize(set.generic_bundle19);
  sizes.way4 = FileSize(set.catalog);
  // Bytes decompressed to load one GPU's code: the whole bundle, or at most
  // the largest catalog entry.
  sizes.load_ccob = CcobUncompressed(set.bundle);
  return sizes;
}

// Goal 1 of the size work: the catalog as it ships (build record included)
// is no larger than either offload bundle at zstd level 19.
bool SmallerThanBothBundles(const SetSizes& s) {
  return s.way4 <= std::min(s.way2b, s.way3b);
}

void CheckSet(const SetInputs& set, const SetSizes& s) {
  const std::string& name = set.name;
  if (set.exact_count != set.gpus) {
    Die(name + ": " + std::to_string(set.exact_count) + " exact objects for " +
        std::to_string(set.gpus) + " covered GPUs");
  }
  if (set.generic_count > set.exact_count || set.generic_count < 1) {
    Die(name + ": " + std::to_string(set.generic_count) + " generic-first objects for " +
        std::to_string(set.exact_count) + " exact ones");
  }
  if (s.way4 >= s.way1 || s.way4 >= s.way3) {
    Die(name + ": isapack's catalog (" + std::to_string(s.way4) +
        " bytes) is not smaller than the exact objects (" + std::to_string(s.way1) +
        ") and the generic-first objects (" + std::to_string(s.way3) + ")");
  }
  if ((name == "all" || name == "gfx110X-all") && !SmallerThanBothBundles(s)) {
    Die(name + ": isapack's catalog (" + std::to_string(s.way4) +
        " bytes, build record included) is larger than the smaller offload bundle at zstd -19 "
        "(exact objects " +
        std::to_string(s.way2b) + ", generic-first objects " + std::to_string(s.way3b) + ")");
  }
  if (s.load_isapack >= s.load_ccob) {
    Die(name + ": loading one GPU decompresses " + std::to_string(s.load_isapack) +
        " bytes with isapack, not less than the offload bundle's " + std::to_string(s.load_ccob));
  }
}

json SetEntry(const SetInputs& set, const SetSizes& s) {
  return {{"gpus", set.gpus},
          {"exact_objects", set.exact_count},
          {"generic_first_objects", set.generic_count},
          {"exact_objects_bytes", s.way1},
          {"ccob_bundle_bytes", s.way2},
          {"ccob_bundle_level19_bytes", s.way2b},
          {"generic_first_objects_bytes", s.way3},
          {"ccob_generic_first_level19_bytes", s.way3b},
          {"catalog_no_larger_than_both_level19_bundles", SmallerThanBothBundles(s)},
          {"isapack_catalog_bytes", s.way4},
          {"ccob_bytes_decompressed_per_load", s.load_ccob},
          {"isapack_max_bytes_decompressed_per_load", s.load_isapack}};
}

std::string SetRow(const SetInputs& set, const SetSizes& s) {
  return Row({set.name, std::to_string(set.gpus),
              std::to_string(set.exact_count) + ": " + Group(s.way1), Group(s.way2), Group(s.way2b),
              std::to_string(set.generic_count) + ": " + Group(s.way3), Group(s.way3b),
              Group(s.way4), Group(s.load_ccob), Group(s.load_isapack),
              SmallerThanBothBundles(s) ? "met" : "not met"});
}

// part/whole as a percentage, rounded to the nearest integer.
std::string Percent(const std::string& set, uint64_t part, uint64_t whole) {
  if (whole == 0) Die(set + ": a column is 0 bytes, so no percentage of it can be given");
  return std::to_string((part * 1000 / whole + 5) / 10);
}

std::string AllSummary(const SetSizes& s) {
  return "all: isapack's catalog is " + Percent("all", s.way4, s.way1) +
         "% of the uncompressed exact objects and " + Percent("all", s.way4, s.way2) +
         "% of the compressed offload bundle; loading one GPU decompresses at most " +
         Percent("all", s.load_isapack, s.load_ccob) +
         "% of what the offload-bundle path decompresses";
}

// Runs argv[0] (found on PATH) and returns its exit status, or -1 when it
// could not run or did not exit. With `output`, its stdout lands there.
int RunCommand(const std::vector<std::string>& args, std::string* output) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  int pipe_fds[2] = {-1, -1};
  if (output != nullptr && pipe(pipe_fds) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (output != nullptr) {
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (output != nullptr) {
    close(pipe_fds[1]);
    std::array<char, 4096> buffer;
    ssize_t n = 0;
    while (spawned == 0 && (n = read(pipe_fds[0], buffer.data(), buffer.size())) != 0) {
      if (n > 0) output->append(buffer.data(), static_cast<size_t>(n));
      if (n < 0 && errno != EINTR) break;
    }
    close(pipe_fds[0]);
  }
  if (spawned != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The library's size as packages ship it: stripped of all symbols.
uint64_t StrippedSize(const Options& options, const std::string& library) {
  const std::string copy = options.output + ".stripped.so";
  if (RunCommand({options.objcopy, "--strip-all", library, copy}, nullptr) != 0) {
    std::filesystem::remove(copy);
    Die(options.objcopy + " cannot strip " + library);
  }
  std::error_code error;
  const uint64_t size = std::filesystem::file_size(copy, error);
  std::filesystem::remove(copy, error);
  if (size == static_cast<uint64_t>(-1)) Die(options.objcopy + " wrote no " + copy);
  return size;
}

// The runtime library with its catalog and built with an empty one, as built
// and stripped as packages ship it.
std::string LibraryLine(const Options& options, json& report) {
  const uint64_t size = FileSize(options.library);
  const uint64_t without = FileSize(options.library_without_catalog);
  const uint64_t stripped = StrippedSize(options, options.library);
  const uint64_t without_stripped = StrippedSize(options, options.library_without_catalog);
  report["library"] = {{"bytes", size},
                       {"bytes_without_catalog", without},
                       {"stripped_bytes", stripped},
                       {"stripped_bytes_without_catalog", without_stripped}};
  return "libisapack.so (this build's selectors), stripped: " + Group(stripped) +
         " bytes, with an empty catalog " + Group(without_stripped) +
         " bytes (unstripped: " + Group(size) + " and " + Group(without) + ")";
}

// The catalog this build embeds, and the part of it that is the build's
// record (isapack-targets.json) before compression; column 4 counts it too.
std::string CatalogLine(const std::string& catalog_report, json& report) {
  const json j = ReadJson(catalog_report);
  uint64_t embedded = 0;
  uint64_t record = 0;
  try {
    embedded = j.at("catalog_bytes").get<uint64_t>();
    record = j.at("build_info_bytes").get<uint64_t>();
  } catch (const json::exception& e) {
    Die(catalog_report + ": " + e.what());
  }
  report["library"]["catalog_bytes"] = embedded;
  report["library"]["build_record_bytes"] = record;
  return "this build's embedded catalog: " + Group(embedded) + " bytes, with its " + Group(record) +
         "-byte build record (isapack-targets.json) compressed inside";
}

// What the runtime library (without a catalog) is made of: the bytes of its
// defined symbols by owner (a library such as nlohmann-json, the standard
// library's templates, isapack's classes and free functions, the C API), and
// its largest symbols.
std::string CompositionLines(const Options& options, json& report) {
  std::string listing;
  if (RunCommand({options.nm, "--demangle", "--size-sort", "--print-size", "--defined-only",
                  options.library_without_catalog},
                 &listing) != 0) {
    Die(options.nm + " cannot list the symbols of " + options.library_without_catalog);
  }
  std::map<std::string, uint64_t> owners;
  std::vector<std::pair<uint64_t, std::string>> symbols;
  uint64_t total = 0;
  size_t at = 0;
  while (at < listing.size()) {
    const size_t end = std::min(listing.find('\n', at), listing.size());
    const std::string line = listing.substr(at, end - at);
    at = end + 1;
    // "<address> <size> <type> <name>"
    const size_t first = line.find(' ');
    const size_t second = first == std::string::npos ? first : line.find(' ', first + 1);
    const size_t third = second == std::string::npos ? second : line.find(' ', second + 1);
    if (third == std::string::npos) continue;
    uint64_t size = 0;
    const auto parsed = std::from_chars(line.data() + first + 1, line.data() + second, size, 16);
    if (parsed.ec != std::errc()) continue;
    const std::string name = line.substr(third + 1);
    std::string owner;
    if (name.find("nlohmann") != std::string::npos) {
      owner = "nlohmann-json";
    } else if (name.rfind("std::", 0) == 0 || name.rfind("void std::", 0) == 0) {
      owner = "C++ standard library templates";
    } else if (name.rfind("isapack_", 0) == 0) {
      owner = "C API (isapack_*)";
    } else if (name.rfind("isapack::", 0) == 0) {
      const size_t stop = name.find_first_of(":(<[", 9);
      owner = "isapack::" + name.substr(9, stop == std::string::npos ? stop : stop - 9);
      if (owner == "isapack::") owner = "isapack internals (anonymous namespaces)";
    } else {
      owner = "other";
    }
    owners[owner] += size;
    total += size;
    symbols.emplace_back(size, name);
  }
  std::vector<std::pair<uint64_t, std::string>> ranked;
  for (const auto& [owner, size] : owners) ranked.emplace_back(size, owner);
  std::sort(ranked.rbegin(), ranked.rend());
  std::sort(symbols.rbegin(), symbols.rend());
  json by_owner = json::object();
  std::string lines =
      "libisapack without a catalog, " + Group(total) + " bytes of defined symbols, by owner:";
  for (size_t i = 0; i < ranked.size(); ++i) {
    by_owner[ranked[i].second] = ranked[i].first;
    if (i < 8) lines += (i == 0 ? " " : ", ") + ranked[i].second + " " + Group(ranked[i].first);
  }
  lines += "\n  largest symbols:";
  json largest = json::array();
  for (size_t i = 0; i < symbols.size() && i < 5; ++i) {
    const std::string name = symbols[i].second.substr(0, 60);
    largest.push_back({{"name", symbols[i].second}, {"bytes", symbols[i].first}});
    lines += (i == 0 ? " " : "; ") + name + " " + Group(symbols[i].first);
  }
  report["library"]["symbol_bytes"] = total;
  report["library"]["symbol_bytes_by_owner"] = std::move(by_owner);
  report["library"]["largest_symbols"] = std::move(largest);
  return lines;
}

std::string PackageLine(const std::string& deb, json& report) {
  if (deb.empty()) return "runtime package: not built (scripts/run-benchmarks builds it)";
  std::string installed;
  if (RunCommand({"dpkg-deb", "--field", deb, "Installed-Size"}, &installed) != 0) {
    Die("dpkg-deb cannot read " + deb);
  }
  installed.erase(installed.find_last_not_of(" \t\r\n") + 1);
  uint64_t installed_kib = 0;
  const char* end = installed.data() + installed.size();
  const auto parsed = std::from_chars(installed.data(), end, installed_kib);
  if (installed.empty() || parsed.ec != std::errc() || parsed.ptr != end) {
    Die(deb + ": Installed-Size '" + installed + "' is not a number");
  }
  const uint64_t deb_size = FileSize(deb);
  const std::string name = std::filesystem::path(deb).filename().string();
  report["runtime_package"] = {
      {"file", name}, {"bytes", deb_size}, {"installed_kib", installed_kib}};
  return "runtime package " + name + ": " + Group(deb_size) + " bytes, Installed-Size " +
         installed + " KiB";
}

int Report(const Options& options) {
  const Manifest manifest = LoadManifest(options.manifest);
  json report = {{"llvm", manifest.llvm}, {"sets", json::object()}};
  std::string lines = Row({"set", "GPUs", "1 exact objects", "2 CCOB zstd -3", "2b CCOB zstd -19",
                           "3 generic-first", "3b CCOB of 3", "4 isapack", "load: CCOB",
                           "load: isapack", "4 <= 2b and 3b"});
  std::string all_summary;
  for (const SetInputs& set : manifest.sets) {
    const SetSizes sizes = MeasureSet(set);
    report["sets"][set.name] = SetEntry(set, sizes);
    lines += SetRow(set, sizes);
    if (options.check) CheckSet(set, sizes);
    if (set.name == "all") all_summary = AllSummary(sizes);
  }
  const std::string library_line = LibraryLine(options, report);
  const std::string composition_lines = CompositionLines(options, report);
  const std::string catalog_line = CatalogLine(options.catalog_report, report);
  const std::string package_line = PackageLine(options.runtime_deb, report);

  {
    std::ofstream out(options.output, std::ios::trunc);
    out << report.dump(2) << "\n";
    if (!out.flush()) Die("cannot write " + options.output + ": " + std::strerror(errno));
  }
  std::cout << "isapack size report (bytes; device library for every covered GPU of each set; "
               "LLVM "
            << manifest.llvm << "):\n"
            << "  1 one uncompressed exact code object (v" << manifest.exact_version
            << ") per GPU, as ROCr and HIP fat binaries carry them\n"
            << "  2 those objects in a clang-offload-bundler -compress bundle (HIP's "
               "--offload-compress; 2b at zstd level 19)\n"
            << "  3 generic-first objects, uncompressed (IREE's approach); 3b those in a "
               "clang-offload-bundler -compress bundle at zstd level 19\n"
            << "  4 isapack's embedded catalog as it ships: generic-first, one representative "
               "per family with the metadata in one LZMA2 stream, the others as zstd deltas, "
               "table of contents and the set's build record\n"
            << lines << all_summary << "\n"
            << library_line << "\n"
            << composition_lines << "\n"
            << catalog_line << "\n"
            << package_line << "\n"
            << "JSON: " << options.output << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  CLI::App app{"isapack size report: the bytes the device library needs, four ways"};
  app.add_option("--manifest", options.manifest, "benchmarks/size-manifest.json")->required();
  app.add_option("--library", options.library, "libisapack.so")->required();
  app.add_option("--library-without-catalog", options.library_without_catalog,
                 "libisapack built with an empty catalog")
      ->required();
  app.add_option("--catalog-report", options.catalog_report, "this build's catalog-report.json")
      ->required();
  app.add_option("--objcopy", options.objcopy, "llvm-objcopy, to strip the libraries")->required();
  app.add_option("--nm", options.nm, "llvm-nm, for what the library is made of")->required();
  app.add_option("--output", options.output, "the JSON report to write")->required();
  app.add_option("--runtime-deb", options.runtime_deb,
                 "the runtime .deb (default: $ISAPACK_BENCH_RUNTIME_DEB)");
  app.add_flag("--check", options.check, "fail unless the size properties hold (the test)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (options.runtime_deb.empty()) {
    if (const char* deb = std::getenv("ISAPACK_BENCH_RUNTIME_DEB")) options.runtime_deb = deb;
  }
  try {
    return Report(options);
  } catch (const std::exception& e) {
    Die(e.what());
  }
}
