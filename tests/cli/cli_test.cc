// The isapack command, run as a program: each subcommand's readable and JSON
// output on fixed inputs, exit codes, select for every processor in both
// modes (against the shared expectation table), inspect on real and damaged
// files, devices/smoke on the real ROCr (no GPU: exit 77) and on the
// SIMULATED HSA runtime (a test double; its results are not hardware results).
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "isapack/isapack.h"
#include "local_gpu.h"
#include "support/system_hsa.h"
#include "support/test_paths.h"

extern char** environ;

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;
using isapack::testing::TestPath;

struct Finished {
  int exit = -1;
  std::string out;
  std::string err;
  double seconds = 0;    // wall time
  long peak_rss_kb = 0;  // the child's peak resident set (getrusage via wait4)
};

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Runs a program with extra environment variables (an empty value unsets).
Finished Spawn(const std::vector<std::string>& argv,
               const std::map<std::string, std::string>& env = {}) {
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("isapack-cli-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / ("out" + std::to_string(counter)),
                 err = dir / ("err" + std::to_string(counter));
  ++counter;
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    if (env.count(name) == 0 && name.rfind("ISAPACK_", 0) != 0) environment.push_back(entry);
  }
  for (const auto& [name, value] : env) {
    if (!value.empty()) environment.push_back(name + "=" + value);
  }
  std::vector<char*> args, envp;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string& e : environment) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  Finished run;
  const auto start = std::chrono::steady_clock::now();
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data()) == 0) {
    int status = 0;
    struct rusage usage{};
    wait4(pid, &status, 0, &usage);
    run.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.peak_rss_kb = usage.ru_maxrss;
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  posix_spawn_file_actions_destroy(&actions);
  run.out = ReadText(out);
  run.err = ReadText(err);
  fs::remove(out);
  fs::remove(err);
  return run;
}

Finished Isapack(std::vector<std::string> args,
                 const std::map<std::string, std::string>& env = {}) {
  args.insert(args.begin(), TestPath("CLI"));
  return Spawn(args, env);
}

json Json(const Finished& run) {
  return json::parse(run.out);
}

const fs::path& WorkDir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("isapack-cli-work-" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

// A catalog file of what `selectors` expand to (tests/support/make_test_catalog).
std::string TestCatalog(const std::string& selectors, const std::string& mode) {
  const std::string path = (WorkDir() / (selectors + "-" + mode + ".catalog")).string();
  if (!fs::exists(path)) {
    EXPECT_EQ(Spawn({TestPath("MAKE_CATALOG"), selectors, mode, "19", path}).exit, 0);
  }
  return path;
}

json BuildInfo() {
  return json::parse(isapack_build_info_json());
}

// The file libisapack was loaded from.
std::string LibraryPath() {
  Dl_info info;
  dladdr(reinterpret_cast<void*>(&isapack_version), &info);
  return info.dli_fname;
}

struct CodeObjectFile {
  std::string target_id;
  unsigned version;
  std::string path;
};

// Every code object of this build, extracted from the library's catalog.
const std::vector<CodeObjectFile>& CodeObjects() {
  static const std::vector<CodeObjectFile> files = [] {
    std::vector<CodeObjectFile> out;
    fs::create_directories(WorkDir() / "objects");
    for (size_t i = 0; i < isapack_catalog_entry_count(); ++i) {
      isapack_catalog_entry_info_t info;
      EXPECT_EQ(isapack_catalog_entry_info(i, &info), nullptr);
      std::vector<char> bytes(info.uncompressed_size);
      EXPECT_EQ(isapack_catalog_entry_extract(i, bytes.data(), bytes.size()), nullptr);
      const fs::path path =
          WorkDir() / "objects" / ("amdgcn-amd-amdhsa--" + std::string(info.target_id) + ".hsaco");
      std::ofstream(path, std::ios::binary)
          .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      out.push_back({info.target_id, info.code_object_version, path.string()});
    }
    return out;
  }();
  return files;
}

// --- targets -------------------------------------------------------------------

TEST(CliTargets, JsonDescribesEveryProcessorAndWhatThisBuildLoads) {
  const Finished run = Isapack({"targets", "--json"});
  ASSERT_EQ(run.exit, 0) << run.err;
  const json doc = Json(run);
  EXPECT_EQ(doc.at("schema"), 1);
  ASSERT_EQ(doc.at("processors").size(), 54u);
  EXPECT_EQ(doc.at("generics").size(), 9u);
  EXPECT_EQ(doc.at("families").size(), 22u);
  EXPECT_EQ(doc.at("bundles").size(), 4u);
  // gfx1103 as the library itself would select it.
  const char* isas[] = {"amdgcn-amd-amdhsa--gfx1103", "amdgcn-amd-amdhsa--gfx11-generic"};
  size_t entry = ISAPACK_NO_ENTRY;
  isapack_status_free(isapack_select(isas, 2, &entry, nullptr, 0, nullptr));
  isapack_catalog_entry_info_t info;
  ASSERT_EQ(isapack_catalog_entry_info(entry, &info), nullptr);
  bool covered = false;
  const json build = BuildInfo();
  for (const json& t : build.at("covered_targets")) covered = covered || t == "gfx1103";
  for (const json& p : doc.at("processors")) {
    if (p.at("name") != "gfx1103") continue;
    EXPECT_EQ(p, json({{"name", "gfx1103"},
                       {"mach", "0x44"},
                       {"isa_version", "11.0.3"},
                       {"xnack", "none"},
                       {"sramecc", "none"},
                       {"generic", "gfx11-generic"},
                       {"llvm", 19},
                       {"llvm_removed", nullptr},
                       {"product", "Radeon 780M"},
                       {"products", {"Radeon 780M", "Radeon 760M", "Radeon 740M"}},
                       {"covered", covered},
                       {"code_object", info.target_id}}));
  }
  EXPECT_EQ(doc.at("generics")[4], json({{"name", "gfx11-generic"},
                                         {"mach", "0x54"},
                                         {"llvm", 19},
                                         {"members",
                                          {"gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150",
                                           "gfx1151", "gfx1152", "gfx1153", "gfx1154"}}}));
}

TEST(CliTargets, ProductNameListsOnlyThatProcessorAndTheGroupsHoldingIt) {
  const Finished run = Isapack({"targets", "AMD Radeon 780M", "--json"});
  ASSERT_EQ(run.exit, 0) << run.err;
  const json doc = Json(run);
  ASSERT_EQ(doc.at("processors").size(), 1u);
  EXPECT_EQ(doc.at("processors")[0].at("name"), "gfx1103");
  EXPECT_EQ(doc.at("processors")[0].at("products"),
            json({"Radeon 780M", "Radeon 760M", "Radeon 740M"}));
  std::vector<std::string> generics, families, bundles;
  for (const json& g : doc.at("generics")) generics.push_back(g.at("name"));
  for (const json& g : doc.at("families")) families.push_back(g.at("name"));
  for (const json& g : doc.at("bundles")) bundles.push_back(g.at("name"));
  EXPECT_EQ(generics, std::vector<std::string>({"gfx11-generic"}));
  EXPECT_EQ(families, std::vector<std::string>({"gfx110X-all", "gfx110X-igpu"}));
  EXPECT_EQ(bundles, std::vector<std::string>({"igpu-all", "all"}));
}

TEST(CliTargets, GfxNamesAndTargetIdsListTheirProcessorsInTableOrder) {
  const Finished run = Isapack({"targets", "gfx90a:xnack+", "GFX1030"});
  ASSERT_EQ(run.exit, 0) << run.err;
  const size_t gfx90a = run.out.find("\n  gfx90a    ");
  const size_t gfx1030 = run.out.find("\n  gfx1030   ");
  ASSERT_NE(gfx90a, std::string::npos) << run.out;
  ASSERT_NE(gfx1030, std::string::npos) << run.out;
  EXPECT_LT(gfx90a, gfx1030);
  EXPECT_EQ(run.out.find("\n  gfx1100   "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Radeon RX 6800, Radeon RX 6800 XT, Radeon RX 6900 XT, Radeon RX 6950 XT, "
                         "Radeon Pro W6800\n"),
            std::string::npos)
      << run.out;
}

TEST(CliTargets, UnknownGpuNameExitsTwoWithTheClosestSpelling) {
  const Finished run = Isapack({"targets", "Radeon 78OM"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "isapack: unknown GPU 'Radeon 78OM': did you mean 'Radeon 780M' (gfx1103)? `isapack "
            "targets` lists every name\n");
}

TEST(CliTargets, UnknownGpuNameInJsonIsAUsageError) {
  const Finished run = Isapack({"targets", "gfx1105", "--json"});
  EXPECT_EQ(run.exit, 2);
  const json doc = Json(run);
  EXPECT_EQ(doc.at("status"), "usage_error");
  EXPECT_EQ(doc.at("errors"), json({"unknown GPU 'gfx1105': did you mean 'gfx1100'? `isapack "
                                    "targets` lists every name"}));
}

// A fake sysfs whose KFD topology has a CPU node and, unless cpu_only, a
// Radeon 780M (gfx_target_version 110003) as node 1.
std::string FakeSysfs(const std::string& name, bool cpu_only) {
  const fs::path nodes = WorkDir() / name / "class/kfd/kfd/topology/nodes";
  fs::create_directories(nodes / "0");
  std::ofstream(nodes / "0/properties") << "cpu_cores_count 16\ngfx_target_version 0\n";
  if (!cpu_only) {
    fs::create_directories(nodes / "1");
    std::ofstream(nodes / "1/properties") << "simd_count 24\ngfx_target_version 110003\n";
  }
  return (WorkDir() / name).string();
}

TEST(CliTargets, LocalNamesTheKfdNodeOfA780mAndListsOnlyItsProcessor) {
  const std::string sysfs = FakeSysfs("sysfs-780m", false);
  const Finished run = Isapack({"targets", "--local", "--sysfs", sysfs, "--json"});
  ASSERT_EQ(run.exit, 0) << run.err;
  const json doc = Json(run);
  EXPECT_EQ(
      doc.at("local").at("gpus"),
      json::parse(R"([{"name": "gfx1103", "product": "Radeon 780M", "source": "KFD topology )" +
                  sysfs + R"(/class/kfd/kfd/topology/nodes/1"}])"));
  const isapack::cli::RocrVersion rocr = isapack::cli::InstalledRocr();
  EXPECT_EQ(doc.at("local").at("rocr"),
            json({{"version", rocr.version == 0 ? json(nullptr) : json(rocr.text)},
                  {"source", rocr.source}}));
  ASSERT_EQ(doc.at("processors").size(), 1u);
  EXPECT_EQ(doc.at("processors")[0].at("name"), "gfx1103");
}

