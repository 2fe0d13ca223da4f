// AES-GCM and AES-CTR through OpenSSL's EVP interface, which uses AES-NI and
// VAES where the CPU has them. Keys are 16, 24 or 32 bytes; nonces 12.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace parq::crypto {

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
