// MEF 3.0 passwords: validation against the universal header fields, AES-128 keys, block decryption.
#pragma once

#include "core/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace lv::formats::mef3 {

using PasswordBytes = std::array<std::uint8_t, 16>;

// The low byte of each UTF-8 code point, at most 16, zero-padded (meflib's terminal password bytes).
PasswordBytes passwordBytes(const std::string& utf8);

PasswordBytes sha256First16(std::span<const std::uint8_t> bytes);

struct ValidationFields {
    PasswordBytes level1{}; // SHA-256(L1)[0:16]
    PasswordBytes level2{}; // SHA-256(L2)[0:16] XOR L1
    bool empty() const;     // all zero: the session has no passwords
};

// What a password opens: level 0 (nothing), 1 or 2, and the keys it yields.
struct Access {
    int level = 0;
    std::optional<PasswordBytes> level1Key;
    std::optional<PasswordBytes> level2Key;
};

// Checks `password` first as level 1, then as level 2 (recovering the level-1 key through the level-2 field).
// Returns level 0 when it matches neither.
Access validatePassword(const std::string& password, const ValidationFields& fields);

// Makes the validation fields a writer stores for these passwords.
ValidationFields makeValidationFields(const std::string& level1, const std::string& level2);

// AES-128 ECB in place over whole 16-byte blocks of `data` (its size must be a multiple of 16).
void aesDecrypt(const PasswordBytes& key, std::span<std::uint8_t> data);
void aesEncrypt(const PasswordBytes& key, std::span<std::uint8_t> data);

} // namespace lv::formats::mef3