TEST(CliTargets, LocalReadableOutputSaysWhereTheAnswerCameFrom) {
  const std::string sysfs = FakeSysfs("sysfs-780m-text", false);
  const Finished run = Isapack({"targets", "--local", "--sysfs", sysfs});
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(
      run.out.rfind("This machine's GPUs (read without HSA):\n  gfx1103   Radeon 780M          "
                    "(KFD topology " +
                        sysfs + "/class/kfd/kfd/topology/nodes/1)\nInstalled ROCr: ",
                    0),
      0u)
      << run.out;
}

TEST(CliTargets, LocalWithOnlyCpuNodesExits77NamingTheDriver) {
  const std::string sysfs = FakeSysfs("sysfs-cpu-only", true);
  const Finished run = Isapack({"targets", "--local", "--sysfs", sysfs});
  EXPECT_EQ(run.exit, 77);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "isapack: no GPU node in the KFD topology at " + sysfs +
                         "/class/kfd/kfd/topology/nodes (1 node, a CPU): the amdgpu driver is not "
                         "loaded or sees no GPU (no /dev/kfd); name the GPU instead (`isapack "
                         "targets` lists every name)\n");
}

TEST(CliTargets, ReadableOutputListsEachTargetOnce) {
  const Finished run = Isapack({"targets"});
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(
      run.out.rfind(
          "Exact targets, what this build covers and the code object a device would load\n", 0),
      0u);
  EXPECT_NE(run.out.find("\n  gfx600    -        -                Radeon HD 7970, Radeon HD 7950, "
                         "FirePro W9000\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(
      run.out.find(
          "\n  gfx11-generic    gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 gfx1153 "
          "gfx1154\n"),
      std::string::npos);
  EXPECT_NE(run.out.find("\n  gfx110X-igpu     gfx1103\n"), std::string::npos);
  EXPECT_NE(run.out.find("\nBundles:\n  dgpu-all         gfx900 gfx906 "), std::string::npos);
}

// --- expand ----------------------------------------------------------------------

TEST(CliExpand, PrintsTheCodeObjects) {
  Finished run = Isapack({"expand", "gfx110X-all", "--llvm", "19"});
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out,
            "1 code objects (mode generic, LLVM 19):\n"
            "  gfx11-generic           v6  gfx1100 gfx1101 gfx1102 gfx1103\n");
  run = Isapack({"expand", "dcgpu-all", "--mode", "exact", "--llvm", "19"});
  EXPECT_EQ(run.out,
            "3 code objects (mode exact, LLVM 19):\n"
            "  gfx908                  v5  gfx908\n"
            "  gfx90a                  v5  gfx90a\n"
            "  gfx942                  v5  gfx942\n"
            "2 targets asked for but left out:\n"
            "  gfx950: LLVM 19 cannot build gfx950: it first appears in LLVM 20\n"
            "  gfx1250: LLVM 19 cannot build gfx1250: it first appears in LLVM 21\n");
}

TEST(CliExpand, JsonIsTheDocumentedSchema) {
  const Finished run = Isapack({"expand", "gfx906:xnack-;gfx90a", "--llvm", "20", "--json"});
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(Json(run), json::parse(R"({
    "schema": 1, "selectors": ["gfx906:xnack-", "gfx90a"], "mode": "generic",
    "exact_code_object_version": 5, "llvm_major": 20,
    "code_objects": [
      {"target_id": "gfx9-generic:xnack-", "code_object_version": 6, "covers": ["gfx906:xnack-"]},
      {"target_id": "gfx90a", "code_object_version": 5, "covers": ["gfx90a"]}],
    "covered_targets": ["gfx906:xnack-", "gfx90a"], "left_out": [],
    "status": "ok", "exit_code": 0, "errors": []})"));
}

TEST(CliExpand, ErrorsAreTheBuildsAndExitWithUsage) {
  Finished run = Isapack({"expand", "gfx110x-al"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err.substr(0, run.err.find('\n')),
            "isapack: unknown GPU selector 'gfx110x-al'; did you mean 'gfx110X-all'?");
  run = Isapack({"expand", "all", "--llvm", "18"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err,
            "isapack: --llvm 18: isapack knows LLVM 19 and newer (generic targets need 19)\n");
}

// --- select ----------------------------------------------------------------------

TEST(CliSelect, ExplainsTheGenericChoice) {
  const Finished run =
      Isapack({"select", "amdgcn-amd-amdhsa--gfx1103", "--catalog", TestCatalog("all", "generic")});
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out,
            "gfx11-generic\n"
            "  amdgcn-amd-amdhsa--gfx1103 gets gfx11-generic (code object v6, entry 8 of the "
            "catalog of the given "
            "file)\n"
            "  assuming ROCr >= 6.4, which also lists amdgcn-amd-amdhsa--gfx11-generic (use "
            "--as-listed to take the "
            "ISA list as given)\n"
            "Selection trace:\n"
            "  agent ISA amdgcn-amd-amdhsa--gfx1103\n"
            "    gfx11-generic: selected\n"
            "  agent ISA amdgcn-amd-amdhsa--gfx11-generic\n"
            "    (generic ISA: the HSA runtime can load gfx11-generic code objects)\n");
}

TEST(CliSelect, AsListedModelsAnOlderRocrAndSaysTheGenericObjectIsRetargeted) {
  const Finished run = Isapack({"select", "amdgcn-amd-amdhsa--gfx1103", "--as-listed", "--json",
                                "--catalog", TestCatalog("all", "generic")});
  EXPECT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(Json(run),
            json({{"schema", 1},
                  {"isa_names", {"amdgcn-amd-amdhsa--gfx1103"}},
                  {"generic_isas_assumed", json::array()},
                  {"selected",
                   {{"entry", 8},
                    {"target_id", "gfx11-generic"},
                    {"code_object_version", 6},
                    {"retargeted_to", "gfx1103"},
                    {"loaded_code_object_version", 5}}},
                  {"selection_status", "OK"},
                  {"status", "ok"},
                  {"exit_code", 0},
                  {"errors", json::array()},
                  {"message", ""},
                  {"trace",
                   "agent ISA amdgcn-amd-amdhsa--gfx1103\n  gfx11-generic: selected, retargeted to "
                   "gfx1103 (code object v5) for a ROCr without generic support\n"}}));
  const Finished readable = Isapack({"select", "amdgcn-amd-amdhsa--gfx1103", "--as-listed",
                                     "--catalog", TestCatalog("all", "generic")});
  EXPECT_EQ(readable.out.substr(0, readable.out.find('\n')),
            "gfx11-generic, retargeted to gfx1103 for a ROCr without generic support");
}

TEST(CliSelect, AsListedWithRetargetingOffIsRocrTooOld) {
  const Finished run = Isapack({"select", "amdgcn-amd-amdhsa--gfx1103", "--as-listed", "--json",
                                "--catalog", TestCatalog("all", "generic")},
                               {{"ISAPACK_RETARGET", "0"}});
  EXPECT_EQ(run.exit, 1);
  EXPECT_EQ(
      Json(run),
      json(
          {{"schema", 1},
           {"isa_names", {"amdgcn-amd-amdhsa--gfx1103"}},
           {"generic_isas_assumed", json::array()},
           {"selected", nullptr},
           {"selection_status", "ROCR_TOO_OLD"},
           {"status", "failure"},
           {"exit_code", 1},
           {"errors",
            {"this build's code objects for gfx1103 (Radeon 780M) are generic (gfx11-generic, code "
             "object v6), which needs ROCr >= 6.4, but this HSA runtime lists only "
             "amdgcn-amd-amdhsa--gfx1103; upgrade ROCm, leave retargeting on (unset "
             "ISAPACK_RETARGET) or rebuild with ISAPACK_CODE_OBJECT_MODE=exact"}},
           {"message",
            "this build's code objects for gfx1103 (Radeon 780M) are generic (gfx11-generic, code "
            "object v6), which needs ROCr >= 6.4, but this HSA runtime lists only "
            "amdgcn-amd-amdhsa--gfx1103; upgrade ROCm, leave retargeting on (unset "
            "ISAPACK_RETARGET) or rebuild with ISAPACK_CODE_OBJECT_MODE=exact"},
           {"trace",
            "agent ISA amdgcn-amd-amdhsa--gfx1103\n  gfx11-generic: rejected: generic code object, "
            "but the agent's ISA list has no generic ISA (ROCr < 6.4 cannot load generic code "
            "objects)\n"}}));
}

TEST(CliSelect, EveryProcessorInBothModesMatchesTheRuntimesTable) {
  const std::string generic = TestCatalog("all", "generic"), exact = TestCatalog("all", "exact");
  std::ifstream in(TestPath("DATA_DIR") + "/selection/expectations.txt");
  std::string line;
  size_t rows = 0;
  auto result = [](const Finished& run) -> std::string {
    const json doc = Json(run);
    if (!doc.at("selected").is_null()) return doc.at("selected").at("target_id");
    return doc.at("selection_status") == "ROCR_TOO_OLD" ? "ROCR_TOO_OLD" : "UNSUPPORTED";
  };
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string processor, with_generic, older_rocr, exact_build;
    fields >> processor >> with_generic >> older_rocr >> exact_build;
    // Agents run with every mode they have set; off is as good as on here.
    std::string isa = processor;
    if (processor == "gfx906" || processor == "gfx908" || processor == "gfx90a" ||
        processor.rfind("gfx94", 0) == 0 || processor == "gfx950") {
      isa += ":sramecc-";
    }
    const bool xnack = processor.rfind("gfx9", 0) == 0 || processor.rfind("gfx101", 0) == 0 ||
                       processor == "gfx801" || processor == "gfx810";
    if (xnack) isa += ":xnack-";
    EXPECT_EQ(result(Isapack({"select", isa, "--json", "--catalog", generic})), with_generic)
        << isa;
    EXPECT_EQ(result(Isapack({"select", isa, "--as-listed", "--json", "--catalog", generic},
                             {{"ISAPACK_RETARGET", "0"}})),
              older_rocr)
        << isa;
    EXPECT_EQ(result(Isapack({"select", isa, "--json", "--catalog", exact})), exact_build) << isa;
    ++rows;
  }
  EXPECT_EQ(rows, 54u);
}

