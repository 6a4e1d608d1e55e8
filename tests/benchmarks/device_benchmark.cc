// Device creation on isapack's simulated HSA runtime (a test double: these
// are not hardware numbers). isapack_device_create + isapack_device_destroy
// with 1, 4 and 16 simulated GPU agents:
//   create_destroy/agents:N       nothing else alive: dlopen of the HSA
//                                 runtime, hsa_init, agent discovery,
//                                 selection, decompression, load, queue
//   create_destroy_warm/agents:N  another device keeps the HSA runtime
//                                 loaded and initialised
// Counters: peak_heap_bytes, the most heap the create call held above what
// was allocated before it (malloc is wrapped in this program), next to the
// chosen catalog entry's size and the whole catalog's uncompressed size: the
// catalog is decompressed no further than the chosen entry.
//   isapack_bench_device [benchmark flags]
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "isapack/isapack.h"

// --- Heap accounting: glibc's allocator behind counting wrappers ------------------
extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* pointer, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
void __libc_free(void* pointer);
}

namespace {
std::atomic<long long> g_heap{0};
std::atomic<long long> g_peak{0};

void Count(void* pointer) {
  if (pointer == nullptr) return;
  const long long now = g_heap.fetch_add(static_cast<long long>(malloc_usable_size(pointer))) +
                        static_cast<long long>(malloc_usable_size(pointer));
  long long peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}
void Uncount(void* pointer) {
  if (pointer != nullptr) g_heap.fetch_sub(static_cast<long long>(malloc_usable_size(pointer)));
}
}  // namespace

extern "C" {
void* malloc(size_t size) {
  void* p = __libc_malloc(size);
  Count(p);
  return p;
}
void* calloc(size_t count, size_t size) {
  void* p = __libc_calloc(count, size);
  Count(p);
  return p;
}
void* realloc(void* pointer, size_t size) {
  Uncount(pointer);
  void* p = __libc_realloc(pointer, size);
  Count(p != nullptr ? p : (size == 0 ? nullptr : pointer));
  return p;
}
void free(void* pointer) {
  Uncount(pointer);
  __libc_free(pointer);
}
void* memalign(size_t alignment, size_t size) {
  void* p = __libc_memalign(alignment, size);
  Count(p);
  return p;
}
void* aligned_alloc(size_t alignment, size_t size) {
  return memalign(alignment, size);
}
int posix_memalign(void** out, size_t alignment, size_t size) {
  void* p = memalign(alignment, size);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}
}

namespace {

constexpr const char* kAgentCycle[] = {"gfx1103", "gfx90a:sramecc+:xnack-", "gfx1030",
                                       "gfx942:sramecc+:xnack-"};

void UseAgents(int count) {
  std::string spec;
  for (int i = 0; i < count; ++i) {
    if (i > 0) spec += ';';
    spec += kAgentCycle[i % 4];
  }
  setenv("ISAPACK_SIMULATED_HSA_AGENTS", spec.c_str(), 1);
}

isapack_device_t Create() {
  isapack_device_options_t options;
  isapack_device_options_init(&options);
  options.libhsa_path = ISAPACK_SIMULATED_HSA;
  isapack_device_t device = nullptr;
  isapack_status_t status = isapack_device_create(&options, &device);
  if (status != nullptr) {
    std::fprintf(stderr, "isapack_bench_device: %s\n", isapack_status_message(status));
    std::exit(1);
  }
  return device;
}

uint64_t CatalogBytes(uint64_t* chosen, const isapack_device_t device) {
  isapack_device_info_t info;
  if (isapack_device_info(device, &info) != nullptr) return 0;
  uint64_t total = 0;
  for (size_t i = 0; i < isapack_catalog_entry_count(); ++i) {
    isapack_catalog_entry_info_t entry;
    if (isapack_catalog_entry_info(i, &entry) != nullptr) continue;
    total += entry.uncompressed_size;
    if (i == info.catalog_entry) *chosen = entry.uncompressed_size;
  }
  return total;
}

void Run(benchmark::State& state, bool warm) {
  UseAgents(static_cast<int>(state.range(0)));
  isapack_device_t holder = warm ? Create() : nullptr;
  long long peak = 0;
  uint64_t chosen = 0, total = 0;
  for (auto _ : state) {
    const long long before = g_heap.load();
    g_peak.store(before);
    isapack_device_t device = Create();
    const long long held = g_peak.load() - before;
    if (held > peak) peak = held;
    state.PauseTiming();
    if (total == 0) total = CatalogBytes(&chosen, device);
    state.ResumeTiming();
    isapack_device_destroy(device);
  }
  if (holder != nullptr) isapack_device_destroy(holder);
  state.counters["peak_heap_bytes"] = static_cast<double>(peak);
  state.counters["chosen_entry_bytes"] = static_cast<double>(chosen);
  state.counters["whole_catalog_bytes"] = static_cast<double>(total);
}

void BM_CreateDestroy(benchmark::State& state) {
  Run(state, false);
}
void BM_CreateDestroyWarm(benchmark::State& state) {
  Run(state, true);
}

BENCHMARK(BM_CreateDestroy)
    ->Name("create_destroy")
    ->ArgName("agents")
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CreateDestroyWarm)
    ->Name("create_destroy_warm")
    ->ArgName("agents")
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::printf("isapack device creation on the SIMULATED HSA runtime (%s): not hardware numbers\n",
              ISAPACK_SIMULATED_HSA);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
