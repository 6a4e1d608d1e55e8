#include "catalog_writer.h"

#include <lzma.h>
#include <xxhash.h>
#include <zstd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "catalog.h"
#include "catalog_format.h"

namespace isapack {
namespace {

namespace format = catalog_format;
using json = nlohmann::json;

struct CctxDeleter {
  void operator()(ZSTD_CCtx* cctx) const { ZSTD_freeCCtx(cctx); }
};

void Check(size_t result, const std::string& what) {
  if (ZSTD_isError(result)) throw std::runtime_error(what + ": " + ZSTD_getErrorName(result));
}

template <typename T>
void Store(std::vector<uint8_t>* bytes, size_t offset, const T& value) {
  std::memcpy(bytes->data() + offset, &value, sizeof(T));
}

// One zstd frame of `input` (content size recorded, no checksum, no
// dictionary ID), with `prefix` as its raw-content dictionary when given.
std::vector<uint8_t> Frame(ZSTD_CCtx* cctx, const std::vector<uint8_t>& input,
                           const std::vector<uint8_t>* prefix, int level, const std::string& what) {
  Check(ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters), "zstd reset");
  Check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level), "zstd level");
  Check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1), "zstd content size");
  Check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0), "zstd checksum");
  Check(ZSTD_CCtx_setParameter(cctx, ZSTD_c_dictIDFlag, 0), "zstd dictionary ID");
  if (prefix != nullptr) {
    Check(ZSTD_CCtx_refPrefix(cctx, prefix->data(), prefix->size()), "zstd prefix");
  }
  std::vector<uint8_t> frame(ZSTD_compressBound(input.size()));
  const size_t size = ZSTD_compress2(cctx, frame.data(), frame.size(), input.data(), input.size());
  Check(size, what + ": zstd compression");
  frame.resize(size);
  return frame;
}

// The shared block as one raw LZMA2 stream (preset 9e): the smallest over
// the literal and position settings (code objects are 4-byte words, the
// metadata is text) and two match lengths. A block of more than 1 MiB tries
// the two settings that win on code objects, to bound the build's time.
std::vector<uint8_t> CompressShared(const std::vector<uint8_t>& shared, uint8_t* properties) {
  struct Setting {
    uint32_t lc, lp, pb, nice_len;
  };
  std::vector<Setting> settings;
  if (shared.size() > (size_t{1} << 20)) {
    settings = {{0, 0, 2, 64}, {0, 2, 2, 64}};
  } else {
    for (uint32_t nice_len : {64u, 273u}) {
      for (uint32_t lc = 0; lc <= 4; ++lc) {
        for (uint32_t lp = 0; lc + lp <= 4; ++lp) {
          for (uint32_t pb = 0; pb <= 4; ++pb) settings.push_back({lc, lp, pb, nice_len});
        }
      }
    }
  }
  std::vector<uint8_t> best;
  for (const Setting& setting : settings) {
    lzma_options_lzma options;
    if (lzma_lzma_preset(&options, 9 | LZMA_PRESET_EXTREME)) {
      throw std::runtime_error("liblzma has no preset 9e");
    }
    options.dict_size = format::Lzma2DictionarySize(shared.size());
    options.lc = setting.lc;
    options.lp = setting.lp;
    options.pb = setting.pb;
    options.nice_len = setting.nice_len;
    const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
    std::vector<uint8_t> out(lzma_stream_buffer_bound(shared.size()));
    size_t out_pos = 0;
    const lzma_ret ret = lzma_raw_buffer_encode(filters, nullptr, shared.data(), shared.size(),
                                                out.data(), &out_pos, out.size());
    if (ret != LZMA_OK) {
      throw std::runtime_error("LZMA2 compression of the shared block failed (status " +
                               std::to_string(static_cast<int>(ret)) + ")");
    }
    out.resize(out_pos);
    if (best.empty() || out.size() < best.size()) {
      best = std::move(out);
      *properties = static_cast<uint8_t>((setting.pb * 5 + setting.lp) * 9 + setting.lc);
    }
  }
  return best;
}

// Chooses the representatives: in input order, each input becomes a delta
// from the representative it compresses best against, when that delta is
// small enough, and a representative otherwise.
void ChooseRepresentatives(const std::vector<CatalogInput>& inputs, const CatalogOptions& options,
                           ZSTD_CCtx* cctx, CatalogPlan* plan) {
  const int probe_level = std::min(options.zstd_level, 12);
  std::vector<size_t> representatives;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const CatalogInput& input = inputs[i];
    plan->alone_bytes.push_back(
        Frame(cctx, input.bytes, nullptr, probe_level, input.target_id).size());
    size_t best = i;
    size_t best_size = 0;
    for (size_t r : representatives) {
      const size_t size =
          Frame(cctx, input.bytes, &inputs[r].bytes, probe_level, input.target_id).size();
      if (best == i || size < best_size) {
        best = r;
        best_size = size;
      }
    }
    if (best == i || static_cast<double>(best_size) >
                         options.delta_share * static_cast<double>(plan->alone_bytes[i])) {
      best = i;
      representatives.push_back(i);
    }
    plan->representative.push_back(best);
  }
}

