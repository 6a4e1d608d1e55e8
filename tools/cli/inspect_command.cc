// isapack inspect: the GPU targets any file carries. Directories are walked;
// an input that cannot be read is reported with its path and the rest are
// still inspected. Reports are printed as each file is done (with --json,
// as elements of one streamed array), so memory stays bounded however many
// files a directory holds.
#include <iostream>

#include "cli.h"
#include "input_file.h"
#include "inspect.h"

namespace isapack::cli {
namespace {

// Prints `{"schema": 1, "files": [` ... `], <outcome>}` one file at a time.
class JsonFileStream {
 public:
  explicit JsonFileStream(bool enabled) : enabled_(enabled) {
    if (enabled_) std::cout << "{\n  \"schema\": 1,\n  \"files\": [";
  }
  void Add(const nlohmann::json& report) {
    if (!enabled_) return;
    std::cout << (first_ ? "\n    " : ",\n    ") << report.dump();
    first_ = false;
  }
  void Finish(int exit_code, const std::vector<std::string>& errors) {
    if (!enabled_) return;
    std::cout << (first_ ? "],\n" : "\n  ],\n")
              << "  \"status\": " << nlohmann::json(ExitStatusName(exit_code))
              << ",\n  \"exit_code\": " << exit_code
              << ",\n  \"errors\": " << nlohmann::json(errors).dump() << "\n}\n";
  }

 private:
  bool enabled_;
  bool first_ = true;
};

}  // namespace

int RunInspect(const InspectOptions& options) {
  JsonFileStream json(options.json);
  std::vector<std::string> errors;
  bool unreadable = false, damaged = false, found = false;
  for (const InputPath& input : ExpandInputPaths(options.files)) {
    std::string error = input.error;
    InputFile file;
    if (error.empty()) {
      if (auto opened = OpenInputFile(input.path, options.max_file_size)) {
        file = std::move(*opened);
      } else {
        error = opened.error().message;
      }
    }
    if (!error.empty()) {
      PrintError(error);
      errors.push_back(error);
      json.Add({{"path", input.path}, {"error", error}});
      unreadable = true;
      continue;
    }
    nlohmann::json report = InspectBytes(file.bytes());
    found = found || !report.at("targets").empty();
    for (const auto& object : report.at("code_objects")) {
      if (!object.contains("error")) continue;
      damaged = true;
      errors.push_back(input.path + ": " + object.at("location").get<std::string>() + ": " +
                       object.at("error").get<std::string>());
    }
    for (const auto& problem : report.at("errors")) {
      damaged = true;
      errors.push_back(input.path + ": " + problem.get<std::string>());
    }
    if (!options.json) std::cout << FormatInspectReport(input.path, report);
    report["path"] = input.path;
    json.Add(report);
  }
  const int exit_code = unreadable ? kExitUnreadable
                        : damaged  ? kExitFailure
                        : found    ? kExitOk
                                   : kExitNothingFound;
  if (exit_code == kExitNothingFound) {
    errors.push_back("no input carries AMDGPU code (code objects, offload bundles, catalogs)");
  }
  json.Finish(exit_code, errors);
  return exit_code;
}

}  // namespace isapack::cli
