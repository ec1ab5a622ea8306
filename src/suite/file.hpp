#pragma once
// A suite file (TOML) in, the suite's entries out: one entry per target x matrix point,
// each with a stable id. Pure: text in, values out (the command reads the file).
//
//   name = "zoo"                      # optional
//   [defaults]                        # settings every target gets (settings.hpp)
//   budget = 5
//   backend = ["inductor", "aot_eager"]   # a list is a matrix axis
//   [[target]]
//   spec = "models.py:make"           # required: FILE.py:NAME | module:NAME | builtin:NAME
//   name = "resnet"                   # optional: the id's stem (default: spec)
//   params = { batch = [1, 8] }       # factory parameters; a list is an axis too
//   timeout = 120                     # any setting, overriding [defaults]
//
// A parameter whose value really is a list is written as a list of one list: sizes = [[1, 2]].
//
// Ids: stem[k=v,...] with every parameter (sorted by name), then each "what is measured"
// setting that differs from bench's default, then each other setting that is an axis of
// more than one value. Adding a target, reordering targets or adding a backend to the
// matrix keeps every existing id. Two entries with the same id are an error.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::suite {

using json = nlohmann::json;

struct Entry {
  std::string id;
  std::string target;              // the spec
  json params = json::object();    // one value per parameter
  json settings = json::object();  // one checked value per setting given
};

struct Suite {
  std::string name;            // "" when the file gives none
  std::vector<Entry> entries;  // in file order: targets, then matrix points (first axis outermost)
};

// Parses TOML text; `source` names it in errors ("suite.toml"). Throws tct::Error (usage,
// exit 2) for a TOML syntax error (with its line), an unknown key or setting, a bad value,
// a target without spec, no targets, or duplicate ids.
Suite parse_suite(const std::string& toml_text, const std::string& source);

// "stem[k=v,...]" or "stem" (see above). Values: strings as written, the rest as compact JSON.
std::string entry_id(const std::string& stem, const json& params, const json& settings,
                     const std::vector<std::string>& axes);

}  // namespace tct::suite
