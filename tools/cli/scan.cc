#include "scan.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "catalog_format.h"
#include "inspect.h"
#include "offload_bundle.h"
#include "output_file.h"

namespace isapack::scan {
namespace {

using json = nlohmann::json;
using ArchivePtr = std::unique_ptr<archive, decltype(&archive_read_free)>;

bool StartsWith(std::span<const uint8_t> data, std::string_view magic) {
  return data.size() >= magic.size() && std::memcmp(data.data(), magic.data(), magic.size()) == 0;
}

bool EndsWith(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

std::string ArchiveError(archive* reader) {
  const char* why = archive_error_string(reader);
  return why != nullptr ? why : "no reason given";
}

std::string Trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> SplitGpuList(std::string_view text) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text) {
    if (c == ' ' || c == ',' || c == '\t' || c == '\n') {
      if (!item.empty()) out.push_back(std::move(item));
      item.clear();
    } else {
      item += c;
    }
  }
  if (!item.empty()) out.push_back(std::move(item));
  return out;
}

void AddUnique(std::vector<FoundObject>* objects, FoundObject object) {
  if (std::find(objects->begin(), objects->end(), object) == objects->end()) {
    objects->push_back(std::move(object));
  }
}

// A file's device code, its size and errors, as the cache keeps it.
json ToJson(const ScannedFile& file) {
  json objects = json::array();
  for (const FoundObject& o : file.objects) {
    objects.push_back({o.target_id, o.generic_version, o.in_isapack_catalog});
  }
  return objects;
}

std::vector<FoundObject> FromJson(const json& objects) {
  std::vector<FoundObject> out;
  for (const json& o : objects) {
    out.push_back({o.at(0).get<std::string>(), o.at(1).get<unsigned>(), o.at(2).get<bool>()});
  }
  return out;
}

// Results of earlier scans by (path, size, mtime), loaded and saved whole.
class Cache {
 public:
  explicit Cache(std::string path) : path_(std::move(path)) {
    if (path_.empty()) return;
    std::ifstream in(path_);
    if (!in) return;
    json loaded = json::parse(in, nullptr, /*allow_exceptions=*/false);
    // A damaged or foreign cache is ignored and rewritten, never trusted.
    if (loaded.is_object() && loaded.value("schema", 0) == 1 && loaded.contains("files") &&
        loaded["files"].is_object()) {
      entries_ = std::move(loaded["files"]);
    }
  }

  std::optional<std::vector<FoundObject>> Find(const std::string& path, const struct stat& info) {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(path);
    if (it == entries_.end() || !it->is_object()) return std::nullopt;
    try {
      if (it->at("size").get<uint64_t>() != static_cast<uint64_t>(info.st_size) ||
          it->at("mtime").get<int64_t>() != static_cast<int64_t>(info.st_mtime)) {
        return std::nullopt;
      }
      ++hits_;
      return FromJson(it->at("objects"));
    } catch (const json::exception&) {
      return std::nullopt;
    }
  }

  void Store(const ScannedFile& file, const struct stat& info) {
    if (path_.empty() || !file.errors.empty()) return;
    std::lock_guard lock(mutex_);
    entries_[file.path] = {{"size", static_cast<uint64_t>(info.st_size)},
                           {"mtime", static_cast<int64_t>(info.st_mtime)},
                           {"objects", ToJson(file)}};
    changed_ = true;
  }

  // Saves the cache; a cache that cannot be written costs speed, not results.
  void Save() {
    if (path_.empty() || !changed_) return;
    const size_t slash = path_.rfind('/');
    if (slash != std::string::npos) {
      std::string dir;
      for (size_t at = 0; at <= slash; ++at) {
        if (path_[at] == '/' && at > 0) mkdir(path_.substr(0, at).c_str(), 0700);
      }
    }
    const std::string text = json{{"schema", 1}, {"files", entries_}}.dump();
    (void)WriteFileAtomically(path_, {reinterpret_cast<const uint8_t*>(text.data()), text.size()});
  }

