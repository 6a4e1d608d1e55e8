// The catalog reader on catalogs built by the same writer the build uses:
// representatives and deltas, the build record rebuilt exactly, and every
// kind of damage the reader must refuse before a byte reaches HSA.
#include "catalog.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

constexpr char kRecord[] = R"({"isapack_version":"test"})";

// Code-object-like inputs in families: members of one family share a body
// (a real ELF header and kernel symbols, then bytes that compress somewhat,
// like machine code does) and differ in a few bytes, as gfx940 and gfx941 do.
std::vector<CatalogInput> Inputs(size_t families, size_t members = 1) {
  std::vector<CatalogInput> inputs;
  for (size_t f = 0; f < families; ++f) {
    std::mt19937 random(static_cast<unsigned>(7 + f));
    testing::ElfSpec spec;
    spec.abi_version = 4;
    spec.flags = 0x01000054;
    spec.symbols = testing::AllKernelDescriptors();
    std::vector<uint8_t> body = testing::BuildElf(spec);
    for (size_t j = 0; j < 3000 + 500 * f; ++j) {
      body.push_back(static_cast<uint8_t>(random() % 16 + (j % 7) * 16));
    }
    for (size_t m = 0; m < members; ++m) {
      CatalogInput input;
      input.target_id = "gfx11" + std::to_string(f) + std::to_string(m);
      input.covers = input.target_id + " gfx11" + std::to_string(f) + "9";
      input.code_object_version = 6;
      input.e_flags = spec.flags;
      input.bytes = body;
      for (size_t k = 0; k < m; ++k) input.bytes[1000 + 97 * k] ^= 0x5a;
      inputs.push_back(std::move(input));
    }
  }
  return inputs;
}

std::vector<uint8_t> Build(const std::vector<CatalogInput>& inputs) {
  return BuildCatalog(inputs, kRecord).image;
}

format::FileHeader HeaderOf(const std::vector<uint8_t>& image) {
  format::FileHeader header;
  std::memcpy(&header, image.data(), sizeof(header));
  return header;
}

