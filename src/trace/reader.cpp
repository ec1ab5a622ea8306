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

}  // namespace

std::string CompileId::str() const {
  if (!known()) return "?";
  std::string s = autograd >= 0 ? "!" + std::to_string(autograd) + "/" : "";
  s += std::to_string(frame) + "/" + std::to_string(frame_compile);
  if (attempt > 0) s += "_" + std::to_string(attempt);
  return s;
}

std::string CompileId::without_attempt() const {
  CompileId c = *this;
  c.attempt = 0;
  return c.str();
}

bool CompileId::operator<(const CompileId& o) const {
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
  if (!partial_.empty()) {
    ++stats_.truncated;
    // A cut-off payload line still belongs to its record; a cut-off header is dropped
    // (its JSON is incomplete: it would count as garbled, but it is truncation).
    if (partial_[0] == '\t' && open_) line(partial_);
    partial_.clear();
  }
  flush_record();
}

void Reader::line(std::string_view text) {
  ++stats_.lines;
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  if (!text.empty() && text[0] == '\t') {
    ++stats_.payload_lines;
    if (!open_) {
      ++stats_.stray;
      return;
    }
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
    ++stats_.garbled;
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
  r.has_payload = obj["has_payload"].error() == simdjson::SUCCESS;
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
  sink_.on_record(current_, keep_payload_ ? std::string_view(payload_) : std::string_view());
  keep_payload_ = false;
  payload_.clear();
}

}  // namespace tct::trace
