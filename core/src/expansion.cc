#include "expansion.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <tuple>
#include <unordered_set>

#include "target_id.h"
#include "target_table.h"

namespace isapack {
namespace {

enum class Kind { kNone, kProcessor, kGeneric, kFamily, kBundle };

Kind KindOf(std::string_view name) {
  if (FindProcessor(name)) return Kind::kProcessor;
  if (FindGeneric(name)) return Kind::kGeneric;
  if (const GroupInfo* group = FindGroup(name)) {
    return group->kind == GroupKind::kBundle ? Kind::kBundle : Kind::kFamily;
  }
  return Kind::kNone;
}

std::string Trim(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return std::string(text);
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Edit distance, or `limit` once the distance is known to be at least
// `limit` (a row's smallest cell never shrinks further down). `b` is a
// selector name (short), so the rows live on the stack.
size_t Levenshtein(std::string_view a, std::string_view b, size_t limit) {
  constexpr size_t kMaxName = 64;
  if (b.size() >= kMaxName) return std::min(limit, std::max(a.size(), b.size()));
  std::array<size_t, kMaxName> previous_row{}, current_row{};
  size_t* previous = previous_row.data();
  size_t* current = current_row.data();
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 0; i < a.size(); ++i) {
    current[0] = i + 1;
    size_t row_minimum = current[0];
    for (size_t j = 0; j < b.size(); ++j) {
      size_t cell = previous[j] + (a[i] == b[j] ? 0 : 1);
      if (previous[j + 1] + 1 < cell) cell = previous[j + 1] + 1;
      if (current[j] + 1 < cell) cell = current[j] + 1;
      current[j + 1] = cell;
      if (cell < row_minimum) row_minimum = cell;
    }
    if (row_minimum >= limit) return limit;
    std::swap(previous, current);
  }
  return std::min(limit, previous[b.size()]);
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

// The line for a selector that matches nothing: the closest spelling
// (case-insensitive edit distance up to 3), or, for a space-separated list,
// that the separator is ';'.
std::string UnknownSelectorLine(const std::string& selector) {
  if (selector.find_first_of(" \t") != std::string::npos) {
    std::string fixed;
    for (const char c : selector) {
      if (c != ' ' && c != '\t') {
        fixed += c;
      } else if (!fixed.empty() && fixed.back() != ';') {
        fixed += ';';
      }
    }
    return "unknown GPU selector '" + selector +
           "': GPU selectors are separated by ';', not by spaces; use '" + fixed + "'";
  }
  const std::string base = selector.substr(0, selector.find(':'));
  const std::string lower = Lower(base);
  std::string best;
  size_t best_distance = 4;
  static const std::vector<std::string> lowered = [] {
    std::vector<std::string> all;
    for (const std::string& name : AllSelectors()) all.push_back(Lower(name));
    return all;
  }();
  for (size_t i = 0; i < lowered.size(); ++i) {
    // The length difference is a lower bound of the distance: a long input
    // costs nothing against the short names.
    const size_t length_difference = lower.size() > lowered[i].size()
                                         ? lower.size() - lowered[i].size()
                                         : lowered[i].size() - lower.size();
    if (length_difference >= best_distance) continue;
    const size_t distance = Levenshtein(lower, lowered[i], best_distance);
    if (distance < best_distance) {
      best = AllSelectors()[i];
      best_distance = distance;
    }
  }
  std::string message = "unknown GPU selector '" + selector + "'";
  if (!best.empty()) message += "; did you mean '" + best + "'?";
  return message;
}

// Follows the unknown-selector lines, once.
const std::string& ValidSelectorsText() {
  static const std::string text = [] {
    std::vector<std::string> processors, generics, families, bundles;
    for (const ProcessorInfo& p : Processors()) processors.emplace_back(p.name);
    for (const GenericInfo& g : Generics()) generics.emplace_back(g.name);
    for (const GroupInfo& g : Groups()) {
      (g.kind == GroupKind::kBundle ? bundles : families).emplace_back(g.name);
    }
    std::string message = "Valid selectors (spelled exactly so):";
    message += "\n  exact targets: " + Join(processors, " ");
    message += "\n  generic targets: " + Join(generics, " ");
    message += "\n  families: " + Join(families, " ");
    message += "\n  bundles: " + Join(bundles, " ");
    message +=
        "\nExact and generic targets take target-ID features, e.g. gfx90a:xnack+ or "
        "gfx942:sramecc+:xnack-.";
    return message;
  }();
  return text;
}

struct ParsedSelector {
  std::string base;
  Kind kind = Kind::kNone;
  FeatureSetting sramecc = FeatureSetting::kAny;
  FeatureSetting xnack = FeatureSetting::kAny;
};

// The checks of _isapack_parse_selector, in the same order.
Expected<ParsedSelector> ParseSelector(const std::string& selector) {
  ParsedSelector parsed;
  const size_t colon = selector.find(':');
  parsed.base = selector.substr(0, colon);
  parsed.kind = KindOf(parsed.base);
  if (parsed.kind == Kind::kNone) {
    return MakeError(ISAPACK_STATUS_NOT_FOUND, UnknownSelectorLine(selector));
  }
  if (colon == std::string::npos) return parsed;
  if (parsed.kind == Kind::kFamily || parsed.kind == Kind::kBundle) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     "GPU selector '" + selector +
                         "': target features apply to exact and generic targets, not to the " +
                         (parsed.kind == Kind::kFamily ? "family " : "bundle ") + parsed.base);
  }
  size_t at = colon;
  while (at != std::string::npos) {
    const size_t next = selector.find(':', at + 1);
    const std::string part =
        selector.substr(at + 1, next == std::string::npos ? next : next - at - 1);
    at = next;
    const bool well_formed = part.size() >= 2 && (part.back() == '+' || part.back() == '-') &&
                             (part.substr(0, part.size() - 1) == "sramecc" ||
                              part.substr(0, part.size() - 1) == "xnack");
    if (!well_formed) {
      return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                       "GPU selector '" + selector + "': malformed target feature '" + part +
                           "'; features are sramecc+, sramecc-, xnack+ and xnack-");
    }
    const std::string feature = part.substr(0, part.size() - 1);
    const bool is_sramecc = feature == "sramecc";
    FeatureSetting& setting = is_sramecc ? parsed.sramecc : parsed.xnack;
    if (setting != FeatureSetting::kAny) {
      return MakeError(
          ISAPACK_STATUS_INVALID_ARGUMENT,
          "GPU selector '" + selector + "': target feature '" + feature + "' is given twice");
    }
    FeatureSupport support;
    if (const ProcessorInfo* p = FindProcessor(parsed.base)) {
      support = is_sramecc ? p->sramecc : p->xnack;
    } else {
      const GenericInfo* g = FindGeneric(parsed.base);
      support = is_sramecc ? g->sramecc : g->xnack;
    }
    if (support == FeatureSupport::kAlways) {
      return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                       "GPU selector '" + selector + "': " + parsed.base + " always has " +
                           feature + " on, so its target ID never carries " + feature + "; use '" +
                           parsed.base + "'");
    }
    if (support != FeatureSupport::kSupported) {
      return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                       "GPU selector '" + selector + "': " + parsed.base + " has no " + feature +
                           " setting; use '" + parsed.base + "'");
    }
    setting = part.back() == '+' ? FeatureSetting::kOn : FeatureSetting::kOff;
  }
  return parsed;
}

