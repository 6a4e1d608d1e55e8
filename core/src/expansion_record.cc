#include "expansion_record.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace isapack {
namespace {

bool Blank(const std::string& text) {
  return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

std::string Trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : separator) + items[i];
  return out;
}

// The list as the packager wrote it, without empty items.
std::string AskedText(const std::vector<std::string>& selectors) {
  std::vector<std::string> items;
  for (const std::string& selector : selectors) {
    if (!selector.empty()) items.push_back(selector);
  }
  return Join(items, ";");
}

}  // namespace

std::string ConfigureErrorMessage(const ExpansionContext& context, const ExpansionOptions& options,
                                  const std::string& expansion_error) {
  const bool only_separators =
      std::all_of(options.selectors.begin(), options.selectors.end(), Blank);
  if (only_separators && expansion_error.rfind("no GPU selectors given", 0) == 0) {
    // Name the variable the selectors came from, not always ISAPACK_GPU_TARGETS.
    return context.selectors_from + " is '" + Join(context.selectors, ";") +
           "', which names no GPU selector (only separators); set it to a semicolon list such as "
           "'gfx1100;gfx1030', or to 'all'";
  }
  return expansion_error;
}

std::string ExpansionRecordText(const ExpansionContext& context, const ExpansionOptions& options,
                                const Expansion& expansion) {
  using json = nlohmann::json;
  json selectors = json::array();
  for (const std::string& selector : context.selectors) {
    if (!Blank(selector)) selectors.push_back(Trimmed(selector));
  }
  json objects = json::array();
  for (const ExpandedObject& object : expansion.objects) {
    objects.push_back({{"target_id", object.target_id},
                       {"code_object_version", object.code_object_version},
                       {"file", "amdgcn-amd-amdhsa--" + object.target_id + ".hsaco"},
                       {"covers", object.covers}});
  }
  json left_out = json::array();
  for (const LeftOutTarget& target : expansion.left_out) {
    left_out.push_back({{"target_id", target.target_id}, {"reason", target.reason}});
  }
  json record = {{"schema", 1},
                 {"isapack_version", context.isapack_version},
                 {"selectors", selectors},
                 {"selectors_from", context.selectors_from},
                 {"mode", options.mode},
                 {"exact_code_object_version", std::stoi(options.code_object_version)},
                 {"compiler",
                  {{"path", context.compiler_path},
                   {"version", context.compiler_version},
                   {"llvm_major", options.llvm_major}}},
                 {"code_objects", objects},
                 {"covered_targets", expansion.covered},
                 {"left_out", left_out}};
  if (!context.library.empty()) record["library"] = context.library;
  return record.dump(2) + "\n";
}

std::vector<std::string> ExpansionSummary(const ExpansionContext& context,
                                          const ExpansionOptions& options,
                                          const Expansion& expansion) {
  std::vector<std::string> lines;
  if (!context.library.empty()) lines.push_back("isapack: device library " + context.library);
  lines.push_back("isapack: GPU selectors '" + AskedText(context.selectors) + "' (from " +
                  context.selectors_from + "), code object mode " + options.mode + ", LLVM " +
                  context.compiler_version + " (" + context.compiler_path + ", supported CPUs " +
                  context.compiler_probe + ")");
  const size_t count = expansion.objects.size();
  lines.push_back("isapack: " + std::to_string(count) +
                  (count == 1 ? " code object:" : " code objects:"));
  for (const ExpandedObject& object : expansion.objects) {
    std::string name = object.target_id;
    name.append(name.size() < 24 ? 24 - name.size() : 1, ' ');  // at least one space
    lines.push_back("  " + name + "v" + std::to_string(object.code_object_version) + "  " +
                    Join(object.covers, " "));
  }
  if (!expansion.left_out.empty()) {
    lines.push_back("isapack: " + std::to_string(expansion.left_out.size()) +
                    " targets asked for but left out:");
    for (const LeftOutTarget& target : expansion.left_out) {
      lines.push_back("  " + target.target_id + ": " + target.reason);
    }
  }
  return lines;
}

}  // namespace isapack
