// The extension's side of encrypted files; see encryption.cc.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "common.h"
#include "parq/crypto/encryption.h"

namespace parq::python {

// `decryption`: None or the dict parq/_crypto.py makes.
crypto::DecryptionOptions decryption_of(nb::handle decryption);

// What a writer encrypts with; `commit` (set for external key material)
// writes the material beside the file once it is complete.
struct OutputEncryption {
  std::optional<crypto::EncryptionOptions> options;
  std::function<void(const std::string& path)> commit;
};
OutputEncryption encryption_of(nb::handle encryption);

void register_encryption(nb::module_& m);

}  // namespace parq::python
