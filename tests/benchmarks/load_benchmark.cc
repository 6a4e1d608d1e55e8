// Time to a loadable code object, per exact target of a selector set: from
// the agent's ISA names to verified, decompressed bytes ready for HSA.
//   isapack/<gfx>  isapack's path: select, decode the entry (copy its
//                  representative, or decompress its zstd delta frame), XXH3
//                  check, ELF check against the agent (PrepareCodeObject, the
//                  code device creation runs), the shared block decoded;
//   floor/<gfx>    the bare decode of the same entry into a ready buffer:
//                  ZSTD_decompress_usingDict of its frame with its
//                  representative as the dictionary, or the copy of the
//                  representative: what no loader can go below;
//   select/<gfx>   Select() alone, with its heap allocations counted;
//   ccob/<gfx>     the offload-bundle path as comgr/CLR take it: parse the
//                  CCOB header, decompress the whole bundle, walk the
//                  entries, pick the one compatible with the agent;
//   isapack/cold-first-load  a process's first load: Catalog::Parse (which
//                  decodes the shared LZMA2 block) and one PrepareCodeObject.
// The summary prints each goal next to what was measured: the CCOB path over
// isapack's for every GPU of the set (>= 20), isapack over the floor
// (<= 1.5), selection per GPU (<= 1 us, 0 allocations), and the cold load.
// The agent is a ROCr >= 6.4 agent: its exact ISA (sramecc on, xnack off
// where the processor has them) and then its generic ISA.
//   isapack_bench_load [benchmark flags] [<catalog.bin> <bundle.ccob>]
// Defaults: the `all` set built by the target isapack_bench_inputs.
#include <benchmark/benchmark.h>
#include <zstd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "allocation_counter.h"
#include "catalog.h"
#include "offload_bundle.h"
#include "prepare.h"
#include "selection.h"
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

// The bare decode of the entry an agent selects into `out`: no checks.
size_t DecodeFloor(const isapack::CatalogEntry& entry, ZSTD_DCtx* dctx, std::vector<uint8_t>* out) {
  if (entry.representative()) {
    std::memcpy(out->data(), entry.base.data(), entry.uncompressed_size);
    return entry.uncompressed_size;
  }
  return ZSTD_decompress_usingDict(dctx, out->data(), out->size(), entry.frame.data(),
                                   entry.frame.size(), entry.base.data(), entry.base.size());
}

// Prints the console table, then each goal next to what the run measured.
class GoalReporter : public benchmark::ConsoleReporter {
 public:
  explicit GoalReporter(size_t gpus) : gpus_(static_cast<double>(gpus)) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Iteration && run.iterations > 0) {
        const std::string name = run.benchmark_name();
        seconds_[name] = run.cpu_accumulated_time / static_cast<double>(run.iterations);
        const auto allocations = run.counters.find("allocations_per_call");
        if (allocations != run.counters.end()) allocations_[name] = allocations->second.value;
      }
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const double isapack = Seconds("isapack/every-gpu-of-the-set");
    const double ccob = Seconds("ccob/every-gpu-of-the-set");
    const double floor = Seconds("floor/every-gpu-of-the-set");
    const double select = Seconds("select/every-gpu-of-the-set");
    const double cold = Seconds("isapack/cold-first-load");
    if (isapack <= 0 || ccob <= 0 || floor <= 0 || select <= 0) return;
    const double allocations = allocations_["select/every-gpu-of-the-set"];
    std::printf("\nper GPU of the set (%.0f GPUs), warm:\n", gpus_);
    std::printf("  ccob %.2f us / isapack %.2f us = %.1fx (goal >= 20x: %s)\n", ccob * 1e6 / gpus_,
                isapack * 1e6 / gpus_, ccob / isapack, ccob / isapack >= 20 ? "met" : "not met");
    std::printf("  isapack %.2f us / floor %.2f us = %.2fx (goal <= 1.5x: %s)\n",
                isapack * 1e6 / gpus_, floor * 1e6 / gpus_, isapack / floor,
                isapack / floor <= 1.5 ? "met" : "not met");
    std::printf("  selection %.3f us, %.1f heap allocations (goal <= 1 us and 0: %s)\n",
                select * 1e6 / gpus_, allocations,
                select / gpus_ <= 1e-6 && allocations == 0 ? "met" : "not met");
    if (cold > 0) {
      std::printf("cold: the process's first load (shared block decoded) %.1f us\n", cold * 1e6);
    }
  }

 private:
  double Seconds(const std::string& name) const {
    const auto found = seconds_.find(name);
    return found == seconds_.end() ? 0 : found->second;
  }
  std::map<std::string, double> seconds_;
  std::map<std::string, double> allocations_;
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

  // Each agent's selected entry and a buffer of its size, for the floor.
  static std::vector<size_t> selected;
  static std::vector<std::vector<uint8_t>> buffers;
  for (const Agent& agent : agents) {
    const isapack::Selection selection = isapack::Select(agent.isas, catalog);
    if (!selection.ok()) {
      std::fprintf(stderr, "isapack_bench_load: nothing selected for %s\n", agent.name.c_str());
      return 2;
    }
    selected.push_back(selection.entry);
    buffers.emplace_back(catalog.entry(selection.entry).uncompressed_size);
  }
  static ZSTD_DCtx* const dctx = ZSTD_createDCtx();

  for (size_t a = 0; a < agents.size(); ++a) {
    const Agent& agent = agents[a];
    benchmark::RegisterBenchmark(("floor/" + agent.name).c_str(), [a](benchmark::State& state) {
      for (auto _ : state) {
        benchmark::DoNotOptimize(DecodeFloor(catalog.entry(selected[a]), dctx, &buffers[a]));
      }
    });
    benchmark::RegisterBenchmark(
        ("select/" + agent.name).c_str(), [&agent](benchmark::State& state) {
          const size_t before = isapack::bench::Allocations();
          for (auto _ : state) benchmark::DoNotOptimize(isapack::Select(agent.isas, catalog).entry);
          state.counters["allocations_per_call"] =
              static_cast<double>(isapack::bench::Allocations() - before) /
              static_cast<double>(state.iterations());
        });
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
  benchmark::RegisterBenchmark("floor/every-gpu-of-the-set", [](benchmark::State& state) {
    for (auto _ : state) {
      for (size_t a = 0; a < agents.size(); ++a) {
        benchmark::DoNotOptimize(DecodeFloor(catalog.entry(selected[a]), dctx, &buffers[a]));
      }
    }
  });
  benchmark::RegisterBenchmark("select/every-gpu-of-the-set", [](benchmark::State& state) {
    const size_t before = isapack::bench::Allocations();
    for (auto _ : state) {
      for (const Agent& agent : agents) {
        benchmark::DoNotOptimize(isapack::Select(agent.isas, catalog).entry);
      }
    }
    state.counters["allocations_per_call"] =
        static_cast<double>(isapack::bench::Allocations() - before) /
        static_cast<double>(state.iterations() * agents.size());
  });
  benchmark::RegisterBenchmark("isapack/cold-first-load", [](benchmark::State& state) {
    size_t touched = 0;
    for (auto _ : state) {
      auto fresh = isapack::Catalog::Parse(catalog_image);
      if (!fresh || LoadFromCatalog(*fresh, agents.front(), &touched) == 0) {
        state.SkipWithError("the catalog does not load");
      }
    }
  });
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
  GoalReporter reporter(agents.size());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
