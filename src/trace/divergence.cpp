// Where ranks diverge: each rank's shape of compilation (frames, graphs, breaks, recompiles
// per frame, skipped frames) against the most common one, and three of tlparse's multi-rank
// checks (collective schedules, graph execution order, tensor metadata). A rank whose
// collectives differ from its peers' hangs the job. tlparse's fourth, the cache hit/miss
// sequence per graph, is a note: ranks sharing a cache folder race to fill it, which changes
// how long they compile, not what they run.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "core/user_code.hpp"
#include "trace/summarize.hpp"

namespace tct::trace {
namespace {

struct Signature {
  // Frames (Dynamo's frame ids) and, per frame, the function and the recompiles
  // (CompileSummary::recompiled, the one rule) and compiles the recompile limit refused.
  std::map<std::string, std::string> frames;  // frame -> function ("" when no record names it)
  std::map<std::string, int> recompiles, refused;
  std::map<std::string, int> graphs;  // compile id -> graphs
  std::set<std::string> breaks;       // "kind file:line"
  int skipped = 0;
  // tlparse's multi-rank checks, per graph (compile id).
  std::map<std::string, std::vector<std::string>> collectives, tensor_meta;
  std::vector<std::string> execution_order;
  // Not compared for divergence: which rank hit or filled a shared cache changes how long a
  // rank compiles, not what it runs (its graphs, guards and collectives are compared above).
  std::map<std::string, std::vector<std::string>> cache;

  bool operator==(const Signature& o) const {
    return std::tie(frames, recompiles, refused, graphs, breaks, skipped, collectives, tensor_meta, execution_order) ==
           std::tie(o.frames, o.recompiles, o.refused, o.graphs, o.breaks, o.skipped, o.collectives, o.tensor_meta,
                    o.execution_order);
  }
};

Signature signature(const RankSummary& r) {
  Signature s;
  std::string root = rank_root(r);
  for (const auto& [id, c] : r.compiles) {
    const std::string frame = id.frame_str();
    auto& function = s.frames[frame];
    if (function.empty()) function = c.function;
    s.recompiles[frame] += c.recompiled() ? 1 : 0;
    s.refused[frame] += !c.recompile_reasons.empty() && !c.fail_type.empty() ? 1 : 0;
    s.graphs[id.str()] = c.graphs;
    if (c.skipped) s.skipped++;
  }
  for (const auto& b : r.breaks)
    s.breaks.insert(fmt::format("{} at {}:{}", core::to_string(b.kind), core::portable_path(b.file, root), b.line));
  for (const auto& [id, ops] : r.collectives) s.collectives[id.str()] = ops;
  for (const auto& [id, ops] : r.tensor_meta) s.tensor_meta[id.str()] = ops;
  for (const auto& e : r.cache_sequence) s.cache[e.id.str()].push_back(r.cache_names[e.name]);
  s.execution_order = r.execution_order;
  return s;
}

// "frame 0 (forward)", or "frame 0" when no record names its function.
std::string frame_name(const Signature& s, const std::string& frame) {
  auto it = s.frames.find(frame);
  return it == s.frames.end() || it->second.empty() ? "frame " + frame
                                                    : fmt::format("frame {} ({})", frame, it->second);
}

std::string join(const std::vector<std::string>& v, size_t max = 5) {
  std::string out;
  for (size_t i = 0; i < v.size() && i < max; ++i) out += (i ? ", " : "") + v[i];
  if (v.size() > max) out += fmt::format(" and {} more", v.size() - max);
  return out;
}

template <class Set>
std::vector<std::string> minus(const Set& a, const Set& b) {
  std::vector<std::string> out;
  for (const auto& x : a)
    if (!b.count(x)) out.push_back(x);
  return out;
}

// The first index where two lists differ (the shorter one's length when one is a prefix).
size_t first_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

std::string item(const std::vector<std::string>& v, size_t i) { return i < v.size() ? v[i] : ""; }
std::string or_nothing(const std::string& op) { return op.empty() ? "nothing" : op; }

// Where a rank's list first differs from the reference's, and the entry of each there.
FirstDifference difference(const std::vector<std::string>& mine, const std::vector<std::string>& theirs, size_t at) {
  return {at + 1, item(mine, at), item(theirs, at)};
}
FirstDifference difference(const std::vector<std::string>& mine, const std::vector<std::string>& theirs) {
  return difference(mine, theirs, first_difference(mine, theirs));
}

// Collectives in a schedule; the wait_tensor entries inductor lists after each are not.
size_t collective_count(const std::vector<std::string>& schedule) {
  return std::count_if(schedule.begin(), schedule.end(),
                       [](const std::string& op) { return op.find("wait_tensor") == std::string::npos; });
}

// Graph execution orders: a call whose compile id torch did not know (null: the graph came
// from the cache, inductor's GRAPH_COMPILE_IDS has no entry) matches any; lengths must agree.
bool order_match(const std::string& a, const std::string& b) { return a == b || a == "?" || b == "?"; }
size_t first_order_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && order_match(a[i], b[i])) ++i;
  return i;
}
bool same_order(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return a.size() == b.size() && first_order_difference(a, b) == a.size();
}

