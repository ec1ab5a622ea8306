#include "explain/diff.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

#include "explain/json.hpp"

namespace tct::explain {
namespace {

using json = nlohmann::json;

struct Item {
  DiffBreak brk;
  std::string base;  // the file's base name: a checkout elsewhere is the same file
  bool taken = false;
};

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

std::vector<Item> items_of(const ExplainResult& r) {
  std::vector<Item> out;
  for (const auto& g : r.groups) {
    Item it;
    it.brk = {g.kind, g.where, g.count, g.reason, g.hint};
    it.brk.where.source = trimmed(g.where.source);
    it.base = core::base_name(g.where.file);
    out.push_back(std::move(it));
  }
  return out;
}

bool same_file(const Item& a, const Item& b) {
  return a.brk.where.file == b.brk.where.file || (!a.base.empty() && a.base == b.base);
}
bool same_function(const Item& a, const Item& b) {
  return a.brk.kind == b.brk.kind && same_file(a, b) && a.brk.where.function == b.brk.where.function;
}

// The names of the frames dynamo skipped ("MoE.forward at model.py:12").
std::vector<std::string> skipped_frame_names(const ExplainResult& r) {
  std::vector<std::string> out;
  for (const auto& f : r.skipped_frames) out.push_back(f.title);
  return out;
}

// Frames skipped before and not after (fixed), and after but not before (added), by name
// without the line (an edit above a function moves it).
void skipped_changes(const std::vector<std::string>& before, const std::vector<std::string>& after,
                     std::vector<std::string>& fixed, std::vector<std::string>& added) {
  auto key = [](const std::string& t) { return t.substr(0, t.rfind(':')); };
  std::vector<bool> taken(after.size(), false);
  for (const auto& b : before) {
    bool found = false;
    for (size_t i = 0; i < after.size() && !found; ++i)
      if (!taken[i] && key(after[i]) == key(b)) taken[i] = found = true;
    if (!found) fixed.push_back(b);
  }
  for (size_t i = 0; i < after.size(); ++i)
    if (!taken[i]) added.push_back(after[i]);
}

json change_json(const Change& c) { return {{"before", c.before}, {"after", c.after}, {"delta", c.delta()}}; }
Change change_of(const json& j) {
  return {j.is_object() && j.value("before", json()).is_number() ? j["before"].get<int>() : 0,
          j.is_object() && j.value("after", json()).is_number() ? j["after"].get<int>() : 0};
}

json brief_json(const DiffBreak& b) {
  return {{"kind", core::to_string(b.kind)},
          {"file", b.where.file},
          {"line", b.where.line},
          {"function", b.where.function},
          {"source", b.where.source},
          {"count", b.count},
          {"reason", b.reason},
          {"hint", core::to_json(b.hint)}};
}
DiffBreak brief_of(const json& j) {
  DiffBreak b;
  if (!j.is_object()) return b;
  b.kind = core::break_kind_from_string(j.value("kind", json()).is_string() ? j["kind"].get<std::string>() : "")
               .value_or(BreakKind::Other);
  b.where = frame_from_json(j);
  b.count = j.value("count", json()).is_number() ? j["count"].get<int>() : 1;
  b.reason = j.value("reason", json()).is_string() ? j["reason"].get<std::string>() : "";
  const json& h = j.value("hint", json());
  if (h.is_object()) b.hint = core::hint_from_json(h);
  return b;
}

std::vector<std::string> strings_of(const json& j) {
  std::vector<std::string> out;
  if (j.is_array())
    for (const auto& s : j)
      if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

}  // namespace

std::string_view to_string(MatchedBy m) {
  switch (m) {
    case MatchedBy::Location: return "location";
    case MatchedBy::Source: return "source";
    case MatchedBy::NearestLine: return "nearest_line";
    case MatchedBy::SourceAnywhere: return "source_anywhere";
  }
  return "location";
}

std::optional<json> explain_section_of(const json& doc, std::string& why) {
  if (!doc.is_object()) {
    why = "it is not a JSON object";
    return std::nullopt;
  }
  const json* s = nullptr;
  if (doc.contains("explain") && doc["explain"].is_object()) s = &doc["explain"];
  else if (doc.contains("groups") && doc.contains("graph_break_count")) s = &doc;
  if (s == nullptr) {
    std::string cmd = doc.value("command", "");
    why = cmd.empty() ? "it has no 'explain' section" : "it is the output of 'tct " + cmd + "', not of 'tct explain'";
    return std::nullopt;
  }
  if (!s->contains("groups") || !(*s)["groups"].is_array()) {
    why = "its 'explain' section has no 'groups' (the run may have failed before the audit)";
    return std::nullopt;
  }
  return *s;
}

DiffResult diff(const ExplainResult& before, const ExplainResult& after, const std::string& before_name,
                const std::string& after_name) {
  auto b = items_of(before), a = items_of(after);
  DiffResult d;
  auto pair_up = [&](Item& x, Item& y, MatchedBy how) {
    x.taken = y.taken = true;
    d.unchanged.push_back({how, x.brk, y.brk});
  };
  // Pass 1-2: exact location, then identical source text in the same function.
  for (int pass = 0; pass < 2; ++pass)
    for (auto& x : b) {
      if (x.taken) continue;
      for (auto& y : a) {
        if (y.taken || !same_function(x, y)) continue;
        bool ok = pass == 0 ? x.brk.where.line == y.brk.where.line
                            : (!x.brk.where.source.empty() && x.brk.where.source == y.brk.where.source);
        if (ok) {
          pair_up(x, y, pass == 0 ? MatchedBy::Location : MatchedBy::Source);
          break;
        }
      }
    }
  // Pass 3: same function, nearest line (the globally closest pairs first).
  for (;;) {
    Item* bx = nullptr;
    Item* by = nullptr;
    int best = std::numeric_limits<int>::max();
    for (auto& x : b) {
      if (x.taken) continue;
      for (auto& y : a) {
        if (y.taken || !same_function(x, y)) continue;
        int dist = std::abs(x.brk.where.line - y.brk.where.line);
        if (dist < best) best = dist, bx = &x, by = &y;
      }
    }
    if (bx == nullptr) break;
    pair_up(*bx, *by, MatchedBy::NearestLine);
  }
  // Pass 4: the same source text anywhere (code moved to another function or file).
  for (auto& x : b) {
    if (x.taken || x.brk.where.source.empty()) continue;
    for (auto& y : a)
      if (!y.taken && x.brk.kind == y.brk.kind && x.brk.where.source == y.brk.where.source) {
        pair_up(x, y, MatchedBy::SourceAnywhere);
        break;
      }
  }
  for (const auto& x : b)
    if (!x.taken) d.fixed.push_back(x.brk);
  for (const auto& y : a)
    if (!y.taken) d.added.push_back(y.brk);

  d.before = {before_name, before.target};
  d.after = {after_name, after.target};
  d.graph_count = {before.graph_count, after.graph_count};
  d.op_count = {before.op_count, after.op_count};
  d.break_count = {before.graph_break_count, after.graph_break_count};
  d.capturable_before = before.capturable();
  d.capturable_after = after.capturable();
  const int bs = before.frames_skipped(), as = after.frames_skipped();
  d.frames_skipped = {bs, as};
  skipped_changes(skipped_frame_names(before), skipped_frame_names(after), d.skipped_fixed, d.skipped_added);
  // Fixing a skipped frame is progress even when more breaks show afterwards: they were
  // there before, hidden behind the skip. A regression is a new skip, or more breaks
  // where nothing was hidden.
  d.skip_fixed = bs > 0 && as < bs;
  d.breaks_increased = as > bs || (bs == 0 && d.break_count.after > d.break_count.before);
  return d;
}

json to_json(const DiffResult& d) {
  json fixed = json::array(), added = json::array(), unchanged = json::array();
  for (const auto& x : d.fixed) fixed.push_back(brief_json(x));
  for (const auto& x : d.added) added.push_back(brief_json(x));
  for (const auto& u : d.unchanged)
    unchanged.push_back({{"kind", core::to_string(u.before.kind)},
                         {"matched_by", to_string(u.matched_by)},
                         {"before", brief_json(u.before)},
                         {"after", brief_json(u.after)},
                         {"line_shift", u.line_shift()},
                         {"count_delta", u.count_delta()}});
  json out;
  out["before"] = {{"file", d.before.file}, {"target", d.before.target}};
  out["after"] = {{"file", d.after.file}, {"target", d.after.target}};
  out["fixed"] = fixed;
  out["added"] = added;
  out["unchanged"] = unchanged;
  out["graph_count"] = change_json(d.graph_count);
  out["op_count"] = change_json(d.op_count);
  out["break_count"] = change_json(d.break_count);
  out["capturable"] = {{"before", d.capturable_before}, {"after", d.capturable_after}};
  out["frames_skipped"] = change_json(d.frames_skipped);
  out["skipped_fixed"] = d.skipped_fixed;
  out["skipped_added"] = d.skipped_added;
  out["skip_fixed"] = d.skip_fixed;
  out["breaks_increased"] = d.breaks_increased;
  return out;
}

DiffResult diff_from_json(const json& s) {
  DiffResult d;
  if (!s.is_object()) return d;
  auto input = [](const json& j) {
    return DiffInput{j.is_object() && j.value("file", json()).is_string() ? j["file"].get<std::string>() : "",
                     j.is_object() ? j.value("target", json()) : json()};
  };
  d.before = input(s.value("before", json()));
  d.after = input(s.value("after", json()));
  for (const auto& x : s.value("fixed", json::array())) d.fixed.push_back(brief_of(x));
  for (const auto& x : s.value("added", json::array())) d.added.push_back(brief_of(x));
  for (const auto& u : s.value("unchanged", json::array())) {
    if (!u.is_object()) continue;
    Unchanged m{MatchedBy::Location, brief_of(u.value("before", json())), brief_of(u.value("after", json()))};
    for (MatchedBy how : {MatchedBy::Location, MatchedBy::Source, MatchedBy::NearestLine, MatchedBy::SourceAnywhere})
      if (u.value("matched_by", json()) == json(std::string(to_string(how)))) m.matched_by = how;
    d.unchanged.push_back(std::move(m));
  }
  d.graph_count = change_of(s.value("graph_count", json()));
  d.op_count = change_of(s.value("op_count", json()));
  d.break_count = change_of(s.value("break_count", json()));
  d.frames_skipped = change_of(s.value("frames_skipped", json()));
  const json& cap = s.value("capturable", json());
  d.capturable_before = cap.is_object() && cap.value("before", false);
  d.capturable_after = cap.is_object() && cap.value("after", false);
  d.skipped_fixed = strings_of(s.value("skipped_fixed", json()));
  d.skipped_added = strings_of(s.value("skipped_added", json()));
  d.skip_fixed = s.value("skip_fixed", false);
  d.breaks_increased = s.value("breaks_increased", false);
  return d;
}

}  // namespace tct::explain
