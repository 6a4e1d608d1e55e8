// isapack expand: the build's selector expansion, from the engine configure
// runs (core/src/expansion.cc), with its rules and messages.
#include <algorithm>
#include <iostream>

#include "cli.h"
#include "expansion.h"

namespace isapack::cli {

namespace {

// Accepts CMake-style lists too: "gfx1100;gfx1101" is two selectors.
std::vector<std::string> SplitSelectors(const std::vector<std::string>& arguments) {
  std::vector<std::string> selectors;
  for (const std::string& argument : arguments) {
    size_t start = 0;
    for (;;) {
      const size_t end = argument.find(';', start);
      selectors.push_back(argument.substr(start, end == std::string::npos ? end : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  return selectors;
}

bool Blank(const std::string& s) {
  return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

// Option values are checked here so that the messages name the option,
// not the CMake variable the expansion's own checks name.
std::vector<std::string> UsageProblems(const ExpandOptions& options,
                                       const std::vector<std::string>& selectors) {
  std::vector<std::string> usage;
  if (options.llvm_given && options.llvm < 19) {
    usage.push_back("--llvm " + std::to_string(options.llvm) +
                    ": isapack knows LLVM 19 and newer (generic targets need 19)");
  }
  if (options.mode != "generic" && options.mode != "exact") {
    usage.push_back("--mode " + options.mode + ": use 'generic' or 'exact'");
  }
  if (options.code_object_version != "4" && options.code_object_version != "5") {
    usage.push_back("--code-object-version " + options.code_object_version +
                    ": exact code objects use version 4 or 5 (generic code objects always use 6)");
  }
  if (std::all_of(selectors.begin(), selectors.end(), Blank)) {
    usage.push_back(
        "the selectors name no GPU selector (only separators); give one, e.g. 'all' or "
        "'gfx110X-all'");
  }
  return usage;
}

void PrintExpansionJson(const ExpansionOptions& expansion, const Expansion& result) {
  nlohmann::json objects = nlohmann::json::array(), left_out = nlohmann::json::array();
  for (const ExpandedObject& o : result.objects) {
    objects.push_back({{"target_id", o.target_id},
                       {"code_object_version", o.code_object_version},
                       {"covers", o.covers}});
  }
  for (const LeftOutTarget& l : result.left_out)
    left_out.push_back({{"target_id", l.target_id}, {"reason", l.reason}});
  std::vector<std::string> selectors;
  for (const std::string& s : expansion.selectors) {
    if (!Blank(s)) selectors.push_back(s);
  }
  PrintJsonOutcome({{"schema", 1},
                    {"selectors", selectors},
                    {"mode", expansion.mode},
                    {"exact_code_object_version", std::stoi(expansion.code_object_version)},
                    {"llvm_major", expansion.llvm_major},
                    {"code_objects", objects},
                    {"covered_targets", result.covered},
                    {"left_out", left_out}},
                   kExitOk, {});
}

void PrintExpansionText(const ExpansionOptions& expansion, const Expansion& result) {
  std::cout << result.objects.size() << " code objects (mode " << expansion.mode << ", LLVM "
            << expansion.llvm_major << "):\n";
  for (const ExpandedObject& o : result.objects) {
    std::string covers;
    for (const std::string& c : o.covers) covers += " " + c;
    std::string id = o.target_id;
    id.append(id.size() < 24 ? 24 - id.size() : 1, ' ');
    std::cout << "  " << id << "v" << o.code_object_version << " " << covers << "\n";
  }
  if (!result.left_out.empty()) {
    std::cout << result.left_out.size() << " targets asked for but left out:\n";
    for (const LeftOutTarget& l : result.left_out)
      std::cout << "  " << l.target_id << ": " << l.reason << "\n";
  }
}

}  // namespace

int RunExpand(const ExpandOptions& options) {
  ExpansionOptions expansion;
  expansion.selectors = SplitSelectors(options.selectors);
  const std::vector<std::string> usage = UsageProblems(options, expansion.selectors);
  if (!usage.empty()) return Fail(options.json, kExitUsage, usage);
  unsigned llvm = options.llvm;
  if (!options.llvm_given) {
    const nlohmann::json build = BuildInfo();
    llvm = build.is_object() ? build.at("compiler").at("llvm_major").get<unsigned>() : 19;
  }
  expansion.mode = options.mode;
  expansion.code_object_version = options.code_object_version;
  expansion.supported = SupportedByLlvm(llvm);
  expansion.llvm_major = llvm;
  expansion.strict = options.strict;
  auto result = Expand(expansion);
  if (!result) return Fail(options.json, kExitUsage, {result.error().message});
  if (options.json) {
    PrintExpansionJson(expansion, *result);
  } else {
    PrintExpansionText(expansion, *result);
  }
  return kExitOk;
}

}  // namespace isapack::cli
