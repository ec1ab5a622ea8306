// Terminal and Markdown rendering of doc["expect"] (tct expect). Nothing is computed here
// beyond formatting: the class, ranges and suggestions come from src/expect/.
#include <cmath>

#include <fmt/format.h>

#include "report/format.hpp"
#include "report/render.hpp"

namespace tct::report {
namespace {

std::string label(const json& cls) {
  if (!cls.is_string()) return "unknown";
  std::string s = cls.get<std::string>();
  for (auto& ch : s)
    if (ch == '_') ch = ' ';
  return s;
}

std::string range(const json& r) {
  double lo = number_or_nan(r, "low"), hi = number_or_nan(r, "high"), pt = number_or_nan(r, "point");
  if (std::isnan(lo) || std::isnan(hi)) return "n/a";
  if (std::isnan(pt)) return fmt::format("{:.2f}x - {:.2f}x", lo, hi);
  return fmt::format("{:.2f}x ({:.2f}x - {:.2f}x)", pt, lo, hi);
}

// How the point prediction was made, term by term, and where the interval comes from.
std::string prediction_lines(const json& p, const std::string& indent) {
  if (!p.is_object() || !p.contains("terms")) return "";
  std::string terms;
  for (const auto& t : p["terms"]) {
    double share = number_or_nan(t, "share");
    if (!(share > 0.005)) continue;
    std::string name = t.value("term", "?");
    terms += fmt::format("{}{} {} x {:.2f}", terms.empty() ? "" : " + ", name, format_percent(share),
                         number_or_nan(t, "keep"));
  }
  std::string out = fmt::format("{}point = 1 / ({})\n", indent, terms);
  const json& iv = p.value("interval", json::object());
  const json& cal = iv.value("calibration", json::object());
  double point = number_or_nan(p, "point");
  out += fmt::format("{}interval = point x [{:.2f}, {:.2f}], from the calibration set's errors, wider the more of the "
                     "compiled time is generated kernels ({} here); on our validation set, {} of {} measured "
                     "speedups fell inside\n",
                     indent, number_or_nan(p, "low") / point, number_or_nan(p, "high") / point,
                     format_percent(number_or_nan(iv, "generated_share")), cal.value("validation_inside", 0),
                     cal.value("validation_cases", 0));
  return out;
}

std::string interval(const json& s) {
  if (!s.is_object()) return "n/a";
  double est = number_or_nan(s, "estimate"), lo = number_or_nan(s, "low"), hi = number_or_nan(s, "high");
  if (std::isnan(est)) return "n/a";
  if (std::isnan(lo) || std::isnan(hi)) return format_ratio(est);
  return fmt::format("{} [{:.2f}, {:.2f}]", format_ratio(est), lo, hi);
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
std::string short_message(const json& err) {
  std::string m = err.is_object() ? err.value("message", "") : "";
  m = m.substr(0, m.find('\n'));
  if (m.size() > 90) m = m.substr(0, 87) + "...";
  return m;
}

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string target_name(const json& e) {
  const json& t = e.value("target", json());
  if (!t.is_object()) return "?";
  std::string s = t.value("spec", "?");
  const json& p = t.value("params", json::object());
  if (p.is_object() && !p.empty()) {
    std::string ps;
    for (const auto& [k, v] : p.items()) ps += fmt::format("{}{}={}", ps.empty() ? "" : ", ", k, value_text(v));
    s += " (" + ps + ")";
  }
  return s;
}

// Evidence lines shared by text and Markdown: {label, value}.
std::vector<std::pair<std::string, std::string>> evidence_rows(const json& e) {
  std::vector<std::pair<std::string, std::string>> rows;
  const json& p = e.value("profile", json::object());
  const json& d = p.value("op_time_distribution", json::object());
  // Each latency says what it measures: bench quotes medians of interleaved samples, expect
  // reasons on its fastest plain call (the envelope its shares are fractions of).
  rows.push_back({"eager call", fmt::format("{} ({})", format_duration_ns(number_or_nan(p, "wall_per_call_ns")),
                                            p.value("estimator", "") == "lower_envelope"
                                                ? "the fastest of expect's plain calls: the envelope the shares are of"
                                                : "the median of expect's plain calls")});
  // The fixed costs the prediction used (a document from before they were recorded: the ceilings').
  const json& pred = e.value("predicted_speedup", json::object());
  const json& c = e.value("ceilings", json::object());
  bool timed = pred.value("compiled_call_source", "") == "profile";
  const json& fixed = pred.contains("op_floor_ns") ? pred : c;
  rows.push_back({"fixed costs", fmt::format("op floor {}, compiled call {} ({})",
                                             format_duration_ns(number_or_nan(fixed, "op_floor_ns")),
                                             format_duration_ns(number_or_nan(fixed, "compiled_call_ns")),
                                             timed ? "a 1-element add eager and compiled, timed between the plain calls"
                                                   : "the machine's ceilings")});
  rows.push_back({"ops per call", fmt::format("{} (every op the profiler saw in one eager call; median op {}, p90 {})", count(number_or_nan(p, "ops_per_call")),
                                              format_duration_ns(number_or_nan(d, "p50_ns")),
                                              format_duration_ns(number_or_nan(d, "p90_ns")))});
  if (std::string guarded = expect_guarded_text(e); !guarded.empty()) rows.push_back({"guarded per call", guarded});
  rows.push_back({"time inside ops", fmt::format("{} (outside: {})", format_percent(number_or_nan(p, "in_op_fraction")),
                                                 format_percent(number_or_nan(p, "overhead_fraction")))});
  if (p.contains("device_busy_fraction") && p["device_busy_fraction"].is_number())
    rows.push_back({"GPU busy", fmt::format("{} of wall, {} kernels per call",
                                            format_percent(number_or_nan(p, "device_busy_fraction")),
                                            count(number_or_nan(p, "kernel_launches")))});
  rows.push_back({"FLOPs / bytes per call", fmt::format("{} / {} ({:.2f} FLOP/byte)", count(number_or_nan(e, "flops_per_call")),
                                                        format_bytes(number_or_nan(e, "bytes_per_call")),
                                                        number_or_nan(e, "arithmetic_intensity"))});
  rows.push_back({"machine", fmt::format("{}, {}/s ({}; balance {:.2f} FLOP/byte)",
                                         flops_rate(number_or_nan(c, "peak_flops")),
                                         format_bytes(number_or_nan(c, "peak_bandwidth_bytes_per_s")),
                                         c.value("source", "?"), number_or_nan(c, "balance_flops_per_byte"))});
  const json& r = e.value("roofline", json::object());
  if (number_or_nan(e, "flops_per_call") == 0)
    rows.push_back({"roofline", "no matmul/conv/attention FLOPs (elementwise ops count 0): placed by bytes alone"});
  else
    rows.push_back({"roofline", fmt::format("achieved {} of attainable {} ({})", flops_rate(number_or_nan(r, "achieved_flops")),
                                          flops_rate(number_or_nan(r, "attainable_flops")),
                                          format_percent(number_or_nan(r, "fraction")))});
  const json& s = e.value("time_shares", json::object());
  rows.push_back({"time shares", fmt::format("outside ops {}, per-op fixed cost {}, memory traffic {}, kept arithmetic "
                                             "(transcendental math, softmax, norms) {}, other op work {}, "
                                             "matmul/conv/attention {}",
                                             format_percent(number_or_nan(s, "outside_ops")),
                                             format_percent(number_or_nan(s, "fixed_cost")),
                                             format_percent(number_or_nan(s, "memory_traffic")),
                                             format_percent(number_or_nan(s, "kept_arithmetic")),
                                             format_percent(number_or_nan(s, "other_compute")),
                                             format_percent(number_or_nan(s, "library")))});
  return rows;
}

// A sweep table's class cell: the class, marked when borderline.
std::string class_cell(const json& point) { return label(point.value("class", json())) + expect_borderline_mark(point); }

std::string validation_line(const json& v) { return v.is_object() ? v.value("summary", "") : ""; }

}  // namespace

std::string expect_compiled_note(const json& e) {
  const json& run = e.value("compiled_run", json());
  std::string assumes = e.value("predicted_speedup", json::object()).value("assumes", "captured");
  if (!run.is_object() || assumes == "captured") return "";
  std::string captured = range(run.value("if_captured", json::object()));
  if (assumes == "nothing_compiled") {
    const json& f = run.value("skipped_frames", json::array()).empty() ? json::object() : run["skipped_frames"][0];
    return fmt::format("nothing compiles: Dynamo skips {} and runs it eagerly, so no gain until that is fixed "
                       "(`tct explain`); {} once it is captured",
                       f.value("function", "the function"), captured);
  }
  return fmt::format("assumes the {} graph break(s) of the compiled run stay (the gain can fall to nothing); {} "
                     "once the function is captured whole",
                     run.value("graph_break_count", 0), captured);
}

std::string expect_guarded_text(const json& e) {
  const double inputs = number_or_nan(e, "outside_tensors"), modules = number_or_nan(e, "module_calls");
  if (!std::isfinite(inputs) || !std::isfinite(modules)) return "";
  return fmt::format("{} tensor{} read from outside (the compiled graph's inputs), {} nn.Module call{}", count(inputs),
                     inputs == 1 ? "" : "s", count(modules), modules == 1 ? "" : "s");
}

std::string expect_borderline_mark(const json& e) {
  return e.value("borderline_with", json()).is_string() ? " (borderline)" : "";
}

std::string expect_borderline_note(const json& e) {
  const json& other = e.value("borderline_with", json());
  if (!other.is_string()) return "";
  return fmt::format(" (borderline: the fixed-cost share is near the threshold, a re-run may say {})", label(other));
}

namespace {

// The sweep table and its class changes: what was asked for, in both reports.
std::string sweep_text(const json& e) {
  const json& sw = e.value("sweep", json());
  if (!sw.is_object()) return "";
  std::string out = fmt::format("  sweep over {}:\n", sw.value("param", "?"));
  Table st({sw.value("param", "?"), "class", "predicted", "measured speedup [95% CI]", "note"});
  for (const auto& p : sw.value("points", json::array())) {
    if (!p.value("error", json()).is_null()) {
      st.add({value_text(p["value"]), class_cell(p), range(p.value("predicted_speedup", json::object())),
              "failed", short_message(p["error"])});
      continue;
    }
    const json& v = p.value("validation", json());
    st.add({value_text(p["value"]), class_cell(p), range(p.value("predicted_speedup", json::object())),
            interval(p.value("speedup", json())), v.is_object() ? v.value("verdict", "") : ""});
  }
  out += st.str();
  for (const auto& c : sw.value("class_changes", json::array()))
    out += fmt::format("  class changes from {} to {} between {}={} and {}\n", label(c["from_class"]),
                       label(c["to_class"]), sw.value("param", "?"), value_text(c["from_value"]),
                       value_text(c["to_value"]));
  return out + "\n";
}

// "tct expect: TARGET", then the class and the predicted range: the first lines of both reports.
std::string expect_head(const json& e) {
  std::string out = fmt::format("tct expect: {}\n\n", target_name(e));
  if (e.value("class", json()).is_null()) return out;
  return out + fmt::format("  class: {}{}    predicted torch.compile speedup: {}\n", label(e["class"]),
                           expect_borderline_note(e), range(e.value("predicted_speedup", json::object())));
}

}  // namespace

std::string text_expect(const json& doc) {
  const json& e = doc["expect"];
  std::string out = expect_head(e);
  if (e.value("class", json()).is_null()) return out;
  // The model's terms describe the captured function: said so when the run was not that.
  if (std::string note = expect_compiled_note(e); !note.empty()) {
    std::string how = prediction_lines(e.value("predicted_speedup", json::object()), "      ");
    out += fmt::format("    {}\n", note) + (how.empty() ? "" : "    the model, for the captured function:\n" + how);
  } else {
    out += prediction_lines(e.value("predicted_speedup", json::object()), "    ");
  }
  out += "  decided by:\n";
  for (const auto& r : e.value("decided_by", json::array())) out += fmt::format("    - {}\n", r.value("meaning", ""));
  out += "\n";
  Table t({"evidence", "value"});
  for (auto& [k, v] : evidence_rows(e)) t.add({k, v});
  out += t.str() + "\n";

  const json& sugg = e.value("suggestions", json::array());
  if (!sugg.empty()) {
    out += "  what to try, best first:\n";
    for (const auto& s : sugg)
      out += fmt::format("    {}. {}\n       why: {}\n       how: {}\n", s.value("rank", 0), s.value("title", ""),
                         s.value("why", ""), s.value("how", ""));
    out += "\n";
  }
  out += sweep_text(e);
  const json& v = e.value("validation", json());
  if (v.is_object()) out += "  validation: " + validation_line(v) + "\n\n";
  return out;
}

// The class, the range, the two strongest reasons, the top three suggestions (and the sweep
// and validation, which are what was asked for when present): `-v` prints the evidence and the
// model term by term.
std::string brief_expect(const json& doc) {
  const json& e = doc["expect"];
  std::string out = expect_head(e);
  if (e.value("class", json()).is_null()) return out;
  if (std::string note = expect_compiled_note(e); !note.empty()) out += fmt::format("    {}\n", note);
  int n = 0;
  for (const auto& r : e.value("decided_by", json::array()))
    if (n++ < 2) out += fmt::format("    - {}\n", r.value("meaning", ""));
  n = 0;
  for (const auto& s : e.value("suggestions", json::array()))
    if (n++ < 3) out += fmt::format("  {}. {}: {}\n", s.value("rank", 0), s.value("title", ""), s.value("how", ""));
  out += sweep_text(e);
  const json& v = e.value("validation", json());
  if (v.is_object()) out += "  validation: " + validation_line(v) + "\n";
  return out + "\n";
}

std::string markdown_expect(const json& doc) {
  const json& e = doc["expect"];
  std::string out = fmt::format("### Expectation: `{}`\n\n", target_name(e));
  if (e.value("class", json()).is_null()) return out;
  out += fmt::format("**{}**{}, predicted torch.compile speedup **{}**\n\n", label(e["class"]), expect_borderline_note(e),
                     range(e.value("predicted_speedup", json::object())));
  if (std::string note = expect_compiled_note(e); !note.empty()) out += "**" + note + "**\n\n";
  std::string how = prediction_lines(e.value("predicted_speedup", json::object()), "");
  if (!how.empty()) out += "<sub>" + how.substr(0, how.size() - 1) + "</sub>\n\n";
  for (const auto& r : e.value("decided_by", json::array())) out += fmt::format("- {}\n", r.value("meaning", ""));
  out += "\n";
  Table t({"evidence", "value"});
  for (auto& [k, v] : evidence_rows(e)) t.add({k, v});
  out += t.markdown() + "\n";
  const json& sugg = e.value("suggestions", json::array());
  if (!sugg.empty()) {
    out += "#### What to try\n\n";
    for (const auto& s : sugg)
      out += fmt::format("{}. **{}**: {}. *How:* {}\n", s.value("rank", 0), s.value("title", ""), s.value("why", ""),
                         s.value("how", ""));
    out += "\n";
  }
  const json& sw = e.value("sweep", json());
  if (sw.is_object()) {
    out += fmt::format("#### Sweep over `{}`\n\n", sw.value("param", "?"));
    Table st({sw.value("param", "?"), "class", "predicted", "measured speedup [95% CI]", "note"});
    for (const auto& p : sw.value("points", json::array())) {
      bool failed = !p.value("error", json()).is_null();
      const json& v = p.value("validation", json());
      st.add({value_text(p["value"]), class_cell(p), range(p.value("predicted_speedup", json::object())),
              failed ? "failed" : interval(p.value("speedup", json())),
              failed ? short_message(p["error"]) : (v.is_object() ? v.value("verdict", "") : "")});
    }
    out += st.markdown() + "\n";
  }
  const json& v = e.value("validation", json());
  if (v.is_object()) out += "**Validation**: " + validation_line(v) + "\n\n";
  return out;
}

}  // namespace tct::report
