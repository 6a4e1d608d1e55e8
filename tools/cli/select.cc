// isapack select: which embedded code object a device with a given ISA list
// would get, and why.
#include <iostream>

#include "catalog_file.h"
#include "cli.h"
#include "input_file.h"
#include "retarget.h"
#include "selection.h"
#include "status.h"

namespace isapack::cli {
namespace {

struct Outcome {
  size_t entry = ISAPACK_NO_ENTRY;
  std::string target_id;
  unsigned code_object_version = 0;
  isapack_status_code_t code = ISAPACK_STATUS_OK;
  std::string message;
  std::string trace;
  std::string retargeted_to;  // the exact target a generic object is rewritten for, or ""
};

// A generic object chosen for an ISA list without its generic ISA is
// rewritten for the agent's processor (the library decides the same way).
void NoteRetargeting(const std::vector<TargetId>& isas, Outcome* outcome) {
  TargetId object;
  if (outcome->entry == ISAPACK_NO_ENTRY ||
      ParseTargetId(outcome->target_id, &object).error != TargetIdError::kOk ||
      !object.is_generic()) {
    return;
  }
  for (const TargetId& isa : isas) {
    if (isa.generic == object.generic) return;
  }
  for (const TargetId& isa : isas) {
    if (isa.processor == nullptr) continue;
    if (auto member = GenericMember::Of(object, *isa.processor)) {
      outcome->retargeted_to = member->retargeted().ToString();
      return;
    }
  }
}

// Through the loaded libisapack's own selection.
Outcome SelectInLibrary(const std::vector<std::string>& isas) {
  std::vector<const char*> names;
  for (const std::string& isa : isas) names.push_back(isa.c_str());
  Outcome outcome;
  size_t length = 0;
  isapack_status_t status =
      isapack_select(names.data(), names.size(), &outcome.entry, nullptr, 0, &length);
  std::string trace(length + 1, '\0');
  isapack_status_free(status);
  status = isapack_select(names.data(), names.size(), &outcome.entry, trace.data(), trace.size(),
                          nullptr);
  trace.resize(length);
  outcome.trace = trace;
  outcome.code = isapack_status_code(status);
  outcome.message = isapack_status_message(status);
  isapack_status_free(status);
  isapack_catalog_entry_info_t info;
  if (outcome.entry != ISAPACK_NO_ENTRY &&
      isapack_catalog_entry_info(outcome.entry, &info) == nullptr) {
    outcome.target_id = info.target_id;
    outcome.code_object_version = info.code_object_version;
  }
  return outcome;
}

// Against another file's catalog, with the same selection code.
Outcome SelectInCatalog(const Catalog& catalog, const std::vector<TargetId>& isas) {
  const Selection selection = Select(isas, catalog, {RetargetAllowed(true)});
  Outcome outcome;
  outcome.trace = FormatTrace(selection, isas, catalog);
  if (selection.ok()) {
    outcome.entry = selection.entry;
    outcome.target_id = std::string(catalog.entry(selection.entry).target_id);
    outcome.code_object_version = catalog.entry(selection.entry).code_object_version;
  } else {
    Error error = SelectionError(selection, isas, catalog, "");
    outcome.code = error.code;
    outcome.message = error.message;
  }
  return outcome;
}

// A ROCr with generic support (>= 6.4) lists each processor's generic ISA
// after its own: adds those to *isas, and returns their names.
std::vector<std::string> AddListedGenericIsas(std::vector<TargetId>* isas) {
  std::vector<std::string> added;
  const std::vector<TargetId> given = *isas;
  for (const TargetId& isa : given) {
    const std::optional<TargetId> listed = GenericIsaOf(isa);
    if (!listed) continue;
    const TargetId& generic = *listed;
    bool present = false;
    for (const TargetId& existing : *isas) present = present || existing.generic == generic.generic;
    if (!present) {
      isas->push_back(generic);
      added.push_back(generic.ToIsaName());
    }
  }
  return added;
}

void PrintSelectJson(const Outcome& outcome, const std::vector<std::string>& isa_names,
                     const std::vector<std::string>& added, int exit_code) {
  nlohmann::json selected = nullptr;
  if (outcome.entry != ISAPACK_NO_ENTRY) {
    selected = {{"entry", outcome.entry},
                {"target_id", outcome.target_id},
                {"code_object_version", outcome.code_object_version}};
    if (!outcome.retargeted_to.empty()) {
      selected["retargeted_to"] = outcome.retargeted_to;
      selected["loaded_code_object_version"] = kRetargetCodeObjectVersion;
    }
  }
  PrintJsonOutcome(
      {{"schema", 1},
       {"isa_names", isa_names},
       {"generic_isas_assumed", added},
       {"selected", selected},
       {"selection_status", isapack_status_code_name(outcome.code)},
       {"message", outcome.message},
       {"trace", outcome.trace}},
      exit_code, exit_code == kExitOk ? std::vector<std::string>{} : std::vector{outcome.message});
}

void PrintSelectText(const Outcome& outcome, const std::vector<std::string>& isa_names,
                     const std::vector<std::string>& added, const char* source) {
  if (outcome.entry != ISAPACK_NO_ENTRY) {
    std::cout << outcome.target_id;
    if (!outcome.retargeted_to.empty()) {
      std::cout << ", retargeted to " << outcome.retargeted_to
                << " for a ROCr without generic support";
    }
    std::cout << "\n  " << isa_names.front() << " gets " << outcome.target_id << " (code object v"
              << outcome.code_object_version << ", entry " << outcome.entry << " of " << source
              << ")";
    if (!outcome.retargeted_to.empty()) {
      std::cout << ", rewritten at load time as " << outcome.retargeted_to << " (code object v"
                << kRetargetCodeObjectVersion << ")";
    }
    std::cout << "\n";
  } else {
    std::cout << "no code object\n";
  }
  for (const std::string& isa : added) {
    std::cout << "  assuming ROCr >= 6.4, which also lists " << isa
              << " (use --as-listed to take the ISA list as given)\n";
  }
  std::cout << "Selection trace:\n";
  size_t start = 0;
  while (start < outcome.trace.size()) {
    const size_t end = outcome.trace.find('\n', start);
    std::cout << "  " << outcome.trace.substr(start, end - start) << "\n";
    start = end == std::string::npos ? outcome.trace.size() : end + 1;
  }
  if (outcome.entry == ISAPACK_NO_ENTRY) PrintError(outcome.message);
}

}  // namespace

int RunSelect(const SelectOptions& options) {
  std::vector<TargetId> isas;
  for (const std::string& name : options.isa_names) {
    TargetId id;
    const TargetIdParse parse = ParseIsaName(name, &id);
    if (parse.error != TargetIdError::kOk)
      return Fail(options.json, kExitUsage, {DescribeTargetIdError(name, parse)});
    isas.push_back(id);
  }
  // Unless asked to take the list as given, model a ROCr with generic support.
  const std::vector<std::string> added =
      options.as_listed ? std::vector<std::string>{} : AddListedGenericIsas(&isas);
  if (isas.size() > kMaxAgentIsas) {
    return Fail(options.json, kExitUsage,
                {"an agent lists at most " + std::to_string(kMaxAgentIsas) + " ISAs"});
  }
  std::vector<std::string> isa_names;
  for (const TargetId& isa : isas) isa_names.push_back(isa.ToIsaName());

  Outcome outcome;
  if (options.catalog_file.empty()) {
    outcome = SelectInLibrary(isa_names);
  } else {
    auto file = OpenSingleInputFile(options.catalog_file, options.max_file_size,
                                    "a libisapack or a catalog");
    if (!file) return Fail(options.json, kExitUnreadable, {"--catalog: " + file.error().message});
    auto catalog = CatalogOfFile(file->bytes(), options.catalog_file);
    if (!catalog)
      return Fail(options.json, kExitFailure, {"--catalog: " + catalog.error().message});
    outcome = SelectInCatalog(*catalog, isas);
  }
  NoteRetargeting(isas, &outcome);
  const int exit_code = outcome.entry != ISAPACK_NO_ENTRY ? kExitOk : kExitFailure;
  if (options.json) {
    PrintSelectJson(outcome, isa_names, added, exit_code);
  } else {
    PrintSelectText(outcome, isa_names, added,
                    options.catalog_file.empty() ? "this build" : "the catalog of the given file");
  }
  return exit_code;
}

}  // namespace isapack::cli