TEST(CliSelect, WithoutACatalogItAsksTheInstalledLibrary) {
  const Finished run = Isapack({"select", "gfx90a:sramecc+:xnack-", "--json"});
  const char* isas[] = {"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"};
  size_t entry = ISAPACK_NO_ENTRY;
  isapack_status_t status = isapack_select(isas, 1, &entry, nullptr, 0, nullptr);
  const json doc = Json(run);
  if (status == nullptr) {
    EXPECT_EQ(run.exit, 0);
    EXPECT_EQ(doc.at("selected").at("entry"), entry);
  } else {
    EXPECT_EQ(run.exit, 1);
    EXPECT_EQ(doc.at("message"), isapack_status_message(status));
  }
  isapack_status_free(status);
}

TEST(CliSelect, AnInvalidIsaNameIsAUsageError) {
  const Finished run = Isapack({"select", "amdgcn-amd-amdhsa--gfx1234"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err,
            "isapack: ISA name 'amdgcn-amd-amdhsa--gfx1234': unknown processor 'gfx1234'; `isapack "
            "targets` lists "
            "the processors isapack knows\n");
}

// --- verify ----------------------------------------------------------------------

TEST(CliVerify, TheInstalledLibraryIsIntact) {
  Finished run = Isapack({"verify"});
  ASSERT_EQ(run.exit, 0) << run.out << run.err;
  const size_t count = isapack_catalog_entry_count();
  EXPECT_NE(run.out.find("verify: all " + std::to_string(count) + " code objects are intact\n"),
            std::string::npos);
  run = Isapack({"verify", "--json"});
  const json doc = Json(run);
  EXPECT_EQ(doc.at("ok"), true);
  EXPECT_EQ(doc.at("entries").size(), count);
  EXPECT_EQ(doc.at("failures"), json::array());
  for (const json& entry : doc.at("entries")) EXPECT_EQ(entry.at("problems"), json::array());
}

// --- devices and smoke -------------------------------------------------------------

// The simulated runtime with two agents.
std::map<std::string, std::string> Simulated() {
  return {{"ISAPACK_LIBHSA_PATH", TestPath("SIMULATED_HSA")},
          {"ISAPACK_SIMULATED_HSA_AGENTS", "gfx1103;gfx1030,uuid=GPU-00000000000000b0"}};
}

TEST(CliDevices, WithoutAGpuTheyAreSkipped) {
  if (access("/dev/kfd", F_OK) == 0) GTEST_SKIP() << "/dev/kfd exists";
  ASSERT_FALSE(isapack::testing::SystemHsaRuntimeMissing())
      << "no libhsa-runtime64 is installed: apt-get install libhsa-runtime64-1 (Fedora: dnf "
         "install rocm-runtime)";
  for (const char* command : {"devices", "smoke"}) {
    const Finished run = Isapack({command});
    EXPECT_EQ(run.exit, 77) << command;
    EXPECT_EQ(
        run.err.rfind("isapack: no AMD GPU kernel driver: /dev/kfd is missing (hsa_init failed: "
                      "HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008): ",
                      0),
        0u)
        << run.err;
    EXPECT_NE(run.err.find("\nisapack: skipped: no usable AMD GPU on this machine (exit 77)\n"),
              std::string::npos);
  }
}

TEST(CliDevices, ListsTheSimulatedAgents) {
  const Finished run = Isapack({"devices", "--json"}, Simulated());
  ASSERT_EQ(run.exit, 0) << run.err;
  const json doc = Json(run);
  EXPECT_EQ(doc.at("simulated"), true);
  EXPECT_EQ(doc.at("hsa_library"), TestPath("SIMULATED_HSA"));
  ASSERT_EQ(doc.at("devices").size(), 2u);
  const json& second = doc.at("devices")[1];
  EXPECT_EQ(second.at("agent_name"), "gfx1030");
  EXPECT_EQ(second.at("product_name"), "Radeon RX 6800 (simulated)");
  EXPECT_EQ(second.at("uuid"), "GPU-00000000000000b0");
  const bool generic = BuildInfo().at("mode") == "generic";
  EXPECT_EQ(second.at("isa_names"),
            json({"amdgcn-amd-amdhsa--gfx1030", "amdgcn-amd-amdhsa--gfx10-3-generic"}));
  EXPECT_EQ(second.at("code_object"), generic ? "gfx10-3-generic" : "gfx1030");
  const Finished readable = Isapack({"devices"}, Simulated());
  EXPECT_NE(readable.out.find("\nSIMULATED: isapack simulated HSA runtime (a test double"),
            std::string::npos);
}

TEST(CliSmoke, PassesOnEverySimulatedAgent) {
  const Finished run = Isapack({"smoke", "--json"}, Simulated());
  ASSERT_EQ(run.exit, 0) << run.out << run.err;
  const json doc = Json(run);
  EXPECT_EQ(doc.at("passed"), true);
  EXPECT_EQ(doc.at("simulated"), true);
  ASSERT_EQ(doc.at("devices").size(), 2u);
  for (const json& device : doc.at("devices")) {
    EXPECT_EQ(device.at("passed"), true);
    EXPECT_EQ(device.at("simulated"), true);
    EXPECT_EQ(device.at("checks").size(), 7u);
    EXPECT_EQ(device.at("probe").at("wavefront_size"), 32);
    EXPECT_EQ(device.at("probe").at("work_items_verified"), 128);
  }
  const Finished readable = Isapack({"smoke"}, Simulated());
  EXPECT_NE(readable.out.find("GPU 0 gfx1103: PASS (simulated)\n"), std::string::npos)
      << readable.out;
}

TEST(CliSmoke, OnTheSimulatedRocr52ItExercisesTheRetargetedPath) {
  auto env = Simulated();
  env["ISAPACK_SIMULATED_HSA_AGENTS"] = "gfx1036";
  env["ISAPACK_SIMULATED_HSA_ROCR"] = "5.2";
  const Finished run = Isapack({"smoke"}, env);
  ASSERT_EQ(run.exit, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("GPU 0 gfx1036: PASS (simulated)\n"
                         "  ok    create the device and load gfx10-3-generic, retargeted to "
                         "gfx1036 (code object v5) "
                         "for a ROCr without generic support\n"),
            std::string::npos)
      << run.out;
  const Finished devices = Isapack({"devices"}, env);
  EXPECT_NE(
      devices.out.find(
          "  this build: covered, loads gfx10-3-generic, retargeted to gfx1036 (code object v5) "
          "for a ROCr without generic support\n"),
      std::string::npos)
      << devices.out;
}

TEST(CliSmoke, AnInjectedFailureIsAFailure) {
  auto env = Simulated();
  env["ISAPACK_SIMULATED_HSA_FAULTS"] = "hang";
  const Finished run = Isapack({"smoke", "--timeout-ms", "200", "--json"}, env);
  EXPECT_EQ(run.exit, 1);
  const json doc = Json(run);
  EXPECT_EQ(doc.at("passed"), false);
  const json& check = doc.at("devices")[0].at("checks")[1];
  EXPECT_EQ(check.at("passed"), false);
  EXPECT_EQ(check.at("detail"),
            "the isapack_fill dispatch on gfx1103 did not complete within 200 ms");
  env["ISAPACK_SIMULATED_HSA_FAULTS"] = "load-reject";
  EXPECT_EQ(Isapack({"smoke"}, env).exit, 1);
}

// --- inspect ---------------------------------------------------------------------

json InspectOne(const std::string& path, int expected_exit = 0) {
  const Finished run = Isapack({"inspect", "--json", path});
  EXPECT_EQ(run.exit, expected_exit) << path << "\n" << run.err;
  return Json(run).at("files")[0];
}

TEST(CliInspect, EveryCodeObjectOfThisBuild) {
  ASSERT_FALSE(CodeObjects().empty());
  for (const CodeObjectFile& object : CodeObjects()) {
    const json report = InspectOne(object.path);
    EXPECT_EQ(report.at("kind"), "code-object");
    EXPECT_EQ(report.at("targets"), json({object.target_id}));
    const json& code_object = report.at("code_objects")[0];
    EXPECT_EQ(code_object.at("code_object_version"), object.version);
    EXPECT_EQ(code_object.at("metadata_target"), "amdgcn-amd-amdhsa--" + object.target_id);
    ASSERT_EQ(code_object.at("kernels").size(), 3u);
    EXPECT_EQ(code_object.at("kernels")[0].at("name"), "isapack_fill");
    EXPECT_EQ(code_object.at("kernels")[0].at("kernarg_segment_size"), 32);
    EXPECT_EQ(code_object.at("kernels")[1].at("kernarg_segment_size"), 24);
    EXPECT_EQ(code_object.at("kernels")[2].at("kernarg_segment_size"), 16);
  }
}

// A tool the tests make real-world files with. Missing is a failure naming
// the Debian package to install, never a skip: these tests are the only
// check of the readers that read other people's binaries.
std::string RequiredTool(const std::string& key, const std::string& package) {
  const std::string path = TestPath(key);
  if (path.empty() || access(path.c_str(), X_OK) != 0) {
    ADD_FAILURE() << key << " ('" << path << "') is missing: install the Debian package "
                  << package;
    return "";
  }
  return path;
}
#define ASSERT_TOOL(key, package) ASSERT_FALSE(RequiredTool(key, package).empty())

// Bundles of every code object of this build, made at test time with the
// same clang-offload-bundler HIP uses (clang-tools-19).
std::vector<std::string> BundleTargets(bool compress) {
  std::string targets = "-targets=host-x86_64-unknown-linux-gnu";
  std::vector<std::string> argv = {TestPath("OFFLOAD_BUNDLER"), "-type=o", "-input=/dev/null"};
  std::vector<std::string> ids;
  for (const CodeObjectFile& object : CodeObjects()) {
    targets += ",hipv4-amdgcn-amd-amdhsa--" + object.target_id;
    argv.push_back("-input=" + object.path);
    ids.push_back(object.target_id);
  }
  argv.push_back(targets);
  const std::string output = (WorkDir() / (compress ? "bundle.ccob" : "bundle.bin")).string();
  argv.push_back("-output=" + output);
  if (compress) argv.push_back("-compress");
  // The bundler runs llvm-objcopy from PATH to write object files; Debian
  // ships the unversioned name only in the LLVM's own bin directory.
  const std::string llvm_bin = fs::canonical(TestPath("OFFLOAD_BUNDLER")).parent_path().string();
  const char* path = std::getenv("PATH");
  const Finished made =
      Spawn(argv, {{"PATH", llvm_bin + ":" + (path != nullptr ? path : "/usr/bin:/bin")}});
  EXPECT_EQ(made.exit, 0) << made.err;
  return ids;
}

// The entry list clang-offload-bundler writes: the (empty) host entry, then
// one per code object in the order given.
json BundleEntries() {
  json entries = json::array({{{"id", "host-x86_64-unknown-linux-gnu-"}, {"size", 0}}});
  for (const CodeObjectFile& object : CodeObjects()) {
    entries.push_back({{"id", "hipv4-amdgcn-amd-amdhsa--" + object.target_id},
                       {"size", fs::file_size(object.path)}});
  }
  return entries;
}

TEST(CliInspect, OffloadBundlesFromClangOffloadBundler) {
  ASSERT_TOOL("OFFLOAD_BUNDLER", "clang-tools-19");
  const std::vector<std::string> ids = BundleTargets(false);
  json report = InspectOne((WorkDir() / "bundle.bin").string());
  EXPECT_EQ(report.at("kind"), "offload-bundle");
  EXPECT_EQ(report.at("targets"), json(ids));
  EXPECT_EQ(report.at("offload_bundles")[0].at("entries"), BundleEntries());
  EXPECT_EQ(report.at("errors"), json::array());

  BundleTargets(true);
  report = InspectOne((WorkDir() / "bundle.ccob").string());
  EXPECT_EQ(report.at("kind"), "compressed-offload-bundle");
  EXPECT_EQ(report.at("targets"), json(ids));
  const json& bundle = report.at("offload_bundles")[0];
  EXPECT_EQ(bundle.at("method"), "zstd");
  EXPECT_EQ(bundle.at("version"), 2);  // what LLVM 19's bundler writes
  EXPECT_EQ(bundle.at("uncompressed_size"), fs::file_size(WorkDir() / "bundle.bin"));
  EXPECT_EQ(bundle.at("entries"), BundleEntries());
}

// A CCOB file: a v1, v2 or v3 header for `frame`, which decompresses with
// `method` (0 zlib, 1 zstd) to `raw_size` bytes.
std::string CompressedBundleFile(uint16_t version, uint16_t method, const std::string& frame,
                                 uint64_t raw_size) {
  std::string file = "CCOB";
  auto put = [&](auto value) { file.append(reinterpret_cast<const char*>(&value), sizeof(value)); };
  const uint64_t header = version == 1 ? 20 : version == 2 ? 24 : 32;
  put(version);
  put(method);
  if (version == 2) put(static_cast<uint32_t>(header + frame.size()));
  if (version == 3) put(static_cast<uint64_t>(header + frame.size()));
  if (version == 3)
    put(raw_size);
  else
    put(static_cast<uint32_t>(raw_size));
  put(uint64_t{0x1234});
  return file + frame;
}

// CCOBs with zlib (v1, v2, v3 headers) made here from the bundler's
// uncompressed bundle: LLVM 19's bundler compresses with zstd whenever it
// has zstd, and writes only v2 headers. And the bundler's own zstd frame
// under v1 and v3 headers, as other LLVM releases write them.
TEST(CliInspect, CompressedBundlesWithZlibAndVersion3Headers) {
  ASSERT_TOOL("OFFLOAD_BUNDLER", "clang-tools-19");
  const std::vector<std::string> ids = BundleTargets(false);
  const std::string raw = ReadText(WorkDir() / "bundle.bin");
  std::vector<uint8_t> compressed(compressBound(raw.size()));
  uLongf compressed_size = compressed.size();
  ASSERT_EQ(compress2(compressed.data(), &compressed_size,
                      reinterpret_cast<const Bytef*>(raw.data()), raw.size(), 9),
            Z_OK);
  const std::string zlib_frame(reinterpret_cast<const char*>(compressed.data()), compressed_size);
  BundleTargets(true);
  const std::string v2 = ReadText(WorkDir() / "bundle.ccob");
  ASSERT_EQ(v2.substr(0, 8), std::string("CCOB\x02\x00\x01\x00", 8));  // v2, zstd
  const std::string zstd_frame = v2.substr(24);
  for (const uint16_t method : {uint16_t{0}, uint16_t{1}}) {
    const std::string name = method == 0 ? "zlib" : "zstd";
    for (const uint16_t version : {uint16_t{1}, uint16_t{2}, uint16_t{3}}) {
      const fs::path path = WorkDir() / (name + "-v" + std::to_string(version) + ".ccob");
      std::ofstream(path, std::ios::binary) << CompressedBundleFile(
          version, method, method == 0 ? zlib_frame : zstd_frame, raw.size());
      const json report = InspectOne(path.string());
      EXPECT_EQ(report.at("targets"), json(ids)) << path;
      EXPECT_EQ(report.at("offload_bundles")[0].at("method"), name);
      EXPECT_EQ(report.at("offload_bundles")[0].at("version"), version);
      EXPECT_EQ(report.at("offload_bundles")[0].at("entries"), BundleEntries());
    }
  }
}

// An offload bundle of `objects` (target ID, bytes), as clang-offload-bundler
// lays it out: the magic, the entry table, then the payloads. `table_size`
// receives where the payloads begin.
std::string OffloadBundle(const std::vector<std::pair<std::string, std::string>>& objects,
                          size_t* table_size) {
  std::string table = "__CLANG_OFFLOAD_BUNDLE__";
  auto put = [&](uint64_t value) { table.append(reinterpret_cast<const char*>(&value), 8); };
  put(objects.size());
  size_t size = table.size();
  for (const auto& [id, bytes] : objects) size += 24 + ("hipv4-amdgcn-amd-amdhsa--" + id).size();
  *table_size = size;
  std::string payloads;
  for (const auto& [id, bytes] : objects) {
    const std::string full = "hipv4-amdgcn-amd-amdhsa--" + id;
    put(size + payloads.size());
    put(bytes.size());
    put(full.size());
    table += full;
    payloads += bytes;
  }
  return table + payloads;
}

// zlib's stream of `raw`, flushed (byte-aligned, decodable) after `split`
// bytes; `split_at` receives the compressed bytes up to that point.
std::string DeflateWithFlush(const std::string& raw, size_t split, size_t* split_at) {
  z_stream z{};
  EXPECT_EQ(deflateInit(&z, 9), Z_OK);
  std::string out(compressBound(raw.size()) + 64, '\0');
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(split);
  EXPECT_EQ(deflate(&z, Z_FULL_FLUSH), Z_OK);
  *split_at = out.size() - z.avail_out;
  z.avail_in = static_cast<uInt>(raw.size() - split);
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

// isapack coverage decompresses a compressed bundle only as far as its
// entry table, and a generic entry's ELF header: a bundle cut right after
// its table is still covered by its exact entries (inspect, which reads the
// code objects, names it truncated), and one with a generic entry past the
// cut is named truncated with the byte it ends at.
TEST(CliCoverage, CompressedBundlesAreReadToTheirEntryTablesAndGenericHeadersOnly) {
  std::vector<std::pair<std::string, std::string>> exact, with_generic;
  for (const CodeObjectFile& object : CodeObjects()) {
    const bool generic = object.target_id.find("-generic") != std::string::npos;
    if (!generic && exact.size() < 2) exact.push_back({object.target_id, ReadText(object.path)});
    if (generic && with_generic.empty())
      with_generic.push_back({object.target_id, ReadText(object.path)});
  }
  ASSERT_EQ(exact.size(), 2u);
  ASSERT_EQ(with_generic.size(), 1u);
  with_generic.insert(with_generic.begin(), exact.begin(), exact.end());
  for (const auto* objects : {&exact, &with_generic}) {
    size_t table = 0, split_at = 0;
    const std::string raw = OffloadBundle(*objects, &table);
    const std::string frame = DeflateWithFlush(raw, table, &split_at);
    const std::string name = objects == &exact ? "exact" : "generic";
    const fs::path whole = WorkDir() / ("coverage-" + name + ".ccob");
    const fs::path cut = WorkDir() / ("coverage-" + name + "-cut.ccob");
    std::ofstream(whole, std::ios::binary) << CompressedBundleFile(3, 0, frame, raw.size());
    std::ofstream(cut, std::ios::binary)
        << CompressedBundleFile(3, 0, frame.substr(0, split_at), raw.size());
    std::vector<std::string> targets;
    for (const auto& object : *objects) targets.push_back(object.first);
    std::sort(targets.begin(), targets.end());
    Finished run = Isapack({"coverage", "--json", "--no-cache", "--rocr", "6.4", whole.string()});
    EXPECT_EQ(run.exit, 0) << run.err;
    json found = Json(run).at("packages")[0].at("targets");
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, json(targets)) << name;

    run = Isapack({"coverage", "--json", "--no-cache", "--rocr", "6.4", cut.string()});
    if (objects == &exact) {
      EXPECT_EQ(run.exit, 0) << run.err;
      found = Json(run).at("packages")[0].at("targets");
      std::sort(found.begin(), found.end());
      EXPECT_EQ(found, json(targets));
      const Finished inspected = Isapack({"inspect", "--json", cut.string()});
      EXPECT_EQ(inspected.exit, 1);
      EXPECT_EQ(Json(inspected).at("errors")[0],
                cut.string() + ": the file: compressed offload bundle: zlib failed (-3)");
    } else {
      EXPECT_EQ(run.exit, 3);
      EXPECT_EQ(Json(run).at("errors"),
                json({cut.string() +
                      ": the file: compressed offload bundle is truncated: its data "
                      "ends after " +
                      std::to_string(table) + " of its " + std::to_string(raw.size()) + " bytes"}));
    }
  }
}

TEST(CliInspect, TheBlitKernelsRocrEmbeds) {
  const char* libhsa = "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1";
  ASSERT_EQ(access(libhsa, R_OK), 0)
      << libhsa << " is not installed: apt-get install libhsa-runtime64-1";
  const json report = InspectOne(libhsa);
  EXPECT_EQ(report.at("kind"), "host-elf");
  // ROCr 5.2.3: 26 code objects v4, one per exact target, plus three legacy
  // code objects v1 (ISA 7.0.0, 8.0.0 and 9.0.0).
  std::map<int, int> versions;
  for (const json& object : report.at("code_objects"))
    ++versions[object.at("code_object_version").get<int>()];
  EXPECT_EQ(versions, (std::map<int, int>{{1, 3}, {4, 26}}));
  std::set<std::string> targets;
  for (const json& t : report.at("targets")) targets.insert(t.get<std::string>());
  EXPECT_EQ(targets,
            (std::set<std::string>{"gfx700",  "gfx701",  "gfx702",  "gfx801",  "gfx802",  "gfx803",
                                   "gfx805",  "gfx810",  "gfx900",  "gfx902",  "gfx904",  "gfx906",
                                   "gfx908",  "gfx909",  "gfx90a",  "gfx90c",  "gfx1010", "gfx1011",
                                   "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032", "gfx1033",
                                   "gfx1034", "gfx1035"}));
  EXPECT_EQ(report.at("errors"), json::array());
}

TEST(CliInspect, TheLibrarysOwnCatalogListsTheRecordsObjectsWithTheirCoversAsArrays) {
  const json report = InspectOne(LibraryPath());
  EXPECT_EQ(report.at("kind"), "host-elf");
  json expected = json::array();
  const json build = BuildInfo();
  for (const json& object : build.at("code_objects")) expected.push_back(object.at("target_id"));
  EXPECT_EQ(report.at("targets"), expected);
  ASSERT_EQ(report.at("catalogs").size(), 1u);
  EXPECT_EQ(report.at("catalogs")[0].at("location"), "section .isapack_catalog");
  EXPECT_EQ(report.at("catalogs")[0].at("build_info"), BuildInfo());
  const json& entries = report.at("catalogs")[0].at("entries");
  ASSERT_EQ(entries.size(), build.at("code_objects").size());
  for (size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i].at("target_id"), build.at("code_objects")[i].at("target_id"));
    EXPECT_EQ(entries[i].at("covers"), build.at("code_objects")[i].at("covers"));
  }
}

