#pragma once
// Streaming TORCH_TRACE reader: bytes in (any chunking), records out, constant memory.
// Pure: no I/O; trace/source.hpp feeds it from files (plain or gzip).
//
// Tolerant, as tlparse is: a line that is neither a header nor a payload line, a header
// whose JSON does not parse, a payload whose MD5 is not the one its header names (a line
// lost or altered), a record cut off at the end are counted and skipped, never fatal.
// Damage is only what is proven: a last line without its newline is read as any other
// (the writer's last record is often complete), and counted as truncated only when its
// JSON or its payload's MD5 says it was cut. Payloads are kept only for the records the
// sink asks for (graph-break reasons, recompile reasons, collective schedules): inductor's
// output code can be megabytes and nobody needs it here; every payload is still hashed.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "trace/md5.hpp"
#include "trace/record.hpp"

namespace tct::trace {

struct ReadStats {
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t records = 0;
  uint64_t payload_lines = 0;
  uint64_t garbled = 0;     // header-looking lines whose JSON did not parse, or with no kind
  uint64_t stray = 0;       // lines that are neither a header nor a payload line
  uint64_t truncated = 0;   // the last record cut off (its JSON or its payload's MD5 says so)
  uint64_t bad_payload = 0; // payloads whose MD5 is not the header's has_payload (lines lost)
  uint64_t verified_payloads = 0;  // payloads whose MD5 matched
  uint64_t oversized = 0;   // payloads longer than the keep limit (kept cut)

  uint64_t damaged() const { return garbled + stray + truncated + bad_payload; }
  ReadStats& operator+=(const ReadStats& o);
};

class Sink {
 public:
  virtual ~Sink() = default;
  // Called for each header; true: collect this record's payload for on_record.
  virtual bool wants_payload(const Record& record) = 0;
  // After the record's last payload line. payload: the lines without their leading tab,
  // joined by '\n' (empty unless wants_payload said true). record.payload_damaged: its
  // MD5 did not match (do not trust the payload).
  virtual void on_record(const Record& record, std::string_view payload) = 0;
};

class Reader {
 public:
  explicit Reader(Sink& sink, size_t max_payload_bytes = 1 << 20);
  // Any chunk boundaries; lines may span chunks.
  void feed(std::string_view bytes);
  // End of input: reads a final line that has no '\n' and flushes the last record.
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
  bool at_end_ = false;      // finish(): damage found now is truncation
  std::string payload_;
  // The header's has_payload when it is an MD5 (32 hex digits), and the running hash.
  bool verify_ = false;
  bool first_payload_line_ = true;
  std::array<char, 32> expected_md5_{};
  Md5 md5_;
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
