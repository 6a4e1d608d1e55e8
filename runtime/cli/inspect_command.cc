// isapack inspect: the GPU targets any file carries.
#include <iostream>

#include "catalog_file.h"
#include "cli.h"
#include "inspect.h"

namespace isapack::cli {

int RunInspect(const InspectOptions& options) {
  int exit_code = kExitOk;
  nlohmann::json files = nlohmann::json::array();
  for (const std::string& path : options.files) {
    auto bytes = ReadWholeFile(path);
    if (!bytes) {
      PrintError(bytes.error().message);
      files.push_back({{"path", path}, {"error", bytes.error().message}});
      exit_code = kExitFailure;
      continue;
    }
    nlohmann::json report = InspectBytes(*bytes);
    if (!report.at("errors").empty()) exit_code = kExitFailure;
    bool object_errors = false;
    for (const auto& object : report.at("code_objects")) object_errors = object_errors || object.contains("error");
    if (object_errors) exit_code = kExitFailure;
    if (!options.json) std::cout << FormatInspectReport(path, report);
    report["path"] = path;
    files.push_back(report);
  }
  if (options.json) PrintJson({{"schema", 1}, {"files", files}});
  return exit_code;
}

}  // namespace isapack::cli
