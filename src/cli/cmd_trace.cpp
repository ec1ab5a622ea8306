// tct trace PATH: what torch.compile really did in any run, read from its TORCH_TRACE log
// (a file, plain or gzip, or the directory TORCH_TRACE pointed at: one log per rank).
// Needs no agent or torch: the reader (src/trace/) streams each log in constant memory and
// src/trace/summarize.cpp turns the ranks' summaries into the TraceResult (with the
// divergence), which the document's section and every rendering are made from.

#include <fmt/format.h>

#include "trace/json.hpp"
#include "trace/ranks.hpp"
#include "trace/summarize.hpp"
#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "errors.hpp"
#include "report/warning.hpp"
#include "trace/source.hpp"

namespace tct::cli {
namespace {

class TraceCommand : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("trace",
                                   "Read TORCH_TRACE logs (a file or a per-rank directory): breaks, recompiles, "
                                   "compile time, cache, and ranks that diverge (collectives, order, cache, "
                                   "tensor metadata)");
    cmd->add_option("path", path_, "A TORCH_TRACE log file (.log or .log.gz) or the directory TORCH_TRACE named")
        ->required();
    cmd->add_flag("--strict", strict_,
                  "Exit 2 when a log has garbled or truncated records, a payload that does not parse, or one "
                  "whose MD5 differs (every payload is hashed; default: count and skip damage, read edits)");
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  TORCH_TRACE=/tmp/trace torchrun --nproc-per-node 8 train.py
  tct trace /tmp/trace                         per rank, and ranks that diverge
  tct trace /tmp/trace/rank_0.log.gz --json    one log, as JSON
  tct trace /tmp/trace -o trace.html           a report to share
Logs of tct's own runs: tct bench/explain TARGET --trace DIR, then tct trace DIR.
Damage is what cannot be read (a garbled header, a JSON payload that does not parse, a
record cut off); a payload that parses is read whatever its MD5 (has_payload) says, and
one whose MD5 differs is noted as edited. Line ends may be \n, \r\n or \r.
Exit codes: 0 ok (ranks may still diverge: see 'divergence'), 2 no such path, no log in
it, an unreadable gzip stream, or with --strict a damaged log or an edited payload.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    // --strict hashes every payload: an edit anywhere is an error, as in tlparse --strict.
    trace::RankLogs logs = trace::read_rank_logs(
        trace::list_trace_files(path_),
        [&](const trace::TraceFile& f) { ctx.progress(fmt::format("reading {}", f.path)); }, strict_);
    if (logs.unreadable) throw *logs.unreadable;
    for (const auto& [path, s] : logs.logs)
      if (s.records == 0 && s.bytes > 0)
        throw usage_error(fmt::format("{} is not a TORCH_TRACE log (no record in {} bytes)", path, s.bytes),
                          "give the file TORCH_TRACE=DIR wrote (dedicated_log_torch_trace_*.log)");
    const trace::TraceResult result = trace::summarize(path_, logs.ranks);
    write_section(ctx, result);
    if (const uint64_t damaged = result.damaged(); damaged > 0) {
      report::Warning skipped{report::kind::TraceDamaged{damaged, trace::describe(result.damaged_at().front())}, ""};
      if (strict_)
        throw usage_error(report::message_of(skipped),
                          "the log was cut off or corrupted; rerun without --strict to read the rest");
      ctx.warn(std::move(skipped));
    }
    // Edited payloads are read and used (the section's note says so); only --strict fails.
    if (const uint64_t edited = result.edited(); strict_ && edited > 0)
      throw usage_error(fmt::format("{} payload(s) edited after they were written: MD5 differs (the first at {})",
                                    edited, trace::describe(result.edited_at().front())),
                        "the log was changed after torch wrote it; rerun without --strict to read it as it is");
    return 0;
  }

 private:
  std::string path_;
  bool strict_ = false;
};

}  // namespace

std::unique_ptr<Command> make_trace_command() { return std::make_unique<TraceCommand>(); }

}  // namespace tct::cli
