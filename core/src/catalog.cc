#include "catalog.h"

#include <lzma.h>
#include <xxhash.h>
#include <zstd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bounded_read.h"
#include "catalog_format.h"

namespace isapack {
namespace {

namespace format = catalog_format;
using json = nlohmann::json;

Error Corrupt(std::string message) {
  return MakeError(ISAPACK_STATUS_DATA_CORRUPT, "catalog: " + std::move(message));
}

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

struct DctxDeleter {
  void operator()(ZSTD_DCtx* dctx) const { ZSTD_freeDCtx(dctx); }
};

uint64_t TocEnd(const format::FileHeader& header) {
  return sizeof(format::FileHeader) + uint64_t{header.entry_count} * sizeof(format::Entry) +
         header.shared_compressed_size;
}

// The LZMA2 options a header's properties byte names, or nullopt when the
// byte is not a valid LZMA2 lc/lp/pb combination (lc + lp <= 4, pb <= 4).
bool Lzma2Options(uint8_t properties, uint64_t shared_size, lzma_options_lzma* options) {
  if (properties >= 9 * 5 * 5) return false;
  *options = lzma_options_lzma{};
  options->lc = properties % 9;
  options->lp = (properties / 9) % 5;
  options->pb = properties / 45;
  if (options->lc + options->lp > 4) return false;
  options->dict_size = format::Lzma2DictionarySize(shared_size);
  return true;
}

// The file header, checked: magic, version, sizes, bounds and the table of
// contents' hash.
Expected<format::FileHeader> CheckedHeader(std::span<const uint8_t> image) {
  if (image.size() < sizeof(format::FileHeader)) {
    return Corrupt("image of " + std::to_string(image.size()) +
                   " bytes is shorter than its header");
  }
  format::FileHeader header;
  std::memcpy(&header, image.data(), sizeof(header));
  if (std::memcmp(header.magic, format::kMagic, sizeof(format::kMagic)) != 0) {
    return Corrupt("bad magic; this is not an isapack catalog");
  }
  if (header.format_version > format::kFormatVersion) {
    return Corrupt("format version " + std::to_string(header.format_version) +
                   " was written by a newer isapack (this one reads version " +
                   std::to_string(format::kFormatVersion) +
                   "); upgrade isapack to read it, or rebuild the catalog with this one");
  }
  if (header.format_version != format::kFormatVersion) {
    return Corrupt("format version " + std::to_string(header.format_version) +
                   " was written by an older isapack (this one reads version " +
                   std::to_string(format::kFormatVersion) +
                   "); rebuild the catalog with this isapack");
  }
  if (header.entry_count > format::kMaxEntries) {
    return Corrupt(std::to_string(header.entry_count) + " entries exceed the limit of " +
                   std::to_string(format::kMaxEntries));
  }
  if (header.total_size > image.size()) {
    return Corrupt("records " + std::to_string(header.total_size) + " bytes but only " +
                   std::to_string(image.size()) + " are present (truncated)");
  }
  const uint64_t toc_end = TocEnd(header);
  if (toc_end > header.total_size) {
    return Corrupt("table of contents lies outside the catalog");
  }
  const uint64_t toc_hash = TableOfContentsHash(image, toc_end);
  if (toc_hash != header.toc_hash) {
    return Corrupt("table of contents fails its XXH3-64 check (expected " + Hex(header.toc_hash) +
                   ", got " + Hex(toc_hash) + "); the data is damaged");
  }
  lzma_options_lzma options;
  if (header.shared_codec != format::kCodecLzma2 ||
      !Lzma2Options(header.lzma_properties, header.shared_size, &options)) {
    return Corrupt("shared stream uses codec " + std::to_string(header.shared_codec) +
                   " with properties " + std::to_string(header.lzma_properties) +
                   "; this isapack reads LZMA2 (codec 1)");
  }
  if (header.shared_size > format::kMaxSharedSize || header.metadata_size == 0 ||
      header.metadata_size > header.shared_size || header.shared_compressed_size == 0) {
    return Corrupt("records a shared block of " + std::to_string(header.shared_size) + " bytes (" +
                   std::to_string(header.metadata_size) + " of metadata); the limit is " +
                   std::to_string(format::kMaxSharedSize));
  }
  return header;
}

// One table-of-contents entry, checked against the catalog's bounds and the
// other entries (`all`: every entry of the table).
Status CheckEntry(const format::FileHeader& header, std::span<const format::Entry> all, size_t i) {
  const format::Entry& e = all[i];
  const std::string where = "entry " + std::to_string(i);
  if (e.size == 0 || e.size > format::kMaxCodeObjectSize) {
    return Corrupt(where + ": records a code object of " + std::to_string(e.size) + " bytes");
  }
  if (e.reserved != 0) return Corrupt(where + ": has reserved bits set");
  if (e.representative == i) {
    if (e.frame_size != 0 || e.frame_xxh3_64 != 0) {
      return Corrupt(where + ": is a representative with a delta frame");
    }
    if (e.offset < header.metadata_size || !InBounds(e.offset, e.size, header.shared_size)) {
      return Corrupt(where + ": its bytes lie outside the shared block");
    }
    return {};
  }
  if (e.representative >= all.size() || all[e.representative].representative != e.representative) {
    return Corrupt(where + ": names entry " + std::to_string(e.representative) +
                   " as its representative, which is not one");
  }
  if (e.frame_size == 0) return Corrupt(where + ": its frame is empty");
  if (e.offset < TocEnd(header) || !InBounds(e.offset, e.frame_size, header.total_size)) {
    return Corrupt(where + ": its frame lies outside the catalog");
  }
  return {};
}

// Decodes the shared stream into exactly header.shared_size bytes.
Status DecodeShared(const format::FileHeader& header, std::span<const uint8_t> stream,
                    std::vector<uint8_t>* shared) {
  lzma_options_lzma options;
  Lzma2Options(header.lzma_properties, header.shared_size, &options);  // checked already
  const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
  shared->resize(header.shared_size);
  size_t in_pos = 0;
  size_t out_pos = 0;
  const lzma_ret ret =
      lzma_raw_buffer_decode(filters, nullptr, stream.data(), &in_pos, stream.size(),
                             shared->data(), &out_pos, shared->size());
  if (ret != LZMA_OK || in_pos != stream.size() || out_pos != shared->size()) {
    return Corrupt("shared stream does not decode to the recorded " +
                   std::to_string(header.shared_size) + " bytes (LZMA2 status " +
                   std::to_string(static_cast<int>(ret)) + " after " + std::to_string(out_pos) +
                   " bytes); the data is damaged");
  }
  return {};
}

std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find(' ', at), text.size());
    if (end > at) words.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return words;
}

