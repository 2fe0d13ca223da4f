// AES through OpenSSL and, for GCM where it pays, ipsec-mb; see aes.h.
#include "aes.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <memory>
#include <string>

#ifdef PARQ_HAVE_IPSEC_MB
#include <intel-ipsec-mb.h>
#endif

#include "parq/error.h"

namespace parq::crypto {
namespace {

void check_key_size(size_t key_size) {
  if (key_size != 16 && key_size != 24 && key_size != 32)
    throw Error(ErrorKind::kInvalidArgument, {},
                "an AES key must be 16, 24 or 32 bytes, not " + std::to_string(key_size));
}

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
  check_key_size(key_size);
  return nullptr;
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

#ifdef PARQ_HAVE_IPSEC_MB
// ipsec-mb refuses null pointers, which empty spans may hold.
const uint8_t* non_null(std::span<const uint8_t> s) {
  static const uint8_t nothing = 0;
  return s.data() != nullptr ? s.data() : &nothing;
}
uint8_t* non_null(uint8_t* out) {
  thread_local uint8_t nowhere = 0;
  return out != nullptr ? out : &nowhere;
}

void check_ipsec(IMB_MGR* m, const char* what) {
  if (int e = imb_get_errno(m); e != 0)
    throw Error(std::string("ipsec-mb failed to ") + what + ": " + imb_get_strerror(e), ErrorKind::kIo);
}

// The manager's GCM entry points for one key size.
struct IpsecGcmFunctions {
  aes_gcm_pre_t expand;
  aes_gcm_enc_dec_t encrypt;
  aes_gcm_enc_dec_t decrypt;
  keyexp_t expand_round_keys;  // for CTR
};

IpsecGcmFunctions gcm_functions(IMB_MGR* m, size_t key_size) {
  switch (key_size) {
    case 16:
      return {m->gcm128_pre, m->gcm128_enc, m->gcm128_dec, m->keyexp_128};
    case 24:
      return {m->gcm192_pre, m->gcm192_enc, m->gcm192_dec, m->keyexp_192};
    case 32:
      return {m->gcm256_pre, m->gcm256_enc, m->gcm256_dec, m->keyexp_256};
  }
  check_key_size(key_size);
  return {};
}

// A thread's ipsec-mb manager and its expanded keys. A file has a key per
// column and a page is two modules (header and body), so the expansion (round
// keys and the powers of H that GHASH folds with) is kept for the keys in use
// rather than redone per module.
class IpsecGcm {
 public:
  struct KeyData {
    uint8_t key[32];
    size_t key_size = 0;
    IpsecGcmFunctions functions{};
    alignas(64) gcm_key_data expanded;
    // The round keys alone, as CTR jobs take them (15 for AES-256).
    alignas(16) uint8_t round_keys[16 * 15];
    alignas(16) uint8_t decryption_round_keys[16 * 15];
  };

  static IpsecGcm& for_thread() {
    thread_local IpsecGcm state;
    return state;
  }

  IMB_MGR* manager() const { return manager_.get(); }

  const KeyData& expanded(std::string_view key) {
    for (size_t i = 0; i < used_; ++i) {
      const KeyData& k = keys_[i];
      if (k.key_size == key.size() && std::memcmp(k.key, key.data(), key.size()) == 0) return k;
    }
    const IpsecGcmFunctions functions = gcm_functions(manager(), key.size());
    KeyData& k = keys_[used_ < keys_.size() ? used_++ : next_victim_++ % keys_.size()];
    std::memcpy(k.key, key.data(), key.size());
    k.key_size = key.size();
    k.functions = functions;
    functions.expand(k.key, &k.expanded);
    functions.expand_round_keys(k.key, k.round_keys, k.decryption_round_keys);
    return k;
  }

  ~IpsecGcm() { OPENSSL_cleanse(keys_.data(), sizeof(keys_)); }

 private:
  struct ManagerDeleter {
    void operator()(IMB_MGR* m) const { free_mb_mgr(m); }
  };

  IpsecGcm() : manager_(alloc_mb_mgr(0)) {
    if (!manager_) throw Error("ipsec-mb could not allocate a manager", ErrorKind::kIo);
    init_mb_mgr_auto(manager_.get(), nullptr);
  }

