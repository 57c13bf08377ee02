// Temporary + sync + no-replace rename, with system failures turned into Error values naming the target; pieces
// written with O_DIRECT where the file system takes it (the last one padded to a block, then the file cut to its size).
#include "io/AtomicFile.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

namespace lv::io {

using core::ErrorCode;

void AtomicFile::FreeAligned::operator()(char* p) const { ::operator delete[](p, std::align_val_t{kAlign}); }

AtomicFile::~AtomicFile() = default; // m_file closes, then m_temp removes the file unless committed

core::Error AtomicFile::failure(const std::string& what, const SystemError& e) const
{
    return core::makeError(writeFailureCode(e), what + ": " + e.text, m_target);
}

core::Status AtomicFile::open(const std::string& target)
{
    m_target = target;
    auto temp = Temporary::create(target, Temporary::Kind::File);
    if (!temp) return temp.error();
    m_temp = std::move(*temp);
    if (SystemError e = m_temp.file().duplicate(m_file); !e.ok()) return failure("cannot open the temporary output", e);
    m_piece.reset(static_cast<char*>(::operator new[](kPieceBytes, std::align_val_t{kAlign}, std::nothrow)));
    if (!m_piece) return core::makeError(ErrorCode::WriteFailed, "out of memory for the output's buffer", m_target);
    m_direct = m_file.setDirect(true);
    return {};
}

// Back to the page cache (a file system that took the flag but refuses direct writes).
void AtomicFile::stopDirect()
{
    m_file.setDirect(false);
    m_direct = false;
}

// Writes m_piece[0, m_filled) at m_written. Direct: whole blocks; the last piece is padded to a block (the file is
// cut to its size at finish). Buffered: as it is, and its disk writes are started.
core::Status AtomicFile::flushPiece(bool last)
{
    std::size_t length = m_filled;
    if (m_direct && length % kAlign != 0) {
        if (!last) return core::makeError(ErrorCode::WriteFailed, "unaligned piece", m_target); // not reached
        const std::size_t padded = (length + kAlign - 1) / kAlign * kAlign;
        std::memset(m_piece.get() + length, 0, padded - length);
        length = padded;
    }
    const auto* piece = reinterpret_cast<const std::uint8_t*>(m_piece.get());
    std::size_t done = 0;
    SystemError e = m_file.writeAt(m_written, {piece, length}, done);
    if (!e.ok() && e.kind == SystemError::Kind::Unsupported && m_direct && done == 0) { // direct writes refused
        stopDirect();                                                                   // here: buffered from now
        length = m_filled;
        e = m_file.writeAt(m_written, {piece, length}, done);
    }
    if (!e.ok()) return failure("cannot write the output", e);
    if (!m_direct) m_file.startWriteBack(m_written, m_filled); // so that the sync at the end has little to wait for
    m_written += m_filled;
    m_filled = 0;
    return {};
}

core::Status AtomicFile::write(std::string_view bytes)
{
    if (!m_file.isOpen() || m_finished) return core::makeError(ErrorCode::WriteFailed, "output is not open", m_target);
    while (!bytes.empty()) {
        const std::size_t n = std::min(bytes.size(), kPieceBytes - m_filled);
        std::memcpy(m_piece.get() + m_filled, bytes.data(), n);
        m_filled += n;
        bytes.remove_prefix(n);
        if (m_filled == kPieceBytes) LV_TRY(flushPiece(false));
    }
    return {};
}

core::Status AtomicFile::finish()
{
    if (!m_file.isOpen() || m_finished) return core::makeError(ErrorCode::WriteFailed, "output is not open", m_target);
    const std::uint64_t size = m_written + m_filled;
    core::Status flushed = flushPiece(true);
    if (flushed)
        if (SystemError e = m_file.truncate(size); !e.ok()) flushed = failure("cannot finish writing the output", e);
    if (flushed)
        if (SystemError e = m_file.syncAll(); !e.ok()) flushed = failure("cannot finish writing the output", e);
    const SystemError closed = m_file.close();
    m_piece.reset();
    if (!flushed) return flushed.error();
    if (!closed.ok()) return failure("cannot finish writing the output", closed);
    m_finished = true;
    return {};
}

core::Status AtomicFile::commit()
{
    if (!m_finished) LV_TRY(finish());
    LV_TRY(m_temp.publish(m_target));
    m_committed = true;
    return {};
}

} // namespace lv::io