TEST(CliInspect, DamagedFilesAreErrorsNotCrashes) {
  const std::string object = ReadText(CodeObjects().front().path);
  const fs::path truncated = WorkDir() / "truncated.hsaco";
  std::ofstream(truncated, std::ios::binary) << object.substr(0, object.size() / 2);
  json report = InspectOne(truncated.string(), 1);
  EXPECT_EQ(report.at("code_objects")[0].at("error"),
            "ELF section header table lies outside the file");

  const fs::path garbage = WorkDir() / "garbage.bin";
  std::ofstream(garbage, std::ios::binary)
      << std::string(4096, '\x7f') + "ELF" + std::string(100, '\0');
  report = InspectOne(garbage.string(), 4);  // read, but no AMDGPU code: nothing found
  EXPECT_EQ(report.at("kind"), "unknown");
  EXPECT_EQ(report.at("targets"), json::array());

  const Finished missing = Isapack({"inspect", "/nonexistent/file"});
  EXPECT_EQ(missing.exit, 3);
  EXPECT_EQ(missing.err, "isapack: cannot open /nonexistent/file: No such file or directory\n");

  ASSERT_TOOL("OFFLOAD_BUNDLER", "clang-tools-19");
  BundleTargets(false);
  std::string bundle = ReadText(WorkDir() / "bundle.bin");
  const uint64_t far = 1ull << 40;
  std::memcpy(bundle.data() + 32, &far, 8);  // the first entry's offset
  const fs::path corrupt = WorkDir() / "corrupt.bin";
  std::ofstream(corrupt, std::ios::binary) << bundle;
  report = InspectOne(corrupt.string(), 1);
  EXPECT_EQ(
      report.at("errors")[0],
      "the file: offload bundle entry 'host-x86_64-unknown-linux-gnu-' lies outside the bundle");

  BundleTargets(true);
  const std::string ccob = ReadText(WorkDir() / "bundle.ccob");
  const fs::path short_ccob = WorkDir() / "short.ccob";
  std::ofstream(short_ccob, std::ios::binary) << ccob.substr(0, ccob.size() - 100);
  report = InspectOne(short_ccob.string(), 1);
  EXPECT_EQ(report.at("errors"),
            json({"the file: compressed offload bundle records " + std::to_string(ccob.size()) +
                  " bytes but " + std::to_string(ccob.size() - 100) + " are present"}));

  std::string flipped = ccob;
  flipped[24] = static_cast<char>(flipped[24] ^ 0x5a);  // the zstd frame's magic
  const fs::path bad_frame = WorkDir() / "bad-frame.ccob";
  std::ofstream(bad_frame, std::ios::binary) << flipped;
  report = InspectOne(bad_frame.string(), 1);
  EXPECT_EQ(report.at("errors"),
            json({"the file: compressed offload bundle: the zstd frame header is damaged"}));
  EXPECT_EQ(report.at("targets"), json::array());

  std::string huge = ccob;
  const uint32_t claimed = 0xfffffff0u;  // v2's uncompressed size field
  std::memcpy(huge.data() + 12, &claimed, 4);
  const fs::path bomb = WorkDir() / "bomb.ccob";
  std::ofstream(bomb, std::ios::binary) << huge;
  report = InspectOne(bomb.string(), 1);
  EXPECT_EQ(report.at("errors"),
            json({"the file: compressed offload bundle claims 4294967280 bytes uncompressed, "
                  "above the limit of 268435456"}));
}

