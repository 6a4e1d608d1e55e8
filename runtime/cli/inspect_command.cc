// isapack inspect: the GPU targets any file carries. Directories are walked;
// an input that cannot be read is reported with its path and the rest are
// still inspected.
#include <iostream>

#include "cli.h"
#include "input_file.h"
#include "inspect.h"

namespace isapack::cli {

int RunInspect(const InspectOptions& options) {
  nlohmann::json files = nlohmann::json::array();
  std::vector<std::string> errors;
  bool unreadable = false, damaged = false, found = false;
  for (const InputPath& input : ExpandInputPaths(options.files, /*accept_directories=*/true)) {
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
      files.push_back({{"path", input.path}, {"error", error}});
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
    files.push_back(report);
  }
  const int exit_code = unreadable ? kExitUnreadable
                        : damaged  ? kExitFailure
                        : found    ? kExitOk
                                   : kExitNothingFound;
  if (options.json) PrintJsonOutcome({{"schema", 1}, {"files", files}}, exit_code, errors);
  return exit_code;
}

}  // namespace isapack::cli
