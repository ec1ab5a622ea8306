#include "startup/summary.hpp"

#include <algorithm>
#include <cmath>

#include "startup/interval.hpp"
#include "stats/break_even.hpp"
#include "stats/summary.hpp"

namespace tct::startup {
namespace {

// The per-call time after the first output: the calls past the first two (the first calls
// after a compile still warm allocators and caches), pooled over the starts. A command's
// starts keep no calls, only each site's steady median (tct run's): the median of the first
// output site's.
Nanoseconds steady_per_call(const std::vector<Start>& starts) {
  std::vector<double> pooled, site_medians;
  for (const auto& s : starts) {
    for (size_t i = std::min<size_t>(2, s.steady_ns.size() / 2); i < s.steady_ns.size(); ++i)
      pooled.push_back(s.steady_ns[i]);
    if (!s.sites.empty() && measured(s.sites.front().per_call))
      site_medians.push_back(s.sites.front().per_call.count());
  }
  if (pooled.empty()) pooled = std::move(site_medians);
  return pooled.empty() ? kNotMeasured : Nanoseconds(stats::median(pooled));
}

// Each call site's first outputs over the starts, in the order the sites first appear.
std::vector<SiteSummary> site_summaries(const std::vector<Start>& starts) {
  std::vector<SiteSummary> out;
  std::vector<std::vector<double>> times;
  for (const auto& s : starts)
    for (const auto& site : s.sites) {
      auto it = std::find_if(out.begin(), out.end(), [&](const SiteSummary& x) { return x.key == site.key; });
      if (it == out.end()) {
        out.push_back({site.key, site.name});
        times.emplace_back();
        it = out.end() - 1;
      }
      times[static_cast<size_t>(it - out.begin())].push_back(site.first_output.count());
    }
  for (size_t i = 0; i < out.size(); ++i) {
    const MedianInterval iv = median_interval(times[i]);
    out[i].median = Nanoseconds(iv.median);
    out[i].low = Nanoseconds(iv.low);
    out[i].high = Nanoseconds(iv.high);
    out[i].coverage = iv.coverage;
  }
  return out;
}

bool overlaps(const ModeResult& a, const ModeResult& b) {
  const double alow = measured(a.low) ? a.low.count() : a.median.count();
  const double ahigh = measured(a.high) ? a.high.count() : a.median.count();
  const double blow = measured(b.low) ? b.low.count() : b.median.count();
  const double bhigh = measured(b.high) ? b.high.count() : b.median.count();
  return alow <= bhigh && blow <= ahigh;
}

// The fastest of the modes `keep` admits, and those whose intervals overlap it.
void fastest(const StartupResult& r, bool (*keep)(Mode), std::optional<Mode>& best, std::vector<Mode>& tied) {
  const ModeResult* top = nullptr;
  for (const auto& m : r.modes)
    if (m.ok() && keep(m.mode) && measured(m.median) && (top == nullptr || m.median < top->median)) top = &m;
  if (top == nullptr) return;
  best = top->mode;
  for (const auto& m : r.modes)
    if (&m != top && m.ok() && keep(m.mode) && measured(m.median) && overlaps(m, *top)) tied.push_back(m.mode);
}

}  // namespace

void summarize(ModeResult& mode) {
  std::vector<double> totals;
  for (const auto& s : mode.starts) totals.push_back(s.first_output.count());
  const MedianInterval iv = median_interval(totals);
  mode.median = Nanoseconds(iv.median);
  mode.low = Nanoseconds(iv.low);
  mode.high = Nanoseconds(iv.high);
  mode.coverage = iv.coverage;
  // The median start (the lower of the two middle ones): its phases add up to a real start.
  std::vector<const Start*> order;
  for (const auto& s : mode.starts)
    if (measured(s.first_output)) order.push_back(&s);
  std::sort(order.begin(), order.end(),
            [](const Start* a, const Start* b) { return a->first_output < b->first_output; });
  if (!order.empty()) {
    const Start& mid = *order[(order.size() - 1) / 2];
    mode.phases = mid.phases;
    mode.lookups = mid.lookups;
  }
  mode.per_call = steady_per_call(mode.starts);
  mode.sites = site_summaries(mode.starts);
}

void decide(StartupResult& r) {
  const ModeResult* eager = r.find(Mode::Eager);
  for (auto& m : r.modes) {
    m.break_even_calls.reset();
    if (m.mode == Mode::Eager || eager == nullptr || !eager->ok() || !m.ok()) continue;
    const double extra = (m.median - eager->median).count();
    m.break_even_calls = stats::break_even_calls(extra, eager->per_call.count(), m.per_call.count());
  }
  r.verdict = Verdict{};
  fastest(
      r, [](Mode) { return true; }, r.verdict.fastest, r.verdict.tied);
  fastest(r, compiles, r.verdict.fastest_compiled, r.verdict.compiled_tied);
  // A warm or shipped start is meant to hit: every miss or bypass there is a finding.
  r.findings.clear();
  r.still_compiled.clear();
  for (const auto& m : r.modes) {
    if (m.mode != Mode::Warm && m.mode != Mode::Shipped) continue;
    bool all_hit = !m.lookups.empty();
    for (const auto& l : m.lookups)
      if (l.state != "hit") {
        r.findings.push_back({m.mode, l});
        all_hit = false;
      }
    // Every lookup hit, yet the compiler ran for a tenth of the start or more (inductor's CPU
    // kernels, their precompiled header and ISA checks are built beside the caches, not in them).
    const auto cc = m.phases.find(Phase::CppCompiler);
    if (all_hit && m.ok() && cc != m.phases.end() && cc->second >= 0.1 * m.median)
      r.still_compiled.push_back({m.mode, cc->second, m.median});
  }
}

}  // namespace tct::startup
