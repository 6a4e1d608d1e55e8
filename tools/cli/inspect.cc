#include "inspect.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string_view>

#include "catalog.h"
#include "catalog_format.h"
#include "code_object.h"
#include "kernel_metadata.h"
#include "offload_bundle.h"

namespace isapack {
namespace {

using json = nlohmann::json;

// A catalog entry's covered targets, stored space-separated, as a JSON array
// (the form every covers list of the record and the CLI has).
json SplitCovers(std::string_view covers) {
  json list = json::array();
  size_t start = 0;
  while (start < covers.size()) {
    size_t end = covers.find(' ', start);
    if (end == std::string_view::npos) end = covers.size();
    if (end > start) list.push_back(std::string(covers.substr(start, end - start)));
    start = end + 1;
  }
  return list;
}

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

bool StartsWith(std::span<const uint8_t> data, std::string_view magic) {
  return data.size() >= magic.size() && std::memcmp(data.data(), magic.data(), magic.size()) == 0;
}

constexpr std::string_view kArchiveMagic = "!<arch>\n";

std::string ArchiveError(archive* reader) {
  const char* why = archive_error_string(reader);
  return why != nullptr ? why : "no reason given";
}

class Inspector {
 public:
  // `where` names the bytes in messages: "the file", or an archive member.
  Inspector(std::span<const uint8_t> file, const InspectLimits& limits,
            std::string where = "the file", bool in_archive = false)
      : file_(file), limits_(limits), where_(std::move(where)), in_archive_(in_archive) {}

  json Run() {
    const std::string kind = Dispatch();
    json targets = json::array();
    for (const json& object : code_objects_) {
      const auto target = object.find("target_id");
      if (target != object.end() &&
          std::find(targets.begin(), targets.end(), *target) == targets.end()) {
        targets.push_back(*target);
      }
    }
    json report = json::object();
    report["schema"] = 1;
    report["kind"] = kind;
    report["size"] = file_.size();
    report["targets"] = std::move(targets);
    report["code_objects"] = std::move(code_objects_);
    report["offload_bundles"] = std::move(offload_bundles_);
    report["catalogs"] = std::move(catalogs_);
    report["errors"] = std::move(errors_);
    report["embedded_candidates_skipped"] = skipped_candidates_;
    return report;
  }

 private:
  // Sniffs the format from the first bytes and hands the file to its reader.
  std::string Dispatch() {
    std::string kind = "unknown";
    if (StartsWith(file_, kArchiveMagic) && !in_archive_) {
      ScanArchive();
      return "archive";
    }
    if (StartsWith(file_,
                   "\x7f"
                   "ELF")) {
      auto header = ReadCodeObjectHeader(file_);
      if (header && header->machine == kElfMachineAmdgpu) {
        kind = "code-object";
        AddCodeObject(file_, where_);
      } else if (header) {
        kind = "host-elf";
        ScanHostElf();
      } else {
        errors_.push_back(header.error().message);
      }
    } else if (StartsWith(file_, kOffloadBundleMagic)) {
      kind = "offload-bundle";
      AddBundle(file_, where_);
    } else if (StartsWith(file_, kCompressedBundleMagic)) {
      kind = "compressed-offload-bundle";
      AddCompressedBundle(file_, where_);
    } else if (StartsWith(file_, std::string_view(catalog_format::kMagic,
                                                  sizeof(catalog_format::kMagic)))) {
      kind = "isapack-catalog";
      AddCatalog(file_, where_);
    }
    if (kind == "unknown" || kind == "host-elf") ScanEmbeddedElf();
    return kind;
  }

