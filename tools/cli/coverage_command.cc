// isapack coverage: the GPU x package matrix, from the binaries. Which GPUs
// each package's device code runs on, and how (exact code object, generic
// code object, or not at all and what users would have to do), for a
// consumer's ROCr; a CI gate (--require), a check that a package's declared
// GPU list tells the truth (--check-metadata) and the field generators for
// packaging (--field).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "cli.h"
#include "coverage.h"
#include "coverage_html.h"
#include "expansion.h"
#include "gpu_names.h"
#include "local_gpu.h"
#include "output_file.h"
#include "scan.h"
#include "target_table.h"

namespace isapack::cli {
namespace {

using json = nlohmann::json;

// A column of the matrix.
struct Gpu {
  TargetId id;
  std::string product, source;
};

// A row: a package, or a loose file.
struct Row {
  std::string name, version, format, source;
  std::optional<std::vector<std::string>> declared;
  std::vector<const scan::ScannedFile*> files;
  std::vector<CoverageObject> objects;
  std::vector<std::string> targets;  // target IDs found, in table order
  std::vector<std::string> errors;
};

// The order of the target table: processors, then generics.
size_t TableRank(const std::string& target_id) {
  TargetId id;
  if (ParseTargetId(target_id, &id).error != TargetIdError::kOk) return SIZE_MAX;
  return id.processor != nullptr ? IndexOf(*id.processor) * 16
                                 : (Processors().size() + IndexOf(*id.generic)) * 16;
}

void SortByTable(std::vector<std::string>* targets) {
  std::sort(targets->begin(), targets->end(),  // a total order: rank, then name
            [](const std::string& a, const std::string& b) {
              const size_t ra = TableRank(a), rb = TableRank(b);
              return ra != rb ? ra < rb : a < b;
            });
}

void AddObject(Row* row, const scan::FoundObject& found) {
  TargetId id;
  if (ParseTargetId(found.target_id, &id).error != TargetIdError::kOk) return;
  row->objects.push_back({id, found.generic_version, found.in_isapack_catalog});
  if (std::find(row->targets.begin(), row->targets.end(), found.target_id) == row->targets.end()) {
    row->targets.push_back(found.target_id);
  }
}

// Packages and loose files as rows, in input order.
std::vector<Row> MakeRows(const scan::ScanResult& result) {
  std::vector<Row> rows;
  std::map<std::string, size_t> by_package;
  for (const scan::PackageInfo& package : result.packages) {
    by_package[package.name] = rows.size();
    rows.push_back({package.name,
                    package.version,
                    package.format,
                    package.source,
                    package.declared_gpus,
                    {},
                    {},
                    {},
                    {}});
  }
  for (const scan::ScannedFile& file : result.files) {
    Row* row;
    if (const auto it = by_package.find(file.package);
        !file.package.empty() && it != by_package.end()) {
      row = &rows[it->second];
    } else {
      rows.push_back({file.path, "", "file", file.path, std::nullopt, {}, {}, {}, {}});
      row = &rows.back();
    }
    row->files.push_back(&file);
    for (const scan::FoundObject& found : file.objects) AddObject(row, found);
    row->errors.insert(row->errors.end(), file.errors.begin(), file.errors.end());
  }
  for (Row& row : rows) SortByTable(&row.targets);
  return rows;
}

// The processors a row's objects cover at the newest ROCr (what a package
// field declares), in table order.
std::vector<std::string> CoveredProcessors(const std::vector<CoverageObject>& objects) {
  std::vector<std::string> out;
  for (const ProcessorInfo& processor : Processors()) {
    TargetId gpu;
    gpu.processor = &processor;
    if (CoverProcessor(gpu, objects, kNewestRocr).way != CoverageWay::kNotCovered) {
      out.emplace_back(processor.name);
    }
  }
  return out;
}

// "6.4" for 604.
std::string RocrText(unsigned version) {
  if (version >= kNewestRocr) return "newest";
  return std::to_string(version / 100) + "." + std::to_string(version % 100);
}

Expected<unsigned> ParseRocr(const std::string& text) {
  unsigned major = 0, minor = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%u.%u%c", &major, &minor, &tail) < 2 || major > 98 || minor > 99) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "--rocr '" + text + "' is not a ROCr release: give MAJOR.MINOR, e.g. 6.4");
  }
  return major * 100 + minor;
}

// --require's selectors as processors: product names are allowed, and a
// generic or group stands for its members.
Expected<std::vector<std::string>> RequiredProcessors(const std::string& selectors) {
  std::vector<std::string> items;
  std::string item;
  for (char c : selectors + ";") {
    if (c == ';' || c == ',') {
      const size_t b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
      if (b != std::string::npos) items.push_back(item.substr(b, e - b + 1));
      item.clear();
    } else {
      item += c;
    }
  }
  ExpansionOptions options;
  options.mode = "exact";
  for (const ProcessorInfo& processor : Processors())
    options.supported.emplace_back(processor.name);
  for (const GenericInfo& generic : Generics()) options.supported.emplace_back(generic.name);
  for (const std::string& name : items) {
    TargetId id;
    if (ParseTargetId(name, &id).error == TargetIdError::kOk || FindGroup(name) != nullptr) {
      options.selectors.push_back(name);
    } else if (const ProcessorInfo* processor = FindProcessorByAnyName(name)) {
      options.selectors.emplace_back(processor->name);
    } else {
      return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT, "--require: " + DescribeUnknownGpu(name));
    }
  }
  if (options.selectors.empty()) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "--require names no GPU: give selectors such as 'gfx1030;gfx1100' or "
                     "dgpu-all");
  }
  auto expansion = Expand(options);
  if (!expansion) return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT, expansion.error().message);
  std::vector<std::string> processors;
  for (const std::string& target : expansion->covered) {
    const std::string name = target.substr(0, target.find(':'));
    if (std::find(processors.begin(), processors.end(), name) == processors.end()) {
      processors.push_back(name);
    }
  }
  SortByTable(&processors);
  return processors;
}

