#include "job/decide.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "job/shape_fixes.hpp"
#include "stats/mean_interval.hpp"
#include "stats/summary.hpp"

namespace tct::job {
namespace {

// Relative tolerance of a printed number (see same_line), and the absolute floor under it.
constexpr double kNumberRelTol = 1e-3;
constexpr double kNumberAbsTol = 1e-6;
// Points of the curve searched for the fastest mode's changes, between 1 call and the horizon.
constexpr int kCrossingGrid = 400;

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::string w;
  for (char c : line) {
    // Punctuation around a number ("loss=0.25,") separates words, a decimal point does not.
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == '=' || c == ':' || c == '(' || c == ')' ||
        c == '[' || c == ']') {
      if (!w.empty()) out.push_back(w);
      w.clear();
      if (!std::isspace(static_cast<unsigned char>(c))) out.push_back(std::string(1, c));
    } else {
      w += c;
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

std::optional<double> number(const std::string& w) {
  char* end = nullptr;
  const double v = std::strtod(w.c_str(), &end);
  if (end == w.c_str() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

// The value of each round's run (1-based round -> slot), NaN where the round has none.
std::vector<double> by_round(const ModeResult& m, int rounds, const std::function<double(const RunFigures&)>& value) {
  std::vector<double> out(static_cast<size_t>(std::max(rounds, 0)), NAN);
  for (const auto& run : m.runs)
    if (run.round >= 1 && run.round <= rounds && run.ok()) out[static_cast<size_t>(run.round - 1)] = value(run);
  return out;
}

stats::Interval interval_of(const ModeResult& m, const std::function<double(const RunFigures&)>& value) {
  std::vector<double> xs;
  for (const auto& run : m.runs)
    if (run.ok()) xs.push_back(value(run));
  return stats::mean_interval(xs);
}

void summarize_sites(ModeResult& m) {
  m.sites.clear();
  std::map<std::string, std::vector<const SiteRun*>> by_key;
  std::vector<std::string> order;
  for (const auto& run : m.runs) {
    if (!run.ok()) continue;
    for (const auto& s : run.sites) {
      if (!by_key.count(s.key)) order.push_back(s.key);
      by_key[s.key].push_back(&s);
    }
  }
  for (const auto& key : order) {
    const auto& runs = by_key[key];
    SiteSummary out;
    out.key = key;
    out.name = runs.front()->name;
    std::vector<double> first, steady, compile, calls;
    for (const SiteRun* s : runs) {
      first.push_back(s->first_output.count());
      steady.push_back(s->steady.count());
      compile.push_back(s->compile_time.count());
      calls.push_back(static_cast<double>(s->calls));
      out.cache_hits += s->cache_hits;
      out.cache_misses += s->cache_misses;
      out.cache_bypasses += s->cache_bypasses;
      out.recompiles = std::max(out.recompiles, s->recompiles);
    }
    out.first_output = stats::mean_interval(first);
    out.steady = stats::mean_interval(steady);
    out.compile_time = Nanoseconds(stats::median(compile));
    out.calls = static_cast<size_t>(stats::median(calls));
    m.sites.push_back(std::move(out));
  }
}

// Eager's reference lines and the line numbers where eager's own runs disagree (left out).
struct Reference {
  const std::vector<std::string>* lines = nullptr;
  std::set<size_t> unstable;
};

Reference reference_of(const JobResult& r) {
  Reference ref;
  const ModeResult* eager = nullptr;
  for (const auto& m : r.modes)
    if (m.spec.how == How::Eager && (eager == nullptr || !m.spec.threads)) eager = &m;
  if (eager == nullptr) return ref;
  for (const auto& run : eager->runs) {
    if (!run.ok()) continue;
    if (ref.lines == nullptr) {
      ref.lines = &run.output;
      continue;
    }
    for (size_t i = 0; i < std::max(ref.lines->size(), run.output.size()); ++i)
      if (i >= ref.lines->size() || i >= run.output.size() || !same_line((*ref.lines)[i], run.output[i]))
        ref.unstable.insert(i);
  }
  return ref;
}

void check_output(ModeResult& m, const Reference& ref) {
  m.output = OutputCheck{};
  if (ref.lines == nullptr) return;
  for (const auto& run : m.runs) {
    if (!run.ok()) continue;
    m.output.compared = true;
    int differing = 0;
    for (size_t i = 0; i < std::max(ref.lines->size(), run.output.size()); ++i) {
      if (ref.unstable.count(i)) continue;
      const std::string e = i < ref.lines->size() ? (*ref.lines)[i] : "";
      const std::string o = i < run.output.size() ? run.output[i] : "";
      if (i < ref.lines->size() && i < run.output.size() && same_line(e, o)) continue;
      if (differing++ == 0 && m.output.same) {
        m.output.same = false;
        m.output.line = static_cast<int>(i + 1);
        m.output.eager_line = e;
        m.output.mode_line = o;
      }
    }
    m.output.differing_lines = std::max(m.output.differing_lines, differing);
  }
}

Decision decide_by(const JobResult& r, const std::function<std::optional<stats::Interval>(const ModeResult&)>& figure,
                   const std::function<double(const RunFigures&)>& per_run) {
  Decision d;
  const ModeResult* best = nullptr;
  for (const auto& m : r.modes) {
    const auto f = figure(m);
    if (!m.eligible() || !f || !std::isfinite(f->estimate)) continue;
    if (best == nullptr || f->estimate < figure(*best)->estimate) best = &m;
  }
  if (best == nullptr) return d;
  d.best = best->spec.label();
  const std::vector<double> base = by_round(*best, r.rounds, per_run);
  for (const auto& m : r.modes) {
    if (&m == best || !m.ok()) continue;
    Comparison c;
    c.mode = m.spec.label();
    c.ratio = stats::paired_ratio_interval(by_round(m, r.rounds, per_run), base);
    c.verdict = stats::decide(c.ratio);
    d.others.push_back(std::move(c));
  }
  return d;
}

// The eligible mode with the lowest mean total at `calls` ("" when none has one).
std::string fastest_at(const JobResult& r, double calls) {
  const ModeResult* best = nullptr;
  double best_total = NAN;
  for (const auto& m : r.modes) {
    if (!m.eligible()) continue;
    const double t = mean_total_at(m, calls, r.anchor);
    if (std::isfinite(t) && (best == nullptr || t < best_total)) {
      best = &m;
      best_total = t;
    }
  }
  return best ? best->spec.label() : "";
}

void find_crossings(JobResult& r) {
  r.crossings.clear();
  double span = r.horizon_calls.value_or(0);
  for (const auto& m : r.modes)
    for (const auto& run : m.runs)
      if (run.ok()) span = std::max(span, static_cast<double>(run.anchor_calls));
  if (span < 2) return;
  double prev_calls = 1;
  std::string prev = fastest_at(r, prev_calls);
  for (int i = 1; i <= kCrossingGrid; ++i) {
    const double calls = 1 + (span - 1) * i / kCrossingGrid;
    const std::string now = fastest_at(r, calls);
    if (now != prev && !prev.empty() && !now.empty()) {
      // The first whole call at which `now` leads: whole bounds, so that each step narrows them.
      double lo = std::floor(prev_calls), hi = std::ceil(calls);
      while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        (fastest_at(r, mid) == prev ? lo : hi) = mid;
      }
      r.crossings.push_back({hi, prev, now});
    }
    if (!now.empty()) prev = now;
    prev_calls = calls;
  }
}

}  // namespace

bool same_line(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const auto wa = words(a), wb = words(b);
  if (wa.size() != wb.size()) return false;
  for (size_t i = 0; i < wa.size(); ++i) {
    if (wa[i] == wb[i]) continue;
    const auto x = number(wa[i]), y = number(wb[i]);
    if (!x || !y) return false;
    if (std::fabs(*x - *y) > kNumberRelTol * std::max(std::fabs(*x), std::fabs(*y)) + kNumberAbsTol) return false;
  }
  return true;
}

double mean_total_at(const ModeResult& m, double calls, const std::string& anchor) {
  double sum = 0;
  int n = 0;
  for (const auto& run : m.runs) {
    const double t = run.anchor == anchor ? total_at(run, calls) : NAN;
    if (std::isfinite(t)) {
      sum += t;
      ++n;
    }
  }
  return n ? sum / n : NAN;
}

void decide(JobResult& r) {
  r.notes.clear();
  r.anchor.clear();
  r.anchor_name.clear();
  for (const auto& m : r.modes)
    for (const auto& run : m.runs)
      if (run.ok() && !run.anchor.empty() && r.anchor.empty()) {
        r.anchor = run.anchor;
        for (const auto& s : run.sites)
          if (s.key == run.anchor) r.anchor_name = s.name;
      }
  const Reference ref = reference_of(r);
  for (auto& m : r.modes) {
    m.failed = 0;
    for (const auto& run : m.runs)
      if (!run.ok()) ++m.failed;
    m.total = interval_of(m, [](const RunFigures& x) { return x.wall.count(); });
    m.loop_per_call = interval_of(m, [](const RunFigures& x) { return x.loop_per_call.count(); });
    m.at_horizon.reset();
    if (r.horizon_calls) {
      const double n = *r.horizon_calls;
      m.at_horizon =
          interval_of(m, [n, &r](const RunFigures& x) { return x.anchor == r.anchor ? total_at(x, n) : NAN; });
    }
    summarize_sites(m);
    check_output(m, ref);
  }
  r.as_run = decide_by(
      r, [](const ModeResult& m) { return std::optional<stats::Interval>(m.total); },
      [](const RunFigures& x) { return x.wall.count(); });
  r.at_horizon.reset();
  if (r.horizon_calls) {
    const double n = *r.horizon_calls;
    r.at_horizon = decide_by(
        r, [](const ModeResult& m) { return m.at_horizon; },
        [n, &r](const RunFigures& x) { return x.anchor == r.anchor ? total_at(x, n) : NAN; });
  }
  find_crossings(r);
  decide_shape_fixes(r);
  if (ref.lines == nullptr) r.notes.push_back("no eager run finished, so no mode's output was checked against eager's");
  if (!ref.unstable.empty())
    r.notes.push_back(
        fmt::format("{} line(s) of the job's output differ between its eager runs (timings, dates): "
                    "left out of the output check",
                    ref.unstable.size()));
  for (const auto& m : r.modes)
    for (const auto& run : m.runs)
      if (run.ok() && !r.anchor.empty() && run.anchor != r.anchor) {
        r.notes.push_back(fmt::format("{} round {}: its most-called site was {}, not {}: its horizon is left out",
                                      m.spec.label(), run.round, run.anchor, r.anchor));
      }
}

}  // namespace tct::job
