// The device library's kernels, built for the host from the same sources and
// run over AQL dispatch grids by device_library/host/host_dispatch.c. Results
// are checked against memset/memcpy semantics with guard bytes on both sides.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "host_dispatch.h"
#include "isapack/device/kernel_args.h"
#include "isapack/device/kernels.h"

extern "C" {
// tests/device/host_test_kernels.c
extern const isapack_host_kernel_t isapack_host_kernel_isapack_test_ids;
}

namespace {

constexpr size_t kGuard = 64;
constexpr uint8_t kGuardByte = 0xa5;

// A buffer with guard bytes around a 16-byte aligned region, so that
// alignment offsets 0..15 are exact.
struct GuardedBuffer {
  explicit GuardedBuffer(size_t size) : storage(size + 2 * kGuard + 16, kGuardByte) {}
  uint8_t* at(size_t alignment) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(storage.data()) + kGuard;
    return reinterpret_cast<uint8_t*>((base + 15) / 16 * 16 + alignment);
  }
  // True when everything outside [p, p + length) still holds the guard byte.
  bool GuardsIntact(const uint8_t* p, size_t length) const {
    const size_t before = static_cast<size_t>(p - storage.data());
    const size_t after = storage.size() - before - length;
    return std::memcmp(storage.data(), guards.data(), before) == 0 &&
           std::memcmp(p + length, guards.data(), after) == 0;
  }
  // Puts the guard byte back over [p, p + length).
  void Restore(uint8_t* p, size_t length) { std::memset(p, kGuardByte, length); }
  std::vector<uint8_t> storage;
  std::vector<uint8_t> guards = std::vector<uint8_t>(storage.size(), kGuardByte);
};

// Dispatches `kernel` over a grid of `grid` work items in workgroups of 64.
void Dispatch(isapack_kernel_id_t kernel, const void* args, size_t args_size, uint32_t grid,
              uint32_t wavefront = 32) {
  alignas(16) uint8_t kernarg[64] = {};
  std::memcpy(kernarg, args, args_size);
  isapack_dispatch_packet_t packet{};
  packet.workgroup_size_x = 64;
  packet.workgroup_size_y = 1;
  packet.workgroup_size_z = 1;
  packet.grid_size_x = grid;
  packet.grid_size_y = 1;
  packet.grid_size_z = 1;
  packet.kernarg_address = reinterpret_cast<uintptr_t>(kernarg);
  ASSERT_EQ(isapack_host_dispatch(isapack_host_find_kernel(isapack_kernel_names[kernel]), &packet,
                                  wavefront),
            0);
}

void Fill(uint8_t* dst, size_t length, uint64_t pattern, uint32_t width, uint32_t grid) {
  isapack_fill_args_t args{reinterpret_cast<uintptr_t>(dst), length, pattern, width, 0};
  Dispatch(ISAPACK_KERNEL_FILL, &args, sizeof(args), grid);
}

void Copy(uint8_t* dst, const uint8_t* src, size_t length, uint32_t grid) {
  isapack_copy_args_t args{reinterpret_cast<uintptr_t>(dst), reinterpret_cast<uintptr_t>(src),
                           length};
  Dispatch(ISAPACK_KERNEL_COPY, &args, sizeof(args), grid);
}

// What a fill of `length` bytes must produce: byte i is pattern byte i % width.
std::vector<uint8_t> ExpectedFill(size_t length, uint64_t pattern, uint32_t width) {
  std::vector<uint8_t> expected(length);
  for (size_t i = 0; i < length; ++i)
    expected[i] = static_cast<uint8_t>(pattern >> (8 * (i % width)));
  return expected;
}

::testing::AssertionResult FilledCorrectly(const GuardedBuffer& buffer, const uint8_t* dst,
                                           size_t length, const std::vector<uint8_t>& expected) {
  if (std::memcmp(dst, expected.data(), length) != 0) {
    for (size_t i = 0; i < length; ++i) {
      if (dst[i] != expected[i]) {
        return ::testing::AssertionFailure()
               << "byte " << i << " is " << int{dst[i]} << ", expected " << int{expected[i]};
      }
    }
  }
  if (!buffer.GuardsIntact(dst, length))
    return ::testing::AssertionFailure() << "guard bytes changed";
  return ::testing::AssertionSuccess();
}

TEST(FillKernel, EveryLengthUpTo4096AtEveryAlignmentAndWidth) {
  GuardedBuffer buffer(4096 + 16);
  const uint64_t pattern = 0x0123456789abcdefull;
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    const std::vector<uint8_t> expected = ExpectedFill(4096, pattern, width);
    for (size_t alignment = 0; alignment < 16; ++alignment) {
      for (size_t length = 0; length <= 4096; ++length) {
        uint8_t* dst = buffer.at(alignment);
        Fill(dst, length, pattern, width, /*grid=*/64);
        ASSERT_TRUE(FilledCorrectly(buffer, dst, length, expected))
            << "width " << width << " alignment " << alignment << " length " << length;
        buffer.Restore(dst, length);
      }
    }
  }
}

