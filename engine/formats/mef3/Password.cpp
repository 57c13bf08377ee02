// Password validation and AES-128/SHA-256 through OpenSSL's libcrypto.
#include "formats/mef3/Password.h"

#include <memory>
#include <openssl/evp.h>
#include <stdexcept>

namespace lv::formats::mef3 {

PasswordBytes passwordBytes(const std::string& utf8)
{
    PasswordBytes out{};
    std::size_t j = 0;
    for (std::size_t i = 0; i < utf8.size() && j < out.size();) {
        const auto lead = static_cast<unsigned char>(utf8[i]);
        const std::size_t len = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        std::uint32_t cp = len == 1 ? lead : lead & (0x7Fu >> len);
        for (std::size_t k = 1; k < len && i + k < utf8.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3Fu);
        out[j++] = static_cast<std::uint8_t>(cp & 0xFF);
        i += len;
    }
    return out;
}

PasswordBytes sha256First16(std::span<const std::uint8_t> bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) != 1 || size < 16)
        throw std::runtime_error("SHA-256 failed in libcrypto");
    PasswordBytes out{};
    std::copy(digest, digest + 16, out.begin());
    return out;
}

bool ValidationFields::empty() const
{
    for (std::size_t i = 0; i < 16; ++i)
        if (level1[i] || level2[i]) return false;
    return true;
}

Access validatePassword(const std::string& password, const ValidationFields& fields)
{
    Access access;
    if (password.empty()) return access;
    const PasswordBytes bytes = passwordBytes(password);
    const PasswordBytes hash = sha256First16(bytes);
    if (hash == fields.level1) {
        access.level = 1;
        access.level1Key = bytes;
        return access;
    }
    PasswordBytes putativeLevel1{};
    for (std::size_t i = 0; i < 16; ++i) putativeLevel1[i] = hash[i] ^ fields.level2[i];
    if (sha256First16(putativeLevel1) == fields.level1) {
        access.level = 2;
        access.level1Key = putativeLevel1;
        access.level2Key = bytes;
    }
    return access;
}

ValidationFields makeValidationFields(const std::string& level1, const std::string& level2)
{
    ValidationFields fields;
    const PasswordBytes l1 = passwordBytes(level1);
    fields.level1 = sha256First16(l1);
    if (!level2.empty()) {
        fields.level2 = sha256First16(passwordBytes(level2));
        for (std::size_t i = 0; i < 16; ++i) fields.level2[i] ^= l1[i];
    }
    return fields;
}

namespace {

void aesEcb(const PasswordBytes& key, std::span<std::uint8_t> data, bool encrypt)
{
    if (data.size() % 16 != 0) throw std::invalid_argument("AES data is not a whole number of blocks");
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    int outLen = 0;
    if (!ctx || EVP_CipherInit_ex(ctx.get(), EVP_aes_128_ecb(), nullptr, key.data(), nullptr, encrypt ? 1 : 0) != 1 ||
        EVP_CIPHER_CTX_set_padding(ctx.get(), 0) != 1 ||
        EVP_CipherUpdate(ctx.get(), data.data(), &outLen, data.data(), static_cast<int>(data.size())) != 1)
        throw std::runtime_error("AES-128 failed in libcrypto");
}

} // namespace

void aesDecrypt(const PasswordBytes& key, std::span<std::uint8_t> data) { aesEcb(key, data, false); }
void aesEncrypt(const PasswordBytes& key, std::span<std::uint8_t> data) { aesEcb(key, data, true); }

} // namespace lv::formats::mef3
