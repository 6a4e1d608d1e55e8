#include "kernel_metadata.h"

#include <nlohmann/json.hpp>

#include "code_object.h"

namespace isapack {
namespace {

using Json = nlohmann::json;

// AMDGPU metadata nests three levels (map, kernels, kernel, args, arg); a
// limit far above that keeps the parser's recursion bounded on any input.
constexpr size_t kMaxDepth = 16;

Error Corrupt(const std::string& what) {
  return MakeError(ISAPACK_STATUS_DATA_CORRUPT,
                   "the code object's AMDGPU metadata note " + what +
                       "; rebuild the code object with a released LLVM");
}

// Builds the document with nlohmann's DOM parser and refuses nesting deeper
// than kMaxDepth before the parser recurses into it.
class BoundedSax : public nlohmann::detail::json_sax_dom_parser<Json> {
 public:
  explicit BoundedSax(Json& result) : json_sax_dom_parser(result, false) {}
  bool start_object(std::size_t size) { return Enter() && json_sax_dom_parser::start_object(size); }
  bool end_object() {
    --depth_;
    return json_sax_dom_parser::end_object();
  }
  bool start_array(std::size_t size) { return Enter() && json_sax_dom_parser::start_array(size); }
  bool end_array() {
    --depth_;
    return json_sax_dom_parser::end_array();
  }
  bool too_deep() const { return too_deep_; }

