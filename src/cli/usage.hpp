#pragma once
// Turning what the argument parser rejects into one `tct: error: WHAT. WHAT TO DO` line:
// "did you mean" for mistyped commands and flags, number checks with readable messages,
// and the checks of the common flags that must pass before any Python starts.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "errors.hpp"

namespace tct::cli {

struct CommonOptions;

// The candidate closest to `word` by edit distance, or "" when none is close enough to be
// what was meant (at most 2 edits, or a third of the word's length when that is more).
std::string closest(const std::string& word, const std::vector<std::string>& candidates);

// A parse failure of `app` (the argv it saw) as a usage error that names the mistake and
// the fix: an unknown command or flag with its nearest spelling, else CLI11's message.
Error explain_parse_error(const CLI::App& app, const CLI::ParseError& e, const std::vector<std::string>& argv);

// A usage error raised while CLI11 parses (e.g. in an option callback), kept whole so that
// main prints the tct::Error and not CLI11's wording of it.
class ParseUsageError : public CLI::ValidationError {
 public:
  // tct::Error spelled out: inside a CLI11 error class, `Error` names CLI::Error.
  explicit ParseUsageError(tct::Error e) : CLI::ValidationError(e.what()), error(std::move(e)) {}
  tct::Error error;
};

// Number checks whose message says what is wrong ("must be above 0, got -1"), unlike
// CLI::PositiveNumber's 309-digit range.
extern const CLI::Validator kPositive;
extern const CLI::Validator kNonNegative;

// Flag conflicts and --out paths (known extension, existing writable folder), checked
// before a command runs so that a typo costs nothing. Throws tct::Error (usage).
void validate_common_options(const CommonOptions& options);

}  // namespace tct::cli
