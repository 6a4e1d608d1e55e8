// libFuzzer target: clang offload bundles, uncompressed and CCOB (v1-v3,
// zstd or zlib). Sizes are bounded small so a fuzzer cannot make the reader
// allocate much. `isapack inspect`'s whole scan of arbitrary bytes is the
// inspect fuzzer's (running it here too made every input cost a full scan).
#include <cstdint>
#include <cstdlib>
#include <span>

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
    if (auto raw = isapack::DecompressBundle(bytes, kLimit)) {
      if (raw->size() > kLimit) std::abort();  // the limit holds
      (void)isapack::ParseOffloadBundle(*raw);
    }
  }
  return 0;
}
