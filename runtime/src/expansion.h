// Selector expansion in C++: the same rules and messages as
// cmake/IsapackExpand.cmake (see its header for the rules), for `isapack
// expand` and the tests. tests/expansion proves the two agree.
#ifndef ISAPACK_RUNTIME_EXPANSION_H_
#define ISAPACK_RUNTIME_EXPANSION_H_

#include <string>
#include <vector>

#include "error.h"

namespace isapack {

struct ExpansionOptions {
  std::vector<std::string> selectors;   // as given; items are trimmed, empty ones skipped
  std::string mode = "generic";         // generic | exact
  std::string code_object_version = "5";  // of exact code objects: 4 | 5
  std::vector<std::string> supported;   // processors the compiler can build
  unsigned llvm_major = 19;             // for messages
  bool strict = false;                  // left-out members become errors
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

// Expands selectors; on failure the error message is the one CMake prints.
Expected<Expansion> Expand(const ExpansionOptions& options);

// What a compiler of LLVM major `llvm_major` can build, according to the
// target table (processors and generics).
std::vector<std::string> SupportedByLlvm(unsigned llvm_major);

// The canonical text form shared with isapack_format_expansion():
//   object <target-id> v<version> <covered>...
//   left-out <target-id> <reason>
std::string FormatExpansionLines(const Expansion& expansion);

// Every valid selector: processors, generics, then groups.
const std::vector<std::string>& AllSelectors();

}  // namespace isapack

#endif  // ISAPACK_RUNTIME_EXPANSION_H_
