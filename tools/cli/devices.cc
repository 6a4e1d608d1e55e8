// isapack devices and isapack smoke: the HSA runtime's GPU agents, and a
// fill/copy/probe run on each.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <vector>

#include "cli.h"

namespace isapack::cli {
namespace {

using json = nlohmann::json;

bool IsSkip(isapack_status_code_t code) {
  return code == ISAPACK_STATUS_NO_DEVICE || code == ISAPACK_STATUS_HSA_UNAVAILABLE ||
         code == ISAPACK_STATUS_PERMISSION_DENIED;
}

// True when the HSA runtime to use was named (--libhsa or
// ISAPACK_LIBHSA_PATH): one that cannot be loaded is then a broken setup,
// not a machine without a GPU.
bool HsaRuntimeNamed(const DeviceOptions& options) {
  const char* env = secure_getenv("ISAPACK_LIBHSA_PATH");
  return !options.libhsa.empty() || (env != nullptr && env[0] != '\0');
}

// Lists agents; on failure reports why (with --json, as JSON) and sets
// *exit_code (77 for "no GPU").
isapack_agent_list_t ListAgents(const DeviceOptions& options, int* exit_code) {
  constexpr const char* kSkipped = "skipped: no usable AMD GPU on this machine (exit 77)";
  isapack_agent_list_t list = nullptr;
  isapack_status_t status =
      isapack_agent_list_create(options.libhsa.empty() ? nullptr : options.libhsa.c_str(), &list);
  if (status != nullptr) {
    const isapack_status_code_t code = isapack_status_code(status);
    std::vector<std::string> errors = {isapack_status_message(status)};
    isapack_status_free(status);
    if (code == ISAPACK_STATUS_HSA_UNAVAILABLE && HsaRuntimeNamed(options)) {
      errors.push_back(
          "the HSA runtime was named explicitly (--libhsa or ISAPACK_LIBHSA_PATH) and cannot be "
          "used: "
          "a configuration error, not a missing GPU; fix or unset it");
      *exit_code = Fail(options.json, kExitFailure, errors);
    } else if (IsSkip(code)) {
      errors.push_back(kSkipped);
      *exit_code = Fail(options.json, kExitSkipped, errors);
    } else {
      *exit_code = Fail(options.json, kExitFailure, errors);
    }
    return nullptr;
  }
  if (isapack_agent_list_count(list) == 0) {
    *exit_code =
        Fail(options.json, kExitSkipped, {"the HSA runtime reports no GPU agent", kSkipped});
    isapack_agent_list_free(list);
    return nullptr;
  }
  return list;
}

std::vector<std::string> Words(const char* text) {
  std::vector<std::string> words;
  std::string word;
  for (const char* p = text;; ++p) {
    if (*p == ' ' || *p == '\0') {
      if (!word.empty()) words.push_back(word);
      word.clear();
      if (*p == '\0') break;
    } else {
      word += *p;
    }
  }
  return words;
}

struct Check {
  std::string name;
  bool passed = false;
  std::string detail;
};

struct Fill {
  size_t offset, length;
  uint64_t pattern;
  uint32_t width;
};

// One fill of buffer (size bytes, host-visible) through the device; every
// byte is checked, the ones outside the fill must keep their 0xee.
Check CheckFill(isapack_device_t device, uint8_t* buffer, size_t size, const Fill& f) {
  std::memset(buffer, 0xee, size);
  Check check{
      "fill " + std::to_string(f.length) + " bytes, " + std::to_string(f.width) + "-byte pattern",
      false, ""};
  isapack_status_t status =
      isapack_device_fill(device, buffer + f.offset, f.length, f.pattern, f.width);
  if (status != nullptr) {
    check.detail = isapack_status_message(status);
    isapack_status_free(status);
    return check;
  }
  check.passed = true;
  for (size_t i = 0; i < size && check.passed; ++i) {
    const bool inside = i >= f.offset && i < f.offset + f.length;
    const uint8_t expected =
        inside ? static_cast<uint8_t>(f.pattern >> (8 * ((i - f.offset) % f.width))) : 0xee;
    if (buffer[i] != expected) {
      check.passed = false;
      check.detail = "byte " + std::to_string(i) + " is " + std::to_string(buffer[i]) +
                     ", expected " + std::to_string(expected);
    }
  }
  return check;
}

// Fill and copy through the device; every byte is checked on the host,
// with guard bytes around each destination.
void CheckFillAndCopy(isapack_device_t device, std::vector<Check>* checks) {
  constexpr size_t kSize = (1 << 20) + 64;
  uint8_t* a = nullptr;
  uint8_t* b = nullptr;
  isapack_status_t status = isapack_device_alloc(device, kSize, ISAPACK_MEMORY_HOST_VISIBLE,
                                                 reinterpret_cast<void**>(&a));
  if (status == nullptr) {
    status = isapack_device_alloc(device, kSize, ISAPACK_MEMORY_HOST_VISIBLE,
                                  reinterpret_cast<void**>(&b));
  }
  if (status != nullptr) {
    checks->push_back({"allocate host-visible memory", false, isapack_status_message(status)});
    isapack_status_free(status);
    return;
  }
  for (const Fill& fill : {Fill{3, 1 << 20, 0x0123456789abcdefull, 8}, Fill{0, 4093, 0xa5, 1},
                           Fill{17, 65536, 0xbeef, 2}, Fill{9, 1000003, 0xdeadbeef, 4}}) {
    checks->push_back(CheckFill(device, a, kSize, fill));
  }
  for (size_t i = 0; i < kSize; ++i) a[i] = static_cast<uint8_t>(i * 131 + 7);
  std::memset(b, 0xee, kSize);
  Check copy{"copy 1048576 bytes between differently aligned buffers", false, ""};
  status = isapack_device_copy(device, b + 7, a + 3, 1 << 20);
  if (status != nullptr) {
    copy.detail = isapack_status_message(status);
    isapack_status_free(status);
  } else {
    copy.passed =
        std::memcmp(b + 7, a + 3, 1 << 20) == 0 && b[6] == 0xee && b[7 + (1 << 20)] == 0xee;
    if (!copy.passed)
      copy.detail = "the destination differs from the source or the guard bytes changed";
  }
  checks->push_back(copy);
  isapack_device_free(device, a);
  isapack_device_free(device, b);
}

// What smoke needs of the agent list, copied: the list (and its strings) is
// freed before the devices are used.
struct ListedAgents {
  std::string hsa_library;
  std::optional<std::string> simulation;
  std::vector<std::string> names;  // by ordinal, so a device that fails to open is still named
};

ListedAgents CopyAgentList(isapack_agent_list_t list) {
  ListedAgents agents;
  agents.hsa_library = isapack_agent_list_hsa_library(list);
  if (const char* simulation = isapack_agent_list_simulation(list)) agents.simulation = simulation;
  for (size_t i = 0; i < isapack_agent_list_count(list); ++i) {
    isapack_agent_info_t info;
    isapack_status_t got = isapack_agent_list_get(list, i, &info);
    agents.names.push_back(got == nullptr ? info.agent_name : "(unnamed)");
    isapack_status_free(got);
  }
  return agents;
}

// The probe kernel's report, into entry["probe"] and one check.
void CheckProbe(isapack_device_t device, json* entry, std::vector<Check>* checks) {
  isapack_probe_report_t report;
  isapack_status_t status = isapack_device_probe(device, &report);
  if (status != nullptr) {
    checks->push_back({"probe", false, isapack_status_message(status)});
    isapack_status_free(status);
    return;
  }
  (*entry)["probe"] = {{"wavefront_size", report.wavefront_size},
                       {"agent_wavefront_size", report.agent_wavefront_size},
                       {"grid_size", report.grid_size},
                       {"workgroup_size", report.workgroup_size},
                       {"work_items_verified", report.work_items_verified},
                       {"distinct_hw_ids", report.distinct_hw_ids},
                       {"hw_id", report.hw_id},
                       {"clock", report.clock}};
  checks->push_back({"probe: " + std::to_string(report.work_items_verified) +
                         " work items verified, wavefront " +
                         std::to_string(report.wavefront_size) + ", " +
                         std::to_string(report.distinct_hw_ids) + " distinct HW_ID values",
                     true, ""});
}

// Creates the device of one ordinal and runs fill, copy and probe on it:
// its JSON entry, with the checks in *checks.
json SmokeDevice(const DeviceOptions& options, size_t ordinal, const std::string& agent_name,
                 std::vector<Check>* checks) {
  isapack_device_options_t device_options;
  isapack_device_options_init(&device_options);
  device_options.libhsa_path = options.libhsa.empty() ? nullptr : options.libhsa.c_str();
  device_options.agent_ordinal = static_cast<uint32_t>(ordinal);
  device_options.dispatch_timeout_ms = options.timeout_ms;
  json entry = {{"ordinal", ordinal}, {"agent_name", agent_name}};
  isapack_device_t device = nullptr;
  isapack_status_t status = isapack_device_create(&device_options, &device);
  if (status != nullptr) {
    checks->push_back({"create the device", false, isapack_status_message(status)});
    isapack_status_free(status);
    return entry;
  }
  isapack_device_info_t info;
  isapack_device_info(device, &info);
  entry["agent_name"] = info.agent_name;
  entry["product_name"] = info.product_name;
  entry["uuid"] = info.uuid;
  entry["code_object"] = info.code_object;
  checks->push_back({"create the device and load " + std::string(info.code_object), true, ""});
  CheckFillAndCopy(device, checks);
  CheckProbe(device, &entry, checks);
  isapack_device_destroy(device);
  return entry;
}

void PrintSmokeText(const json& entry, const std::vector<Check>& checks) {
  std::cout << "GPU " << entry.at("ordinal").get<size_t>() << " "
            << entry.at("agent_name").get<std::string>() << ": "
            << (entry.at("passed").get<bool>() ? "PASS" : "FAIL")
            << (entry.at("simulated").get<bool>() ? " (simulated)" : "") << "\n";
  for (const Check& check : checks) {
    std::cout << "  " << (check.passed ? "ok    " : "FAIL  ") << check.name
              << (check.detail.empty() ? "" : ": " + check.detail) << "\n";
  }
}

// One line per failed check, for --json's errors.
std::vector<std::string> FailedChecks(const json& devices) {
  std::vector<std::string> failures;
  for (const json& device : devices) {
    for (const json& check : device.at("checks")) {
      if (!check.at("passed").get<bool>()) {
        failures.push_back("GPU " + std::to_string(device.at("ordinal").get<size_t>()) + " " +
                           device.at("agent_name").get<std::string>() + ": " +
                           check.at("name").get<std::string>() + ": " +
                           check.at("detail").get<std::string>());
      }
    }
  }
  return failures;
}

}  // namespace

int RunDevices(const DeviceOptions& options) {
  int exit_code = kExitOk;
  isapack_agent_list_t list = ListAgents(options, &exit_code);
  if (list == nullptr) return exit_code;
  const char* simulation = isapack_agent_list_simulation(list);
  json devices = json::array();
  std::string text = std::string("HSA runtime: ") + isapack_agent_list_hsa_library(list) + "\n";
  if (simulation != nullptr) text += SimulationBanner(simulation) + "\n";
  for (size_t i = 0; i < isapack_agent_list_count(list); ++i) {
    isapack_agent_info_t info;
    isapack_agent_list_get(list, i, &info);
    devices.push_back({{"ordinal", info.ordinal},
                       {"agent_name", info.agent_name},
                       {"product_name", info.product_name},
                       {"uuid", info.uuid},
                       {"isa_names", Words(info.isa_names)},
                       {"code_object", info.code_object ? json(info.code_object) : json(nullptr)},
                       {"status", isapack_status_code_name(info.selection_code)},
                       {"message", info.selection_message},
                       {"trace", info.selection_trace}});
    text += "GPU " + std::to_string(info.ordinal) + ": " + info.agent_name + " (" +
            info.product_name + "), " + info.uuid + "\n  ISAs: " + info.isa_names +
            "\n  this build: " +
            (info.code_object ? std::string("covered, loads ") + info.code_object
                              : std::string("NOT covered: ") + info.selection_message) +
            "\n";
  }
  if (options.json) {
    PrintJsonOutcome({{"schema", 1},
                      {"hsa_library", isapack_agent_list_hsa_library(list)},
                      {"simulated", simulation != nullptr},
                      {"simulation", simulation ? json(simulation) : json(nullptr)},
                      {"devices", devices}},
                     kExitOk, {});
  } else {
    std::cout << text;
  }
  isapack_agent_list_free(list);
  return kExitOk;
}

int RunSmoke(const DeviceOptions& options) {
  int exit_code = kExitOk;
  isapack_agent_list_t list = ListAgents(options, &exit_code);
  if (list == nullptr) return exit_code;
  const ListedAgents agents = CopyAgentList(list);
  isapack_agent_list_free(list);
  const bool simulated = agents.simulation.has_value();
  if (!options.json) {
    std::cout << "HSA runtime: " << agents.hsa_library << "\n";
    if (simulated) std::cout << SimulationBanner(agents.simulation->c_str()) << "\n";
  }
  json devices = json::array();
  bool all_passed = true;
  for (size_t ordinal = 0; ordinal < agents.names.size(); ++ordinal) {
    std::vector<Check> checks;
    json entry = SmokeDevice(options, ordinal, agents.names[ordinal], &checks);
    bool passed = true;
    json check_list = json::array();
    for (const Check& check : checks) {
      passed = passed && check.passed;
      check_list.push_back(
          {{"name", check.name}, {"passed", check.passed}, {"detail", check.detail}});
    }
    all_passed = all_passed && passed;
    entry["passed"] = passed;
    entry["simulated"] = simulated;
    entry["checks"] = check_list;
    if (!options.json) PrintSmokeText(entry, checks);
    devices.push_back(std::move(entry));
  }
  if (options.json) {
    PrintJsonOutcome({{"schema", 1},
                      {"hsa_library", agents.hsa_library},
                      {"simulated", simulated},
                      {"simulation", simulated ? json(*agents.simulation) : json(nullptr)},
                      {"passed", all_passed},
                      {"devices", devices}},
                     all_passed ? kExitOk : kExitFailure, FailedChecks(devices));
  }
  return all_passed ? kExitOk : kExitFailure;
}

}  // namespace isapack::cli
