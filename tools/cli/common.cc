#include <dlfcn.h>

#include <iostream>

#include "cli.h"

namespace isapack::cli {

void PrintJson(const nlohmann::json& document) {
  std::cout << document.dump(2) << "\n";
}

void PrintError(const std::string& message) {
  std::cerr << "isapack: " << message << "\n";
}

const char* ExitStatusName(int exit_code) {
  switch (exit_code) {
    case kExitOk:
      return "ok";
    case kExitFailure:
      return "failure";
    case kExitUsage:
      return "usage_error";
    case kExitUnreadable:
      return "unreadable_input";
    case kExitNothingFound:
      return "nothing_found";
    case kExitNotCovered:
      return "not_covered";
    case kExitSkipped:
      return "skipped_no_gpu";
  }
  return "failure";
}

void PrintJsonOutcome(nlohmann::json document, int exit_code,
                      const std::vector<std::string>& errors) {
  document["status"] = ExitStatusName(exit_code);
  document["exit_code"] = exit_code;
  document["errors"] = errors;
  PrintJson(document);
}

int Fail(bool json, int exit_code, const std::vector<std::string>& errors) {
  for (const std::string& error : errors) PrintError(error);
  if (json) PrintJsonOutcome({{"schema", 1}}, exit_code, errors);
  return exit_code;
}

nlohmann::json BuildInfo() {
  return nlohmann::json::parse(isapack_build_info_json(), nullptr, /*allow_exceptions=*/false);
}

std::string LibraryPath() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&isapack_version), &info) != 0 && info.dli_fname != nullptr) {
    return info.dli_fname;
  }
  return "libisapack.so";
}

std::string SimulationBanner(const char* simulation) {
  return std::string("SIMULATED: ") + simulation + ". These are not hardware results.";
}

std::string VersionText() {
  const nlohmann::json info = BuildInfo();
  std::string text = std::string("isapack ") + isapack_version() + "\n";
  if (info.is_object()) {
    const auto& compiler = info.at("compiler");
    text += "library: " + LibraryPath() + "\n";
    text += "compiler: clang " + compiler.at("version").get<std::string>() + " (" +
            compiler.at("path").get<std::string>() + ")\n";
    text += "code object mode: " + info.at("mode").get<std::string>() + " (exact code objects v" +
            std::to_string(info.at("exact_code_object_version").get<int>()) + ", generic v6)\n";
    std::string selectors, objects, covered;
    for (const auto& s : info.at("selectors"))
      selectors += (selectors.empty() ? "" : ";") + s.get<std::string>();
    for (const auto& o : info.at("code_objects"))
      objects += " " + o.at("target_id").get<std::string>();
    for (const auto& t : info.at("covered_targets")) covered += " " + t.get<std::string>();
    text += "selectors: " + selectors + " (from " + info.at("selectors_from").get<std::string>() +
            ")\n";
    text += "code objects:" + objects + "\n";
    text += "covered targets:" + covered + "\n";
  }
  return text;
}

}  // namespace isapack::cli
