// Build-time packer of the embedded catalog:
//   isapack_pack_catalog <manifest.json> <catalog.bin> <report.json>
// The manifest (written by cmake/IsapackDeviceLibrary.cmake) lists each
// validated code object with its target ID, version and covered targets,
// plus the build info. Each code object becomes one zstd frame so the runtime
// decompresses only the one it needs. The packer measures whether a zstd
// dictionary trained on the set, or a higher level, makes the catalog smaller
// and keeps whichever is smallest; the report records every number.
#include <zstd.h>
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

using isapack::CatalogEncoding;
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

// Candidates: the configured level, the maximum level, and the configured
// level with a dictionary of a few sizes. The smallest total (dictionary
// included) wins; ties keep the simpler encoding (earlier in this list).
// Every candidate is recorded in report["candidates"].
CatalogEncoding SmallestEncoding(const std::vector<CatalogInput>& inputs, int base_level,
                                 json* report) {
  (*report)["candidates"] = json::array();
  std::vector<CatalogEncoding> candidates;
  std::vector<int> levels = {base_level};
  if (ZSTD_maxCLevel() != base_level) levels.push_back(ZSTD_maxCLevel());
  for (int level : levels) {
    candidates.push_back(isapack::EncodeCatalog(inputs, level));
    (*report)["candidates"].push_back(
        {{"level", level}, {"dictionary_bytes", 0}, {"total_bytes", candidates.back().total()}});
  }
  size_t sample_bytes = 0;
  for (const CatalogInput& input : inputs) sample_bytes += input.bytes.size();
  for (size_t capacity : {size_t{2048}, size_t{4096}, size_t{8192}, size_t{16384}}) {
    if (capacity >= sample_bytes) break;
    std::string reason;
    auto dictionary = isapack::TrainDictionary(inputs, capacity, &reason);
    if (!dictionary) {
      (*report)["candidates"].push_back({{"dictionary_capacity", capacity}, {"error", reason}});
      continue;
    }
    candidates.push_back(isapack::EncodeCatalog(inputs, base_level, *dictionary));
    (*report)["candidates"].push_back({{"level", base_level},
                                       {"dictionary_capacity", capacity},
                                       {"dictionary_bytes", candidates.back().dictionary.size()},
                                       {"total_bytes", candidates.back().total()}});
  }
  size_t best = 0;
  for (size_t i = 1; i < candidates.size(); ++i) {
    if (candidates[i].total() < candidates[best].total()) best = i;
  }
  return std::move(candidates[best]);
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
  json report;
  const CatalogEncoding chosen =
      SmallestEncoding(inputs, manifest.at("zstd_level").get<int>(), &report);
  const std::vector<uint8_t> catalog = isapack::LayoutCatalog(inputs, chosen, build_info);
  CheckRoundTrip(catalog, inputs);
  WriteOrDie(argv[2], catalog);

  size_t uncompressed = 0;
  report["entries"] = json::array();
  for (size_t i = 0; i < inputs.size(); ++i) {
    uncompressed += inputs[i].bytes.size();
    report["entries"].push_back({{"target_id", inputs[i].target_id},
                                 {"code_object_version", inputs[i].code_object_version},
                                 {"uncompressed_bytes", inputs[i].bytes.size()},
                                 {"compressed_bytes", chosen.frames[i].size()}});
  }
  report["zstd_level"] = chosen.level;
  report["dictionary_bytes"] = chosen.dictionary.size();
  report["uncompressed_bytes"] = uncompressed;
  report["compressed_bytes"] = chosen.total();
  report["build_info_bytes"] = build_info.size();
  report["catalog_bytes"] = catalog.size();
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
