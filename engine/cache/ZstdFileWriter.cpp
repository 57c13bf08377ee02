// Streaming compression with ZSTD_compressStream2, written at offsets in pieces; moved into place at the end.
#include "cache/ZstdFileWriter.h"

#include "io/FileSystem.h"
#include "io/Path.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <zstd.h>

namespace lv::cache {

core::Result<std::unique_ptr<ZstdFileWriter>> ZstdFileWriter::create(const std::string& path,
                                                                     std::span<const std::uint8_t> header, int level)
{
    std::unique_ptr<ZstdFileWriter> w(new ZstdFileWriter());
    w->m_path = path;
    w->m_temp = path + ".tmp-" + std::to_string(io::processId());
    std::error_code ec;
    std::filesystem::remove(io::toPath(w->m_temp), ec);
    auto file = io::WritableFile::create(w->m_temp);
    if (!file) return file.error();
    w->m_file = std::move(*file);
    w->m_context = ZSTD_createCCtx();
    if (!w->m_context) return core::makeError(core::ErrorCode::Io, "cannot start compressing", path);
    ZSTD_CCtx_setParameter(w->m_context, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(w->m_context, ZSTD_c_checksumFlag, 1); // a damaged file never loads
    w->m_in.resize(ZSTD_CStreamInSize());
    w->m_out.resize(ZSTD_CStreamOutSize());
    LV_TRY(w->m_file.writeAt(0, header));
    w->m_at = header.size();
    return w;
}

ZstdFileWriter::~ZstdFileWriter()
{
    ZSTD_freeCCtx(m_context);
    if (!m_committed && !m_temp.empty()) {
        (void)m_file.close();
        std::error_code ec;
        std::filesystem::remove(io::toPath(m_temp), ec);
    }
}

core::Status ZstdFileWriter::write(std::span<const std::uint8_t> bytes)
{
    while (!bytes.empty()) {
        const std::size_t n = std::min(bytes.size(), m_in.size() - m_inUsed);
        std::memcpy(m_in.data() + m_inUsed, bytes.data(), n);
        m_inUsed += n;
        bytes = bytes.subspan(n);
        if (m_inUsed == m_in.size()) LV_TRY(compress(false));
    }
    return {};
}

// Compresses what is buffered (and with `end`, ends the frame), writing the output as it comes.
core::Status ZstdFileWriter::compress(bool end)
{
    ZSTD_inBuffer in{m_in.data(), m_inUsed, 0};
    for (;;) {
        ZSTD_outBuffer out{m_out.data(), m_out.size(), 0};
        const std::size_t left = ZSTD_compressStream2(m_context, &out, &in, end ? ZSTD_e_end : ZSTD_e_continue);
        if (ZSTD_isError(left)) return core::makeError(core::ErrorCode::Io, "cannot compress", m_path);
        LV_TRY(m_file.writeAt(m_at, std::span(m_out.data(), out.pos)));
        m_at += out.pos;
        if (end ? left == 0 : in.pos == in.size) break;
    }
    m_inUsed = 0;
    return {};
}

core::Status ZstdFileWriter::commit()
{
    LV_TRY(compress(true));
    LV_TRY(m_file.close());
    if (io::SystemError e = io::moveReplacing(io::toPath(m_temp), io::toPath(m_path)); !e.ok())
        return core::makeError(core::ErrorCode::WriteFailed, "cannot move into place: " + e.text, m_path);
    m_committed = true;
    return {};
}

} // namespace lv::cache
