// Index of an uncompressed tar archive (ustar, GNU long names, pax paths): member byte ranges, read in place.
#pragma once

#include "core/Error.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lv::io {

struct TarMember {
    std::string path; // without a leading "./" or a trailing "/"
    bool isDirectory = false;
    std::uint64_t dataOffset = 0; // first byte of the member's data in the archive
    std::uint64_t size = 0;
    std::int64_t mtime = 0; // seconds since the epoch
};

// Walks the archive's headers (never its data). Checksums are verified; damage is an error with the offset.
core::Result<std::vector<TarMember>> indexTar(const ByteSource& archive);

} // namespace lv::io
