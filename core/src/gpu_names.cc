#include "gpu_names.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace isapack {
namespace {

// Lower case, single spaces, no leading "amd " and no trailing " laptop",
// " igpu" or " cdna" (TheRock's "AMD Radeon 780M Laptop iGPU" is the Radeon
// 780M): the form names are compared in.
std::string Normalize(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.rfind("amd ", 0) == 0) out.erase(0, 4);
  for (bool trimmed = true; trimmed;) {
    trimmed = false;
    for (const std::string_view word : {" laptop", " igpu", " cdna"}) {
      if (out.size() > word.size() && out.ends_with(word)) {
        out.resize(out.size() - word.size());
        trimmed = true;
      }
    }
  }
  return out;
}

const ProcessorInfo* FindByProduct(const std::string& normalized) {
  for (const ProcessorInfo& processor : Processors()) {
    for (const std::string_view product : processor.products) {
      if (Normalize(product) == normalized) return &processor;
    }
  }
  return nullptr;
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

const ProcessorInfo* FindProcessorByAnyName(std::string_view name) {
  const Expected<TargetId> target = ResolveGpuName(name);
  return target.ok() ? target->processor : nullptr;
}

Expected<TargetId> ResolveGpuName(std::string_view name) {
  const std::string normalized = Normalize(name);
  TargetId target;
  if (ParseIsaName(normalized, &target).error == TargetIdError::kOk && !target.is_generic()) {
    return target;
  }
  if (const ProcessorInfo* processor = FindByProduct(normalized)) {
    TargetId by_product;
    by_product.processor = processor;
    return by_product;
  }
  return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT, DescribeUnknownGpu(name));
}

std::string DescribeUnknownGpu(std::string_view name) {
  const std::string normalized = Normalize(name);
  TargetId target;
  if (ParseIsaName(normalized, &target).error == TargetIdError::kOk && target.is_generic()) {
    std::string members;
    for (const uint16_t index : target.generic->members) {
      members += (members.empty() ? "" : " ") + std::string(Processors()[index].name);
    }
    return "'" + std::string(name) +
           "' is a generic target, not a GPU: name one of its processors (" + members + ")";
  }
  size_t best_distance = SIZE_MAX;
  std::string_view best;
  const ProcessorInfo* best_processor = nullptr;
  const auto consider = [&](std::string_view candidate, const ProcessorInfo& processor) {
    const size_t distance = EditDistance(normalized, Normalize(candidate));
    if (distance < best_distance && distance <= std::max<size_t>(1, candidate.size() / 3)) {
      best_distance = distance;
      best = candidate;
      best_processor = &processor;
    }
  };
  for (const ProcessorInfo& processor : Processors()) {
    consider(processor.name, processor);
    for (const std::string_view product : processor.products) consider(product, processor);
  }
  std::string message = "unknown GPU '" + std::string(name) + "': ";
  if (best_processor != nullptr) {
    message += "did you mean '" + std::string(best) + "'";
    if (best != best_processor->name) message += " (" + std::string(best_processor->name) + ")";
    message += "? ";
  }
  return message + "`isapack targets` lists every name";
}

}  // namespace isapack
