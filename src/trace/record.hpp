#pragma once
// One TORCH_TRACE record (torch/_logging/_internal.py trace_structured): a glog-style
// header line, `[rank0]:V1130 18:15:52.398000 13781 <file>.py:2350] {json metadata}`,
// then payload lines, each starting with a tab. The metadata's first key names the kind
// ("dynamo_start", "compilation_metrics", "artifact", "str", ...).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <simdjson.h>

namespace tct::trace {

// frame_id / frame_compile_id / attempt (and compiled_autograd_id), as torch's CompileId.
struct CompileId {
  int64_t frame = -1;
  int64_t frame_compile = -1;
  int64_t attempt = 0;
  int64_t autograd = -1;
  // Not torch's: how many times torch._dynamo.reset() started the ids over before this
  // compile (the trace summary tells, from a compile id seen again). 0 in the reader.
  int64_t resets = 0;
  // Not torch's either: which of a rank's logs it is in (0: the first). Each log is its
  // own process (torch names them dedicated_log_torch_trace_rank_R_<random>.log), so the
  // same id in two logs of one rank (a restarted job) is two compiles.
  int64_t log = 0;

  bool known() const { return frame >= 0 && frame_compile >= 0; }
  // "0/1", "0/1_2" with an attempt, "!3/0/1" under compiled autograd (tlparse's spelling);
  // "0/1 (after reset 2)" for a compile after the second reset, "0/1 (log 2)" in a
  // rank's second log.
  std::string str() const;
  // The frame compile without the attempt: restarts of one compile share it.
  std::string without_attempt() const;
  // The frame alone ("0", "!3/0", with the reset and log suffixes): a frame's first compile
  // and its recompiles share it.
  std::string frame_str() const;
  bool operator<(const CompileId& o) const;
  bool operator==(const CompileId& o) const = default;
};

struct Record {
  std::string_view kind;           // the metadata's first key
  simdjson::dom::object metadata;  // the whole metadata object (valid during the callback)
  simdjson::dom::element body;     // metadata[kind]
  CompileId id;
  std::optional<int> rank;     // "rank" key or the `[rankN]:` prefix
  std::string_view timestamp;  // "1130 18:15:52.398000" (MMDD hh:mm:ss.us)
  bool has_payload = false;
  bool payload_damaged = false;  // it cannot be read: its JSON does not parse (set when the record ends)
  bool payload_edited = false;   // it reads, but its MD5 is not the header's: edited after torch wrote it
  uint64_t line = 0;             // 1-based line of the header in its input
};

}  // namespace tct::trace
