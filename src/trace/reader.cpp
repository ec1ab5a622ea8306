#include "trace/reader.hpp"

#include <cctype>
#include <charconv>
#include <cstring>

namespace tct::trace {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int64_t int_field(const simdjson::dom::object& obj, std::string_view key, int64_t fallback) {
  int64_t v = 0;
  if (obj[key].get_int64().get(v) == simdjson::SUCCESS) return v;
  return fallback;
}

bool is_md5(std::string_view s) {
  if (s.size() != 32) return false;
  for (char c : s)
    if (!is_digit(c) && !(c >= 'a' && c <= 'f')) return false;
  return true;
}

// A JSON payload longer than this is not buffered to be checked (it is taken as whole):
// memory stays flat on a log of any size. torch's JSON payloads (guards, tensor metadata,
// provenance maps) are kilobytes to a few megabytes.
constexpr size_t kCheckLimit = size_t{64} << 20;

// Payloads torch serialized as JSON (torch/_logging/_internal.py trace_structured dumps any
// payload that is not a str): artifacts say so in their "encoding"; of the other kinds,
// chromium_event (a dict, the most frequent record of a log) and dynamo_guards (a list).
// Every other payload is text.
bool json_payload(std::string_view kind, const simdjson::dom::element& body) {
  if (kind == "chromium_event" || kind == "dynamo_guards") return true;
  std::string_view encoding;
  return kind == "artifact" && body["encoding"].get_string().get(encoding) == simdjson::SUCCESS && encoding == "json";
}

// An artifact is known by its name: "inductor_output_code", not "artifact".
std::string label_of(std::string_view kind, const simdjson::dom::element& body) {
  std::string_view name;
  if (kind == "artifact" && body["name"].get_string().get(name) == simdjson::SUCCESS) return std::string(name);
  return std::string(kind);
}

void append_spots(std::vector<Spot>& to, const std::vector<Spot>& from) {
  for (const Spot& s : from)
    if (to.size() < ReadStats::kMaxSpots) to.push_back(s);
}

}  // namespace

ReadStats& ReadStats::operator+=(const ReadStats& o) {
  bytes += o.bytes, lines += o.lines, records += o.records, payload_lines += o.payload_lines;
  garbled += o.garbled, stray += o.stray, truncated += o.truncated, bad_payload += o.bad_payload;
  edited += o.edited, verified_payloads += o.verified_payloads, oversized += o.oversized;
  append_spots(damaged_at, o.damaged_at);
  append_spots(edited_at, o.edited_at);
  return *this;
}

std::string CompileId::str() const {
  if (!known()) return "?";
  // Appends, not "a" + b chains: GCC 12 warns falsely (-Wrestrict) on those.
  std::string s;
  if (autograd >= 0) s.append("!").append(std::to_string(autograd)).append("/");
  s.append(std::to_string(frame)).append("/").append(std::to_string(frame_compile));
  if (attempt > 0) s.append("_").append(std::to_string(attempt));
  if (resets > 0) s.append(" (after reset ").append(std::to_string(resets)).append(")");
  if (log > 0) s.append(" (log ").append(std::to_string(log + 1)).append(")");
  return s;
}

std::string CompileId::without_attempt() const {
  CompileId c = *this;
  c.attempt = 0;
  return c.str();
}

std::string CompileId::frame_str() const {
  std::string s = str();
  if (!known()) return s;
  // "!3/0/1_2 (log 2)" -> "!3/0 (log 2)": the frame compile's number and attempt dropped.
  const std::string compile = "/" + std::to_string(frame_compile) + (attempt > 0 ? "_" + std::to_string(attempt) : "");
  const auto at = s.find(compile, autograd >= 0 ? s.find('/') + 1 : 0);
  return at == std::string::npos ? s : s.erase(at, compile.size());
}

bool CompileId::operator<(const CompileId& o) const {
  if (log != o.log) return log < o.log;
  if (resets != o.resets) return resets < o.resets;
  if (autograd != o.autograd) return autograd < o.autograd;
  if (frame != o.frame) return frame < o.frame;
  if (frame_compile != o.frame_compile) return frame_compile < o.frame_compile;
  return attempt < o.attempt;
}