// The order of a build record's covered_targets: by processor name length
// (gfx9xx before gfx10xx), then by name.
bool CoverageOrder(const std::string& a, const std::string& b) {
  const std::string pa = a.substr(0, a.find(':'));
  const std::string pb = b.substr(0, b.find(':'));
  if (pa.size() != pb.size()) return pa.size() < pb.size();
  return pa != pb ? pa < pb : a < b;
}

// Rebuilds the record fields a catalog derives from its entries rather than
// storing them twice: "code_objects" (each entry's target ID, covered
// targets, version and file name) and "covered_targets" (every covered
// target, in processor order). The writer stores a field as derived only
// when this rebuilds it exactly.
std::string CompleteBuildRecord(json record, const std::string& derived,
                                const std::vector<CatalogEntry>& entries) {
  const std::vector<std::string> names = Words(derived);
  const auto derives = [&](const char* field) {
    return std::find(names.begin(), names.end(), field) != names.end();
  };
  if (derives("code_objects")) {
    json objects = json::array();
    for (const CatalogEntry& e : entries) {
      objects.push_back({{"code_object_version", e.code_object_version},
                         {"covers", Words(std::string(e.covers))},
                         {"file", "amdgcn-amd-amdhsa--" + std::string(e.target_id) + ".hsaco"},
                         {"target_id", std::string(e.target_id)}});
    }
    record["code_objects"] = std::move(objects);
  }
  if (derives("covered_targets")) {
    std::vector<std::string> covered;
    for (const CatalogEntry& e : entries) {
      for (std::string& target : Words(std::string(e.covers))) {
        if (std::find(covered.begin(), covered.end(), target) == covered.end()) {
          covered.push_back(std::move(target));
        }
      }
    }
    std::sort(covered.begin(), covered.end(), CoverageOrder);
    record["covered_targets"] = covered;
  }
  return record.dump();
}

}  // namespace

uint64_t TableOfContentsHash(std::span<const uint8_t> image, uint64_t toc_end) {
  std::vector<uint8_t> toc(image.begin(), image.begin() + static_cast<std::ptrdiff_t>(toc_end));
  std::memset(toc.data() + offsetof(format::FileHeader, toc_hash), 0, sizeof(uint64_t));
  return XXH3_64bits(toc.data(), toc.size());
}

