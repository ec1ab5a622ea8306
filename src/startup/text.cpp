// The terminal and Markdown renderings of tct startup's result.
#include <cmath>

#include <fmt/format.h>

#include "report/format.hpp"
#include "startup/json.hpp"
#include "startup/render.hpp"

namespace tct::startup {
namespace {

using report::format_bytes;
using report::format_duration;

std::string interval_cell(const ModeResult& m) {
  if (!m.ok()) return m.skipped.empty() ? "failed" : "skipped";
  if (!measured(m.low) || !measured(m.high)) return format_duration(m.median);
  return fmt::format("{} [{} .. {}]", format_duration(m.median), format_duration(m.low), format_duration(m.high));
}

std::string break_even_cell(const ModeResult& m) {
  if (m.mode == Mode::Eager || !m.ok()) return "";
  if (!m.break_even_calls) return "never";
  return calls_text(*m.break_even_calls);
}

std::string shipped_cell(const ModeResult& m) {
  if (!m.shipped_bytes) return "";
  const char* what = m.mode == Mode::Warm ? "local cache" : m.mode == Mode::Shipped ? "artifacts" : "package";
  return fmt::format("{} {}", format_bytes(*m.shipped_bytes), what);
}

// The phases of a mode, largest first, as "import torch 2.1 s, C++ compiler 9.8 s".
std::string phase_line(const ModeResult& m, size_t most) {
  std::vector<std::pair<Phase, Nanoseconds>> ps(m.phases.begin(), m.phases.end());
  std::stable_sort(ps.begin(), ps.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  size_t n = 0;
  for (const auto& [p, d] : ps) {
    if (n == most) break;
    if (!measured(d) || d.count() <= 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", describe(p), format_duration(d));
    ++n;
  }
  return out;
}

// "fx_graph miss", with the reason or what changed in the key.
std::string lookup_line(const CacheLookup& l, size_t max_changes) {
  std::string out = fmt::format("{} {}", l.cache == "fx_graph" ? "FX graph cache" : "AOTAutograd cache", l.state);
  if (!l.reason.empty()) out += ": " + l.reason;
  if (!l.changed.empty()) {
    out += "; the key changed in ";
    for (size_t i = 0; i < l.changed.size() && i < max_changes; ++i) out += (i ? "; " : "") + l.changed[i];
    if (l.changed.size() > max_changes) out += fmt::format(" (and {} more)", l.changed.size() - max_changes);
  } else if (l.state == "miss" && l.reason.empty()) {
    out += " (no entry with this key)";
  }
  return out;
}

std::string check_line(const OutputCheck& c) {
  if (!c.shape_equal) return "outputs DIFFER from eager: not the same number, shapes or dtypes";
  return fmt::format("outputs {} eager's (max abs diff {:.3g}, outputs up to {:.3g})",
                     c.match ? "match" : "DIFFER from", c.max_abs_diff, c.max_abs_expected);
}

std::string still_compiled_line(const CompileFinding& f) {
  return fmt::format(
      "{} start: every cache lookup hit, yet the C++ compiler ran {} of its {}: what it built is not in {}",
      to_string(f.mode), format_duration(f.cpp_compiler), format_duration(f.first_output),
      f.mode == Mode::Shipped ? "the cache artifacts" : "the local caches");
}

std::string counts(const std::vector<CacheLookup>& ls) {
  if (ls.empty()) return "no cache lookup in its trace";
  std::map<std::string, int> n;
  for (const auto& l : ls) n[(l.cache == "fx_graph" ? "FX graph " : "AOTAutograd ") + l.state]++;
  std::string out;
  for (const auto& [k, v] : n) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", v, k);
  return out;
}

std::string coverage_note(const StartupResult& r) {
  double c = 0;
  for (const auto& m : r.modes)
    if (m.ok()) c = std::max(c, m.coverage);
  if (c <= 0) return fmt::format("{} fresh process(es) per mode: repeat for an interval", r.repeats);
  // Every other command gives 95% intervals; the median's order-statistic interval reaches 95%
  // from 6 starts on (startup/interval.hpp), so fewer say what theirs covers and what would do.
  if (c < 0.95)
    return fmt::format(
        "[..]: the range of {} fresh processes, which holds the median {:.0f}% of the time, not "
        "95%: --repeats 6 or more for a 95% interval",
        r.repeats, c * 100);
  return fmt::format("[..]: {:.0f}% interval of the median over {} fresh processes", c * 100, r.repeats);
}

// A command's start, per call site: "first output: embed 1.2 s [1.1 s .. 1.3 s]; rank 1.5 s [..]".
std::string site_table(const ModeResult& m, const std::string& indent) {
  report::Table t({"call site", "first call ends"});
  for (const auto& s : m.sites) {
    std::string cell = format_duration(s.median);
    if (measured(s.low) && measured(s.high))
      cell += fmt::format(" [{} .. {}]", format_duration(s.low), format_duration(s.high));
    t.add({s.name, cell});
  }
  return t.str(indent);
}

std::string start_cell(const Start& s) {
  return s.error.empty() ? format_duration(s.first_output) : "failed (" + s.error + ")";
}

report::Table mode_table(const StartupResult& r) {
  report::Table t({"mode", "first output", "per call", "break-even vs eager", "shipped"});
  for (const auto& m : r.modes)
    t.add({std::string(to_string(m.mode)), interval_cell(m), m.ok() ? format_duration(m.per_call) : "",
           break_even_cell(m), shipped_cell(m)});
  return t;
}

}  // namespace

std::string calls_text(double calls) {
  const double n = std::ceil(calls);
  if (n < 1e5) return fmt::format("{:.0f} calls", n);
  if (n < 1e9) return fmt::format("{:.3g} million calls", n / 1e6);
  return fmt::format("{:.3g} billion calls", n / 1e9);
}

std::string sites_line(const ModeResult& m) {
  std::string out;
  for (const auto& s : m.sites)
    out += fmt::format("{}{} {}", out.empty() ? "call sites: " : "; ", s.name, format_duration(s.median));
  return out;
}

std::string answer(const StartupResult& r) {
  if (!r.verdict.fastest) return "no start mode ran";
  const ModeResult* f = r.find(*r.verdict.fastest);
  std::string out = fmt::format("{} starts fastest ({})", to_string(*r.verdict.fastest), format_duration(f->median));
  if (!r.verdict.tied.empty()) {
    out += ", tied with";
    for (Mode m : r.verdict.tied) out += fmt::format(" {}", to_string(m));
  }
  if (r.verdict.fastest_compiled && r.verdict.fastest_compiled != r.verdict.fastest) {
    const ModeResult* c = r.find(*r.verdict.fastest_compiled);
    out += fmt::format("; of the compiled modes, {} ({})", to_string(*r.verdict.fastest_compiled),
                       format_duration(c->median));
    if (!r.verdict.compiled_tied.empty()) {
      out += ", tied with";
      for (Mode m : r.verdict.compiled_tied) out += fmt::format(" {}", to_string(m));
    }
  }
  return out;
}

std::string brief(const StartupResult& r) {
  std::string out = fmt::format("startup: {}: {}\n", r.target, answer(r));
  out += mode_table(r).str();
  for (const auto& m : r.modes) {
    if (!m.ok()) {
      out += fmt::format("  {} {}: {}\n", to_string(m.mode), m.skipped.empty() ? "failed" : "skipped",
                         m.skipped.empty() ? m.error : m.skipped);
      continue;
    }
    if (m.sites.size() > 1) out += fmt::format("  {}: {}\n", to_string(m.mode), sites_line(m));
    if (m.mode == Mode::Eager || m.phases.empty()) continue;
    out += fmt::format("  {}: {}{}\n", to_string(m.mode), phase_line(m, 3), m.check ? "; " + check_line(*m.check) : "");
  }
  for (const auto& f : r.findings) out += fmt::format("  {} start: {}\n", to_string(f.mode), lookup_line(f.lookup, 2));
  for (const auto& f : r.still_compiled) out += "  " + still_compiled_line(f) + "\n";
  out += "  (" + coverage_note(r) + "; tct startup -v: every phase and cache lookup)\n";
  return out;
}

std::string text(const StartupResult& r) {
  std::string out = fmt::format("startup: {}: {}\n", r.target, answer(r));
  if (!r.command.empty())
    out += fmt::format(
        "  the command as it is, {} fresh process(es) per mode, each timed from launch to the end of its first "
        "compiled call\n",
        r.repeats);
  else
    out += fmt::format("  backend {}, {} fresh process(es) per mode{}\n", r.backend, r.repeats,
                       r.deploy_env.empty() ? "" : ", deploy environment (warm, shipped):");
  for (const auto& e : r.deploy_env) out += "    " + e + "\n";
  out += mode_table(r).str();
  out += "  " + coverage_note(r) + "\n";
  for (const auto& f : r.still_compiled) out += "  " + still_compiled_line(f) + "\n";
  for (const auto& m : r.modes) {
    out += fmt::format("\n  {} ({})\n", to_string(m.mode), describe(m.mode));
    if (!m.ok()) {
      out += fmt::format("    {}: {}\n", m.skipped.empty() ? "failed" : "skipped",
                         m.skipped.empty() ? m.error : m.skipped);
      if (m.starts.empty()) continue;
    }
    if (!m.phases.empty()) {
      report::Table t({"phase", "time (median start)"});
      for (Phase p : kAllPhases)
        if (auto it = m.phases.find(p); it != m.phases.end())
          t.add({std::string(describe(p)), format_duration(it->second)});
      out += t.str("    ");
    }
    if (!m.sites.empty()) out += site_table(m, "    ");
    if (measured(m.package_compile))
      out += fmt::format("    package compile (once): {}\n", format_duration(m.package_compile));
    if (m.check) out += "    " + check_line(*m.check) + "\n";
    std::string starts;
    for (const auto& s : m.starts) starts += (starts.empty() ? "" : ", ") + start_cell(s);
    out += fmt::format("    starts: {}\n", starts);
    if (m.mode == Mode::Eager || m.mode == Mode::AotiPython || m.mode == Mode::AotiCpp) continue;
    out += fmt::format("    cache (median start): {}\n", counts(m.lookups));
    for (const auto& l : m.lookups)
      if (l.state != "hit") out += "      " + lookup_line(l, 8) + "\n";
    for (const auto& s : m.starts)
      if (!s.trace_read) {
        out += "    a start left no TORCH_TRACE log: its compile phases and cache lookups are unknown\n";
        break;
      }
    if (!m.starts.empty() && m.starts.front().counters) {
      const CacheCounters& c = *m.starts.front().counters;
      out += fmt::format(
          "    torch's counters (first start): FX graph {} hit, {} miss, {} bypass; AOTAutograd "
          "{} hit, {} miss, {} bypass\n",
          c.fx_hit, c.fx_miss, c.fx_bypass, c.aot_hit, c.aot_miss, c.aot_bypass);
    }
  }
  return out;
}

std::string markdown(const StartupResult& r) {
  std::string out = fmt::format("### Start-up: {}\n\n{}\n\n", report::markdown_cell(r.target), answer(r));
  report::Table t({"mode", "first output", "per call", "break-even vs eager", "shipped", "largest phases"});
  for (const auto& m : r.modes)
    t.add({std::string(to_string(m.mode)), interval_cell(m), m.ok() ? format_duration(m.per_call) : "",
           break_even_cell(m), shipped_cell(m),
           !m.ok()            ? (m.skipped.empty() ? m.error : m.skipped)
           : m.phases.empty() ? sites_line(m)
                              : phase_line(m, 3)});
  out += t.markdown() + "\n" + coverage_note(r) + "\n";
  if (!r.findings.empty()) {
    out += "\n**Cache misses where a hit was expected**\n\n";
    for (const auto& f : r.findings)
      out += fmt::format("- {}: {}\n", to_string(f.mode), report::markdown_cell(lookup_line(f.lookup, 4)));
  }
  for (const auto& f : r.still_compiled) out += "\n" + report::markdown_cell(still_compiled_line(f)) + "\n";
  return out;
}

}  // namespace tct::startup