  std::unique_ptr<IMB_MGR, ManagerDeleter> manager_;
  std::array<KeyData, 32> keys_{};
  size_t used_ = 0;
  size_t next_victim_ = 0;
};

bool cpu_has_vaes_gcm() {
  static const bool has = [] {
    std::unique_ptr<IMB_MGR, void (*)(IMB_MGR*)> m(alloc_mb_mgr(0), free_mb_mgr);
    if (!m) return false;
    const uint64_t needed = IMB_FEATURE_AESNI | IMB_FEATURE_VAES | IMB_FEATURE_VPCLMULQDQ | IMB_FEATURE_AVX512_SKX;
    return (m->features & needed) == needed;
  }();
  return has;
}

void ipsec_gcm_encrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                       std::span<const uint8_t> plain, uint8_t* cipher_out, uint8_t* tag) {
  IpsecGcm& state = IpsecGcm::for_thread();
  const IpsecGcm::KeyData& k = state.expanded(key);
  gcm_context_data context;
  k.functions.encrypt(&k.expanded, &context, non_null(cipher_out), non_null(plain), plain.size(), nonce, non_null(aad),
                      aad.size(), tag, 16);
  check_ipsec(state.manager(), "encrypt with AES-GCM");
}

// One CTR job per piece; a piece's IV continues the counter where the
// previous piece stopped.
void ipsec_ctr_crypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> in, uint8_t* out) {
  constexpr size_t kPiece = size_t{1} << 20;  // a multiple of the block size
  IpsecGcm& state = IpsecGcm::for_thread();
  const IpsecGcm::KeyData& k = state.expanded(key);
  IMB_MGR* m = state.manager();
  for (size_t at = 0; at < in.size(); at += kPiece) {
    const size_t n = std::min(kPiece, in.size() - at);
    alignas(16) uint8_t iv[16];
    std::memcpy(iv, nonce, 12);
    const uint32_t counter = static_cast<uint32_t>(1 + at / 16);
    for (int i = 0; i < 4; ++i) iv[12 + i] = static_cast<uint8_t>(counter >> (24 - 8 * i));
    IMB_JOB* job = IMB_GET_NEXT_JOB(m);
    job->cipher_direction = IMB_DIR_ENCRYPT;
    job->chain_order = IMB_ORDER_CIPHER_HASH;
    job->cipher_mode = IMB_CIPHER_CNTR;
    job->hash_alg = IMB_AUTH_NULL;
    job->enc_keys = k.round_keys;
    job->dec_keys = k.decryption_round_keys;
    job->key_len_in_bytes = key.size();
    job->src = in.data() + at;
    job->dst = out + at;
    job->cipher_start_src_offset_in_bytes = 0;
    job->msg_len_to_cipher_in_bytes = n;
    job->hash_start_src_offset_in_bytes = 0;
    job->msg_len_to_hash_in_bytes = 0;
    job->iv = iv;
    job->iv_len_in_bytes = 16;
    job = IMB_SUBMIT_JOB(m);
    while (job == nullptr) job = IMB_FLUSH_JOB(m);
    if (job->status != IMB_STATUS_COMPLETED) {
      check_ipsec(m, "run AES-CTR");
      throw Error("ipsec-mb failed to run AES-CTR", ErrorKind::kIo);
    }
  }
}

bool ipsec_gcm_decrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                       std::span<const uint8_t> cipher_in, const uint8_t* tag, uint8_t* plain) {
  IpsecGcm& state = IpsecGcm::for_thread();
  const IpsecGcm::KeyData& k = state.expanded(key);
  gcm_context_data context;
  uint8_t computed[16];
  k.functions.decrypt(&k.expanded, &context, non_null(plain), non_null(cipher_in), cipher_in.size(), nonce,
                      non_null(aad), aad.size(), computed, 16);
  check_ipsec(state.manager(), "decrypt with AES-GCM");
  return CRYPTO_memcmp(computed, tag, 16) == 0;
}
#endif

std::atomic<AesBackend>& chosen_backend() {
  static std::atomic<AesBackend> chosen{aes_backends().front()};
  return chosen;
}

}  // namespace

std::vector<AesBackend> aes_backends() {
  std::vector<AesBackend> out;
#ifdef PARQ_HAVE_IPSEC_MB
  if (cpu_has_vaes_gcm()) out.push_back(AesBackend::kIpsecMbVaes);
#endif
  out.push_back(AesBackend::kOpenSsl);
  return out;
}

AesBackend aes_backend() { return chosen_backend().load(std::memory_order_relaxed); }

void use_aes_backend(AesBackend backend) {
  for (AesBackend b : aes_backends())
    if (b == backend) {
      chosen_backend().store(backend, std::memory_order_relaxed);
      return;
    }
  throw Error(ErrorKind::kUnsupported, {}, "this build or CPU has no such AES backend");
}

void gcm_encrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> plain, uint8_t* cipher_out, uint8_t* tag) {
#ifdef PARQ_HAVE_IPSEC_MB
  if (aes_backend() == AesBackend::kIpsecMbVaes) return ipsec_gcm_encrypt(key, nonce, aad, plain, cipher_out, tag);
#endif
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
#ifdef PARQ_HAVE_IPSEC_MB
  if (aes_backend() == AesBackend::kIpsecMbVaes) return ipsec_gcm_decrypt(key, nonce, aad, cipher_in, tag, plain);
#endif
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
  check_key_size(key.size());
#ifdef PARQ_HAVE_IPSEC_MB
  if (aes_backend() == AesBackend::kIpsecMbVaes) return ipsec_ctr_crypt(key, nonce, in, out);
#endif
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
