// isapack: answers about AMD GPU code objects for packagers, users and
// distro CI. See isapack.1.
#include <CLI/CLI.hpp>

#include <functional>
#include <iostream>
#include <string_view>
#include <vector>

#include "cli.h"
#include "input_file.h"

namespace cli = isapack::cli;

namespace {

// One subcommand: its CLI11 node and what runs it once the options are parsed.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

Command AddTargets(CLI::App& app, cli::TargetsOptions& options) {
  auto* cmd =
      app.add_subcommand("targets", "The targets isapack knows and which this build covers");
  cmd->add_option("names", options.names,
                  "Only these GPUs: gfx names, target IDs or product names (\"Radeon 780M\")");
  cmd->add_flag("--local", options.local,
                "This machine's GPUs (KFD topology, no HSA needed) and installed ROCr");
  cmd->add_option("--sysfs", options.sysfs, "Where --local reads sysfs")->capture_default_str();
  cmd->add_flag("--json", options.json, "JSON output (schema 1)");
  return {cmd, [&options] { return cli::RunTargets(options); }};
}

Command AddExpand(CLI::App& app, cli::ExpandOptions& options) {
  auto* cmd = app.add_subcommand("expand", "Expand GPU selectors as the build does");
  cmd->add_option("selectors", options.selectors,
                  "GPU selectors (exact, generic, families, bundles, all)")
      ->required();
  cmd->add_option("--mode", options.mode, "Code object mode: generic or exact")
      ->capture_default_str();
  auto* llvm = cmd->add_option("--llvm", options.llvm,
                               "LLVM major of the compiler to model (default: this build's)");
  cmd->add_option("--code-object-version", options.code_object_version,
                  "Code object version of exact code objects: 4 or 5")
      ->capture_default_str();
  cmd->add_flag("--strict", options.strict, "Treat left-out family members as errors");
  cmd->add_flag("--json", options.json, "JSON output (schema 1)");
  return {cmd, [&options, llvm] {
            options.llvm_given = llvm->count() > 0;
            return cli::RunExpand(options);
          }};
}

Command AddSelect(CLI::App& app, cli::SelectOptions& options) {
  auto* cmd = app.add_subcommand("select",
                                 "Which embedded code object a GPU with these ISAs gets, and why");
  cmd->add_option(
         "isa-names", options.isa_names,
         "The GPU's HSA ISA names in priority order (amdgcn-amd-amdhsa--gfx1103) or target IDs")
      ->required();
  cmd->add_flag("--as-listed", options.as_listed,
                "Take the ISA list as given (default: add the generic ISA that ROCr >= 6.4 lists)");
  cmd->add_option(
      "--catalog", options.catalog_file,
      "Select from the catalog of another libisapack (or catalog file) instead of this build");
  cmd->add_option("--max-file-size", options.max_file_size,
                  "Largest --catalog file to read, in bytes (default 1 GiB)");
  cmd->add_flag("--json", options.json, "JSON output (schema 1)");
  return {cmd, [&options] { return cli::RunSelect(options); }};
}

Command AddDevices(CLI::App& app, cli::DeviceOptions& options) {
  auto* cmd = app.add_subcommand("devices",
                                 "The HSA runtime's GPU agents and what this build loads on each");
  cmd->add_option("--libhsa", options.libhsa, "libhsa-runtime64 file or directory to use");
  cmd->add_flag("--json", options.json, "JSON output (schema 1)");
  return {cmd, [&options] { return cli::RunDevices(options); }};
}

Command AddSmoke(CLI::App& app, cli::DeviceOptions& options) {
  auto* cmd =
      app.add_subcommand("smoke", "Run fill, copy and probe on every GPU and check the results");
  cmd->add_option("--libhsa", options.libhsa, "libhsa-runtime64 file or directory to use");
  cmd->add_option("--timeout-ms", options.timeout_ms,
                  "How long to wait for each dispatch (default 10000)");
  cmd->add_flag("--json", options.json, "JSON output (schema 1)");
  return {cmd, [&options] { return cli::RunSmoke(options); }};
}

Command AddVerify(CLI::App& app, cli::VerifyOptions& options) {
  auto* cmd =
      app.add_subcommand("verify", "Check every code object embedded in the installed libisapack");
  cmd->add_flag("--json", options.json, "JSON output (schema 1)");
  return {cmd, [&options] { return cli::RunVerify(options); }};
}

Command AddInspect(CLI::App& app, cli::InspectOptions& options) {
  auto* cmd = app.add_subcommand(
      "inspect", "The GPU targets any file carries (code objects, offload bundles, binaries)");
  cmd->add_option("files", options.files, "Files or directories (walked, sorted) to inspect")
      ->required();
  cmd->add_option(
      "--max-file-size", options.max_file_size,
      "Largest file to read, in bytes (default 1 GiB); larger ones are reported, not read");
  cmd->add_flag("--json", options.json, "JSON output (schema 1)");
  return {cmd, [&options] { return cli::RunInspect(options); }};
}

Command AddCoverage(CLI::App& app, cli::CoverageOptions& options) {
  auto* cmd = app.add_subcommand(
      "coverage",
      "Which GPUs the device code of files, packages (.deb, .rpm) or installed packages runs on");
  cmd->add_option("paths", options.paths, "Files, directories, .deb and .rpm packages");
  cmd->add_option("--files-from", options.files_from,
                  "Read more paths from FILE, one per line (- for stdin)");
  cmd->add_flag("--installed", options.installed,
                "Scan every installed package (dpkg and rpm databases)");
  cmd->add_option("--root", options.root, "Root directory of --installed")->capture_default_str();
  cmd->add_option("--gpu", options.gpus,
                  "A GPU (gfx1103, \"Radeon 780M\", or local: this machine's); repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--sysfs", options.sysfs, "sysfs of --gpu local")->capture_default_str();
  cmd->add_option("--rocr", options.rocr,
                  "The consumer's ROCr release, MAJOR.MINOR (default: the installed one)");
  cmd->add_option("--require", options.require,
                  "GPU selectors every package with GPU code must cover (exit 1 otherwise)");
  cmd->add_flag(
      "--check-metadata", options.check_metadata,
      "Compare each package's declared GPU list with its binaries (exit 1 on a difference)");
  cmd->add_option("--field", options.field,
                  "Print the package field and stop: debian (X-ROCm-GPU-Architecture) or rpm "
                  "(isapack-gpu() provides)");
  cmd->add_option("--html", options.html, "Also write the matrix as a self-contained page");
  cmd->add_option("--jobs", options.jobs, "Files scanned at once (default: one per core)");
  cmd->add_flag("--no-cache", options.no_cache, "Do not use or update the --installed cache");
  cmd->add_option(
      "--max-file-size", options.max_file_size,
      "Largest file or package member to read, in bytes (default 16 GiB: files are mapped, "
      "and only the parts that hold device code are touched; a package member is read into "
      "memory); larger ones are reported, not read");
  cmd->add_flag("--json", options.json, "JSON output (schema 1)");
  return {cmd, [&options] { return cli::RunCoverage(options); }};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "isapack: which AMD GPUs this build of libisapack supports, which code object a GPU gets, "
      "and which GPU targets any file carries.\n"
      "Exit codes: 0 ok, 1 failure, 2 usage, 3 some inputs unreadable, 4 nothing found, "
      "5 GPU not covered, 77 skipped for lack of a GPU.",
      "isapack"};
  app.set_version_flag("--version", cli::VersionText,
                       "Print the version, compiler, code object mode and covered targets");
  app.require_subcommand(1, 1);

