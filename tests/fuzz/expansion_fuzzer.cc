// libFuzzer target: selector expansion in C++ (core/src/expansion.cc).
// Input: first byte picks mode, code object version, LLVM release and
// strictness; the rest is a ';'-separated selector list. Any input expands
// or fails with a message; a success covers exactly the targets its code
// objects cover.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "expansion.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  isapack::ExpansionOptions options;
  const uint8_t control = data[0];
  options.mode = (control & 1) ? "exact" : "generic";
  options.code_object_version = (control & 2) ? "4" : "5";
  static const unsigned kLlvm[] = {19, 20, 23, 19};
  options.llvm_major = kLlvm[(control >> 2) & 3];
  // The lists are facts of the table: made once per release, not per input.
  static const std::vector<std::string> kSupported[] = {
      isapack::SupportedByLlvm(19), isapack::SupportedByLlvm(20), isapack::SupportedByLlvm(23)};
  options.supported = kSupported[options.llvm_major == 19 ? 0 : options.llvm_major == 20 ? 1 : 2];
  options.strict = (control & 16) != 0;
  std::string item;
  for (size_t i = 1; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == ';') {
      options.selectors.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  options.selectors.push_back(item);
  auto expansion = isapack::Expand(options);
  if (!expansion) {
    if (expansion.error().message.empty()) std::abort();  // every failure explains itself
    return 0;
  }
  std::set<std::string> covered(expansion->covered.begin(), expansion->covered.end());
  std::set<std::string> from_objects;
  for (const isapack::ExpandedObject& object : expansion->objects) {
    from_objects.insert(object.covers.begin(), object.covers.end());
  }
  if (covered != from_objects) std::abort();
  (void)isapack::FormatExpansionLines(*expansion);
  return 0;
}
