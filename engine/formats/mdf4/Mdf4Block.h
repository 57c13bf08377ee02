// MDF 4 blocks: the 24-byte header ("##XX", length, link count), the links and the data section, read with every
// size checked against the file; TX/MD texts. Offsets and lengths are bytes from the start of the file.
#pragma once

#include "core/Error.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace lv::formats::mdf4 {

struct Block {
    std::string id;           // "HD", "DG", ... (without "##")
    std::uint64_t offset = 0; // where the block starts
    std::uint64_t length = 0; // the whole block, header included
    std::vector<std::uint64_t> links;
    std::vector<std::uint8_t> data; // the data section (length - 24 - 8 * links)

    std::uint64_t link(std::size_t i) const { return i < links.size() ? links[i] : 0; }
};

inline constexpr std::uint64_t kHeaderBytes = 24;
// The largest data section read whole: blocks of the tree are small; DT/DZ payloads are read elsewhere, in pieces.
inline constexpr std::uint64_t kMaxTreeData = std::uint64_t{64} << 20;

// The block at `offset`, which must be one of `ids`; its data section is read only up to `maxData` bytes (the
// rest is left, `data` holds the first `maxData`). A Corrupt error names the offset and what is wrong.
core::Result<Block> readBlock(const io::ByteSource& file, std::uint64_t offset,
                              std::initializer_list<std::string_view> ids, std::uint64_t maxData = kMaxTreeData);

// The plain text of a TX or MD block (UTF-8 up to its first NUL): for XML, its first <TX> element unescaped and
// trimmed ("" for <TX/>); "" for link 0. mdf-check's reading, for units and comments.
core::Result<std::string> readText(const io::ByteSource& file, std::uint64_t offset);

// The raw text of a TX or MD block, up to its first NUL (names; the XML of a comment); "" for link 0.
core::Result<std::string> readRawText(const io::ByteSource& file, std::uint64_t offset);

// The text an MD block's XML carries: its first <TX> element's content (unescaped, trimmed); "" for <TX/>; the
// text itself when it is not XML or has no <TX>.
std::string plainText(const std::string& text);

// Corrupt naming the block when its data section holds fewer than `bytes` bytes / it has fewer than `links` links.
core::Status needData(const io::ByteSource& file, const Block& b, std::size_t bytes);
core::Status needLinks(const io::ByteSource& file, const Block& b, std::size_t links);

// Corrupt error about the block at `offset`.
core::Error corrupt(const io::ByteSource& file, std::uint64_t offset, const std::string& what);

} // namespace lv::formats::mdf4
