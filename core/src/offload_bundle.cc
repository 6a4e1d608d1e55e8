#include "offload_bundle.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
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

namespace {

// A compressed bundle's header and its compressed bytes, checked: the size
// the header claims must be within `limit` and within what the compressed
// bytes can hold, before anything is allocated (a damaged or hostile header
// must not make the reader allocate and clear its claim).
struct CheckedCompressedBundle {
  CompressedBundleHeader header;
  std::span<const uint8_t> compressed;
};

Expected<CheckedCompressedBundle> CheckCompressedBundle(std::span<const uint8_t> data,
                                                        uint64_t limit) {
  auto header = ParseCompressedBundleHeader(data);
  if (!header) return header.take_error();
  if (header->uncompressed_size > limit) {
    return Corrupt("compressed offload bundle claims " + std::to_string(header->uncompressed_size) +
                   " bytes uncompressed, above the limit of " + std::to_string(limit));
  }
  const size_t end = header->total_size != 0 ? header->total_size : data.size();
  const std::span<const uint8_t> compressed =
      data.subspan(header->header_size, end - header->header_size);
  auto can_hold = MaxDecompressedSize(header->method, compressed);
  if (!can_hold) return can_hold.take_error();
  if (header->uncompressed_size > *can_hold) {
    return Corrupt("compressed offload bundle claims " + std::to_string(header->uncompressed_size) +
                   " bytes uncompressed, but its " + std::to_string(compressed.size()) +
                   " compressed bytes hold at most " + std::to_string(*can_hold));
  }
  return CheckedCompressedBundle{*header, compressed};
}

Error Truncated(uint64_t produced, uint64_t recorded) {
  return Corrupt("compressed offload bundle is truncated: its data ends after " +
                 std::to_string(produced) + " of its " + std::to_string(recorded) + " bytes");
}

// Decompresses `compressed` (zstd: method 1, zlib: 0) through a 64 KiB
// buffer, handing each piece to `sink` until it returns false or the data
// ends. More than `limit` bytes out is an error.
Status StreamDecompress(uint16_t method, std::span<const uint8_t> compressed, uint64_t limit,
                        const std::function<bool(std::span<const uint8_t>)>& sink) {
  std::vector<uint8_t> buffer(64 * 1024);
  uint64_t produced = 0;
  auto deliver = [&](size_t size) -> Expected<bool> {
    produced += size;
    if (produced > limit) {
      return Corrupt("compressed offload bundle decompresses past its recorded size of " +
                     std::to_string(limit) + " bytes");
    }
    return size == 0 || sink({buffer.data(), size});
  };
  if (method == 1) {
    std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(),
                                                                    ZSTD_freeDStream);
    if (!stream) return MakeError(ISAPACK_STATUS_OUT_OF_MEMORY, "cannot allocate a zstd stream");
    ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
    while (true) {
      ZSTD_outBuffer out{buffer.data(), buffer.size(), 0};
      const size_t result = ZSTD_decompressStream(stream.get(), &out, &in);
      if (ZSTD_isError(result)) {
        return Corrupt(std::string("compressed offload bundle: zstd failed: ") +
                       ZSTD_getErrorName(result));
      }
      auto more = deliver(out.pos);
      if (!more) return more.take_error();
      if (!*more || result == 0) return {};
      if (out.pos == 0 && in.pos == in.size) return Truncated(produced, limit);
    }
  }
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return MakeError(ISAPACK_STATUS_OUT_OF_MEMORY, "cannot start zlib");
  std::unique_ptr<z_stream, int (*)(z_stream*)> end(&z, inflateEnd);
  z.next_in = const_cast<Bytef*>(compressed.data());
  z.avail_in = static_cast<uInt>(std::min<size_t>(compressed.size(), UINT32_MAX));
  while (true) {
    z.next_out = buffer.data();
    z.avail_out = static_cast<uInt>(buffer.size());
    const int result = inflate(&z, Z_NO_FLUSH);
    if (result != Z_OK && result != Z_STREAM_END && result != Z_BUF_ERROR) {
      return Corrupt("compressed offload bundle: zlib failed (" + std::to_string(result) + ")");
    }
    const size_t got = buffer.size() - z.avail_out;
    auto more = deliver(got);
    if (!more) return more.take_error();
    if (!*more || result == Z_STREAM_END) return {};
    if (got == 0) return Truncated(produced, limit);
  }
}

// Reads an offload bundle's entry table from its first bytes, as they
// arrive: Feed() returns false once it is complete (or wrong).
class EntryTableReader {
 public:
  explicit EntryTableReader(uint64_t bundle_size) : bundle_size_(bundle_size) {}

  bool Feed(std::span<const uint8_t> piece) {
    if (done_) return false;
    if (bytes_.size() + piece.size() > kMaxTable) {
      Fail("its entry table is larger than " + std::to_string(kMaxTable) + " bytes");
      return false;
    }
    bytes_.insert(bytes_.end(), piece.begin(), piece.end());
    Parse();
    return !done_;
  }

  // After the stream ended: the table must be complete.
  void Finish() {
    if (!done_) Fail("its entry table is truncated");
  }