TEST(FillKernel, AnyGridSizeCoversTheBuffer) {
  GuardedBuffer buffer(1000);
  for (uint32_t grid : {1u, 3u, 63u, 64u, 65u, 100u, 1000u}) {
    std::fill(buffer.storage.begin(), buffer.storage.end(), kGuardByte);
    uint8_t* dst = buffer.at(5);
    Fill(dst, 999, 0xbeef, 2, grid);
    EXPECT_TRUE(FilledCorrectly(buffer, dst, 999, ExpectedFill(999, 0xbeef, 2))) << "grid " << grid;
  }
}

TEST(FillKernel, RandomLengthsUpToOneMebibyte) {
  std::mt19937_64 random(1);
  GuardedBuffer buffer((1 << 20) + 16);
  for (int i = 0; i < 24; ++i) {
    const size_t length = random() % ((1 << 20) + 1);
    const size_t alignment = random() % 16;
    const uint32_t width = 1u << (random() % 4);
    const uint64_t pattern = random();
    std::fill(buffer.storage.begin(), buffer.storage.end(), kGuardByte);
    uint8_t* dst = buffer.at(alignment);
    Fill(dst, length, pattern, width, 4096);
    ASSERT_TRUE(FilledCorrectly(buffer, dst, length, ExpectedFill(length, pattern, width)))
        << "length " << length << " alignment " << alignment << " width " << width;
  }
}

::testing::AssertionResult CopiedCorrectly(const GuardedBuffer& buffer, const uint8_t* dst,
                                           const uint8_t* src, size_t length) {
  if (std::memcmp(dst, src, length) != 0) return ::testing::AssertionFailure() << "contents differ";
  if (!buffer.GuardsIntact(dst, length))
    return ::testing::AssertionFailure() << "guard bytes changed";
  return ::testing::AssertionSuccess();
}

TEST(CopyKernel, EveryLengthUpTo4096AtEverySourceAndDestinationAlignment) {
  GuardedBuffer source(4096 + 16), destination(4096 + 16);
  for (size_t i = 0; i < source.storage.size(); ++i)
    source.storage[i] = static_cast<uint8_t>(i * 7 + 3);
  for (size_t src_alignment = 0; src_alignment < 16; ++src_alignment) {
    for (size_t dst_alignment = 0; dst_alignment < 16; ++dst_alignment) {
      for (size_t length = 0; length <= 4096; ++length) {
        uint8_t* dst = destination.at(dst_alignment);
        const uint8_t* src = source.at(src_alignment);
        Copy(dst, src, length, /*grid=*/64);
        ASSERT_TRUE(CopiedCorrectly(destination, dst, src, length))
            << "src alignment " << src_alignment << " dst alignment " << dst_alignment << " length "
            << length;
        destination.Restore(dst, length);
      }
    }
  }
}

TEST(CopyKernel, RandomLengthsUpToOneMebibyte) {
  std::mt19937_64 random(2);
  GuardedBuffer source((1 << 20) + 16), destination((1 << 20) + 16);
  for (auto& byte : source.storage) byte = static_cast<uint8_t>(random());
  for (int i = 0; i < 24; ++i) {
    const size_t length = random() % ((1 << 20) + 1);
    const size_t src_alignment = random() % 16, dst_alignment = random() % 16;
    std::fill(destination.storage.begin(), destination.storage.end(), kGuardByte);
    uint8_t* dst = destination.at(dst_alignment);
    Copy(dst, source.at(src_alignment), length, 4096);
    ASSERT_TRUE(CopiedCorrectly(destination, dst, source.at(src_alignment), length))
        << "length " << length;
  }
}

TEST(CopyKernel, LengthZeroTouchesNothing) {
  GuardedBuffer source(16), destination(16);
  Copy(destination.at(3), source.at(5), 0, 64);
  EXPECT_TRUE(destination.GuardsIntact(destination.at(3), 0));
}

TEST(ProbeKernel, RecordsEveryWorkItemAndTheDispatchGeometry) {
  constexpr uint32_t kItems = 100;  // one full workgroup of 64, one partial of 36
  std::vector<uint8_t> output(ISAPACK_PROBE_OUTPUT_SIZE(kItems), 0);
  isapack_probe_args_t args{reinterpret_cast<uintptr_t>(output.data()), kItems, 0};
  Dispatch(ISAPACK_KERNEL_PROBE, &args, sizeof(args), kItems, /*wavefront=*/32);
  isapack_probe_header_t header;
  std::memcpy(&header, output.data(), sizeof(header));
  EXPECT_EQ(header.magic, ISAPACK_PROBE_MAGIC);
  EXPECT_EQ(header.wavefront_size, 32u);
  EXPECT_EQ(header.grid_size, kItems);
  EXPECT_EQ(header.workgroup_size, 64u);
  for (uint32_t i = 0; i < kItems; ++i) {
    isapack_probe_record_t record;
    std::memcpy(&record, output.data() + sizeof(header) + i * sizeof(record), sizeof(record));
    EXPECT_EQ(record.workgroup_id, i / 64) << i;
    EXPECT_EQ(record.workitem_id, i % 64) << i;
    // Workgroup 1 has 36 items: a full wavefront of 32, then one of 4.
    const uint32_t expected_lanes = (i >= 64 + 32) ? 4 : 32;
    EXPECT_EQ(record.active_lanes, expected_lanes) << i;
  }
}

