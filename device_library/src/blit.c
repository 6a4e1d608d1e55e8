/* Buffer fill and copy. Both split the buffer into work units: 16-byte units
 * for the 16-byte aligned bulk, then one unit per byte of the unaligned head
 * and tail. Work items take units in a grid-stride loop, so any grid size
 * covers any length (including 0). */
#include "isapack/device/device_abi.h"
#include "isapack/device/kernel_args.h"

/* Bytes before the first 16-byte aligned address at or after addr, capped at
 * length. */
static inline uint64_t isapack_head_length(uint64_t addr, uint64_t length) {
  const uint64_t head = (16u - (addr & 15u)) & 15u;
  return head < length ? head : length;
}

/* Offset of byte unit `unit` (0-based among head then tail bytes). */
static inline uint64_t isapack_byte_unit_offset(uint64_t unit, uint64_t head, uint64_t wide) {
  return unit < head ? unit : head + wide * 16u + (unit - head);
}

/* The pattern replicated to 8 bytes, starting at byte `phase` of the pattern. */
static inline uint64_t isapack_pattern_word(uint64_t pattern, uint32_t width, uint32_t phase) {
  uint64_t word;
  switch (width) {
    case 1:
      word = (pattern & 0xffu) * 0x0101010101010101ull;
      break;
    case 2:
      word = (pattern & 0xffffu) * 0x0001000100010001ull;
      break;
    case 4:
      word = (pattern & 0xffffffffu) * 0x0000000100000001ull;
      break;
    default:
      word = pattern;
      break;
  }
  /* width divides 8, so rotating the 8-byte word by phase bytes starts every
   * width-byte period at the right byte. */
  return phase == 0 ? word : (word >> (8u * phase)) | (word << (64u - 8u * phase));
}

ISAPACK_KERNEL(isapack_fill, isapack_fill_args_t, args) {
  const uint64_t dst = args.dst;
  const uint32_t width = args.pattern_width;
  const uint64_t head = isapack_head_length(dst, args.length);
  const uint64_t wide = (args.length - head) / 16u;
  const uint64_t units = wide + (args.length - wide * 16u);
  /* 16 % width == 0, so every aligned 16-byte block starts at the same phase. */
  const uint64_t word = isapack_pattern_word(args.pattern, width, (uint32_t)(head % width));
  const isapack_u64x2 block = {word, word};
  const uint64_t stride = isapack_grid_size();
  for (uint64_t unit = isapack_global_id(); unit < units; unit += stride) {
    if (unit < wide) {
      *(ISAPACK_GLOBAL isapack_u64x2*)(uintptr_t)(dst + head + unit * 16u) = block;
    } else {
      const uint64_t offset = isapack_byte_unit_offset(unit - wide, head, wide);
      *(ISAPACK_GLOBAL uint8_t*)(uintptr_t)(dst + offset) =
          (uint8_t)(args.pattern >> (8u * (offset % width)));
    }
  }
}

ISAPACK_KERNEL(isapack_copy, isapack_copy_args_t, args) {
  const uint64_t dst = args.dst;
  const uint64_t src = args.src;
  const uint64_t stride = isapack_grid_size();
  /* The wide path needs both sides aligned at once: same address mod 16. */
  const int same_alignment = ((dst ^ src) & 15u) == 0;
  const uint64_t head = same_alignment ? isapack_head_length(dst, args.length) : args.length;
  const uint64_t wide = same_alignment ? (args.length - head) / 16u : 0;
  const uint64_t units = wide + (args.length - wide * 16u);
  for (uint64_t unit = isapack_global_id(); unit < units; unit += stride) {
    if (unit < wide) {
      const uint64_t offset = head + unit * 16u;
      *(ISAPACK_GLOBAL isapack_u64x2*)(uintptr_t)(dst + offset) =
          *(const ISAPACK_GLOBAL isapack_u64x2*)(uintptr_t)(src + offset);
    } else {
      const uint64_t offset = isapack_byte_unit_offset(unit - wide, head, wide);
      *(ISAPACK_GLOBAL uint8_t*)(uintptr_t)(dst + offset) =
          *(const ISAPACK_GLOBAL uint8_t*)(uintptr_t)(src + offset);
    }
  }
}
