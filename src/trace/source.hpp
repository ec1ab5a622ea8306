#pragma once
// Feeding the reader from disk: one file (plain or gzip, told apart by zlib itself) or a
// TORCH_TRACE directory (one log per rank). The only I/O of src/trace/.
#include <optional>
#include <string>
#include <vector>

#include "trace/reader.hpp"

namespace tct::trace {

struct TraceFile {
  std::string path;
  std::optional<int> rank;  // from the name: "..._rank_3_..." (torchrun) or "rank3"
};

// The logs under path: the file itself, or the directory's *.log / *.log.gz / *.txt(.gz)
// files that are not empty, sorted by rank then name. Throws tct::Error (bad input) when
// there is none.
std::vector<TraceFile> list_trace_files(const std::string& path);

// The rank a file name carries, if any.
std::optional<int> rank_from_name(const std::string& filename);

// Streams the file through reader (1 MiB chunks, then reader.finish()). Throws tct::Error
// (bad input) when it cannot be opened or its gzip stream is corrupt.
void read_file(const std::string& path, Reader& reader);

}  // namespace tct::trace
