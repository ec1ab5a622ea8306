#pragma once
// A fresh folder under the system temp folder ($TMPDIR), removed with everything in it
// when the object goes away.
#include <string>

namespace tct::core {

class TempDir {
 public:
  // prefix: the folder name's start ("tct-cache" -> /tmp/tct-cache-a1B2c3). Throws
  // tct::Error (internal) when the temp folder is not writable.
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace tct::core