// `[rank3]:V1130 18:15:52.398000 13781 /path/file.py:2350] {...}` (TorchLogsFormatter).
Prefix parse_prefix(std::string_view s) {
  Prefix p;
  size_t i = 0;
  if (s.rfind("[rank", 0) == 0) {
    size_t close = s.find("]:");
    if (close == std::string_view::npos) return p;
    int r = 0;
    auto [ptr, ec] = std::from_chars(s.data() + 5, s.data() + close, r);
    if (ec == std::errc() && ptr == s.data() + close) p.rank = r;
    i = close + 2;
  }
  // Level letter (glog: V I W E C), then MMDD.
  if (i + 5 >= s.size() || std::strchr("VIWEC", s[i]) == nullptr || !is_digit(s[i + 1])) return p;
  size_t ts_end = s.find(' ', i + 1);  // after MMDD
  if (ts_end == std::string_view::npos) return p;
  ts_end = s.find(' ', ts_end + 1);  // after hh:mm:ss.us
  if (ts_end == std::string_view::npos) return p;
  p.timestamp = s.substr(i + 1, ts_end - i - 1);
  size_t json = s.find("] {", ts_end);
  if (json == std::string_view::npos) return p;
  p.json_start = json + 2;
  return p;
}

Reader::Reader(Sink& sink, size_t max_payload_bytes, bool check_every_md5)
    : sink_(sink), max_payload_(max_payload_bytes), check_every_md5_(check_every_md5) {}

// Lines end at "\n", "\r\n" or a lone "\r" (logs saved on Windows, or by old Mac tools).
// The next of each is found with memchr and kept until passed, so each byte is scanned
// about twice however the ends mix.
void Reader::feed(std::string_view bytes) {
  stats_.bytes += bytes.size();
  size_t pos = 0;
  if (skip_lf_ && !bytes.empty()) {
    skip_lf_ = false;
    if (bytes[0] == '\n') pos = 1;
  }
  auto find = [&](char c, size_t from) {
    const void* p = std::memchr(bytes.data() + from, c, bytes.size() - from);
    return p == nullptr ? bytes.size() : static_cast<size_t>(static_cast<const char*>(p) - bytes.data());
  };
  size_t nl = find('\n', pos), cr = find('\r', pos);
  while (pos < bytes.size()) {
    size_t end = std::min(nl, cr);
    if (end == bytes.size()) {
      partial_.append(bytes.substr(pos));
      return;
    }
    if (!partial_.empty()) {
      partial_.append(bytes.substr(pos, end - pos));
      line(partial_);
      partial_.clear();
    } else {
      line(bytes.substr(pos, end - pos));
    }
    pos = end + 1;
    if (end == cr) {
      if (pos == bytes.size()) skip_lf_ = true;  // its '\n' may start the next chunk
      else if (bytes[pos] == '\n') ++pos;
    }
    if (nl < pos) nl = find('\n', pos);
    if (cr < pos) cr = find('\r', pos);
  }
}

void Reader::finish() {
  skip_lf_ = false;
  // A last line without its line end is read like any other: a header whose JSON parses,
  // or a payload that parses, is whole (logs copied or trimmed lose the final '\n').
  // What is found damaged from here on was cut off: truncated, not garbled.
  if (!partial_.empty()) {
    std::string last;
    last.swap(partial_);
    if (last[0] != '\t') flush_record();  // the record before a last header is not the cut one
    at_end_ = true;
    line(last);
  }
  at_end_ = true;
  flush_record();
  at_end_ = false;
}

void Reader::note(std::vector<Spot>& spots, uint64_t line, std::string_view what) {
  if (spots.size() < ReadStats::kMaxSpots) spots.push_back({"", line, label_, std::string(what)});
}

void Reader::line(std::string_view text) {
  ++stats_.lines;
  // torch never writes an empty line (an empty payload line is a lone tab); an editor that
  // strips trailing whitespace makes them inside payloads. Skipped, as tlparse skips them:
  // the payload goes on.
  if (text.empty()) return;
  if (text[0] == '\t') return payload_line(text);
  flush_record();
  header(text);
}

void Reader::payload_line(std::string_view text) {
  ++stats_.payload_lines;
  if (!open_) {
    ++stats_.stray;
    label_.clear();
    note(stats_.damaged_at, stats_.lines, "stray line");
    return;
  }
  // torch hashes the payload as written: lines joined by '\n', each without its tab.
  text.remove_prefix(1);
  if (hash_stream_) {
    if (!first_payload_line_) md5_.update("\n");
    md5_.update(text);
  }
  if (buffer_payload_) {
    size_t limit = format_ == Format::Json ? kCheckLimit : max_payload_;
    size_t room = limit > payload_.size() ? limit - payload_.size() : 0;
    if (!first_payload_line_ && room > 0) payload_ += '\n', --room;
    payload_.append(text.substr(0, room));
  }
  payload_size_ += text.size() + (first_payload_line_ ? 0 : 1);
  first_payload_line_ = false;
}

