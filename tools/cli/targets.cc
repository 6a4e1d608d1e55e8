// isapack targets: the vocabulary of targets/ and what this build covers,
// all of it or only the processors given by name.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>

#include "cli.h"
#include "gpu_names.h"
#include "local_gpu.h"
#include "target_id.h"
#include "target_table.h"

namespace isapack::cli {
namespace {

using json = nlohmann::json;

// The ISA list a ROCr with generic support (>= 6.4) reports for a processor.
std::vector<std::string> ModernIsaList(const ProcessorInfo& p) {
  TargetId id;
  id.processor = &p;
  if (p.sramecc == FeatureSupport::kSupported) id.sramecc = FeatureSetting::kOff;
  if (p.xnack == FeatureSupport::kSupported) id.xnack = FeatureSetting::kOff;
  std::vector<std::string> isas = {id.ToIsaName()};
  if (const std::optional<TargetId> generic = GenericIsaOf(id))
    isas.push_back(generic->ToIsaName());
  return isas;
}

// The code object a device with processor `p` would load, or "".
std::string CodeObjectFor(const ProcessorInfo& p) {
  const std::vector<std::string> isas = ModernIsaList(p);
  std::vector<const char*> names;
  for (const std::string& isa : isas) names.push_back(isa.c_str());
  size_t entry = ISAPACK_NO_ENTRY;
  isapack_status_t status = isapack_select(names.data(), names.size(), &entry, nullptr, 0, nullptr);
  isapack_status_free(status);
  isapack_catalog_entry_info_t info;
  if (entry == ISAPACK_NO_ENTRY || isapack_catalog_entry_info(entry, &info) != nullptr) return "";
  return info.target_id;
}

std::vector<std::string> Names(std::span<const uint16_t> members) {
  std::vector<std::string> names;
  for (uint16_t index : members) names.emplace_back(Processors()[index].name);
  return names;
}

std::vector<std::string> Strings(std::span<const std::string_view> views) {
  return {views.begin(), views.end()};
}

std::string Join(const std::vector<std::string>& items, const std::string& separator = " ") {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

std::string Pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text + " ";
}

// The processors this build covers (names without features).
std::set<std::string> CoveredProcessors() {
  const json build = BuildInfo();
  std::set<std::string> covered;
  if (build.is_object()) {
    for (const json& target : build.at("covered_targets")) {
      const std::string id = target.get<std::string>();
      covered.insert(id.substr(0, id.find(':')));
    }
  }
  return covered;
}

// The processors to list: all of them (`chosen` empty) or the chosen ones.
struct Filter {
  std::set<const ProcessorInfo*> chosen;

