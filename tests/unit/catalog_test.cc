// The catalog reader on catalogs built by the same writer the build uses:
// round trips with and without a dictionary, and every kind of damage the
// reader must refuse before a byte reaches HSA.
#include "catalog.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "catalog_format.h"
#include "catalog_writer.h"
#include "support/elf_builder.h"

namespace isapack {
namespace {

namespace format = catalog_format;

// Code-object-like inputs: a real ELF header and kernel symbols, then bytes
// that compress somewhat, like machine code does.
std::vector<CatalogInput> Inputs(size_t count) {
  std::vector<CatalogInput> inputs;
  std::mt19937 random(7);
  for (size_t i = 0; i < count; ++i) {
    testing::ElfSpec spec;
    spec.abi_version = 4;
    spec.flags = 0x01000054;
    spec.symbols = testing::AllKernelDescriptors();
    CatalogInput input;
    input.target_id = "gfx11-generic";
    input.covers = "gfx1100 gfx1101";
    input.code_object_version = 6;
    input.e_flags = spec.flags;
    input.bytes = testing::BuildElf(spec);
    for (size_t j = 0; j < 3000 + 500 * i; ++j) {
      input.bytes.push_back(static_cast<uint8_t>(random() % 16 + (j % 7) * 16));
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::vector<uint8_t> Build(const std::vector<CatalogInput>& inputs, bool dictionary = false) {
  std::vector<uint8_t> dict;
  if (dictionary) {
    std::string reason;
    auto trained = TrainDictionary(inputs, 2048, &reason);
    EXPECT_TRUE(trained) << reason;
    if (trained) dict = *trained;
  }
  return LayoutCatalog(inputs, EncodeCatalog(inputs, 19, dict), R"({"isapack_version":"test"})");
}

format::FileHeader HeaderOf(const std::vector<uint8_t>& image) {
  format::FileHeader header;
  std::memcpy(&header, image.data(), sizeof(header));
  return header;
}

format::Entry EntryOf(const std::vector<uint8_t>& image, size_t index) {
  format::Entry entry;
  std::memcpy(&entry, image.data() + sizeof(format::FileHeader) + index * sizeof(entry),
              sizeof(entry));
  return entry;
}

void SetEntry(std::vector<uint8_t>* image, size_t index, const format::Entry& entry) {
  std::memcpy(image->data() + sizeof(format::FileHeader) + index * sizeof(entry), &entry,
              sizeof(entry));
  ResealCatalog(image);
}

std::string ParseError(const std::vector<uint8_t>& image) {
  auto catalog = Catalog::Parse(image);
  EXPECT_FALSE(catalog);
  return catalog ? "" : catalog.error().message;
}

TEST(Catalog, RoundTripsEveryEntry) {
  const auto inputs = Inputs(4);
  const auto image = Build(inputs);
  auto catalog = Catalog::Parse(image);
  ASSERT_TRUE(catalog) << catalog.error().message;
  ASSERT_EQ(catalog->size(), 4u);
  EXPECT_EQ(catalog->build_info(), R"({"isapack_version":"test"})");
  EXPECT_EQ(catalog->zstd_level(), 19u);
  EXPECT_TRUE(catalog->dictionary().empty());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const CatalogEntry e = catalog->entry(i);
    EXPECT_EQ(e.target_id, "gfx11-generic");
    EXPECT_EQ(e.covers, "gfx1100 gfx1101");
    EXPECT_EQ(e.target_id.data()[e.target_id.size()], '\0');
    EXPECT_EQ(e.code_object_version, 6u);
    EXPECT_EQ(e.e_flags, 0x01000054u);
    EXPECT_EQ(e.uncompressed_size, inputs[i].bytes.size());
    EXPECT_EQ(static_cast<size_t>(e.payload.data() - image.data()) % 64, 0u);
    EXPECT_LT(e.payload.size(), inputs[i].bytes.size());
    std::vector<uint8_t> out(e.uncompressed_size);
    ASSERT_TRUE(catalog->Decompress(i, out));
    EXPECT_EQ(out, inputs[i].bytes);
  }
}

TEST(Catalog, RoundTripsWithADictionary) {
  const auto inputs = Inputs(8);
  const auto image = Build(inputs, /*dictionary=*/true);
  auto catalog = Catalog::Parse(image);
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_FALSE(catalog->dictionary().empty());
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_TRUE(catalog->entry(i).uses_dictionary);
    std::vector<uint8_t> out(inputs[i].bytes.size());
    ASSERT_TRUE(catalog->Decompress(i, out));
    EXPECT_EQ(out, inputs[i].bytes);
  }
}

TEST(Catalog, RefusesATruncatedImage) {
  const auto image = Build(Inputs(2));
  const std::vector<uint8_t> truncated(image.begin(), image.end() - 1);
  EXPECT_EQ(ParseError(truncated), "catalog: records " + std::to_string(image.size()) +
                                       " bytes but only " + std::to_string(image.size() - 1) +
                                       " are present (truncated)");
  EXPECT_EQ(ParseError(std::vector<uint8_t>(image.begin(), image.begin() + 50)),
            "catalog: image of 50 bytes is shorter than its header");
}

TEST(Catalog, RefusesWrongMagicAndVersionNamingANewerIsapack) {
  auto image = Build(Inputs(1));
  image[0] = 'X';
  EXPECT_EQ(ParseError(image), "catalog: bad magic; this is not an isapack catalog");
  image = Build(Inputs(1));
  image[8] = 2;
  EXPECT_EQ(ParseError(image),
            "catalog: format version 2 was written by a newer isapack (this one reads version 1); "
            "upgrade isapack to read it, or rebuild the catalog with this one");
  image[8] = 0;
  EXPECT_EQ(ParseError(image),
            "catalog: format version 0 is not supported (this isapack reads version 1)");
}

TEST(Catalog, RefusesADamagedTableOfContents) {
  auto image = Build(Inputs(2));
  const format::FileHeader header = HeaderOf(image);
  image[header.strings_offset] ^= 0x20;  // 'g' of the first target ID
  const std::string error = ParseError(image);
  EXPECT_EQ(error.rfind("catalog: table of contents fails its XXH3-64 check (expected 0x", 0), 0u)
      << error;
  EXPECT_NE(error.find("the data is damaged"), std::string::npos);
}

TEST(Catalog, RefusesEntriesPointingOutsideTheCatalog) {
  auto image = Build(Inputs(2));
  format::Entry e = EntryOf(image, 1);
  e.payload_offset = image.size() + 64 * 10;
  SetEntry(&image, 1, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 1: its payload lies outside the catalog");

  image = Build(Inputs(2));
  e = EntryOf(image, 0);
  e.payload_offset += 1;  // unaligned
  SetEntry(&image, 0, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 0: its payload lies outside the catalog");

  image = Build(Inputs(2));
  e = EntryOf(image, 0);
  e.target_id_offset = 1 << 30;
  SetEntry(&image, 0, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 0: its names lie outside the string table");
}

TEST(Catalog, RefusesAbsurdSizesBeforeDecompressing) {
  auto image = Build(Inputs(1));
  format::Entry e = EntryOf(image, 0);
  e.uncompressed_size = format::kMaxCodeObjectSize + 1;
  SetEntry(&image, 0, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 0: records an uncompressed size of " +
                                   std::to_string(format::kMaxCodeObjectSize + 1) + " bytes");
}

TEST(Catalog, DecompressionStopsAtTheRecordedSize) {
  // The entry claims fewer bytes than the frame holds: the frame header
  // disagrees, so nothing is decompressed past the recorded size.
  auto image = Build(Inputs(1));
  format::Entry e = EntryOf(image, 0);
  e.uncompressed_size -= 1;
  SetEntry(&image, 0, e);
  auto catalog = Catalog::Parse(image);
  ASSERT_TRUE(catalog);
  std::vector<uint8_t> out(e.uncompressed_size);
  Status status = catalog->Decompress(0, out);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, ISAPACK_STATUS_DATA_CORRUPT);
  EXPECT_EQ(status.error().message,
            "catalog entry 0 (gfx11-generic): zstd frame header does not declare the recorded size "
            "of " +
                std::to_string(e.uncompressed_size) + " bytes; the data is damaged");
}

TEST(Catalog, DetectsAWrongHash) {
  auto image = Build(Inputs(1));
  format::Entry e = EntryOf(image, 0);
  e.xxh3_64 ^= 1;
  SetEntry(&image, 0, e);
  auto catalog = Catalog::Parse(image);
  ASSERT_TRUE(catalog);
  std::vector<uint8_t> out(e.uncompressed_size);
  Status status = catalog->Decompress(0, out);
  ASSERT_FALSE(status);
  EXPECT_EQ(
      status.error().message.rfind("catalog entry 0 (gfx11-generic): fails its XXH3-64 check", 0),
      0u)
      << status.error().message;
}

TEST(Catalog, RequiresABufferOfTheRecordedSize) {
  const auto image = Build(Inputs(1));
  auto catalog = Catalog::Parse(image);
  ASSERT_TRUE(catalog);
  std::vector<uint8_t> out(catalog->entry(0).uncompressed_size - 1);
  Status status = catalog->Decompress(0, out);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, ISAPACK_STATUS_INVALID_ARGUMENT);
}

TEST(Catalog, IsFoundInsideALargerImage) {
  std::vector<uint8_t> file(4096, 0xcc);
  const auto image = Build(Inputs(2));
  file.insert(file.end(), image.begin(), image.end());
  auto catalog = FindCatalog(file);
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_EQ(catalog->size(), 2u);
  EXPECT_FALSE(FindCatalog(std::vector<uint8_t>(4096, 0)));
}

}  // namespace
}  // namespace isapack
