// isapack: answers about AMD GPU code objects for packagers, users and
// distro CI. See isapack.1.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string_view>

#include "cli.h"
#include "input_file.h"

namespace cli = isapack::cli;

int main(int argc, char** argv) {
  CLI::App app{
      "isapack: which AMD GPUs this build of libisapack supports, which code object a GPU gets, "
      "and which GPU targets any file carries.\n"
      "Exit codes: 0 ok, 1 failure, 2 usage, 3 some inputs unreadable, 4 nothing found, "
      "77 skipped for lack of a GPU.",
      "isapack"};
  app.set_version_flag("--version", cli::VersionText,
                       "Print the version, compiler, code object mode and covered targets");
  app.require_subcommand(1, 1);

  cli::TargetsOptions targets;
  auto* targets_cmd =
      app.add_subcommand("targets", "The targets isapack knows and which this build covers");
  targets_cmd->add_flag("--json", targets.json, "JSON output (schema 1)");

  cli::ExpandOptions expand;
  auto* expand_cmd = app.add_subcommand("expand", "Expand GPU selectors as the build does");
  expand_cmd
      ->add_option("selectors", expand.selectors,
                   "GPU selectors (exact, generic, families, bundles, all)")
      ->required();
  expand_cmd->add_option("--mode", expand.mode, "Code object mode: generic or exact")
      ->capture_default_str();
  auto* llvm_option = expand_cmd->add_option(
      "--llvm", expand.llvm, "LLVM major of the compiler to model (default: this build's)");
  expand_cmd
      ->add_option("--code-object-version", expand.code_object_version,
                   "Code object version of exact code objects: 4 or 5")
      ->capture_default_str();
  expand_cmd->add_flag("--strict", expand.strict, "Treat left-out family members as errors");
  expand_cmd->add_flag("--json", expand.json, "JSON output (schema 1)");

  cli::SelectOptions select;
  auto* select_cmd = app.add_subcommand(
      "select", "Which embedded code object a GPU with these ISAs gets, and why");
  select_cmd
      ->add_option(
          "isa-names", select.isa_names,
          "The GPU's HSA ISA names in priority order (amdgcn-amd-amdhsa--gfx1103) or target IDs")
      ->required();
  select_cmd->add_flag(
      "--as-listed", select.as_listed,
      "Take the ISA list as given (default: add the generic ISA that ROCr >= 6.4 lists)");
  select_cmd->add_option(
      "--catalog", select.catalog_file,
      "Select from the catalog of another libisapack (or catalog file) instead of this build");
  select_cmd->add_option("--max-file-size", select.max_file_size,
                         "Largest --catalog file to read, in bytes (default 1 GiB)");
  select_cmd->add_flag("--json", select.json, "JSON output (schema 1)");

  cli::DeviceOptions devices;
  auto* devices_cmd = app.add_subcommand(
      "devices", "The HSA runtime's GPU agents and what this build loads on each");
  devices_cmd->add_option("--libhsa", devices.libhsa, "libhsa-runtime64 file or directory to use");
  devices_cmd->add_flag("--json", devices.json, "JSON output (schema 1)");

  cli::DeviceOptions smoke;
  auto* smoke_cmd =
      app.add_subcommand("smoke", "Run fill, copy and probe on every GPU and check the results");
  smoke_cmd->add_option("--libhsa", smoke.libhsa, "libhsa-runtime64 file or directory to use");
  smoke_cmd->add_option("--timeout-ms", smoke.timeout_ms,
                        "How long to wait for each dispatch (default 10000)");
  smoke_cmd->add_flag("--json", smoke.json, "JSON output (schema 1)");

  cli::VerifyOptions verify;
  auto* verify_cmd =
      app.add_subcommand("verify", "Check every code object embedded in the installed libisapack");
  verify_cmd->add_flag("--json", verify.json, "JSON output (schema 1)");

  cli::InspectOptions inspect;
  auto* inspect_cmd = app.add_subcommand(
      "inspect", "The GPU targets any file carries (code objects, bundles, binaries)");
  inspect_cmd
      ->add_option("files", inspect.files, "Files or directories (walked, sorted) to inspect")
      ->required();
  inspect_cmd->add_option(
      "--max-file-size", inspect.max_file_size,
      "Largest file to read, in bytes (default 1 GiB); larger ones are reported, not read");
  inspect_cmd->add_flag("--json", inspect.json, "JSON output (schema 1)");

  // Decided before parsing, so that a usage error is JSON too.
  bool json = false;
  for (int i = 1; i < argc; ++i) json = json || std::string_view(argv[i]) == "--json";
  select.max_file_size = inspect.max_file_size = isapack::kDefaultMaxFileSize;
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
  expand.llvm_given = llvm_option->count() > 0;

  try {
    if (*targets_cmd) return cli::RunTargets(targets);
    if (*expand_cmd) return cli::RunExpand(expand);
    if (*select_cmd) return cli::RunSelect(select);
    if (*devices_cmd) return cli::RunDevices(devices);
    if (*smoke_cmd) return cli::RunSmoke(smoke);
    if (*verify_cmd) return cli::RunVerify(verify);
    if (*inspect_cmd) return cli::RunInspect(inspect);
  } catch (const std::exception& e) {
    return cli::Fail(json, cli::kExitFailure, {std::string("unexpected error: ") + e.what()});
  }
  return cli::kExitUsage;
}
