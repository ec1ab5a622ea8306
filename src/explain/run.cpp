#include "explain/run.hpp"

#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "errors.hpp"
#include "explain/audit.hpp"
#include "explain/json.hpp"
#include "explain/warnings.hpp"
#include "report/warning.hpp"
#include "core/temp_dir.hpp"
#include "trace/source.hpp"

namespace tct::explain {
namespace {

using json = nlohmann::json;
using core::Session;

// The logged run's TORCH_TRACE file through the trace reader (as `tct trace` reads it).
trace::RankSummary read_run_trace(const std::string& path) {
  trace::RankSummary summary;
  trace::RankCollector collector(summary);
  trace::Reader reader(collector);
  trace::read_file(path, reader);
  summary.files = {path};
  summary.stats = reader.stats();
  return summary;
}

// torch's registry entries for the ids the breaks name (explain's and the trace's): the
// agent sends reasons as torch wrote them, the id is read here (registry_id_of).
reply::Registry registry_entries(Session& agent, const reply::Run& facts, const trace::RankSummary* trace) {
  const std::vector<std::string> ids = registry_ids(trace, facts.explain);
  reply::Registry registry;
  if (!ids.empty()) core::fields::decode(agent.call("explain.registry", {{"ids", ids}}), registry);
  return registry;
}

}  // namespace

ExplainResult run_explain(const core::Progress& progress, Session& agent, const ExplainConfig& cfg,
                          const core::OnPartial<ExplainResult>& on_partial) {
  // The logged run always writes its trace: to --trace DIR, kept, or to a folder of our own.
  std::unique_ptr<core::TempDir> scratch;
  if (cfg.logged && cfg.trace_dir.empty()) scratch = std::make_unique<core::TempDir>("tct-explain-trace");
  if (std::error_code ec; cfg.logged && !scratch && !std::filesystem::create_directories(cfg.trace_dir, ec) && ec)
    throw usage_error(fmt::format("cannot create the --trace folder {}: {}", cfg.trace_dir, ec.message()),
                      "give a folder that can be written");
  progress(fmt::format("loading {}", cfg.target.target));
  ExplainResult loaded;
  loaded.target = agent.call("target.load", to_load_params(cfg.target));
  if (on_partial) on_partial(loaded);  // the partial result: the target is loaded

  progress("running torch._dynamo.explain");
  json params = {{"logged", cfg.logged}, {"logged_calls", cfg.calls}};
  // Absolute: the agent writes it and we read it, each from its own working folder.
  if (cfg.logged) params["trace_dir"] = scratch ? scratch->path() : std::filesystem::absolute(cfg.trace_dir).string();
  const auto facts = core::fields::read_as<reply::Run>(agent.call("explain.run", params));
  std::optional<trace::RankSummary> trace;
  if (facts.logged) trace = read_run_trace(facts.logged->trace_file);
  const reply::Registry registry = registry_entries(agent, facts, trace ? &*trace : nullptr);
  ExplainResult result = build_explain(facts, registry, trace ? &*trace : nullptr, loaded.target, cfg.max_graph_breaks);
  if (!cfg.warn) return result;

  result.warnings = explain_warnings(result, facts);
  return result;
}

}  // namespace tct::explain
