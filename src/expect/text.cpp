// Terminal and Markdown rendering of an ExpectResult (tct expect). Nothing is computed here
// beyond formatting: the class, ranges, validation and suggestions are the result's fields.
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "expect/json.hpp"
#include "expect/render.hpp"
#include "report/format.hpp"

namespace tct::expect {
namespace {

using report::format_bytes;
using report::format_duration;
using report::format_percent;
using report::format_ratio;
using report::Table;

std::string words(BoundClass c) {
  std::string s(to_string(c));
  for (auto& ch : s)
    if (ch == '_') ch = ' ';
  return s;
}

std::string range(const SpeedupRange& r) {
  if (std::isnan(r.low) || std::isnan(r.high)) return "n/a";
  if (std::isnan(r.point)) return fmt::format("{:.2f}x - {:.2f}x", r.low, r.high);
  return fmt::format("{:.2f}x ({:.2f}x - {:.2f}x)", r.point, r.low, r.high);
}

// How the point prediction was made, term by term, and where the interval comes from.
std::string prediction_lines(const Prediction& p, const std::string& indent) {
  if (!p.terms) return "";
  std::string terms;
  for (const auto& t : *p.terms) {
    if (!(t.share > 0.005)) continue;
    terms += fmt::format("{}{} {} x {:.2f}", terms.empty() ? "" : " + ", t.name, format_percent(t.share), t.keep);
  }
  std::string out = fmt::format("{}point = 1 / ({})\n", indent, terms);
  const IntervalModel& iv = p.interval;
  double point = p.range.point;
  out += fmt::format(
      "{}interval = point x [{:.2f}, {:.2f}], from the calibration set's errors, wider the more of the "
      "compiled time is generated kernels ({} here); on our validation set, {} of {} measured "
      "speedups fell inside\n",
      indent, p.range.low / point, p.range.high / point, format_percent(iv.generated_share), iv.validation_inside,
      iv.validation_cases);
  return out;
}

std::string interval(const std::optional<MeasuredSpeedup>& s) {
  if (!s) return "n/a";
  if (std::isnan(s->estimate)) return "n/a";
  if (std::isnan(s->low) || std::isnan(s->high)) return format_ratio(s->estimate);
  return fmt::format("{} [{:.2f}, {:.2f}]", format_ratio(s->estimate), s->low, s->high);
}

std::string flops_rate(double f) {
  if (std::isnan(f)) return "n/a";
  if (f >= 1e12) return fmt::format("{:.2f} TFLOP/s", f / 1e12);
  if (f >= 1e9) return fmt::format("{:.2f} GFLOP/s", f / 1e9);
  return fmt::format("{:.2f} MFLOP/s", f / 1e6);
}

std::string count(double x) {
  if (std::isnan(x)) return "n/a";
  if (x >= 1e9) return fmt::format("{:.2f} G", x / 1e9);
  if (x >= 1e6) return fmt::format("{:.2f} M", x / 1e6);
  if (x >= 1e3) return fmt::format("{:.2f} k", x / 1e3);
  return fmt::format("{:.0f}", x);
}

// The first line of an error message, at most 90 characters: a table cell, not a traceback.
std::string short_message(const report::ErrorRecord& err) {
  std::string m = err.message.substr(0, err.message.find('\n'));
  if (m.size() > 90) m = m.substr(0, 87) + "...";
  return m;
}

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string target_name(const ExpectResult& r) {
  if (!r.target.given()) return "?";
  const core::reply::TargetLoad& t = r.target.view;
  std::string s = t.spec.empty() ? "?" : t.spec;
  if (const json& p = t.params; p.is_object() && !p.empty()) {
    std::string ps;
    for (const auto& [k, v] : p.items()) ps += fmt::format("{}{}={}", ps.empty() ? "" : ", ", k, value_text(v));
    s += " (" + ps + ")";
  }
  return s;
}

// Evidence lines shared by text and Markdown: {label, value}.
std::vector<std::pair<std::string, std::string>> evidence_rows(const ExpectResult& r) {
  const Analysis& a = *r.analysis;
  const ProfileSummary& p = a.profile;
  const expect::Ceilings c = r.machine ? r.machine->ceilings : expect::Ceilings{};
  std::vector<std::pair<std::string, std::string>> rows;
  // Each latency says what it measures: bench quotes medians of interleaved samples, expect
  // reasons on its fastest plain call (the envelope its shares are fractions of).
  rows.push_back({"eager call",
                  fmt::format("{} ({})", format_duration(p.wall_per_call),
                              p.lower_envelope ? "the fastest of expect's plain calls: the envelope the shares are of"
                                               : "the median of expect's plain calls")});
  const Prediction& pred = a.predicted;
  rows.push_back({"fixed costs", fmt::format("op floor {}, compiled call {} ({})", format_duration(pred.op_floor),
                                             format_duration(pred.compiled_call),
                                             pred.fixed_costs_from_profile
                                                 ? "a 1-element add eager and compiled, timed between the plain calls"
                                                 : "the machine's ceilings")});
  rows.push_back(
      {"ops per call", fmt::format("{} (every op the profiler saw in one eager call; median op {}, p90 {})",
                                   count(p.ops_per_call), format_duration(p.op_p50), format_duration(p.op_p90))});
  if (std::string guarded = guarded_text(a); !guarded.empty()) rows.push_back({"guarded per call", guarded});
  rows.push_back({"time inside ops", fmt::format("{} (outside: {})", format_percent(p.in_op_fraction),
                                                 format_percent(p.overhead_fraction))});
  if (std::isfinite(p.device_busy_fraction))
    rows.push_back({"GPU busy", fmt::format("{} of wall, {} kernels per call", format_percent(p.device_busy_fraction),
                                            count(p.kernel_launches))});
  rows.push_back({"FLOPs / bytes per call", fmt::format("{} / {} ({:.2f} FLOP/byte)", count(a.flops_per_call),
                                                        format_bytes(a.bytes_per_call), a.arithmetic_intensity)});
  rows.push_back({"machine", fmt::format("{}, {}/s ({}; balance {:.2f} FLOP/byte)", flops_rate(c.peak_flops),
                                         format_bytes(c.peak_bandwidth), r.machine ? c.source : "?", c.balance())});
  if (a.flops_per_call == 0)
    rows.push_back({"roofline", "no matmul/conv/attention FLOPs (elementwise ops count 0): placed by bytes alone"});
  else
    rows.push_back(
        {"roofline", fmt::format("achieved {} of attainable {} ({})", flops_rate(a.roofline.achieved_flops),
                                 flops_rate(a.roofline.attainable_flops), format_percent(a.roofline.fraction))});
  const expect::TimeShares& s = a.time_shares;
  rows.push_back({"time shares",
                  fmt::format("outside ops {}, per-op fixed cost {}, memory traffic {}, kept arithmetic "
                              "(transcendental math, softmax, norms) {}, other op work {}, "
                              "matmul/conv/attention {}",
                              format_percent(s.outside), format_percent(s.fixed), format_percent(s.memory),
                              format_percent(s.kept_arithmetic), format_percent(s.other), format_percent(s.library))});
  return rows;
}

// A sweep table's class cell: the point's class, marked when it is borderline.
std::string class_cell(const SweepPoint& p) {
  if (!p.analysed) return "unknown";
  return words(p.analysed->cls) + (p.analysed->borderline_with ? " (borderline)" : "");
}
SpeedupRange point_range(const SweepPoint& p) { return p.analysed ? p.analysed->predicted : SpeedupRange{}; }

// The sweep table and its class changes: what was asked for, in both reports.
// A point's note: where its measurement lies against its range. validate() judges every measured
// speedup against a finite range but an inconclusive one (an interval that holds 1 and spans far).
std::string point_note(const SweepPoint& p) {
  if (p.validation) return p.validation->verdict;
  const bool judgeable = p.speedup && std::isfinite(p.speedup->estimate) && p.analysed &&
                         std::isfinite(p.analysed->predicted.low) && std::isfinite(p.analysed->predicted.high);
  return judgeable ? "too wide to judge" : "";
}

std::string sweep_text(const ExpectResult& r) {
  if (!r.sweep) return "";
  const Sweep& sw = *r.sweep;
  std::string out = fmt::format("  sweep over {}:\n", sw.param);
  Table st({sw.param, "class", "predicted", "measured speedup [95% CI]", "note"});
  for (const auto& p : sw.points) {
    if (p.error) {
      st.add({to_text(p.value), class_cell(p), range(point_range(p)), "failed", short_message(*p.error)});
      continue;
    }
    st.add({to_text(p.value), class_cell(p), range(point_range(p)), interval(p.speedup), point_note(p)});
  }
  out += st.str();
  for (const auto& c : sw.class_changes)
    out += fmt::format("  class changes from {} to {} between {}={} and {}\n", words(c.from_class), words(c.to_class),
                       sw.param, to_text(c.from_value), to_text(c.to_value));
  return out + "\n";
}

// "tct expect: TARGET", then the class and the predicted range: the first lines of both reports.
std::string head(const ExpectResult& r) {
  std::string out = fmt::format("tct expect: {}\n\n", target_name(r));
  if (!r.analysis) return out;
  const Analysis& a = *r.analysis;
  return out + fmt::format("  class: {}{}    predicted torch.compile speedup: {}\n", words(a.cls), borderline_note(a),
                           range(a.predicted.range));
}

}  // namespace

std::string compiled_note(const Analysis& a) {
  if (!a.compiled_run || a.predicted.assumes == Assumes::Captured) return "";
  const CompiledRunSummary& run = *a.compiled_run;
  std::string captured = range(run.if_captured);
  if (a.predicted.assumes == Assumes::NothingCompiled)
    return fmt::format(
        "nothing compiles: Dynamo skips {} and runs it eagerly, so no gain until that is fixed "
        "(`tct explain`); {} once it is captured",
        run.skipped_frames.empty() ? "the function" : run.skipped_frames[0].function, captured);
  if (a.predicted.assumes == Assumes::EagerPartStays && !run.eager_parts.empty()) {
    const std::string eager =
        core::describe(run.eager_parts[0]) +
        (run.eager_parts.size() > 1 ? fmt::format(" (and {} more)", run.eager_parts.size() - 1) : "");
    if (run.graph_share && std::isfinite(run.graph_share->covered))
      return fmt::format(
          "applies to the compiled {} of an eager call (time inside the captured graphs, fastest of {} interleaved "
          "pairs), from no gain there (less the model's error) to the captured high end; the rest runs eagerly at "
          "1.0x: {}{}; {} once the "
          "function is captured whole",
          format_percent(run.graph_share->covered), run.graph_share->pairs, eager,
          std::isfinite(run.graph_share->overhead)
              ? fmt::format("; Dynamo adds {} of an eager call around the graphs (the median pair), counted, and "
                            "the low end pays a compiled call's fixed cost besides (its graphs' wrappers)",
                            format_percent(run.graph_share->overhead))
              : std::string(),
          captured);
    return fmt::format(
        "{}; its share of the call was not measured, so the range reaches down to 1.0x; {} once the function is "
        "captured whole",
        eager, captured);
  }
  return fmt::format(
      "assumes the {} graph break(s) of the compiled run stay (the gain can fall to nothing); {} "
      "once the function is captured whole",
      run.graph_break_count, captured);
}

std::string guarded_text(const Analysis& a) {
  const double inputs = a.outside_tensors, modules = a.module_calls;
  if (!std::isfinite(inputs) || !std::isfinite(modules)) return "";
  return fmt::format("{} tensor{} read from outside (the compiled graph's inputs), {} nn.Module call{}", count(inputs),
                     inputs == 1 ? "" : "s", count(modules), modules == 1 ? "" : "s");
}

std::string borderline_mark(const Analysis& a) { return a.borderline_with ? " (borderline)" : ""; }

std::string borderline_note(const Analysis& a) {
  if (!a.borderline_with) return "";
  return fmt::format(" (borderline: the fixed-cost share is near the threshold, a re-run may say {})",
                     words(*a.borderline_with));
}

std::string text(const ExpectResult& r, bool bench_shown) {
  std::string out = head(r);
  if (!r.analysis) return out;
  const Analysis& a = *r.analysis;
  // The model's terms describe the captured function: said so when the run was not that.
  if (std::string note = compiled_note(a); !note.empty()) {
    std::string how = prediction_lines(a.predicted, "      ");
    out += fmt::format("    {}\n", note) + (how.empty() ? "" : "    the model, for the captured function:\n" + how);
  } else {
    out += prediction_lines(a.predicted, "    ");
  }
  out += "  decided by:\n";
  for (const auto& reason : a.decided_by) out += fmt::format("    - {}\n", reason.meaning);
  out += "\n";
  Table t({"evidence", "value"});
  for (auto& [k, v] : evidence_rows(r)) t.add({k, v});
  out += t.str() + "\n";

  if (!a.suggestions.empty()) {
    out += "  what to try, best first:\n";
    for (const auto& s : a.suggestions)
      out += fmt::format("    {}. {}\n       why: {}\n       how: {}\n", s.rank, s.title, s.why,
                         core::fix_with_terms(s.how, s.terms));
    out += "\n";
  }
  out += sweep_text(r);
  if (r.validation) out += "  validation: " + validation_text(*r.validation, bench_shown) + "\n\n";
  return out;
}

// The summary is "measured X is <the rest>" (expect/result.cpp validate), read back as it was
// written, so a saved document renders as the live run did.
std::string validation_text(const Validation& v, bool bench_shown) {
  constexpr std::string_view lead = "measured ", is = " is ";
  const auto at = v.summary.find(is);
  if (!bench_shown || !v.summary.starts_with(lead) || at == std::string::npos) return v.summary;
  return "bench's speedup (below) is " + v.summary.substr(at + is.size());
}

std::string brief(const ExpectResult& r, bool bench_shown) {
  std::string out = head(r);
  if (!r.analysis) return out;
  const Analysis& a = *r.analysis;
  if (std::string note = compiled_note(a); !note.empty()) out += fmt::format("    {}\n", note);
  for (std::size_t i = 0; i < a.decided_by.size() && i < 2; ++i)
    out += fmt::format("    - {}\n", a.decided_by[i].meaning);
  for (std::size_t i = 0; i < a.suggestions.size() && i < 3; ++i) {
    const Suggestion& s = a.suggestions[i];
    out += fmt::format("  {}. {}: {}\n", s.rank, s.title, core::fix_with_terms(s.how, s.terms));
  }
  out += sweep_text(r);
  if (r.validation) out += "  validation: " + validation_text(*r.validation, bench_shown) + "\n";
  return out + "\n";
}

std::string markdown(const ExpectResult& r, bool bench_shown) {
  std::string out = fmt::format("### Expectation: `{}`\n\n", target_name(r));
  if (!r.analysis) return out;
  const Analysis& a = *r.analysis;
  out += fmt::format("**{}**{}, predicted torch.compile speedup **{}**\n\n", words(a.cls), borderline_note(a),
                     range(a.predicted.range));
  if (std::string note = compiled_note(a); !note.empty()) out += "**" + note + "**\n\n";
  std::string how = prediction_lines(a.predicted, "");
  if (!how.empty()) out += "<sub>" + how.substr(0, how.size() - 1) + "</sub>\n\n";
  for (const auto& reason : a.decided_by) out += fmt::format("- {}\n", reason.meaning);
  out += "\n";
  Table t({"evidence", "value"});
  for (auto& [k, v] : evidence_rows(r)) t.add({k, v});
  out += t.markdown() + "\n";
  if (!a.suggestions.empty()) {
    out += "#### What to try\n\n";
    for (const auto& s : a.suggestions)
      out += fmt::format("{}. **{}**: {}. *How:* {}\n", s.rank, s.title, s.why, core::fix_with_terms(s.how, s.terms));
    out += "\n";
  }
  if (r.sweep) {
    const Sweep& sw = *r.sweep;
    out += fmt::format("#### Sweep over `{}`\n\n", sw.param);
    Table st({sw.param, "class", "predicted", "measured speedup [95% CI]", "note"});
    for (const auto& p : sw.points) {
      st.add({to_text(p.value), class_cell(p), range(point_range(p)), p.error ? "failed" : interval(p.speedup),
              p.error ? short_message(*p.error) : point_note(p)});
    }
    out += st.markdown() + "\n";
  }
  if (r.validation) out += "**Validation**: " + validation_text(*r.validation, bench_shown) + "\n\n";
  return out;
}

}  // namespace tct::expect
