#include "catalog.h"

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bounded_read.h"
#include "catalog_format.h"

namespace isapack {
namespace {

namespace format = catalog_format;

// A string of the table: in bounds and followed by its NUL terminator.
bool ValidString(std::span<const uint8_t> strings, uint32_t offset, uint32_t length) {
  return InBounds(offset, uint64_t{length} + 1, strings.size()) && strings[offset + length] == 0;
}

Error Corrupt(std::string message) {
  return MakeError(ISAPACK_STATUS_DATA_CORRUPT, "catalog: " + std::move(message));
}

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string_view StringAt(std::span<const uint8_t> strings, uint32_t offset, uint32_t length) {
  return std::string_view(reinterpret_cast<const char*>(strings.data()) + offset, length);
}

struct DctxDeleter {
  void operator()(ZSTD_DCtx* dctx) const { ZSTD_freeDCtx(dctx); }
};

}  // namespace

uint64_t TableOfContentsHash(std::span<const uint8_t> image, uint64_t toc_end) {
  std::vector<uint8_t> toc(image.begin(), image.begin() + static_cast<std::ptrdiff_t>(toc_end));
  std::memset(toc.data() + offsetof(format::FileHeader, toc_hash), 0, sizeof(uint64_t));
  return XXH3_64bits(toc.data(), toc.size());
}

namespace {

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
                   " is not supported (this isapack reads version " +
                   std::to_string(format::kFormatVersion) + ")");
  }
  if (header.header_size != sizeof(format::FileHeader) ||
      header.entry_size != sizeof(format::Entry)) {
    return Corrupt("header or entry size does not match format version 1");
  }
  if (header.entry_count > format::kMaxEntries) {
    return Corrupt(std::to_string(header.entry_count) + " entries exceed the limit of " +
                   std::to_string(format::kMaxEntries));
  }
  if (!InBounds(0, header.total_size, image.size())) {
    return Corrupt("records " + std::to_string(header.total_size) + " bytes but only " +
                   std::to_string(image.size()) + " are present (truncated)");
  }
  const uint64_t total = header.total_size;
  const uint64_t entries_size = uint64_t{header.entry_count} * sizeof(format::Entry);
  if (!InBounds(sizeof(format::FileHeader), entries_size, total) ||
      !InBounds(header.strings_offset, header.strings_size, total) ||
      !InBounds(header.dictionary_offset, header.dictionary_size, total) ||
      header.strings_offset < sizeof(format::FileHeader) + entries_size) {
    return Corrupt("table of contents lies outside the catalog");
  }
  const uint64_t toc_end = std::max(header.strings_offset + header.strings_size,
                                    header.dictionary_offset + header.dictionary_size);
  if (toc_end < sizeof(format::FileHeader)) return Corrupt("table of contents is empty");
  const uint64_t toc_hash = TableOfContentsHash(image, toc_end);
  if (toc_hash != header.toc_hash) {
    return Corrupt("table of contents fails its XXH3-64 check (expected " + Hex(header.toc_hash) +
                   ", got " + Hex(toc_hash) + "); the data is damaged");
  }
  return header;
}

// One table-of-contents entry, checked against the catalog's bounds.
Status CheckEntry(const format::FileHeader& header, std::span<const uint8_t> strings,
                  const format::Entry& e, size_t i) {
  const uint64_t total = header.total_size;
  const std::string where = "entry " + std::to_string(i);
  if (!ValidString(strings, e.target_id_offset, e.target_id_length) ||
      !ValidString(strings, e.covers_offset, e.covers_length) || e.target_id_length == 0) {
    return Corrupt(where + ": its names lie outside the string table");
  }
  if (e.payload_offset % format::kAlignment != 0 || e.compressed_size == 0 ||
      !InBounds(e.payload_offset, e.compressed_size, total)) {
    return Corrupt(where + ": its payload lies outside the catalog");
  }
  if (e.uncompressed_size == 0 || e.uncompressed_size > format::kMaxCodeObjectSize) {
    return Corrupt(where + ": records an uncompressed size of " +
                   std::to_string(e.uncompressed_size) + " bytes");
  }
  if (e.code_object_version < 2 || e.code_object_version > 6) {
    return Corrupt(where + ": code object version " + std::to_string(e.code_object_version));
  }
  if ((e.flags & format::kEntryUsesDictionary) && header.dictionary_size == 0) {
    return Corrupt(where + ": needs a dictionary the catalog does not have");
  }
  return {};
}

}  // namespace

