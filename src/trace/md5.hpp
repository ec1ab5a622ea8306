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

  // The four round functions and one step (RFC 1321 3.4), unrolled below: the compiler
  // keeps a, b, c, d in registers, about 4x faster than a loop that picks F/G/H/I per step.
  static uint32_t F(uint32_t x, uint32_t y, uint32_t z) { return z ^ (x & (y ^ z)); }
  static uint32_t G(uint32_t x, uint32_t y, uint32_t z) { return y ^ (z & (x ^ y)); }
  static uint32_t H(uint32_t x, uint32_t y, uint32_t z) { return x ^ y ^ z; }
  static uint32_t I(uint32_t x, uint32_t y, uint32_t z) { return y ^ (x | ~z); }
  template <uint32_t (*Fn)(uint32_t, uint32_t, uint32_t)>
  static void step(uint32_t& a, uint32_t b, uint32_t c, uint32_t d, uint32_t m, uint32_t k, int s) {
    a = b + rotl(a + Fn(b, c, d) + m + k, s);
  }

  void block(const unsigned char* p) {
    uint32_t m[16];
    for (int i = 0; i < 16; ++i)
      m[i] = uint32_t(p[i * 4]) | uint32_t(p[i * 4 + 1]) << 8 | uint32_t(p[i * 4 + 2]) << 16 |
             uint32_t(p[i * 4 + 3]) << 24;
    uint32_t a = a_, b = b_, c = c_, d = d_;
    step<F>(a, b, c, d, m[0], 0xd76aa478u, 7);
    step<F>(d, a, b, c, m[1], 0xe8c7b756u, 12);
    step<F>(c, d, a, b, m[2], 0x242070dbu, 17);
    step<F>(b, c, d, a, m[3], 0xc1bdceeeu, 22);
    step<F>(a, b, c, d, m[4], 0xf57c0fafu, 7);
    step<F>(d, a, b, c, m[5], 0x4787c62au, 12);
    step<F>(c, d, a, b, m[6], 0xa8304613u, 17);
    step<F>(b, c, d, a, m[7], 0xfd469501u, 22);
    step<F>(a, b, c, d, m[8], 0x698098d8u, 7);
    step<F>(d, a, b, c, m[9], 0x8b44f7afu, 12);
    step<F>(c, d, a, b, m[10], 0xffff5bb1u, 17);
    step<F>(b, c, d, a, m[11], 0x895cd7beu, 22);
    step<F>(a, b, c, d, m[12], 0x6b901122u, 7);
    step<F>(d, a, b, c, m[13], 0xfd987193u, 12);
    step<F>(c, d, a, b, m[14], 0xa679438eu, 17);
    step<F>(b, c, d, a, m[15], 0x49b40821u, 22);
    step<G>(a, b, c, d, m[1], 0xf61e2562u, 5);
    step<G>(d, a, b, c, m[6], 0xc040b340u, 9);
    step<G>(c, d, a, b, m[11], 0x265e5a51u, 14);
    step<G>(b, c, d, a, m[0], 0xe9b6c7aau, 20);
    step<G>(a, b, c, d, m[5], 0xd62f105du, 5);
    step<G>(d, a, b, c, m[10], 0x02441453u, 9);
    step<G>(c, d, a, b, m[15], 0xd8a1e681u, 14);
    step<G>(b, c, d, a, m[4], 0xe7d3fbc8u, 20);
    step<G>(a, b, c, d, m[9], 0x21e1cde6u, 5);
    step<G>(d, a, b, c, m[14], 0xc33707d6u, 9);
    step<G>(c, d, a, b, m[3], 0xf4d50d87u, 14);
    step<G>(b, c, d, a, m[8], 0x455a14edu, 20);
    step<G>(a, b, c, d, m[13], 0xa9e3e905u, 5);
    step<G>(d, a, b, c, m[2], 0xfcefa3f8u, 9);
    step<G>(c, d, a, b, m[7], 0x676f02d9u, 14);
    step<G>(b, c, d, a, m[12], 0x8d2a4c8au, 20);
    step<H>(a, b, c, d, m[5], 0xfffa3942u, 4);
    step<H>(d, a, b, c, m[8], 0x8771f681u, 11);
    step<H>(c, d, a, b, m[11], 0x6d9d6122u, 16);
    step<H>(b, c, d, a, m[14], 0xfde5380cu, 23);
    step<H>(a, b, c, d, m[1], 0xa4beea44u, 4);
    step<H>(d, a, b, c, m[4], 0x4bdecfa9u, 11);
    step<H>(c, d, a, b, m[7], 0xf6bb4b60u, 16);
    step<H>(b, c, d, a, m[10], 0xbebfbc70u, 23);
    step<H>(a, b, c, d, m[13], 0x289b7ec6u, 4);
    step<H>(d, a, b, c, m[0], 0xeaa127fau, 11);
    step<H>(c, d, a, b, m[3], 0xd4ef3085u, 16);
    step<H>(b, c, d, a, m[6], 0x04881d05u, 23);
    step<H>(a, b, c, d, m[9], 0xd9d4d039u, 4);
    step<H>(d, a, b, c, m[12], 0xe6db99e5u, 11);
    step<H>(c, d, a, b, m[15], 0x1fa27cf8u, 16);
    step<H>(b, c, d, a, m[2], 0xc4ac5665u, 23);
    step<I>(a, b, c, d, m[0], 0xf4292244u, 6);
    step<I>(d, a, b, c, m[7], 0x432aff97u, 10);
    step<I>(c, d, a, b, m[14], 0xab9423a7u, 15);
    step<I>(b, c, d, a, m[5], 0xfc93a039u, 21);
    step<I>(a, b, c, d, m[12], 0x655b59c3u, 6);
    step<I>(d, a, b, c, m[3], 0x8f0ccc92u, 10);
    step<I>(c, d, a, b, m[10], 0xffeff47du, 15);
    step<I>(b, c, d, a, m[1], 0x85845dd1u, 21);
    step<I>(a, b, c, d, m[8], 0x6fa87e4fu, 6);
    step<I>(d, a, b, c, m[15], 0xfe2ce6e0u, 10);
    step<I>(c, d, a, b, m[6], 0xa3014314u, 15);
    step<I>(b, c, d, a, m[13], 0x4e0811a1u, 21);
    step<I>(a, b, c, d, m[4], 0xf7537e82u, 6);
    step<I>(d, a, b, c, m[11], 0xbd3af235u, 10);
    step<I>(c, d, a, b, m[2], 0x2ad7d2bbu, 15);
    step<I>(b, c, d, a, m[9], 0xeb86d391u, 21);
    a_ += a, b_ += b, c_ += c, d_ += d;
  }

  uint32_t a_ = 0x67452301, b_ = 0xefcdab89, c_ = 0x98badcfe, d_ = 0x10325476;
  uint64_t length_ = 0;
  unsigned char buffer_[64] = {};
};

}  // namespace tct::trace
