#pragma once
// Where in the user's code: frames of a Python traceback, which of them are the user's
// (not torch's, not tct's agent), and file names that read the same on every machine.
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/fields.hpp"

namespace tct::core {

struct Frame {
  std::string file;
  int line = 0;
  std::string function;
  std::string source;
};

// The folders of library code in the user's interpreter, as the agent reports them
// (explain.run's code_dirs, explain/reply.hpp): torch's package and the agent's own (its
// examples are user code).
struct CodeDirs {
  std::string torch, agent, examples;
};
constexpr auto json_fields(const CodeDirs*) {
  using fields::field;
  return std::tuple{field("torch", &CodeDirs::torch), field("agent", &CodeDirs::agent),
                    field("examples", &CodeDirs::examples)};
}

// The file name of a path, without its folders ("/a/b/model.py" -> "model.py").
std::string base_name(const std::string& path);

// User code: a real file (not "<string>"), outside torch and the agent (but its examples).
bool is_user_file(const std::string& file, const CodeDirs& dirs);

// `  File "x.py", line 3, in f` lines, each with the source line under it
// (traceback.format_list), in text -> every frame, outermost first.
std::vector<Frame> traceback_frames(std::string_view text);

// The folder all of files share (ending in '/'; "" when none or not absolute). Files of
// installed packages (".../site-packages/...") are left out: they live elsewhere.
std::string common_root(const std::vector<std::string>& files);

// A name for file that does not depend on where the code lives: below site-packages /
// dist-packages ("torch/nn/modules/linear.py"), else relative to root, else as given.
// Two ranks running /a/job/model.py and /b/job/model.py both say "model.py".
std::string portable_path(const std::string& file, const std::string& root);

}  // namespace tct::core