 private:
  std::string path_;
  json entries_ = json::object();
  std::mutex mutex_;
  size_t hits_ = 0;
  bool changed_ = false;
};

// The status line of a long scan, on stderr, at most ten times a second.
class Progress {
 public:
  Progress(bool enabled, size_t total) : enabled_(enabled), total_(total) {}
  ~Progress() {
    if (enabled_ && printed_) std::fputs("\r\033[K", stderr);
  }
  void Done(uint64_t bytes, const std::string& what) {
    files_ += 1;
    bytes_ += bytes;
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (printed_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    printed_ = true;
    std::fprintf(stderr, "\r\033[Kisapack: %zu/%zu files, %llu MB: %s", files_.load(), total_,
                 static_cast<unsigned long long>(bytes_.load() >> 20), what.c_str());
  }
  uint64_t files() const { return files_; }
  uint64_t bytes() const { return bytes_; }

 private:
  bool enabled_;
  size_t total_;
  std::atomic<size_t> files_{0};
  std::atomic<uint64_t> bytes_{0};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_;
  bool printed_ = false;
};

// The scan finds a library's bundles one after another, each from the
// previous one's size: from a cold page cache that is one disk wait per
// bundle (the 165 bundles of a 1 GiB library: about 1 s on this machine's
// disk, three times `cat`). A large file that is mostly not in the page
// cache is therefore read once, in order, the way `cat` reads it, before
// the scan walks its mapping; a file in the cache is not read again.
void ReadAheadIfCold(const std::string& path, std::span<const uint8_t> mapped) {
  constexpr size_t kLarge = size_t{64} << 20;
  if (mapped.size() < kLarge) return;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((mapped.size() + page - 1) / page);
  if (mincore(const_cast<uint8_t*>(mapped.data()), mapped.size(), resident.data()) != 0) return;
  size_t in_cache = 0;
  for (unsigned char flags : resident) in_cache += flags & 1;
  if (in_cache * 2 >= resident.size()) return;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return;
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  std::vector<uint8_t> buffer(size_t{1} << 20);
  while (read(fd, buffer.data(), buffer.size()) > 0) {
  }
  close(fd);
}

// Reads one regular file of the file system.
ScannedFile ScanFile(const std::string& path, const std::string& package,
                     const ScanOptions& options, Cache* cache) {
  ScannedFile file{path, package, 0, {}, {}};
  struct stat info{};
  const bool have_info = stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
  if (have_info) {
    file.size = static_cast<uint64_t>(info.st_size);
    if (auto cached = cache->Find(path, info)) {
      file.objects = std::move(*cached);
      return file;
    }
  }
  auto opened = OpenInputFile(path, options.max_file_size);
  if (!opened) {
    file.errors.push_back(opened.error().message);
    return file;
  }
  const auto bytes = opened->bytes();
  file.size = bytes.size();
  if (MayCarryDeviceCode(bytes)) {
    if (opened->mapped()) ReadAheadIfCold(path, bytes);
    file.objects = FindDeviceCode(bytes, path, &file.errors, opened->mapped());
  }
  if (have_info) cache->Store(file, info);
  return file;
}

// libarchive reads a member of an outer archive through these.
struct NestedSource {
  archive* outer;
  uint8_t buffer[65536];
};

la_ssize_t ReadNested(archive*, void* data, const void** block) {
  auto* source = static_cast<NestedSource*>(data);
  *block = source->buffer;
  return archive_read_data(source->outer, source->buffer, sizeof(source->buffer));
}

// Reads the current entry of `reader` whole, up to `limit` bytes.
Expected<std::vector<uint8_t>> ReadEntry(archive* reader, uint64_t limit,
                                         const std::string& where) {
  std::vector<uint8_t> bytes;
  uint8_t block[65536];
  la_ssize_t got;
  while ((got = archive_read_data(reader, block, sizeof(block))) > 0) {
    if (bytes.size() + static_cast<size_t>(got) > limit) {
      return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                       where + ": larger than " + std::to_string(limit) +
                           " bytes; raise --max-file-size to read it");
    }
    bytes.insert(bytes.end(), block, block + got);
  }
  if (got < 0) {
    return MakeError(ISAPACK_STATUS_INVALID_ARGUMENT,
                     where + ": damaged archive: " + ArchiveError(reader));
  }
  return bytes;
}

// Walks the entries of an opened tar or cpio stream, scanning each regular
// file that may carry device code. `prefix` names the package file.
void ScanPayload(archive* reader, const std::string& prefix, const std::string& package,
                 const ScanOptions& options, ScanResult* result, uint64_t* bytes_read) {
  archive_entry* entry = nullptr;
  int status;
  while ((status = archive_read_next_header(reader, &entry)) == ARCHIVE_OK) {
    if (archive_entry_filetype(entry) != AE_IFREG) continue;
    const char* name = archive_entry_pathname(entry);
    std::string member = name != nullptr ? name : "?";
    if (member.rfind("./", 0) == 0) member.erase(0, 1);
    if (member.empty() || member[0] != '/') member.insert(0, "/");
    const std::string where = prefix + "!" + member;
    // The first block says whether the member is worth reading.
    uint8_t head[64];
    const la_ssize_t got = archive_read_data(reader, head, sizeof(head));
    if (got < 0) {
      result->files.push_back(
          {where, package, 0, {}, {where + ": damaged archive: " + ArchiveError(reader)}});
      return;
    }
    *bytes_read += static_cast<uint64_t>(archive_entry_size(entry));
    if (!MayCarryDeviceCode({head, static_cast<size_t>(got)})) continue;
    if (static_cast<uint64_t>(archive_entry_size(entry)) > options.max_file_size) {
      result->files.push_back({where,
                               package,
                               static_cast<uint64_t>(archive_entry_size(entry)),
                               {},
                               {where + ": larger than " + std::to_string(options.max_file_size) +
                                " bytes; raise --max-file-size to read it"}});
      continue;
    }
    auto rest = ReadEntry(reader, options.max_file_size, where);
    if (!rest) {
      result->files.push_back({where, package, 0, {}, {rest.error().message}});
      return;  // the stream cannot be trusted past a damaged member
    }
    std::vector<uint8_t> bytes(head, head + got);
    bytes.insert(bytes.end(), rest->begin(), rest->end());
    ScannedFile file{where, package, bytes.size(), {}, {}};
    file.objects = FindDeviceCode(bytes, where, &file.errors);
    if (!file.objects.empty() || !file.errors.empty()) result->files.push_back(std::move(file));
  }
  if (status != ARCHIVE_EOF) {
    result->files.push_back(
        {prefix, package, 0, {}, {prefix + ": damaged archive: " + ArchiveError(reader)}});
  }
}

ArchivePtr NewPayloadReader() {
  ArchivePtr reader(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(reader.get());
  archive_read_support_format_tar(reader.get());
  archive_read_support_format_cpio(reader.get());
  return reader;
}

// Opens a new reader on a package's bytes: its file (streamed) or memory.
using Opener = std::function<int(archive*)>;

Opener OpenFile(const std::string& path) {
  return
      [path](archive* reader) { return archive_read_open_filename(reader, path.c_str(), 65536); };
}

Opener OpenMemory(std::span<const uint8_t> bytes) {
  return [bytes](archive* reader) {
    return archive_read_open_memory(reader, bytes.data(), bytes.size());
  };
}

// A Debian package: an ar archive of debian-binary, control.tar.* and data.tar.*.
void ScanDeb(const std::string& path, const Opener& open, const ScanOptions& options,
             ScanResult* result, uint64_t* bytes_read) {
  ArchivePtr outer(archive_read_new(), archive_read_free);
  archive_read_support_format_ar(outer.get());
  if (open(outer.get()) != ARCHIVE_OK) {
    result->errors.push_back(path + ": not a readable .deb: " + ArchiveError(outer.get()) +
                             " (check the file; `dpkg-deb --info` reads a good one)");
    return;
  }
  PackageInfo package{"", "", "", "deb", path, std::nullopt};
  bool have_control = false, have_data = false;
  ScanResult payload;
  archive_entry* entry = nullptr;
  int status;
  while ((status = archive_read_next_header(outer.get(), &entry)) == ARCHIVE_OK) {
    const std::string member = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    const bool control = member.rfind("control.tar", 0) == 0;
    const bool data = member.rfind("data.tar", 0) == 0;
    if (!control && !data) continue;
    have_control = have_control || control;
    have_data = have_data || data;
    NestedSource source{outer.get(), {}};
    ArchivePtr inner = NewPayloadReader();
    if (archive_read_open(inner.get(), &source, nullptr, ReadNested, nullptr) != ARCHIVE_OK) {
      result->errors.push_back(path + ": " + member + " is damaged: " + ArchiveError(inner.get()));
      continue;
    }
    if (control) {
      archive_entry* item = nullptr;
      while (archive_read_next_header(inner.get(), &item) == ARCHIVE_OK) {
        const std::string name = archive_entry_pathname(item) ? archive_entry_pathname(item) : "";
        if (name != "./control" && name != "control") continue;
        auto text = ReadEntry(inner.get(), 1 << 20, path + "!control");
        if (!text) {
          result->errors.push_back(text.error().message);
          break;
        }
        PackageInfo parsed = ParseDebControl(
            std::string_view(reinterpret_cast<const char*>(text->data()), text->size()));
        parsed.format = "deb";
        parsed.source = path;
        package = std::move(parsed);
        break;
      }
    } else {
      ScanPayload(inner.get(), path, "", options, &payload, bytes_read);
    }
  }
  if (status != ARCHIVE_EOF) {
    result->errors.push_back(path + ": damaged .deb: " + ArchiveError(outer.get()) +
                             "; the rest of it was not read");
  }
  if (!have_control || !have_data) {
    result->errors.push_back(path + ": not a Debian package (no " +
                             std::string(have_control ? "data.tar" : "control.tar") + " member)");
  }
  if (package.name.empty()) package.name = path;
  for (ScannedFile& file : payload.files) {
    file.package = package.name;
    result->files.push_back(std::move(file));
  }
  result->packages.push_back(std::move(package));
}

uint32_t BigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// An rpm package: a lead, a signature header and a header (read here), then
// the compressed cpio payload (libarchive).
void ScanRpm(const std::string& path, std::span<const uint8_t> bytes, const ScanOptions& options,
             ScanResult* result, uint64_t* bytes_read) {
  PackageInfo package{path, "", "", "rpm", path, std::nullopt};
  auto header = ReadRpmHeader(bytes);
  if (!header) {
    result->errors.push_back(path + ": " + header.error().message);
    result->packages.push_back(std::move(package));
    return;
  }
  package = std::move(*header);
  package.source = path;
  ArchivePtr reader(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(reader.get());
  archive_read_support_format_all(reader.get());
  if (archive_read_open_memory(reader.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
    result->errors.push_back(path +
                             ": the rpm payload is unreadable: " + ArchiveError(reader.get()));
  } else {
    ScanResult payload;
    ScanPayload(reader.get(), path, package.name, options, &payload, bytes_read);
    for (ScannedFile& file : payload.files) result->files.push_back(std::move(file));
  }
  result->packages.push_back(std::move(package));
}

// Scans `work` (loose files with their package) in parallel, keeping order.
void ScanFiles(const std::vector<std::pair<std::string, std::string>>& work,
               const ScanOptions& options, ScanResult* result) {
  Cache cache(options.cache_path);
  Progress progress(options.progress, work.size());
  std::vector<ScannedFile> done(work.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < work.size();) {
      done[i] = ScanFile(work[i].first, work[i].second, options, &cache);
      progress.Done(done[i].size, work[i].second.empty() ? work[i].first : work[i].second);
    }
  };
  unsigned jobs = options.jobs != 0 ? options.jobs : std::thread::hardware_concurrency();
  jobs = std::clamp<unsigned>(jobs, 1, 64);
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs && t < work.size(); ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& thread : threads) thread.join();
  cache.Save();
  result->files_scanned += progress.files();
  result->bytes_scanned += progress.bytes();
  for (ScannedFile& file : done) {
    if (!file.objects.empty() || !file.errors.empty()) result->files.push_back(std::move(file));
  }
}

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command and keeps its standard output; false when it fails.
bool RunCommand(const std::string& command, std::string* output) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return false;
  char buffer[65536];
  size_t got;
  while ((got = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output->append(buffer, got);
  return pclose(pipe) == 0;
}

}  // namespace

bool MayCarryDeviceCode(std::span<const uint8_t> head) {
  return StartsWith(head,
                    "\x7f"
                    "ELF") ||
         StartsWith(head, kOffloadBundleMagic) || StartsWith(head, kCompressedBundleMagic) ||
         StartsWith(head,
                    std::string_view(catalog_format::kMagic, sizeof(catalog_format::kMagic))) ||
         StartsWith(head, "!<arch>\n");
}

std::vector<FoundObject> FindDeviceCode(std::span<const uint8_t> bytes, const std::string& where,
                                        std::vector<std::string>* errors, bool mapped) {
  InspectLimits limits;
  limits.kernels = false;
  limits.release_mapped_pages = mapped;
  const json report = InspectBytes(bytes, limits);
  std::vector<FoundObject> objects;
  for (const json& object : report.at("code_objects")) {
    const std::string location = object.value("location", std::string());
    if (object.contains("error")) {
      errors->push_back(where + ": " + location + ": " + object.at("error").get<std::string>());
      continue;
    }
    if (!object.contains("target_id")) continue;
    AddUnique(&objects,
              {object.at("target_id").get<std::string>(), object.value("generic_version", 0u),
               location.find("catalog entry") != std::string::npos});
  }
  for (const json& problem : report.at("errors")) {
    const std::string text = where + ": " + problem.get<std::string>();
    if (std::find(errors->begin(), errors->end(), text) == errors->end()) errors->push_back(text);
  }
  return objects;
}

PackageInfo ParseDebControl(std::string_view control) {
  PackageInfo package;
  package.format = "deb";
  std::istringstream lines{std::string(control)};
  std::string line, field, value;
  auto commit = [&] {
    const std::string name = Lower(field);
    if (name == "package") package.name = Trim(value);
    if (name == "version") package.version = Trim(value);
    if (name == "architecture") package.architecture = Trim(value);
    if (name == "x-rocm-gpu-architecture") package.declared_gpus = SplitGpuList(value);
    field.clear();
    value.clear();
  };
  while (std::getline(lines, line)) {
    if (line.empty()) break;  // the first stanza only
    if (line[0] == ' ' || line[0] == '\t') {
      value += "\n" + line;
      continue;
    }
    if (!field.empty()) commit();
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
  }
  if (!field.empty()) commit();
  return package;
}

Expected<PackageInfo> ReadRpmHeader(std::span<const uint8_t> bytes) {
  auto bad = [](const std::string& why) {
    return MakeError(
        ISAPACK_STATUS_INVALID_ARGUMENT,
        "not a readable rpm package: " + why + " (check the file; `rpm -qip` reads a good one)");
  };
  constexpr uint8_t kLead[4] = {0xed, 0xab, 0xee, 0xdb};
  constexpr uint8_t kHeader[3] = {0x8e, 0xad, 0xe8};
  if (bytes.size() < 96 || std::memcmp(bytes.data(), kLead, 4) != 0) return bad("no rpm lead");
  size_t at = 96;
  PackageInfo package;
  package.format = "rpm";
  for (int header = 0; header < 2; ++header) {
    if (header == 1) at = (at + 7) & ~size_t{7};  // the signature is padded to 8 bytes
    if (bytes.size() < at + 16 || std::memcmp(bytes.data() + at, kHeader, 3) != 0) {
      return bad(header == 0 ? "no signature header" : "no header");
    }
    const uint64_t count = BigEndian32(bytes.data() + at + 8);
    const uint64_t data_size = BigEndian32(bytes.data() + at + 12);
    const uint64_t index = at + 16, store = index + count * 16;
    if (count > 65536 || store + data_size > bytes.size())
      return bad("header larger than the file");
    at = store + data_size;
    if (header == 0) continue;
    auto string_at = [&](uint32_t offset, uint32_t n) {
      std::vector<std::string> out;
      for (uint32_t i = 0; i < n && offset < data_size; ++i) {
        const char* begin = reinterpret_cast<const char*>(bytes.data() + store + offset);
        const size_t length = strnlen(begin, data_size - offset);
        out.emplace_back(begin, length);
        offset += static_cast<uint32_t>(length) + 1;
      }
      return out;
    };
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t* e = bytes.data() + index + i * 16;
      const uint32_t tag = BigEndian32(e), type = BigEndian32(e + 4);
      const uint32_t offset = BigEndian32(e + 8), n = BigEndian32(e + 12);
      if (type != 6 && type != 8 && type != 9) continue;  // strings only
      const std::vector<std::string> values = string_at(offset, std::min<uint32_t>(n, 65536));
      if (values.empty()) continue;
      if (tag == 1000) package.name = values[0];
      if (tag == 1001) package.version = values[0] + package.version;
      if (tag == 1002) package.version += "-" + values[0];
      if (tag == 1022) package.architecture = values[0];
      if (tag == 1047) {  // PROVIDENAME
        for (const std::string& provide : values) {
          if (provide.rfind("isapack-gpu(", 0) == 0 && provide.back() == ')') {
            if (!package.declared_gpus) package.declared_gpus.emplace();
            package.declared_gpus->push_back(provide.substr(12, provide.size() - 13));
          }
        }
      }
    }
  }
  if (package.name.empty()) return bad("the header has no name");
  return package;
}

ScanResult ScanPaths(const std::vector<std::string>& paths, const ScanOptions& options) {
  ScanResult result;
  std::vector<std::pair<std::string, std::string>> loose;
  for (const InputPath& input : ExpandInputPaths(paths)) {
    if (!input.error.empty()) {
      result.files.push_back({input.path, "", 0, {}, {input.error}});
      continue;
    }
    if (EndsWith(input.path, ".deb") || EndsWith(input.path, ".rpm")) {
      uint64_t bytes = 0;
      struct stat info{};
      if (stat(input.path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
        loose.emplace_back(input.path, "");  // OpenInputFile names the problem
        continue;
      }
      if (EndsWith(input.path, ".deb")) {
        ScanDeb(input.path, OpenFile(input.path), options, &result, &bytes);
      } else if (auto file = OpenInputFile(input.path, options.max_file_size); !file) {
        result.errors.push_back(file.error().message);
      } else {
        ScanRpm(input.path, file->bytes(), options, &result, &bytes);
      }
      result.files_scanned += 1;
      result.bytes_scanned += static_cast<uint64_t>(info.st_size);
      continue;
    }
    loose.emplace_back(input.path, "");
  }
  ScanFiles(loose, options, &result);
  return result;
}

ScanResult ScanPackageBytes(std::span<const uint8_t> bytes, const std::string& name,
                            const ScanOptions& options) {
  ScanResult result;
  uint64_t read = 0;
  if (EndsWith(name, ".deb")) {
    ScanDeb(name, OpenMemory(bytes), options, &result, &read);
  } else if (EndsWith(name, ".rpm")) {
    ScanRpm(name, bytes, options, &result, &read);
  } else {
    ScannedFile file{name, "", bytes.size(), {}, {}};
    if (MayCarryDeviceCode(bytes)) file.objects = FindDeviceCode(bytes, name, &file.errors);
    if (!file.objects.empty() || !file.errors.empty()) result.files.push_back(std::move(file));
  }
  result.files_scanned = 1;
  result.bytes_scanned = bytes.size();
  return result;
}

namespace {

bool Exists(const std::string& path) {
  struct stat info{};
  return stat(path.c_str(), &info) == 0;
}

// A regular, non-empty file of an installed package, to scan.
void AddInstalledFile(const std::string& base, const std::string& path, const std::string& package,
                      std::vector<std::pair<std::string, std::string>>* work) {
  if (path.empty() || path[0] != '/') return;
  struct stat info{};
  const std::string full = base + path;
  if (lstat(full.c_str(), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    work->emplace_back(full, package);
  }
}

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) {
    fields.push_back(line.substr(start, tab - start));
  }
  fields.push_back(line.substr(start));
  return fields;
}

// dpkg's database, read through dpkg-query (its format is dpkg's own).
void ReadDpkgDatabase(const std::string& root, const std::string& base, ScanResult* result,
                      std::vector<std::pair<std::string, std::string>>* work) {
  const std::string query = "dpkg-query" + (base.empty() ? "" : " --root=" + ShellQuote(root));
  std::string listing;
  if (!RunCommand(query + " -W -f '${binary:Package}\\t${Version}\\t${Architecture}\\t" +
                      "${db:Status-Status}\\t${X-ROCm-GPU-Architecture}\\n' 2>/dev/null",
                  &listing)) {
    result->errors.push_back("dpkg-query" + (base.empty() ? "" : " --root=" + root) +
                             " cannot list the packages of " + base +
                             "/var/lib/dpkg: install dpkg, or check the database");
    return;
  }
  const size_t first_package = result->packages.size();
  std::vector<std::string> names;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    const std::vector<std::string> fields = SplitTabs(line);
    if (fields.size() != 5 || fields[3] != "installed") continue;
    PackageInfo package{fields[0].substr(0, fields[0].find(':')),
                        fields[1],
                        fields[2],
                        "dpkg",
                        "dpkg database",
                        std::nullopt};
    if (!Trim(fields[4]).empty()) package.declared_gpus = SplitGpuList(fields[4]);
    names.push_back(fields[0]);
    result->packages.push_back(std::move(package));
  }
  // Each package's files: `dpkg-query -L` prints one block per package,
  // blank-line separated, in the order asked.
  for (size_t first = 0; first < names.size(); first += 256) {
    const size_t end = std::min(names.size(), first + 256);
    std::string command = query + " -L";
    for (size_t i = first; i < end; ++i) command += " " + ShellQuote(names[i]);
    std::string files;
    RunCommand(command + " 2>/dev/null", &files);
    size_t index = first;
    std::istringstream paths(files);
    for (std::string path; std::getline(paths, path);) {
      if (path.empty()) {
        ++index;
        continue;
      }
      if (index < end) {
        AddInstalledFile(base, path, result->packages[first_package + index].name, work);
      }
    }
  }
}

// rpm's database (Fedora's /usr/lib/sysimage/rpm, or /var/lib/rpm), read
// through rpm: one query gives each package and its files.
void ReadRpmDatabase(const std::string& root, const std::string& dbpath, ScanResult* result,
                     std::vector<std::pair<std::string, std::string>>* work) {
  const std::string base = root == "/" ? "" : root;
  const std::string command = "rpm --root " + ShellQuote(root) + " --dbpath " + ShellQuote(dbpath) +
                              " -qa --qf '@\\t%{NAME}\\t%{VERSION}-%{RELEASE}\\t%{ARCH}\\t"
                              "[%{PROVIDENAME} ]\\n[%{FILENAMES}\\n]' 2>/dev/null";
  std::string listing;
  if (!RunCommand(command, &listing)) {
    result->errors.push_back("rpm cannot list the packages of " + base + dbpath +
                             ": install rpm, or check the database (rpm --root " + root +
                             " --dbpath " + dbpath + " -qa)");
    return;
  }
  std::istringstream lines(listing);
  std::string package;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("@\t", 0) == 0) {
      const std::vector<std::string> fields = SplitTabs(line);
      if (fields.size() != 5) continue;
      PackageInfo info{fields[1], fields[2], fields[3], "rpmdb", "rpm database", std::nullopt};
      std::istringstream provides(fields[4]);
      for (std::string provide; provides >> provide;) {
        if (provide.rfind("isapack-gpu(", 0) == 0 && provide.back() == ')') {
          if (!info.declared_gpus) info.declared_gpus.emplace();
          info.declared_gpus->push_back(provide.substr(12, provide.size() - 13));
        }
      }
      package = info.name;
      result->packages.push_back(std::move(info));
      continue;
    }
    if (!package.empty()) AddInstalledFile(base, line, package, work);
  }
}

}  // namespace

ScanResult ScanInstalled(const ScanOptions& options, const std::string& root) {
  ScanResult result;
  const std::string base = root == "/" ? "" : root;
  std::vector<std::pair<std::string, std::string>> work;
  bool found = false;
  if (Exists(base + "/var/lib/dpkg/status")) {
    found = true;
    ReadDpkgDatabase(root, base, &result, &work);
  }
  // A Debian system with the rpm tool has no rpm database of its own (rpm
  // keeps one in $HOME); a root with Fedora's layout has one.
  for (const char* dbpath : {"/usr/lib/sysimage/rpm", "/var/lib/rpm"}) {
    const std::string dir = base + dbpath;
    if (Exists(dir + "/rpmdb.sqlite") || Exists(dir + "/Packages.db") ||
        Exists(dir + "/Packages")) {
      found = true;
      ReadRpmDatabase(root, dbpath, &result, &work);
      break;
    }
  }
  if (!found) {
    result.errors.push_back(
        "no package database under " + root +
        ": --installed reads dpkg's (var/lib/dpkg/status) and rpm's (usr/lib/sysimage/rpm or "
        "var/lib/rpm); pass the package files instead");
    return result;
  }
  ScanFiles(work, options, &result);
  return result;
}

}  // namespace isapack::scan