  // A static library (`ar` archive, read with libarchive): each member is
  // inspected as a file of its own; archives inside are not opened.
  void ScanArchive() {
    std::unique_ptr<archive, decltype(&archive_read_free)> reader(archive_read_new(),
                                                                  archive_read_free);
    archive_read_support_format_ar(reader.get());
    if (archive_read_open_memory(reader.get(), file_.data(), file_.size()) != ARCHIVE_OK) {
      errors_.push_back(where_ + ": not a readable ar archive: " + ArchiveError(reader.get()));
      return;
    }
    archive_entry* entry = nullptr;
    int result;
    while ((result = archive_read_next_header(reader.get(), &entry)) == ARCHIVE_OK) {
      const char* name = archive_entry_pathname(entry);
      const std::string member = "archive member '" + std::string(name ? name : "?") + "'";
      // The member lies within the archive, so its size is bounded by the file's.
      std::vector<uint8_t> bytes;
      uint8_t block[16384];
      la_ssize_t got;
      while ((got = archive_read_data(reader.get(), block, sizeof(block))) > 0) {
        bytes.insert(bytes.end(), block, block + got);
      }
      if (got < 0) {
        errors_.push_back(member + ": damaged ar archive: " + ArchiveError(reader.get()));
        return;
      }
      MergeMember(Inspector(bytes, limits_, member, /*in_archive=*/true).Run(), member);
    }
    if (result != ARCHIVE_EOF) {
      errors_.push_back(where_ + ": damaged ar archive: " + ArchiveError(reader.get()));
    }
  }

  void MergeMember(const json& report, const std::string& member) {
    // Locations inside a member name it ("archive member 'a.o': section .hip_fatbin").
    auto located = [&](json part) {
      const std::string location = part.value("location", std::string());
      if (location.find(member) == std::string::npos) part["location"] = member + ": " + location;
      return part;
    };
    for (const json& object : report.at("code_objects")) {
      if (code_objects_.size() < limits_.max_code_objects) code_objects_.push_back(located(object));
    }
    for (const json& bundle : report.at("offload_bundles"))
      offload_bundles_.push_back(located(bundle));
    for (const json& catalog : report.at("catalogs")) catalogs_.push_back(located(catalog));
    for (const json& error : report.at("errors")) {
      const std::string text = error.get<std::string>();
      errors_.push_back(text.rfind(member, 0) == 0 ? text : member + ": " + text);
    }
    skipped_candidates_ += report.at("embedded_candidates_skipped").get<size_t>();
  }

  // File offset of a span inside the file, or npos when it is elsewhere
  // (decompressed data).
  size_t OffsetOf(std::span<const uint8_t> part) const { return OffsetOf(part.data()); }
  size_t OffsetOf(const uint8_t* at) const {
    if (at >= file_.data() && at < file_.data() + file_.size()) {
      return static_cast<size_t>(at - file_.data());
    }
    return std::string::npos;
  }

  void AddCodeObject(std::span<const uint8_t> image, const std::string& location) {
    if (code_objects_.size() >= limits_.max_code_objects) {
      if (!truncated_)
        errors_.push_back("more than " + std::to_string(limits_.max_code_objects) +
                          " code objects; the rest are not reported");
      truncated_ = true;
      return;
    }
    if (const size_t offset = OffsetOf(image); offset != std::string::npos) seen_.insert(offset);
    json object = {{"location", location}, {"size", image.size()}};
    auto header = ReadCodeObjectHeader(image);
    if (!header) {
      object["error"] = header.error().message;
      code_objects_.push_back(std::move(object));
      return;
    }
    object["code_object_version"] = header->code_object_version;
    object["e_flags"] = Hex(header->flags);
    object["xnack"] = std::string(ToString(header->xnack));
    object["sramecc"] = std::string(ToString(header->sramecc));
    object["generic_version"] = header->generic_version;
    if (header->code_object_version == 0 && header->os_abi == kElfOsAbiAmdgpuHsa) {
      // Code object v1/v2: the version and ISA live in "AMD" notes.
      auto legacy = ReadLegacyCodeObjectInfo(image);
      if (!legacy) {
        object["error"] = legacy.error().message;
      } else {
        object["code_object_version"] = legacy->code_object_major;
        object["isa_version"] = std::to_string(legacy->isa.major) + "." +
                                std::to_string(legacy->isa.minor) + "." +
                                std::to_string(legacy->isa.stepping);
        if (legacy->processor != nullptr) {
          object["target_id"] = std::string(legacy->processor->name);
        } else {
          // Not damage: the HSAIL-era finalizer used ISA versions such as
          // 8.0.0 that no LLVM processor has.
          object["note"] = "legacy ISA " + object["isa_version"].get<std::string>() +
                           " has no LLVM processor; the HSAIL-era finalizer targeted it";
        }
      }
    } else if (auto id = TargetIdOfHeader(*header)) {
      object["target_id"] = id->ToString();
    } else {
      object["error"] = id.error().message;
    }
    json kernels = json::array();
    if (!limits_.kernels) {
      // The caller wants only the targets (isapack coverage).
    } else if (auto note = FindMetadataNote(image); !note) {
      object["error"] = note.error().message;
    } else if (!note->empty()) {
      if (auto metadata = ReadMetadataNote(*note)) {
        object["metadata_target"] = metadata->target;
        for (const KernelMetadata& k : metadata->kernels) {
          kernels.push_back({{"name", k.name},
                             {"symbol", k.symbol},
                             {"kernarg_segment_size", k.kernarg_segment_size},
                             {"group_segment_fixed_size", k.group_segment_fixed_size},
                             {"private_segment_fixed_size", k.private_segment_fixed_size},
                             {"wavefront_size", k.wavefront_size}});
        }
      } else {
        object["error"] = metadata.error().message;
      }
    }
    object["kernels"] = std::move(kernels);
    code_objects_.push_back(std::move(object));
  }

