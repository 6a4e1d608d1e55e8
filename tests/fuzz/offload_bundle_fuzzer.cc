// libFuzzer target: clang offload bundles, uncompressed and CCOB (v1-v3,
// zstd or zlib). Sizes are bounded small so a fuzzer cannot make the reader
// allocate much. `isapack inspect`'s whole scan of arbitrary bytes is the
// inspect fuzzer's (running it here too made every input cost a full scan).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include "offload_bundle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  if (auto entries = isapack::ParseOffloadBundle(bytes)) {
    for (const isapack::BundleEntry& entry : *entries) {
      if (entry.payload.data() < data || entry.payload.data() + entry.payload.size() > data + size)
        std::abort();
      (void)isapack::BundleEntryTarget(entry.id);
    }
  }
  if (isapack::ParseCompressedBundleHeader(bytes)) {
    constexpr uint64_t kLimit = 1 << 20;
    auto raw = isapack::DecompressBundle(bytes, kLimit);
    if (raw && raw->size() > kLimit) std::abort();  // the limit holds
    auto whole = raw ? isapack::ParseOffloadBundle(*raw)
                     : isapack::Expected<std::vector<isapack::BundleEntry>>(raw.take_error());
    // The streamed entry table (isapack coverage) agrees with the whole
    // bundle: where both read it, the same IDs, sizes and heads.
    auto even = [](std::string_view id) { return id.size() % 2 == 0; };
    auto streamed = isapack::ReadCompressedBundleEntries(bytes, even, 64, kLimit);
    if (streamed && whole) {
      if (streamed->size() != whole->size()) std::abort();
      for (size_t i = 0; i < whole->size(); ++i) {
        const isapack::BundleEntry& entry = (*whole)[i];
        const isapack::CompressedBundleEntry& read = (*streamed)[i];
        if (read.id != entry.id || read.size != entry.payload.size()) std::abort();
        const size_t head = even(entry.id) ? std::min<size_t>(64, entry.payload.size()) : 0;
        if (read.head.size() != head ||
            !std::equal(read.head.begin(), read.head.end(), entry.payload.begin()))
          std::abort();
      }
    }
  }
  return 0;
}