std::string CannotBuildReason(std::string_view name, unsigned llvm_major) {
  unsigned first = 0, removed = 0;
  if (const ProcessorInfo* p = FindProcessor(name)) {
    first = p->llvm;
    removed = p->llvm_removed;
  } else if (const GenericInfo* g = FindGeneric(name)) {
    first = g->llvm;
  }
  std::string why;
  if (llvm_major < first) {
    why = "it first appears in LLVM " + std::to_string(first);
  } else if (removed != 0 && llvm_major >= removed) {
    why = "LLVM " + std::to_string(removed) + " removed it";
  } else {
    why = "it is missing from the compiler's supported processor list";
  }
  return "LLVM " + std::to_string(llvm_major) + " cannot build " + std::string(name) + ": " + why;
}

std::string FormatId(std::string_view base, FeatureSetting sramecc, FeatureSetting xnack) {
  std::string id(base);
  if (sramecc == FeatureSetting::kOn) id += ":sramecc+";
  if (sramecc == FeatureSetting::kOff) id += ":sramecc-";
  if (xnack == FeatureSetting::kOn) id += ":xnack+";
  if (xnack == FeatureSetting::kOff) id += ":xnack-";
  return id;
}

struct Request {
  const ProcessorInfo* processor;
  FeatureSetting sramecc;
  FeatureSetting xnack;
  bool explicit_target;
  std::string selector;
};

// Sort key shared with CMake: the processor's data-file index, then the ID.
using OrderKey = std::tuple<size_t, std::string>;

OrderKey KeyOf(const std::string& exact_id) {
  const ProcessorInfo* p = FindProcessor(exact_id.substr(0, exact_id.find(':')));
  return {IndexOf(*p), exact_id};
}

}  // namespace

const std::vector<std::string>& AllSelectors() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const ProcessorInfo& p : Processors()) all.emplace_back(p.name);
    for (const GenericInfo& g : Generics()) all.emplace_back(g.name);
    for (const GroupInfo& g : Groups()) all.emplace_back(g.name);
    return all;
  }();
  return names;
}