  void AddBundle(std::span<const uint8_t> bundle, const std::string& location) {
    json report = {{"location", location}, {"compressed", false}};
    AddBundleEntries(bundle, location, &report);
    offload_bundles_.push_back(std::move(report));
  }

  void AddBundleEntries(std::span<const uint8_t> bundle, const std::string& location,
                        json* report) {
    auto entries = ParseOffloadBundle(bundle);
    if (!entries) {
      (*report)["error"] = entries.error().message;
      errors_.push_back(location + ": " + entries.error().message);
      return;
    }
    json list = json::array();
    for (const BundleEntry& entry : *entries) {
      list.push_back({{"id", std::string(entry.id)}, {"size", entry.payload.size()}});
      if (!BundleEntryTarget(entry.id).empty() && !entry.payload.empty()) {
        AddCodeObject(entry.payload, "bundle entry '" + std::string(entry.id) + "' of " + location);
      }
    }
    (*report)["entries"] = std::move(list);
  }

  void AddCompressedBundle(std::span<const uint8_t> data, const std::string& location) {
    json report = {{"location", location}, {"compressed", true}};
    auto header = ParseCompressedBundleHeader(data);
    if (!header) {
      report["error"] = header.error().message;
      errors_.push_back(location + ": " + header.error().message);
      offload_bundles_.push_back(std::move(report));
      return;
    }
    report["version"] = header->version;
    report["method"] = header->method == 1 ? "zstd" : "zlib";
    report["uncompressed_size"] = header->uncompressed_size;
    if (!limits_.kernels) {
      AddCompressedBundleTargets(data, location, &report);
      offload_bundles_.push_back(std::move(report));
      return;
    }
    auto decompressed = DecompressBundle(data, limits_.max_decompressed_bundle);
    if (!decompressed) {
      report["error"] = decompressed.error().message;
      errors_.push_back(location + ": " + decompressed.error().message);
      offload_bundles_.push_back(std::move(report));
      return;
    }
    // The entries point into this copy; keep it as long as the report needs it.
    decompressed_.push_back(std::move(*decompressed));
    AddBundleEntries(decompressed_.back(), location, &report);
    offload_bundles_.push_back(std::move(report));
  }

  // Every device library a program links (isapack_add_device_library) puts
  // its catalog in .isapack_catalog, each 64-byte aligned: one after the
  // other, each found by its own recorded size.
  void AddSectionCatalogs(std::span<const uint8_t> contents, const std::string& where) {
    for (size_t at = 0; at < contents.size();) {
      if (contents[at] == 0) {  // alignment padding
        ++at;
        continue;
      }
      const auto rest = contents.subspan(at);
      AddCatalog(rest, at == 0 ? where : where + " + " + Hex(at));
      auto catalog = Catalog::Parse(rest);
      if (!catalog) return;  // its error is reported; the rest cannot be found
      at += catalog->image().size();
    }
  }