// --- real-world containers, made by the real tools ---------------------------

// A HIP translation unit compiled by clang for `arches`, as a host object
// with a .hip_fatbin section (-nogpulib -nogpuinc: no ROCm headers needed;
// the kernel launch stub only needs hipLaunchKernel declared).
std::string CompileHip(const std::string& name, const std::vector<std::string>& arches,
                       bool compress) {
  const fs::path source = WorkDir() / (name + ".hip");
  std::ofstream(source) << "typedef struct { unsigned x, y, z; } dim3;\n"
                           "extern \"C\" int hipLaunchKernel(const void*, dim3, dim3, void**, "
                           "unsigned long, void*);\n"
                           "extern \"C\" __attribute__((global)) void "
                        << name << "(int* out) { *out = 42; }\n";
  const std::string object = (WorkDir() / (name + (compress ? ".ccob.o" : ".o"))).string();
  std::vector<std::string> argv = {TestPath("CLANG"), "-x",    "hip", "-nogpulib",
                                   "-nogpuinc",       "-fPIC", "-c"};
  for (const std::string& arch : arches) argv.push_back("--offload-arch=" + arch);
  if (compress) argv.push_back("--offload-compress");
  argv.insert(argv.end(), {"-o", object, source.string()});
  const Finished made = Spawn(argv);
  EXPECT_EQ(made.exit, 0) << made.err;
  return object;
}

