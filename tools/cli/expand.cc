// isapack expand: the build's selector expansion, from the engine configure
// runs (core/src/expansion.cc), with its rules and messages.
#include <algorithm>
#include <iostream>

#include "cli.h"
#include "expansion.h"

namespace isapack::cli {

int RunExpand(const ExpandOptions& options) {
  ExpansionOptions expansion;
  // Accept CMake-style lists too: "gfx1100;gfx1101".
  for (const std::string& argument : options.selectors) {
    size_t start = 0;
    for (;;) {
      const size_t end = argument.find(';', start);
      expansion.selectors.push_back(
          argument.substr(start, end == std::string::npos ? end : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  // Option values are checked here so that the messages name the option,
  // not the CMake variable the expansion's own checks name.
  std::vector<std::string> usage;
  unsigned llvm = options.llvm;
  if (!options.llvm_given) {
    const nlohmann::json build = BuildInfo();
    llvm = build.is_object() ? build.at("compiler").at("llvm_major").get<unsigned>() : 19;
  } else if (llvm < 19) {
    usage.push_back("--llvm " + std::to_string(llvm) +
                    ": isapack knows LLVM 19 and newer (generic targets need 19)");
  }
  if (options.mode != "generic" && options.mode != "exact") {
    usage.push_back("--mode " + options.mode + ": use 'generic' or 'exact'");
  }
  if (options.code_object_version != "4" && options.code_object_version != "5") {
    usage.push_back("--code-object-version " + options.code_object_version +
                    ": exact code objects use version 4 or 5 (generic code objects always use 6)");
  }
  if (std::all_of(expansion.selectors.begin(), expansion.selectors.end(), [](const std::string& s) {
        return s.find_first_not_of(" \t\r\n") == std::string::npos;
      })) {
    usage.push_back(
        "the selectors name no GPU selector (only separators); give one, e.g. 'all' or "
        "'gfx110X-all'");
  }
  if (!usage.empty()) return Fail(options.json, kExitUsage, usage);
  expansion.mode = options.mode;
  expansion.code_object_version = options.code_object_version;
  expansion.supported = SupportedByLlvm(llvm);
  expansion.llvm_major = llvm;
  expansion.strict = options.strict;
  auto result = Expand(expansion);
  if (!result) return Fail(options.json, kExitUsage, {result.error().message});
  if (options.json) {
    nlohmann::json objects = nlohmann::json::array(), left_out = nlohmann::json::array();
    for (const ExpandedObject& o : result->objects) {
      objects.push_back({{"target_id", o.target_id},
                         {"code_object_version", o.code_object_version},
                         {"covers", o.covers}});
    }
    for (const LeftOutTarget& l : result->left_out)
      left_out.push_back({{"target_id", l.target_id}, {"reason", l.reason}});
    std::vector<std::string> selectors;
    for (const std::string& s : expansion.selectors) {
      if (s.find_first_not_of(" \t\r\n") != std::string::npos) selectors.push_back(s);
    }
    PrintJsonOutcome({{"schema", 1},
                      {"selectors", selectors},
                      {"mode", options.mode},
                      {"exact_code_object_version", std::stoi(options.code_object_version)},
                      {"llvm_major", llvm},
                      {"code_objects", objects},
                      {"covered_targets", result->covered},
                      {"left_out", left_out}},
                     kExitOk, {});
    return kExitOk;
  }
  std::cout << result->objects.size() << " code objects (mode " << options.mode << ", LLVM " << llvm
            << "):\n";
  for (const ExpandedObject& o : result->objects) {
    std::string covers;
    for (const std::string& c : o.covers) covers += " " + c;
    std::string id = o.target_id;
    id.append(id.size() < 24 ? 24 - id.size() : 1, ' ');
    std::cout << "  " << id << "v" << o.code_object_version << " " << covers << "\n";
  }
  if (!result->left_out.empty()) {
    std::cout << result->left_out.size() << " targets asked for but left out:\n";
    for (const LeftOutTarget& l : result->left_out)
      std::cout << "  " << l.target_id << ": " << l.reason << "\n";
  }
  return kExitOk;
}

}  // namespace isapack::cli