  cli::TargetsOptions targets;
  cli::ExpandOptions expand;
  cli::SelectOptions select;
  cli::DeviceOptions devices, smoke;
  cli::VerifyOptions verify;
  cli::InspectOptions inspect;
  cli::CoverageOptions coverage;
  select.max_file_size = inspect.max_file_size = isapack::kDefaultMaxFileSize;
  // A HIP-built math library can pass 1 GiB; coverage reads its bundles'
  // entry tables only.
  coverage.max_file_size = uint64_t{16} << 30;
  const std::vector<Command> commands = {AddTargets(app, targets), AddExpand(app, expand),
                                         AddSelect(app, select),   AddDevices(app, devices),
                                         AddSmoke(app, smoke),     AddVerify(app, verify),
                                         AddInspect(app, inspect), AddCoverage(app, coverage)};

  // Decided before parsing, so that a usage error is JSON too.
  bool json = false;
  for (int i = 1; i < argc; ++i) json = json || std::string_view(argv[i]) == "--json";
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what();
    return cli::kExitOk;
  } catch (const CLI::ParseError& e) {
    return cli::Fail(
        json, cli::kExitUsage,
        {std::string(e.what()) + "; run 'isapack --help' for the subcommands and their options"});
  }
  try {
    for (const Command& command : commands) {
      if (*command.app) return command.run();
    }
  } catch (const std::exception& e) {
    return cli::Fail(json, cli::kExitFailure, {std::string("unexpected error: ") + e.what()});
  }
  return cli::kExitUsage;
}