// A shared library linked by ld.lld from host objects.
std::string LinkShared(const std::string& name, const std::vector<std::string>& objects) {
  const std::string library = (WorkDir() / name).string();
  std::vector<std::string> argv = {TestPath("LLD"), "-shared", "-o", library};
  argv.insert(argv.end(), objects.begin(), objects.end());
  const Finished made = Spawn(argv);
  EXPECT_EQ(made.exit, 0) << made.err;
  return library;
}

TEST(CliInspect, SeveralCompressedBundlesInOneHipFatbinAreReadByTheirHeaderSizes) {
  ASSERT_TOOL("CLANG", "clang-19");
  ASSERT_TOOL("LLD", "lld-19");
  // Two translation units: the linker puts their bundles back to back in one
  // .hip_fatbin, each 4096-byte aligned.
  const std::string library =
      LinkShared("libtwo-ccob.so", {CompileHip("first_kernel", {"gfx1100", "gfx1030"}, true),
                                    CompileHip("second_kernel", {"gfx90a"}, true)});
  const json report = InspectOne(library);
  EXPECT_EQ(report.at("kind"), "host-elf");
  EXPECT_EQ(report.at("targets"), json({"gfx1030", "gfx1100", "gfx90a"}));
  ASSERT_EQ(report.at("offload_bundles").size(), 2u);
  EXPECT_EQ(report.at("offload_bundles")[0].at("location"), "section .hip_fatbin + 0x0");
  EXPECT_EQ(report.at("offload_bundles")[0].at("version"), 2);
  EXPECT_EQ(report.at("offload_bundles")[0].at("entries").size(), 3u);
  EXPECT_EQ(report.at("offload_bundles")[1].at("location"), "section .hip_fatbin + 0x1000");
  EXPECT_EQ(report.at("offload_bundles")[1].at("entries").size(), 2u);
  EXPECT_EQ(report.at("code_objects")[0].at("kernels")[0].at("name"), "first_kernel");
  EXPECT_EQ(report.at("code_objects")[2].at("kernels")[0].at("name"), "second_kernel");
  EXPECT_EQ(report.at("errors"), json::array());
}

TEST(CliInspect, UncompressedBundlesOfAHipSharedLibrary) {
  ASSERT_TOOL("CLANG", "clang-19");
  ASSERT_TOOL("LLD", "lld-19");
  const std::string library =
      LinkShared("libtwo-bundles.so", {CompileHip("plain_first", {"gfx1100"}, false),
                                       CompileHip("plain_second", {"gfx942", "gfx1201"}, false)});
  const json report = InspectOne(library);
  EXPECT_EQ(report.at("targets"), json({"gfx1100", "gfx1201", "gfx942"}));
  ASSERT_EQ(report.at("offload_bundles").size(), 2u);
  EXPECT_EQ(report.at("offload_bundles")[0].at("compressed"), false);
  EXPECT_EQ(report.at("offload_bundles")[1].at("location"), "section .hip_fatbin + 0x3000");
  EXPECT_EQ(report.at("errors"), json::array());
}

TEST(CliInspect, HipFatbinAddedToALibraryWithObjcopy) {
  ASSERT_TOOL("OFFLOAD_BUNDLER", "clang-tools-19");
  ASSERT_TOOL("LLVM_OBJCOPY", "llvm-19");
  const std::vector<std::string> ids = BundleTargets(true);
  // Two bundler outputs back to back, the second 8-byte aligned.
  std::string fatbin = ReadText(WorkDir() / "bundle.ccob");
  const size_t second_at = (fatbin.size() + 7) / 8 * 8;
  fatbin.resize(second_at, '\0');
  fatbin += ReadText(WorkDir() / "bundle.ccob");
  std::ofstream(WorkDir() / "fatbin.bin", std::ios::binary) << fatbin;
  const std::string library = (WorkDir() / "libadded-fatbin.so").string();
  const Finished made =
      Spawn({TestPath("LLVM_OBJCOPY"), "--add-section",
             ".hip_fatbin=" + (WorkDir() / "fatbin.bin").string(), LibraryPath(), library});
  ASSERT_EQ(made.exit, 0) << made.err;
  const json report = InspectOne(library);
  json expected = json(ids);
  const json build = BuildInfo();  // kept: the loop below walks into it
  for (const json& own : build.at("code_objects")) {
    if (std::find(expected.begin(), expected.end(), own.at("target_id")) == expected.end()) {
      expected.push_back(own.at("target_id"));
    }
  }
  EXPECT_EQ(report.at("targets"), expected);
  EXPECT_EQ(report.at("offload_bundles").size(), 2u);
  char second[64];
  std::snprintf(second, sizeof(second), "section .hip_fatbin + 0x%zx", second_at);
  EXPECT_EQ(report.at("offload_bundles")[1].at("location"), second);
}

TEST(CliInspect, OffloadBundlesInsideAStaticLibrary) {
  ASSERT_TOOL("OFFLOAD_BUNDLER", "clang-tools-19");
  ASSERT_TOOL("LLVM_AR", "llvm-19");
  ASSERT_TOOL("CLANG", "clang-19");
  const std::vector<std::string> ids = BundleTargets(false);
  const std::string hip_object = CompileHip("archived_kernel", {"gfx1151"}, true);
  const std::string archive = (WorkDir() / "libbundles.a").string();
  fs::remove(archive);
  const fs::path empty =
      WorkDir() / "empty.o";  // an empty member (the inspect fuzzer's first find)
  std::ofstream(empty).close();
  const Finished made = Spawn({TestPath("LLVM_AR"), "rc", archive,
                               (WorkDir() / "bundle.bin").string(), hip_object, empty.string()});
  ASSERT_EQ(made.exit, 0) << made.err;
  const json report = InspectOne(archive);
  EXPECT_EQ(report.at("kind"), "archive");
  json expected = json(ids);
  expected.push_back("gfx1151");
  EXPECT_EQ(report.at("targets"), expected);
  ASSERT_EQ(report.at("offload_bundles").size(), 2u);
  EXPECT_EQ(report.at("offload_bundles")[0].at("location"), "archive member 'bundle.bin'");
  EXPECT_EQ(report.at("offload_bundles")[1].at("location"),
            "archive member 'archived_kernel.ccob.o': section .hip_fatbin + 0x0");
  EXPECT_EQ(report.at("errors"), json::array());

  const std::string whole = ReadText(archive);
  const fs::path truncated = WorkDir() / "truncated.a";
  std::ofstream(truncated, std::ios::binary)
      << whole.substr(0, whole.size() / 2);  // inside a member
  const json damaged = InspectOne(truncated.string(), 1);
  EXPECT_EQ(damaged.at("kind"), "archive");
  EXPECT_EQ(damaged.at("errors"),
            json({"archive member 'bundle.bin': damaged ar archive: Truncated ar archive"}));
}

// --- inputs nobody planned for: bounded, clear, and the scan goes on -----------

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

#if defined(__SANITIZE_THREAD__)
constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kThreadSanitizer = true;
#else
constexpr bool kThreadSanitizer = false;
#endif
#else
constexpr bool kThreadSanitizer = false;
#endif

constexpr long kSmallRssKb = 64 * 1024;
// "Within a second"; ASan makes every start of the command several times
// slower, so the asan preset allows more.
constexpr double kQuickSeconds = kAddressSanitizer ? 5.0 : 1.0;

// Files the bounded-input tests share: a FIFO, a 2 GB sparse file.
const fs::path& Fifo() {
  static const fs::path path = [] {
    const fs::path p = WorkDir() / "fifo";
    mkfifo(p.c_str(), 0600);
    return p;
  }();
  return path;
}

const fs::path& SparseFile() {
  static const fs::path path = [] {
    const fs::path p = WorkDir() / "sparse-2g";
    std::ofstream(p).close();
    fs::resize_file(p, uint64_t{2} << 30);
    return p;
  }();
  return path;
}

std::string RefusedType(const std::string& path, const std::string& type) {
  return path + " is " + type +
         "; isapack reads regular files only (a device, FIFO or socket may never end); copy the "
         "data to a file first";
}

TEST(CliBoundedInputs, DevZeroAFifoAndA2GbSparseFileReturnWithinASecondNamingWhatTheyAre) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/dev/zero", RefusedType("/dev/zero", "a character device")},
      {Fifo().string(), RefusedType(Fifo().string(), "a FIFO (named pipe)")},
      {SparseFile().string(),
       SparseFile().string() +
           " is 2147483648 bytes, above the limit of 1073741824 bytes; --max-file-size raises it"}};
  for (const auto& [path, message] : cases) {
    Finished run = Isapack({"inspect", path});
    EXPECT_EQ(run.exit, 3) << path;
    EXPECT_EQ(run.err, "isapack: " + message + "\n");
    EXPECT_LT(run.seconds, kQuickSeconds) << path;
    EXPECT_LT(run.peak_rss_kb, kSmallRssKb) << path;
    run = Isapack({"inspect", "--json", path});
    EXPECT_EQ(Json(run), json({{"schema", 1},
                               {"files", {{{"path", path}, {"error", message}}}},
                               {"status", "unreadable_input"},
                               {"exit_code", 3},
                               {"errors", {message}}}));
    EXPECT_LT(run.seconds, kQuickSeconds) << path;
    run = Isapack({"select", "gfx1103", "--catalog", path});
    EXPECT_EQ(run.exit, 3) << path;
    EXPECT_EQ(run.err, "isapack: --catalog: " + message + "\n");
    EXPECT_LT(run.seconds, kQuickSeconds) << path;
    EXPECT_LT(run.peak_rss_kb, kSmallRssKb) << path;
  }
}

