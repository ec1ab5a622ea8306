// The bench section (doc["bench"]) as terminal text and Markdown: the speedup and its
// interval first, then latencies, compile times, break-even, memory, correctness. Flags
// (row["flags"], decided in bench/analysis.cpp) are printed next to the number they
// concern; the full warnings follow from render.cpp. Nothing is computed here.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/verdict.hpp"
#include "bench/allocator_rows.hpp"
#include "report/format.hpp"
#include "report/render.hpp"
#include "report/warnings.hpp"

namespace tct::report {
namespace {

std::string str(const json& j, const char* key, const std::string& fallback = "") { return text_or(j, key, fallback); }

const json& obj(const json& j, const char* key) {
  static const json empty = json::object();
  if (!j.is_object() || !j.contains(key) || !j[key].is_object()) return empty;
  return j[key];
}

// Each flag once: two warnings of one kind (outliers, and load while sampling) flag "! noisy" twice.
// The row's flags on one aspect (speedup, latency, correctness); `beside_verdict` leaves out
// the ones the verdict printed next to them already says.
std::string flags_for(const json& row, const char* applies_to, bool beside_verdict = false) {
  std::vector<std::string> seen;
  for (const auto& f : row.value("flags", json::array())) {
    std::string text = f.value("text", "");
    if (beside_verdict && report::implied_by_verdict(f.value("code", ""))) continue;
    if (f.value("applies_to", "") == applies_to && std::find(seen.begin(), seen.end(), text) == seen.end())
      seen.push_back(text);
  }
  std::string out;
  for (const auto& t : seen) out += (out.empty() ? "" : "  ") + t;
  return out;
}

std::string speedup_cell(const json& row) {
  if (row.value("status", "") == "failed") {
    const json& e = obj(row, "error");
    return fmt::format("FAILED at {}", str(e, "stage", "?"));
  }
  const json& sp = obj(row, "speedup");
  double est = number_or_nan(sp, "estimate"), lo = number_or_nan(sp, "low"), hi = number_or_nan(sp, "high");
  if (!std::isfinite(est)) return row.value("status", "") == "ok" ? "n/a" : "not measured";
  if (!std::isfinite(lo) || !std::isfinite(hi)) return format_ratio(est) + " [interval n/a]: inconclusive";
  std::string cell = fmt::format("{} [{:.2f}, {:.2f}]", format_ratio(est), lo, hi);
  return bench::verdict_of(sp) == bench::SpeedupVerdict::Inconclusive ? cell + " inconclusive: too wide for a verdict"
                                                                     : cell;
}

std::string latency_cell(const json& row, const char* side) {
  const json& s = obj(obj(row, "latency"), side);
  double med = number_or_nan(s, "median");
  if (!std::isfinite(med)) return "n/a";
  return fmt::format("{} ({} .. {})", format_duration_ns(med), format_duration_ns(number_or_nan(s, "p05")),
                     format_duration_ns(number_or_nan(s, "p95")));
}

std::string calls(const json& v) {
  if (!v.is_number()) return "never";
  long long n = v.get<long long>();
  return n == 1 ? "1 call" : fmt::format("{} calls", n);
}

// "match (12 leaves; 3 via the float64 reference; 1 not compared; seeded)".
std::string check_basis(const json& c) {
  std::string out;
  int via_ref = 0;
  for (const auto& l : c.value("leaf_results", json::array()))
    if (l.is_object() && l.value("basis", json()) == "float64_reference") ++via_ref;
  if (via_ref) out += fmt::format("; {} within eager's own error against a float64 reference", via_ref);
  std::size_t nc = c.value("not_compared", json::array()).size();
  if (nc) out += fmt::format("; {} not compared", nc);
  if (c.value("fallback_random", false)) out += "; random ops via inductor's fallback_random";
  else if (c.value("eager_used_rng", false)) out += "; random ops seeded alike";
  return out;
}

std::string correctness_cell(const json& row) {
  const json& c = obj(row, "correctness");
  if (c.empty()) return "not checked";
  if (!c.value("checked", false)) return "skipped (--no-check)";
  std::string out;
  if (c.value("nondeterministic", false))
    out = "eager differs from itself under identical seeds, judged against its spread: ";
  const json& m = c.value("match", json());
  int n = c.value("leaves", 0);
  if (m.is_boolean() && m.get<bool>()) {
    out += fmt::format("match ({} {}{})", n, n == 1 ? "leaf" : "leaves", check_basis(c));
  } else if (m.is_boolean()) {
    const auto& mm = c.value("mismatches", json::array());
    out += fmt::format("MISMATCH in {} of {} leaves", mm.size(), n);
    const auto& params = c.value("differing_parameters", json::array());
    if (!params.empty()) {
      std::string names;
      for (const auto& p : params) names += (names.empty() ? "" : ", ") + p.get<std::string>();
      out += fmt::format(" (parameters: {})", names);
    }
    if (!mm.empty()) out += fmt::format(": {} {}", str(mm[0], "path"), str(mm[0], "reason"));
  } else out += "inconclusive";
  return out;
}

std::string plus_bytes(double b) { return std::isfinite(b) ? "+" + format_bytes(b) : "n/a"; }

// Two lines: the model's peak above the post-load baseline, eager and compiled each in its
// own fresh process; then what the compiler itself costs.
std::vector<std::string> memory_lines(const json& row) {
  const json& m = obj(row, "memory");
  if (m.empty()) return {};
  std::vector<std::string> out{fmt::format(
      "eager {}, compiled {} (peak while running, above what the process held before; each in a fresh process)",
      plus_bytes(number_or_nan(m, "eager_increase_bytes")), plus_bytes(number_or_nan(m, "compiled_increase_bytes")))};
  double peak = number_or_nan(m, "compile_peak_increase_bytes"), kept = number_or_nan(m, "compiler_kept_bytes");
  if (std::isfinite(peak) || std::isfinite(kept))
    out.push_back(fmt::format("compiler: peak {} while compiling, {} kept afterwards", plus_bytes(peak),
                              plus_bytes(kept)));
  return out;
}

// "12.3 s" for one measurement, "12.3 s (11.9 .. 13.0 s, 3 runs)" for repeats.
std::string compile_figure(const json& c, const char* which) {
  const json& s = obj(c, which);
  double median = number_or_nan(s, "median_ns");
  if (!std::isfinite(median)) median = number_or_nan(c, (std::string(which) + "_ns").c_str());
  if (!std::isfinite(median)) return "";
  int n = s.value("n", 1);
  if (n <= 1) return format_duration_ns(median);
  return fmt::format("{} ({} .. {}, {} runs)", format_duration_ns(median), format_duration_ns(number_or_nan(s, "min_ns")),
                     format_duration_ns(number_or_nan(s, "max_ns")), n);
}

std::string compile_cell(const json& row) {
  const json& c = obj(row, "compile");
  std::string cold = compile_figure(c, "cold"), warm = compile_figure(c, "warm");
  // The first configuration's cold compile is its first call in the main process: one
  // measurement, said once. Other configurations' first calls reuse the main process's caches.
  const bool cold_is_first_call = str(c, "cold_source").rfind("main agent", 0) == 0;
  std::string out = cold_is_first_call && !cold.empty()
                        ? "cold " + cold + " (the first compiled call, in the main process)"
                        : fmt::format("first call {}", format_duration_ns(number_or_nan(c, "first_call_ns"))) +
                              (cold.empty() ? "" : ", cold " + cold + " (" + str(c, "cold_source", "fresh process") + ")");
  if (!warm.empty()) {
    out += ", warm cache " + warm;
    const json& hit = c.value("warm_cache_hit", c.value("warm_cache", json::object()).value("hit", json()));
    if (hit.is_boolean()) out += hit.get<bool>() ? " (cache hit)" : " (NOT a cache hit: torch's counters saw misses)";
  }
  if ((!cold.empty() || !warm.empty()) && c.value("single_measurement", false)) out += " [single measurements]";
  if (c.contains("error") && c["error"].is_object()) out += " (compile-time measurement failed: " + str(c["error"], "message") + ")";
  const json& ss = obj(row, "steady_state");
  if (ss.value("found", false)) out += fmt::format("; steady from call {}", ss.value("start_index", 0) + 1);
  return out;
}

std::string range_text(const json& r) {
  if (!r.is_object() || !r["estimate"].is_number()) return "";
  const json &lo = r.value("low", json()), &hi = r.value("high", json());
  if (lo.is_number() && hi.is_number() && lo != hi)
    return fmt::format("{} (range {} .. {})", calls(r["estimate"]), lo.get<long long>(), hi.get<long long>());
  return calls(r["estimate"]);
}

// Built on the interval: no number when it is inconclusive or includes 1.
std::string break_even_cell(const json& row) {
  const json& be = obj(row, "break_even");
  std::string verdict = str(be, "verdict");
  if (verdict.empty() && row.value("break_even_calls", json()).is_null()) {
    // A document from before break_even had its verdict: the speedup's says the same.
    const auto sv = bench::verdict_of(obj(row, "speedup"));
    verdict = sv == bench::SpeedupVerdict::Inconclusive ? "inconclusive"
              : sv == bench::SpeedupVerdict::Slower || sv == bench::SpeedupVerdict::NoClearDifference ? "no_reliable_gain"
                                                                                                       : "";
  }
  if (verdict == "inconclusive") return "not given: the speedup interval is too wide for a verdict";
  if (verdict == "no_reliable_gain") {
    return bench::verdict_of(obj(row, "speedup")) == bench::SpeedupVerdict::Slower
               ? "never breaks even: compiled is slower (the whole interval is below 1)"
               : "no reliable gain: the speedup interval includes 1";
  }
  std::string cold = range_text(be.value("cold", json())), warm = range_text(be.value("warm", json()));
  if (verdict.empty() && row.value("break_even_calls", json()).is_number())  // a document from before ranges
    return "break-even after " + calls(row["break_even_calls"]);
  if (cold.empty()) return verdict.empty() ? "n/a" : "not measured";
  return "break-even after " + cold + (warm.empty() ? "" : ", warm cache: " + warm);
}

// The harness's own cost per call (an empty callable through the same loop), shown when
// it is more than 1% of the compiled latency; blocks dropped because Dynamo recompiled.
std::string harness_cell(const json& row) {
  std::vector<std::string> parts;
  double floor = number_or_nan(row, "harness_floor_ns");
  double compiled = number_or_nan(obj(obj(row, "latency"), "compiled"), "median");
  if (std::isfinite(floor) && std::isfinite(compiled) && floor > 0.01 * compiled)
    parts.push_back(fmt::format("harness floor {} per call ({:.1f}% of the compiled latency, included in both sides)",
                                format_duration_ns(floor), 100 * floor / compiled));
  int dropped = row.value("blocks_dropped_for_recompile", 0);
  if (dropped > 0)
    parts.push_back(fmt::format("{} block pair{} dropped and resampled: Dynamo recompiled during them", dropped,
                                dropped == 1 ? "" : "s"));
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

std::string header(const json& b) {
  const json& t = obj(b, "target");
  std::string what = str(t, "spec", "?");
  std::vector<std::string> parts;
  if (!str(t, "fn_name").empty()) parts.push_back(str(t, "kind", "") + " " + str(t, "fn_name"));
  if (!str(t, "device").empty()) parts.push_back(str(t, "device"));
  if (!str(t, "dtype").empty()) parts.push_back(str(t, "dtype"));
  if (!str(t, "mode").empty()) parts.push_back(str(t, "mode"));
  std::string extra;
  for (const auto& p : parts) extra += (extra.empty() ? "" : ", ") + p;
  return fmt::format("{}{}", what, extra.empty() ? "" : " (" + extra + ")");
}

struct Rendered {
  Table speed{{"backend", "speedup (95% CI)", ""}};
  Table latency{{"backend", "eager median (p05 .. p95)", "compiled median (p05 .. p95)", "blocks", "stopped by", ""}};
  std::vector<std::pair<std::string, std::string>> compile, breakeven, memory, correctness, harness;
};

Rendered render_rows(const json& b) {
  Rendered r;
  for (const auto& row : b.value("rows", json::array())) {
    std::string label = row.value("label", str(row, "backend"));
    r.speed.add({label, speedup_cell(row), flags_for(row, "speedup") + (flags_for(row, "correctness").empty() ? "" : "  " + flags_for(row, "correctness"))});
    if (row.value("status", "") == "failed") {
      const json& e = obj(row, "error");
      r.correctness.push_back({label, fmt::format("row failed ({}): {}", str(e, "stage", "?"), str(e, "message"))});
    }
    if (!obj(row, "latency").empty())
      r.latency.add({label, latency_cell(row, "eager"), latency_cell(row, "compiled"), str(row, "blocks", "0"),
                     str(row, "stop_reason", "-"), flags_for(row, "latency")});
    if (!row.value("warmup_curve_ns", json::array()).empty()) r.compile.push_back({label, compile_cell(row)});
    if (!obj(row, "latency").empty()) r.breakeven.push_back({label, break_even_cell(row)});
    for (const auto& line : memory_lines(row)) r.memory.push_back({label, line});
    if (auto h = harness_cell(row); !h.empty()) r.harness.push_back({label, h});
    if (row.value("status", "") == "ok") r.correctness.push_back({label, correctness_cell(row)});
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

std::string eager_line(const json& b) {
  const json& e = obj(b, "eager");
  if (e.empty()) return "";
  // The warm-up calls timed one by one, before sampling: not the eager median above, which
  // comes from the interleaved samples (and is the one the speedup uses).
  return fmt::format("eager warm-up (before sampling): first call {}, then {} per call; the eager median above is "
                     "from the interleaved samples",
                     format_duration_ns(number_or_nan(e, "first_call_ns")), format_duration_ns(number_or_nan(e, "steady_ns")));
}

// What the interval means, once: it is the number people quote.
std::string interval_note(const json& b) {
  for (const auto& row : b.value("rows", json::array())) {
    const json& sp = obj(row, "speedup");
    if (!sp.contains("processes")) continue;
    return fmt::format("interval: 95% confidence for the speedup of this target on this machine, across fresh "
                       "processes (paired blocks from {} processes; the drift between processes and over time included, "
                       "as a re-run meets it; "
                       "held at {} planned looks)\n",
                       sp.value("processes", 0), obj(b, "config").value("looks", 3));
  }
  return "";
}

// ---------------------------------------------------------------- the brief report
// The answer and what it rests on, about 8 lines per configuration (hyperfine's result is
// three): speedup, interval and verdict; the medians it is the ratio of; compile time;
// break-even; memory; outputs; the row's flags. `tct bench -v` prints text_bench's detail.

// "cold 11.6 s, warm cache 1.2 s": the compile time once. Row 0's cold compile *is* its
// first call in the main process, so the first call is named only when no cold figure exists.
std::string brief_compile(const json& row) {
  const json& c = obj(row, "compile");
  std::string cold = compile_figure(c, "cold"), warm = compile_figure(c, "warm");
  std::string out = !cold.empty() ? "cold " + cold : "first call " + format_duration_ns(number_or_nan(c, "first_call_ns"));
  if (!warm.empty()) {
    out += ", warm cache " + warm;
    const json& hit = c.value("warm_cache_hit", json());
    if (hit.is_boolean() && !hit.get<bool>()) out += " (not a cache hit)";
  }
  return out;
}

std::string brief_memory(const json& row) {
  const json& m = obj(row, "memory");
  if (m.empty()) return "";
  return fmt::format("eager {}, compiled {} ({} above the post-load baseline)",
                     plus_bytes(number_or_nan(m, "eager_increase_bytes")),
                     plus_bytes(number_or_nan(m, "compiled_increase_bytes")),
                     str(m, "kind") == "cuda" ? "peak CUDA memory" : "peak RSS");
}

// The allocator states, for -v and Markdown: each state's medians and speedup.
Table allocator_text_table(const AllocatorTable& t) {
  Table out(t.header);
  for (const auto& r : t.rows) out.add(r);
  return out;
}

std::string brief_row(const json& row, const std::string& allocator) {
  const std::string label = row.value("label", str(row, "backend"));
  if (row.value("status", "") == "failed")
    return fmt::format("{}  {}: {}\n", label, speedup_cell(row), str(obj(row, "error"), "message"));
  std::string out = fmt::format("{}  speedup {}", label, speedup_cell(row));
  const json& sp = obj(row, "speedup");
  const auto verdict = bench::verdict_of(sp);
  if (verdict != bench::SpeedupVerdict::Inconclusive && verdict != bench::SpeedupVerdict::NotMeasured)
    out += fmt::format(" {}", bench::describe(verdict));
  // The malloc state the number holds for: on CPU it can move the verdict (--allocator).
  if (!allocator.empty() && !sp.empty()) out += fmt::format(" (allocator: {})", allocator);
  // Flags beside the number they concern: the speedup's and the outputs' on this line ("slower
  // than eager" is the verdict already).
  for (const char* what : {"speedup", "correctness"})
    if (auto f = flags_for(row, what, true); !f.empty()) out += "  " + f;
  out += "\n";
  std::vector<std::pair<std::string, std::string>> lines;
  const json& lat = obj(row, "latency");
  if (!lat.empty())
    lines.push_back({"per call", fmt::format("eager {}, compiled {} (medians of {} interleaved blocks)",
                                             format_duration_ns(number_or_nan(obj(lat, "eager"), "median")),
                                             format_duration_ns(number_or_nan(obj(lat, "compiled"), "median")),
                                             str(row, "blocks", "0")) +
                                     (flags_for(row, "latency").empty() ? "" : "  " + flags_for(row, "latency"))});
  if (!row.value("warmup_curve_ns", json::array()).empty()) lines.push_back({"compile", brief_compile(row)});
  if (!lat.empty()) lines.push_back({"break-even", break_even_cell(row)});
  if (auto m = brief_memory(row); !m.empty()) lines.push_back({"memory", m});
  if (row.value("status", "") == "ok") lines.push_back({"outputs", correctness_cell(row)});
  for (const auto& [k, v] : lines) out += fmt::format("  {:<11} {}\n", k, v);
  return out;
}

}  // namespace

std::string text_bench(const json& doc) {
  const json& b = doc["bench"];
  if (!b.is_object() || !b.value("target", json()).is_object()) return "";  // failed before loading
  std::string out = "tct bench " + header(b) + "\n\n";
  auto r = render_rows(b);
  out += r.speed.str() + "\n";
  out += "Latency per call\n" + r.latency.str() + "\n";
  if (auto at = allocator_table(b); !at.rows.empty()) {
    out += "Allocator (first row; the headline is measured in " + allocator_state_label(b) + ")\n" +
           allocator_text_table(at).str();
    if (!at.note.empty()) out += "  " + at.note + "\n";
    out += "\n";
  }
  std::string el = eager_line(b);
  out += pairs_text("Compile (first compiled call, cold and warm caches)", r.compile);
  if (!el.empty()) out += "  " + el + "\n";
  out += pairs_text("Break-even (calls until compiling has paid for itself)", r.breakeven);
  std::string mem_kind = "peak memory";
  for (const auto& row : b.value("rows", json::array()))
    if (!obj(row, "memory").empty()) mem_kind = str(obj(row, "memory"), "kind") == "cuda" ? "peak CUDA memory" : "peak RSS";
  out += pairs_text("Memory (" + mem_kind + ", above the post-load baseline)", r.memory);
  out += pairs_text("Correctness", r.correctness);
  out += pairs_text("Measurement", r.harness);
  out += interval_note(b);
  const json& clock = obj(b, "clock");
  if (!clock.empty())
    out += fmt::format("clock resolution {}\n", format_duration_ns(number_or_nan(clock, "resolution_ns")));
  for (const auto& n : obj(b, "config").value("notes", json::array())) out += "note: " + n.get<std::string>() + "\n";
  return out;
}

std::string markdown_bench(const json& doc) {
  const json& b = doc["bench"];
  if (!b.is_object() || !b.value("target", json()).is_object()) return "";
  std::string out = "`" + header(b) + "`\n\n";
  auto r = render_rows(b);
  out += r.speed.markdown() + "\n";
  out += "\n**Latency per call**\n\n" + r.latency.markdown() + "\n";
  if (auto at = allocator_table(b); !at.rows.empty()) {
    out += "\n**Allocator** (first row; the headline is measured in " + allocator_state_label(b) + ")\n\n" +
           allocator_text_table(at).markdown() + "\n";
    if (!at.note.empty()) out += "\n_" + at.note + "_\n";
  }
  out += pairs_md("Compile", r.compile);
  std::string el = eager_line(b);
  if (!el.empty()) out += "\n" + el + "\n";
  out += pairs_md("Break-even", r.breakeven);
  out += pairs_md("Memory", r.memory);
  out += pairs_md("Correctness", r.correctness);
  out += pairs_md("Measurement", r.harness);
  if (auto n = interval_note(b); !n.empty()) out += "\n_" + n.substr(0, n.size() - 1) + "_\n";
  for (const auto& n : obj(b, "config").value("notes", json::array())) out += "\n_note: " + n.get<std::string>() + "_\n";
  return out;
}

std::string brief_bench(const json& doc) {
  const json& b = doc["bench"];
  if (!b.is_object() || !b.value("target", json()).is_object()) return "";
  std::string out = "tct bench " + header(b) + "\n\n";
  const std::string allocator = allocator_state_label(b);
  for (const auto& row : b.value("rows", json::array())) out += brief_row(row, allocator);
  return out + "\n";
}

}  // namespace tct::report