// Lays out the catalog with the record's `derived` fields left out.
std::vector<uint8_t> Layout(const std::vector<CatalogInput>& inputs, const json& record,
                            const std::vector<std::string>& derived, int zstd_level,
                            CatalogPlan* plan) {
  json stored = record;
  for (const std::string& field : derived) stored.erase(field);
  json metadata = {{"entries", json::array()}, {"record", std::move(stored)}};
  if (!derived.empty()) metadata["derived"] = derived;
  for (const CatalogInput& input : inputs) {
    metadata["entries"].push_back(
        {input.target_id, input.covers, input.code_object_version, input.e_flags});
  }
  const std::string text = metadata.dump();
  std::vector<uint8_t> shared(text.begin(), text.end());
  std::vector<format::Entry> entries(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (plan->representative[i] != i) continue;
    entries[i].offset = static_cast<uint32_t>(shared.size());
    shared.insert(shared.end(), inputs[i].bytes.begin(), inputs[i].bytes.end());
  }
  if (shared.size() > format::kMaxSharedSize) {
    throw std::runtime_error("the shared block would be " + std::to_string(shared.size()) +
                             " bytes; the limit is " + std::to_string(format::kMaxSharedSize));
  }
  format::FileHeader header{};
  std::memcpy(header.magic, format::kMagic, sizeof(header.magic));
  header.format_version = format::kFormatVersion;
  header.entry_count = static_cast<uint16_t>(inputs.size());
  header.shared_codec = format::kCodecLzma2;
  header.zstd_level = static_cast<uint16_t>(zstd_level);
  header.metadata_size = static_cast<uint32_t>(text.size());
  header.shared_size = static_cast<uint32_t>(shared.size());
  const std::vector<uint8_t> stream = CompressShared(shared, &header.lzma_properties);
  header.shared_compressed_size = static_cast<uint32_t>(stream.size());
  std::vector<uint8_t> out(sizeof(format::FileHeader) + inputs.size() * sizeof(format::Entry));
  out.insert(out.end(), stream.begin(), stream.end());
  for (size_t i = 0; i < inputs.size(); ++i) {
    format::Entry& e = entries[i];
    const size_t r = plan->representative[i];
    e.representative = static_cast<uint16_t>(r);
    e.size = static_cast<uint32_t>(inputs[i].bytes.size());
    e.xxh3_64 = XXH3_64bits(inputs[i].bytes.data(), inputs[i].bytes.size());
    if (r == i) continue;
    const std::vector<uint8_t>& frame = plan->frames[i];
    e.offset = static_cast<uint32_t>(out.size());
    e.frame_size = static_cast<uint32_t>(frame.size());
    e.frame_xxh3_64 = XXH3_64bits(frame.data(), frame.size());
    out.insert(out.end(), frame.begin(), frame.end());
  }
  if (out.size() > UINT32_MAX) throw std::runtime_error("the catalog would exceed 4 GiB");
  header.total_size = static_cast<uint32_t>(out.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    Store(&out, sizeof(format::FileHeader) + i * sizeof(format::Entry), entries[i]);
  }
  Store(&out, 0, header);
  ResealCatalog(&out);
  plan->metadata_bytes = text.size();
  plan->shared_bytes = shared.size();
  plan->shared_compressed_bytes = stream.size();
  plan->lzma_properties = header.lzma_properties;
  return out;
}

}  // namespace

CatalogPlan BuildCatalog(const std::vector<CatalogInput>& inputs, const std::string& build_info,
                         const CatalogOptions& options) {
  if (inputs.empty()) throw std::runtime_error("a catalog needs at least one code object");
  if (inputs.size() > format::kMaxEntries) {
    throw std::runtime_error(std::to_string(inputs.size()) + " code objects exceed the limit of " +
                             std::to_string(format::kMaxEntries));
  }
  for (const CatalogInput& input : inputs) {
    if (input.bytes.empty() || input.bytes.size() > format::kMaxCodeObjectSize) {
      throw std::runtime_error(input.target_id + ": a code object of " +
                               std::to_string(input.bytes.size()) + " bytes (the limit is " +
                               std::to_string(format::kMaxCodeObjectSize) + ")");
    }
  }
  const json record = json::parse(build_info, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object()) throw std::runtime_error("the build record is not a JSON object");
  CatalogPlan plan;
  std::unique_ptr<ZSTD_CCtx, CctxDeleter> cctx(ZSTD_createCCtx());
  if (!cctx) throw std::runtime_error("cannot allocate a zstd context");
  ChooseRepresentatives(inputs, options, cctx.get(), &plan);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const size_t r = plan.representative[i];
    plan.frames.push_back(r == i ? std::vector<uint8_t>{}
                                 : Frame(cctx.get(), inputs[i].bytes, &inputs[r].bytes,
                                         options.zstd_level, inputs[i].target_id));
  }
  // Fields the reader can rebuild from the entries are left out when it
  // rebuilds them exactly; the reader's own answer decides.
  std::vector<std::vector<std::string>> choices = {
      {"code_objects", "covered_targets"}, {"code_objects"}, {"covered_targets"}, {}};
  const std::string expected = record.dump();
  for (std::vector<std::string>& derived : choices) {
    bool present = true;
    for (const std::string& field : derived) present = present && record.contains(field);
    if (!present) continue;
    std::vector<uint8_t> image = Layout(inputs, record, derived, options.zstd_level, &plan);
    auto parsed = Catalog::Parse(image);
    if (!parsed)
      throw std::runtime_error("the laid-out catalog does not parse: " + parsed.error().message);
    if (parsed->build_info() != expected) continue;
    plan.image = std::move(image);
    plan.derived = std::move(derived);
    break;
  }
  return plan;
}

void ResealCatalog(std::vector<uint8_t>* catalog) {
  format::FileHeader header;
  std::memcpy(&header, catalog->data(), sizeof(header));
  const uint64_t toc_end = sizeof(format::FileHeader) +
                           uint64_t{header.entry_count} * sizeof(format::Entry) +
                           header.shared_compressed_size;
  header.toc_hash = TableOfContentsHash(*catalog, std::min<uint64_t>(toc_end, catalog->size()));
  Store(catalog, 0, header);
}

}  // namespace isapack
