// Time to a loadable code object, per exact target of a selector set: from
// the agent's ISA names to verified, decompressed bytes ready for HSA.
//   isapack/<gfx>  isapack's path: select, decompress one zstd frame, XXH3
//                  check, ELF check against the agent (PrepareCodeObject,
//                  the code device creation runs);
//   ccob/<gfx>     the offload-bundle path as comgr/CLR take it: parse the
//                  CCOB header, decompress the whole bundle, walk the
//                  entries, pick the one compatible with the agent.
// The agent is a ROCr >= 6.4 agent: its exact ISA (sramecc on, xnack off
// where the processor has them) and then its generic ISA.
//   isapack_bench_load [benchmark flags] [<catalog.bin> <bundle.ccob>]
// Defaults: the `all` set built by the target isapack_bench_inputs.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "catalog.h"
#include "offload_bundle.h"
#include "prepare.h"
#include "target_id.h"
#include "target_table.h"

namespace {

using isapack::TargetId;

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr,
                 "isapack_bench_load: cannot read %s (build the target isapack_bench_inputs)\n",
                 path.c_str());
    std::exit(2);
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Agent {
  std::string name;            // the exact target, e.g. "gfx90a"
  std::vector<TargetId> isas;  // exact ISA, then generic ISA
};

// The agent ISA list a ROCr >= 6.4 GPU of this processor reports.
Agent MakeAgent(const isapack::ProcessorInfo& processor) {
  Agent agent;
  agent.name = std::string(processor.name);
  TargetId exact;
  exact.processor = &processor;
  if (processor.sramecc == isapack::FeatureSupport::kSupported)
    exact.sramecc = isapack::FeatureSetting::kOn;
  if (processor.xnack == isapack::FeatureSupport::kSupported)
    exact.xnack = isapack::FeatureSetting::kOff;
  agent.isas.push_back(exact);
  if (const std::optional<TargetId> generic = isapack::GenericIsaOf(exact)) {
    agent.isas.push_back(*generic);
  }
  return agent;
}

// The CLR/comgr path; returns the picked entry's size (0: none fits).
size_t LoadFromBundle(std::span<const uint8_t> bundle, const TargetId& isa, size_t* touched) {
  auto raw = isapack::DecompressBundle(bundle);  // parses the CCOB header first
  if (!raw) return 0;
  *touched = bundle.size() + raw->size();
  auto entries = isapack::ParseOffloadBundle(*raw);
  if (!entries) return 0;
  for (const isapack::BundleEntry& entry : *entries) {
    TargetId object;
    if (isapack::ParseTargetId(isapack::BundleEntryTarget(entry.id), &object).error !=
        isapack::TargetIdError::kOk) {
      continue;
    }
    if (object.processor == isa.processor && isapack::FeatureCompatible(object.xnack, isa.xnack) &&
        isapack::FeatureCompatible(object.sramecc, isa.sramecc)) {
      benchmark::DoNotOptimize(entry.payload.data());
      return entry.payload.size();
    }
  }
  return 0;
}

size_t LoadFromCatalog(const isapack::Catalog& catalog, const Agent& agent, size_t* touched) {
  auto prepared = isapack::PrepareCodeObject(catalog, agent.isas, agent.name);
  if (!prepared) return 0;
  const isapack::CatalogEntry entry = catalog.entry(prepared->selection.entry);
  // The frame, the code object written, and at most its representative read.
  *touched = entry.frame.size() + entry.uncompressed_size +
             (entry.representative() ? entry.uncompressed_size : entry.base.size());
  benchmark::DoNotOptimize(prepared->image.data());
  return prepared->image.size();
}