 private:
  bool Enter() {
    if (++depth_ <= kMaxDepth) return true;
    too_deep_ = true;
    return false;
  }
  size_t depth_ = 0;
  bool too_deep_ = false;
};

// field `key` of `object` as an unsigned 32-bit value.
Expected<uint32_t> Unsigned(const Json& object, const char* key, const std::string& where,
                            bool required) {
  const auto it = object.find(key);
  if (it == object.end()) {
    if (!required) return uint32_t{0};
    return Corrupt("gives " + where + " no " + key);
  }
  if (!it->is_number_unsigned() || it->get<uint64_t>() > UINT32_MAX) {
    if (it->is_number_integer() && it->get<int64_t>() >= 0 && it->get<int64_t>() <= INT32_MAX)
      return static_cast<uint32_t>(it->get<int64_t>());
    return Corrupt("gives " + where + " a " + key + " that is not a 32-bit unsigned number");
  }
  return static_cast<uint32_t>(it->get<uint64_t>());
}

Expected<std::string> String(const Json& object, const char* key, const std::string& where,
                             bool required) {
  const auto it = object.find(key);
  if (it == object.end()) {
    if (!required) return std::string();
    return Corrupt("gives " + where + " no " + key);
  }
  if (!it->is_string()) return Corrupt("gives " + where + " a " + key + " that is not a string");
  return it->get<std::string>();
}

Expected<KernelArgument> ReadArgument(const Json& arg, const std::string& where) {
  if (!arg.is_object()) return Corrupt("lists " + where + " as something other than a map");
  KernelArgument out;
  auto name = String(arg, ".name", where, false);
  auto kind = String(arg, ".value_kind", where, true);
  auto offset = Unsigned(arg, ".offset", where, true);
  auto size = Unsigned(arg, ".size", where, true);
  if (!name) return name.take_error();
  if (!kind) return kind.take_error();
  if (!offset) return offset.take_error();
  if (!size) return size.take_error();
  out.name = std::move(*name);
  out.value_kind = std::move(*kind);
  out.offset = *offset;
  out.size = *size;
  return out;
}

Expected<KernelMetadata> ReadKernel(const Json& kernel, size_t index) {
  std::string where = "kernel " + std::to_string(index);
  if (!kernel.is_object()) return Corrupt("lists " + where + " as something other than a map");
  KernelMetadata out;
  auto name = String(kernel, ".name", where, true);
  if (!name) return name.take_error();
  out.name = std::move(*name);
  where = "kernel " + out.name;
  auto symbol = String(kernel, ".symbol", where, true);
  if (!symbol) return symbol.take_error();
  out.symbol = std::move(*symbol);
  const std::pair<const char*, uint32_t*> numbers[] = {
      {".kernarg_segment_size", &out.kernarg_segment_size},
      {".kernarg_segment_align", &out.kernarg_segment_align},
      {".group_segment_fixed_size", &out.group_segment_fixed_size},
      {".private_segment_fixed_size", &out.private_segment_fixed_size},
      {".wavefront_size", &out.wavefront_size},
  };
  for (const auto& [key, value] : numbers) {
    auto read = Unsigned(kernel, key, where, true);
    if (!read) return read.take_error();
    *value = *read;
  }
  auto max_workgroup = Unsigned(kernel, ".max_flat_workgroup_size", where, false);
  if (!max_workgroup) return max_workgroup.take_error();
  out.max_flat_workgroup_size = *max_workgroup;
  const auto args = kernel.find(".args");
  if (args != kernel.end()) {
    if (!args->is_array()) return Corrupt("gives " + where + " .args that are not a list");
    for (size_t i = 0; i < args->size(); ++i) {
      auto arg = ReadArgument((*args)[i], where + " argument " + std::to_string(i));
      if (!arg) return arg.take_error();
      if (uint64_t{arg->offset} + arg->size > out.kernarg_segment_size) {
        return Corrupt(
            "places " + where + " argument " + std::to_string(i) + " at bytes " +
            std::to_string(arg->offset) + ".." + std::to_string(uint64_t{arg->offset} + arg->size) +
            ", past its kernarg segment of " + std::to_string(out.kernarg_segment_size) + " bytes");
      }
      out.args.push_back(std::move(*arg));
    }
  }
  return out;
}

}  // namespace

uint32_t KernelMetadata::explicit_kernarg_size() const {
  uint32_t end = 0;
  for (const KernelArgument& arg : args) {
    if (!arg.hidden()) end = std::max(end, arg.offset + arg.size);
  }
  return end;
}

Expected<CodeObjectMetadata> ReadMetadataNote(std::span<const uint8_t> note) {
  CodeObjectMetadata metadata;
  Json document;
  BoundedSax sax(document);
  const bool parsed = Json::sax_parse(note.begin(), note.end(), &sax,
                                      nlohmann::detail::input_format_t::msgpack, true);
  if (sax.too_deep()) return Corrupt("nests deeper than " + std::to_string(kMaxDepth) + " levels");
  if (!parsed || document.is_discarded()) return Corrupt("is not valid msgpack");
  if (!document.is_object()) return Corrupt("is not a msgpack map");
  auto target = String(document, "amdhsa.target", "the code object", false);
  if (!target) return target.take_error();
  metadata.target = std::move(*target);
  const auto list = document.find("amdhsa.kernels");
  if (list == document.end()) return metadata;
  if (!list->is_array()) return Corrupt("has amdhsa.kernels that are not a list");
  for (size_t i = 0; i < list->size(); ++i) {
    auto kernel = ReadKernel((*list)[i], i);
    if (!kernel) return kernel.take_error();
    metadata.kernels.push_back(std::move(*kernel));
  }
  return metadata;
}

Expected<std::vector<KernelMetadata>> ReadKernelMetadata(std::span<const uint8_t> image) {
  auto note = FindMetadataNote(image);
  if (!note) return note.take_error();
  if (note->empty()) return std::vector<KernelMetadata>();
  auto metadata = ReadMetadataNote(*note);
  if (!metadata) return metadata.take_error();
  return std::move(metadata->kernels);
}

std::vector<std::string> ValidateDeviceCode(std::span<const uint8_t> image, const TargetId& target,
                                            unsigned code_object_version) {
  auto kernels = ReadKernelMetadata(image);
  if (!kernels) return {kernels.error().message};
  if (kernels->empty()) {
    return {
        "lists no kernel in its AMDGPU metadata; a device library needs at least one "
        "ISAPACK_KERNEL"};
  }
  CodeObjectExpectation expected;
  expected.target = target;
  expected.code_object_version = code_object_version;
  for (const KernelMetadata& kernel : *kernels)
    expected.kernel_descriptors.push_back(kernel.symbol);
  return ValidateCodeObject(image, expected);
}

}  // namespace isapack
