#pragma once
// MD5 of payloads, from OpenSSL's libcrypto. torch's trace_structured writes each payload's
// MD5 as the header's "has_payload" (torch/_logging/_internal.py); tlparse checks it (Stats
// fail_payload_md5). The reader computes it only where the answer is used (reader.hpp):
// payloads the summary reads, a JSON payload that does not parse, every payload under
// --strict. Not for security: for telling a payload edited or cut from the one written.
#include <array>
#include <memory>
#include <string_view>

namespace tct::trace {

class Md5 {
 public:
  Md5();
  ~Md5();
  Md5(Md5&&) noexcept;
  Md5& operator=(Md5&&) noexcept;
  // Starts a new digest (the context is kept: no allocation per payload).
  void reset();
  void update(std::string_view data);
  // The digest in lower-case hex, as torch writes it; ends this digest (reset() to reuse).
  std::array<char, 32> hex();

 private:
  struct Context;
  std::unique_ptr<Context> ctx_;
};

// The MD5 of data in lower-case hex.
std::array<char, 32> md5_hex(std::string_view data);

}  // namespace tct::trace