// Prints the console table, then the ratio of the two paths for the whole set.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Iteration && run.iterations > 0) {
        seconds_[run.benchmark_name()] =
            run.real_accumulated_time / static_cast<double>(run.iterations);
      }
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const auto a = seconds_.find(set_name_a_);
    const auto b = seconds_.find(set_name_b_);
    if (a != seconds_.end() && b != seconds_.end() && a->second > 0) {
      std::printf(
          "\n(b)/(a) for every GPU of the set: %.1f (ccob %.1f us, isapack %.1f us per GPU)\n",
          b->second / a->second, b->second * 1e6 / gpus_, a->second * 1e6 / gpus_);
    }
  }
  void SetNames(std::string a, std::string b, size_t gpus) {
    set_name_a_ = std::move(a);
    set_name_b_ = std::move(b);
    gpus_ = static_cast<double>(gpus);
  }

 private:
  std::map<std::string, double> seconds_;
  std::string set_name_a_, set_name_b_;
  double gpus_ = 1;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const std::string catalog_path = argc > 2 ? argv[1] : ISAPACK_BENCH_DIR "/all/catalog.bin";
  const std::string bundle_path = argc > 2 ? argv[2] : ISAPACK_BENCH_DIR "/all/bundle.ccob";
  static const std::vector<uint8_t> catalog_image = ReadFile(catalog_path);
  static const std::vector<uint8_t> bundle = ReadFile(bundle_path);
  auto parsed = isapack::Catalog::Parse(catalog_image);
  if (!parsed) {
    std::fprintf(stderr, "isapack_bench_load: %s: %s\n", catalog_path.c_str(),
                 parsed.error().message.c_str());
    return 2;
  }
  static const isapack::Catalog catalog = *parsed;

  // Every exact target the catalog covers.
  static std::vector<Agent> agents;
  for (size_t i = 0; i < catalog.size(); ++i) {
    std::string_view covers = catalog.entry(i).covers;
    while (!covers.empty()) {
      const size_t space = covers.find(' ');
      TargetId id;
      if (isapack::ParseTargetId(covers.substr(0, space), &id).error ==
          isapack::TargetIdError::kOk) {
        agents.push_back(MakeAgent(*id.processor));
      }
      covers = space == std::string_view::npos ? std::string_view() : covers.substr(space + 1);
    }
  }

  for (const Agent& agent : agents) {
    benchmark::RegisterBenchmark(("isapack/" + agent.name).c_str(),
                                 [&agent](benchmark::State& state) {
                                   size_t touched = 0;
                                   for (auto _ : state) {
                                     if (LoadFromCatalog(catalog, agent, &touched) == 0)
                                       state.SkipWithError("no code object for the agent");
                                   }
                                   state.counters["bytes_touched"] = static_cast<double>(touched);
                                 });
    benchmark::RegisterBenchmark(("ccob/" + agent.name).c_str(), [&agent](benchmark::State& state) {
      size_t touched = 0;
      for (auto _ : state) {
        if (LoadFromBundle(bundle, agent.isas[0], &touched) == 0)
          state.SkipWithError("no bundle entry for the agent");
      }
      state.counters["bytes_touched"] = static_cast<double>(touched);
    });
  }
  const std::string all_a = "isapack/every-gpu-of-the-set";
  const std::string all_b = "ccob/every-gpu-of-the-set";
  benchmark::RegisterBenchmark(all_a.c_str(), [](benchmark::State& state) {
    size_t touched = 0, total = 0;
    for (auto _ : state) {
      total = 0;
      for (const Agent& agent : agents) {
        LoadFromCatalog(catalog, agent, &touched);
        total += touched;
      }
    }
    state.counters["bytes_touched"] = static_cast<double>(total);
  });
  benchmark::RegisterBenchmark(all_b.c_str(), [](benchmark::State& state) {
    size_t touched = 0, total = 0;
    for (auto _ : state) {
      total = 0;
      for (const Agent& agent : agents) {
        LoadFromBundle(bundle, agent.isas[0], &touched);
        total += touched;
      }
    }
    state.counters["bytes_touched"] = static_cast<double>(total);
  });

  std::printf("catalog %s (%zu bytes, %zu code objects), bundle %s (%zu bytes), %zu GPUs\n",
              catalog_path.c_str(), catalog_image.size(), catalog.size(), bundle_path.c_str(),
              bundle.size(), agents.size());
  RatioReporter reporter;
  reporter.SetNames(all_a, all_b, agents.size());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
