// Each shape declared once (core/fields.hpp): a described struct's JSON comes from its field
// list with the document's conventions, reads back to the same value, reads past what it does
// not know, and its list is the contract that schema/ and node/index.d.ts are held to here.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "compare/compare.hpp"
#include "core/fields.hpp"

using namespace tct;
using json = nlohmann::json;

namespace {

std::filesystem::path source(const std::string& rel) { return std::filesystem::path(TCT_SOURCE_DIR) / rel; }

json read_schema(const std::string& name) {
  std::ifstream f(source("schema/" + name));
  return json::parse(f);
}

template <class T>
std::set<std::string> declared() {
  std::set<std::string> out;
  for (auto n : core::fields::names_of<T>()) out.emplace(n);
  return out;
}

std::set<std::string> keys(const json& properties) {
  std::set<std::string> out;
  for (const auto& [k, v] : properties.items()) out.insert(k);
  return out;
}

// The members of `export interface NAME { ... }` in node/index.d.ts (one level: a member's
// own braces are skipped).
std::set<std::string> ts_members(const std::string& name) {
  std::ifstream f(source("node/index.d.ts"));
  std::stringstream all;
  all << f.rdbuf();
  const std::string text = all.str();
  const std::string head = "export interface " + name + " {";
  auto at = text.find(head);
  EXPECT_NE(at, std::string::npos) << name << " is not in node/index.d.ts";
  std::set<std::string> out;
  if (at == std::string::npos) return out;
  int depth = 0;
  std::string line;
  std::istringstream body(text.substr(at + head.size()));
  while (std::getline(body, line) && depth >= 0) {
    static const std::regex member(R"(^\s*([a-z_][a-z_0-9]*)\??:)");
    std::smatch m;
    if (depth == 0 && std::regex_search(line, m, member)) out.insert(m[1]);
    for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
  }
  return out;
}

}  // namespace

TEST(Fields, WriteSpellsTheDocumentsConventions) {
  compare::Side side{"a.json", "", "2026-12-04", "", "builtin:mlp"};
  json j = core::fields::write(side);
  EXPECT_EQ(j["path"], "a.json");
  EXPECT_TRUE(j["command"].is_null());  // an empty "not known" string is null
  EXPECT_TRUE(j["torch"].is_null());
  EXPECT_EQ(j["created"], "2026-12-04");

  compare::Item item;
  item.id = "gpt2";
  item.change = compare::Change::NewMismatch;
  item.ratio = {0.9, NAN, 1.1};
  json i = core::fields::write(item);
  EXPECT_EQ(i["change"], "new_mismatch");
  EXPECT_TRUE(i["ratio"]["low"].is_null());  // NaN is null
  EXPECT_EQ(i["ratio"]["confidence"], 0.95);
  EXPECT_TRUE(i["baseline"].is_null());  // no entry
}

TEST(Fields, ReadGivesBackWhatWasWrittenAndReadsPastTheRest) {
  compare::Item item;
  item.id = "bert";
  item.change = compare::Change::Regression;
  item.gate_failed = true;
  item.ratio = {0.8, 0.7, 0.9};
  json j = core::fields::write(item);
  j["added_by_a_newer_version"] = {1, 2, 3};
  auto back = core::fields::read_as<compare::Item>(j);
  EXPECT_EQ(back.id, "bert");
  EXPECT_EQ(back.change, compare::Change::Regression);
  EXPECT_TRUE(back.gate_failed);
  EXPECT_DOUBLE_EQ(back.ratio.low, 0.7);
  EXPECT_EQ(core::fields::write(back), core::fields::write(item));
}

TEST(Fields, AMissingOrMistypedFieldKeepsItsInitializer) {
  auto item = core::fields::read_as<compare::Item>(json{{"id", 7}, {"change", "no_such_change"}});
  EXPECT_EQ(item.id, "");
  EXPECT_EQ(item.change, compare::Item{}.change);
  EXPECT_FALSE(item.gate_failed);
  auto side = core::fields::read_as<compare::Side>(json::array());
  EXPECT_EQ(side.path, "");
}

// The contract: every field a declaration lists is in the schema and in index.d.ts, and
// nothing else is.
TEST(Fields, SchemaAndTypeScriptHoldTheDeclaredFields) {
  const json cmp = read_schema("compare.schema.json");
  EXPECT_EQ(keys(cmp["$defs"]["side"]["properties"]), declared<compare::Side>());
  EXPECT_EQ(keys(cmp["properties"]["items"]["items"]["properties"]), declared<compare::Item>());
  EXPECT_EQ(ts_members("CompareSide"), declared<compare::Side>());
  EXPECT_EQ(ts_members("CompareItem"), declared<compare::Item>());

  std::set<std::string> schema_changes, declared_changes;
  for (const auto& v : cmp["properties"]["items"]["items"]["properties"]["change"]["enum"]) schema_changes.insert(v);
  for (auto n : compare::kChangeNames) declared_changes.emplace(n);
  EXPECT_EQ(schema_changes, declared_changes);
}
