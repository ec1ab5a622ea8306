// A BenchResult as terminal text and Markdown: the speedup and its interval first, then
// latencies, compile times, break-even, memory, correctness. Flags (BenchRow::flags, decided
// in bench/analysis.cpp) are printed next to the number they concern; the full warnings
// follow from render.cpp. Nothing is computed here: every verdict is a field of the result.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/allocator_rows.hpp"
#include "bench/aoti_render.hpp"
#include "bench/breakdown_render.hpp"
#include "bench/json.hpp"
#include "bench/render.hpp"
#include "bench/words.hpp"
#include "report/format.hpp"
#include "report/warnings.hpp"

namespace tct::bench {
namespace {

using report::format_bytes;
using report::format_duration;
using report::format_duration_ns;
using report::format_ratio;
using report::Table;

double bytes(const std::optional<long long>& b) { return b ? static_cast<double>(*b) : NAN; }

std::string label_of(const BenchRow& row) { return row.label.empty() ? row.backend : row.label; }

// Each flag once: two warnings of one kind (outliers, and load while sampling) flag "! noisy" twice.
// The row's flags on one aspect (speedup, latency, correctness); `beside_verdict` leaves out
// the ones the verdict printed next to them already says.
std::string flags_for(const BenchRow& row, const char* applies_to, bool beside_verdict = false) {
  std::vector<std::string> seen;
  for (const auto& f : row.flags) {
    if (beside_verdict && report::implied_by_verdict(f.code)) continue;
    if (f.applies_to == applies_to && std::find(seen.begin(), seen.end(), f.text) == seen.end()) seen.push_back(f.text);
  }
  std::string out;
  for (const auto& t : seen) out += (out.empty() ? "" : "  ") + t;
  return out;
}

std::string failed_stage(const BenchRow& row) {
  return row.error && !row.error->stage.empty() ? row.error->stage : "?";
}

std::string speedup_cell(const BenchRow& row) {
  if (row.failed()) return fmt::format("FAILED at {}", failed_stage(row));
  const stats::Interval iv = row.speedup ? row.speedup->interval : stats::Interval{};
  if (!std::isfinite(iv.estimate)) return row.ok() ? "n/a" : "not measured";
  if (!std::isfinite(iv.low) || !std::isfinite(iv.high))
    return format_ratio(iv.estimate) + " [interval n/a]: inconclusive";
  std::string cell = fmt::format("{} [{:.2f}, {:.2f}]", format_ratio(iv.estimate), iv.low, iv.high);
  const std::string note = stats::interval_note(row.speedup->verdict, iv);
  return note.empty() ? cell : cell + " " + note;
}

std::string latency_cell(const stats::Summary* s) {
  const double med = s ? s->median : NAN;
  if (!std::isfinite(med)) return "n/a";
  return fmt::format("{} ({} .. {})", format_duration_ns(med), format_duration_ns(s->p05), format_duration_ns(s->p95));
}

std::string plus_bytes(double b) { return std::isfinite(b) ? "+" + format_bytes(b) : "n/a"; }

double compiled_increase(const Memory& m) { return m.compiled ? bytes(m.compiled->increase_bytes) : NAN; }

// Two lines: the model's peak above the post-load baseline, eager and compiled each in its
// own fresh process; then what the compiler itself costs.
std::vector<std::string> memory_lines(const BenchRow& row) {
  if (!row.memory) return {};
  const Memory& m = *row.memory;
  std::vector<std::string> out{fmt::format(
      "eager {}, compiled {} (peak while running, above what the process held before; each in a fresh process)",
      plus_bytes(bytes(m.eager_increase_bytes)), plus_bytes(compiled_increase(m)))};
  const double peak = m.compiled ? bytes(m.compiled->compile_peak_increase_bytes) : NAN;
  const double kept = m.compiled ? m.compiled->compiler_kept_bytes : NAN;
  if (std::isfinite(peak) || std::isfinite(kept))
    out.push_back(
        fmt::format("compiler: peak {} while compiling, {} kept afterwards", plus_bytes(peak), plus_bytes(kept)));
  return out;
}

// "12.3 s" for one measurement, "12.3 s (11.9 .. 13.0 s, 3 runs)" for repeats.
std::string compile_figure(const Compile& c, bool cold) {
  const std::optional<CompileSpread>* spread = nullptr;
  if (c.repeated) spread = cold ? &c.repeated->cold : &c.repeated->warm;
  const CompileSpread* s = spread && *spread ? &**spread : nullptr;
  Nanoseconds median = s ? s->median : kNotMeasured;
  if (!measured(median)) median = cold ? c.cold : c.warm;
  if (!measured(median)) return "";
  if (!s || s->n <= 1) return format_duration(median);
  return fmt::format("{} ({} .. {}, {} runs)", format_duration(median), format_duration(s->min),
                     format_duration(s->max), s->n);
}

std::string compile_cell(const BenchRow& row) {
  const Compile& c = row.compile;
  std::string cold = compile_figure(c, true), warm = compile_figure(c, false);
  // The first configuration's cold compile is its first call in the main process: one
  // measurement, said once. Other configurations' first calls reuse the main process's caches.
  const bool cold_is_first_call = c.cold_from() == ColdSource::MainAgentFirstCall;
  std::string out =
      cold_is_first_call && !cold.empty()
          ? "cold " + cold + " (the first compiled call, in the main process)"
          : fmt::format("first call {}", format_duration(c.first_call)) +
                (cold.empty() ? "" : ", cold " + cold + " (" + c.cold_source.value_or("fresh process") + ")");
  if (!warm.empty()) {
    out += ", warm cache " + warm;
    if (auto hit = c.warm_cache_hit()) out += *hit ? " (cache hit)" : " (NOT a cache hit: torch's counters saw misses)";
  }
  if ((!cold.empty() || !warm.empty()) && c.repeated && c.repeated->single_measurement) out += " [single measurements]";
  if (c.error) out += " (compile-time measurement failed: " + c.error->message + ")";
  if (row.steady_state && row.steady_state->found)
    out += fmt::format("; steady from call {}", row.steady_state->start_index.value_or(0) + 1);
  return out;
}

// The harness's own cost per call (an empty callable through the same loop), shown when
// it matters (BenchRow::harness_floor_matters); blocks dropped because Dynamo recompiled.
std::string harness_cell(const BenchRow& row) {
  std::vector<std::string> parts;
  if (row.harness_floor_matters()) {
    const double compiled = row.latency->compiled_ns.median;
    parts.push_back(fmt::format("harness floor {} per call ({:.1f}% of the compiled latency, included in both sides)",
                                format_duration(row.harness_floor), 100 * row.harness_floor.count() / compiled));
  }
  if (const int dropped = row.blocks_dropped_for_recompile; dropped > 0)
    parts.push_back(fmt::format("{} block pair{} dropped and resampled: Dynamo recompiled during them", dropped,
                                dropped == 1 ? "" : "s"));
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

std::string header(const BenchResult& b) {
  const core::reply::TargetLoad& t = b.target.view;
  std::string what = t.spec.empty() ? "?" : t.spec;
  std::vector<std::string> parts;
  if (!t.fn_name.empty()) parts.push_back(t.kind + " " + t.fn_name);
  for (const std::string* s : {&t.device, &t.dtype, &t.mode})
    if (!s->empty()) parts.push_back(*s);
  std::string extra;
  for (const auto& p : parts) extra += (extra.empty() ? "" : ", ") + p;
  return fmt::format("{}{}", what, extra.empty() ? "" : " (" + extra + ")");
}

const stats::Summary* side(const BenchRow& row, bool eager) {
  if (!row.latency) return nullptr;
  return eager ? &row.latency->eager_ns : &row.latency->compiled_ns;
}

struct Rendered {
  Table speed{{"backend", "speedup (95% CI)", ""}};
  Table latency{{"backend", "eager median (p05 .. p95)", "compiled median (p05 .. p95)", "blocks", "stopped by", ""}};
  std::vector<std::pair<std::string, std::string>> compile, breakeven, memory, correctness, harness;
};

Rendered render_rows(const BenchResult& b) {
  Rendered r;
  for (const auto& row : b.rows) {
    const std::string label = label_of(row);
    const std::string correctness_flags = flags_for(row, "correctness");
    r.speed.add({label, speedup_cell(row),
                 flags_for(row, "speedup") + (correctness_flags.empty() ? "" : "  " + correctness_flags)});
    if (row.failed())
      r.correctness.push_back(
          {label, fmt::format("row failed ({}): {}", failed_stage(row), row.error ? row.error->message : "")});
    if (row.latency)
      r.latency.add({label, latency_cell(side(row, true)), latency_cell(side(row, false)), std::to_string(row.blocks),
                     row.stop_reason.value_or("-"), flags_for(row, "latency")});
    if (row.aoti) r.compile.push_back({label, aoti_summary(row)});
    else if (!row.warmup_curve_ns.empty()) r.compile.push_back({label, compile_cell(row)});
    if (row.latency) r.breakeven.push_back({label, break_even_words(row)});
    for (const auto& line : memory_lines(row)) r.memory.push_back({label, line});
    if (auto h = harness_cell(row); !h.empty()) r.harness.push_back({label, h});
    if (row.ok()) r.correctness.push_back({label, correctness_words(row)});
  }
  return r;
}

std::string pairs_text(const std::string& title, const std::vector<std::pair<std::string, std::string>>& items) {
  if (items.empty()) return "";
  std::size_t w = 0;
  for (const auto& [l, _] : items) w = std::max(w, l.size());
  std::string out = title + "\n";
  for (const auto& [l, v] : items) out += fmt::format("  {:<{}}  {}\n", l, w, v);
  return out;
}

std::string pairs_md(const std::string& title, const std::vector<std::pair<std::string, std::string>>& items) {
  if (items.empty()) return "";
  std::string out = "\n**" + title + "**\n\n";
  for (const auto& [l, v] : items) out += fmt::format("- `{}`: {}\n", l, v);
  return out;
}

std::string eager_line(const BenchResult& b) {
  if (!b.eager) return "";
  // The warm-up calls timed one by one, before sampling: not the eager median above, which
  // comes from the interleaved samples (and is the one the speedup uses).
  return fmt::format(
      "eager warm-up (before sampling): first call {}, then {} per call; the eager median above is "
      "from the interleaved samples",
      format_duration(b.eager->first_call), format_duration(b.eager->steady));
}

// What the interval means, once: it is the number people quote.
std::string interval_note(const BenchResult& b) {
  for (const auto& row : b.rows) {
    if (!row.speedup || !row.speedup->processes) continue;
    return fmt::format(
        "interval: 95% confidence for the speedup of this target on this machine, across fresh "
        "processes (paired blocks from {} processes; the drift between processes and over time included, "
        "as a re-run meets it; "
        "held at {} planned looks)\n",
        *row.speedup->processes, b.config ? b.config->looks.value_or(3) : 3);
  }
  return "";
}

std::vector<std::string> notes(const BenchResult& b) { return b.config ? b.config->notes : std::vector<std::string>{}; }

// ---------------------------------------------------------------- the brief report
// The answer and what it rests on, about 8 lines per configuration (hyperfine's result is
// three): speedup, interval and verdict; the medians it is the ratio of; compile time;
// break-even; memory; outputs; the row's flags. `tct bench -v` prints text()'s detail.

// "cold 11.6 s, warm cache 1.2 s": the compile time once. Row 0's cold compile *is* its
// first call in the main process, so the first call is named only when no cold figure exists.
std::string brief_compile(const BenchRow& row) {
  const Compile& c = row.compile;
  std::string cold = compile_figure(c, true), warm = compile_figure(c, false);
  std::string out = !cold.empty() ? "cold " + cold : "first call " + format_duration(c.first_call);
  if (!warm.empty()) {
    out += ", warm cache " + warm;
    if (c.warm_cache_hit() == false) out += " (not a cache hit)";
  }
  return out;
}

std::string memory_kind(const Memory& m) { return m.kind == "cuda" ? "peak CUDA memory" : "peak RSS"; }

std::string brief_memory(const BenchRow& row) {
  if (!row.memory) return "";
  const Memory& m = *row.memory;
  return fmt::format("eager {}, compiled {} ({} above the post-load baseline)",
                     plus_bytes(bytes(m.eager_increase_bytes)), plus_bytes(compiled_increase(m)), memory_kind(m));
}

// The allocator states, for -v and Markdown: each state's medians and speedup.
Table allocator_text_table(const report::AllocatorTable& t) {
  Table out(t.header);
  for (const auto& r : t.rows) out.add(r);
  return out;
}

std::string brief_row(const BenchRow& row, const std::string& allocator) {
  const std::string label = label_of(row);
  if (row.failed())  // the reason, and what to do about it where the failure says
    return fmt::format("{}  {}: {}\n", label, speedup_cell(row), row.error ? row.error->message : "") +
           (row.error && !row.error->hint.empty() ? fmt::format("  {:<11} {}\n", "fix", row.error->hint) : "");
  std::string out = fmt::format("{}  speedup {}", label, speedup_cell(row));
  const auto verdict = row.speedup ? row.speedup->verdict : SpeedupVerdict::NotMeasured;
  if (verdict != SpeedupVerdict::Inconclusive && verdict != SpeedupVerdict::NotMeasured)
    out += fmt::format(" {}", describe(verdict));
  // The malloc state the number holds for: on CPU it can move the verdict (--allocator).
  if (!allocator.empty() && row.speedup) out += fmt::format(" (allocator: {})", allocator);
  // Flags beside the number they concern: the speedup's and the outputs' on this line ("slower
  // than eager" is the verdict already).
  for (const char* what : {"speedup", "correctness"})
    if (auto f = flags_for(row, what, true); !f.empty()) out += "  " + f;
  out += "\n";
  std::vector<std::pair<std::string, std::string>> lines;
  if (row.latency) {
    const std::string latency_flags = flags_for(row, "latency");
    lines.push_back({"per call", fmt::format("eager {}, compiled {} (medians of {} interleaved blocks)",
                                             format_duration_ns(row.latency->eager_ns.median),
                                             format_duration_ns(row.latency->compiled_ns.median), row.blocks) +
                                     (latency_flags.empty() ? "" : "  " + latency_flags)});
  }
  if (row.aoti) lines.push_back({"package", aoti_summary(row)});
  else if (!row.warmup_curve_ns.empty()) lines.push_back({"compile", brief_compile(row)});
  if (row.latency) lines.push_back({"break-even", break_even_words(row)});
  if (auto m = brief_memory(row); !m.empty()) lines.push_back({"memory", m});
  if (row.ok()) lines.push_back({"outputs", correctness_words(row)});
  if (row.breakdown && row.breakdown->material()) lines.push_back({"overhead", breakdown_line(*row.breakdown)});
  for (const auto& [k, v] : lines) out += fmt::format("  {:<11} {}\n", k, v);
  return out;
}

}  // namespace

std::string text(const BenchResult& b) {
  if (!b.loaded()) return "";  // failed before loading
  std::string out = "tct bench " + header(b) + "\n\n";
  auto r = render_rows(b);
  out += r.speed.str() + "\n";
  out += "Latency per call\n" + r.latency.str() + "\n";
  if (auto at = report::allocator_table(b.allocator); !at.rows.empty()) {
    out += "Allocator (first row; the headline is measured in " + report::allocator_state_label(b.allocator) + ")\n" +
           allocator_text_table(at).str();
    if (!at.note.empty()) out += "  " + at.note + "\n";
    out += "\n";
  }
  std::string el = eager_line(b);
  out += pairs_text("Compile (first compiled call, cold and warm caches)", r.compile);
  if (!el.empty()) out += "  " + el + "\n";
  out += pairs_text("Break-even (calls until compiling has paid for itself)", r.breakeven);
  std::string mem_kind = "peak memory";
  for (const auto& row : b.rows)
    if (row.memory) mem_kind = memory_kind(*row.memory);
  out += pairs_text("Memory (" + mem_kind + ", above the post-load baseline)", r.memory);
  out += pairs_text("Correctness", r.correctness);
  out += pairs_text("Measurement", r.harness);
  for (const auto& row : b.rows) {
    if (!row.breakdown) continue;
    out += "Where a compiled call's time goes (" + label_of(row) + ")\n";
    for (const auto& line : breakdown_lines(*row.breakdown)) out += "  " + line + "\n";
  }
  out += interval_note(b);
  if (b.clock) out += fmt::format("clock resolution {}\n", format_duration(b.clock->resolution));
  for (const auto& n : notes(b)) out += "note: " + n + "\n";
  return out;
}

std::string markdown(const BenchResult& b) {
  if (!b.loaded()) return "";
  std::string out = "`" + header(b) + "`\n\n";
  auto r = render_rows(b);
  out += r.speed.markdown() + "\n";
  out += "\n**Latency per call**\n\n" + r.latency.markdown() + "\n";
  if (auto at = report::allocator_table(b.allocator); !at.rows.empty()) {
    out += "\n**Allocator** (first row; the headline is measured in " + report::allocator_state_label(b.allocator) +
           ")\n\n" + allocator_text_table(at).markdown() + "\n";
    if (!at.note.empty()) out += "\n_" + at.note + "_\n";
  }
  out += pairs_md("Compile", r.compile);
  std::string el = eager_line(b);
  if (!el.empty()) out += "\n" + el + "\n";
  out += pairs_md("Break-even", r.breakeven);
  out += pairs_md("Memory", r.memory);
  out += pairs_md("Correctness", r.correctness);
  out += pairs_md("Measurement", r.harness);
  for (const auto& row : b.rows) {
    if (!row.breakdown) continue;
    out += "\n**Where a compiled call's time goes** (" + label_of(row) + ")\n\n```\n";
    for (const auto& line : breakdown_lines(*row.breakdown)) out += line + "\n";
    out += "```\n";
  }
  if (auto n = interval_note(b); !n.empty()) out += "\n_" + n.substr(0, n.size() - 1) + "_\n";
  for (const auto& n : notes(b)) out += "\n_note: " + n + "_\n";
  return out;
}

std::string brief(const BenchResult& b) {
  if (!b.loaded()) return "";
  std::string out = "tct bench " + header(b) + "\n\n";
  const std::string allocator = report::allocator_state_label(b.allocator);
  for (const auto& row : b.rows) out += brief_row(row, allocator);
  return out + "\n";
}

}  // namespace tct::bench
