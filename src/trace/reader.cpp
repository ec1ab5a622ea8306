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

}  // namespace

ReadStats& ReadStats::operator+=(const ReadStats& o) {
  bytes += o.bytes, lines += o.lines, records += o.records, payload_lines += o.payload_lines;
  garbled += o.garbled, stray += o.stray, truncated += o.truncated, bad_payload += o.bad_payload;
  verified_payloads += o.verified_payloads, oversized += o.oversized;
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

Reader::Reader(Sink& sink, size_t max_payload_bytes) : sink_(sink), max_payload_(max_payload_bytes) {}

void Reader::feed(std::string_view bytes) {
  stats_.bytes += bytes.size();
  while (!bytes.empty()) {
    const void* nl = std::memchr(bytes.data(), '\n', bytes.size());
    if (nl == nullptr) {
      partial_.append(bytes);
      return;
    }
    size_t n = static_cast<const char*>(nl) - bytes.data();
    if (!partial_.empty()) {
      partial_.append(bytes.substr(0, n));
      line(partial_);
      partial_.clear();
    } else {
      line(bytes.substr(0, n));
    }
    bytes.remove_prefix(n + 1);
  }
}

void Reader::finish() {
  // A last line without its newline is read like any other: a header whose JSON parses,
  // or a payload whose MD5 matches, is whole (logs copied or trimmed lose the final '\n').
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

void Reader::line(std::string_view text) {
  ++stats_.lines;
  if (!text.empty() && text[0] == '\t') {
    ++stats_.payload_lines;
    if (!open_) {
      ++stats_.stray;
      return;
    }
    // torch hashes the payload as written: lines joined by '\n', each without its tab.
    if (verify_) {
      if (!first_payload_line_) md5_.update("\n");
      md5_.update(text.substr(1));
    }
    first_payload_line_ = false;
    if (text.back() == '\r') text.remove_suffix(1);
    if (keep_payload_) {
      if (payload_.size() + text.size() > max_payload_) {
        if (payload_.size() < max_payload_) ++stats_.oversized;
        payload_.append(text.substr(1, max_payload_ > payload_.size() ? max_payload_ - payload_.size() : 0));
        payload_.resize(std::min(payload_.size(), max_payload_));
      } else {
        if (!payload_.empty()) payload_ += '\n';
        payload_.append(text.substr(1));
      }
    }
    return;
  }
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  flush_record();
  header(text);
}

void Reader::header(std::string_view text) {
  Prefix p = parse_prefix(text);
  if (p.json_start == std::string_view::npos) {
    if (!text.empty()) ++stats_.stray;
    return;
  }
  header_copy_.assign(text);
  std::string_view json = std::string_view(header_copy_).substr(p.json_start);
  simdjson::dom::element doc;
  simdjson::dom::object obj;
  if (parser_.parse(json.data(), json.size(), true).get(doc) != simdjson::SUCCESS ||
      doc.get_object().get(obj) != simdjson::SUCCESS) {
    ++(at_end_ ? stats_.truncated : stats_.garbled);
    return;
  }
  auto first = obj.begin();
  if (first == obj.end()) {
    ++stats_.garbled;
    return;
  }
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
  verify_ = obj["has_payload"].get_string().get(md5) == simdjson::SUCCESS && is_md5(md5);
  if (verify_) {
    std::memcpy(expected_md5_.data(), md5.data(), 32);
    md5_ = Md5();
  }
  first_payload_line_ = true;
  r.line = stats_.lines;
  ++stats_.records;
  current_ = r;
  open_ = true;
  keep_payload_ = r.has_payload && sink_.wants_payload(current_);
  payload_.clear();
}

void Reader::flush_record() {
  if (!open_) return;
  open_ = false;
  if (verify_) {
    verify_ = false;
    if (md5_.hex() == expected_md5_) {
      ++stats_.verified_payloads;
    } else {
      current_.payload_damaged = true;
      ++(at_end_ ? stats_.truncated : stats_.bad_payload);
    }
  }
  sink_.on_record(current_, keep_payload_ ? std::string_view(payload_) : std::string_view());
  keep_payload_ = false;
  payload_.clear();
}

}  // namespace tct::trace
