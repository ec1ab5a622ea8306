#pragma once
// --allocator: which malloc state the target's processes run in. On the CPU the allocator
// can decide the verdict (timm resnet18, 2x3x64x64, 2 threads: compiled 15.5 ms per call
// with glibc as a process starts, 10.5 ms once one 30 MiB block was freed, 8.5 ms with
// tcmalloc), so the state is part of what a measurement names.
//
// The states:
//   system    glibc's malloc (or whatever the user's environment preloads) as a user's own
//             process meets it: no settling block, no preload of ours
//   settled   glibc after one 30 MiB block is freed (the agent's timing.settle_allocator):
//             its mmap threshold is raised, as in a process that already ran something big
//   tcmalloc  LD_PRELOAD of gperftools' tcmalloc (Debian: libtcmalloc-minimal4)
//   jemalloc  LD_PRELOAD of jemalloc (Debian: libjemalloc2)
// The child learns the state from its environment: TCT_SETTLE_ALLOCATOR=0|1 and LD_PRELOAD.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tct::core {

enum class AllocatorState { System, Settled, Tcmalloc, Jemalloc };

// Every state, in the order reports list them.
const std::vector<AllocatorState>& all_allocator_states();

// "system", "settled", "tcmalloc", "jemalloc": the flag's and the JSON's values.
std::string to_string(AllocatorState s);

// Parses the flag's value; throws tct::Error (usage, exit 2) naming the valid ones otherwise.
AllocatorState parse_allocator(const std::string& text);

// A few words for reports: "glibc malloc as a process starts", "tcmalloc (LD_PRELOAD)".
std::string describe(AllocatorState s);

// Whether the state needs a library preloaded (tcmalloc, jemalloc).
bool needs_library(AllocatorState s);

// The library a preloaded state needs, found by known file names in the library folders of
// Debian, Fedora and the usual prefixes (the packages scripts/setup.sh installs put them in
// /usr/lib/x86_64-linux-gnu). `exists` is the file test (a parameter so tests can fake it).
// nullopt when absent (or when the state needs none).
using FileExists = std::function<bool(const std::string&)>;
std::optional<std::string> find_allocator_library(AllocatorState s, const FileExists& exists);
std::optional<std::string> find_allocator_library(AllocatorState s);

// The real file test (follows a .so.4 -> .so.4.5.10 link).
bool library_file_exists(const std::string& path);

// Where find_allocator_library looks, for the message when nothing is found.
std::vector<std::string> allocator_library_candidates(AllocatorState s);

// The environment the child gets for the state: TCT_SETTLE_ALLOCATOR ("1" settled, else
// "0") and, for a preloaded state, LD_PRELOAD=library (replacing the user's: two mallocs in
// one process is not a state anyone runs).
std::vector<std::pair<std::string, std::string>> allocator_env(AllocatorState s, const std::string& library);

// What a user puts before their own command to get the state: "LD_PRELOAD=/usr/lib/...so.4",
// for settled the glibc settings that hold the mmap threshold where the settling block puts
// it (MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_), "" for system.
std::string allocator_fix(AllocatorState s, const std::string& library);

}  // namespace tct::core
