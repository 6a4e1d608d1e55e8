// Configure-time selector expansion, the build's one engine: cmake/
// IsapackGpuTargets.cmake builds this program once per build tree and runs
// it; CMake only prints the summary it writes and reads the record.
//   isapack-expand-gpu-targets --record <file> --selectors <list> --from <variable>
//     --mode generic|exact --code-object-version 4|5 --supported <list>
//     --llvm-major <n> --strict ON|OFF --isapack-version <v>
//     --compiler <path> --compiler-version <v> --probe <text> [--library <name>]
// Lists are ';'-separated, as CMake writes them. On success: the record is
// written (through a temporary file and a rename), the summary goes to
// stdout one line per message, exit 0. On failure: the message on stderr,
// no record, exit 1 (2 for a usage error of this program).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "expansion.h"
#include "expansion_record.h"
#include "output_file.h"

namespace {

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> items;
  size_t start = 0;
  for (;;) {
    const size_t end = list.find(';', start);
    items.push_back(list.substr(start, end == std::string::npos ? end : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return items;
}

int Usage(const std::string& problem) {
  std::cerr << "isapack-expand-gpu-targets: " << problem
            << " (usage: --record FILE --selectors LIST --from VARIABLE --mode generic|exact"
               " --code-object-version 4|5 --supported LIST --llvm-major N --strict ON|OFF"
               " --isapack-version V --compiler PATH --compiler-version V --probe TEXT"
               " [--library NAME])\n";
  return 2;
}

// The options, each given once with a value; "" when they are, else the
// usage problem (and *values is incomplete).
std::string ParseOptions(int argc, char** argv, std::map<std::string, std::string>* values) {
  static const char* const kOptions[] = {"--record",
                                         "--selectors",
                                         "--from",
                                         "--mode",
                                         "--code-object-version",
                                         "--supported",
                                         "--llvm-major",
                                         "--strict",
                                         "--isapack-version",
                                         "--compiler",
                                         "--compiler-version",
                                         "--probe"};
  for (int i = 1; i < argc; i += 2) {
    const std::string name = argv[i];
    if (name != "--library" &&
        std::find(std::begin(kOptions), std::end(kOptions), name) == std::end(kOptions)) {
      return "unknown option '" + name + "'";
    }
    if (i + 1 >= argc) return name + " needs a value";
    (*values)[name] = argv[i + 1];
  }
  for (const char* name : kOptions) {
    if (values->count(name) == 0) return std::string(name) + " is missing";
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> values;
  const std::string problem = ParseOptions(argc, argv, &values);
  if (!problem.empty()) return Usage(problem);
  unsigned llvm_major = 0;
  try {
    llvm_major = static_cast<unsigned>(std::stoul(values["--llvm-major"]));
  } catch (const std::exception&) {
    return Usage("--llvm-major '" + values["--llvm-major"] + "' is not a number");
  }
  if (values["--strict"] != "ON" && values["--strict"] != "OFF")
    return Usage("--strict takes ON or OFF");

  isapack::ExpansionContext context;
  context.selectors = SplitList(values["--selectors"]);
  context.selectors_from = values["--from"];
  context.isapack_version = values["--isapack-version"];
  context.compiler_path = values["--compiler"];
  context.compiler_version = values["--compiler-version"];
  context.compiler_probe = values["--probe"];
  context.library = values["--library"];

  isapack::ExpansionOptions options;
  options.selectors = context.selectors;
  options.mode = values["--mode"];
  options.code_object_version = values["--code-object-version"];
  options.supported = SplitList(values["--supported"]);
  options.llvm_major = llvm_major;
  options.strict = values["--strict"] == "ON";

  const std::string& record_path = values["--record"];
  std::remove(record_path.c_str());  // never leave a record of an earlier, different run
  auto expansion = isapack::Expand(options);
  if (!expansion) {
    std::cerr << isapack::ConfigureErrorMessage(context, options, expansion.error().message)
              << "\n";
    return 1;
  }
  const std::string record = isapack::ExpansionRecordText(context, options, *expansion);
  if (isapack::Status status = isapack::WriteFileAtomically(
          record_path, std::span(reinterpret_cast<const uint8_t*>(record.data()), record.size()));
      !status) {
    std::cerr << status.error().message << "\n";
    return 1;
  }
  for (const std::string& line : isapack::ExpansionSummary(context, options, *expansion))
    std::cout << line << "\n";
  return 0;
}
