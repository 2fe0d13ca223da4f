// AES through OpenSSL; see aes.h.
#include "aes.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <climits>
#include <memory>
#include <string>

#include "parq/error.h"

namespace parq::crypto {
namespace {

// OpenSSL 3 looks a cipher up by name on every use of EVP_aes_*(); fetched
// once, the lookup (and its locks) leave the per-module path.
const EVP_CIPHER* cipher(const char* mode, size_t key_size) {
  struct Fetched {
    EVP_CIPHER* by_size[3];
    explicit Fetched(const char* mode) {
      const char* sizes[3] = {"128", "192", "256"};
      for (int i = 0; i < 3; ++i) {
        std::string name = std::string("AES-") + sizes[i] + "-" + mode;
        by_size[i] = EVP_CIPHER_fetch(nullptr, name.c_str(), nullptr);
        if (by_size[i] == nullptr) throw Error("OpenSSL has no " + name, ErrorKind::kUnsupported);
      }
    }
  };
  static const Fetched gcm("GCM");
  static const Fetched ctr("CTR");
  const Fetched& f = mode[0] == 'G' ? gcm : ctr;
  switch (key_size) {
    case 16:
      return f.by_size[0];
    case 24:
      return f.by_size[1];
    case 32:
      return f.by_size[2];
  }
  throw Error(ErrorKind::kInvalidArgument, {},
              "an AES key must be 16, 24 or 32 bytes, not " + std::to_string(key_size));
}

struct ContextDeleter {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};

// One context per thread, reset by each init: no allocation per module.
EVP_CIPHER_CTX* context() {
  thread_local std::unique_ptr<EVP_CIPHER_CTX, ContextDeleter> ctx(EVP_CIPHER_CTX_new());
  if (!ctx) throw Error("OpenSSL could not allocate a cipher context", ErrorKind::kIo);
  return ctx.get();
}

[[noreturn]] void openssl_failed(const char* what) {
  throw Error(std::string("OpenSSL failed to ") + what, ErrorKind::kIo);
}

// EVP takes int lengths: longer inputs go through in pieces.
template <typename Update>
void in_pieces(std::span<const uint8_t> in, uint8_t* out, Update update) {
  constexpr size_t kPiece = size_t{1} << 30;
  for (size_t at = 0; at < in.size(); at += kPiece) {
    int n = static_cast<int>(std::min(kPiece, in.size() - at));
    int written = 0;
    if (update(out + at, &written, in.data() + at, n) != 1 || written != n) openssl_failed("process a module");
  }
}

const uint8_t* bytes(std::string_view s) { return reinterpret_cast<const uint8_t*>(s.data()); }

}  // namespace

void gcm_encrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> plain, uint8_t* cipher_out, uint8_t* tag) {
  EVP_CIPHER_CTX* ctx = context();
  if (EVP_EncryptInit_ex(ctx, cipher("GCM", key.size()), nullptr, bytes(key), nonce) != 1)
    openssl_failed("start AES-GCM");
  int n = 0;
  if (!aad.empty() && EVP_EncryptUpdate(ctx, nullptr, &n, aad.data(), static_cast<int>(aad.size())) != 1)
    openssl_failed("authenticate an AAD");
  in_pieces(plain, cipher_out,
            [&](uint8_t* o, int* w, const uint8_t* i, int len) { return EVP_EncryptUpdate(ctx, o, w, i, len); });
  if (EVP_EncryptFinal_ex(ctx, cipher_out + plain.size(), &n) != 1) openssl_failed("finish AES-GCM");
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) != 1) openssl_failed("get the GCM tag");
}

bool gcm_decrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> cipher_in, const uint8_t* tag, uint8_t* plain) {
  EVP_CIPHER_CTX* ctx = context();
  if (EVP_DecryptInit_ex(ctx, cipher("GCM", key.size()), nullptr, bytes(key), nonce) != 1)
    openssl_failed("start AES-GCM");
  int n = 0;
  if (!aad.empty() && EVP_DecryptUpdate(ctx, nullptr, &n, aad.data(), static_cast<int>(aad.size())) != 1)
    openssl_failed("authenticate an AAD");
  in_pieces(cipher_in, plain,
            [&](uint8_t* o, int* w, const uint8_t* i, int len) { return EVP_DecryptUpdate(ctx, o, w, i, len); });
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, const_cast<uint8_t*>(tag)) != 1)
    openssl_failed("set the GCM tag");
  return EVP_DecryptFinal_ex(ctx, plain + cipher_in.size(), &n) == 1;
}

void ctr_crypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> in, uint8_t* out) {
  uint8_t iv[16] = {};
  std::copy(nonce, nonce + 12, iv);
  iv[15] = 1;
  EVP_CIPHER_CTX* ctx = context();
  if (EVP_EncryptInit_ex(ctx, cipher("CTR", key.size()), nullptr, bytes(key), iv) != 1) openssl_failed("start AES-CTR");
  in_pieces(in, out,
            [&](uint8_t* o, int* w, const uint8_t* i, int len) { return EVP_EncryptUpdate(ctx, o, w, i, len); });
}

void random_bytes(uint8_t* out, size_t n) {
  for (size_t at = 0; at < n;) {
    int piece = static_cast<int>(std::min<size_t>(n - at, INT_MAX));
    if (RAND_bytes(out + at, piece) != 1) openssl_failed("generate random bytes");
    at += static_cast<size_t>(piece);
  }
}

}  // namespace parq::crypto