  bool Shows(const ProcessorInfo& p) const { return chosen.empty() || chosen.count(&p) != 0; }
  bool Shows(std::span<const uint16_t> members) const {
    return std::any_of(members.begin(), members.end(),
                       [this](uint16_t index) { return Shows(Processors()[index]); });
  }
};

// The exact targets: their JSON, and their table rows appended to *text.
json ProcessorTable(const std::set<std::string>& covered, const Filter& filter, std::string* text) {
  json processors = json::array();
  *text += "  " + Pad("target", 9) + Pad("covered", 8) + Pad("code object", 16) + "products\n";
  for (const ProcessorInfo& p : Processors()) {
    if (!filter.Shows(p)) continue;
    const std::string code_object = CodeObjectFor(p);
    const bool is_covered = covered.count(std::string(p.name)) != 0;
    char isa[16];
    std::snprintf(isa, sizeof(isa), "%u.%u.%u", p.isa.major, p.isa.minor, p.isa.stepping);
    char mach[8];
    std::snprintf(mach, sizeof(mach), "0x%02x", p.mach);
    const GenericInfo* generic = GenericOf(p);
    processors.push_back(
        {{"name", std::string(p.name)},
         {"mach", mach},
         {"isa_version", isa},
         {"xnack", std::string(ToString(p.xnack))},
         {"sramecc", std::string(ToString(p.sramecc))},
         {"generic", generic ? json(std::string(generic->name)) : json(nullptr)},
         {"llvm", p.llvm},
         {"llvm_removed", p.llvm_removed ? json(p.llvm_removed) : json(nullptr)},
         {"product", std::string(p.product)},
         {"products", Strings(p.products)},
         {"covered", is_covered},
         {"code_object", code_object.empty() ? json(nullptr) : json(code_object)}});
    *text += "  " + Pad(std::string(p.name), 9) + Pad(is_covered ? "yes" : "-", 8) +
             Pad(code_object.empty() ? "-" : code_object, 16) + Join(Strings(p.products), ", ") +
             "\n";
  }
  return processors;
}

// The generic targets: their JSON, and their rows appended to *text.
json GenericTable(const Filter& filter, std::string* text) {
  json generics = json::array();
  for (const GenericInfo& g : Generics()) {
    if (!filter.Shows(g.members)) continue;
    char mach[8];
    std::snprintf(mach, sizeof(mach), "0x%02x", g.mach);
    generics.push_back({{"name", std::string(g.name)},
                        {"mach", mach},
                        {"llvm", g.llvm},
                        {"members", Names(g.members)}});
    *text += "  " + Pad(std::string(g.name), 16) + Join(Names(g.members)) + "\n";
  }
  return generics;
}

// --local: this machine's GPUs and ROCr, their lines appended to *text and
// their processors to the filter; an error when no GPU is found.
Expected<json> LocalSection(const std::string& sysfs, Filter* filter, std::string* text) {
  Expected<std::vector<LocalGpu>> gpus = DetectLocalGpus(sysfs);
  if (!gpus.ok()) return gpus.take_error();
  json entries = json::array();
  *text += "This machine's GPUs (read without HSA):\n";
  for (const LocalGpu& gpu : *gpus) {
    filter->chosen.insert(gpu.isa.processor);
    entries.push_back(
        {{"name", gpu.isa.ToString()}, {"product", gpu.product}, {"source", gpu.source}});
    *text += "  " + Pad(gpu.isa.ToString(), 9) + Pad(gpu.product, 20) + "(" + gpu.source + ")\n";
  }
  const RocrVersion rocr = InstalledRocr();
  *text += "Installed ROCr: " + (rocr.version == 0 ? std::string("none") : rocr.text) + " (" +
           rocr.source + ")";
  if (rocr.version != 0 && rocr.version < kFirstRocrWithGenericIsas) {
    *text += "; generic code objects need ROCr >= 6.4";
  }
  *text += "\n\n";
  return json{{"gpus", entries},
              {"rocr",
               {{"version", rocr.version == 0 ? json(nullptr) : json(rocr.text)},
                {"source", rocr.source}}}};
}

}  // namespace

int RunTargets(const TargetsOptions& options) {
  Filter filter;
  for (const std::string& name : options.names) {
    const ProcessorInfo* processor = FindProcessorByAnyName(name);
    if (processor == nullptr) return Fail(options.json, kExitUsage, {DescribeUnknownGpu(name)});
    filter.chosen.insert(processor);
  }
  std::string local_text;
  json local;
  if (options.local) {
    Expected<json> section = LocalSection(options.sysfs, &filter, &local_text);
    if (!section.ok()) return Fail(options.json, kExitSkipped, {section.error().message});
    local = std::move(*section);
  }
  std::string text =
      local_text +
      "Exact targets, what this build covers and the code object a device would load\n"
      "(generic code objects need an HSA runtime that lists the generic ISA: ROCr >= 6.4):\n";
  const json processors = ProcessorTable(CoveredProcessors(), filter, &text);
  text += "\nGeneric targets (code object v6):\n";
  const json generics = GenericTable(filter, &text);
  text += "\nFamilies (TheRock):\n";
  std::string bundle_text = "\nBundles:\n";
  json families = json::array(), bundles = json::array();
  for (const GroupInfo& g : Groups()) {
    if (!filter.Shows(g.members)) continue;
    json entry = {{"name", std::string(g.name)}, {"members", Names(g.members)}};
    if (g.kind == GroupKind::kBundle) {
      bundles.push_back(entry);
      bundle_text += "  " + Pad(std::string(g.name), 16) + Join(Names(g.members)) + "\n";
    } else {
      families.push_back(entry);
      text += "  " + Pad(std::string(g.name), 16) + Join(Names(g.members)) + "\n";
    }
  }
  if (options.json) {
    json document = {{"schema", 1},
                     {"isapack_version", isapack_version()},
                     {"processors", processors},
                     {"generics", generics},
                     {"families", families},
                     {"bundles", bundles}};
    if (options.local) document["local"] = local;
    PrintJsonOutcome(document, kExitOk, {});
  } else {
    std::cout << text << bundle_text;
  }
  return kExitOk;
}

}  // namespace isapack::cli