void SetHeader(std::vector<uint8_t>* image, const format::FileHeader& header) {
  std::memcpy(image->data(), &header, sizeof(header));
  ResealCatalog(image);
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

Status DecompressStatus(const std::vector<uint8_t>& image, size_t index) {
  auto catalog = Catalog::Parse(image);
  EXPECT_TRUE(catalog) << catalog.error().message;
  if (!catalog) return MakeError(ISAPACK_STATUS_DATA_CORRUPT, "does not parse");
  std::vector<uint8_t> out(catalog->entry(index).uncompressed_size);
  return catalog->Decompress(index, out);
}

TEST(Catalog, EachFamilyHasOneRepresentativeAndTheOthersAreDeltasThatRoundTrip) {
  const auto inputs = Inputs(2, 3);
  const CatalogPlan plan = BuildCatalog(inputs, kRecord);
  EXPECT_EQ(plan.representative, (std::vector<size_t>{0, 0, 0, 3, 3, 3}));
  auto catalog = Catalog::Parse(plan.image);
  ASSERT_TRUE(catalog) << catalog.error().message;
  ASSERT_EQ(catalog->size(), 6u);
  EXPECT_EQ(catalog->build_info(), kRecord);
  EXPECT_EQ(catalog->zstd_level(), 19u);
  EXPECT_EQ(catalog->shared_stream().size(), plan.shared_compressed_bytes);
  EXPECT_EQ(catalog->shared_block().size(),
            plan.metadata_bytes + inputs[0].bytes.size() + inputs[3].bytes.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const CatalogEntry e = catalog->entry(i);
    EXPECT_EQ(e.target_id, inputs[i].target_id);
    EXPECT_EQ(e.covers, inputs[i].covers);
    EXPECT_EQ(e.target_id.data()[e.target_id.size()], '\0');
    EXPECT_EQ(e.covers.data()[e.covers.size()], '\0');
    EXPECT_EQ(e.code_object_version, 6u);
    EXPECT_EQ(e.e_flags, 0x01000054u);
    EXPECT_EQ(e.uncompressed_size, inputs[i].bytes.size());
    EXPECT_EQ(e.representative(), i % 3 == 0) << i;
    EXPECT_EQ(e.stored_size(), plan.frames[i].size());
    // A delta of a few flipped bytes is a few dozen bytes, not a code object.
    if (!e.representative()) {
      EXPECT_LT(e.frame.size(), 64u) << i;
    }
    std::vector<uint8_t> out(e.uncompressed_size);
    ASSERT_TRUE(catalog->Decompress(i, out));
    EXPECT_EQ(out, inputs[i].bytes);
  }
}

TEST(Catalog, TwoBuildsOfTheSameInputsAreIdentical) {
  const auto inputs = Inputs(3, 2);
  EXPECT_EQ(Build(inputs), Build(inputs));
}

TEST(Catalog, BuildRecordFieldsDerivedFromTheEntriesAreRebuiltExactly) {
  const auto inputs = Inputs(2, 2);
  nlohmann::json record = {{"isapack_version", "test"}, {"selectors", {"all"}}};
  record["code_objects"] = nlohmann::json::array();
  for (const CatalogInput& input : inputs) {
    record["code_objects"].push_back(
        {{"code_object_version", 6},
         {"covers", {input.target_id, input.covers.substr(input.covers.find(' ') + 1)}},
         {"file", "amdgcn-amd-amdhsa--" + input.target_id + ".hsaco"},
         {"target_id", input.target_id}});
  }
  record["covered_targets"] = {"gfx1100", "gfx1101", "gfx1109", "gfx1110", "gfx1111", "gfx1119"};
  CatalogPlan plan = BuildCatalog(inputs, record.dump());
  EXPECT_EQ(plan.derived, (std::vector<std::string>{"code_objects", "covered_targets"}));
  auto catalog = Catalog::Parse(plan.image);
  ASSERT_TRUE(catalog);
  EXPECT_EQ(catalog->build_info(), record.dump());

  // A field the entries do not rebuild (a target no entry covers) is stored.
  record["covered_targets"].push_back("gfx1200");
  plan = BuildCatalog(inputs, record.dump());
  EXPECT_EQ(plan.derived, (std::vector<std::string>{"code_objects"}));
  catalog = Catalog::Parse(plan.image);
  ASSERT_TRUE(catalog);
  EXPECT_EQ(catalog->build_info(), record.dump());
}

TEST(Catalog, RefusesToBuildFromNothingOrARecordThatIsNotAnObject) {
  EXPECT_THROW(BuildCatalog({}, kRecord), std::runtime_error);
  EXPECT_THROW(BuildCatalog(Inputs(1), "[1]"), std::runtime_error);
}

TEST(Catalog, RefusesATruncatedImage) {
  const auto image = Build(Inputs(2));
  const std::vector<uint8_t> truncated(image.begin(), image.end() - 1);
  EXPECT_EQ(ParseError(truncated), "catalog: records " + std::to_string(image.size()) +
                                       " bytes but only " + std::to_string(image.size() - 1) +
                                       " are present (truncated)");
  EXPECT_EQ(ParseError(std::vector<uint8_t>(image.begin(), image.begin() + 30)),
            "catalog: image of 30 bytes is shorter than its header");
}

TEST(Catalog, RefusesWrongMagicAndVersionsNamingWhichIsapackWroteThem) {
  auto image = Build(Inputs(1));
  image[0] = 'X';
  EXPECT_EQ(ParseError(image), "catalog: bad magic; this is not an isapack catalog");
  image = Build(Inputs(1));
  image[8] = 3;
  EXPECT_EQ(ParseError(image),
            "catalog: format version 3 was written by a newer isapack (this one reads version 2); "
            "upgrade isapack to read it, or rebuild the catalog with this one");
  image[8] = 1;
  EXPECT_EQ(ParseError(image),
            "catalog: format version 1 was written by an older isapack (this one reads version "
            "2); rebuild the catalog with this isapack");
}

TEST(Catalog, RefusesADamagedTableOfContentsOrSharedStream) {
  for (const bool in_shared_stream : {false, true}) {
    auto image = Build(Inputs(2));
    const format::FileHeader header = HeaderOf(image);
    const size_t at = in_shared_stream ? sizeof(format::FileHeader) + 2 * sizeof(format::Entry) +
                                             header.shared_compressed_size / 2
                                       : sizeof(format::FileHeader) + 4;
    image[at] ^= 0x20;
    const std::string error = ParseError(image);
    EXPECT_EQ(error.rfind("catalog: table of contents fails its XXH3-64 check (expected 0x", 0), 0u)
        << error;
    EXPECT_NE(error.find("the data is damaged"), std::string::npos);
  }
}

TEST(Catalog, RefusesASharedBlockOfAnotherSizeThanItsStreamDecodesTo) {
  auto image = Build(Inputs(2));
  format::FileHeader header = HeaderOf(image);
  const uint32_t recorded = header.shared_size;
  header.shared_size += 1;
  SetHeader(&image, header);
  const std::string error = ParseError(image);
  EXPECT_EQ(error.rfind("catalog: shared stream does not decode to the recorded " +
                            std::to_string(recorded + 1) + " bytes (LZMA2 status",
                        0),
            0u)
      << error;
  EXPECT_NE(error.find("after " + std::to_string(recorded) + " bytes); the data is damaged"),
            std::string::npos)
      << error;
}

TEST(Catalog, RefusesAnUnknownCodecAndAbsurdSharedSizesBeforeDecoding) {
  auto image = Build(Inputs(1));
  format::FileHeader header = HeaderOf(image);
  header.shared_codec = 2;
  SetHeader(&image, header);
  EXPECT_EQ(ParseError(image).rfind("catalog: shared stream uses codec 2 with properties ", 0), 0u);

  image = Build(Inputs(1));
  header = HeaderOf(image);
  header.shared_size = static_cast<uint32_t>(format::kMaxSharedSize + 1);
  SetHeader(&image, header);
  EXPECT_EQ(ParseError(image),
            "catalog: records a shared block of " + std::to_string(format::kMaxSharedSize + 1) +
                " bytes (" + std::to_string(header.metadata_size) + " of metadata); the limit is " +
                std::to_string(format::kMaxSharedSize));
}

TEST(Catalog, RefusesEntriesPointingOutsideTheCatalogOrTheSharedBlock) {
  auto image = Build(Inputs(1, 2));
  format::Entry e = EntryOf(image, 1);
  e.offset = static_cast<uint32_t>(image.size());
  SetEntry(&image, 1, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 1: its frame lies outside the catalog");

  image = Build(Inputs(1, 2));
  e = EntryOf(image, 1);
  e.offset = sizeof(format::FileHeader);  // inside the table of contents
  SetEntry(&image, 1, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 1: its frame lies outside the catalog");

  image = Build(Inputs(1, 2));
  e = EntryOf(image, 0);
  e.offset = 0;  // the metadata is not a code object
  SetEntry(&image, 0, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 0: its bytes lie outside the shared block");

  image = Build(Inputs(1, 2));
  e = EntryOf(image, 0);
  e.size += 1 << 20;  // past the end of the shared block
  SetEntry(&image, 0, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 0: its bytes lie outside the shared block");

  // A delta whose representative is itself a delta, or no entry at all.
  image = Build(Inputs(1, 3));
  e = EntryOf(image, 2);
  e.representative = 1;
  SetEntry(&image, 2, e);
  EXPECT_EQ(ParseError(image),
            "catalog: entry 2: names entry 1 as its representative, which is not one");
  e.representative = 7;
  SetEntry(&image, 2, e);
  EXPECT_EQ(ParseError(image),
            "catalog: entry 2: names entry 7 as its representative, which is not one");

  // A representative that claims a frame.
  image = Build(Inputs(1, 2));
  e = EntryOf(image, 0);
  e.frame_size = 10;
  SetEntry(&image, 0, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 0: is a representative with a delta frame");
}

TEST(Catalog, RefusesAbsurdSizesBeforeDecompressing) {
  auto image = Build(Inputs(1));
  format::Entry e = EntryOf(image, 0);
  e.size = static_cast<uint32_t>(format::kMaxCodeObjectSize + 1);
  SetEntry(&image, 0, e);
  EXPECT_EQ(ParseError(image), "catalog: entry 0: records a code object of " +
                                   std::to_string(format::kMaxCodeObjectSize + 1) + " bytes");
}

TEST(Catalog, DecompressionStopsAtTheRecordedSize) {
  // The entry claims fewer bytes than its frame holds: the frame header
  // disagrees, so nothing is decompressed past the recorded size.
  auto image = Build(Inputs(1, 2));
  format::Entry e = EntryOf(image, 1);
  e.size -= 1;
  SetEntry(&image, 1, e);
  const Status status = DecompressStatus(image, 1);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, ISAPACK_STATUS_DATA_CORRUPT);
  EXPECT_EQ(status.error().message,
            "catalog entry 1 (gfx1101): zstd frame header does not declare the recorded size of " +
                std::to_string(e.size) + " bytes; the data is damaged");
}

TEST(Catalog, RefusesARepresentativeWhoseBytesFailTheirHash) {
  auto image = Build(Inputs(1, 2));
  format::Entry e = EntryOf(image, 0);
  e.xxh3_64 ^= 1;
  SetEntry(&image, 0, e);
  const std::string error = ParseError(image);
  EXPECT_EQ(error.rfind("catalog: entry 0 (gfx1100): its representative fails its XXH3-64 check "
                        "(expected 0x",
                        0),
            0u)
      << error;
  EXPECT_NE(error.find("; the data is damaged"), std::string::npos) << error;
}

TEST(Catalog, FullVerificationChecksADeltasOutputAndTheLoadPathItsFrame) {
  // The recorded hash of a delta's code object is wrong: full verification
  // (Decompress) refuses it; the load path (DecodeTo) relies on the frame's
  // hash and the representative's, which hold.
  auto image = Build(Inputs(1, 2));
  format::Entry e = EntryOf(image, 1);
  e.xxh3_64 ^= 1;
  SetEntry(&image, 1, e);
  const Status status = DecompressStatus(image, 1);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message.rfind("catalog entry 1 (gfx1101): fails its XXH3-64 check", 0),
            0u)
      << status.error().message;
  auto catalog = Catalog::Parse(image);
  ASSERT_TRUE(catalog);
  std::vector<uint8_t> loaded;
  ASSERT_TRUE(catalog->DecodeTo(1, &loaded));
  EXPECT_EQ(loaded, Inputs(1, 2)[1].bytes);

  // A wrong frame hash stops both before zstd reads the frame.
  image = Build(Inputs(1, 2));
  e = EntryOf(image, 1);
  e.frame_xxh3_64 ^= 1;
  SetEntry(&image, 1, e);
  catalog = Catalog::Parse(image);
  ASSERT_TRUE(catalog);
  const Status load = catalog->DecodeTo(1, &loaded);
  ASSERT_FALSE(load);
  EXPECT_EQ(
      load.error().message.rfind(
          "catalog entry 1 (gfx1101): compressed bytes fail their XXH3-64 check (expected 0x", 0),
      0u)
      << load.error().message;
  EXPECT_FALSE(DecompressStatus(image, 1));
}

TEST(Catalog, DetectsADamagedDeltaFrameBeforeZstdReadsIt) {
  auto image = Build(Inputs(1, 2));
  const format::Entry e = EntryOf(image, 1);
  image[e.offset + e.frame_size / 2] ^= 0x08;  // frames are outside the hashed table
  const Status status = DecompressStatus(image, 1);
  ASSERT_FALSE(status);
  EXPECT_EQ(
      status.error().message.rfind(
          "catalog entry 1 (gfx1101): compressed bytes fail their XXH3-64 check (expected 0x", 0),
      0u)
      << status.error().message;
  EXPECT_NE(status.error().message.find("); the data is damaged"), std::string::npos);
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
