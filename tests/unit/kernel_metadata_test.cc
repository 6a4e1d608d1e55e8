// The AMDGPU metadata reader (core/src/kernel_metadata.cc) on synthetic
// notes: the fields a dispatch needs, explicit vs hidden arguments, and a
// DATA_CORRUPT error naming the field for every kind of damage.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kernel_metadata.h"
#include "support/elf_builder.h"

namespace isapack {
namespace {

using Json = nlohmann::json;

Json Kernel() {
  return Json{
      {".name", "saxpy"},
      {".symbol", "saxpy.kd"},
      {".kernarg_segment_size", 288},
      {".kernarg_segment_align", 8},
      {".group_segment_fixed_size", 256},
      {".private_segment_fixed_size", 16},
      {".wavefront_size", 32},
      {".max_flat_workgroup_size", 1024},
      {".args",
       Json::array(
           {Json{{".name", "args"}, {".offset", 0}, {".size", 24}, {".value_kind", "by_value"}},
            Json{{".offset", 24}, {".size", 8}, {".value_kind", "global_buffer"}},
            Json{{".offset", 32}, {".size", 4}, {".value_kind", "hidden_block_count_x"}},
            Json{{".offset", 280}, {".size", 8}, {".value_kind", "hidden_queue_ptr"}}})}};
}

std::vector<uint8_t> CodeObjectWith(const Json& metadata) {
  testing::ElfSpec spec;
  spec.metadata_note = Json::to_msgpack(metadata);
  return testing::BuildElf(spec);
}

Json Document(const Json& kernels) {
  return Json{{"amdhsa.version", {1, 2}},
              {"amdhsa.target", "amdgcn-amd-amdhsa--gfx1100"},
              {"amdhsa.kernels", kernels}};
}

std::string ErrorOf(const Json& metadata) {
  auto kernels = ReadKernelMetadata(CodeObjectWith(metadata));
  if (kernels) return "no error";
  EXPECT_EQ(kernels.error().code, ISAPACK_STATUS_DATA_CORRUPT);
  return kernels.error().message;
}

TEST(KernelMetadata, ReadsEveryFieldADispatchNeedsAndTheArguments) {
  auto kernels = ReadKernelMetadata(CodeObjectWith(Document(Json::array({Kernel()}))));
  ASSERT_TRUE(kernels) << kernels.error().message;
  ASSERT_EQ(kernels->size(), 1u);
  const KernelMetadata& k = kernels->at(0);
  EXPECT_EQ(k.name, "saxpy");
  EXPECT_EQ(k.symbol, "saxpy.kd");
  EXPECT_EQ(k.kernarg_segment_size, 288u);
  EXPECT_EQ(k.kernarg_segment_align, 8u);
  EXPECT_EQ(k.group_segment_fixed_size, 256u);
  EXPECT_EQ(k.private_segment_fixed_size, 16u);
  EXPECT_EQ(k.wavefront_size, 32u);
  EXPECT_EQ(k.max_flat_workgroup_size, 1024u);
  ASSERT_EQ(k.args.size(), 4u);
  EXPECT_EQ(k.args[0].name, "args");
  EXPECT_EQ(k.args[1].name, "");
  EXPECT_EQ(k.args[1].value_kind, "global_buffer");
  EXPECT_FALSE(k.args[1].hidden());
  EXPECT_TRUE(k.args[2].hidden());
  EXPECT_EQ(k.explicit_kernarg_size(), 32u) << "end of the last argument that is not hidden";
}

TEST(KernelMetadata, ACodeObjectWithoutNoteOrKernelListHasNoKernels) {
  auto none = ReadKernelMetadata(testing::BuildElf({}));
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->empty());
  auto no_list = ReadKernelMetadata(CodeObjectWith(Json{{"amdhsa.version", {1, 2}}}));
  ASSERT_TRUE(no_list) << no_list.error().message;
  EXPECT_TRUE(no_list->empty());
}

TEST(KernelMetadata, AKernelWithoutArgumentsTakesNoExplicitBytes) {
  Json kernel = Kernel();
  kernel.erase(".args");
  auto kernels = ReadKernelMetadata(CodeObjectWith(Document(Json::array({kernel}))));
  ASSERT_TRUE(kernels) << kernels.error().message;
  EXPECT_EQ(kernels->at(0).explicit_kernarg_size(), 0u);
}

TEST(KernelMetadata, EachKindOfDamageIsAnErrorNamingTheField) {
  const std::string fix = "; rebuild the code object with a released LLVM";
  Json missing = Kernel();
  missing.erase(".kernarg_segment_size");
  EXPECT_EQ(
      ErrorOf(Document(Json::array({missing}))),
      "the code object's AMDGPU metadata note gives kernel saxpy no .kernarg_segment_size" + fix);
  Json nameless = Kernel();
  nameless.erase(".name");
  EXPECT_EQ(ErrorOf(Document(Json::array({nameless}))),
            "the code object's AMDGPU metadata note gives kernel 0 no .name" + fix);
  Json negative = Kernel();
  negative[".group_segment_fixed_size"] = -1;
  EXPECT_EQ(ErrorOf(Document(Json::array({negative}))),
            "the code object's AMDGPU metadata note gives kernel saxpy a .group_segment_fixed_size "
            "that is not a 32-bit unsigned number" +
                fix);
  Json huge = Kernel();
  huge[".wavefront_size"] = uint64_t{1} << 40;
  EXPECT_EQ(ErrorOf(Document(Json::array({huge}))),
            "the code object's AMDGPU metadata note gives kernel saxpy a .wavefront_size that is "
            "not a 32-bit unsigned number" +
                fix);
  Json symbol = Kernel();
  symbol[".symbol"] = 7;
  EXPECT_EQ(ErrorOf(Document(Json::array({symbol}))),
            "the code object's AMDGPU metadata note gives kernel saxpy a .symbol that is not a "
            "string" +
                fix);
  Json past = Kernel();
  past[".args"][3][".offset"] = 284;
  EXPECT_EQ(ErrorOf(Document(Json::array({past}))),
            "the code object's AMDGPU metadata note places kernel saxpy argument 3 at bytes "
            "284..292, past its kernarg segment of 288 bytes" +
                fix);
  Json args = Kernel();
  args[".args"] = "none";
  EXPECT_EQ(
      ErrorOf(Document(Json::array({args}))),
      "the code object's AMDGPU metadata note gives kernel saxpy .args that are not a list" + fix);
  Json kind = Kernel();
  kind[".args"][0].erase(".value_kind");
  EXPECT_EQ(
      ErrorOf(Document(Json::array({kind}))),
      "the code object's AMDGPU metadata note gives kernel saxpy argument 0 no .value_kind" + fix);
  EXPECT_EQ(
      ErrorOf(Document(Json::array({7}))),
      "the code object's AMDGPU metadata note lists kernel 0 as something other than a map" + fix);
  EXPECT_EQ(ErrorOf(Json{{"amdhsa.kernels", "saxpy"}}),
            "the code object's AMDGPU metadata note has amdhsa.kernels that are not a list" + fix);
  EXPECT_EQ(ErrorOf(Json::array({1, 2})),
            "the code object's AMDGPU metadata note is not a msgpack map" + fix);
}

TEST(KernelMetadata, TruncatedOrDeeplyNestedMsgpackIsRefusedWithoutRecursingIntoIt) {
  testing::ElfSpec truncated;
  truncated.metadata_note = Json::to_msgpack(Document(Json::array({Kernel()})));
  truncated.metadata_note.resize(truncated.metadata_note.size() / 2);
  auto cut = ReadKernelMetadata(testing::BuildElf(truncated));
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().message,
            "the code object's AMDGPU metadata note is not valid msgpack; rebuild the code object "
            "with a released LLVM");
  // 100,000 nested one-element arrays (0x91): far past any parser's stack
  // if it recursed into them.
  testing::ElfSpec deep;
  deep.metadata_note.assign(100000, 0x91);
  deep.metadata_note.push_back(0xc0);
  auto nested = ReadKernelMetadata(testing::BuildElf(deep));
  ASSERT_FALSE(nested);
  EXPECT_EQ(nested.error().message,
            "the code object's AMDGPU metadata note nests deeper than 16 levels; rebuild the code "
            "object with a released LLVM");
}

}  // namespace
}  // namespace isapack
