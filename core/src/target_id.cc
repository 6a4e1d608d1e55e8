#include "target_id.h"

#include <cstring>

namespace isapack {
namespace {

// Appends text to a bounded buffer, counting the full length.
struct BoundedWriter {
  char* buffer;
  size_t capacity;
  size_t length = 0;

  void Append(std::string_view text) {
    for (char c : text) {
      if (capacity > 0 && length + 1 < capacity) buffer[length] = c;
      ++length;
    }
  }
  void Terminate() {
    if (capacity == 0) return;
    buffer[length < capacity ? length : capacity - 1] = '\0';
  }
};

}  // namespace

std::string_view ToString(FeatureSetting setting) {
  switch (setting) {
    case FeatureSetting::kUnsupported:
      return "unsupported";
    case FeatureSetting::kAny:
      return "any";
    case FeatureSetting::kOff:
      return "off";
    case FeatureSetting::kOn:
      return "on";
  }
  return "unsupported";
}

size_t TargetId::Format(char* buffer, size_t capacity) const {
  BoundedWriter writer{buffer, capacity};
  writer.Append(name());
  if (sramecc == FeatureSetting::kOn) writer.Append(":sramecc+");
  if (sramecc == FeatureSetting::kOff) writer.Append(":sramecc-");
  if (xnack == FeatureSetting::kOn) writer.Append(":xnack+");
  if (xnack == FeatureSetting::kOff) writer.Append(":xnack-");
  writer.Terminate();
  return writer.length;
}

std::string TargetId::ToString() const {
  std::string text(Format(nullptr, 0), '\0');
  Format(text.data(), text.size() + 1);
  return text;
}

std::optional<TargetId> GenericIsaOf(const TargetId& agent_isa) {
  if (agent_isa.processor == nullptr) return std::nullopt;
  const GenericInfo* generic = GenericOf(*agent_isa.processor);
  if (generic == nullptr) return std::nullopt;
  TargetId id;
  id.generic = generic;
  if (generic->xnack == FeatureSupport::kSupported) id.xnack = agent_isa.xnack;
  if (generic->sramecc == FeatureSupport::kSupported) id.sramecc = agent_isa.sramecc;
  return id;
}

std::string TargetId::ToIsaName() const {
  return std::string(kIsaNamePrefix) + ToString();
}

TargetIdParse ParseTargetId(std::string_view text, TargetId* out) {
  *out = TargetId{};
  if (text.empty()) return {TargetIdError::kEmpty, text};
  const size_t colon = text.find(':');
  const std::string_view base = text.substr(0, colon);
  out->processor = FindProcessor(base);
  if (out->processor == nullptr) out->generic = FindGeneric(base);
  if (out->processor == nullptr && out->generic == nullptr) {
    return {TargetIdError::kUnknownProcessor, base};
  }
  std::string_view rest = colon == std::string_view::npos ? std::string_view() : text.substr(colon);
  while (!rest.empty()) {
    // rest starts with ':'; the feature runs to the next ':'.
    const size_t next = rest.find(':', 1);
    const std::string_view feature =
        rest.substr(1, next == std::string_view::npos ? next : next - 1);
    rest = next == std::string_view::npos ? std::string_view() : rest.substr(next);
    if (feature.size() < 2) return {TargetIdError::kMalformedFeature, feature};
    const char sign = feature.back();
    const std::string_view key = feature.substr(0, feature.size() - 1);
    if ((sign != '+' && sign != '-') || (key != "sramecc" && key != "xnack")) {
      return {TargetIdError::kMalformedFeature, feature};
    }
    const bool is_sramecc = key == "sramecc";
    FeatureSetting& setting = is_sramecc ? out->sramecc : out->xnack;
    if (setting != FeatureSetting::kAny) return {TargetIdError::kDuplicateFeature, key};
    const FeatureSupport support = is_sramecc ? out->sramecc_support() : out->xnack_support();
    if (support == FeatureSupport::kAlways) return {TargetIdError::kFeatureAlwaysOn, key};
    if (support != FeatureSupport::kSupported) return {TargetIdError::kUnsupportedFeature, key};
    setting = sign == '+' ? FeatureSetting::kOn : FeatureSetting::kOff;
  }
  return {};
}

TargetIdParse ParseIsaName(std::string_view text, TargetId* out, bool accept_bare) {
  if (text.substr(0, kIsaNamePrefix.size()) == kIsaNamePrefix) {
    return ParseTargetId(text.substr(kIsaNamePrefix.size()), out);
  }
  if (!accept_bare || text.find("--") != std::string_view::npos) {
    *out = TargetId{};
    return {TargetIdError::kNotAnIsaName, text};
  }
  return ParseTargetId(text, out);
}

std::string DescribeTargetIdError(std::string_view input, const TargetIdParse& parse) {
  const bool isa_name = input.substr(0, kIsaNamePrefix.size()) == kIsaNamePrefix;
  const std::string what = (isa_name ? "ISA name '" : "target ID '") + std::string(input) + "'";
  const std::string quoted = "'" + std::string(input) + "'";
  const std::string at(parse.at);
  switch (parse.error) {
    case TargetIdError::kOk:
      return "";
    case TargetIdError::kEmpty:
      return "empty target ID: expected a processor such as gfx1100 or gfx90a:xnack+";
    case TargetIdError::kUnknownProcessor:
      return what + ": unknown processor '" + at +
             "'; `isapack targets` lists the processors isapack knows";
    case TargetIdError::kMalformedFeature:
      return what + ": malformed target feature '" + at +
             "'; features are sramecc+, sramecc-, xnack+ and xnack-";
    case TargetIdError::kDuplicateFeature:
      return what + ": target feature '" + at + "' is given twice";
    case TargetIdError::kUnsupportedFeature:
      return what + ": the processor has no " + at + " setting";
    case TargetIdError::kFeatureAlwaysOn:
      return what + ": " + at + " is always on for this processor and never part of its target ID";
    case TargetIdError::kNotAnIsaName:
      return "ISA name " + quoted + ": expected amdgcn-amd-amdhsa--<target ID>, e.g. " +
             "amdgcn-amd-amdhsa--gfx1100";
  }
  return "invalid target ID " + quoted;
}

bool FeatureCompatible(FeatureSetting object, FeatureSetting device) {
  // As ROCr decides: code built for "any" (or without the feature) runs in
  // either mode; an explicit mode must equal the device's, which must be known.
  if (object == FeatureSetting::kUnsupported || object == FeatureSetting::kAny) return true;
  return object == device;
}

}  // namespace isapack
