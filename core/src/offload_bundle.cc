#include "offload_bundle.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "bounded_read.h"

namespace isapack {
namespace {

Error Corrupt(std::string message) {
  return MakeError(ISAPACK_STATUS_DATA_CORRUPT, std::move(message));
}

// The most bytes `compressed` can decompress to: the content size zstd's
// frame header records (clang's bundler always records it; a frame without
// one is bounded by the caller's limit alone), and deflate's maximal ratio
// of 1032:1 (zlib's technical details) plus room for stored blocks.
Expected<uint64_t> MaxDecompressedSize(uint16_t method, std::span<const uint8_t> compressed) {
  if (method == 1) {
    const unsigned long long size = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
    if (size == ZSTD_CONTENTSIZE_ERROR)
      return Corrupt("compressed offload bundle: the zstd frame header is damaged");
    return size == ZSTD_CONTENTSIZE_UNKNOWN ? UINT64_MAX : size;
  }
  return static_cast<uint64_t>(compressed.size()) * 1032 + 1024;
}

}  // namespace

Expected<std::vector<BundleEntry>> ParseOffloadBundle(std::span<const uint8_t> bundle) {
  const size_t magic = kOffloadBundleMagic.size();
  if (bundle.size() < magic + 8 ||
      std::memcmp(bundle.data(), kOffloadBundleMagic.data(), magic) != 0) {
    return Corrupt("not a clang offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)");
  }
  const uint64_t count = Load<uint64_t>(bundle, magic);
  if (count > kMaxBundleEntries) {
    return Corrupt("offload bundle claims " + std::to_string(count) + " entries");
  }
  std::vector<BundleEntry> entries;
  size_t at = magic + 8;
  for (uint64_t i = 0; i < count; ++i) {
    if (!InBounds(at, 24, bundle.size())) return Corrupt("offload bundle entry table is truncated");
    const uint64_t offset = Load<uint64_t>(bundle, at);
    const uint64_t size = Load<uint64_t>(bundle, at + 8);
    const uint64_t id_length = Load<uint64_t>(bundle, at + 16);
    at += 24;
    if (!InBounds(at, id_length, bundle.size()))
      return Corrupt("offload bundle entry ID is truncated");
    const std::string_view id(reinterpret_cast<const char*>(bundle.data() + at), id_length);
    at += id_length;
    if (!InBounds(offset, size, bundle.size())) {
      return Corrupt("offload bundle entry '" + std::string(id) + "' lies outside the bundle");
    }
    entries.push_back({id, bundle.subspan(offset, size)});
  }
  return entries;
}

Expected<CompressedBundleHeader> ParseCompressedBundleHeader(std::span<const uint8_t> data) {
  if (data.size() < 8 || std::memcmp(data.data(), kCompressedBundleMagic.data(), 4) != 0) {
    return Corrupt("not a compressed offload bundle (no CCOB magic)");
  }
  CompressedBundleHeader h;
  h.version = Load<uint16_t>(data, 4);
  h.method = Load<uint16_t>(data, 6);
  switch (h.version) {
    case 1:
      h.header_size = 20;
      if (data.size() < h.header_size)
        return Corrupt("compressed offload bundle header is truncated");
      h.uncompressed_size = Load<uint32_t>(data, 8);
      h.hash = Load<uint64_t>(data, 12);
      break;
    case 2:
      h.header_size = 24;
      if (data.size() < h.header_size)
        return Corrupt("compressed offload bundle header is truncated");
      h.total_size = Load<uint32_t>(data, 8);
      h.uncompressed_size = Load<uint32_t>(data, 12);
      h.hash = Load<uint64_t>(data, 16);
      break;
    case 3:
      h.header_size = 32;
      if (data.size() < h.header_size)
        return Corrupt("compressed offload bundle header is truncated");
      h.total_size = Load<uint64_t>(data, 8);
      h.uncompressed_size = Load<uint64_t>(data, 16);
      h.hash = Load<uint64_t>(data, 24);
      break;
    default:
      return Corrupt("compressed offload bundle version " + std::to_string(h.version) +
                     " is not supported (versions 1 to 3 are)");
  }
  if (h.method > 1)
    return Corrupt("compressed offload bundle method " + std::to_string(h.method) + " is unknown");
  if (h.total_size != 0 && (h.total_size < h.header_size || h.total_size > data.size())) {
    return Corrupt("compressed offload bundle records " + std::to_string(h.total_size) +
                   " bytes but " + std::to_string(data.size()) + " are present");
  }
  return h;
}

Expected<std::vector<uint8_t>> DecompressBundle(std::span<const uint8_t> data, uint64_t limit) {
  auto header = ParseCompressedBundleHeader(data);
  if (!header) return header.take_error();
  if (header->uncompressed_size > limit) {
    return Corrupt("compressed offload bundle claims " + std::to_string(header->uncompressed_size) +
                   " bytes uncompressed, above the limit of " + std::to_string(limit));
  }
  const size_t end = header->total_size != 0 ? header->total_size : data.size();
  const std::span<const uint8_t> compressed =
      data.subspan(header->header_size, end - header->header_size);
  // The size the header claims is checked against what the compressed bytes
  // can hold before anything is allocated: a damaged or hostile header must
  // not make the reader allocate and clear its claim.
  auto can_hold = MaxDecompressedSize(header->method, compressed);
  if (!can_hold) return can_hold.take_error();
  if (header->uncompressed_size > *can_hold) {
    return Corrupt("compressed offload bundle claims " + std::to_string(header->uncompressed_size) +
                   " bytes uncompressed, but its " + std::to_string(compressed.size()) +
                   " compressed bytes hold at most " + std::to_string(*can_hold));
  }
  std::vector<uint8_t> out(header->uncompressed_size);
  if (header->method == 1) {
    const size_t size =
        ZSTD_decompress(out.data(), out.size(), compressed.data(), compressed.size());
    if (ZSTD_isError(size)) {
      return Corrupt(std::string("compressed offload bundle: zstd failed: ") +
                     ZSTD_getErrorName(size));
    }
    if (size != out.size())
      return Corrupt("compressed offload bundle decompressed to the wrong size");
  } else {
    uLongf size = static_cast<uLongf>(out.size());
    const int result =
        uncompress(out.data(), &size, compressed.data(), static_cast<uLong>(compressed.size()));
    if (result != Z_OK || size != out.size()) {
      return Corrupt("compressed offload bundle: zlib failed (" + std::to_string(result) + ")");
    }
  }
  return out;
}

size_t BundleExtent(std::span<const uint8_t> data) {
  auto starts_with = [&](std::string_view magic) {
    return data.size() >= magic.size() && std::memcmp(data.data(), magic.data(), magic.size()) == 0;
  };
  if (starts_with(kCompressedBundleMagic)) {
    auto header = ParseCompressedBundleHeader(data);
    return header && header->total_size != 0 && header->total_size <= data.size()
               ? static_cast<size_t>(header->total_size)
               : data.size();
  }
  if (!starts_with(kOffloadBundleMagic)) return 0;
  auto entries = ParseOffloadBundle(data);
  if (!entries) return data.size();
  size_t end = kOffloadBundleMagic.size() + 8;
  for (const BundleEntry& entry : *entries) {
    end = std::max(end, static_cast<size_t>(reinterpret_cast<const uint8_t*>(entry.id.data()) +
                                            entry.id.size() - data.data()));
    end = std::max(end,
                   static_cast<size_t>(entry.payload.data() + entry.payload.size() - data.data()));
  }
  return end;
}

std::string_view BundleEntryTarget(std::string_view id) {
  constexpr std::string_view kTriple = "amdgcn-amd-amdhsa--";
  const size_t at = id.find(kTriple);
  return at == std::string_view::npos ? std::string_view() : id.substr(at + kTriple.size());
}

}  // namespace isapack
