// The isapack command, run as a program: each subcommand's readable and JSON
// output on fixed inputs, exit codes, select for every processor in both
// modes (against the shared expectation table), inspect on real and damaged
// files, devices/smoke on the real ROCr (no GPU: exit 77) and on the
// SIMULATED HSA runtime (a test double; its results are not hardware results).
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "isapack/isapack.h"
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
};

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Runs a program with extra environment variables (an empty value unsets).
Finished Spawn(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env = {}) {
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("isapack-cli-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / ("out" + std::to_string(counter)), err = dir / ("err" + std::to_string(counter));
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
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data()) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    run.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  run.out = ReadText(out);
  run.err = ReadText(err);
  fs::remove(out);
  fs::remove(err);
  return run;
}

Finished Isapack(std::vector<std::string> args, const std::map<std::string, std::string>& env = {}) {
  args.insert(args.begin(), TestPath("CLI"));
  return Spawn(args, env);
}

json Json(const Finished& run) { return json::parse(run.out); }

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

json BuildInfo() { return json::parse(isapack_build_info_json()); }

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
      const fs::path path = WorkDir() / "objects" / ("amdgcn-amd-amdhsa--" + std::string(info.target_id) + ".hsaco");
      std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
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
                       {"covered", covered},
                       {"code_object", info.target_id}}));
  }
  EXPECT_EQ(doc.at("generics")[4], json({{"name", "gfx11-generic"},
                                         {"mach", "0x54"},
                                         {"llvm", 19},
                                         {"members", {"gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150",
                                                      "gfx1151", "gfx1152", "gfx1153", "gfx1154"}}}));
}

TEST(CliTargets, ReadableOutputListsEachTargetOnce) {
  const Finished run = Isapack({"targets"});
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out.rfind("Exact targets, what this build covers and the code object a device would load\n", 0), 0u);
  EXPECT_NE(run.out.find("\n  gfx600    -        -                Radeon HD 7970 (Tahiti)\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\n  gfx11-generic    gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 gfx1153 "
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
    "covered_targets": ["gfx906:xnack-", "gfx90a"], "left_out": []})"));
}

