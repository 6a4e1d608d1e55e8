// Writes an isapack catalog for tests: the code objects `selectors` expand
// to (mode, LLVM major), each a small synthetic ELF with the right e_flags.
//   isapack_test_catalog <selectors;...> <generic|exact> <llvm> <output>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "catalog_writer.h"
#include "code_object.h"
#include "expansion.h"
#include "support/elf_builder.h"
#include "target_id.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: " << argv[0] << " <selectors;...> <generic|exact> <llvm> <output>\n";
    return 2;
  }
  isapack::ExpansionOptions options;
  std::string list = argv[1];
  for (size_t start = 0, end; start <= list.size(); start = end + 1) {
    end = list.find(';', start);
    if (end == std::string::npos) end = list.size();
    options.selectors.push_back(list.substr(start, end - start));
  }
  options.mode = argv[2];
  options.llvm_major = static_cast<unsigned>(std::stoul(argv[3]));
  options.supported = isapack::SupportedByLlvm(options.llvm_major);
  auto expansion = isapack::Expand(options);
  if (!expansion) {
    std::cerr << expansion.error().message << "\n";
    return 1;
  }
  std::vector<isapack::CatalogInput> inputs;
  for (const isapack::ExpandedObject& object : expansion->objects) {
    isapack::TargetId id;
    isapack::ParseTargetId(object.target_id, &id);
    isapack::testing::ElfSpec spec;
    spec.abi_version = static_cast<uint8_t>(object.code_object_version - 2);
    spec.flags = isapack::CodeObjectFlags(id);
    spec.symbols = isapack::testing::AllKernelDescriptors();
    std::string covers;
    for (const std::string& c : object.covers) covers += (covers.empty() ? "" : " ") + c;
    inputs.push_back({object.target_id, covers, object.code_object_version, spec.flags,
                      isapack::testing::BuildElf(spec)});
  }
  const auto catalog = isapack::BuildCatalog(inputs, "{\"test\":true}").image;
  std::ofstream out(argv[4], std::ios::binary);
  out.write(reinterpret_cast<const char*>(catalog.data()),
            static_cast<std::streamsize>(catalog.size()));
  return out ? 0 : 1;
}
