#pragma once
// MD5 (RFC 1321), incremental. torch's trace_structured writes each payload's MD5 as the
// header's "has_payload" (torch/_logging/_internal.py); tlparse checks it (Stats
// fail_payload_md5), and so does the reader: the one sure way to tell a payload that lost
// a line, or was cut off, from a complete one. Header-only so the fuzz target, which
// lists its sources, needs nothing more. Not for security: for telling damage apart.
#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tct::trace {

class Md5 {
 public:
  void update(std::string_view data) {
    const auto* p = reinterpret_cast<const unsigned char*>(data.data());
    size_t n = data.size();
    size_t used = static_cast<size_t>(length_ % 64);
    length_ += n;
    if (used > 0) {
      size_t take = std::min(n, 64 - used);
      std::memcpy(buffer_ + used, p, take);
      p += take, n -= take, used += take;
      if (used < 64) return;
      block(buffer_);
    }
    for (; n >= 64; p += 64, n -= 64) block(p);
    if (n > 0) std::memcpy(buffer_, p, n);
  }

  // The 32 lowercase hex digits of the digest; the object is spent afterwards.
  std::array<char, 32> hex() {
    uint64_t bits = length_ * 8;
    static const unsigned char pad[64] = {0x80};
    size_t used = static_cast<size_t>(length_ % 64);
    update(std::string_view(reinterpret_cast<const char*>(pad), used < 56 ? 56 - used : 120 - used));
    unsigned char len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(bits >> (8 * i));
    update(std::string_view(reinterpret_cast<const char*>(len), 8));
    std::array<char, 32> out{};
    const char* digits = "0123456789abcdef";
    uint32_t words[4] = {a_, b_, c_, d_};
    for (int w = 0; w < 4; ++w)
      for (int byte = 0; byte < 4; ++byte) {
        unsigned v = (words[w] >> (8 * byte)) & 0xff;
        out[static_cast<size_t>(w * 8 + byte * 2)] = digits[v >> 4];
        out[static_cast<size_t>(w * 8 + byte * 2 + 1)] = digits[v & 15];
      }
    return out;
  }

 private:
  static uint32_t rotl(uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }

  void block(const unsigned char* p) {
    static const uint32_t K[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
    static const int S[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                              5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                              4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                              6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    uint32_t m[16];
    for (int i = 0; i < 16; ++i)
      m[i] = uint32_t(p[i * 4]) | uint32_t(p[i * 4 + 1]) << 8 | uint32_t(p[i * 4 + 2]) << 16 |
             uint32_t(p[i * 4 + 3]) << 24;
    uint32_t a = a_, b = b_, c = c_, d = d_;
    for (int i = 0; i < 64; ++i) {
      uint32_t f;
      int g;
      if (i < 16) f = (b & c) | (~b & d), g = i;
      else if (i < 32) f = (d & b) | (~d & c), g = (5 * i + 1) % 16;
      else if (i < 48) f = b ^ c ^ d, g = (3 * i + 5) % 16;
      else f = c ^ (b | ~d), g = (7 * i) % 16;
      uint32_t t = d;
      d = c;
      c = b;
      b = b + rotl(a + f + K[i] + m[g], S[i]);
      a = t;
    }
    a_ += a, b_ += b, c_ += c, d_ += d;
  }

  uint32_t a_ = 0x67452301, b_ = 0xefcdab89, c_ = 0x98badcfe, d_ = 0x10325476;
  uint64_t length_ = 0;
  unsigned char buffer_[64] = {};
};

}  // namespace tct::trace
