// Build-time generator of core's C++ target table from the one data file:
//   isapack-generate-target-table <targets/amdgpu-targets.json> <target_table.inc>
// Checks the file as it goes (every field present and of its type, no name
// defined twice, a generic's membership written once, on its processors;
// group members are processors; product names non-empty and each on one
// processor only) and stops with the entry named. The output
// is rewritten only when its content changes, so an unrelated edit does not
// rebuild core. Uses nothing of core: core is built from what it writes.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using json = nlohmann::json;

// A problem in the data file, named by where it is.
struct DataError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The value of `field` in `entry` (named `where` in messages), of the given type.
const json& Field(const json& entry, const std::string& where, const char* field,
                  json::value_t type) {
  if (!entry.is_object() || !entry.contains(field)) {
    throw DataError(where + ": '" + field + "' is missing");
  }
  const json& value = entry.at(field);
  const bool number_wanted = type == json::value_t::number_unsigned;
  if (number_wanted ? !value.is_number_unsigned() : value.type() != type) {
    throw DataError(
        where + ": '" + field + "' is not " +
        (number_wanted ? "a whole number" : std::string("a ") + json(type).type_name()));
  }
  return value;
}

std::string String(const json& entry, const std::string& where, const char* field) {
  return Field(entry, where, field, json::value_t::string).get<std::string>();
}

unsigned Number(const json& entry, const std::string& where, const char* field) {
  return Field(entry, where, field, json::value_t::number_unsigned).get<unsigned>();
}

const json& Array(const json& entry, const std::string& where, const char* field) {
  return Field(entry, where, field, json::value_t::array);
}

std::string SupportEnum(const std::string& value, const std::string& where) {
  if (value == "supported") return "FeatureSupport::kSupported";
  if (value == "always") return "FeatureSupport::kAlways";
  if (value == "none") return "FeatureSupport::kNone";
  throw DataError(where + ": feature support '" + value + "' is not none, supported or always");
}

