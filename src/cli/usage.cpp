#include "cli/usage.hpp"

#include <algorithm>
#include <filesystem>

#include <unistd.h>

#include <fmt/format.h>

#include "cli/context.hpp"
#include "core/cpu_placement.hpp"
#include "cli/render.hpp"

namespace tct::cli {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

// Every spelling of every flag of `cmd`, with its dashes: --budget, -o, --out, -h ...
std::vector<std::string> flag_names(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const auto* opt : cmd.get_options()) {
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The first flag in `args` that `cmd` does not define ("" when all are known).
std::string first_unknown_flag(const CLI::App& cmd, const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--") break;
    if (a.size() < 2 || a[0] != '-' || std::isdigit(static_cast<unsigned char>(a[1])) || a[1] == '.') continue;
    std::string name = a.substr(0, a.find('='));
    if (name.size() > 2 && name[1] != '-') name = name.substr(0, 2);  // -ofile, -vq
    if (cmd.get_option_no_throw(name) == nullptr) return name;
  }
  return "";
}

}  // namespace

std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

Error explain_parse_error(const CLI::App& app, const CLI::ParseError& e, const std::vector<std::string>& argv) {
  if (const auto* u = dynamic_cast<const ParseUsageError*>(&e)) return u->error;
  const auto commands = command_names(app);
  const std::string list = joined(commands);
  // The command is the first word that is not a flag (tct has no flags before it but
  // --help and --version).
  size_t at = 1;
  while (at < argv.size() && !argv[at].empty() && argv[at][0] == '-') ++at;
  if (at == argv.size()) {
    std::string flag = first_unknown_flag(app, {argv.begin() + std::min<size_t>(1, argv.size()), argv.end()});
    if (!flag.empty())
      return usage_error(
          fmt::format("unknown flag '{}' before the command", flag),
          fmt::format("write tct COMMAND [FLAGS], COMMAND one of {}; 'tct --help' shows examples", list));
    return usage_error("no command given",
                       fmt::format("write tct COMMAND, COMMAND one of {}; 'tct --help' shows examples", list));
  }
  const std::string& word = argv[at];
  const CLI::App* cmd = nullptr;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_name() == word) cmd = sub;
  if (cmd == nullptr) {
    std::string near = closest(word, commands);
    return usage_error(fmt::format("unknown command '{}'", word),
                       near.empty() ? fmt::format("commands: {}; 'tct --help' shows examples", list)
                                    : fmt::format("did you mean 'tct {}'? Commands: {}", near, list));
  }
  const std::string flag = first_unknown_flag(*cmd, {argv.begin() + static_cast<long>(at) + 1, argv.end()});
  if (!flag.empty()) {
    std::string near = closest(flag, flag_names(*cmd));
    return usage_error(fmt::format("unknown flag '{}' for tct {}", flag, word),
                       (near.empty() ? std::string() : fmt::format("did you mean {}? ", near)) +
                           fmt::format("'tct {} --help' lists its flags", word));
  }
  std::string what = e.what();
  while (!what.empty() && (what.back() == '.' || what.back() == '\n')) what.pop_back();
  return usage_error(what, fmt::format("'tct {} --help' lists its flags and examples", word));
}

namespace {

std::string check_number(std::string& text, bool zero_ok) {
  double v = 0;
  if (!CLI::detail::lexical_cast(text, v)) return fmt::format("'{}' is not a number", text);
  if (zero_ok ? !(v >= 0) : !(v > 0)) return fmt::format("must be {} 0, got {}", zero_ok ? "at least" : "above", text);
  return "";
}

}  // namespace

const CLI::Validator kPositive([](std::string& s) { return check_number(s, false); }, "POSITIVE", "POSITIVE");
const CLI::Validator kNonNegative([](std::string& s) { return check_number(s, true); }, "NONNEGATIVE", "NONNEGATIVE");

void validate_common_options(const CommonOptions& o) {
  if (o.json && o.markdown)
    throw usage_error("--json and --markdown both print the report on stdout",
                      "choose one; write the other as a file with -o FILE.json or -o FILE.md");
  cli::validate_output_paths(o.out);
  if (!o.cpus.empty()) core::parse_cpu_list(o.cpus, core::allowed_cpus());  // a bad list: exit 2 before anything runs
  namespace fs = std::filesystem;
  for (const auto& path : o.out) {
    fs::path folder = fs::path(path).parent_path();
    if (folder.empty()) folder = ".";
    std::error_code ec;
    if (fs::is_directory(path, ec))
      throw usage_error(fmt::format("--out {} is a folder", path), "give a file name ending in .json, .md or .html");
    if (!fs::is_directory(folder, ec))
      throw usage_error(fmt::format("--out {}: folder {} does not exist", path, folder.string()),
                        "create it first, or write the report somewhere else");
    if (::access(folder.c_str(), W_OK) != 0)
      throw usage_error(fmt::format("--out {}: folder {} is not writable", path, folder.string()),
                        "write the report somewhere else");
  }
}

}  // namespace tct::cli