TEST(CliBoundedInputs, ADirectoryIsWalkedInSortedOrderWithoutFollowingLinks) {
  const fs::path dir = WorkDir() / "walked";
  fs::remove_all(dir);
  fs::create_directories(dir / "a");
  fs::copy_file(CodeObjects().front().path, dir / "b.hsaco");
  fs::copy_file(CodeObjects().back().path, dir / "a" / "c.hsaco");
  fs::create_symlink("loop2", dir / "loop1");
  fs::create_symlink("loop1", dir / "loop2");
  fs::create_directory_symlink("..", dir / "a" / "up");  // followed, it would walk forever
  const Finished run = Isapack({"inspect", "--json", dir.string()});
  EXPECT_EQ(run.exit, 3);
  EXPECT_LT(run.seconds, kQuickSeconds);
  const json doc = Json(run);
  std::vector<std::string> paths;
  for (const json& file : doc.at("files")) paths.push_back(file.at("path"));
  EXPECT_EQ(paths,
            (std::vector<std::string>{(dir / "a" / "c.hsaco").string(), (dir / "b.hsaco").string(),
                                      (dir / "loop1").string(), (dir / "loop2").string()}));
  EXPECT_EQ(doc.at("files")[0].at("targets"), json({CodeObjects().back().target_id}));
  EXPECT_EQ(doc.at("files")[1].at("targets"), json({CodeObjects().front().target_id}));
  const std::string loop = "cannot open " + (dir / "loop1").string() +
                           ": a symbolic link loop (Too many levels of symbolic links)";
  EXPECT_EQ(doc.at("files")[2].at("error"), loop);
  EXPECT_EQ(doc.at("errors")[0], loop);
  EXPECT_EQ(doc.at("status"), "unreadable_input");
}

TEST(CliBoundedInputs, ADanglingLinkIsNamedWithTheTargetThatDoesNotExist) {
  const fs::path link = WorkDir() / "dangling.hsaco";
  fs::remove(link);
  fs::create_symlink("gone/object.hsaco", link);
  const Finished run = Isapack({"inspect", "--json", link.string(), CodeObjects().front().path});
  EXPECT_EQ(run.exit, 3);
  const std::string message = "cannot open " + link.string() +
                              ": a symbolic link to 'gone/object.hsaco', which does not exist "
                              "(a dangling link)";
  EXPECT_EQ(Json(run).at("errors"), json({message}));
  EXPECT_EQ(Json(run).at("files")[0].at("error"), message);
  EXPECT_EQ(Json(run).at("files")[1].at("targets"), json({CodeObjects().front().target_id}));
}

TEST(CliBoundedInputs, AnUnreadableInputIsReportedAndTheNextOneIsStillInspected) {
  const Finished run =
      Isapack({"inspect", "/nonexistent/file",
               WorkDir().string() + "/../" + WorkDir().filename().string() + "/walked/b.hsaco",
               CodeObjects().front().path});
  EXPECT_EQ(run.exit, 3);
  EXPECT_EQ(run.err.substr(0, run.err.find('\n')),
            "isapack: cannot open /nonexistent/file: No such file or directory");
  EXPECT_NE(run.out.find(CodeObjects().front().path + ": AMDGPU code object, "), std::string::npos)
      << run.out;
}

TEST(CliBoundedInputs, ExitCodesTellNothingFoundFromUnreadableFromFound) {
  const fs::path text = WorkDir() / "notes.txt";
  std::ofstream(text) << "no GPU code here\n";
  Finished run = Isapack({"inspect", "--json", text.string()});
  EXPECT_EQ(run.exit, 4);
  EXPECT_EQ(Json(run).at("status"), "nothing_found");
  EXPECT_EQ(Json(run).at("errors"),
            json({"no input carries AMDGPU code (code objects, offload bundles, catalogs)"}));
  run = Isapack({"inspect", "--json", text.string(), CodeObjects().front().path});
  EXPECT_EQ(run.exit, 0);
  EXPECT_EQ(Json(run).at("status"), "ok");
  run = Isapack({"inspect", "--json", text.string(), "/dev/null"});
  EXPECT_EQ(run.exit, 3);
  EXPECT_EQ(Json(run).at("errors"), json({RefusedType("/dev/null", "a character device")}));
}

TEST(CliBoundedInputs, MaxFileSizeSetsTheLimit) {
  const std::string& path = CodeObjects().front().path;
  const uintmax_t size = fs::file_size(path);
  Finished run = Isapack({"inspect", "--max-file-size", std::to_string(size - 1), path});
  EXPECT_EQ(run.exit, 3);
  EXPECT_EQ(run.err, "isapack: " + path + " is " + std::to_string(size) +
                         " bytes, above the limit of " + std::to_string(size - 1) +
                         " bytes; --max-file-size raises it\n");
  EXPECT_EQ(Isapack({"inspect", "--max-file-size", std::to_string(size), path}).exit, 0);
  run = Isapack({"inspect", "--max-file-size", "4294967296", SparseFile().string()});
  EXPECT_EQ(run.exit, 4);  // read (sparse: zeros), nothing in it
}

TEST(CliBoundedInputs, SelectWantsOneFileNotADirectory) {
  const Finished run = Isapack({"select", "gfx1103", "--catalog", WorkDir().string()});
  EXPECT_EQ(run.exit, 3);
  EXPECT_EQ(run.err,
            "isapack: --catalog: " + WorkDir().string() +
                " is a directory; this command reads one file (a libisapack or a catalog)\n");
}

// What a Debian system already has, through every command that reads files.
// "Unreadable even for root": the tests run as root, which reads any mode;
// /proc/self/mem refuses a read at offset 0 (EIO) whoever asks.
TEST(CliCorpus, WhatTheSystemHasIsReadInBoundedTimeAndMemoryWithAMessagePerBadInput) {
  const fs::path loop = WorkDir() / "corpus-loop";
  fs::remove(loop);
  fs::create_symlink(loop.filename(), loop);
  const std::string libhsa = "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1";
  const std::vector<std::string> bad = {"/dev/null", Fifo().string(), SparseFile().string(),
                                        loop.string(), "/proc/self/mem"};
  const std::map<std::string, std::string> messages = {
      {"/dev/null", RefusedType("/dev/null", "a character device")},
      {Fifo().string(), RefusedType(Fifo().string(), "a FIFO (named pipe)")},
      {SparseFile().string(),
       SparseFile().string() +
           " is 2147483648 bytes, above the limit of 1073741824 bytes; --max-file-size raises it"},
      {loop.string(), "cannot open " + loop.string() +
                          ": a symbolic link loop (Too many levels of symbolic links)"},
      {"/proc/self/mem", "cannot read /proc/self/mem: Input/output error"}};
  std::vector<std::string> args = {"inspect", "--json", libhsa, "/proc/self/maps"};
  args.insert(args.end(), bad.begin(), bad.end());
  Finished run = Isapack(args);
  EXPECT_EQ(run.exit, 3);
  EXPECT_LT(run.seconds, 5.0);
  EXPECT_LT(run.peak_rss_kb, 128 * 1024);
  json doc = Json(run);
  ASSERT_EQ(doc.at("files").size(), 7u);
  EXPECT_EQ(doc.at("files")[0].at("targets").size(),
            26u);  // ROCr's blit kernels (TheBlitKernelsRocrEmbeds)
  EXPECT_EQ(doc.at("files")[1].at("kind"), "unknown");
  for (size_t i = 0; i < bad.size(); ++i)
    EXPECT_EQ(doc.at("files")[2 + i].at("error"), messages.at(bad[i]));
  for (const std::string& path : bad) {
    run = Isapack({"inspect", path});
    EXPECT_EQ(run.exit, 3) << path;
    EXPECT_EQ(run.err, "isapack: " + messages.at(path) + "\n");
    run = Isapack({"select", "gfx1103", "--catalog", path});
    EXPECT_EQ(run.exit, 3) << path;
    EXPECT_EQ(run.err, "isapack: --catalog: " + messages.at(path) + "\n");
    EXPECT_LT(run.seconds, kQuickSeconds) << path;
  }
  run = Isapack({"select", "gfx1103", "--catalog", libhsa});
  EXPECT_EQ(run.exit, 1);
  EXPECT_EQ(run.err.rfind("isapack: --catalog: " + libhsa + ": ", 0), 0u) << run.err;
  run = Isapack({"verify"});
  EXPECT_EQ(run.exit, 0);
  EXPECT_LT(run.seconds, 5.0);

  // All of /usr/lib (tens of thousands of files): files above 4 MiB are
  // reported, not read, which bounds the time on a shared machine. Under
  // ASan (the asan preset) the allocator's quarantine of freed memory
  // (256 MB by default) would dominate the peak: it is kept small here so the
  // bound still measures isapack.
  std::map<std::string, std::string> env;
  if (kAddressSanitizer) {
    const char* asan_options = std::getenv("ASAN_OPTIONS");
    env["ASAN_OPTIONS"] = std::string(asan_options ? asan_options : "") + ":quarantine_size_mb=8";
  }
  run = Isapack({"inspect", "--json", "--max-file-size", "4194304", "/usr/lib"}, env);
  EXPECT_TRUE(run.exit == 0 || run.exit == 1 || run.exit == 3) << run.exit;
  EXPECT_LT(run.seconds, 240.0);
  // Measured on 67,000 files: 29 MB; 117 MB under ASan and 133 MB under
  // TSan (their shadow memory and allocators, which grow with the memory the
  // program touches, not with what it keeps).
  EXPECT_LT(run.peak_rss_kb, (kAddressSanitizer || kThreadSanitizer ? 256 : 64) * 1024);
  doc = Json(run);
  EXPECT_GT(doc.at("files").size(), 1000u);
  for (const json& file : doc.at("files")) {
    if (!file.contains("error")) continue;
    const std::string error = file.at("error");
    const std::string path = file.at("path");
    // Every refusal names the path and what is wrong with it.
    EXPECT_NE(error.find(path), std::string::npos) << error;
  }
  std::cout << "inspect /usr/lib: " << doc.at("files").size() << " files, " << run.seconds
            << " s, peak RSS " << run.peak_rss_kb << " KiB\n";
}