Expected<Catalog> Catalog::Parse(std::span<const uint8_t> image) {
  auto checked = CheckedHeader(image);
  if (!checked) return checked.take_error();
  const format::FileHeader& header = *checked;
  Catalog catalog;
  catalog.image_ = image.subspan(0, header.total_size);
  catalog.zstd_level_ = header.zstd_level;
  const uint64_t entries_end =
      sizeof(format::FileHeader) + uint64_t{header.entry_count} * sizeof(format::Entry);
  catalog.shared_stream_ = catalog.image_.subspan(entries_end, header.shared_compressed_size);
  std::vector<format::Entry> raw(header.entry_count);
  for (size_t i = 0; i < raw.size(); ++i) {
    std::memcpy(&raw[i], image.data() + sizeof(format::FileHeader) + i * sizeof(format::Entry),
                sizeof(format::Entry));
  }
  for (size_t i = 0; i < raw.size(); ++i) {
    if (Status status = CheckEntry(header, raw, i); !status) return status.take_error();
  }
  auto decoded = std::make_shared<Decoded>();  // filled in place: views point into it
  if (Status status = DecodeShared(header, catalog.shared_stream_, &decoded->shared); !status) {
    return status.take_error();
  }
  const json metadata =
      json::parse(decoded->shared.begin(), decoded->shared.begin() + header.metadata_size, nullptr,
                  /*allow_exceptions=*/false);
  const auto bad_metadata = [&](const std::string& why) {
    return Corrupt("metadata of the shared block " + why + "; the data is damaged");
  };
  if (!metadata.is_object() || !metadata.contains("entries") || !metadata["entries"].is_array() ||
      !metadata.contains("record") || !metadata["record"].is_object()) {
    return bad_metadata("is not the expected JSON object");
  }
  const json& listed = metadata["entries"];
  if (listed.size() != raw.size()) {
    return bad_metadata("lists " + std::to_string(listed.size()) + " entries, the table " +
                        std::to_string(raw.size()));
  }
  decoded->strings.reserve(2 * raw.size());
  for (const json& item : listed) {
    if (!item.is_array() || item.size() != 4 || !item[0].is_string() || !item[1].is_string() ||
        !item[2].is_number_unsigned() || !item[3].is_number_unsigned() ||
        item[0].get_ref<const std::string&>().empty() || item[2].get<uint64_t>() < 2 ||
        item[2].get<uint64_t>() > 6 || item[3].get<uint64_t>() > UINT32_MAX) {
      return bad_metadata("has a malformed entry");
    }
    decoded->strings.push_back(item[0].get<std::string>());
    decoded->strings.push_back(item[1].get<std::string>());
  }
  const uint8_t* shared = decoded->shared.data();
  for (size_t i = 0; i < raw.size(); ++i) {
    const format::Entry& e = raw[i];
    CatalogEntry entry;
    entry.target_id = decoded->strings[2 * i];
    entry.covers = decoded->strings[2 * i + 1];
    if (ParseTargetId(entry.target_id, &entry.target).error != TargetIdError::kOk) {
      entry.target = TargetId{};
    }
    entry.code_object_version = listed[i][2].get<unsigned>();
    entry.e_flags = listed[i][3].get<uint32_t>();
    const format::Entry& base = raw[e.representative];
    entry.representative_index = e.representative;
    entry.base = std::span<const uint8_t>(shared + base.offset, base.size);
    if (e.representative != i) entry.frame = catalog.image_.subspan(e.offset, e.frame_size);
    entry.frame_xxh3_64 = e.frame_xxh3_64;
    entry.uncompressed_size = e.size;
    entry.xxh3_64 = e.xxh3_64;
    if (entry.representative()) {
      // Checked once here: a load then copies verified bytes.
      const uint64_t hash = XXH3_64bits(entry.base.data(), entry.base.size());
      if (hash != entry.xxh3_64) {
        return Corrupt("entry " + std::to_string(i) + " (" + std::string(entry.target_id) +
                       "): its representative fails its XXH3-64 check (expected " +
                       Hex(entry.xxh3_64) + ", got " + Hex(hash) + "); the data is damaged");
      }
    }
    decoded->entries.push_back(entry);
  }
  std::string derived;
  if (metadata.contains("derived") && metadata["derived"].is_array()) {
    for (const json& name : metadata["derived"]) {
      if (name.is_string()) derived += name.get<std::string>() + " ";
    }
  }
  decoded->build_info = CompleteBuildRecord(metadata["record"], derived, decoded->entries);
  catalog.decoded_ = std::move(decoded);
  return catalog;
}

