// Selector expansion: the project's one engine. Configure runs it (through
// tools/pipeline/expand_gpu_targets.cc, cmake/IsapackExpand.cmake), and so do
// `isapack expand` and the tests. It turns a packager's GPU selectors into
// the smallest set of code objects the configured LLVM can build.
//
// Rules, in order:
// 1. A selector is a group (TheRock family or bundle, or `all`), an LLVM
//    generic processor, or an exact processor, each spelled exactly as in the
//    data file. Exact and generic targets may carry target-ID features
//    (sramecc then xnack, each + or -); a processor must have the feature.
// 2. Each selector stands for exact targets: a group for its members, a
//    generic for its member processors, an exact target for itself.
// 3. An exact target the compiler cannot build stops configure when the user
//    named it; when it came from a group or generic it is left out with the
//    reason (ISAPACK_STRICT_TARGETS=ON makes that an error too).
// 4. Mode `generic`: an exact target maps to its generic processor when the
//    compiler can build that generic and the generic can express the requested
//    features; otherwise to an exact code object. Mode `exact`: one code object
//    per exact target. Generic code objects are code object v6; exact ones use
//    the configured version (5 by default, 4 allowed).
// 5. Code objects are reported in the data file's order of the first exact
//    target each covers, then by target ID; covered targets likewise.
#ifndef ISAPACK_CORE_EXPANSION_H_
#define ISAPACK_CORE_EXPANSION_H_

#include <string>
#include <vector>

#include "error.h"

namespace isapack {

struct ExpansionOptions {
  std::vector<std::string> selectors;     // as given; items are trimmed, empty ones skipped
  std::string mode = "generic";           // generic | exact
  std::string code_object_version = "5";  // of exact code objects: 4 | 5
  std::vector<std::string> supported;     // processors the compiler can build
  unsigned llvm_major = 19;               // for messages
  bool strict = false;                    // left-out members become errors
};

struct ExpandedObject {
  std::string target_id;
  unsigned code_object_version = 0;
  std::vector<std::string> covers;  // exact target IDs
};

struct LeftOutTarget {
  std::string target_id;
  std::string reason;
};

struct Expansion {
  std::vector<ExpandedObject> objects;
  std::vector<std::string> covered;
  std::vector<LeftOutTarget> left_out;
};

// Expands selectors; on failure the error message is the one configure prints.
Expected<Expansion> Expand(const ExpansionOptions& options);

// What a compiler of LLVM major `llvm_major` can build, according to the
// target table (processors and generics).
std::vector<std::string> SupportedByLlvm(unsigned llvm_major);

// The canonical text form of the case files (tests/expansion/cases.txt):
//   object <target-id> v<version> <covered>...
//   left-out <target-id> <reason>
std::string FormatExpansionLines(const Expansion& expansion);

// Every valid selector: processors, generics, then groups.
const std::vector<std::string>& AllSelectors();

}  // namespace isapack

#endif  // ISAPACK_CORE_EXPANSION_H_