  bool done() const { return done_; }
  const std::optional<Error>& error() const { return error_; }
  std::vector<CompressedBundleEntry>& entries() { return entries_; }
  const std::vector<uint64_t>& offsets() const { return offsets_; }
  std::span<const uint8_t> bytes() const { return bytes_; }

 private:
  static constexpr size_t kMaxTable = size_t{16} << 20;

  void Fail(std::string message) {
    error_ = Corrupt("compressed offload bundle: " + std::move(message));
    done_ = true;
  }

  void Parse() {
    const size_t magic = kOffloadBundleMagic.size();
    if (count_ == UINT64_MAX) {
      if (bytes_.size() < magic + 8) return;
      if (std::memcmp(bytes_.data(), kOffloadBundleMagic.data(), magic) != 0) {
        return Fail("it does not hold a clang offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)");
      }
      count_ = Load<uint64_t>(bytes_, magic);
      if (count_ > kMaxBundleEntries) {
        return Fail("its offload bundle claims " + std::to_string(count_) + " entries");
      }
      at_ = magic + 8;
    }
    while (entries_.size() < count_) {
      if (!InBounds(at_, 24, bytes_.size())) return;
      const uint64_t offset = Load<uint64_t>(bytes_, at_);
      const uint64_t size = Load<uint64_t>(bytes_, at_ + 8);
      const uint64_t id_length = Load<uint64_t>(bytes_, at_ + 16);
      if (!InBounds(at_ + 24, id_length, bundle_size_)) {
        return Fail("an entry ID lies outside the bundle");
      }
      if (!InBounds(at_ + 24, id_length, bytes_.size())) return;
      std::string id(reinterpret_cast<const char*>(bytes_.data() + at_ + 24), id_length);
      if (!InBounds(offset, size, bundle_size_)) {
        return Fail("entry '" + id + "' lies outside the bundle");
      }
      at_ += 24 + id_length;
      entries_.push_back({std::move(id), size, {}});
      offsets_.push_back(offset);
    }
    done_ = true;
  }

  uint64_t bundle_size_;
  std::vector<uint8_t> bytes_;
  uint64_t count_ = UINT64_MAX;
  size_t at_ = 0;
  bool done_ = false;
  std::optional<Error> error_;
  std::vector<CompressedBundleEntry> entries_;
  std::vector<uint64_t> offsets_;
};

}  // namespace

Expected<std::vector<CompressedBundleEntry>> ReadCompressedBundleEntries(
    std::span<const uint8_t> data, const std::function<bool(std::string_view id)>& want_head,
    size_t head_bytes, uint64_t limit) {
  auto checked = CheckCompressedBundle(data, limit);
  if (!checked) return checked.take_error();
  const uint64_t bundle_size = checked->header.uncompressed_size;
  EntryTableReader table(bundle_size);
  // The heads wanted, by where they lie in the bundle.
  struct Head {
    size_t entry;
    uint64_t begin, end;
  };
  std::vector<Head> heads;
  size_t pending = 0;  // heads[pending..] are not complete yet
  uint64_t position = 0;
  auto copy_heads = [&](std::span<const uint8_t> piece, uint64_t piece_begin) {
    const uint64_t piece_end = piece_begin + piece.size();
    for (size_t h = pending; h < heads.size() && heads[h].begin < piece_end; ++h) {
      const uint64_t from = std::max(heads[h].begin, piece_begin);
      const uint64_t to = std::min(heads[h].end, piece_end);
      if (from >= to) continue;
      std::vector<uint8_t>& head = table.entries()[heads[h].entry].head;
      head.insert(head.end(), piece.begin() + static_cast<ptrdiff_t>(from - piece_begin),
                  piece.begin() + static_cast<ptrdiff_t>(to - piece_begin));
    }
    while (pending < heads.size() && heads[pending].end <= piece_end) ++pending;
  };
  Status streamed = StreamDecompress(
      checked->header.method, checked->compressed, bundle_size,
      [&](std::span<const uint8_t> piece) {
        const uint64_t piece_begin = position;
        position += piece.size();
        if (!table.done()) {
          if (table.Feed(piece)) return true;
          if (table.error()) return false;
          for (size_t i = 0; i < table.entries().size(); ++i) {
            const CompressedBundleEntry& entry = table.entries()[i];
            if (entry.size == 0 || !want_head(entry.id)) continue;
            const uint64_t begin = table.offsets()[i];
            heads.push_back({i, begin, begin + std::min<uint64_t>(entry.size, head_bytes)});
          }
          std::sort(heads.begin(), heads.end(),
                    [](const Head& a, const Head& b) { return a.begin < b.begin; });
          copy_heads(table.bytes(), 0);  // the table's bytes may hold heads too
          return pending < heads.size();
        }
        copy_heads(piece, piece_begin);
        return pending < heads.size();
      });
  if (!streamed) return streamed.take_error();
  table.Finish();
  if (table.error()) return *table.error();
  if (pending < heads.size()) {
    return Truncated(position, bundle_size);
  }
  return std::move(table.entries());
}

Expected<std::vector<uint8_t>> DecompressBundle(std::span<const uint8_t> data, uint64_t limit) {
  auto checked = CheckCompressedBundle(data, limit);
  if (!checked) return checked.take_error();
  const CompressedBundleHeader* header = &checked->header;
  const std::span<const uint8_t> compressed = checked->compressed;
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
