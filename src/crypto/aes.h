// AES-GCM and AES-CTR. Keys are 16, 24 or 32 bytes; nonces 12.
//
// Both go through OpenSSL's EVP interface, unless the CPU has VAES and
// VPCLMULQDQ and parq was built with Intel's ipsec-mb: OpenSSL before 3.1
// (Debian 12's 3.0 among them) has no GCM that uses them and decrypts
// several times slower than ipsec-mb, which turns a scan of an encrypted
// file into a wait on GHASH; its CTR, too, stays on 128-bit AES-NI. The
// choice is made once at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace parq::crypto {

enum class AesBackend { kOpenSsl, kIpsecMbVaes };

// The backends this build can use on this CPU, the preferred first.
std::vector<AesBackend> aes_backends();
// The backend gcm_encrypt, gcm_decrypt and ctr_crypt use.
AesBackend aes_backend();
// Makes every thread use `backend` from now on (tests and benchmarks compare
// them); throws when it is not among aes_backends().
void use_aes_backend(AesBackend backend);

// Encrypts `plain` into `cipher` (the same length; may be the same memory)
// and writes the 16-byte tag that authenticates it with `aad`.
void gcm_encrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> plain, uint8_t* cipher, uint8_t* tag);
// Decrypts `cipher` into `plain`; false when the tag does not authenticate
// the ciphertext with `aad` (`plain` then holds nothing to use).
bool gcm_decrypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> aad,
                 std::span<const uint8_t> cipher, const uint8_t* tag, uint8_t* plain);
// AES-CTR with the IV the format prescribes (the nonce, then a 32-bit
// counter starting at 1); encryption and decryption are the same.
void ctr_crypt(std::string_view key, const uint8_t* nonce, std::span<const uint8_t> in, uint8_t* out);

// Cryptographically strong random bytes (nonces, generated keys).
void random_bytes(uint8_t* out, size_t n);

}  // namespace parq::crypto