Status Catalog::Decompress(size_t index, std::span<uint8_t> out) const {
  return Decode(index, out, /*check_output=*/true);
}

Status Catalog::Decode(size_t index, std::span<uint8_t> out, bool check_output) const {
  if (index >= size()) {
    return MakeError(ISAPACK_STATUS_NOT_FOUND, "catalog has no entry " + std::to_string(index));
  }
  const CatalogEntry& e = decoded_->entries[index];
  const auto where = [&] {
    return "catalog entry " + std::to_string(index) + " (" + std::string(e.target_id) + "): ";
  };
  if (out.size() < e.uncompressed_size) {
    return MakeError(
        ISAPACK_STATUS_INVALID_ARGUMENT,
        where() + "needs a buffer of " + std::to_string(e.uncompressed_size) + " bytes");
  }
  if (e.representative()) {
    std::memcpy(out.data(), e.base.data(), e.uncompressed_size);
    return {};
  }
  // The frame must match its check, declare exactly the recorded size and
  // end exactly where the entry does: no decompression past the buffer, no
  // trailing data.
  const uint64_t frame_hash = XXH3_64bits(e.frame.data(), e.frame.size());
  if (frame_hash != e.frame_xxh3_64) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                     where() + "compressed bytes fail their XXH3-64 check (expected " +
                         Hex(e.frame_xxh3_64) + ", got " + Hex(frame_hash) +
                         "); the data is damaged");
  }
  const unsigned long long declared = ZSTD_getFrameContentSize(e.frame.data(), e.frame.size());
  if (declared != e.uncompressed_size) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                     where() + "zstd frame header does not declare the recorded size of " +
                         std::to_string(e.uncompressed_size) + " bytes; the data is damaged");
  }
  const size_t frame_size = ZSTD_findFrameCompressedSize(e.frame.data(), e.frame.size());
  if (ZSTD_isError(frame_size) || frame_size != e.frame.size()) {
    return MakeError(
        ISAPACK_STATUS_DATA_CORRUPT,
        where() + "zstd frame is truncated or has trailing bytes; the data is damaged");
  }
  // One decompression context per thread, kept: creating one costs more
  // than decompressing a code object. The representative is a raw-content
  // dictionary: zstd references it without copying or allocating.
  thread_local std::unique_ptr<ZSTD_DCtx, DctxDeleter> dctx(ZSTD_createDCtx());
  if (!dctx) {
    return MakeError(ISAPACK_STATUS_OUT_OF_MEMORY, where() + "cannot allocate a zstd context");
  }
  const size_t size =
      ZSTD_decompress_usingDict(dctx.get(), out.data(), e.uncompressed_size, e.frame.data(),
                                e.frame.size(), e.base.data(), e.base.size());
  if (ZSTD_isError(size)) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT, where() + "zstd decompression failed (" +
                                                      ZSTD_getErrorName(size) +
                                                      "); the data is damaged");
  }
  if (size != e.uncompressed_size) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                     where() + "decompressed to " + std::to_string(size) + " bytes, expected " +
                         std::to_string(e.uncompressed_size) + "; the data is damaged");
  }
  if (!check_output) return {};
  const uint64_t hash = XXH3_64bits(out.data(), e.uncompressed_size);
  if (hash != e.xxh3_64) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT, where() + "fails its XXH3-64 check (expected " +
                                                      Hex(e.xxh3_64) + ", got " + Hex(hash) +
                                                      "); the data is damaged");
  }
  return {};
}

Status Catalog::DecodeTo(size_t index, std::vector<uint8_t>* out) const {
  if (index < size() && entry(index).representative()) {
    out->assign(entry(index).base.begin(), entry(index).base.end());
    return {};
  }
  out->resize(index < size() ? entry(index).uncompressed_size : 0);
  return Decode(index, *out, /*check_output=*/false);
}

Expected<Catalog> FindCatalog(std::span<const uint8_t> image) {
  Error last = Corrupt("no isapack catalog found");
  for (size_t at = 0; at + sizeof(format::FileHeader) <= image.size(); at += format::kAlignment) {
    if (std::memcmp(image.data() + at, format::kMagic, sizeof(format::kMagic)) != 0) continue;
    auto catalog = Catalog::Parse(image.subspan(at));
    if (catalog) return catalog;
    last = catalog.take_error();
  }
  return last;
}

}  // namespace isapack
