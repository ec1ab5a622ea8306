#pragma once
// A warning as a value: which kind it is and the facts its words need, decided where the
// facts are (bench/analysis.cpp, bench/allocator_finding.cpp, explain/warnings.cpp,
// expect/classifier.cpp, expect/run.cpp, and the commands in cli/ for their own). Each kind's
// message, hint and figure are written in report/warning_wording.cpp, its severity and title
// in the catalog (report/warnings.cpp); to_json makes the {code, message, hint, figure, row}
// every document's "warnings" array holds. A document read back keeps its warnings as
// written (AsWritten): their words, not their facts, are what a document stores.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/warnings.hpp"

namespace tct::report {

// The kinds, one struct each; the code each is written under is in warning_wording.cpp.
namespace kind {

// A bench row failed; its numbers were measured before the failure.
struct RowFailed {
  std::string stage, message, hint;
  bool operator==(const RowFailed&) const = default;
};
// Dynamo recompiled while the row was timed; that many block pairs were dropped.
struct RecompiledDuringMeasurement {
  int recompiles = 0, blocks_dropped = 0;
  bool operator==(const RecompiledDuringMeasurement&) const = default;
};
// Dynamo compiled no graph: the "compiled" timings are eager code. The skip's reason and
// its cause (the break's headline), when torch gave them.
struct NothingCompiled {
  bool reason_given = false;  // torch named why it skipped
  std::string skip_reason, cause;
  bool operator==(const NothingCompiled&) const = default;
};
struct GraphBreaksInRow {
  int breaks = 0;
  bool operator==(const GraphBreaksInRow&) const = default;
};
// The warm-up curve never settled (stats' reason name, "" when unknown).
struct NoSteadyState {
  std::string reason;
  bool operator==(const NoSteadyState&) const = default;
};
// The worst side's outlier fraction; busy_machine: other processes loaded the CPU, so a
// longer --budget cannot help.
struct Outliers {
  double fraction = 0;
  bool busy_machine = false;
  bool operator==(const Outliers&) const = default;
};
// The budget ran out with the interval wider than --precision (relative half-widths; NaN:
// too few samples for an interval).
struct PrecisionNotReached {
  double half_width = 0, precision = 0;
  bool operator==(const PrecisionNotReached&) const = default;
};
struct SpeedupInconclusive {
  double low = 0, high = 0;
  bool busy_machine = false;
  bool operator==(const SpeedupInconclusive&) const = default;
};
struct SlowerThanEager {
  double speedup = 0;
  bool operator==(const SlowerThanEager&) const = default;
};
struct WarmCompileMissedCache {
  bool operator==(const WarmCompileMissedCache&) const = default;
};
struct CudagraphsSkipped {
  int skips = 0;
  bool operator==(const CudagraphsSkipped&) const = default;
};
// Calls timed in batches of this many (eager and compiled alike).
struct BatchedCalls {
  int calls_per_sample = 0;
  bool operator==(const BatchedCalls&) const = default;
};
// bench's --no-check: outputs were not compared.
struct CheckSkipped {
  bool operator==(const CheckSkipped&) const = default;
};
struct EagerNondeterministic {
  bool operator==(const EagerNondeterministic&) const = default;
};
// Compiled outputs differ from eager in `leaves` leaves; the first one's path and reason.
struct OutputMismatch {
  std::size_t leaves = 0;
  std::string first_path, first_reason;
  bool operator==(const OutputMismatch&) const = default;
};
// The machine while the rows sampled: the highest load average and involuntary context
// switches per second, its CPUs.
struct MachineFigures {
  double load = 0, switches = 0;
  int cpus = 0;
  bool operator==(const MachineFigures&) const = default;
};
// More torch threads than the cores other processes left free.
struct Oversubscribed {
  MachineFigures machine;
  int threads = 0, suggested_threads = 0;
  double others = 0;  // CPUs other processes kept busy
  bool operator==(const Oversubscribed&) const = default;
};
// Other processes loaded the CPU (threads fit the free cores).
struct MachineLoaded {
  MachineFigures machine;
  bool operator==(const MachineLoaded&) const = default;
};
// The allocator's state moves bench's speedup (bench/allocator_finding.hpp decides).
struct AllocatorMovesResult {
  struct State {
    std::string name;
    double speedup = 0;
    bool operator==(const State&) const = default;
  };
  std::vector<State> states;                                // the headline's first, then the measured states
  bool differs = false;                                     // a state's speedup lies outside the headline's interval
  double fastest_compiled_ns = 0, slowest_compiled_ns = 0;  // of every state; NaN when none
  bool processes_disagree = false;
  std::vector<double> process_speedups;  // the headline's processes, when they disagree
  // The state with the fastest compiled call; name empty when none has one.
  struct Best {
    std::string name, description, fix;  // fix: how to run a program in it ("" for glibc as is)
    bool headline = false;
    double compiled_ns = 0, speedup = 0;
    bool operator==(const Best&) const = default;
  } best;
  bool operator==(const AllocatorMovesResult&) const = default;
};
// torch is too old for explain's logged compiled run (`what`: the agent's sentence).
struct LoggedRunUnsupported {
  std::string what;
  bool operator==(const LoggedRunUnsupported&) const = default;
};
// torch._dynamo.explain and the logged compiled run disagree; the first disagreement.
struct ExplainViewsDisagree {
  std::size_t count = 0;
  std::string first;
  bool operator==(const ExplainViewsDisagree&) const = default;
};
// Frames torch.compile skipped (ran eagerly), by title; the first one's reason and break.
struct SkippedFrames {
  std::vector<std::string> titles;
  std::string first_skip_reason, first_break_kind;
  int first_break_line = 0;
  bool operator==(const SkippedFrames&) const = default;
};
// explain's --max-graph-breaks gate failed.
struct GraphBreakGateFailed {
  int breaks = 0, max_breaks = 0;
  std::size_t skipped_frames = 0;
  bool operator==(const GraphBreakGateFailed&) const = default;
};
// expect's profile, read against the machine's load. The share of a call outside operators
// across the profiled calls (its 10% and 90% quantiles), and, when the evidence comes from
// the fastest calls' envelope, the envelope's share.
struct ProfileLoadUnstable {
  double outside_low = 0, outside_high = 0;
  std::optional<double> envelope_outside;
  bool operator==(const ProfileLoadUnstable&) const = default;
};
// A compiled call took `ratio` times as long during the profile as with the ceilings.
struct ProfileSlowedDown {
  double ratio = 0;
  bool operator==(const ProfileSlowedDown&) const = default;
};
// The share outside operators in the profile's first and second halves.
struct ProfileLoadDrift {
  double first = 0, second = 0;
  bool operator==(const ProfileLoadDrift&) const = default;
};
// expect: the workload ran faster than the measured FLOP/s ceiling (the roofline fraction is
// left out).
struct AboveRoofline {
  bool operator==(const AboveRoofline&) const = default;
};
// expect's predicted range models inductor's default; the bench ran this backend and mode.
struct PredictionModelsDefault {
  std::string backend, mode;
  bool operator==(const PredictionModelsDefault&) const = default;
};
// expect --validate: the measured speedup's interval was too wide to check the prediction.
struct ValidationInconclusive {
  bool operator==(const ValidationInconclusive&) const = default;
};
// expect: the ceilings' matmul failed (the agent's error).
struct NoFlopCeiling {
  std::string error;
  bool operator==(const NoFlopCeiling&) const = default;
};
// expect: FLOPs and bytes could not be counted (the agent's error).
struct FlopsNotCounted {
  std::string error;
  bool operator==(const FlopsNotCounted&) const = default;
};
// expect: its own logged compiled run failed, so what torch.compile captures is unknown.
struct CaptureUnchecked {
  std::string error;
  bool operator==(const CaptureUnchecked&) const = default;
};
// expect --sweep: `failed` of `total` points failed.
struct SweepPointsFailed {
  std::size_t failed = 0, total = 0;
  bool operator==(const SweepPointsFailed&) const = default;
};
// suite --resume dropped `dropped` entries of `file` outside this run's share.
struct ResumeLeftOut {
  std::size_t dropped = 0;
  std::string file;
  bool operator==(const ResumeLeftOut&) const = default;
};
// An audit step failed; the error's message and hint ("" when it gave none).
struct AuditStepFailed {
  std::string step, message, hint;
  bool operator==(const AuditStepFailed&) const = default;
};
// trace read past `damaged` damaged lines, records or payloads; where the first was.
struct TraceDamaged {
  std::uint64_t damaged = 0;
  std::string first_at;
  bool operator==(const TraceDamaged&) const = default;
};
// merge: the shards ran on `versions` different torch versions. Written under its own code,
// one the catalog does not list (it reads as "other", as it always has).
struct MixedEnvironments {
  std::size_t versions = 0;
  bool operator==(const MixedEnvironments&) const = default;
};
// A warning whose facts are not known here: read back from a document (any code, a newer
// version's too), or a sweep point's bench warning as expect words it. Rendered as it was written.
struct AsWritten {
  std::string code, message, hint;
  std::optional<double> figure;
  bool operator==(const AsWritten&) const = default;
};

}  // namespace kind

using WarningKind =
    std::variant<kind::RowFailed, kind::RecompiledDuringMeasurement, kind::NothingCompiled, kind::GraphBreaksInRow,
                 kind::NoSteadyState, kind::Outliers, kind::PrecisionNotReached, kind::SpeedupInconclusive,
                 kind::SlowerThanEager, kind::WarmCompileMissedCache, kind::CudagraphsSkipped, kind::BatchedCalls,
                 kind::CheckSkipped, kind::EagerNondeterministic, kind::OutputMismatch, kind::Oversubscribed,
                 kind::MachineLoaded, kind::AllocatorMovesResult, kind::LoggedRunUnsupported,
                 kind::ExplainViewsDisagree, kind::SkippedFrames, kind::GraphBreakGateFailed, kind::ProfileLoadUnstable,
                 kind::ProfileSlowedDown, kind::ProfileLoadDrift, kind::AboveRoofline, kind::PredictionModelsDefault,
                 kind::ValidationInconclusive, kind::NoFlopCeiling, kind::FlopsNotCounted, kind::CaptureUnchecked,
                 kind::SweepPointsFailed, kind::ResumeLeftOut, kind::AuditStepFailed, kind::TraceDamaged,
                 kind::MixedEnvironments, kind::AsWritten>;

struct Warning {
  WarningKind kind;
  // The configuration it concerns when a run has several (a bench row's label): its message
  // starts with it and the JSON names it, so a brief report can say which rows a kind touched.
  std::string row;
  bool operator==(const Warning&) const = default;
};

// The wording (report/warning_wording.cpp): the code a kind is written under, its message
// (with "ROW: " in front when it names a row), its hint, and its figure: how bad it is in the
// one measure a code's warnings share (the outlier fraction, the count of recompiles, the
// interval's half-width), so that the kind's brief line leads with the worst configuration;
// none when the kind has none (its first warning leads).
std::string code_of(const Warning& w);
std::string message_of(const Warning& w);
std::string hint_of(const Warning& w);
std::optional<double> figure_of(const Warning& w);

// The flag printed beside the number a warning concerns (report::flag_of of its code).
std::string flag_of(const Warning& w);

// {code, message, hint, figure (when finite), row (when named)}: the shape documents hold.
nlohmann::json to_json(const Warning& w);
nlohmann::json to_json(const std::vector<Warning>& ws);
// A document's warning, kept as written; a malformed entry reads as an empty "other".
Warning warning_from_json(const nlohmann::json& j);

// "warning: MESSAGE (HINT)" for terminals and Markdown.
std::string format_warning(const Warning& warning);

// One line per kind of warning, weightiest first (the catalog's order), notes and what the
// verdict implies left out (they are in --verbose and the JSON): "warning: MESSAGE" of the
// kind's worst warning (its largest figure; else its first), "(also ROW, ROW)" for the rest
// when they name their rows, else "(and N more like it)". Past max_lines, the last line names
// the remaining kinds by their titles.
// The hints are left to --verbose: the brief report names what is wrong, -v what to do.
std::vector<std::string> brief_warning_lines(const std::vector<Warning>& warnings, std::size_t max_lines = 4);

// Appends w unless an equal warning is there already: a run says each warning once, however
// many phases find it.
void add_once(std::vector<Warning>& ws, Warning w);

}  // namespace tct::report
