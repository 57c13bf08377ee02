// Reads one zstd frame stored at an offset of a file in small pieces: the decompressed bytes are handed out in
// order without ever holding the file or its content whole.
#pragma once

#include "core/Error.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <vector>

struct ZSTD_DCtx_s;

namespace lv::cache {

class ZstdFileReader {
public:
    ZstdFileReader(io::ByteSourcePtr file, std::uint64_t offset);
    ~ZstdFileReader();
    ZstdFileReader(const ZstdFileReader&) = delete;
    ZstdFileReader& operator=(const ZstdFileReader&) = delete;

    // The next n decompressed bytes; false (and ok() false) when the frame ends first, is damaged or unreadable.
    bool read(void* out, std::size_t n);
    bool skip(std::size_t n);
    // Whether everything so far was whole and the frame ends exactly here (content checksum verified) at the end
    // of the file.
    bool atEnd();
    bool ok() const { return m_ok; }

private:
    bool refill();

    io::ByteSourcePtr m_file;
    std::uint64_t m_at;
    ZSTD_DCtx_s* m_context;
    std::vector<std::uint8_t> m_in, m_out;
    std::size_t m_inPos = 0, m_inEnd = 0, m_outPos = 0, m_outEnd = 0;
    bool m_frameDone = false, m_ok = true;
};

} // namespace lv::cache