std::vector<std::string> SupportedByLlvm(unsigned llvm_major) {
  std::vector<std::string> names;
  for (const ProcessorInfo& p : Processors()) {
    if (LlvmHas(p, llvm_major)) names.emplace_back(p.name);
  }
  for (const GenericInfo& g : Generics()) {
    if (LlvmHas(g, llvm_major)) names.emplace_back(g.name);
  }
  return names;
}

namespace {

Error Invalid(std::string message) {
  return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT, std::move(message));
}

// One expansion: selectors become requests (one per exact target asked for),
// requests are placed in code objects or left out, and every problem is
// collected so that one configure names them all: invalid selectors, then
// targets named explicitly that the compiler cannot build (one fix sentence
// for all), then strict-mode members.
class Expander {
 public:
  explicit Expander(const ExpansionOptions& options)
      : options_(options), exact_version_(options.code_object_version == "4" ? 4u : 5u) {}

  // Turns one selector into requests, or records its problem.
  void AddSelector(const std::string& selector);
  // Puts one request into its code object, or leaves it out with the reason.
  void Place(const Request& request);
  const std::vector<Request>& requests() const { return requests_; }
  // The problems found, as one message, or "" when there are none.
  std::string Problems() const;
  Expected<Expansion> Result(const std::vector<std::string>& selectors);

 private:
  struct Object {
    std::string id;
    unsigned version;
    size_t first;  // index of the first processor it covers
    std::vector<OrderKey> covers;
  };

  bool Supported(std::string_view name) const {
    return std::find(options_.supported.begin(), options_.supported.end(), name) !=
           options_.supported.end();
  }
  void CannotBuild(const std::string& selector, std::string_view name);
  void AddGenericMembers(const std::string& selector, const ParsedSelector& parsed);

  const ExpansionOptions& options_;
  const unsigned exact_version_;
  std::vector<std::string> problems_, unbuildable_, unbuildable_names_, strict_problems_;
  bool unknown_ = false;
  std::vector<Request> requests_;
  std::vector<Object> objects_;
  std::vector<std::pair<OrderKey, std::string>> left_out_;  // key, reason
};

void Expander::CannotBuild(const std::string& selector, std::string_view name) {
  if (std::find(unbuildable_names_.begin(), unbuildable_names_.end(), name) !=
      unbuildable_names_.end())
    return;
  unbuildable_.push_back("GPU selector '" + selector +
                         "': " + CannotBuildReason(name, options_.llvm_major));
  unbuildable_names_.emplace_back(name);
}

void Expander::AddSelector(const std::string& selector) {
  auto parsed = ParseSelector(selector);
  if (!parsed) {
    unknown_ = unknown_ || parsed.error().code == ISAPACK_STATUS_NOT_FOUND;
    problems_.push_back(parsed.error().message);
    return;
  }
  if (parsed->kind == Kind::kProcessor) {
    requests_.push_back(
        {FindProcessor(parsed->base), parsed->sramecc, parsed->xnack, true, selector});
  } else if (parsed->kind == Kind::kGeneric) {
    AddGenericMembers(selector, *parsed);
  } else {
    for (uint16_t index : FindGroup(parsed->base)->members) {
      requests_.push_back(
          {&Processors()[index], FeatureSetting::kAny, FeatureSetting::kAny, false, selector});
    }
  }
}

void Expander::AddGenericMembers(const std::string& selector, const ParsedSelector& parsed) {
  if (options_.mode == "generic" && !Supported(parsed.base)) {
    CannotBuild(selector, parsed.base);
    return;
  }
  for (uint16_t index : FindGeneric(parsed.base)->members) {
    const ProcessorInfo& member = Processors()[index];
    // A member keeps only the features it has.
    requests_.push_back(
        {&member,
         member.sramecc == FeatureSupport::kSupported ? parsed.sramecc : FeatureSetting::kAny,
         member.xnack == FeatureSupport::kSupported ? parsed.xnack : FeatureSetting::kAny, false,
         selector});
  }
}