TEST(HostDispatch, RejectsPacketsItCannotRun) {
  const isapack_host_kernel_t* fill = isapack_host_find_kernel("isapack_fill");
  isapack_dispatch_packet_t packet{};
  uint8_t kernarg[32] = {};
  packet.kernarg_address = reinterpret_cast<uintptr_t>(kernarg);
  packet.workgroup_size_x = 64;
  packet.workgroup_size_y = packet.workgroup_size_z = 1;
  packet.grid_size_x = 0;
  packet.grid_size_y = packet.grid_size_z = 1;
  EXPECT_EQ(isapack_host_dispatch(fill, &packet, 32), -1);
  packet.grid_size_x = 64;
  packet.workgroup_size_z = 0;
  EXPECT_EQ(isapack_host_dispatch(fill, &packet, 32), -1);
  packet.workgroup_size_z = 1;
  EXPECT_EQ(isapack_host_dispatch(nullptr, &packet, 32), -1);
  isapack_host_kernel_t newer = *fill;
  newer.abi_version = ISAPACK_HOST_KERNEL_ABI_VERSION + 1;
  EXPECT_EQ(isapack_host_dispatch(&newer, &packet, 32), -1);
  packet.kernarg_address = 0;
  EXPECT_EQ(isapack_host_dispatch(fill, &packet, 32), -1);
}

TEST(HostDispatch, FindsIsapacksKernelsByNameOrDescriptor) {
  EXPECT_EQ(isapack_host_find_kernel("isapack_fill.kd"), &isapack_host_kernel_isapack_fill);
  EXPECT_EQ(isapack_host_find_kernel("isapack_copy"), &isapack_host_kernel_isapack_copy);
  EXPECT_EQ(isapack_host_find_kernel("isapack_probe.kd"), &isapack_host_kernel_isapack_probe);
  EXPECT_EQ(isapack_host_find_kernel("memset"), nullptr);
  EXPECT_STREQ(isapack_host_kernel_isapack_fill.name, "isapack_fill");
  EXPECT_EQ(isapack_host_kernel_isapack_fill.args_size, sizeof(isapack_fill_args_t));
  EXPECT_EQ(isapack_host_kernel_isapack_probe.args_size, sizeof(isapack_probe_args_t));
}

// A 3-D grid of 5 x 3 x 2 work items in workgroups of 2 x 2 x 2 (partial
// groups in every dimension): each work item records its IDs once, x fastest.
TEST(HostDispatch, RunsEveryWorkItemOfAThreeDimensionalGridOnceWithItsIds) {
  constexpr uint32_t kX = 5, kY = 3, kZ = 2;
  std::vector<uint32_t> out(kX * kY * kZ * 4, 0xffffffffu);
  struct {
    uint64_t output;
  } args{reinterpret_cast<uintptr_t>(out.data())};
  alignas(16) uint8_t kernarg[16] = {};
  std::memcpy(kernarg, &args, sizeof(args));
  isapack_dispatch_packet_t packet{};
  packet.workgroup_size_x = packet.workgroup_size_y = packet.workgroup_size_z = 2;
  packet.grid_size_x = kX;
  packet.grid_size_y = kY;
  packet.grid_size_z = kZ;
  packet.kernarg_address = reinterpret_cast<uintptr_t>(kernarg);
  ASSERT_EQ(isapack_host_kernel_isapack_test_ids.args_size, 8u);
  ASSERT_EQ(isapack_host_dispatch(&isapack_host_kernel_isapack_test_ids, &packet, 4), 0);
  for (uint32_t z = 0; z < kZ; ++z) {
    for (uint32_t y = 0; y < kY; ++y) {
      for (uint32_t x = 0; x < kX; ++x) {
        const uint32_t* record = &out[((z * kY + y) * kX + x) * 4];
        SCOPED_TRACE(testing::Message() << "work item " << x << "," << y << "," << z);
        EXPECT_EQ(record[0], x);
        EXPECT_EQ(record[1], y);
        EXPECT_EQ(record[2], z);
        // workgroup (x/2, y/2, z/2) has min(2, rest) items per dimension
        const uint32_t items = std::min(2u, kX - x / 2 * 2) * std::min(2u, kY - y / 2 * 2) *
                               std::min(2u, kZ - z / 2 * 2);
        const uint32_t linear =
            (z % 2) * std::min(2u, kX - x / 2 * 2) * std::min(2u, kY - y / 2 * 2) +
            (y % 2) * std::min(2u, kX - x / 2 * 2) + x % 2;
        EXPECT_EQ(record[3], std::min(4u, items - linear / 4 * 4)) << "active lanes";
      }
    }
  }
}

}  // namespace
