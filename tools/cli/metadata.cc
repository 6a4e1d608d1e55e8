#include "metadata.h"

namespace isapack {
namespace {

using json = nlohmann::json;

// A SAX pass that only measures nesting, so a hostile note cannot drive the
// DOM parser's recursion arbitrarily deep.
struct DepthCheck : nlohmann::json_sax<json> {
  int depth = 0;
  bool too_deep = false;
  bool Enter() {
    if (++depth > kMaxMetadataDepth) too_deep = true;
    return !too_deep;
  }
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return Enter(); }
  bool key(string_t&) override { return true; }
  bool end_object() override {
    --depth;
    return true;
  }
  bool start_array(std::size_t) override { return Enter(); }
  bool end_array() override {
    --depth;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }
};

uint64_t Unsigned(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number_unsigned() ? it->get<uint64_t>() : 0;
}

std::string String(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

Expected<json> ParseMetadataNote(std::span<const uint8_t> note) {
  DepthCheck check;
  const bool well_formed =
      json::sax_parse(note.begin(), note.end(), &check, json::input_format_t::msgpack,
                      /*strict=*/true);
  if (check.too_deep) {
    return MakeError(
        ISAPACK_STATUS_DATA_CORRUPT,
        "metadata note nests deeper than " + std::to_string(kMaxMetadataDepth) + " levels");
  }
  if (!well_formed)
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT, "metadata note is not valid MessagePack");
  try {
    return json::from_msgpack(note.begin(), note.end());
  } catch (const json::exception& e) {
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT, std::string("metadata note: ") + e.what());
  }
}

Expected<CodeObjectMetadata> ReadCodeObjectMetadata(std::span<const uint8_t> note) {
  auto parsed = ParseMetadataNote(note);
  if (!parsed) return parsed.take_error();
  CodeObjectMetadata metadata;
  if (!parsed->is_object())
    return MakeError(ISAPACK_STATUS_DATA_CORRUPT, "metadata note is not a map");
  metadata.target = String(*parsed, "amdhsa.target");
  const auto kernels = parsed->find("amdhsa.kernels");
  if (kernels != parsed->end() && kernels->is_array()) {
    for (const json& kernel : *kernels) {
      if (!kernel.is_object()) continue;
      metadata.kernels.push_back(
          {String(kernel, ".name"), String(kernel, ".symbol"),
           Unsigned(kernel, ".kernarg_segment_size"), Unsigned(kernel, ".group_segment_fixed_size"),
           Unsigned(kernel, ".private_segment_fixed_size"), Unsigned(kernel, ".wavefront_size")});
    }
  }
  return metadata;
}

}  // namespace isapack