std::vector<std::string> ReadFilesFrom(const std::string& from) {
  std::vector<std::string> paths;
  std::ifstream file;
  std::istream* in = &std::cin;
  if (from != "-") {
    file.open(from);
    in = &file;
  }
  for (std::string line; std::getline(*in, line);) {
    if (!line.empty()) paths.push_back(line);
  }
  return paths;
}

std::string DefaultCachePath() {
  const char* xdg = secure_getenv("XDG_CACHE_HOME");
  const char* home = secure_getenv("HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/isapack/coverage-cache.json";
  if (home != nullptr && home[0] == '/')
    return std::string(home) + "/.cache/isapack/coverage-cache.json";
  return {};
}

std::string CellText(const CoverageAnswer& answer) {
  switch (answer.way) {
    case CoverageWay::kExact:
      return "exact";
    case CoverageWay::kGeneric:
      return "generic";
    case CoverageWay::kGenericRetargeted:
      return "retarget";
    case CoverageWay::kNotCovered:
      break;
  }
  return "-";
}

std::string Pad(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

}  // namespace

int RunCoverage(const CoverageOptions& options) {
  // --- what to scan --------------------------------------------------------
  std::vector<std::string> paths = options.paths;
  if (!options.files_from.empty()) {
    const std::vector<std::string> more = ReadFilesFrom(options.files_from);
    paths.insert(paths.end(), more.begin(), more.end());
  }
  if (paths.empty() && !options.installed && options.files_from.empty()) {
    return Fail(options.json, kExitUsage,
                {"nothing to scan: name files, directories, .deb or .rpm packages, or give "
                 "--installed"});
  }
  if (!options.field.empty() && options.field != "debian" && options.field != "rpm") {
    return Fail(options.json, kExitUsage,
                {"--field '" + options.field +
                 "': give debian (X-ROCm-GPU-Architecture) or rpm "
                 "(isapack-gpu() provides)"});
  }

  // --- the GPUs and the ROCr -------------------------------------------------
  std::vector<Gpu> gpus;
  for (const std::string& name : options.gpus) {
    if (name == "local") {
      auto local = DetectLocalGpus(options.sysfs);
      if (!local) return Fail(options.json, kExitSkipped, {local.error().message});
      for (const LocalGpu& gpu : *local) gpus.push_back({gpu.isa, gpu.product, gpu.source});
      continue;
    }
    auto id = ResolveGpuName(name);
    if (!id) return Fail(options.json, kExitUsage, {id.error().message});
    gpus.push_back({*id, std::string(id->processor->product), "--gpu " + name});
  }
  std::vector<std::string> required;
  if (!options.require.empty()) {
    auto processors = RequiredProcessors(options.require);
    if (!processors) return Fail(options.json, kExitUsage, {processors.error().message});
    required = std::move(*processors);
  }
  unsigned rocr = kNewestRocr;
  std::string rocr_source;
  if (!options.rocr.empty()) {
    auto parsed = ParseRocr(options.rocr);
    if (!parsed) return Fail(options.json, kExitUsage, {parsed.error().message});
    rocr = *parsed;
    rocr_source = "--rocr";
  } else if (const RocrVersion installed = InstalledRocr(options.installed ? options.root : "/");
             installed.version != 0) {
    rocr = installed.version;
    rocr_source = installed.source;
  } else {
    rocr_source = "no ROCr installed: a new ROCr (>= 6.4) is assumed; --rocr sets it (" +
                  installed.source + ")";
  }

  // --- the scan -------------------------------------------------------------
  scan::ScanOptions scan_options;
  scan_options.max_file_size = options.max_file_size;
  scan_options.jobs = options.jobs;
  scan_options.progress = !options.json && options.field.empty() && isatty(2) == 1;
  if (!options.no_cache) scan_options.cache_path = DefaultCachePath();
  scan::ScanResult result;
  if (options.installed) result = scan::ScanInstalled(scan_options, options.root);
  if (!paths.empty()) {
    scan_options.cache_path.clear();  // named files change under the same name in builds
    scan::ScanResult named = scan::ScanPaths(paths, scan_options);
    for (auto& p : named.packages) result.packages.push_back(std::move(p));
    for (auto& f : named.files) result.files.push_back(std::move(f));
    for (auto& e : named.errors) result.errors.push_back(std::move(e));
    result.files_scanned += named.files_scanned;
    result.bytes_scanned += named.bytes_scanned;
  }
  std::vector<Row> rows = MakeRows(result);
  std::vector<std::string> errors = result.errors;
  for (const Row& row : rows) errors.insert(errors.end(), row.errors.begin(), row.errors.end());
  const bool incomplete = !errors.empty();
  const bool found =
      std::any_of(rows.begin(), rows.end(), [](const Row& row) { return !row.objects.empty(); });

  // --- --field: the package field generators ----------------------------------
  if (!options.field.empty()) {
    std::vector<CoverageObject> all;
    for (const Row& row : rows) all.insert(all.end(), row.objects.begin(), row.objects.end());
    const std::vector<std::string> covered = CoveredProcessors(all);
    for (const std::string& error : errors) PrintError(error);
    if (options.field == "debian") {
      std::string line;
      for (const std::string& processor : covered) line += (line.empty() ? "" : " ") + processor;
      std::cout << line << "\n";
    } else {
      for (const std::string& processor : covered)
        std::cout << "isapack-gpu(" << processor << ")\n";
    }
    return incomplete ? kExitUnreadable : kExitOk;
  }

  // --- the columns --------------------------------------------------------------
  if (gpus.empty()) {
    std::vector<std::string> names = required;
    if (names.empty()) {
      std::vector<CoverageObject> all;
      for (const Row& row : rows) all.insert(all.end(), row.objects.begin(), row.objects.end());
      for (const ProcessorInfo& processor : Processors()) {
        TargetId gpu;
        gpu.processor = &processor;
        if (CoverProcessor(gpu, all, rocr).way != CoverageWay::kNotCovered) {
          names.emplace_back(processor.name);
        }
      }
    }
    for (const std::string& name : names) {
      TargetId id;
      id.processor = FindProcessor(name);
      gpus.push_back({id, std::string(id.processor->product),
                      required.empty() ? "covered by an input" : "--require"});
    }
  }

  // --- the matrix, the gate and the metadata check -------------------------------
  json packages = json::array();
  json missing = json::array();
  std::vector<std::string> gate_lines, metadata_lines, notes;
  bool covered_any_gpu = false;
  std::vector<bool> gpu_covered(gpus.size(), false);
  std::vector<std::vector<CoverageAnswer>> answers(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    json coverage = json::object();
    for (size_t g = 0; g < gpus.size(); ++g) {
      const CoverageAnswer answer = CoverProcessor(gpus[g].id, row.objects, rocr);
      answers[r].push_back(answer);
      if (answer.way != CoverageWay::kNotCovered) gpu_covered[g] = covered_any_gpu = true;
      coverage[gpus[g].id.ToString()] = {{"way", std::string(ToString(answer.way))},
                                         {"object", answer.object},
                                         {"hint", answer.hint}};
      if (!answer.hint.empty() && !row.objects.empty()) {
        notes.push_back(row.name + " on " + gpus[g].id.ToString() + ": not covered; " +
                        answer.hint);
      }
    }
    json row_missing = json::array();
    if (!row.objects.empty()) {
      for (const std::string& name : required) {
        TargetId gpu;
        gpu.processor = FindProcessor(name);
        const CoverageAnswer answer = CoverProcessor(gpu, row.objects, rocr);
        if (answer.way != CoverageWay::kNotCovered) continue;
        row_missing.push_back(name);
        gate_lines.push_back(row.name + ": does not cover required " + name +
                             (answer.hint.empty() ? "" : " (" + answer.hint + ")"));
      }
    }
    if (!row_missing.empty()) missing.push_back({{"package", row.name}, {"gpus", row_missing}});
    json metadata = json(nullptr);
    if (options.check_metadata && (row.declared || !row.objects.empty()) && row.format != "file") {
      const std::vector<std::string> covered = CoveredProcessors(row.objects);
      const std::vector<std::string> declared = row.declared.value_or(std::vector<std::string>{});
      json declared_only = json::array(), binaries_only = json::array();
      for (const std::string& gpu : declared) {
        if (std::find(covered.begin(), covered.end(), gpu) == covered.end()) {
          declared_only.push_back(gpu);
          metadata_lines.push_back(row.name + ": declares " + gpu +
                                   " but its binaries do not cover it");
        }
      }
      for (const std::string& gpu : covered) {
        if (std::find(declared.begin(), declared.end(), gpu) == declared.end()) {
          binaries_only.push_back(gpu);
          metadata_lines.push_back(row.name + ": its binaries cover " + gpu +
                                   " but it does not declare it" +
                                   (row.declared ? "" : " (it declares no GPU list)"));
        }
      }
      metadata = {{"declared_not_in_binaries", declared_only},
                  {"in_binaries_not_declared", binaries_only}};
    }
    json files = json::array();
    for (const scan::ScannedFile* file : row.files) {
      json targets = json::array();
      for (const scan::FoundObject& object : file->objects) targets.push_back(object.target_id);
      files.push_back({{"path", file->path}, {"targets", targets}, {"errors", file->errors}});
    }
    packages.push_back({{"name", row.name},
                        {"version", row.version},
                        {"format", row.format},
                        {"source", row.source},
                        {"targets", row.targets},
                        {"files", files},
                        {"coverage", coverage},
                        {"declared", row.declared ? json(*row.declared) : json(nullptr)},
                        {"metadata", metadata},
                        {"errors", row.errors}});
  }
  (void)covered_any_gpu;

  const bool check_failed = !gate_lines.empty() || !metadata_lines.empty();
  const bool gpu_asked = !options.gpus.empty();
  const bool gpu_uncovered =
      gpu_asked && std::any_of(gpu_covered.begin(), gpu_covered.end(), [](bool c) { return !c; });
  const int exit_code = check_failed    ? kExitFailure
                        : incomplete    ? kExitUnreadable
                        : gpu_uncovered ? kExitNotCovered
                        : !found        ? kExitNothingFound
                                        : kExitOk;
  std::vector<std::string> all_errors = errors;
  if (exit_code == kExitNothingFound) {
    all_errors.push_back("no input carries AMDGPU code (code objects, offload bundles, catalogs)");
  }

  json document = {{"schema", 1},
                   {"rocr", {{"version", RocrText(rocr)}, {"source", rocr_source}}},
                   {"gpus", json::array()},
                   {"packages", packages},
                   {"files_scanned", result.files_scanned},
                   {"bytes_scanned", result.bytes_scanned}};
  for (const Gpu& gpu : gpus) {
    document["gpus"].push_back(
        {{"name", gpu.id.ToString()}, {"product", gpu.product}, {"source", gpu.source}});
  }
  if (!options.require.empty()) {
    document["require"] = {
        {"selectors", options.require}, {"processors", required}, {"missing", missing}};
  }
  if (!options.html.empty()) {
    json page = document;
    page["errors"] = all_errors;
    const std::string html = RenderCoverageHtml(page);
    if (Status written = WriteFileAtomically(
            options.html, {reinterpret_cast<const uint8_t*>(html.data()), html.size()});
        !written) {
      return Fail(options.json, kExitFailure, {written.error().message});
    }
  }
  if (options.json) {
    PrintJsonOutcome(std::move(document), exit_code, all_errors);
    return exit_code;
  }

  // --- the table for people ----------------------------------------------------
  std::cout << "ROCr " << RocrText(rocr) << " (" << rocr_source << ")\n";
  for (const Gpu& gpu : gpus) {
    if (!gpu_asked) break;  // the columns came from the inputs or --require
    std::cout << gpu.id.ToString() << (gpu.product.empty() ? "" : " (" + gpu.product + ")")
              << ": from " << gpu.source << "\n";
  }
  size_t name_width = 7, version_width = 7;
  for (const Row& row : rows) {
    name_width = std::max(name_width, row.name.size());
    version_width = std::max(version_width, row.version.size());
  }
  std::string header = Pad("PACKAGE", name_width) + "  " + Pad("VERSION", version_width);
  std::vector<size_t> widths;
  for (const Gpu& gpu : gpus) {
    widths.push_back(std::max<size_t>(8, gpu.id.ToString().size()));
    header += "  " + Pad(gpu.id.ToString(), widths.back());
  }
  while (!header.empty() && header.back() == ' ') header.pop_back();
  if (!rows.empty()) std::cout << header << "\n";  // no table when nothing was read
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line = Pad(rows[r].name, name_width) + "  " + Pad(rows[r].version, version_width);
    for (size_t g = 0; g < gpus.size(); ++g) {
      line += "  " + Pad(rows[r].objects.empty() ? "no code" : CellText(answers[r][g]), widths[g]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cout << line << "\n";
  }
  if (gpu_asked) {
    for (size_t g = 0; g < gpus.size(); ++g) {
      size_t runs = 0, with_code = 0;
      for (size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].objects.empty()) continue;
        ++with_code;
        runs += answers[r][g].way != CoverageWay::kNotCovered;
      }
      std::cout << gpus[g].id.ToString() << ": " << runs << " of " << with_code
                << " inputs with GPU code run on it\n";
    }
  }
  for (const std::string& note : notes) std::cout << "note: " << note << "\n";
  for (const std::string& line : gate_lines) std::cout << "missing: " << line << "\n";
  for (const std::string& line : metadata_lines) std::cout << "metadata: " << line << "\n";
  for (const std::string& error : all_errors) PrintError(error);
  if (incomplete) PrintError("the scan is incomplete: the inputs above could not be fully read");
  return exit_code;
}

}  // namespace isapack::cli
