#include "bench/breakdown_phase.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "bench/breakdown.hpp"
#include "bench/reply.hpp"
#include "bench/sampling.hpp"
#include "stats/summary.hpp"

namespace tct::bench {
namespace {

using core::fields::read_as;

BreakdownSample sample_of(const reply::Sample& r) {
  BreakdownSample s;
  s.bare_ns = r.bare_ns;
  s.profiled_wall_ns = r.profiled_wall_ns;
  s.names = r.names;
  for (const auto& c : r.calls) {
    SampledCall call;
    call.ns = c.ns;
    for (const auto& e : c.events)
      if (e.size() == 3) call.events.push_back({static_cast<int>(e[0]), e[1], e[2]});
    s.calls.push_back(std::move(call));
  }
  return s;
}

std::vector<FrameChain> chain_of(const reply::Chain& r) {
  std::vector<FrameChain> frames;
  for (const auto& f : r.frames) {
    FrameChain fc;
    fc.name = f.name;
    fc.file = f.file;
    fc.line = f.line;
    fc.entry_frame = f.entry_frame;
    for (const auto& e : f.entries) {
      // The batches' median: a batch that met a context switch is one of several.
      const double median = stats::median(e.check_batches_ns);  // NaN: no batch timed
      const std::optional<double> check_ns = std::isfinite(median) ? std::optional<double>(median) : std::nullopt;
      fc.entries.push_back({e.compile_id, e.guard_count, e.guard_latency_us, e.passes, check_ns});
    }
    derive_chain(fc);
    frames.push_back(std::move(fc));
  }
  return frames;
}

// One fix A/B: blocks of the default and of the fix in pairs, each pair's order random
// (seeded, as bench's pairs), the interval from bench's sampler over one process.
// `base_ns`: the compiled call's per-call median that a saving is taken from.
FixTrial try_fix(const Caller& agent, const BenchRowSpec& spec, std::string_view fix, const std::string& fix_key,
                 double clock_res, double call_ns, double base_ns) {
  FixTrial t;
  t.fix = std::string(fix);
  SamplerConfig sc;
  sc.processes = 1;
  sc.looks = 1;
  PairedSampler sampler(sc);
  // Samples of ~2 ms (at least 1000 clock ticks): 5 per block.
  const int cps = calls_per_sample(call_ns, clock_res, 2e6);
  std::mt19937_64 order(stats::kDefaultBootstrapSeed);
  for (int p = 0; p < kFixPairs; ++p) {
    const bool default_first = (order() & 1) != 0;
    reply::FixBlock blocks[2];
    for (int k = 0; k < 2; ++k) {
      const bool is_default = (k == 0) == default_first;
      json params = {{"which", is_default ? spec.key() : fix_key},
                     {"samples", 5},
                     {"calls_per_sample", cps},
                     {"warmup_ns", block_warmup_ns(call_ns * cps)}};
      if (!is_default && fix == kStanceFix) params["fix"] = std::string(fix);
      blocks[is_default ? 0 : 1] = reply::fix_block_from(agent("breakdown.fix_block", params));
      // Under skip_guard_eval_unsafe a call that would recompile raises: the fix does not hold
      // for these inputs, which is its answer (the default's blocks never carry an error).
      if (const std::string& error = blocks[is_default ? 0 : 1].failed.error; !error.empty()) {
        t.not_tried = "it failed on these inputs: " + error;
        return t;
      }
    }
    if (blocks[0].block.frames_compiled + blocks[1].block.frames_compiled > 0) continue;
    const auto &a = blocks[0].block.samples_ns, &b = blocks[1].block.samples_ns;
    if (a.empty() || b.empty()) continue;
    sampler.add_pair(0, a, b);
    ++t.pairs;
  }
  if (t.pairs < 2) {
    t.not_tried = "its blocks kept compiling";
    return t;
  }
  const Decision d = sampler.look();
  t.speedup = d.interval.speedup;
  t.verdict = stats::decide(t.speedup);
  // Saved per call: the compiled call's median less it over the speedup, at each end of the
  // interval. The base is the row's timed median (its interleaved blocks), not these blocks':
  // their ratio is paired and cancels a busy machine's drift, their level does not.
  auto saved = [&](double speedup) {
    return std::isfinite(speedup) && speedup > 0 ? base_ns - base_ns / speedup : NAN;
  };
  t.saves_ns = {saved(t.speedup.estimate), saved(t.speedup.low), saved(t.speedup.high)};
  return t;
}

std::vector<FixTrial> try_fixes(const core::Progress& progress, const Caller& agent, const BenchRowSpec& spec,
                                double clock_res, double call_ns, double base_ns) {
  json filters = json::array();
  for (auto f : kGuardFilterFixes) filters.push_back(std::string(f));
  const auto avail = read_as<reply::FixAvailable>(agent("breakdown.fix_available", {{"filters", filters}}));
  const auto has = [&](const std::string& fix) {
    const auto it = avail.available.find(fix);
    return it != avail.available.end() && it->second;
  };
  std::vector<FixTrial> out;
  auto not_tried = [&](std::string_view fix, std::string why) {
    FixTrial t;
    t.fix = std::string(fix);
    t.not_tried = std::move(why);
    out.push_back(t);
  };
  progress(fmt::format("{}: trying {}", spec.label(), kStanceFix));
  if (has(std::string(kStanceFix)))
    out.push_back(try_fix(agent, spec, kStanceFix, spec.key(), clock_res, call_ns, base_ns));
  else not_tried(kStanceFix, "this torch's set_stance has no skip_guard_eval_unsafe");
  for (auto fix : kGuardFilterFixes) {
    const std::string name(fix);
    if (!has(name)) {
      not_tried(fix, "this torch has no torch.compiler." + name + " or no isolate_recompiles");
      continue;
    }
    progress(fmt::format("{}: trying {}", spec.label(), name));
    const std::string key = spec.key() + ":" + name;
    const auto prep =
        read_as<reply::FixPrepare>(agent("breakdown.fix_prepare", {{"key", spec.key()}, {"fix", name}, {"into", key}}));
    if (!prep.ok) {
      not_tried(fix, "compiling with it failed: " + prep.error);
      continue;
    }
    out.push_back(try_fix(agent, spec, fix, key, clock_res, call_ns, base_ns));
  }
  return out;
}

}  // namespace

void measure_breakdown(const core::Progress& progress, const Caller& agent, const BenchConfig& cfg,
                       const BenchRowSpec& spec, double clock_resolution_ns, BenchRow& row) {
  progress(fmt::format("{}: taking {} calls apart with torch's profiler", spec.label(), kBreakdownCalls));
  // The window may take a tenth of the row's budget; the profiled half of it the rest.
  const json sample =
      agent("breakdown.sample",
            {{"key", spec.key()}, {"calls", kBreakdownCalls}, {"max_ns", std::max(0.5e9, cfg.budget_s * 0.05e9)}});
  CallBreakdown b = breakdown_of(sample_of(read_as<reply::Sample>(sample)));
  b.frames = chain_of(read_as<reply::Chain>(agent("breakdown.chain", {{"key", spec.key()}, {"checks", 2000}})));
  const double base_ns = row.latency ? row.latency->compiled_ns.median : b.bare_ns.median;
  if (b.material()) b.fixes = try_fixes(progress, agent, spec, clock_resolution_ns, b.bare_ns.median, base_ns);
  row.breakdown = std::move(b);
}

}  // namespace tct::bench
