#include "trace/source.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <regex>
#include <vector>

#include <zlib.h>

#include "errors.hpp"

namespace tct::trace {
namespace fs = std::filesystem;

namespace {

bool is_log_name(const std::string& name) {
  for (const char* ext : {".log", ".log.gz", ".txt", ".txt.gz", ".gz"})
    if (name.size() >= std::strlen(ext) && name.compare(name.size() - std::strlen(ext), std::string::npos, ext) == 0)
      return true;
  return false;
}

Error bad_input(std::string message, std::string hint) {
  return Error(ExitCode::Usage, "bad_input", std::move(message), std::move(hint));
}

}  // namespace

std::optional<int> rank_from_name(const std::string& filename) {
  // torchrun with TORCH_TRACE: dedicated_log_torch_trace_rank_3_abcd.log; also "rank3", "rank-3".
  static const std::regex re(R"(rank[_-]?(\d+))", std::regex::icase);
  std::smatch m;
  if (std::regex_search(filename, m, re)) return std::stoi(m[1]);
  return std::nullopt;
}

std::vector<TraceFile> list_trace_files(const std::string& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return {{path, rank_from_name(fs::path(path).filename().string())}};
  if (!fs::is_directory(path, ec))
    throw bad_input(path + " does not exist", "give a TORCH_TRACE log file or the directory TORCH_TRACE pointed at");
  std::vector<TraceFile> out;
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    // An empty file is no trace: torch opens its log at the first record (LazyTraceHandler).
    // A folder others share (tlparse's multi_rank_messy_input) may hold some.
    if (!entry.is_regular_file() || entry.file_size(ec) == 0) continue;
    std::string name = entry.path().filename().string();
    if (is_log_name(name)) out.push_back({entry.path().string(), rank_from_name(name)});
  }
  if (out.empty())
    throw bad_input(path + " holds no trace logs (*.log, *.log.gz)",
                    "run the job with TORCH_TRACE=" + path + " set, then read that directory");
  std::sort(out.begin(), out.end(), [](const TraceFile& a, const TraceFile& b) {
    return std::make_pair(a.rank.value_or(-1), a.path) < std::make_pair(b.rank.value_or(-1), b.path);
  });
  return out;
}

void read_file(const std::string& path, Reader& reader) {
  // gzread reads plain files as they are, so one path serves both.
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) throw bad_input("cannot open " + path, "check the path and its permissions");
  gzbuffer(f, 1 << 20);
  std::vector<char> buf(1 << 20);
  for (;;) {
    int n = gzread(f, buf.data(), static_cast<unsigned>(buf.size()));
    if (n < 0) {
      int err = 0;
      std::string what = gzerror(f, &err);
      gzclose(f);
      reader.finish();
      throw bad_input(path + " is not a readable gzip stream (" + what + ")",
                      "give the log uncompressed or re-compress it");
    }
    if (n == 0) break;
    reader.feed(std::string_view(buf.data(), static_cast<size_t>(n)));
  }
  gzclose(f);
  reader.finish();
}

}  // namespace tct::trace
