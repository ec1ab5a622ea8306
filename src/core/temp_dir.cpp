#include "core/temp_dir.hpp"

#include <stdlib.h>

#include <filesystem>
#include <vector>

#include "errors.hpp"

namespace tct::core {

namespace fs = std::filesystem;

TempDir::TempDir(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))
    throw Error(ExitCode::Internal, "internal", "cannot create a temporary folder",
                "check that the temp folder ($TMPDIR) is writable");
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace tct::core
