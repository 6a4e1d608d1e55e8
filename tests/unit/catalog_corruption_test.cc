// Damage to the catalog embedded in the libisapack this test runs against
// (the build tree's, or the installed one) is refused before HSA, and before
// zstd, sees a byte:
//   - every single-bit flip of every byte of the catalog: a flip in the
//     header, the entries or the shared stream (metadata and
//     representatives) fails the table-of-contents hash, and a flip in a
//     delta frame fails that frame's check;
//   - every truncation of every frame (a consistent table of contents whose
//     entry records fewer compressed bytes) is refused naming the entry.
// The case counts are printed and recorded as test properties.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "catalog.h"
#include "catalog_format.h"
#include "catalog_writer.h"
#include "isapack/isapack.h"
#include "support/loaded_catalog.h"

namespace isapack {
namespace {

namespace format = catalog_format;

using testing::LoadedCatalog;

std::string EntryPrefix(const Catalog& catalog, size_t index) {
  return "catalog entry " + std::to_string(index) + " (" +
         std::string(catalog.entry(index).target_id) + "): ";
}

std::vector<std::vector<uint8_t>> DecompressAll(const Catalog& catalog) {
  std::vector<std::vector<uint8_t>> objects;
  for (size_t i = 0; i < catalog.size(); ++i) {
    std::vector<uint8_t> out(catalog.entry(i).uncompressed_size);
    if (Status status = catalog.Decompress(i, out); !status) {
      ADD_FAILURE() << status.error().message;
      return {};
    }
    objects.push_back(std::move(out));
  }
  return objects;
}

class CatalogCorruption : public ::testing::Test {
 protected:
  void SetUp() override {
    image_ = LoadedCatalog();
    ASSERT_FALSE(image_.empty()) << "no catalog found in the loaded libisapack";
    auto catalog = Catalog::Parse(image_);
    ASSERT_TRUE(catalog) << catalog.error().message;
    originals_ = DecompressAll(*catalog);
    ASSERT_EQ(originals_.size(), catalog->size());
  }
  std::vector<uint8_t> image_;
  std::vector<std::vector<uint8_t>> originals_;
};

TEST_F(CatalogCorruption, EveryBitFlipAnywhereIsRefused) {
  auto parsed = Catalog::Parse(image_);
  ASSERT_TRUE(parsed);
  const Catalog catalog = *parsed;
  format::FileHeader header;
  std::memcpy(&header, image_.data(), sizeof(header));
  const uint64_t toc_end = sizeof(format::FileHeader) +
                           uint64_t{header.entry_count} * sizeof(format::Entry) +
                           header.shared_compressed_size;
  // Which entry's frame each byte belongs to; -1: table of contents; -2: none.
  std::vector<int> owner(image_.size(), -2);
  for (uint64_t at = 0; at < toc_end; ++at) owner[at] = -1;
  for (size_t i = 0; i < catalog.size(); ++i) {
    const CatalogEntry e = catalog.entry(i);
    if (e.representative()) continue;
    const size_t begin = static_cast<size_t>(e.frame.data() - catalog.image().data());
    for (size_t at = begin; at < begin + e.frame.size(); ++at) owner[at] = static_cast<int>(i);
  }
  ASSERT_EQ(std::count(owner.begin(), owner.end(), -2), 0) << "bytes nothing reads";

  size_t toc_cases = 0, payload_cases = 0;
  for (size_t at = 0; at < image_.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> damaged = image_;
      damaged[at] ^= static_cast<uint8_t>(1u << bit);
      if (owner[at] == -1) {
        auto result = Catalog::Parse(damaged);
        ASSERT_FALSE(result) << "a flip of bit " << bit << " at byte " << at << " went unnoticed";
        ASSERT_EQ(result.error().message.rfind("catalog: ", 0), 0u) << result.error().message;
        ++toc_cases;
        continue;
      }
      // The table of contents is intact: the catalog parses.
      auto damaged_catalog = Catalog::Parse(damaged);
      ASSERT_TRUE(damaged_catalog) << damaged_catalog.error().message;
      const size_t index = static_cast<size_t>(owner[at]);
      std::vector<uint8_t> out(damaged_catalog->entry(index).uncompressed_size, 0);
      const Status status = damaged_catalog->Decompress(index, out);
      ASSERT_FALSE(status) << "a flip of bit " << bit << " at byte " << at << " was loaded";
      ASSERT_EQ(status.error().code, ISAPACK_STATUS_DATA_CORRUPT);
      ASSERT_EQ(status.error().message.rfind(
                    EntryPrefix(catalog, index) + "compressed bytes fail their XXH3-64 check", 0),
                0u)
          << status.error().message;
      ++payload_cases;
    }
  }
  std::printf("bit flips: %zu in the table of contents (refused), %zu in frames (refused)\n",
              toc_cases, payload_cases);
  RecordProperty("toc_flips", static_cast<int>(toc_cases));
  RecordProperty("frame_flips", static_cast<int>(payload_cases));
  EXPECT_EQ(toc_cases + payload_cases, image_.size() * 8);
  EXPECT_GT(payload_cases, 0u);
}

TEST_F(CatalogCorruption, EveryTruncationOfEveryFrameIsRefusedNamingTheEntry) {
  auto parsed = Catalog::Parse(image_);
  ASSERT_TRUE(parsed);
  size_t cases = 0;
  for (size_t index = 0; index < parsed->size(); ++index) {
    const size_t size = parsed->entry(index).frame.size();
    for (size_t kept = 0; kept < size; ++kept) {
      std::vector<uint8_t> damaged = image_;
      format::Entry e;
      const size_t at = sizeof(format::FileHeader) + index * sizeof(format::Entry);
      std::memcpy(&e, damaged.data() + at, sizeof(e));
      e.frame_size = static_cast<uint32_t>(kept);
      std::memcpy(damaged.data() + at, &e, sizeof(e));
      ResealCatalog(&damaged);  // a consistent table of contents that lies about the frame
      auto catalog = Catalog::Parse(damaged);
      if (!catalog) {
        ASSERT_EQ(kept, 0u) << catalog.error().message;
        ASSERT_EQ(catalog.error().message,
                  "catalog: entry " + std::to_string(index) + ": its frame is empty");
      } else {
        std::vector<uint8_t> out(catalog->entry(index).uncompressed_size, 0);
        const Status status = catalog->Decompress(index, out);
        ASSERT_FALSE(status) << "entry " << index << " truncated to " << kept
                             << " bytes was loaded";
        ASSERT_EQ(status.error().message.rfind(EntryPrefix(*parsed, index), 0), 0u)
            << status.error().message;
      }
      ++cases;
    }
  }
  std::printf("frame truncations: %zu (refused)\n", cases);
  RecordProperty("truncations", static_cast<int>(cases));
  EXPECT_GT(cases, 0u);
}

}  // namespace
}  // namespace isapack
