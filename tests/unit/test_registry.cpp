// The registry (cli/registry.hpp) against the files a command still edits by hand: the commands
// and sections it lists are the ones schema/tct.schema.json names, the typed documents of
// node/index.d.ts name registered commands, and each section's places are its own.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/outcome.hpp"
#include "cli/registry.hpp"
#include "cli/renderers.hpp"

namespace tct {
namespace {

using json = nlohmann::json;

std::string read_source(const std::string& rel) {
  std::ifstream f(std::filesystem::path(TCT_SOURCE_DIR) / rel);
  EXPECT_TRUE(f.good()) << rel;
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::set<std::string> registered_commands() {
  CLI::App app;
  std::set<std::string> names;
  for (cli::CommandFactory make : cli::kCommands) names.insert(make()->define(app)->get_name());
  return names;
}

std::set<std::string> registered_sections() {
  std::set<std::string> keys;
  cli::Sections::each([&]<class S>(std::type_identity<S>) { keys.insert(S::key); });
  return keys;
}

TEST(Registry, CommandsAreTheSchemasCommands) {
  const json schema = json::parse(read_source("schema/tct.schema.json"));
  std::set<std::string> names;
  for (const auto& c : schema["properties"]["command"]["enum"]) names.insert(c.get<std::string>());
  EXPECT_EQ(registered_commands(), names);
}

TEST(Registry, SectionsAreTheSchemasSections) {
  const json schema = json::parse(read_source("schema/tct.schema.json"));
  const std::set<std::string> envelope = {"schema",    "command", "tct_version", "created",
                                          "exit_code", "error",   "warnings",    "environment"};
  std::set<std::string> sections;
  for (const auto& [key, _] : schema["properties"].items())
    if (!envelope.count(key)) sections.insert(key);
  EXPECT_EQ(registered_sections(), sections);
  // A command's required sections are registered sections.
  const std::set<std::string> commands = registered_commands();
  for (const auto& rule : schema["allOf"]) {
    const json& then = rule["then"];
    if (!then.contains("required")) continue;
    for (const auto& key : then["required"]) EXPECT_TRUE(sections.count(key.get<std::string>())) << key;
  }
}

// node/index.d.ts types the documents of some commands (`interface XDocument extends Document
// { command: 'x'; ... }`); the wrapper's run() returns a Document for any other.
TEST(Registry, TypedDocumentsOfIndexDtsAreRegisteredCommands) {
  const std::string dts = read_source("node/index.d.ts");
  const std::set<std::string> commands = registered_commands();
  const std::regex typed(R"(extends Document \{\s*command: '([a-z]+)')");
  int n = 0;
  for (auto it = std::sregex_iterator(dts.begin(), dts.end(), typed); it != std::sregex_iterator(); ++it, ++n)
    EXPECT_TRUE(commands.count((*it)[1].str())) << (*it)[1].str() << " is typed in node/index.d.ts, not registered";
  EXPECT_GT(n, 0);
}

// A section's place on the HTML page and among the answers is its own, so the order is the
// registry's, never the sort's whim; a section on the page has its contents' label.
TEST(Registry, EachSectionHasItsOwnPlaces) {
  std::set<int> pages, answers;
  for (const cli::Renderers& r : cli::renderers()) {
    EXPECT_TRUE(pages.insert(r.page).second) << r.key << " shares its page place";
    if (r.answers) EXPECT_TRUE(answers.insert(r.answer).second) << r.key << " shares its answer place";
    if (r.html) EXPECT_NE(r.toc, nullptr) << r.key;
    EXPECT_NE(r.text, nullptr) << r.key;
    EXPECT_NE(r.markdown, nullptr) << r.key;
  }
  EXPECT_EQ(cli::renderers().size(), registered_sections().size());
}

// A saved document reads back into the Outcome's slots, section by section, and writes again.
TEST(Registry, DocumentRoundTripsThroughTheSlots) {
  cli::Outcome o = cli::new_outcome("trace");
  o.get<trace::TraceResult>() = trace::TraceResult{};
  const json doc = cli::to_document(o);
  EXPECT_TRUE(doc.contains("trace"));
  EXPECT_FALSE(doc.contains("bench"));
  const cli::Outcome back = cli::from_document(doc);
  EXPECT_TRUE(back.get<trace::TraceResult>().has_value());
  EXPECT_FALSE(back.get<bench::BenchResult>().has_value());
  EXPECT_EQ(cli::to_document(back), doc);
}

}  // namespace
}  // namespace tct