  void AddCatalog(std::span<const uint8_t> data, const std::string& location) {
    json report = {{"location", location}};
    auto catalog = Catalog::Parse(data);
    if (!catalog) {
      report["error"] = catalog.error().message;
      errors_.push_back(location + ": " + catalog.error().message);
      catalogs_.push_back(std::move(report));
      return;
    }
    json entries = json::array();
    for (size_t i = 0; i < catalog->size(); ++i) {
      const CatalogEntry e = catalog->entry(i);
      json entry = {{"target_id", std::string(e.target_id)},
                    {"covers", SplitCovers(e.covers)},
                    {"code_object_version", e.code_object_version},
                    {"compressed_size", e.stored_size()},
                    {"representative", e.representative()},
                    {"uncompressed_size", e.uncompressed_size}};
      std::vector<uint8_t> image(e.uncompressed_size);
      if (Status status = catalog->Decompress(i, image); status) {
        entry["verified"] = true;
        AddCodeObject(image, "catalog entry " + std::to_string(i) + " of " + location);
        // The image is a temporary copy: its location is the catalog entry.
      } else {
        entry["verified"] = false;
        entry["error"] = status.error().message;
        errors_.push_back(status.error().message);
      }
      entries.push_back(std::move(entry));
    }
    report["entries"] = std::move(entries);
    report["zstd_level"] = catalog->zstd_level();
    report["shared_stream_size"] = catalog->shared_stream().size();
    report["shared_block_size"] = catalog->shared_block().size();
    json build_info = json::parse(catalog->build_info(), nullptr, /*allow_exceptions=*/false);
    report["build_info"] = build_info.is_discarded() ? json(std::string(catalog->build_info()))
                                                     : std::move(build_info);
    catalogs_.push_back(std::move(report));
  }

  void ScanHostElf() {
    auto sections = ReadElfSections(file_);
    if (!sections) {
      errors_.push_back(sections.error().message);
      return;
    }
    for (const ElfSection& section : *sections) {
      if (section.type == 8 /* SHT_NOBITS */) continue;
      const auto contents = file_.subspan(section.offset, section.size);
      const std::string where = "section " + std::string(section.name);
      if (section.name == ".isapack_catalog") {
        AddSectionCatalogs(contents, where);
        read_sections_.push_back({section.offset, section.offset + contents.size()});
      } else if (section.name == ".hip_fatbin") {
        ScanForBundles(contents, where);
        read_sections_.push_back({section.offset, section.offset + contents.size()});
      }
    }
  }

  // Only the targets (isapack coverage): the entry table is decompressed and
  // nothing else, except the ELF header of a generic entry (its generic
  // version is in e_flags). An exact entry's target is its ID's, as HIP's
  // runtime matches it; the code objects are neither decompressed nor kept.
  void AddCompressedBundleTargets(std::span<const uint8_t> data, const std::string& location,
                                  json* report) {
    auto is_generic = [](std::string_view id) {
      return BundleEntryTarget(id).find("-generic") != std::string_view::npos;
    };
    auto entries =
        ReadCompressedBundleEntries(data, is_generic, 64, limits_.max_decompressed_bundle);
    if (!entries) {
      (*report)["error"] = entries.error().message;
      errors_.push_back(location + ": " + entries.error().message);
      return;
    }
    json list = json::array();
    for (const CompressedBundleEntry& entry : *entries) {
      list.push_back({{"id", entry.id}, {"size", entry.size}});
      const std::string_view target = BundleEntryTarget(entry.id);
      if (target.empty() || entry.size == 0) continue;
      const std::string where = "bundle entry '" + entry.id + "' of " + location;
      if (code_objects_.size() >= limits_.max_code_objects) break;
      json object = {{"location", where}, {"size", entry.size}};
      if (!entry.head.empty()) {
        auto header = ReadCodeObjectHeader(entry.head);
        auto id = header ? TargetIdOfHeader(*header) : Expected<TargetId>(header.take_error());
        if (!id) {
          object["error"] = id.error().message;
        } else {
          object["target_id"] = id->ToString();
          object["generic_version"] = header->generic_version;
        }
      } else {
        TargetId id;
        const TargetIdParse parse = ParseTargetId(target, &id);
        if (parse.error == TargetIdError::kOk) {
          object["target_id"] = id.ToString();
        } else {
          object["error"] = "entry ID '" + entry.id + "': " + DescribeTargetIdError(target, parse);
        }
      }
      code_objects_.push_back(std::move(object));
    }
    (*report)["entries"] = std::move(list);
  }

