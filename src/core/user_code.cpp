#include "core/user_code.hpp"

#include <algorithm>
#include <cstdlib>

namespace tct::core {
namespace {

bool under(const std::string& file, const std::string& dir) {
  return !dir.empty() && file.size() > dir.size() && file.compare(0, dir.size(), dir) == 0 && file[dir.size()] == '/';
}

// The position just after "site-packages/" or "dist-packages/", or npos.
size_t package_start(const std::string& file) {
  for (const char* marker : {"/site-packages/", "/dist-packages/"})
    if (size_t at = file.rfind(marker); at != std::string::npos) return at + std::char_traits<char>::length(marker);
  return std::string::npos;
}

std::string trim_code(std::string_view s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string_view::npos ? "" : std::string(s.substr(b, e - b + 1));
}

}  // namespace

bool is_user_file(const std::string& file, const CodeDirs& dirs) {
  if (file.empty() || file[0] == '<') return false;
  if (under(file, dirs.torch) || file == dirs.torch) return false;
  return !under(file, dirs.agent) || under(file, dirs.examples);
}

std::vector<Frame> traceback_frames(std::string_view text) {
  static constexpr std::string_view file_tag = "File \"", line_tag = "\", line ", in_tag = ", in ";
  std::vector<Frame> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    std::string t = trim_code(line);
    if (t.rfind(file_tag, 0) != 0) continue;
    size_t q = t.find(line_tag, file_tag.size());
    size_t in = q == std::string::npos ? q : t.find(in_tag, q + line_tag.size());
    if (in == std::string::npos) continue;
    Frame f;
    f.file = t.substr(file_tag.size(), q - file_tag.size());
    f.line = std::atoi(t.c_str() + q + line_tag.size());
    f.function = t.substr(in + in_tag.size());
    // The source line follows, indented, unless another frame does.
    if (pos < text.size()) {
      size_t next_eol = std::min(text.find('\n', pos), text.size());
      std::string src = trim_code(text.substr(pos, next_eol - pos));
      if (!src.empty() && src.rfind(file_tag, 0) != 0) f.source = src;
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::string common_root(const std::vector<std::string>& files) {
  std::string root;
  bool first = true;
  for (const auto& f : files) {
    if (f.empty() || f[0] != '/' || package_start(f) != std::string::npos) continue;
    std::string dir = f.substr(0, f.rfind('/') + 1);
    if (first) {
      root = dir, first = false;
      continue;
    }
    size_t n = 0;
    while (n < root.size() && n < dir.size() && root[n] == dir[n]) ++n;
    root = root.substr(0, root.rfind('/', n == 0 ? 0 : n - 1) + 1);
  }
  return root;
}

std::string portable_path(const std::string& file, const std::string& root) {
  if (size_t at = package_start(file); at != std::string::npos) return file.substr(at);
  if (root.size() > 1 && file.compare(0, root.size(), root) == 0) return file.substr(root.size());
  return file;
}

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace tct::core
