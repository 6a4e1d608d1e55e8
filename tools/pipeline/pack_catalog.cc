// Build-time packer of the embedded catalog:
//   isapack_pack_catalog <manifest.json> <catalog.bin> <report.json>
// The manifest (written by cmake/IsapackDeviceLibrary.cmake) lists each
// validated code object with its target ID, version and covered targets,
// plus the build info. The code objects that differ most (one per family)
// and the metadata go into one shared LZMA2 stream; every other code object
// becomes a zstd frame against its family's representative, so the runtime
// decodes the shared block once and then only the frame it needs
// (catalog_format.h). The report records every decision and size.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "catalog.h"
#include "catalog_writer.h"
#include "code_object.h"
#include "input_file.h"
#include "output_file.h"

namespace {

using isapack::CatalogInput;
using json = nlohmann::json;

[[noreturn]] void Die(const std::string& message) {
  std::cerr << "isapack_pack_catalog: " << message << "\n";
  std::exit(1);
}

// A regular file of at most 1 GiB, checked before a byte is read.
std::vector<uint8_t> ReadFile(const std::string& path) {
  auto file = isapack::OpenSingleInputFile(path, isapack::kDefaultMaxFileSize,
                                           "the manifest or a code object it lists");
  if (!file) Die(file.error().message);
  return std::vector<uint8_t>(file->bytes().begin(), file->bytes().end());
}

void WriteOrDie(const std::string& path, std::span<const uint8_t> bytes) {
  if (isapack::Status status = isapack::WriteFileAtomically(path, bytes); !status)
    Die(status.error().message);
}

// The manifest's code objects, read and checked (each must have an ELF header).
std::vector<CatalogInput> ReadInputs(const json& manifest) {
  std::vector<CatalogInput> inputs;
  for (const json& entry : manifest.at("entries")) {
    CatalogInput input;
    input.target_id = entry.at("target_id").get<std::string>();
    for (const json& covered : entry.at("covers")) {
      input.covers += (input.covers.empty() ? "" : " ") + covered.get<std::string>();
    }
    input.code_object_version = entry.at("code_object_version").get<unsigned>();
    input.bytes = ReadFile(entry.at("path").get<std::string>());
    auto header = isapack::ReadCodeObjectHeader(input.bytes);
    if (!header) Die(input.target_id + ": " + header.error().message);
    input.e_flags = header->flags;
    inputs.push_back(std::move(input));
  }
  if (inputs.empty()) Die("the manifest lists no code objects");
  return inputs;
}

// Reads back what was laid out before it is installed: it must parse and
// each entry decompress to its code object.
void CheckRoundTrip(const std::vector<uint8_t>& catalog, const std::vector<CatalogInput>& inputs) {
  auto parsed = isapack::Catalog::Parse(catalog);
  if (!parsed) Die("the packed catalog does not parse: " + parsed.error().message);
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<uint8_t> round_trip(inputs[i].bytes.size());
    isapack::Status status = parsed->Decompress(i, round_trip);
    if (!status || round_trip != inputs[i].bytes) {
      Die(inputs[i].target_id + ": does not decompress to its code object");
    }
  }
}

int Pack(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: " << argv[0] << " <manifest.json> <catalog.bin> <report.json>\n";
    return 2;
  }
  json manifest;
  try {
    manifest = json::parse(ReadFile(argv[1]));
  } catch (const json::exception& e) {
    Die(std::string(argv[1]) + ": " + e.what());
  }
  const std::vector<CatalogInput> inputs = ReadInputs(manifest);
  const std::string build_info = manifest.at("build_info").dump();
  isapack::CatalogOptions options;
  options.zstd_level = manifest.at("zstd_level").get<int>();
  const isapack::CatalogPlan plan = isapack::BuildCatalog(inputs, build_info, options);
  CheckRoundTrip(plan.image, inputs);
  WriteOrDie(argv[2], plan.image);

  json report;
  size_t uncompressed = 0;
  size_t frames = 0;
  report["entries"] = json::array();
  for (size_t i = 0; i < inputs.size(); ++i) {
    uncompressed += inputs[i].bytes.size();
    frames += plan.frames[i].size();
    report["entries"].push_back({{"target_id", inputs[i].target_id},
                                 {"code_object_version", inputs[i].code_object_version},
                                 {"uncompressed_bytes", inputs[i].bytes.size()},
                                 {"representative", inputs[plan.representative[i]].target_id},
                                 {"alone_bytes", plan.alone_bytes[i]},
                                 {"frame_bytes", plan.frames[i].size()}});
  }
  report["zstd_level"] = options.zstd_level;
  report["lzma_properties"] = plan.lzma_properties;
  report["derived_record_fields"] = plan.derived;
  report["metadata_bytes"] = plan.metadata_bytes;
  report["shared_bytes"] = plan.shared_bytes;
  report["shared_compressed_bytes"] = plan.shared_compressed_bytes;
  report["frame_bytes"] = frames;
  report["uncompressed_bytes"] = uncompressed;
  report["build_info_bytes"] = build_info.size();
  report["catalog_bytes"] = plan.image.size();
  const std::string text = report.dump(2) + "\n";
  WriteOrDie(argv[3], std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Pack(argc, argv);
  } catch (const std::exception& e) {
    Die(e.what());
  }
}
