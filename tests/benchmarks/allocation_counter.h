// Counts every heap allocation of the process (operator new replaced in
// allocation_counter.cc, its own translation unit so that no call site
// inlines it). Benchmarks report allocations per call with it.
#ifndef ISAPACK_TESTS_BENCHMARKS_ALLOCATION_COUNTER_H_
#define ISAPACK_TESTS_BENCHMARKS_ALLOCATION_COUNTER_H_

#include <cstddef>

namespace isapack::bench {

// Allocations through operator new so far.
size_t Allocations();

}  // namespace isapack::bench

#endif  // ISAPACK_TESTS_BENCHMARKS_ALLOCATION_COUNTER_H_