Expected<Catalog> Catalog::Parse(std::span<const uint8_t> image) {
  auto checked = CheckedHeader(image);
  if (!checked) return checked.take_error();
  const format::FileHeader& header = *checked;
  const uint64_t total = header.total_size;
  Catalog catalog;
  catalog.image_ = image.subspan(0, total);
  catalog.strings_ = image.subspan(header.strings_offset, header.strings_size);
  catalog.dictionary_ = image.subspan(header.dictionary_offset, header.dictionary_size);
  catalog.entry_count_ = header.entry_count;
  catalog.zstd_level_ = header.zstd_level;
  if (!ValidString(catalog.strings_, header.build_info_offset, header.build_info_length)) {
    return Corrupt("build info lies outside the string table");
  }
  catalog.build_info_ =
      StringAt(catalog.strings_, header.build_info_offset, header.build_info_length);
  for (size_t i = 0; i < catalog.entry_count_; ++i) {
    format::Entry e;
    std::memcpy(&e, image.data() + sizeof(format::FileHeader) + i * sizeof(e), sizeof(e));
    if (Status status = CheckEntry(header, catalog.strings_, e, i); !status) {
      return status.take_error();
    }
  }
  // The dictionary's entropy tables are built once per catalog, not once per
  // decompression.
  if (!catalog.dictionary_.empty()) {
    ZSTD_DDict* ddict = ZSTD_createDDict(catalog.dictionary_.data(), catalog.dictionary_.size());
    if (ddict == nullptr) return Corrupt("its zstd dictionary cannot be loaded");
    catalog.ddict_ = std::shared_ptr<const ZSTD_DDict>(
        ddict, [](const ZSTD_DDict* d) { ZSTD_freeDDict(const_cast<ZSTD_DDict*>(d)); });
  }
  return catalog;
}

CatalogEntry Catalog::entry(size_t index) const {
  format::Entry e;
  std::memcpy(&e, image_.data() + sizeof(format::FileHeader) + index * sizeof(e), sizeof(e));
  CatalogEntry entry;
  entry.target_id = StringAt(strings_, e.target_id_offset, e.target_id_length);
  entry.covers = StringAt(strings_, e.covers_offset, e.covers_length);
  entry.e_flags = e.e_flags;
  entry.code_object_version = e.code_object_version;
  entry.uses_dictionary = (e.flags & format::kEntryUsesDictionary) != 0;
  entry.payload = image_.subspan(e.payload_offset, e.compressed_size);
  entry.uncompressed_size = e.uncompressed_size;
  entry.xxh3_64 = e.xxh3_64;
  entry.payload_xxh3_64 = e.payload_xxh3_64;
  return entry;
}

Status Catalog::Decompress(size_t index, std::span<uint8_t> out) const {
  if (index >= entry_count_) {
    return MakeError(ISAPACK_STATUS_NOT_FOUND, "catalog has no entry " + std::to_string(index));
  }
  const CatalogEntry e = entry(index);
  const std::string where =
      "catalog entry " + std::to_string(index) + " (" + std::string(e.target_id) + "): ";
  if (out.size() < e.uncompressed_size) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     where + "needs a buffer of " + std::to_string(e.uncompressed_size) + " bytes");
  }
  // The frame must declare exactly the recorded size and end exactly where
  // the entry does: no decompression past the buffer, no trailing data.
  const uint64_t payload_hash = XXH3_64bits(e.payload.data(), e.payload.size());
  if (payload_hash != e.payload_xxh3_64) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                     where + "compressed bytes fail their XXH3-64 check (expected " +
                         Hex(e.payload_xxh3_64) + ", got " + Hex(payload_hash) +
                         "); the data is damaged");
  }
  const unsigned long long declared = ZSTD_getFrameContentSize(e.payload.data(), e.payload.size());
  if (declared != e.uncompressed_size) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                     where + "zstd frame header does not declare the recorded size of " +
                         std::to_string(e.uncompressed_size) + " bytes; the data is damaged");
  }
  const size_t frame_size = ZSTD_findFrameCompressedSize(e.payload.data(), e.payload.size());
  if (ZSTD_isError(frame_size) || frame_size != e.payload.size()) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                     where + "zstd frame is truncated or has trailing bytes; the data is damaged");
  }
  // One decompression context per thread, kept: creating one costs more than
  // decompressing a code object.
  thread_local std::unique_ptr<ZSTD_DCtx, DctxDeleter> dctx(ZSTD_createDCtx());
  if (!dctx)
    return MakeError(ISAPACK_STATUS_OUT_OF_MEMORY, where + "cannot allocate a zstd context");
  const size_t size =
      e.uses_dictionary
          ? ZSTD_decompress_usingDDict(dctx.get(), out.data(), e.uncompressed_size,
                                       e.payload.data(), e.payload.size(), ddict_.get())
          : ZSTD_decompressDCtx(dctx.get(), out.data(), e.uncompressed_size, e.payload.data(),
                                e.payload.size());
  if (ZSTD_isError(size)) {
    return MakeError(
        ISAPACK_STATUS_DATA_CORRUPT,
        where + "zstd decompression failed (" + ZSTD_getErrorName(size) + "); the data is damaged");
  }
  if (size != e.uncompressed_size) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                     where + "decompressed to " + std::to_string(size) + " bytes, expected " +
                         std::to_string(e.uncompressed_size) + "; the data is damaged");
  }
  const uint64_t hash = XXH3_64bits(out.data(), size);
  if (hash != e.xxh3_64) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT, where + "fails its XXH3-64 check (expected " +
                                                      Hex(e.xxh3_64) + ", got " + Hex(hash) +
                                                      "); the data is damaged");
  }
  return {};
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