void Expander::Place(const Request& request) {
  const std::string exact_id = FormatId(request.processor->name, request.sramecc, request.xnack);
  if (!Supported(request.processor->name)) {
    const std::string why = CannotBuildReason(request.processor->name, options_.llvm_major);
    if (request.explicit_target) {
      CannotBuild(request.selector, request.processor->name);
    } else if (options_.strict) {
      const std::string problem = "ISAPACK_STRICT_TARGETS is ON and GPU selector '" +
                                  request.selector + "' includes " +
                                  std::string(request.processor->name) + ", but " + why;
      if (std::find(strict_problems_.begin(), strict_problems_.end(), problem) ==
          strict_problems_.end()) {
        strict_problems_.push_back(problem);
      }
    } else {
      const OrderKey key = KeyOf(exact_id);
      if (std::none_of(left_out_.begin(), left_out_.end(),
                       [&](const auto& l) { return l.first == key; })) {
        left_out_.emplace_back(key, why);
      }
    }
    return;
  }
  std::string_view base = request.processor->name;
  const GenericInfo* generic = GenericOf(*request.processor);
  if (options_.mode == "generic" && generic != nullptr && Supported(generic->name)) {
    const bool expressible =
        (request.sramecc == FeatureSetting::kAny ||
         generic->sramecc == FeatureSupport::kSupported) &&
        (request.xnack == FeatureSetting::kAny || generic->xnack == FeatureSupport::kSupported);
    if (expressible) base = generic->name;
  }
  const std::string object_id = FormatId(base, request.sramecc, request.xnack);
  auto it = std::find_if(objects_.begin(), objects_.end(),
                         [&](const Object& o) { return o.id == object_id; });
  if (it == objects_.end()) {
    objects_.push_back({object_id, FindGeneric(base) ? 6u : exact_version_, SIZE_MAX, {}});
    it = objects_.end() - 1;
  }
  const OrderKey key = KeyOf(exact_id);
  if (std::find(it->covers.begin(), it->covers.end(), key) == it->covers.end())
    it->covers.push_back(key);
  it->first = std::min(it->first, IndexOf(*request.processor));
}

std::string Expander::Problems() const {
  std::vector<std::string> problems = problems_;
  if (!unbuildable_.empty()) {
    problems.push_back(Join(unbuildable_, "\n") +
                       ". Set ISAPACK_CLANG to a clang that can, or remove " +
                       Join(unbuildable_names_, " ") + " from the selectors.");
  }
  problems.insert(problems.end(), strict_problems_.begin(), strict_problems_.end());
  if (unknown_) problems.push_back(ValidSelectorsText());
  return Join(problems, "\n");
}

Expected<Expansion> Expander::Result(const std::vector<std::string>& selectors) {
  std::sort(left_out_.begin(), left_out_.end());
  if (objects_.empty()) {
    std::string detail;
    for (const auto& [key, why] : left_out_) detail += "\n  " + std::get<1>(key) + ": " + why;
    return Invalid("GPU selectors '" + Join(selectors, ";") + "' select no code object that LLVM " +
                   std::to_string(options_.llvm_major) + " can build; left out:" + detail);
  }
  std::sort(objects_.begin(), objects_.end(), [](const Object& a, const Object& b) {
    return std::tie(a.first, a.id) < std::tie(b.first, b.id);
  });
  Expansion expansion;
  std::vector<OrderKey> covered;
  for (Object& object : objects_) {
    std::sort(object.covers.begin(), object.covers.end());
    ExpandedObject out{object.id, object.version, {}};
    for (const OrderKey& key : object.covers) {
      out.covers.push_back(std::get<1>(key));
      covered.push_back(key);
    }
    expansion.objects.push_back(std::move(out));
  }
  std::sort(covered.begin(), covered.end());
  covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
  for (const OrderKey& key : covered) expansion.covered.push_back(std::get<1>(key));
  for (const auto& [key, why] : left_out_) expansion.left_out.push_back({std::get<1>(key), why});
  return expansion;
}

}  // namespace

Expected<Expansion> Expand(const ExpansionOptions& options) {
  if (options.mode != "generic" && options.mode != "exact") {
    return Invalid("ISAPACK_CODE_OBJECT_MODE is '" + options.mode + "'; use 'generic' or 'exact'");
  }
  if (options.code_object_version != "4" && options.code_object_version != "5") {
    return Invalid("ISAPACK_CODE_OBJECT_VERSION is '" + options.code_object_version +
                   "'; exact code objects use version 4 or 5 (generic code objects always use 6)");
  }
  Expander expander(options);
  std::vector<std::string> selectors;
  // A selector given twice asks for nothing more (and says its problem once).
  std::unordered_set<std::string> seen;
  for (const std::string& raw : options.selectors) {
    const std::string selector = Trim(raw);
    if (selector.empty()) continue;
    selectors.push_back(selector);
    if (seen.insert(selector).second) expander.AddSelector(selector);
  }
  if (selectors.empty()) {
    return Invalid(
        "no GPU selectors given: set ISAPACK_GPU_TARGETS, for example to 'all' or 'gfx110X-all'");
  }
  for (const Request& request : expander.requests()) expander.Place(request);
  if (std::string problems = expander.Problems(); !problems.empty()) return Invalid(problems);
  return expander.Result(selectors);
}

std::string FormatExpansionLines(const Expansion& expansion) {
  std::string text;
  for (const ExpandedObject& object : expansion.objects) {
    text += "object " + object.target_id + " v" + std::to_string(object.code_object_version) + " " +
            Join(object.covers, " ") + "\n";
  }
  for (const LeftOutTarget& target : expansion.left_out) {
    text += "left-out " + target.target_id + " " + target.reason + "\n";
  }
  return text;
}

}  // namespace isapack
