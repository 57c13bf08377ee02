// Streaming decompression with ZSTD_decompressStream over pieces read with pread.
#include "cache/ZstdFileReader.h"

#include <algorithm>
#include <cstring>
#include <zstd.h>

namespace lv::cache {

ZstdFileReader::ZstdFileReader(io::ByteSourcePtr file, std::uint64_t offset)
    : m_file(std::move(file))
    , m_at(offset)
    , m_context(ZSTD_createDCtx())
    , m_in(ZSTD_DStreamInSize())
    , m_out(ZSTD_DStreamOutSize())
{
    m_ok = m_context != nullptr && m_at <= m_file->size();
}

ZstdFileReader::~ZstdFileReader() { ZSTD_freeDCtx(m_context); }

// Decompresses until some output is ready; false at the end of the frame or on any error.
bool ZstdFileReader::refill()
{
    m_outPos = m_outEnd = 0;
    while (m_ok && !m_frameDone) {
        if (m_inPos == m_inEnd && m_at < m_file->size()) {
            const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(m_in.size(), m_file->size() - m_at));
            if (!m_file->readAt(m_at, std::span(m_in.data(), n))) return m_ok = false;
            m_at += n, m_inPos = 0, m_inEnd = n;
        }
        ZSTD_inBuffer in{m_in.data(), m_inEnd, m_inPos};
        ZSTD_outBuffer out{m_out.data(), m_out.size(), 0};
        const std::size_t left = ZSTD_decompressStream(m_context, &out, &in);
        if (ZSTD_isError(left)) return m_ok = false;
        const bool stalled = in.pos == m_inPos && out.pos == 0;
        m_inPos = in.pos, m_outEnd = out.pos;
        m_frameDone = left == 0;
        if (m_outEnd > 0) return true;
        if (stalled && m_inPos == m_inEnd && m_at >= m_file->size()) return m_ok = false; // cut off
    }
    return false;
}

bool ZstdFileReader::read(void* out, std::size_t n)
{
    auto* to = static_cast<std::uint8_t*>(out);
    while (n > 0) {
        if (m_outPos == m_outEnd && !refill()) return m_ok = false;
        const std::size_t k = std::min(n, m_outEnd - m_outPos);
        if (to) std::memcpy(to, m_out.data() + m_outPos, k), to += k;
        m_outPos += k, n -= k;
    }
    return m_ok;
}

bool ZstdFileReader::skip(std::size_t n) { return read(nullptr, n); }

bool ZstdFileReader::atEnd()
{
    if (!m_ok || m_outPos != m_outEnd) return false;
    if (refill()) return m_ok = false; // more content than was read
    return m_ok && m_frameDone && m_inPos == m_inEnd && m_at == m_file->size();
}

} // namespace lv::cache
