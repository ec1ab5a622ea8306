#pragma once
// Streaming TORCH_TRACE reader: bytes in (any chunking), records out, constant memory.
// Pure: no I/O; trace/source.hpp feeds it from files (plain or gzip).
//
// Tolerant, as tlparse is: a line that is neither a header nor a payload line, a header
// whose JSON does not parse, a record cut off at the end are counted and skipped, never
// fatal. Payloads are kept only for the records the sink asks for (graph-break reasons,
// recompile reasons): inductor's output code can be megabytes and nobody needs it here.
#include <cstdint>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "trace/record.hpp"

namespace tct::trace {

struct ReadStats {
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t records = 0;
  uint64_t payload_lines = 0;
  uint64_t garbled = 0;     // header-looking lines whose JSON did not parse, or with no kind
  uint64_t stray = 0;       // lines that are neither a header nor a payload line
  uint64_t truncated = 0;   // a last line without its newline (the writer was cut off)
  uint64_t oversized = 0;   // payloads longer than the keep limit (kept cut)
};

class Sink {
 public:
  virtual ~Sink() = default;
  // Called for each header; true: collect this record's payload for on_record.
  virtual bool wants_payload(const Record& record) = 0;
  // After the record's last payload line. payload: the lines without their leading tab,
  // joined by '\n' (empty unless wants_payload said true).
  virtual void on_record(const Record& record, std::string_view payload) = 0;
};

class Reader {
 public:
  explicit Reader(Sink& sink, size_t max_payload_bytes = 1 << 20);
  // Any chunk boundaries; lines may span chunks.
  void feed(std::string_view bytes);
  // End of input: flushes the last record (a final line without '\n' counts as truncated).
  void finish();
  const ReadStats& stats() const { return stats_; }

 private:
  void line(std::string_view text);
  void header(std::string_view text);
  void flush_record();

  Sink& sink_;
  size_t max_payload_;
  ReadStats stats_;
  std::string partial_;  // an unfinished line carried to the next feed()
  simdjson::dom::parser parser_;
  std::string header_copy_;  // the current header's JSON (the parsed document points into parser_)
  Record current_;
  bool open_ = false;        // a record is waiting for its payload lines
  bool keep_payload_ = false;
  std::string payload_;
};

// The `[rankN]:` prefix, level letter, timestamp and "file:line] " of a header line; the
// position where the JSON starts (npos: not a header).
struct Prefix {
  std::optional<int> rank;
  std::string_view timestamp;
  size_t json_start = std::string_view::npos;
};
Prefix parse_prefix(std::string_view line);

}  // namespace tct::trace