  // HIP's .hip_fatbin holds one or more bundles back to back (one per
  // linked object, each aligned, zero bytes between). Each bundle's own size
  // says where the next begins: a compressed bundle's header records it, an
  // uncompressed one ends with its last entry. Nothing scans for a magic.
  void ScanForBundles(std::span<const uint8_t> contents, const std::string& where) {
    size_t at = 0;
    while (at < contents.size()) {
      if (contents[at] == 0) {  // alignment padding
        ++at;
        continue;
      }
      const auto rest = contents.subspan(at);
      const std::string location = where + " + " + Hex(at);
      size_t size = 0;
      if (StartsWith(rest, kOffloadBundleMagic)) {
        size = BundleExtent(rest);
        AddBundle(rest.first(size), location);
      } else if (StartsWith(rest, kCompressedBundleMagic)) {
        size = BundleExtent(rest);  // v1 records no size: the rest
        AddCompressedBundle(rest.first(size), location);
      } else {
        errors_.push_back(location + ": neither an offload bundle nor padding; the rest of " +
                          where + " is not read");
        return;
      }
      if (limits_.release_mapped_pages) AdvisePages(rest.first(size), MADV_DONTNEED);
      at += size;
    }
  }

  // Advice on the pages of the file mapping that hold `part`. MADV_DONTNEED
  // drops them from this process (they are re-read from the page cache if
  // touched again; nothing is written to a read-only mapping).
  static void AdvisePages(std::span<const uint8_t> part, int advice) {
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const uintptr_t begin = reinterpret_cast<uintptr_t>(part.data()) / page * page;
    const uintptr_t end = reinterpret_cast<uintptr_t>(part.data() + part.size());
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, advice);
  }

  // Raw ELF images embedded in the file (ROCr keeps its blit kernels so).
  void ScanEmbeddedElf() {
    const uint8_t magic[4] = {0x7f, 'E', 'L', 'F'};
    if (file_.size() < 64)
      return;  // no room for an ELF header; data() may be null (an empty member)
    // The sections their own readers read (.hip_fatbin, .isapack_catalog)
    // are not searched again: a large library's bundles are mapped, and
    // their pages are never touched beyond what those readers need.
    std::sort(read_sections_.begin(), read_sections_.end());
    size_t skip = 0;
    const uint8_t* begin = file_.data();
    const uint8_t* end = begin + file_.size();
    for (const uint8_t* at = begin + 1; at + 64 <= end;) {
      while (skip < read_sections_.size() && read_sections_[skip].second <= OffsetOf(at)) ++skip;
      const uint8_t* stop =
          skip < read_sections_.size() && read_sections_[skip].first > OffsetOf(at)
              ? begin + read_sections_[skip].first
              : end;
      if (skip < read_sections_.size() && read_sections_[skip].first <= OffsetOf(at)) {
        at = begin + read_sections_[skip].second;  // inside a read section: past it
        continue;
      }
      const uint8_t* found =
          static_cast<const uint8_t*>(memmem(at, static_cast<size_t>(stop - at), magic, 4));
      if (found == nullptr) {
        at = stop;
        if (stop == end) break;
        continue;
      }
      at = found;
      if (at + 64 > end) break;
      const size_t offset = static_cast<size_t>(at - begin);
      const auto candidate = file_.subspan(offset);
      auto header = ReadCodeObjectHeader(candidate);
      if (header && header->machine == kElfMachineAmdgpu && seen_.count(offset) == 0) {
        // A scan finds ELF magic in string constants too: a candidate that
        // does not hold together is skipped (and counted), not an error.
        if (auto size = ElfImageSize(candidate)) {
          AddCodeObject(candidate.first(*size), "embedded ELF image at file offset " + Hex(offset));
        } else {
          ++skipped_candidates_;
        }
      }
      ++at;
    }
  }

