// isapack verify: decompress, hash-check and validate every code object
// embedded in the installed libisapack.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "cli.h"
#include "code_object.h"
#include "isapack/device/kernels.h"
#include "target_id.h"

namespace isapack::cli {

namespace {

// Decompresses entry i (its info in hand), checks the hash and validates
// the code object: the problems found, none when it is intact.
std::vector<std::string> CheckEntry(size_t i, const isapack_catalog_entry_info_t& info) {
  std::vector<std::string> problems;
  std::vector<uint8_t> image(info.uncompressed_size);
  isapack_status_t status = isapack_catalog_entry_extract(i, image.data(), image.size());
  if (status != nullptr) {
    problems.push_back(isapack_status_message(status));
    isapack_status_free(status);
    return problems;
  }
  CodeObjectExpectation expected;
  expected.code_object_version = info.code_object_version;
  expected.kernel_descriptors = std::vector<std::string>(
      std::begin(isapack_kernel_descriptor_names), std::end(isapack_kernel_descriptor_names));
  const TargetIdParse parse = ParseTargetId(info.target_id, &expected.target);
  if (parse.error != TargetIdError::kOk) {
    problems.push_back(DescribeTargetIdError(info.target_id, parse));
    return problems;
  }
  return ValidateCodeObject(image, expected);
}

// Entry i as JSON (index, target, sizes, hash, ok, problems), checked
// against the build record; its problems are also added to *failures.
nlohmann::json VerifyEntry(size_t i, const nlohmann::json& build,
                           std::vector<std::string>* failures) {
  isapack_catalog_entry_info_t info{};
  isapack_status_t status = isapack_catalog_entry_info(i, &info);
  std::vector<std::string> problems;
  nlohmann::json entry = {{"index", i}};
  if (status != nullptr) {
    problems.push_back(isapack_status_message(status));
    isapack_status_free(status);
  } else {
    entry["target_id"] = info.target_id;
    entry["code_object_version"] = info.code_object_version;
    entry["uncompressed_size"] = info.uncompressed_size;
    entry["compressed_size"] = info.compressed_size;
    char hash[24];
    std::snprintf(hash, sizeof(hash), "0x%016llx", static_cast<unsigned long long>(info.xxh3_64));
    entry["xxh3_64"] = hash;
    problems = CheckEntry(i, info);
    if (build.is_object() && i < build.at("code_objects").size() &&
        build.at("code_objects")[i].at("target_id").get<std::string>() != info.target_id) {
      problems.push_back("the build made " +
                         build.at("code_objects")[i].at("target_id").get<std::string>() + " here");
    }
  }
  entry["ok"] = problems.empty();
  entry["problems"] = problems;
  for (const std::string& problem : problems) {
    failures->push_back("entry " + std::to_string(i) +
                        (info.target_id ? std::string(" (") + info.target_id + ")" : "") + ": " +
                        problem);
  }
  return entry;
}

void PrintVerifyText(const std::string& library, const nlohmann::json& entries,
                     const std::vector<std::string>& failures, size_t count) {
  std::cout << "Verifying the code objects embedded in " << library << ":\n";
  for (const nlohmann::json& entry : entries) {
    if (!entry.contains("target_id")) continue;
    std::string id = entry.at("target_id").get<std::string>();
    id.append(id.size() < 24 ? 24 - id.size() : 1, ' ');
    std::cout << "  " << (entry.at("ok").get<bool>() ? "ok    " : "FAIL  ") << id << "v"
              << entry.at("code_object_version").get<unsigned>() << "  "
              << entry.at("uncompressed_size").get<uint64_t>() << " bytes, XXH3-64 "
              << entry.at("xxh3_64").get<std::string>() << "\n";
  }
  for (const std::string& failure : failures) PrintError(failure);
  std::cout << (failures.empty()
                    ? "verify: all " + std::to_string(count) + " code objects are intact\n"
                    : "verify: FAILED; reinstall the libisapack package\n");
}

}  // namespace

int RunVerify(const VerifyOptions& options) {
  const std::string library = LibraryPath();
  const nlohmann::json build = BuildInfo();
  const size_t count = isapack_catalog_entry_count();
  nlohmann::json entries = nlohmann::json::array();
  std::vector<std::string> failures;
  if (count == 0) {
    isapack_catalog_entry_info_t info;
    isapack_status_t status = isapack_catalog_entry_info(0, &info);
    failures.push_back(status ? isapack_status_message(status) : "the catalog is empty");
    isapack_status_free(status);
  }
  if (!build.is_object() || !build.contains("code_objects")) {
    failures.push_back("the build info embedded in " + library + " is damaged");
  } else if (build.at("code_objects").size() != count) {
    failures.push_back("the catalog holds " + std::to_string(count) +
                       " code objects but the build made " +
                       std::to_string(build.at("code_objects").size()));
  }
  for (size_t i = 0; i < count; ++i) entries.push_back(VerifyEntry(i, build, &failures));
  const bool ok = failures.empty();
  if (options.json) {
    PrintJsonOutcome({{"schema", 1},
                      {"library", library},
                      {"ok", ok},
                      {"entries", entries},
                      {"failures", failures}},
                     ok ? kExitOk : kExitFailure, failures);
  } else {
    PrintVerifyText(library, entries, failures, count);
  }
  return ok ? kExitOk : kExitFailure;
}

}  // namespace isapack::cli