// --- every exit code prints one JSON object with --json ----------------------

// The fields every --json document carries.
void ExpectOutcome(const Finished& run, int exit_code, const std::string& status) {
  EXPECT_EQ(run.exit, exit_code) << run.err;
  const json doc = json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(doc.is_object()) << "stdout is not one JSON object: " << run.out;
  EXPECT_EQ(doc.at("schema"), 1);
  EXPECT_EQ(doc.at("status"), status);
  EXPECT_EQ(doc.at("exit_code"), exit_code);
  ASSERT_TRUE(doc.at("errors").is_array());
  EXPECT_EQ(doc.at("errors").empty(), exit_code == 0) << doc;
}

TEST(CliJson, Exit0IsStatusOk) {
  ExpectOutcome(Isapack({"targets", "--json"}), 0, "ok");
  ExpectOutcome(Isapack({"verify", "--json"}), 0, "ok");
  ExpectOutcome(Isapack({"expand", "all", "--json"}), 0, "ok");
  ExpectOutcome(Isapack({"devices", "--json"}, Simulated()), 0, "ok");
}

TEST(CliJson, Exit1IsStatusFailure) {
  // ROCR_TOO_OLD: retargeting off, generic objects only, an ISA list without the generic ISA
  ExpectOutcome(Isapack({"select", "gfx1103", "--as-listed", "--json", "--catalog",
                         TestCatalog("all", "generic")},
                        {{"ISAPACK_RETARGET", "0"}}),
                1, "failure");
  auto env = Simulated();
  env["ISAPACK_SIMULATED_HSA_FAULTS"] = "load-reject";
  ExpectOutcome(Isapack({"smoke", "--json"}, env), 1, "failure");
}

TEST(CliJson, Exit2IsStatusUsageErrorForOptionsSelectorsAndIsaNames) {
  Finished run = Isapack({"targets", "--bogus", "--json"});
  ExpectOutcome(run, 2, "usage_error");
  EXPECT_EQ(Json(run).at("errors"), json({"The following argument was not expected: --bogus; run "
                                          "'isapack --help' for the subcommands and "
                                          "their options"}));
  ExpectOutcome(Isapack({"expand", "gfx110x-al", "--json"}), 2, "usage_error");
  ExpectOutcome(Isapack({"expand", "all", "--mode", "bogus", "--json"}), 2, "usage_error");
  ExpectOutcome(Isapack({"select", "gfx1234", "--json"}), 2, "usage_error");
}

TEST(CliJson, Exit3IsStatusUnreadableInput) {
  ExpectOutcome(Isapack({"inspect", "/dev/zero", "--json"}), 3, "unreadable_input");
  ExpectOutcome(Isapack({"select", "gfx1103", "--catalog", "/dev/zero", "--json"}), 3,
                "unreadable_input");
}

TEST(CliJson, Exit4IsStatusNothingFound) {
  const fs::path text = WorkDir() / "nothing.txt";
  std::ofstream(text) << "text\n";
  ExpectOutcome(Isapack({"inspect", text.string(), "--json"}), 4, "nothing_found");
}

TEST(CliJson, Exit77IsStatusSkippedNoGpu) {
  if (access("/dev/kfd", F_OK) == 0) GTEST_SKIP() << "/dev/kfd exists: this machine has a GPU";
  for (const char* command : {"devices", "smoke"}) {
    const Finished run = Isapack({command, "--json"});
    ExpectOutcome(run, 77, "skipped_no_gpu");
    EXPECT_EQ(Json(run).at("errors").back(), "skipped: no usable AMD GPU on this machine (exit 77)")
        << command;
  }
}

// --- messages ------------------------------------------------------------------

TEST(CliExpand, UsageErrorsNameTheOptionAndItsValue) {
  Finished run = Isapack({"expand", "all", "--mode", "bogus"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err, "isapack: --mode bogus: use 'generic' or 'exact'\n");
  run = Isapack({"expand", "all", "--llvm", "0"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err,
            "isapack: --llvm 0: isapack knows LLVM 19 and newer (generic targets need 19)\n");
  run = Isapack({"expand", "all", "--code-object-version", "6"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err,
            "isapack: --code-object-version 6: exact code objects use version 4 or 5 (generic code "
            "objects always "
            "use 6)\n");
  run = Isapack({"expand", ";;"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err,
            "isapack: the selectors name no GPU selector (only separators); give one, e.g. 'all' "
            "or 'gfx110X-all'\n");
  run = Isapack({"expand", "gfx1100 gfx1030"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err.substr(0, run.err.find('\n')),
            "isapack: unknown GPU selector 'gfx1100 gfx1030': GPU selectors are separated by ';', "
            "not by spaces; "
            "use 'gfx1100;gfx1030'");
}

TEST(CliExpand, EveryUnbuildableTargetIsNamedWithTheLlvmReleaseItNeeds) {
  const Finished run = Isapack({"expand", "gfx950;gfx1153", "--llvm", "19"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(
      run.err,
      "isapack: GPU selector 'gfx950': LLVM 19 cannot build gfx950: it first appears in LLVM 20\n"
      "GPU selector 'gfx1153': LLVM 19 cannot build gfx1153: it first appears in LLVM 20. Set "
      "ISAPACK_CLANG to "
      "a clang that can, or remove gfx950 gfx1153 from the selectors.\n");
}

TEST(CliSelect, TheTraceSaysALaterIsaWasNotConsideredNotThatItHasNoCodeObject) {
  const Finished run =
      Isapack({"select", "--as-listed", "--json", "--catalog", TestCatalog("all", "exact"),
               "amdgcn-amd-amdhsa--gfx1103", "amdgcn-amd-amdhsa--gfx1030"});
  EXPECT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(
      Json(run).at("trace"),
      "agent ISA amdgcn-amd-amdhsa--gfx1103\n"
      "  gfx1103: selected\n"
      "agent ISA amdgcn-amd-amdhsa--gfx1030\n"
      "  not considered: gfx1103 was selected for amdgcn-amd-amdhsa--gfx1103, listed earlier\n");
}

TEST(CliSmoke, AGpuWhoseCodeObjectIsRejectedIsStillNamed) {
  auto env = Simulated();
  env["ISAPACK_SIMULATED_HSA_FAULTS"] = "load-reject";
  const Finished run = Isapack({"smoke"}, env);
  EXPECT_EQ(run.exit, 1);
  EXPECT_NE(run.out.find("GPU 0 gfx1103: FAIL (simulated)\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("GPU 1 gfx1030: FAIL (simulated)\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find(" ?: "), std::string::npos) << run.out;
}

TEST(CliDevices, AnExplicitLibhsaThatCannotBeUsedIsAnErrorNotASkip) {
  const std::string fix =
      "isapack: the HSA runtime was named explicitly (--libhsa or ISAPACK_LIBHSA_PATH) and cannot "
      "be used: a "
      "configuration error, not a missing GPU; fix or unset it\n";
  Finished run =
      Isapack({"devices"}, {{"ISAPACK_LIBHSA_PATH", "/nonexistent/libhsa-runtime64.so.1"}});
  EXPECT_EQ(run.exit, 1);
  EXPECT_EQ(run.err,
            "isapack: ISAPACK_LIBHSA_PATH is '/nonexistent/libhsa-runtime64.so.1', which does not "
            "exist (No such file "
            "or directory); point it at libhsa-runtime64.so.1 or its directory\n" +
                fix);
  run = Isapack({"smoke", "--json", "--libhsa", "/dev/null"});
  ExpectOutcome(run, 1, "failure");
  EXPECT_EQ(run.err,
            "isapack: the device options' libhsa_path is '/dev/null', which is neither a regular "
            "file nor a "
            "directory; point it at libhsa-runtime64.so.1 or its directory\n" +
                fix);
}

// --- the command itself ----------------------------------------------------------

TEST(CliUsage, VersionHelpAndBadArguments) {
  Finished run = Isapack({"--version"});
  EXPECT_EQ(run.exit, 0);
  EXPECT_EQ(run.out.substr(0, run.out.find('\n')), std::string("isapack ") + isapack_version());
  EXPECT_NE(run.out.find("\ncompiler: clang "), std::string::npos);
  EXPECT_NE(run.out.find("\ncode object mode: "), std::string::npos);
  EXPECT_NE(run.out.find("\ncovered targets: "), std::string::npos);
  for (const char* command :
       {"targets", "expand", "select", "devices", "smoke", "verify", "inspect"}) {
    run = Isapack({command, "--help"});
    EXPECT_EQ(run.exit, 0) << command;
    EXPECT_NE(run.out.find("--json"), std::string::npos) << command;
  }
  EXPECT_EQ(Isapack({}).exit, 2);
  EXPECT_EQ(Isapack({"select"}).exit, 2);
  EXPECT_EQ(Isapack({"targets", "--bogus"}).exit, 2);
}

}  // namespace
