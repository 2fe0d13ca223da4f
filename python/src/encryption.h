// The extension's side of encrypted files; see encryption.cc.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "common.h"
#include "parq/crypto/encryption.h"
#include "parq/keys/key_tools.h"

namespace parq::python {

// `decryption`: None or the dict parq/_crypto.py makes.
crypto::DecryptionOptions decryption_of(nb::handle decryption);

// What a writer encrypts with: None gives nullopt. Its commit() writes
// external key material beside the file once the file is complete.
std::optional<keys::FileEncryption> encryption_of(nb::handle encryption);

void register_encryption(nb::module_& m);

}  // namespace parq::python
