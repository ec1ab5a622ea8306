#pragma once
// What `tct startup` found, as a value: for each start mode (eager, torch.compile with empty
// caches, with the local caches of a previous process, with shipped cache artifacts, an
// AOTInductor package loaded from Python), fresh processes timed from launch to their first
// output, each split into phases, with the cache lookups its TORCH_TRACE recorded. The mode
// summaries, break-evens and the verdict are decided once (summary.cpp) and stored here;
// startup/json.cpp is the one place the result becomes doc["startup"]
// (schema/startup.schema.json) and is read back; the renderings print its fields.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.hpp"

namespace tct::startup {

// How a process reaches its first output.
enum class Mode {
  Eager,       // no compile
  Cold,        // torch.compile, empty cache folders
  Warm,        // torch.compile, the local caches a previous process filled
  Shipped,     // torch.compile, empty cache folders, load_cache_artifacts of a previous process's save
  AotiPython,  // an AOTInductor package (torch.export + aoti_compile_and_package), aoti_load_package
  AotiCpp,     // the same package, loaded and run by tct-aoti (libtorch's AOTIModelPackageLoader)
};
inline constexpr Mode kAllModes[] = {Mode::Eager,   Mode::Cold,       Mode::Warm,
                                     Mode::Shipped, Mode::AotiPython, Mode::AotiCpp};
std::string_view to_string(Mode m);  // "eager", "cold", "warm", "shipped", "aoti", "aoti-cpp"
std::optional<Mode> parse_mode(std::string_view s);
std::string_view describe(Mode m);  // "torch.compile, empty caches", ...
bool compiles(Mode m);              // runs compiled code (every mode but eager)

// Where a start spent its time, in the order it spends it.
enum class Phase {
  Interpreter,  // launch to the process's first line: the interpreter (or tct-aoti and libtorch) loading
  ImportTorch,
  LoadArtifacts,  // torch.compiler.load_cache_artifacts
  BuildModel,     // the target's factory: the model and its inputs
  LoadInputs,     // an AOTInductor start: the saved example inputs
  LoadPackage,    // aoti_load_package
  CompileSetup,   // torch.compile(...) itself: importing dynamo and inductor
  Dynamo,         // tracing the frame, guards (entire_frame_compile less backend_compile)
  AotAutograd,    // backend_compile less inductor, on an AOTAutograd cache miss
  Inductor,       // inductor_compile less the C++ compiler, on an FX graph cache miss
  CppCompiler,    // inductor's compile_file: the C++ compiler, precompiled header included
  CacheLoad,      // a cache hit's lookup and load (AOTAutograd or FX graph), less the C++ compiler
  FirstCall,      // what is left of the first call: running it, guards, lazy imports
};
inline constexpr Phase kAllPhases[] = {Phase::Interpreter, Phase::ImportTorch, Phase::LoadArtifacts, Phase::BuildModel,
                                       Phase::LoadInputs,  Phase::LoadPackage, Phase::CompileSetup,  Phase::Dynamo,
                                       Phase::AotAutograd, Phase::Inductor,    Phase::CppCompiler,   Phase::CacheLoad,
                                       Phase::FirstCall};
std::string_view to_string(Phase p);  // "interpreter", "import_torch", ...
std::optional<Phase> parse_phase(std::string_view s);
std::string_view describe(Phase p);  // "import torch", "C++ compiler", ...

// One cache lookup as the trace recorded it (fx_graph_cache_*, aotautograd_cache_*).
struct CacheLookup {
  std::string cache;   // "fx_graph" or "aot_autograd"
  std::string state;   // "hit", "miss", "bypass"
  std::string reason;  // a bypass's reason, in torch's words
  // A miss where a previous process saved an entry (warm, shipped): the parts of the cache
  // key that differ from that process's, "name: before -> after" (torch logs the key's parts).
  std::vector<std::string> changed;
};

// torch's own counters of the same lookups (the check on what the trace says).
struct CacheCounters {
  int fx_hit = 0, fx_miss = 0, fx_bypass = 0, aot_hit = 0, aot_miss = 0, aot_bypass = 0;
};

// The outputs of the first call of the C++ runner against eager's, as the agent measured
// them; `match` decided in run.cpp.
struct OutputCheck {
  bool shape_equal = false;
  double max_abs_diff = 0.0 / 0.0, max_abs_expected = 0.0 / 0.0;
  bool match = false;
};

// A call site of a command's start (tct startup -- CMD): the end of its first call since launch.
struct SiteStart {
  std::string key, name;
  Nanoseconds first_output = kNotMeasured;
  Nanoseconds per_call = kNotMeasured;  // median of its steady calls (tct run's definition)
};

// One fresh process.
struct Start {
  Nanoseconds first_output = kNotMeasured;  // launch to the first output, synchronized
  std::map<Phase, Nanoseconds> phases;      // they add up to first_output
  std::vector<CacheLookup> lookups;
  std::optional<CacheCounters> counters;
  std::vector<double> steady_ns;  // calls after the first output
  bool trace_read = false;        // its TORCH_TRACE was found and read
  // A command's start: its call sites, the first output's first; what ended it when it failed
  // or timed out ("" when it ran to the end: a failed start is recorded, its time left out).
  std::vector<SiteStart> sites;
  std::string error;
};

// A call site's first outputs over a command's starts, as the mode's are summarized.
struct SiteSummary {
  std::string key, name;
  Nanoseconds median = kNotMeasured, low = kNotMeasured, high = kNotMeasured;
  double coverage = 0;
};

// A mode's starts and what they add up to.
struct ModeResult {
  Mode mode = Mode::Eager;
  std::vector<Start> starts;
  std::string skipped;  // why the mode did not run ("" when it ran)
  std::string error;    // why it failed ("" when it ran to the end)
  // Decided in summary.cpp:
  Nanoseconds median = kNotMeasured, low = kNotMeasured, high = kNotMeasured;  // of first_output
  double coverage = 0;                         // of [low, high] for the median (order statistics)
  std::map<Phase, Nanoseconds> phases;         // the median start's (they add up to its time)
  Nanoseconds per_call = kNotMeasured;         // steady state after the first output
  std::optional<double> break_even_calls;      // against eager; none: it never pays off
  std::optional<double> shipped_bytes;         // what must be shipped (artifacts, package)
  Nanoseconds package_compile = kNotMeasured;  // AOTInductor: export + package, once
  std::vector<CacheLookup> lookups;            // the median start's
  std::optional<OutputCheck> check;            // aoti-cpp: its outputs against eager's
  std::vector<SiteSummary> sites;              // a command's call sites, in their first starts' order
  bool ok() const { return skipped.empty() && error.empty() && !starts.empty(); }
};

// Which mode gives its first output soonest. `tied`: modes whose interval overlaps the
// fastest's, so a re-run may order them otherwise.
struct Verdict {
  std::optional<Mode> fastest;
  std::vector<Mode> tied;
  std::optional<Mode> fastest_compiled;  // of the modes that run compiled code
  std::vector<Mode> compiled_tied;
};

// A warm or shipped start that did not hit its caches: which cache, and why.
struct CacheFinding {
  Mode mode = Mode::Warm;
  CacheLookup lookup;
};

// A warm or shipped start whose cache lookups hit but which still spent a tenth or more of
// its start in the C++ compiler: what the compiler built was not in what the start loaded.
struct CompileFinding {
  Mode mode = Mode::Shipped;
  Nanoseconds cpp_compiler = kNotMeasured, first_output = kNotMeasured;
};

struct StartupResult {
  std::string target;                // FILE:FACTORY, or the command's words joined
  std::vector<std::string> command;  // tct startup -- CMD: the command as run ([] for FILE:FACTORY)
  int repeats = 0;
  std::string backend = "inductor";
  std::vector<std::string> deploy_env;  // NAME=VALUE set in the warm and shipped starts only
  std::vector<ModeResult> modes;
  Verdict verdict;                             // decided in summary.cpp
  std::vector<CacheFinding> findings;          // decided in summary.cpp
  std::vector<CompileFinding> still_compiled;  // decided in summary.cpp

  const ModeResult* find(Mode m) const;
};

}  // namespace tct::startup
