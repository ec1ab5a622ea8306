#pragma once
// What one start's TORCH_TRACE says about its compile: time per compiler phase (from the
// chromium_event records torch writes into the trace: entire_frame_compile, backend_compile,
// inductor_compile, compile_file) and every cache lookup with its state, a bypass's reason
// and the parts of its key (fx_graph_cache_*, aotautograd_cache_* artifacts). A sink of the
// trace reader (src/trace/reader.hpp); pure but for read_trace_facts, which reads the logs.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.hpp"
#include "startup/result.hpp"
#include "trace/reader.hpp"

namespace tct::startup {

// A lookup with its key's parts: name -> (hash, value), as torch logs them ("[hash] name: value").
struct KeyedLookup {
  CacheLookup lookup;
  std::map<std::string, std::pair<std::string, std::string>> components;
};

struct TraceFacts {
  bool read = false;  // a log was found and held records
  // The compile's phases (Dynamo, AOTAutograd, Inductor, CppCompiler, CacheLoad) and their
  // sum over every frame compiled: what the first call spent compiling.
  std::map<Phase, Nanoseconds> phases;
  Nanoseconds compiling{0};
  std::vector<KeyedLookup> lookups;
};

class TraceFactsSink : public trace::Sink {
 public:
  bool wants_payload(const trace::Record& r) override;
  void on_record(const trace::Record& r, std::string_view payload) override;
  // The phases from the events seen so far.
  TraceFacts finish();

 private:
  struct Span {
    std::string name;
    double begin_us = 0, end_us = 0;
    std::string cache_state;
  };
  void on_event(std::string_view payload);
  void on_lookup(const std::string& name, std::string_view payload);
  std::map<std::string, std::vector<Span>> open_;  // by name: begun, not yet ended
  std::vector<Span> spans_;
  std::vector<KeyedLookup> lookups_;
  bool any_ = false;
};

// The logs under a TORCH_TRACE folder, read; an empty or missing folder gives read = false.
TraceFacts read_trace_facts(const std::string& dir);

// "name: before -> after" for each part of the key that differs between the lookup that
// filled the cache and the one that missed it (a part in one only says so).
std::vector<std::string> changed_components(const KeyedLookup& saved, const KeyedLookup& missed);

// Each warm or shipped miss, matched with the lookup of the same cache in the same order by the
// compiled start that filled the cache (`saved`), says which parts of the key changed.
void explain_misses(std::vector<CacheLookup>& lookups, const std::vector<KeyedLookup>& missed,
                    const std::vector<KeyedLookup>& saved);

}  // namespace tct::startup
