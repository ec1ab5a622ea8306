#include "core/allocator.hpp"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "errors.hpp"

namespace tct::core {
namespace {

// Library folders of Debian/Ubuntu (multiarch), Fedora/RHEL and the usual prefixes.
const std::vector<std::string>& library_dirs() {
  static const std::vector<std::string> dirs = {"/usr/lib/x86_64-linux-gnu",
                                                "/usr/lib/aarch64-linux-gnu",
                                                "/lib/x86_64-linux-gnu",
                                                "/lib/aarch64-linux-gnu",
                                                "/usr/lib64",
                                                "/usr/lib",
                                                "/usr/local/lib",
                                                "/opt/homebrew/lib"};
  return dirs;
}

// File names, best first: tcmalloc_minimal is what Debian's libtcmalloc-minimal4 ships (the
// allocator without the profiler); the full libtcmalloc serves the same malloc.
std::vector<std::string> library_names(AllocatorState s) {
  switch (s) {
    case AllocatorState::Tcmalloc: return {"libtcmalloc_minimal.so.4", "libtcmalloc.so.4"};
    case AllocatorState::Jemalloc: return {"libjemalloc.so.2", "libjemalloc.so.1"};
    default: return {};
  }
}

// glibc raises its mmap threshold to the size of a freed mmapped block and its trim
// threshold to twice that (malloc.c, free of an mmapped chunk): these fix both where the
// agent's 30 MiB settling block puts them. The MALLOC_*_ names are glibc's own environment
// aliases of its malloc tunables.
constexpr long kSettledMmapThreshold = 30L << 20;

}  // namespace

const std::vector<AllocatorState>& all_allocator_states() {
  static const std::vector<AllocatorState> all = {AllocatorState::System, AllocatorState::Settled,
                                                  AllocatorState::Tcmalloc, AllocatorState::Jemalloc};
  return all;
}

std::string to_string(AllocatorState s) {
  switch (s) {
    case AllocatorState::System: return "system";
    case AllocatorState::Settled: return "settled";
    case AllocatorState::Tcmalloc: return "tcmalloc";
    case AllocatorState::Jemalloc: return "jemalloc";
  }
  return "system";
}

AllocatorState parse_allocator(const std::string& text) {
  for (auto s : all_allocator_states())
    if (text == to_string(s)) return s;
  throw usage_error(fmt::format("--allocator '{}' is not system, settled, tcmalloc or jemalloc", text),
                    "system: malloc as a process starts; settled: glibc after one big block; tcmalloc or "
                    "jemalloc: preloaded");
}

std::string describe(AllocatorState s) {
  switch (s) {
    case AllocatorState::System: return "malloc as a process starts";
    case AllocatorState::Settled: return "glibc malloc, settled (one 30 MiB block freed first)";
    case AllocatorState::Tcmalloc: return "tcmalloc (LD_PRELOAD)";
    case AllocatorState::Jemalloc: return "jemalloc (LD_PRELOAD)";
  }
  return "";
}

bool needs_library(AllocatorState s) { return s == AllocatorState::Tcmalloc || s == AllocatorState::Jemalloc; }

std::vector<std::string> allocator_library_candidates(AllocatorState s) {
  std::vector<std::string> out;
  for (const auto& name : library_names(s))
    for (const auto& dir : library_dirs()) out.push_back(dir + "/" + name);
  return out;
}

std::optional<std::string> find_allocator_library(AllocatorState s, const FileExists& exists) {
  for (const auto& path : allocator_library_candidates(s))
    if (exists(path)) return path;
  return std::nullopt;
}

bool library_file_exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::optional<std::string> find_allocator_library(AllocatorState s) {
  return find_allocator_library(s, library_file_exists);
}

std::vector<std::pair<std::string, std::string>> allocator_env(AllocatorState s, const std::string& library) {
  std::vector<std::pair<std::string, std::string>> env = {
      {"TCT_SETTLE_ALLOCATOR", s == AllocatorState::Settled ? "1" : "0"}};
  if (needs_library(s) && !library.empty()) env.emplace_back("LD_PRELOAD", library);
  return env;
}

std::string allocator_fix(AllocatorState s, const std::string& library) {
  switch (s) {
    case AllocatorState::System: return "";
    case AllocatorState::Settled:
      return fmt::format("MALLOC_MMAP_THRESHOLD_={} MALLOC_TRIM_THRESHOLD_={}", kSettledMmapThreshold,
                         2 * kSettledMmapThreshold);
    case AllocatorState::Tcmalloc:
    case AllocatorState::Jemalloc: return library.empty() ? "" : "LD_PRELOAD=" + library;
  }
  return "";
}

}  // namespace tct::core