std::string CString(const std::string& value) {
  std::string out = "\"";
  for (const char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string Hex(const std::string& text, const std::string& where) {
  size_t used = 0;
  unsigned long value = 0;
  try {
    value = std::stoul(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value > 0xff) {
    throw DataError(where + ": mach '" + text + "' is not a number from 0x00 to 0xff");
  }
  char hex[8];
  std::snprintf(hex, sizeof(hex), "0x%lx", value);
  return hex;
}

// "9.0.10" as "9, 0, 10".
std::string IsaVersion(const std::string& text, const std::string& where) {
  unsigned major = 0, minor = 0, stepping = 0;
  char end = 0;
  if (std::sscanf(text.c_str(), "%u.%u.%u%c", &major, &minor, &stepping, &end) != 3) {
    throw DataError(where + ": isa '" + text + "' is not MAJOR.MINOR.STEPPING");
  }
  return std::to_string(major) + ", " + std::to_string(minor) + ", " + std::to_string(stepping);
}

struct Processor {
  std::string name, generic;
  unsigned isa_major = 0;
};

class Generator {
 public:
  explicit Generator(std::string path) : path_(std::move(path)) {}

  std::string Generate(const json& data) {
    if (!data.is_object() || !data.contains("schema") || data.at("schema") != 1) {
      throw DataError(path_ + ": schema " +
                      (data.is_object() && data.contains("schema") ? data.at("schema").dump()
                                                                   : std::string("(missing)")) +
                      " is not supported (expected 1)");
    }
    std::string text =
        "// Generated from targets/amdgpu-targets.json by targets/generate_target_table.cc.\n"
        "// Do not edit: change the data file instead.\n\n";
    const json& generics = Array(data, path_, "generics");
    for (size_t i = 0; i < generics.size(); ++i) {
      const std::string where = path_ + ": generics[" + std::to_string(i) + "]";
      generic_index_[Define(String(generics[i], where, "name"), where)] = i;
    }
    text += Processors(Array(data, path_, "processors"));
    text += Generics(generics);
    text += Groups(Array(data, path_, "selector_groups"));
    return text;
  }

 private:
  std::string Define(const std::string& name, const std::string& where) {
    if (!names_.insert(name).second) throw DataError(where + ": '" + name + "' is defined twice");
    return name;
  }

  std::string Processors(const json& processors) {
    std::string product_arrays, text = "inline constexpr ProcessorInfo kProcessorTable[] = {\n";
    for (size_t i = 0; i < processors.size(); ++i) {
      const json& p = processors[i];
      std::string where = path_ + ": processors[" + std::to_string(i) + "]";
      Processor processor;
      processor.name = Define(String(p, where, "name"), where);
      where += " (" + processor.name + ")";
      processor.generic = String(p, where, "generic");
      const std::string isa = IsaVersion(String(p, where, "isa"), where);
      processor.isa_major = static_cast<unsigned>(std::stoul(isa));
      std::string generic = "-1";
      if (!processor.generic.empty()) {
        const auto it = generic_index_.find(processor.generic);
        if (it == generic_index_.end()) {
          throw DataError(where + ": names generic '" + processor.generic +
                          "', which is not in 'generics'");
        }
        generic = std::to_string(it->second);
      }
      const auto [product, products] = Products(p, where, i, &product_arrays);
      text += "    {" + CString(processor.name) + ", " + Hex(String(p, where, "mach"), where) +
              ", {" + isa + "}, " + SupportEnum(String(p, where, "xnack"), where) + ", " +
              SupportEnum(String(p, where, "sramecc"), where) + ", " + generic + ", " +
              std::to_string(Number(p, where, "generic_version")) + ", " +
              std::to_string(Number(p, where, "llvm")) + ", " +
              std::to_string(Number(p, where, "llvm_removed")) + ", " + product + ", " + products +
              "},\n";
      processor_index_[processor.name] = processors_.size();
      processors_.push_back(processor);
    }
    return product_arrays + "\n" + text + "};\n\n";
  }

  // The processor's first product name (or "") and the name of the array of
  // all of them (or "{}" when none), whose definition is appended to `arrays`. Each name must be
  // non-empty and not a name another processor already uses.
  std::pair<std::string, std::string> Products(const json& p, const std::string& where,
                                               size_t index, std::string* arrays) {
    std::string list;
    const json& products = Array(p, where, "products");
    for (const json& product : products) {
      if (!product.is_string() || product.get<std::string>().empty()) {
        throw DataError(where + ": products lists " + product.dump() + ", which is not a name");
      }
      const std::string name = product.get<std::string>();
      if (!product_names_.insert(name).second) {
        throw DataError(where + ": product '" + name + "' is listed twice");
      }
      list += (list.empty() ? "" : ", ") + CString(name);
    }
    if (products.empty()) return {CString(""), "{}"};  // C++ has no empty arrays
    const std::string array = "kProducts" + std::to_string(index);
    *arrays += "inline constexpr std::string_view " + array + "[] = {" + list + "};\n";
    return {CString(products[0].get<std::string>()), array};
  }

  std::string Generics(const json& generics) {
    std::string members, table = "\ninline constexpr GenericInfo kGenericTable[] = {\n";
    for (size_t i = 0; i < generics.size(); ++i) {
      const json& g = generics[i];
      const std::string name = g.at("name").get<std::string>();
      const std::string where = path_ + ": generics[" + std::to_string(i) + "] (" + name + ")";
      if (g.contains("members")) {
        throw DataError(where +
                        ": lists members; membership is written once, as the 'generic' "
                        "field of each member processor");
      }
      std::vector<size_t> indices;
      for (size_t p = 0; p < processors_.size(); ++p) {
        if (processors_[p].generic == name) indices.push_back(p);
      }
      const std::string array = "kGenericMembers" + std::to_string(i);
      members += MemberArray(array, indices);
      table += "    {" + CString(name) + ", " + Hex(String(g, where, "mach"), where) + ", " +
               SupportEnum(String(g, where, "xnack"), where) + ", " +
               SupportEnum(String(g, where, "sramecc"), where) + ", " +
               std::to_string(Number(g, where, "llvm")) + ", " + array + "},\n";
    }
    return members + table + "};\n\n";
  }

  std::string Groups(const json& groups) {
    std::string members, table = "\ninline constexpr GroupInfo kGroupTable[] = {\n";
    for (size_t i = 0; i < groups.size(); ++i) {
      const json& g = groups[i];
      std::string where = path_ + ": selector_groups[" + std::to_string(i) + "]";
      const std::string name = Define(String(g, where, "name"), where);
      where += " (" + name + ")";
      const std::string kind = String(g, where, "kind");
      if (kind != "family" && kind != "bundle") {
        throw DataError(where + ": kind '" + kind + "' is not family or bundle");
      }
      std::vector<size_t> indices;
      if (g.contains("min_isa_major")) {  // `all`: every processor from that ISA major on
        const unsigned min_major = Number(g, where, "min_isa_major");
        for (size_t p = 0; p < processors_.size(); ++p) {
          if (processors_[p].isa_major >= min_major) indices.push_back(p);
        }
      } else {
        for (const json& member : Array(g, where, "members")) {
          const auto it = member.is_string() ? processor_index_.find(member.get<std::string>())
                                             : processor_index_.end();
          if (it == processor_index_.end()) {
            throw DataError(where + ": lists '" +
                            (member.is_string() ? member.get<std::string>() : member.dump()) +
                            "', which is not a processor");
          }
          indices.push_back(it->second);
        }
      }
      const std::string array = "kGroupMembers" + std::to_string(i);
      members += MemberArray(array, indices);
      table += "    {" + CString(name) + ", " +
               (kind == "bundle" ? "GroupKind::kBundle" : "GroupKind::kFamily") + ", " + array +
               "},\n";
    }
    return members + table + "};\n";
  }

  static std::string MemberArray(const std::string& name, const std::vector<size_t>& indices) {
    std::string list;
    for (const size_t index : indices) list += (list.empty() ? "" : ", ") + std::to_string(index);
    return "inline constexpr uint16_t " + name + "[] = {" + list + "};\n";
  }

  const std::string path_;
  std::set<std::string> names_, product_names_;
  std::map<std::string, size_t> generic_index_, processor_index_;
  std::vector<Processor> processors_;
};

// Writes `text` to `path` unless it already holds it (through a temporary
// file and a rename).
bool WriteIfChanged(const std::string& path, const std::string& text) {
  {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream old;
    old << in.rdbuf();
    if (in && old.str() == text) return true;
  }
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      std::cerr << "isapack-generate-target-table: cannot write " << temporary << "\n";
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::cerr << "isapack-generate-target-table: cannot rename " << temporary << " to " << path
              << "\n";
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " <targets/amdgpu-targets.json> <target_table.inc>\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "isapack-generate-target-table: cannot read " << argv[1] << "\n";
    return 1;
  }
  try {
    const json data = json::parse(in);
    return WriteIfChanged(argv[2], Generator(argv[1]).Generate(data)) ? 0 : 1;
  } catch (const DataError& e) {
    std::cerr << e.what() << "\n";
  } catch (const json::exception& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
  }
  return 1;
}