  std::span<const uint8_t> file_;
  const InspectLimits& limits_;
  const std::string where_;
  const bool in_archive_;
  json code_objects_ = json::array();
  json offload_bundles_ = json::array();
  json catalogs_ = json::array();
  json errors_ = json::array();
  std::set<size_t> seen_;
  std::vector<std::pair<uint64_t, uint64_t>> read_sections_;  // [begin, end) file offsets
  std::vector<std::vector<uint8_t>> decompressed_;
  size_t skipped_candidates_ = 0;
  bool truncated_ = false;
};

std::string Thousands(uint64_t value) {
  std::string digits = std::to_string(value), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string KindText(const std::string& kind) {
  if (kind == "code-object") return "AMDGPU code object";
  if (kind == "offload-bundle") return "clang offload bundle";
  if (kind == "compressed-offload-bundle") return "compressed clang offload bundle (CCOB)";
  if (kind == "isapack-catalog") return "isapack catalog";
  if (kind == "host-elf") return "host ELF file";
  if (kind == "archive") return "static library (ar archive)";
  return "file of unknown type";
}

}  // namespace

json InspectBytes(std::span<const uint8_t> data, const InspectLimits& limits) {
  return Inspector(data, limits).Run();
}

std::string FormatInspectReport(const std::string& path, const json& report) {
  std::string text = path + ": " + KindText(report.at("kind").get<std::string>()) + ", " +
                     Thousands(report.at("size").get<uint64_t>()) + " bytes\n";
  const json& targets = report.at("targets");
  if (targets.empty()) {
    text += "  no AMDGPU code objects found\n";
  } else {
    std::string list;
    for (const json& target : targets) list += " " + target.get<std::string>();
    text += "  GPU targets (" + std::to_string(targets.size()) + "):" + list + "\n";
  }
  for (const json& bundle : report.at("offload_bundles")) {
    text += "  " +
            std::string(bundle.at("compressed").get<bool>() ? "compressed offload bundle"
                                                            : "offload bundle") +
            " in " + bundle.at("location").get<std::string>();
    if (bundle.contains("method")) {
      text += " (CCOB v" + std::to_string(bundle.at("version").get<int>()) + ", " +
              bundle.at("method").get<std::string>() + ")";
    }
    if (bundle.contains("entries"))
      text += ": " + std::to_string(bundle.at("entries").size()) + " entries";
    text += "\n";
  }
  for (const json& catalog : report.at("catalogs")) {
    text += "  isapack catalog in " + catalog.at("location").get<std::string>();
    if (catalog.contains("entries"))
      text += ": " + std::to_string(catalog.at("entries").size()) + " entries";
    text += "\n";
  }
  for (const json& object : report.at("code_objects")) {
    text += "  code object: ";
    if (object.contains("target_id")) {
      text += object.at("target_id").get<std::string>() + ", code object v" +
              std::to_string(object.at("code_object_version").get<unsigned>()) + ", e_flags " +
              object.at("e_flags").get<std::string>() + ", xnack " +
              object.at("xnack").get<std::string>() + ", sramecc " +
              object.at("sramecc").get<std::string>();
      if (object.at("generic_version").get<unsigned>() != 0) {
        text += ", generic version " + std::to_string(object.at("generic_version").get<unsigned>());
      }
    } else if (object.contains("isa_version")) {
      text += "ISA " + object.at("isa_version").get<std::string>() + ", code object v" +
              std::to_string(object.at("code_object_version").get<unsigned>()) + " (" +
              object.value("note", std::string("legacy format")) + ")";
    } else {
      text += "unidentified";
    }
    text += "\n    in " + object.at("location").get<std::string>() + ", " +
            Thousands(object.at("size").get<uint64_t>()) + " bytes\n";
    if (object.contains("kernels") && !object.at("kernels").empty()) {
      std::string kernels;
      for (const json& k : object.at("kernels")) {
        kernels += (kernels.empty() ? "" : ", ") + k.at("name").get<std::string>() + " (kernarg " +
                   std::to_string(k.at("kernarg_segment_size").get<uint64_t>()) + " bytes)";
      }
      text += "    kernels: " + kernels + "\n";
    }
    if (object.contains("error"))
      text += "    error: " + object.at("error").get<std::string>() + "\n";
  }
  for (const json& error : report.at("errors"))
    text += "  error: " + error.get<std::string>() + "\n";
  return text;
}

}  // namespace isapack
