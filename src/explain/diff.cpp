#include "explain/diff.hpp"

#include <cctype>
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <vector>

namespace tct::analysis {
namespace {

struct Item {
  json group;
  std::string kind, file, base, function, source;
  int line = 0, count = 1;
  bool taken = false;
};

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

std::vector<Item> items_of(const json& section) {
  std::vector<Item> out;
  for (const auto& g : section.value("groups", json::array())) {
    if (!g.is_object()) continue;
    Item it;
    it.group = g;
    it.kind = g.value("kind", "other");
    it.file = g.value("file", "");
    it.base = base_name(it.file);
    it.function = g.value("function", "");
    it.source = trimmed(g.value("source", ""));
    it.line = g.value("line", 0);
    it.count = g.value("count", 1);
    out.push_back(std::move(it));
  }
  return out;
}

bool same_file(const Item& a, const Item& b) { return a.file == b.file || (!a.base.empty() && a.base == b.base); }

int count_of(const json& section, const char* key) {
  return section.contains(key) && section[key].is_number() ? section[key].get<int>() : 0;
}

// Frames dynamo skipped: the skipped_frames list, or an older document's
// graph_break_count of -1 (explain's way of saying the same).
int skipped_of(const json& section) {
  if (section.contains("skipped_frames") && section["skipped_frames"].is_array())
    return static_cast<int>(section["skipped_frames"].size());
  return count_of(section, "graph_break_count") < 0 ? 1 : 0;
}

// The names of the frames dynamo skipped ("MoE.forward at model.py:12"; an older
// document: "forward at model.py:12" from its fields).
std::vector<std::string> skipped_names(const json& section) {
  std::vector<std::string> out;
  if (!section.contains("skipped_frames") || !section["skipped_frames"].is_array()) return out;
  for (const auto& f : section["skipped_frames"]) {
    if (!f.is_object()) continue;
    std::string title = f.value("title", "");
    if (title.empty())
      title = f.value("function", "?") + " at " + base_name(f.value("file", "")) + ":" + std::to_string(f.value("line", 0));
    out.push_back(title);
  }
  return out;
}

// Frames skipped before and not after (fixed), and after but not before (added), by name
// without the line (an edit above a function moves it).
void skipped_changes(const std::vector<std::string>& before, const std::vector<std::string>& after, json& fixed,
                     json& added) {
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

json change(int before, int after) { return {{"before", before}, {"after", after}, {"delta", after - before}}; }

json brief(const Item& it) {
  return {{"kind", it.kind},           {"file", it.file},   {"line", it.line},
          {"function", it.function},   {"source", it.source}, {"count", it.count},
          {"reason", it.group.value("reason", "")}, {"hint", it.group.value("hint", json())}};
}

}  // namespace

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

json diff_audits(const json& before, const json& after, const std::string& before_name, const std::string& after_name) {
  auto b = items_of(before), a = items_of(after);
  json unchanged = json::array();
  auto pair_up = [&](Item& x, Item& y, const char* how) {
    x.taken = y.taken = true;
    json u = {{"kind", x.kind}, {"matched_by", how}, {"before", brief(x)}, {"after", brief(y)},
              {"line_shift", y.line - x.line}, {"count_delta", y.count - x.count}};
    unchanged.push_back(std::move(u));
  };
  // Pass 1-2: exact location, then identical source text in the same function.
  for (int pass = 0; pass < 2; ++pass)
    for (auto& x : b) {
      if (x.taken) continue;
      for (auto& y : a) {
        if (y.taken || x.kind != y.kind || !same_file(x, y) || x.function != y.function) continue;
        bool ok = pass == 0 ? x.line == y.line : (!x.source.empty() && x.source == y.source);
        if (ok) {
          pair_up(x, y, pass == 0 ? "location" : "source");
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
        if (y.taken || x.kind != y.kind || !same_file(x, y) || x.function != y.function) continue;
        int d = std::abs(x.line - y.line);
        if (d < best) best = d, bx = &x, by = &y;
      }
    }
    if (bx == nullptr) break;
    pair_up(*bx, *by, "nearest_line");
  }
  // Pass 4: the same source text anywhere (code moved to another function or file).
  for (auto& x : b) {
    if (x.taken || x.source.empty()) continue;
    for (auto& y : a)
      if (!y.taken && x.kind == y.kind && x.source == y.source) {
        pair_up(x, y, "source_anywhere");
        break;
      }
  }
  json fixed = json::array(), added = json::array();
  for (const auto& x : b)
    if (!x.taken) fixed.push_back(brief(x));
  for (const auto& y : a)
    if (!y.taken) added.push_back(brief(y));

  int bb = std::max(0, count_of(before, "graph_break_count")), ab = std::max(0, count_of(after, "graph_break_count"));
  int bs = skipped_of(before), as = skipped_of(after);
  json out;
  out["before"] = {{"file", before_name}, {"target", before.value("target", json())}};
  out["after"] = {{"file", after_name}, {"target", after.value("target", json())}};
  out["fixed"] = fixed;
  out["added"] = added;
  out["unchanged"] = unchanged;
  out["graph_count"] = change(count_of(before, "graph_count"), count_of(after, "graph_count"));
  out["op_count"] = change(count_of(before, "op_count"), count_of(after, "op_count"));
  out["break_count"] = change(bb, ab);
  out["capturable"] = {{"before", before.value("capturable", false)}, {"after", after.value("capturable", false)}};
  out["frames_skipped"] = change(bs, as);
  json skip_fixed = json::array(), skip_added = json::array();
  skipped_changes(skipped_names(before), skipped_names(after), skip_fixed, skip_added);
  out["skipped_fixed"] = skip_fixed;
  out["skipped_added"] = skip_added;
  // Fixing a skipped frame is progress even when more breaks show afterwards: they were
  // there before, hidden behind the skip. A regression is a new skip, or more breaks
  // where nothing was hidden.
  out["skip_fixed"] = bs > 0 && as < bs;
  out["breaks_increased"] = as > bs || (bs == 0 && ab > bb);
  return out;
}

}  // namespace tct::analysis