// Per graph, a rank's lists against the reference's: (compile id, rank's, reference's) for
// each graph where they differ. both_only: graphs only one of them logged are left out
// (inductor logs a graph's schedule and tensor metadata only when it compiles it, not on
// a cache hit: their absence is the cache check's to report, not a difference).
using ListDiff = std::tuple<std::string, std::vector<std::string>, std::vector<std::string>>;
std::vector<ListDiff> per_graph(const std::map<std::string, std::vector<std::string>>& mine,
                                const std::map<std::string, std::vector<std::string>>& ref, bool both_only) {
  std::vector<ListDiff> out;
  std::set<std::string> ids;
  for (const auto& [id, v] : mine) ids.insert(id);
  for (const auto& [id, v] : ref) ids.insert(id);
  static const std::vector<std::string> none;
  for (const auto& id : ids) {
    auto m = mine.find(id);
    auto r = ref.find(id);
    if (both_only && (m == mine.end() || r == ref.end())) continue;
    const auto& a = m == mine.end() ? none : m->second;
    const auto& b = r == ref.end() ? none : r->second;
    if (a != b) out.emplace_back(id, a, b);
  }
  return out;
}

}  // namespace

namespace {

struct Found {
  std::vector<Divergence> divergence, cache_notes;
};

Found compare(const std::vector<RankSummary>& ranks) {
  Found found;
  auto& out = found.divergence;
  if (ranks.size() < 2) return found;
  std::vector<Signature> sigs;
  for (const auto& r : ranks) sigs.push_back(signature(r));
  // The reference: the signature most ranks share (ties: the lowest rank).
  size_t ref = 0, best = 0;
  for (size_t i = 0; i < sigs.size(); ++i) {
    size_t n = std::count(sigs.begin(), sigs.end(), sigs[i]);
    if (n > best) best = n, ref = i;
  }
  std::vector<std::string> majority;
  for (size_t i = 0; i < sigs.size(); ++i)
    if (sigs[i] == sigs[ref]) majority.push_back(rank_name(ranks[i].rank, i));
  std::string others = join(majority, 8);
  // "issue" / "issues": the reference is one rank or several.
  auto verb = [&](const char* one, const char* many) { return majority.size() == 1 ? one : many; };
  // Cache hits and misses per graph against the most common sequence (ties: the lowest rank),
  // for the graphs both compiled: ranks sharing one cache folder race to fill it.
  size_t cache_ref = 0;
  best = 0;
  for (size_t i = 0; i < sigs.size(); ++i) {
    size_t n = std::count_if(sigs.begin(), sigs.end(), [&](const Signature& x) { return x.cache == sigs[i].cache; });
    if (n > best) best = n, cache_ref = i;
  }
  std::vector<std::string> cache_majority;
  for (size_t i = 0; i < sigs.size(); ++i)
    if (sigs[i].cache == sigs[cache_ref].cache) cache_majority.push_back(rank_name(ranks[i].rank, i));
  for (size_t i = 0; i < sigs.size(); ++i) {
    std::vector<std::string> graphs;
    for (const auto& [id, mine, theirs] : per_graph(sigs[i].cache, sigs[cache_ref].cache, true)) graphs.push_back(id);
    if (graphs.empty()) continue;
    found.cache_notes.push_back(
        {ranks[i].rank, ranks[i].files.empty() ? "" : ranks[i].files[0], "cache", graphs.front(), cache_majority,
         fmt::format("{} hit or filled the caches otherwise than {} in graph(s) {}: ranks sharing a cache folder race "
                     "to fill it, which changes how long a rank compiles, not what it runs",
                     rank_name(ranks[i].rank, i), join(cache_majority, 8), join(graphs, 4)),
         std::nullopt});
  }
  for (size_t i = 0; i < sigs.size(); ++i) {
    const Signature& s = sigs[i];
    const Signature& r = sigs[ref];
    std::string who = rank_name(ranks[i].rank, i);
    if (sigs[i] == sigs[ref]) continue;
    auto add = [&](const char* what, const std::string& message, const std::string& compile_id = "",
                   std::optional<FirstDifference> first = std::nullopt) {
      out.push_back({ranks[i].rank, ranks[i].files.empty() ? "" : ranks[i].files[0], what, compile_id, majority,
                     message, std::move(first)});
    };
    // A frame one rank never compiled is said here once; its graphs, recompiles and cache
    // events are compared only where both ranks compiled it.
    std::vector<std::string> extra, missing;
    for (const auto& [frame, fn] : s.frames)
      if (!r.frames.count(frame)) extra.push_back(frame_name(s, frame));
    for (const auto& [frame, fn] : r.frames)
      if (!s.frames.count(frame)) missing.push_back(frame_name(r, frame));
    if (!extra.empty()) add("compile_ids", fmt::format("{} compiled {} that {} did not", who, join(extra), others));
    if (!missing.empty()) add("compile_ids", fmt::format("{} did not compile {} ({} did)", who, join(missing), others));
    std::vector<std::string> graph_diff;
    for (const auto& [id, n] : s.graphs)
      if (auto it = r.graphs.find(id); it != r.graphs.end() && it->second != n)
        graph_diff.push_back(fmt::format("{}: {} graph(s), not {}", id, n, it->second));
    if (!graph_diff.empty()) add("graphs", fmt::format("{} captured different graphs: {}", who, join(graph_diff)));
    if (auto extra_breaks = minus(s.breaks, r.breaks); !extra_breaks.empty())
      add("graph_breaks", fmt::format("{} broke the graph where {} did not: {}", who, others, join(extra_breaks, 3)));
    if (auto missing_breaks = minus(r.breaks, s.breaks); !missing_breaks.empty())
      add("graph_breaks", fmt::format("{} lacks graph breaks that {} had: {}", who, others, join(missing_breaks, 3)));
    // Recompiles per frame both compiled: other guards failed on this rank (other values,
    // other shapes), so it runs other graphs, and one that hit its limit runs the frame eagerly.
    for (const auto& [frame, n] : s.recompiles) {
      auto theirs = r.recompiles.find(frame);
      if (theirs == r.recompiles.end()) continue;
      const int refused = s.refused.at(frame), their_refused = r.refused.at(frame);
      if (n == theirs->second && refused == their_refused) continue;
      auto limit = [](int k) { return k > 0 ? fmt::format(" (then the recompile limit refused {} more)", k) : ""; };
      add("recompiles", fmt::format("{} recompiled {} {} time(s){}, {} {} time(s){}", who, frame_name(s, frame), n,
                                    limit(refused), others, theirs->second, limit(their_refused)));
    }
    if (s.skipped != r.skipped)
      add("skipped_frames", fmt::format("{} skipped {} frame(s), {} {}", who, s.skipped, others, r.skipped));
    // A rank that issues other collectives than its peers in a graph waits for a partner
    // that never comes: the classic distributed hang (tlparse: collective_schedules).
    // The sequence is compared, not only the count: the same number of collectives in
    // another order hangs as surely.
    for (const auto& [id, mine, theirs] : per_graph(s.collectives, r.collectives, true)) {
      size_t n_mine = collective_count(mine), n_theirs = collective_count(theirs);
      FirstDifference d = difference(mine, theirs);
      std::string msg = n_mine != n_theirs
                            ? fmt::format("{} issues {} collective(s) in graph {} where {} {} {}", who, n_mine, id,
                                          others, verb("issues", "issue"), n_theirs)
                            : fmt::format("{} issues other collectives in graph {} than {}", who, id, others);
      msg += fmt::format(": #{} is {}, not {} (a rank whose collectives differ hangs the job)", d.position,
                         or_nothing(d.op), or_nothing(d.reference_op));
      add("collective_schedule", msg, id, d);
    }
    // graph_execution: the order compiled graphs ran in (record_and_log_graph_execution_order).
    if (!same_order(s.execution_order, r.execution_order)) {
      size_t k = first_order_difference(s.execution_order, r.execution_order);
      std::string at = k < s.execution_order.size() ? s.execution_order[k] : "";
      std::string msg =
          k < s.execution_order.size() && k < r.execution_order.size()
              ? fmt::format("{} ran its compiled graphs in another order than {}: call #{} ran graph {}, not {}", who,
                            others, k + 1, s.execution_order[k], r.execution_order[k])
              : fmt::format("{} ran {} compiled graph call(s) where {} ran {} (the same order up to #{})", who,
                            s.execution_order.size(), others, r.execution_order.size(), k);
      add("graph_execution_order", msg, at, difference(s.execution_order, r.execution_order, k));
    }
    for (const auto& [id, mine, theirs] : per_graph(s.tensor_meta, r.tensor_meta, true)) {
      FirstDifference d = difference(mine, theirs);
      std::string msg = fmt::format("{}'s tensor metadata differs in graph {} from {}'s", who, id, others);
      if (mine.size() != theirs.size())
        msg += fmt::format(": {} op(s), not {}; the first that differs is #{}: {}, not {}", mine.size(), theirs.size(),
                           d.position, or_nothing(d.op), or_nothing(d.reference_op));
      else msg += fmt::format(" at op #{}: {} (not {})", d.position, d.op, d.reference_op);
      add("tensor_meta", msg, id, d);
    }
  }
  return found;
}

}  // namespace

std::vector<Divergence> divergence(const std::vector<RankSummary>& ranks) { return compare(ranks).divergence; }

std::vector<Divergence> cache_differences(const std::vector<RankSummary>& ranks) { return compare(ranks).cache_notes; }

}  // namespace tct::trace
