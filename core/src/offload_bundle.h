// Clang offload bundles, as HIP fat binaries carry device code:
//   uncompressed: "__CLANG_OFFLOAD_BUNDLE__", u64 entry count, then per
//                 entry u64 offset, u64 size, u64 ID length, ID bytes
//                 (e.g. "hipv4-amdgcn-amd-amdhsa--gfx1100");
//   compressed:   "CCOB", u16 version, u16 method (0 zlib, 1 zstd), then
//                 v1: u32 uncompressed size, u64 hash;
//                 v2: u32 total size, u32 uncompressed size, u64 hash;
//                 v3: u64 total size, u64 uncompressed size, u64 hash;
//                 then one compressed frame holding a whole uncompressed
//                 bundle. All little-endian. Readers bound every size.
#ifndef ISAPACK_CORE_OFFLOAD_BUNDLE_H_
#define ISAPACK_CORE_OFFLOAD_BUNDLE_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"

namespace isapack {

inline constexpr std::string_view kOffloadBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
inline constexpr std::string_view kCompressedBundleMagic = "CCOB";
// A decompressed bundle larger than this is refused (no decompression bombs).
inline constexpr uint64_t kMaxDecompressedBundle = uint64_t{1} << 30;
inline constexpr uint64_t kMaxBundleEntries = 1 << 16;

struct BundleEntry {
  std::string_view id;               // "hipv4-amdgcn-amd-amdhsa--gfx1100"
  std::span<const uint8_t> payload;  // the entry's bytes within the bundle
};

// Parses an uncompressed bundle. Entries point into `bundle`.
Expected<std::vector<BundleEntry>> ParseOffloadBundle(std::span<const uint8_t> bundle);

struct CompressedBundleHeader {
  uint16_t version = 0;
  uint16_t method = 0;      // 0 zlib, 1 zstd
  uint64_t total_size = 0;  // header and data (v2, v3); 0 for v1
  uint64_t uncompressed_size = 0;
  uint64_t hash = 0;
  size_t header_size = 0;  // where the compressed data starts
};

Expected<CompressedBundleHeader> ParseCompressedBundleHeader(std::span<const uint8_t> data);

// Decompresses a CCOB bundle (header included) into its uncompressed bundle,
// refusing anything above `limit` bytes or a size other than the recorded one.
Expected<std::vector<uint8_t>> DecompressBundle(std::span<const uint8_t> data,
                                                uint64_t limit = kMaxDecompressedBundle);

// A compressed bundle's entry table, read by decompressing only as far as
// it needs: the entry IDs and sizes, and the first `head_bytes` of each
// entry `want_head` picks (a code object's ELF header). Decompression is
// streamed through a small buffer and stops there, so a scan of a large
// library's bundles neither decompresses nor holds their code objects.
struct CompressedBundleEntry {
  std::string id;             // "hipv4-amdgcn-amd-amdhsa--gfx1100"
  uint64_t size = 0;          // of the entry's payload
  std::vector<uint8_t> head;  // its first bytes, when wanted (empty otherwise)
};
Expected<std::vector<CompressedBundleEntry>> ReadCompressedBundleEntries(
    std::span<const uint8_t> data, const std::function<bool(std::string_view id)>& want_head,
    size_t head_bytes = 64, uint64_t limit = kMaxDecompressedBundle);

// The bytes the bundle at the start of `data` spans, for walking several
// back to back (a .hip_fatbin): an uncompressed bundle through its entry
// table and its last entry (all of `data` when it does not parse); a
// compressed one by its header's total size (v2, v3), never by scanning
// for the next magic, or all of `data` for v1, which records none. 0 when
// neither magic starts `data`.
size_t BundleExtent(std::span<const uint8_t> data);

// The part of an entry ID after "amdgcn-amd-amdhsa--" (a target ID), or empty
// when the entry is not for amdgcn-amd-amdhsa (the host entry, say).
std::string_view BundleEntryTarget(std::string_view id);

}  // namespace isapack

#endif  // ISAPACK_CORE_OFFLOAD_BUNDLE_H_
