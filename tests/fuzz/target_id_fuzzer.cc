// libFuzzer target: target-ID and HSA ISA-name parsing. A parse that succeeds
// must format to a canonical spelling that parses to the same target ID.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "target_id.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  isapack::TargetId id;
  const isapack::TargetIdParse parse = isapack::ParseIsaName(text, &id);
  if (parse.error != isapack::TargetIdError::kOk) {
    (void)isapack::DescribeTargetIdError(text, parse);
    return 0;
  }
  const std::string canonical = id.ToString();
  isapack::TargetId again;
  if (isapack::ParseTargetId(canonical, &again).error != isapack::TargetIdError::kOk ||
      again.ToString() != canonical || again.processor != id.processor ||
      again.generic != id.generic) {
    std::abort();  // the canonical spelling does not round-trip
  }
  (void)id.ToIsaName();
  return 0;
}