TEST(CliExpand, ErrorsAreTheBuildsAndExitWithUsage) {
  Finished run = Isapack({"expand", "gfx110x-al"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err.substr(0, run.err.find('\n')),
            "isapack: unknown GPU selector 'gfx110x-al'; did you mean 'gfx110X-all'?");
  run = Isapack({"expand", "all", "--llvm", "18"});
  EXPECT_EQ(run.exit, 2);
  EXPECT_EQ(run.err, "isapack: --llvm 18: isapack knows LLVM 19 and newer (generic targets need 19)\n");
}

// --- select ----------------------------------------------------------------------

TEST(CliSelect, ExplainsTheGenericChoice) {
  const Finished run = Isapack({"select", "amdgcn-amd-amdhsa--gfx1103", "--catalog", TestCatalog("all", "generic")});
  ASSERT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(run.out,
            "gfx11-generic\n"
            "  amdgcn-amd-amdhsa--gfx1103 gets gfx11-generic (code object v6, entry 8 of the catalog of the given "
            "file)\n"
            "  assuming ROCr >= 6.4, which also lists amdgcn-amd-amdhsa--gfx11-generic (use --as-listed to take the "
            "ISA list as given)\n"
            "Selection trace:\n"
            "  agent ISA amdgcn-amd-amdhsa--gfx1103\n"
            "    gfx11-generic: selected\n"
            "  agent ISA amdgcn-amd-amdhsa--gfx11-generic\n"
            "    (generic ISA: the HSA runtime can load gfx11-generic code objects)\n");
}

TEST(CliSelect, AsListedModelsAnOlderRocrAndSaysTheGenericObjectIsRetargeted) {
  const Finished run = Isapack(
      {"select", "amdgcn-amd-amdhsa--gfx1103", "--as-listed", "--json", "--catalog", TestCatalog("all", "generic")});
  EXPECT_EQ(run.exit, 0) << run.err;
  EXPECT_EQ(Json(run), json({{"schema", 1},
                             {"isa_names", {"amdgcn-amd-amdhsa--gfx1103"}},
                             {"generic_isas_assumed", json::array()},
                             {"selected",
                              {{"entry", 8},
                               {"target_id", "gfx11-generic"},
                               {"code_object_version", 6},
                               {"retargeted_to", "gfx1103"},
                               {"loaded_code_object_version", 5}}},
                             {"status", "OK"},
                             {"message", ""},
                             {"trace",
                              "agent ISA amdgcn-amd-amdhsa--gfx1103\n  gfx11-generic: selected, retargeted to "
                              "gfx1103 (code object v5) for a ROCr without generic support\n"}}));
  const Finished readable = Isapack(
      {"select", "amdgcn-amd-amdhsa--gfx1103", "--as-listed", "--catalog", TestCatalog("all", "generic")});
  EXPECT_EQ(readable.out.substr(0, readable.out.find('\n')),
            "gfx11-generic, retargeted to gfx1103 for a ROCr without generic support");
}

TEST(CliSelect, AsListedWithRetargetingOffIsRocrTooOld) {
  const Finished run =
      Isapack({"select", "amdgcn-amd-amdhsa--gfx1103", "--as-listed", "--json", "--catalog",
               TestCatalog("all", "generic")},
              {{"ISAPACK_RETARGET", "0"}});
  EXPECT_EQ(run.exit, 1);
  EXPECT_EQ(Json(run), json({{"schema", 1},
                             {"isa_names", {"amdgcn-amd-amdhsa--gfx1103"}},
                             {"generic_isas_assumed", json::array()},
                             {"selected", nullptr},
                             {"status", "ROCR_TOO_OLD"},
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
    return doc.at("status") == "ROCR_TOO_OLD" ? "ROCR_TOO_OLD" : "UNSUPPORTED";
  };
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string processor, with_generic, older_rocr, exact_build;
    fields >> processor >> with_generic >> older_rocr >> exact_build;
    // Agents run with every mode they have set; off is as good as on here.
    std::string isa = processor;
    if (processor == "gfx906" || processor == "gfx908" || processor == "gfx90a" || processor.rfind("gfx94", 0) == 0 ||
        processor == "gfx950") {
      isa += ":sramecc-";
    }
    const bool xnack = processor.rfind("gfx9", 0) == 0 || processor.rfind("gfx101", 0) == 0 ||
                       processor == "gfx801" || processor == "gfx810";
    if (xnack) isa += ":xnack-";
    EXPECT_EQ(result(Isapack({"select", isa, "--json", "--catalog", generic})), with_generic) << isa;
    EXPECT_EQ(result(Isapack({"select", isa, "--as-listed", "--json", "--catalog", generic}, {{"ISAPACK_RETARGET", "0"}})),
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
            "isapack: ISA name 'amdgcn-amd-amdhsa--gfx1234': unknown processor 'gfx1234'; `isapack targets` lists "
            "the processors isapack knows\n");
}

// --- verify ----------------------------------------------------------------------

TEST(CliVerify, TheInstalledLibraryIsIntact) {
  Finished run = Isapack({"verify"});
  ASSERT_EQ(run.exit, 0) << run.out << run.err;
  const size_t count = isapack_catalog_entry_count();
  EXPECT_NE(run.out.find("verify: all " + std::to_string(count) + " code objects are intact\n"), std::string::npos);
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
  if (isapack::testing::SystemHsaRuntimeMissing()) GTEST_SKIP() << "no libhsa-runtime64 is installed";
  for (const char* command : {"devices", "smoke"}) {
    const Finished run = Isapack({command});
    EXPECT_EQ(run.exit, 77) << command;
    EXPECT_EQ(run.err.rfind("isapack: no AMD GPU kernel driver: /dev/kfd is missing (hsa_init failed: "
                            "HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008): ",
                            0),
              0u)
        << run.err;
    EXPECT_NE(run.err.find("\nisapack: skipped: no usable AMD GPU on this machine (exit 77)\n"), std::string::npos);
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
  EXPECT_EQ(second.at("product_name"), "Radeon RX 6800/6900 (simulated)");
  EXPECT_EQ(second.at("uuid"), "GPU-00000000000000b0");
  const bool generic = BuildInfo().at("mode") == "generic";
  EXPECT_EQ(second.at("isa_names"), json({"amdgcn-amd-amdhsa--gfx1030", "amdgcn-amd-amdhsa--gfx10-3-generic"}));
  EXPECT_EQ(second.at("code_object"), generic ? "gfx10-3-generic" : "gfx1030");
  const Finished readable = Isapack({"devices"}, Simulated());
  EXPECT_NE(readable.out.find("\nSIMULATED: isapack simulated HSA runtime (a test double"), std::string::npos);
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
  EXPECT_NE(readable.out.find("GPU 0 gfx1103: PASS (simulated)\n"), std::string::npos) << readable.out;
}

TEST(CliSmoke, OnTheSimulatedRocr52ItExercisesTheRetargetedPath) {
  auto env = Simulated();
  env["ISAPACK_SIMULATED_HSA_AGENTS"] = "gfx1036";
  env["ISAPACK_SIMULATED_HSA_ROCR"] = "5.2";
  const Finished run = Isapack({"smoke"}, env);
  ASSERT_EQ(run.exit, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("GPU 0 gfx1036: PASS (simulated)\n"
                         "  ok    create the device and load gfx10-3-generic, retargeted to gfx1036 (code object v5) "
                         "for a ROCr without generic support\n"),
            std::string::npos)
      << run.out;
  const Finished devices = Isapack({"devices"}, env);
  EXPECT_NE(devices.out.find("  this build: covered, loads gfx10-3-generic, retargeted to gfx1036 (code object v5) "
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
  EXPECT_EQ(check.at("detail"), "the isapack_fill dispatch on gfx1103 did not complete within 200 ms");
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

// Bundles of every code object of this build, made at test time with the
// same clang-offload-bundler HIP uses (the test skips without one).
bool HaveBundler() {
  const std::string bundler = TestPath("OFFLOAD_BUNDLER");
  return !bundler.empty() && access(bundler.c_str(), X_OK) == 0;
}

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
  const Finished made = Spawn(argv);
  EXPECT_EQ(made.exit, 0) << made.err;
  return ids;
}

TEST(CliInspect, OffloadBundlesFromClangOffloadBundler) {
  if (!HaveBundler()) GTEST_SKIP() << "no clang-offload-bundler";
  const std::vector<std::string> ids = BundleTargets(false);
  json report = InspectOne((WorkDir() / "bundle.bin").string());
  EXPECT_EQ(report.at("kind"), "offload-bundle");
  EXPECT_EQ(report.at("targets"), json(ids));
  EXPECT_EQ(report.at("bundles")[0].at("entries").size(), ids.size() + 1);  // and the host entry

  BundleTargets(true);
  report = InspectOne((WorkDir() / "bundle.ccob").string());
  EXPECT_EQ(report.at("kind"), "compressed-offload-bundle");
  EXPECT_EQ(report.at("targets"), json(ids));
  const json& bundle = report.at("bundles")[0];
  EXPECT_EQ(bundle.at("method"), "zstd");
  EXPECT_TRUE(bundle.at("version") == 2 || bundle.at("version") == 3) << bundle;
}

// A CCOB with zlib and a v3 header, made here from the uncompressed bundle.
TEST(CliInspect, CompressedBundlesWithZlibAndVersion3Headers) {
  if (!HaveBundler()) GTEST_SKIP() << "no clang-offload-bundler";
  const std::vector<std::string> ids = BundleTargets(false);
  const std::string raw = ReadText(WorkDir() / "bundle.bin");
  std::vector<uint8_t> compressed(compressBound(raw.size()));
  uLongf compressed_size = compressed.size();
  ASSERT_EQ(compress2(compressed.data(), &compressed_size, reinterpret_cast<const Bytef*>(raw.data()), raw.size(), 9),
            Z_OK);
  for (uint16_t version : {uint16_t{1}, uint16_t{2}, uint16_t{3}}) {
    std::string file = "CCOB";
    auto put = [&](auto value) { file.append(reinterpret_cast<const char*>(&value), sizeof(value)); };
    const uint64_t header = version == 1 ? 20 : version == 2 ? 24 : 32;
    put(version);
    put(uint16_t{0});  // zlib
    if (version == 2) put(static_cast<uint32_t>(header + compressed_size));
    if (version == 3) put(static_cast<uint64_t>(header + compressed_size));
    if (version == 3) put(static_cast<uint64_t>(raw.size())); else put(static_cast<uint32_t>(raw.size()));
    put(uint64_t{0x1234});
    file.append(reinterpret_cast<const char*>(compressed.data()), compressed_size);
    const fs::path path = WorkDir() / ("zlib-v" + std::to_string(version) + ".ccob");
    std::ofstream(path, std::ios::binary) << file;
    const json report = InspectOne(path.string());
    EXPECT_EQ(report.at("targets"), json(ids)) << version;
    EXPECT_EQ(report.at("bundles")[0].at("method"), "zlib");
    EXPECT_EQ(report.at("bundles")[0].at("version"), version);
  }
}

TEST(CliInspect, TheBlitKernelsRocrEmbeds) {
  const char* libhsa = "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1";
  if (access(libhsa, R_OK) != 0) GTEST_SKIP() << libhsa << " is not installed";
  const json report = InspectOne(libhsa);
  EXPECT_EQ(report.at("kind"), "host-elf");
  // ROCr 5.2.3: 26 code objects v4, one per exact target, plus three legacy
  // code objects v1 (ISA 7.0.0, 8.0.0 and 9.0.0).
  std::map<int, int> versions;
  for (const json& object : report.at("code_objects")) ++versions[object.at("code_object_version").get<int>()];
  EXPECT_EQ(versions, (std::map<int, int>{{1, 3}, {4, 26}}));
  std::set<std::string> targets;
  for (const json& t : report.at("targets")) targets.insert(t.get<std::string>());
  EXPECT_EQ(targets, (std::set<std::string>{"gfx700", "gfx701", "gfx702", "gfx801", "gfx802", "gfx803", "gfx805",
                                            "gfx810", "gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909",
                                            "gfx90a", "gfx90c", "gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1030",
                                            "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035"}));
  EXPECT_EQ(report.at("errors"), json::array());
}

TEST(CliInspect, TheLibrarysOwnCatalog) {
  const json report = InspectOne(LibraryPath());
  EXPECT_EQ(report.at("kind"), "host-elf");
  json expected = json::array();
  const json build = BuildInfo();
  for (const json& object : build.at("code_objects")) expected.push_back(object.at("target_id"));
  EXPECT_EQ(report.at("targets"), expected);
  ASSERT_EQ(report.at("catalogs").size(), 1u);
  EXPECT_EQ(report.at("catalogs")[0].at("location"), "section .isapack_catalog");
  EXPECT_EQ(report.at("catalogs")[0].at("build_info"), BuildInfo());
}

TEST(CliInspect, DamagedFilesAreErrorsNotCrashes) {
  const std::string object = ReadText(CodeObjects().front().path);
  const fs::path truncated = WorkDir() / "truncated.hsaco";
  std::ofstream(truncated, std::ios::binary) << object.substr(0, object.size() / 2);
  json report = InspectOne(truncated.string(), 1);
  EXPECT_EQ(report.at("code_objects")[0].at("error"), "ELF section header table lies outside the file");

  const fs::path garbage = WorkDir() / "garbage.bin";
  std::ofstream(garbage, std::ios::binary) << std::string(4096, '\x7f') + "ELF" + std::string(100, '\0');
  report = InspectOne(garbage.string(), 0);
  EXPECT_EQ(report.at("kind"), "unknown");
  EXPECT_EQ(report.at("targets"), json::array());

  const Finished missing = Isapack({"inspect", "/nonexistent/file"});
  EXPECT_EQ(missing.exit, 1);
  EXPECT_EQ(missing.err, "isapack: cannot open /nonexistent/file: No such file or directory\n");

  if (!HaveBundler()) GTEST_SKIP() << "no clang-offload-bundler for the bundle cases";
  BundleTargets(false);
  std::string bundle = ReadText(WorkDir() / "bundle.bin");
  const uint64_t far = 1ull << 40;
  std::memcpy(bundle.data() + 32, &far, 8);  // the first entry's offset
  const fs::path corrupt = WorkDir() / "corrupt.bin";
  std::ofstream(corrupt, std::ios::binary) << bundle;
  report = InspectOne(corrupt.string(), 1);
  EXPECT_EQ(report.at("errors")[0],
            "the file: offload bundle entry 'host-x86_64-unknown-linux-gnu-' lies outside the bundle");

  BundleTargets(true);
  const std::string ccob = ReadText(WorkDir() / "bundle.ccob");
  const fs::path short_ccob = WorkDir() / "short.ccob";
  std::ofstream(short_ccob, std::ios::binary) << ccob.substr(0, ccob.size() - 100);
  report = InspectOne(short_ccob.string(), 1);
  EXPECT_NE(report.at("errors")[0].get<std::string>().find("are present"), std::string::npos) << report;

}

// --- the command itself ----------------------------------------------------------

TEST(CliUsage, VersionHelpAndBadArguments) {
  Finished run = Isapack({"--version"});
  EXPECT_EQ(run.exit, 0);
  EXPECT_EQ(run.out.substr(0, run.out.find('\n')), std::string("isapack ") + isapack_version());
  EXPECT_NE(run.out.find("\ncompiler: clang "), std::string::npos);
  EXPECT_NE(run.out.find("\ncode object mode: "), std::string::npos);
  EXPECT_NE(run.out.find("\ncovered targets: "), std::string::npos);
  for (const char* command : {"targets", "expand", "select", "devices", "smoke", "verify", "inspect"}) {
    run = Isapack({command, "--help"});
    EXPECT_EQ(run.exit, 0) << command;
    EXPECT_NE(run.out.find("--json"), std::string::npos) << command;
  }
  EXPECT_EQ(Isapack({}).exit, 2);
  EXPECT_EQ(Isapack({"select"}).exit, 2);
  EXPECT_EQ(Isapack({"targets", "--bogus"}).exit, 2);
}

}  // namespace
