#include "trace/md5.hpp"

#include <stdexcept>

#include <openssl/evp.h>

namespace tct::trace {

struct Md5::Context {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(ctx); }
};

Md5::Md5() : ctx_(std::make_unique<Context>()) {
  if (ctx_->ctx == nullptr) throw std::bad_alloc();
  reset();
}
Md5::~Md5() = default;
Md5::Md5(Md5&&) noexcept = default;
Md5& Md5::operator=(Md5&&) noexcept = default;

void Md5::reset() {
  // EVP_md5() is the default provider's MD5: always there (it is not in the legacy provider).
  if (EVP_DigestInit_ex(ctx_->ctx, EVP_md5(), nullptr) != 1) throw std::runtime_error("OpenSSL: MD5 is not available");
}

void Md5::update(std::string_view data) { EVP_DigestUpdate(ctx_->ctx, data.data(), data.size()); }

std::array<char, 32> Md5::hex() {
  unsigned char digest[16];
  unsigned int n = 0;
  EVP_DigestFinal_ex(ctx_->ctx, digest, &n);
  static const char* digits = "0123456789abcdef";
  std::array<char, 32> out{};
  for (size_t i = 0; i < 16; ++i) {
    out[2 * i] = digits[digest[i] >> 4];
    out[2 * i + 1] = digits[digest[i] & 15];
  }
  return out;
}

std::array<char, 32> md5_hex(std::string_view data) {
  Md5 m;
  m.update(data);
  return m.hex();
}

}  // namespace tct::trace
