#pragma once
// What the bootstrap (python/tct_run_bootstrap) wrote: one JSON file per Python process
// that imported torch, raw facts only (per call site the duration of every call, the calls
// during which Dynamo compiled, the calls that ran no compiled graph, recompile-limit hits).
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/breakdown.hpp"

namespace tct::run {

// The calls whose tensor arguments had these shapes; an argument that is no tensor is nullopt.
struct ShapeCount {
  std::vector<std::optional<std::vector<int64_t>>> args;
  std::vector<std::pair<std::string, std::vector<int64_t>>> kwargs;
  int64_t calls = 0;
};

// The calls the bootstrap ran under torch's profiler, in short windows
// (python/tct_run_bootstrap/tct_run_sampler.py): each one's index among the site's calls, its
// bracket event's duration and the events inside it, raw.
struct SampledCalls {
  std::vector<std::pair<size_t, size_t>> windows;  // (first call index, calls)
  std::vector<std::string> names;                  // event names, indexed by bench::SampledEvent::name
  std::vector<size_t> index;                       // the sampled calls' indexes, in order
  std::vector<bench::SampledCall> calls;           // the same calls' events, in the same order
  // The same calls' cache lookups, read on each window's last call: the 1-based position of the
  // entry it hit (0: not known, the call compiled; -1: not read) and how many entries the frame
  // had before it. A call that read them is not cut into parts (the reading slows its lookup).
  std::vector<int> hit, entries;
  std::vector<std::string> chain;  // the site's own frame's cache entries (compile ids) in lookup order, last seen
  int64_t sampler_ns = 0;          // the sampler's own work: profiler starts, stops, reading
  int skipped = 0;                 // windows not opened: the job's own profiler was on
  std::string error;               // why sampling stopped ("" when it did not)

  // The calls right after a window still pay for it (the first about 3x a steady call, the next
  // ones up to 10% more, settling within 16: measured on tests/e2e/jobs/shape_cycle_job.py):
  // left out of the steady calls as the call after a compile is, and counted in sampling's cost.
  static constexpr size_t kSettling = 16;
  bool settling(size_t call) const;
};

struct SiteRecord {
  int index = 0;
  std::string kind;       // "function" or "module"
  std::string name;       // the function's qualname, the module's class
  std::string code_name;  // the code object Dynamo compiles (joins the trace's frames)
  std::string code_file;
  int code_line = 0;
  std::string site_file;  // where torch.compile was called
  int site_line = 0;
  int objects = 0;                    // compiled objects made there
  std::vector<int64_t> durations_ns;  // every call, in order
  std::vector<size_t> compile_calls;  // indexes of calls during which Dynamo compiled
  std::vector<size_t> eager_calls;    // indexes of calls that ran no compiled graph
  // CUDA event time of calls (call index, ns), where CUDA was in use at torch.compile.
  std::vector<std::pair<size_t, int64_t>> device_ns;
  // (call index, compile id "1/3") of every compile Dynamo started during the site's calls
  // (those of a nested site's calls excluded): the frames the site owns, whatever their names.
  std::vector<std::pair<size_t, std::string>> compile_ids;
  std::optional<bool> outputs_need_grad;  // a compiling call's output needed grad (training)
  // tct job (TCT_RUN_CALL_ENDS=1): each call's end on CLOCK_MONOTONIC, the clock tct launched
  // the job on; empty otherwise.
  std::vector<int64_t> ends_ns;
  std::string wrapper;  // "ddp": torch.compile was given a DistributedDataParallel
  // The code's positional parameter names (a module's self left out) and the calls counted per
  // shape of their tensor arguments (positional by position, keyword by name).
  std::vector<std::string> arg_names;
  std::vector<ShapeCount> shapes;
  int64_t shapes_other_calls = 0;  // calls past the bootstrap's cap on distinct shapes
  // Which calls were counted: every call up to the shapes_all_calls-th, then a random 1 in
  // shapes_one_in (0 and 0: every call, as a record without the field counted).
  int64_t shapes_all_calls = 0, shapes_one_in = 0;
  std::optional<SampledCalls> sampled;  // none where sampling was off (--no-breakdown, eager runs)

  // "train.py:44 MLP": one site across processes and runs.
  std::string key() const;
};

struct LimitHit {
  std::optional<int> site;  // SiteRecord::index of the call in progress
  std::optional<size_t> call;
  std::string limit;  // "recompile_limit", "accumulated_recompile_limit"
  std::optional<int> value;
  std::string function, last_reason, message;
  std::string compile_id;  // the compile the limit stopped ("1/8"): its frame
};

// tct job's shipped mode: what torch.compiler.load_cache_artifacts and save_cache_artifacts did.
struct CacheArtifacts {
  std::optional<int64_t> loaded_bytes, load_ns, saved_bytes, save_ns;
  std::string load_error, save_error;
};

struct ProcessRecord {
  std::string path;
  int64_t pid = 0;
  std::optional<int> rank, local_rank, world_size;
  std::string torch, python, stance;
  bool force_eager = false;
  std::string try_fix;          // the fix --try-fixes had this run apply ("ddp_wrap_order"), "" for the job as written
  bool graph_counting = false;  // eager_calls can be trusted
  bool final = false;           // written at exit (not only a periodic flush)
  std::string ended_by;         // the signal it was ending of when it wrote ("SIGTERM"), "" at a normal exit
  std::vector<std::string> argv;
  std::optional<int> threads;         // torch.get_num_threads() in the job
  std::map<std::string, int> limits;  // Dynamo's recompile limits as the job left them
  std::vector<SiteRecord> sites;
  std::vector<LimitHit> limit_hits;
  std::optional<CacheArtifacts> artifacts;  // none unless tct job asked for a load or a save
};

// A worker a launcher (torchrun's elastic agent) found ended with an error, as it saw it.
struct WorkerFailure {
  int64_t launcher_pid = 0, pid = 0;
  int local_rank = 0;
  int exitcode = 0;   // torch's: negative for a signal (-9: SIGKILL)
  double time_s = 0;  // when the launcher saw it (seconds since the epoch)
};

struct RecordSet {
  std::vector<ProcessRecord> processes;  // sorted by rank, then pid
  std::vector<WorkerFailure> failures;   // from launcher-*.json, in the order the launchers saw them
  std::vector<std::string> unreadable;   // files skipped: "path: why"
};

// Reads every process-*.json under dir. Tolerant: a file that does not parse (a process
// killed mid-write leaves only its .tmp, never a torn file) is listed, not fatal.
RecordSet read_records(const std::string& dir);
// One file's text -> record; throws std::exception on malformed JSON.
ProcessRecord parse_record(const std::string& text);

}  // namespace tct::run
