// Build-time import of prebuilt device code into a device library's catalog
// (isapack_add_device_library(... OBJECTS ...)):
//   isapack_import_code_objects <manifest-in> <manifest-out> <work-dir> <input>...
// <manifest-in> is the catalog manifest CMake wrote for the library's own
// compiled code objects, with the build record (covered_targets). Each input
// is an AMDGPU code object, a clang offload bundle, or compressed bundles
// (CCOB v1-v3, several back to back as in a .hip_fatbin, each found by its
// header's size). Every amdgcn-amd-amdhsa object is validated like a
// compiled one (ELF header against its own target, metadata, kernel
// descriptors) and kept when it serves a covered target; otherwise it is
// left out and printed, never dropped silently. Kept objects go to
// <work-dir>, their entries into <manifest-out> (written atomically, with
// "prebuilt" and "prebuilt_left_out" in the build record). A damaged or
// foreign input, or a second code object for the same target, stops the
// build with a message naming the input and the fix; nothing is written.
#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "code_object.h"
#include "input_file.h"
#include "kernel_metadata.h"
#include "offload_bundle.h"
#include "output_file.h"
#include "target_table.h"

namespace isapack {
namespace {

using Json = nlohmann::json;

// One amdgcn-amd-amdhsa code object found in an input.
struct Found {
  std::string
      location;  // "foo.hipfb, compressed bundle at 0x0, entry 'hipv4-amdgcn-amd-amdhsa--gfx1100'"
  std::span<const uint8_t> image;
};

bool StartsWith(std::span<const uint8_t> data, std::string_view magic) {
  return data.size() >= magic.size() && std::memcmp(data.data(), magic.data(), magic.size()) == 0;
}

std::string Hex(size_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%zx", value);
  return text;
}

// The amdgcn entries of one uncompressed bundle.
Status AddBundleEntries(std::span<const uint8_t> bundle, const std::string& where,
                        std::vector<Found>* found) {
  auto entries = ParseOffloadBundle(bundle);
  if (!entries) return MakeError(entries.error().code, where + ": " + entries.error().message);
  for (const BundleEntry& entry : *entries) {
    if (BundleEntryTarget(entry.id).empty() || entry.payload.empty()) continue;  // the host entry
    found->push_back({where + ", entry '" + std::string(entry.id) + "'", entry.payload});
  }
  return {};
}

// Every code object of one input file; decompressed bundles are kept in
// `storage` for the spans to point into.
Status FindCodeObjects(std::span<const uint8_t> data, const std::string& input,
                       std::vector<std::vector<uint8_t>>* storage, std::vector<Found>* found) {
  if (StartsWith(data,
                 "\x7f"
                 "ELF")) {
    auto header = ReadCodeObjectHeader(data);
    if (!header) return MakeError(header.error().code, input + ": " + header.error().message);
    if (header->machine != kElfMachineAmdgpu) {
      return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                       input + ": an ELF file for machine " + std::to_string(header->machine) +
                           ", not an AMDGPU code object (machine 224); OBJECTS takes code objects "
                           "and offload bundles (a program's are listed by `isapack inspect`)");
    }
    found->push_back({input, data});
    return {};
  }
  if (!StartsWith(data, kOffloadBundleMagic) && !StartsWith(data, kCompressedBundleMagic)) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     input +
                         ": neither an AMDGPU code object nor a clang offload bundle "
                         "(compressed or not); OBJECTS takes .hsaco/.co files and bundles");
  }
  const size_t before = found->size();
  for (size_t at = 0; at < data.size();) {
    if (data[at] == 0) {  // padding between bundles
      ++at;
      continue;
    }
    const auto rest = data.subspan(at);
    const size_t size = BundleExtent(rest);
    if (size == 0) {
      return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                       input + ": at " + Hex(at) + " neither an offload bundle nor padding");
    }
    if (StartsWith(rest, kCompressedBundleMagic)) {
      const std::string where = input + ", compressed bundle at " + Hex(at);
      auto bundle = DecompressBundle(rest.first(size));
      if (!bundle) return MakeError(bundle.error().code, where + ": " + bundle.error().message);
      storage->push_back(std::move(*bundle));
      if (Status status = AddBundleEntries(storage->back(), where, found); !status) return status;
    } else if (Status status =
                   AddBundleEntries(rest.first(size), input + ", bundle at " + Hex(at), found);
               !status) {
      return status;
    }
    at += size;
  }
  if (found->size() == before) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     input + ": its offload bundles hold no amdgcn-amd-amdhsa code object");
  }
  return {};
}

// The covered targets (exact target IDs) code built for `object` runs on.
std::vector<std::string> Serves(const TargetId& object, unsigned generic_version,
                                const std::vector<std::string>& covered) {
  std::vector<std::string> served;
  for (const std::string& text : covered) {
    TargetId target;
    if (ParseTargetId(text, &target).error != TargetIdError::kOk || target.processor == nullptr)
      continue;
    const bool same_processor = object.processor != nullptr
                                    ? object.processor == target.processor
                                    : object.generic == GenericOf(*target.processor) &&
                                          generic_version >= target.processor->generic_version;
    auto compatible = [](FeatureSetting built, FeatureSetting wanted) {
      return built == FeatureSetting::kAny || built == FeatureSetting::kUnsupported ||
             wanted == FeatureSetting::kAny || built == wanted;
    };
    if (same_processor && compatible(object.xnack, target.xnack) &&
        compatible(object.sramecc, target.sramecc)) {
      served.push_back(text);
    }
  }
  return served;
}

