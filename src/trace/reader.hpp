#pragma once
// Streaming TORCH_TRACE reader: bytes in (any chunking), records out, constant memory.
// Pure: no I/O; trace/source.hpp feeds it from files (plain or gzip).
//
// Tolerant, as tlparse is: damage is what cannot be read, counted and skipped, never fatal:
// a line that is neither a header nor a payload line, a header whose JSON does not parse, a
// JSON payload that does not parse (and is not what torch wrote: its MD5 differs), a record
// cut off at the end. Each is counted, and the first few say where (line, record kind).
//
// A payload that parses is read and used whatever its MD5 says (tlparse does the same): a
// log edited by hand, or rewritten by a tool, still means what it says. An MD5 that differs
// is counted apart (edited), a note, not damage. Text payloads (graphs, output code) always
// parse; JSON payloads (artifacts of encoding "json", chromium_event, dynamo_guards) are
// checked with simdjson. Line ends may be "\n", "\r\n" or "\r": each reads like "\n", for
// headers, payloads and their MD5. Empty lines (torch writes none) are skipped, as tlparse
// skips them.
//
// MD5s are computed only where the answer is used: the payloads the sink reads (a note
// when they were edited), a JSON payload that does not parse (torch wrote it so when its MD5
// matches: older torch's unquoted recompile reasons), and every payload when the caller
// asks (--strict). Inductor's output code can be megabytes a record: it is neither kept nor
// hashed otherwise, so reading costs little more than finding the line ends.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "trace/md5.hpp"
#include "trace/record.hpp"

namespace tct::trace {

// Where the reader found something: the line of the header (or the stray line), the record
// (its kind; for an artifact, its name) and what was wrong.
struct Spot {
  std::string log;     // the file, when read through read_rank_logs; "" otherwise
  uint64_t line = 0;   // 1-based
  std::string record;  // "inductor_collective_schedule", "dynamo_start"; "" when unknown
  std::string what;    // "garbled header", "stray line", "payload does not parse", "cut off",
                       // "MD5 differs"
  bool operator==(const Spot&) const = default;
};

struct ReadStats {
  // How many spots of each list are kept: enough to find them, flat however many there are.
  static constexpr size_t kMaxSpots = 10;

  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t records = 0;
  uint64_t payload_lines = 0;
  uint64_t garbled = 0;            // header-looking lines whose JSON did not parse, or with no kind
  uint64_t stray = 0;              // lines that are neither a header nor a payload line
  uint64_t truncated = 0;          // the last record cut off (its header's or its payload's JSON says so)
  uint64_t bad_payload = 0;        // JSON payloads that do not parse, and were not written so
  uint64_t edited = 0;             // payloads that parse and were read, whose MD5 differs
  uint64_t verified_payloads = 0;  // payloads whose MD5 was computed and matched
  uint64_t oversized = 0;          // payloads longer than the keep limit (kept cut)
  std::vector<Spot> damaged_at;    // the first kMaxSpots of the damage counted above
  std::vector<Spot> edited_at;     // the first kMaxSpots edited payloads

  uint64_t damaged() const { return garbled + stray + truncated + bad_payload; }
  ReadStats& operator+=(const ReadStats& o);
};

class Sink {
 public:
  virtual ~Sink() = default;
  // Called for each header; true: collect this record's payload for on_record.
  virtual bool wants_payload(const Record& record) = 0;
  // After the record's last payload line. payload: the lines without their leading tab,
  // joined by '\n' (empty unless wants_payload said true). record.payload_damaged: it could
  // not be read (do not use it); record.payload_edited: it reads, but its MD5 differs.
  virtual void on_record(const Record& record, std::string_view payload) = 0;
};

class Reader {
 public:
  // max_payload_bytes: the most of a payload the sink is given. check_every_md5: hash every
  // payload, so that `edited` counts them all (--strict), not only those the sink reads.
  explicit Reader(Sink& sink, size_t max_payload_bytes = 1 << 20, bool check_every_md5 = false);
  // Any chunk boundaries; lines may span chunks.
  void feed(std::string_view bytes);
  // End of input: reads a final line that has no line end and flushes the last record.
  void finish();
  const ReadStats& stats() const { return stats_; }

 private:
  enum class Format { Text, Json };
  void line(std::string_view text);
  void header(std::string_view text);
  void payload_line(std::string_view text);
  void flush_record();
  // Whether the buffered payload is one torch wrote whole: its JSON parses (or it is text).
  bool payload_parses();
  // The MD5 of the record's payload against the header's; nullopt when the header has none.
  std::optional<bool> md5_matches();
  void note(std::vector<Spot>& spots, uint64_t line, std::string_view what);

  Sink& sink_;
  size_t max_payload_;
  bool check_every_md5_;
  ReadStats stats_;
  std::string partial_;                   // an unfinished line carried to the next feed()
  bool skip_lf_ = false;                  // the last chunk ended in '\r': a '\n' starting the next one ends no line
  simdjson::dom::parser parser_;          // headers (the record's DOM lives here until on_record)
  simdjson::dom::parser payload_parser_;  // payloads, checked before on_record
  std::string header_copy_;               // the current header's JSON (the parsed document points into parser_)
  Record current_;
  std::string label_;  // the current record's kind, or its artifact name
  bool open_ = false;  // a record is waiting for its payload lines
  bool keep_payload_ = false;
  bool buffer_payload_ = false;  // kept, or JSON to check: the whole payload is buffered
  bool hash_stream_ = false;     // hashed as it streams (kept, or check_every_md5)
  Format format_ = Format::Text;
  bool at_end_ = false;  // finish(): damage found now is truncation
  bool first_payload_line_ = true;
  std::string payload_;        // the buffered payload (lines joined by '\n', tabs removed)
  uint64_t payload_size_ = 0;  // the whole payload's size (payload_ may hold less)
  // The header's has_payload when it is an MD5 (32 hex digits); the running hash under
  // check_every_md5 (otherwise the buffered payload is hashed when the answer is needed).
  bool has_md5_ = false;
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
