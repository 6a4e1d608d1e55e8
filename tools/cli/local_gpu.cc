#include "local_gpu.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>

#include "target_table.h"

namespace isapack::cli {
namespace {

namespace fs = std::filesystem;

bool AllDigits(const std::string& text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The value of the "gfx_target_version N" line of a KFD node's properties.
std::optional<unsigned> GfxTargetVersion(const std::string& properties) {
  std::ifstream in(properties);
  std::string line;
  while (std::getline(in, line)) {  // "key value" lines; some values are 64-bit
    unsigned value = 0;
    char end = 0;
    if (std::sscanf(line.c_str(), "gfx_target_version %u%c", &value, &end) == 1) return value;
  }
  return std::nullopt;
}

const ProcessorInfo* ProcessorOfIsa(unsigned major, unsigned minor, unsigned stepping) {
  for (const ProcessorInfo& p : Processors()) {
    if (p.isa.major == major && p.isa.minor == minor && p.isa.stepping == stepping) return &p;
  }
  return nullptr;
}

constexpr const char* kNameTheGpu = "; name the GPU instead (`isapack targets` lists every name)";

// "5.2.3-3" or "1:6.4.0~rc1" -> {5, 2, 3}: the leading dotted numbers after any epoch.
std::vector<unsigned> Numbers(std::string text) {
  if (const size_t colon = text.find(':'); colon != std::string::npos) text.erase(0, colon + 1);
  std::vector<unsigned> numbers;
  size_t at = 0;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
    size_t used = 0;
    numbers.push_back(static_cast<unsigned>(std::stoul(text.substr(at), &used)));
    at += used;
    if (at >= text.size() || text[at] != '.') break;
    ++at;
  }
  return numbers;
}

// A ROCm release "6.4.0" as {604, "6.4.0"}; version 0 when it is not one.
RocrVersion FromRocmRelease(const std::string& release, std::string source) {
  const std::vector<unsigned> numbers = Numbers(release);
  if (numbers.size() < 2 || numbers[1] > 99) return {0, "", std::move(source)};
  std::string text = std::to_string(numbers[0]) + "." + std::to_string(numbers[1]);
  if (numbers.size() > 2) text += "." + std::to_string(numbers[2]);
  return {numbers[0] * 100 + numbers[1], text, std::move(source)};
}

// The ROCm release in a ROCr library version 1.<minor>.<patch>[.<rocm>]: AMD
// writes it as major*10000+minor*100+patch (60400); else the minor's range.
RocrVersion FromLibraryVersion(const std::vector<unsigned>& numbers, std::string source) {
  if (numbers.size() < 2 || numbers[0] != 1) return {0, "", std::move(source)};
  for (size_t i = 2; i < numbers.size(); ++i) {
    if (numbers[i] >= 10000) {
      const unsigned rocm = numbers[i];
      const std::string text = std::to_string(rocm / 10000) + "." +
                               std::to_string(rocm / 100 % 100) + "." + std::to_string(rocm % 100);
      return {rocm / 10000 * 100 + rocm / 100 % 100, text,
              source + " (ROCm " + text + " in the library version)"};
    }
  }
  // ROCR-Runtime's get_version() per release; the first release of each.
  static constexpr std::pair<unsigned, const char*> kMinors[] = {
      {5, "5.0"},  {7, "5.3"},  {8, "5.5"},  {9, "5.6"},  {11, "5.7"},
      {12, "6.0"}, {13, "6.1"}, {14, "6.2"}, {15, "6.4"}, {18, "7.1"}};
  const unsigned minor = numbers[1];
  const char* release = nullptr;
  for (const auto& [library_minor, rocm] : kMinors) {
    if (library_minor <= minor) release = rocm;
  }
  if (release == nullptr) return {0, "", std::move(source)};
  const bool exact = std::any_of(std::begin(kMinors), std::end(kMinors),
                                 [minor](const auto& m) { return m.first == minor; });
  return FromRocmRelease(release, source + " (ROCr library 1." + std::to_string(minor) +
                                      (exact ? " first ships with ROCm " : " is newer than ROCm ") +
                                      release + ")");
}

// The version of an installed package, asked of dpkg-query (dpkg's database
// format is dpkg's own), or "".
std::string DpkgVersion(const std::string& root, const std::string& package) {
  std::string command = "dpkg-query";
  if (root != "/") {
    command += " --root='";
    for (char c : root) command += c == '\'' ? std::string("'\\''") : std::string(1, c);
    command += "'";
  }
  command += " -W -f '${db:Status-Status} ${Version}' " + package + " 2>/dev/null";  // fixed name
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string output;
  char buffer[256];
  size_t got;
  while ((got = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, got);
  pclose(pipe);
  const std::string installed = "installed ";
  return output.rfind(installed, 0) == 0 ? output.substr(installed.size()) : "";
}

// `rpm -q --qf %{VERSION} <package>`, or "" when rpm or the package is absent.
std::string RpmVersion(const std::string& package) {
  const std::string command =
      "rpm -q --qf '%{VERSION}' " + package + " 2>/dev/null";  // package: a fixed name
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  char buffer[128] = {};
  const size_t got = std::fread(buffer, 1, sizeof(buffer) - 1, pipe);
  const int status = pclose(pipe);
  return status == 0 ? std::string(buffer, got) : "";
}

}  // namespace

Expected<std::vector<LocalGpu>> DetectLocalGpus(const std::string& sysfs_root) {
  const std::string dir = sysfs_root + "/class/kfd/kfd/topology/nodes";
  std::vector<std::pair<unsigned long, std::string>> nodes;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (AllDigits(name)) nodes.emplace_back(std::stoul(name), name);
  }
  if (nodes.empty()) {
    return MakeError(ISAPACK_STATUS_NO_DEVICE,
                     "no KFD topology at " + dir +
                         ": the amdgpu driver is not loaded (there is no /dev/kfd)" + kNameTheGpu);
  }
  std::sort(nodes.begin(), nodes.end());
  std::vector<LocalGpu> gpus;
  for (const auto& [number, name] : nodes) {
    const std::string node = dir + "/" + name;
    const std::optional<unsigned> version = GfxTargetVersion(node + "/properties");
    if (!version) {
      return MakeError(ISAPACK_STATUS_NOT_FOUND,
                       node +
                           "/properties has no gfx_target_version line (cannot read it, or "
                           "a kernel older than the amdgpu driver's KFD topology)" +
                           kNameTheGpu);
    }
    if (*version == 0) continue;  // a CPU node
    const unsigned major = *version / 10000, minor = *version / 100 % 100,
                   stepping = *version % 100;
    const ProcessorInfo* processor = ProcessorOfIsa(major, minor, stepping);
    if (processor == nullptr) {
      return MakeError(ISAPACK_STATUS_UNSUPPORTED_DEVICE,
                       node + ": gfx_target_version " + std::to_string(*version) + " is ISA " +
                           std::to_string(major) + "." + std::to_string(minor) + "." +
                           std::to_string(stepping) +
                           ", which isapack's target table does not have; a newer isapack may "
                           "know it");
    }
    LocalGpu gpu;
    gpu.isa.processor = processor;
    gpu.product = std::string(processor->product);
    gpu.source = "KFD topology " + node;
    gpus.push_back(std::move(gpu));
  }
  if (gpus.empty()) {
    return MakeError(
        ISAPACK_STATUS_NO_DEVICE,
        "no GPU node in the KFD topology at " + dir + " (" + std::to_string(nodes.size()) +
            (nodes.size() == 1 ? " node, a CPU" : " nodes, all CPUs") +
            "): the amdgpu driver is not loaded or sees no GPU (no /dev/kfd)" + kNameTheGpu);
  }
  return gpus;
}

RocrVersion RocrFromLibraryName(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  const std::string prefix = "libhsa-runtime64.so.";
  if (name.rfind(prefix, 0) != 0) return {0, "", path};
  return FromLibraryVersion(Numbers(name.substr(prefix.size())), path);
}

RocrVersion InstalledRocr(const std::string& root) {
  const std::string base = root == "/" ? "" : root;
  if (const std::string version = DpkgVersion(root, "libhsa-runtime64-1"); !version.empty()) {
    return FromRocmRelease(version, "dpkg: libhsa-runtime64-1 " + version);
  }
  if (const std::string version = DpkgVersion(root, "hsa-rocr"); !version.empty()) {
    return FromLibraryVersion(Numbers(version), "dpkg: hsa-rocr " + version);
  }
  if (root == "/") {
    if (const std::string version = RpmVersion("rocm-runtime"); !version.empty()) {
      return FromRocmRelease(version, "rpm: rocm-runtime " + version);
    }
    if (const std::string version = RpmVersion("hsa-rocr"); !version.empty()) {
      return FromLibraryVersion(Numbers(version), "rpm: hsa-rocr " + version);
    }
  }
  const std::string info = base + "/opt/rocm/.info/version";
  if (std::ifstream in(info); in) {
    std::string release;
    in >> release;
    if (RocrVersion rocr = FromRocmRelease(release, info + ": " + release); rocr.version != 0) {
      return rocr;
    }
  }
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
                          "/usr/lib", "/opt/rocm/lib"}) {
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(base + dir, error)) {
      if (RocrVersion rocr = RocrFromLibraryName(entry.path().string()); rocr.version != 0) {
        return rocr;
      }
    }
  }
  return {0, "",
          "no ROCr found: no libhsa-runtime64-1 or hsa-rocr package, no " + info +
              ", no libhsa-runtime64.so.1.X.Y in /usr/lib*, /opt/rocm/lib"};
}

}  // namespace isapack::cli
