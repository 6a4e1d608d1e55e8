#include "catalog_writer.h"

#include <xxhash.h>
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "catalog.h"
#include "catalog_format.h"

namespace isapack {
namespace {

namespace format = catalog_format;

struct CctxDeleter {
  void operator()(ZSTD_CCtx* cctx) const { ZSTD_freeCCtx(cctx); }
};

void Check(size_t result, const std::string& what) {
  if (ZSTD_isError(result)) throw std::runtime_error(what + ": " + ZSTD_getErrorName(result));
}

void Align(std::vector<uint8_t>* bytes) {
  bytes->resize((bytes->size() + format::kAlignment - 1) / format::kAlignment * format::kAlignment,
                0);
}

template <typename T>
void Store(std::vector<uint8_t>* bytes, size_t offset, const T& value) {
  std::memcpy(bytes->data() + offset, &value, sizeof(T));
}

}  // namespace

size_t CatalogEncoding::total() const {
  size_t sum = dictionary.size();
  for (const auto& frame : frames) sum += frame.size();
  return sum;
}

CatalogEncoding EncodeCatalog(const std::vector<CatalogInput>& inputs, int level,
                              std::vector<uint8_t> dictionary) {
  CatalogEncoding encoding{level, std::move(dictionary), {}};
  std::unique_ptr<ZSTD_CCtx, CctxDeleter> cctx(ZSTD_createCCtx());
  if (!cctx) throw std::runtime_error("cannot allocate a zstd context");
  for (const CatalogInput& input : inputs) {
    Check(ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_and_parameters), "zstd reset");
    Check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level), "zstd level");
    Check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_contentSizeFlag, 1), "zstd content size");
    Check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 0), "zstd checksum");
    Check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_dictIDFlag, 0), "zstd dictionary ID");
    if (!encoding.dictionary.empty()) {
      Check(ZSTD_CCtx_loadDictionary(cctx.get(), encoding.dictionary.data(),
                                     encoding.dictionary.size()),
            "zstd dictionary");
    }
    std::vector<uint8_t> frame(ZSTD_compressBound(input.bytes.size()));
    const size_t size = ZSTD_compress2(cctx.get(), frame.data(), frame.size(), input.bytes.data(),
                                       input.bytes.size());
    Check(size, input.target_id + ": zstd compression");
    frame.resize(size);
    encoding.frames.push_back(std::move(frame));
  }
  return encoding;
}

std::optional<std::vector<uint8_t>> TrainDictionary(const std::vector<CatalogInput>& inputs,
                                                    size_t capacity, std::string* reason) {
  std::vector<uint8_t> samples;
  std::vector<size_t> sizes;
  for (const CatalogInput& input : inputs) {
    samples.insert(samples.end(), input.bytes.begin(), input.bytes.end());
    sizes.push_back(input.bytes.size());
  }
  std::vector<uint8_t> dictionary(capacity);
  const size_t size = ZDICT_trainFromBuffer(dictionary.data(), dictionary.size(), samples.data(),
                                            sizes.data(), static_cast<unsigned>(sizes.size()));
  if (ZDICT_isError(size)) {
    *reason = ZDICT_getErrorName(size);
    return std::nullopt;
  }
  dictionary.resize(size);
  return dictionary;
}

std::vector<uint8_t> LayoutCatalog(const std::vector<CatalogInput>& inputs,
                                   const CatalogEncoding& encoding, const std::string& build_info) {
  std::vector<uint8_t> out(sizeof(format::FileHeader) + inputs.size() * sizeof(format::Entry));
  std::vector<format::Entry> entries(inputs.size());
  std::string strings;
  auto add_string = [&](const std::string& text, uint32_t* offset, uint32_t* length) {
    *offset = static_cast<uint32_t>(strings.size());
    *length = static_cast<uint32_t>(text.size());
    strings += text;
    strings += '\0';  // so readers can hand out C strings
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    add_string(inputs[i].target_id, &entries[i].target_id_offset, &entries[i].target_id_length);
    add_string(inputs[i].covers, &entries[i].covers_offset, &entries[i].covers_length);
  }
  format::FileHeader header{};
  std::memcpy(header.magic, format::kMagic, sizeof(header.magic));
  header.format_version = format::kFormatVersion;
  header.header_size = sizeof(format::FileHeader);
  header.entry_count = static_cast<uint32_t>(inputs.size());
  header.entry_size = sizeof(format::Entry);
  header.zstd_level = static_cast<uint32_t>(encoding.level);
  add_string(build_info, &header.build_info_offset, &header.build_info_length);
  header.strings_offset = out.size();
  header.strings_size = strings.size();
  out.insert(out.end(), strings.begin(), strings.end());
  if (!encoding.dictionary.empty()) {
    Align(&out);
    header.dictionary_offset = out.size();
    header.dictionary_size = encoding.dictionary.size();
    out.insert(out.end(), encoding.dictionary.begin(), encoding.dictionary.end());
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    Align(&out);
    format::Entry& e = entries[i];
    e.e_flags = inputs[i].e_flags;
    e.code_object_version = static_cast<uint16_t>(inputs[i].code_object_version);
    e.flags = encoding.dictionary.empty() ? 0 : format::kEntryUsesDictionary;
    e.payload_offset = out.size();
    e.compressed_size = encoding.frames[i].size();
    e.uncompressed_size = inputs[i].bytes.size();
    e.xxh3_64 = XXH3_64bits(inputs[i].bytes.data(), inputs[i].bytes.size());
    e.payload_xxh3_64 = XXH3_64bits(encoding.frames[i].data(), encoding.frames[i].size());
    out.insert(out.end(), encoding.frames[i].begin(), encoding.frames[i].end());
  }
  header.total_size = out.size();
  for (size_t i = 0; i < entries.size(); ++i) {
    Store(&out, sizeof(format::FileHeader) + i * sizeof(format::Entry), entries[i]);
  }
  Store(&out, 0, header);
  ResealCatalog(&out);
  return out;
}

void ResealCatalog(std::vector<uint8_t>* catalog) {
  format::FileHeader header;
  std::memcpy(&header, catalog->data(), sizeof(header));
  const uint64_t toc_end = std::max(header.strings_offset + header.strings_size,
                                    header.dictionary_offset + header.dictionary_size);
  header.toc_hash = TableOfContentsHash(*catalog, toc_end);
  Store(catalog, 0, header);
}

}  // namespace isapack