void Reader::header(std::string_view text) {
  Prefix p = parse_prefix(text);
  if (p.json_start == std::string_view::npos) {
    ++stats_.stray;
    label_.clear();
    note(stats_.damaged_at, stats_.lines, "stray line");
    return;
  }
  header_copy_.assign(text);
  std::string_view json = std::string_view(header_copy_).substr(p.json_start);
  simdjson::dom::element doc;
  simdjson::dom::object obj;
  if (parser_.parse(json.data(), json.size(), true).get(doc) != simdjson::SUCCESS ||
      doc.get_object().get(obj) != simdjson::SUCCESS || obj.begin() == obj.end()) {
    ++(at_end_ ? stats_.truncated : stats_.garbled);
    label_.clear();
    note(stats_.damaged_at, stats_.lines, at_end_ ? "cut off" : "garbled header");
    return;
  }
  auto first = obj.begin();
  Record r;
  r.kind = first.key();
  r.body = first.value();
  r.metadata = obj;
  r.id.frame = int_field(obj, "frame_id", -1);
  r.id.frame_compile = int_field(obj, "frame_compile_id", -1);
  r.id.attempt = int_field(obj, "attempt", 0);
  r.id.autograd = int_field(obj, "compiled_autograd_id", -1);
  int64_t rank = int_field(obj, "rank", -1);
  r.rank = rank >= 0 ? std::optional<int>(static_cast<int>(rank)) : p.rank;
  r.timestamp = std::string_view(header_copy_).substr(p.timestamp.data() - text.data(), p.timestamp.size());
  std::string_view md5;
  r.has_payload = obj["has_payload"].error() == simdjson::SUCCESS;
  has_md5_ = obj["has_payload"].get_string().get(md5) == simdjson::SUCCESS && is_md5(md5);
  if (has_md5_) std::memcpy(expected_md5_.data(), md5.data(), 32);
  first_payload_line_ = true;
  r.line = stats_.lines;
  ++stats_.records;
  current_ = r;
  label_ = label_of(r.kind, r.body);
  open_ = true;
  format_ = json_payload(r.kind, r.body) ? Format::Json : Format::Text;
  keep_payload_ = r.has_payload && sink_.wants_payload(current_);
  buffer_payload_ = keep_payload_ || (r.has_payload && format_ == Format::Json);
  hash_stream_ = has_md5_ && (check_every_md5_ || keep_payload_);
  if (hash_stream_) md5_.reset();
  payload_.clear();
  payload_size_ = 0;
}

bool Reader::payload_parses() {
  if (format_ == Format::Text || payload_size_ > payload_.size()) return true;  // text, or past the check limit
  return payload_parser_.parse(payload_.data(), payload_.size(), true).error() == simdjson::SUCCESS;
}

std::optional<bool> Reader::md5_matches() {
  if (!has_md5_) return std::nullopt;
  if (!hash_stream_) {
    // Not hashed while it streamed: the buffered payload is the whole of it (a JSON payload
    // that did not parse, below the check limit).
    md5_.reset();
    md5_.update(payload_);
  }
  bool match = md5_.hex() == expected_md5_;
  if (match) ++stats_.verified_payloads;
  return match;
}

void Reader::flush_record() {
  if (!open_) return;
  open_ = false;
  if (current_.has_payload) {
    if (!payload_parses()) {
      // torch wrote it so when its MD5 matches (torch 2.13's unquoted recompile reasons):
      // the sink reads it as it is. When it differs, it was cut or altered: damaged. With no
      // MD5 to tell (other writers), it is not called damage either: the sink judges it.
      if (md5_matches() == false) {
        current_.payload_damaged = true;
        ++(at_end_ ? stats_.truncated : stats_.bad_payload);
        note(stats_.damaged_at, current_.line, at_end_ ? "cut off" : "payload does not parse");
      }
    } else if (hash_stream_ && md5_matches() == false) {
      current_.payload_edited = true;
      ++stats_.edited;
      note(stats_.edited_at, current_.line, "MD5 differs");
    }
  }
  if (keep_payload_ && payload_size_ > max_payload_) ++stats_.oversized;
  std::string_view payload = keep_payload_ ? std::string_view(payload_).substr(0, max_payload_) : std::string_view();
  sink_.on_record(current_, payload);
  keep_payload_ = false;
  buffer_payload_ = false;
  payload_.clear();
}

}  // namespace tct::trace