struct Imported {
  Json entries = Json::array();   // manifest entries
  Json kept = Json::array();      // for the record
  Json left_out = Json::array();  // for the record and the build log
};

// Validates each found object and sorts it into kept or left out; writes
// the kept ones into `work_dir`.
Status Import(const std::vector<Found>& found, const std::vector<std::string>& covered,
              std::map<std::string, std::string>* targets, const std::string& work_dir,
              Imported* imported) {
  for (const Found& object : found) {
    auto header = ReadCodeObjectHeader(object.image);
    if (!header)
      return MakeError(header.error().code, object.location + ": " + header.error().message);
    auto target = TargetIdOfHeader(*header);
    if (!target)
      return MakeError(target.error().code, object.location + ": " + target.error().message);
    const std::string id = target->ToString();
    const std::vector<std::string> problems =
        ValidateDeviceCode(object.image, *target, header->code_object_version);
    if (!problems.empty()) {
      std::string message = object.location + " (" + id + ") does not validate:";
      for (const std::string& problem : problems) message += "\n  " + problem;
      return MakeError(ISAPACK_STATUS_DATA_CORRUPT, message);
    }
    const std::vector<std::string> served = Serves(*target, header->generic_version, covered);
    if (served.empty()) {
      imported->left_out.push_back({{"target_id", id},
                                    {"from", object.location},
                                    {"reason", "it runs on none of the covered targets"}});
      continue;
    }
    const auto [previous, inserted] = targets->emplace(id, object.location);
    if (!inserted) {
      return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                       object.location + ": a code object for " + id +
                           " is already in the catalog (from " + previous->second +
                           "); give each target once");
    }
    const std::string path = work_dir + "/amdgcn-amd-amdhsa--" + id + ".hsaco";
    if (Status status = WriteFileAtomically(path, object.image); !status) return status;
    imported->entries.push_back({{"target_id", id},
                                 {"code_object_version", header->code_object_version},
                                 {"path", path},
                                 {"covers", served}});
    imported->kept.push_back({{"target_id", id}, {"from", object.location}, {"covers", served}});
  }
  return {};
}

int Fail(const std::string& message) {
  std::cerr << "isapack: prebuilt device code: " << message << "\n";
  return 1;
}

}  // namespace
}  // namespace isapack

int main(int argc, char** argv) {
  using isapack::Json;
  if (argc < 5) {
    std::cerr << "usage: " << argv[0] << " <manifest-in> <manifest-out> <work-dir> <input>...\n";
    return 2;
  }
  const std::string manifest_out = argv[2], work_dir = argv[3];
  std::remove(manifest_out.c_str());  // never leave an earlier run's manifest
  std::ifstream in(argv[1]);
  const Json manifest = Json::parse(in, nullptr, false);
  if (!manifest.is_object() || !manifest.contains("entries") ||
      !manifest["build_info"].is_object()) {
    return isapack::Fail(std::string(argv[1]) + " is not a catalog manifest");
  }
  std::vector<std::string> covered;
  for (const Json& target : manifest["build_info"].value("covered_targets", Json::array()))
    if (target.is_string()) covered.push_back(target.get<std::string>());
  const std::string library = manifest["build_info"].value("library", std::string("the library"));
  std::map<std::string, std::string> targets;  // target ID -> where it came from
  for (const Json& entry : manifest["entries"])
    targets.emplace(entry.value("target_id", ""), "SOURCES");

  std::vector<std::vector<uint8_t>> storage;
  std::vector<isapack::InputFile> files;
  std::vector<isapack::Found> found;
  for (int i = 4; i < argc; ++i) {
    auto file = isapack::OpenSingleInputFile(argv[i], isapack::kDefaultMaxFileSize,
                                             "a code object or offload bundle");
    if (!file) return isapack::Fail(file.error().message);
    files.push_back(std::move(*file));
    if (isapack::Status status =
            isapack::FindCodeObjects(files.back().bytes(), argv[i], &storage, &found);
        !status) {
      return isapack::Fail(status.error().message);
    }
  }
  isapack::Imported imported;
  if (isapack::Status status = isapack::Import(found, covered, &targets, work_dir, &imported);
      !status) {
    return isapack::Fail(status.error().message);
  }
  Json out = manifest;
  for (const Json& entry : imported.entries) out["entries"].push_back(entry);
  if (out["entries"].empty()) {
    return isapack::Fail("none of the prebuilt code objects runs on a covered target of " +
                         library +
                         " and it has no SOURCES: its catalog would be empty; add "
                         "selectors that cover them to its GPU_TARGETS");
  }
  out["build_info"]["prebuilt"] = imported.kept;
  out["build_info"]["prebuilt_left_out"] = imported.left_out;
  const std::string text = out.dump(2) + "\n";
  if (isapack::Status status = isapack::WriteFileAtomically(
          manifest_out, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
      !status) {
    return isapack::Fail(status.error().message);
  }
  for (const Json& left : imported.left_out) {
    std::cout << "isapack: " << library << ": prebuilt " << left["target_id"].get<std::string>()
              << " (" << left["from"].get<std::string>()
              << ") left out: it runs on none of the covered targets; add a selector that covers "
                 "it to the library's GPU_TARGETS to keep it\n";
  }
  return 0;
}
