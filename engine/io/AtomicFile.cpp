// Temporary + sync + no-replace rename, with system failures turned into Error values naming the target; pieces
// written with O_DIRECT where the file system takes it (the last one padded to a block, then the file cut to its size).
#include "io/AtomicFile.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <system_error>
#include <utility>

namespace lv::io {

using core::ErrorCode;

void AtomicFile::FreeAligned::operator()(char* p) const { ::operator delete[](p, std::align_val_t{kAlign}); }

AtomicFile::~AtomicFile()
{
    (void)waitPending(); // then m_file closes, and m_temp removes the file unless committed
}

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

// Writes piece[0, filled) at `at`. Direct: whole blocks; the last piece is padded to a block (the file is cut to its
// size at finish). Buffered: as it is, and its disk writes are started. Runs on the write-behind thread for full
// pieces: the caller's thread does not touch m_file or m_direct until it has waited for it.
core::Status AtomicFile::writePiece(char* piece, std::size_t filled, std::uint64_t at)
{
    std::size_t length = filled;
    if (m_direct && length % kAlign != 0) {
        const std::size_t padded = (length + kAlign - 1) / kAlign * kAlign;
        std::memset(piece + length, 0, padded - length);
        length = padded;
    }
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(piece);
    std::size_t done = 0;
    SystemError e = m_file.writeAt(at, {bytes, length}, done);
    if (!e.ok() && e.kind == SystemError::Kind::Unsupported && m_direct && done == 0) { // direct writes refused
        stopDirect();                                                                   // here: buffered from now
        length = filled;
        e = m_file.writeAt(at, {bytes, length}, done);
    }
    if (!e.ok()) return failure("cannot write the output", e);
    if (!m_direct) m_file.startWriteBack(at, filled); // so that the sync at the end has little to wait for
    return {};
}

core::Status AtomicFile::waitPending()
{
    if (!m_pending.valid()) return {};
    return m_pending.get();
}

// A full piece goes to the write-behind thread (after the previous one is written) and the spare buffer becomes
// the piece; the last one is written here, and so is every piece when no second buffer or thread can be had.
core::Status AtomicFile::flushPiece(bool last)
{
    LV_TRY(waitPending());
    if (!last && !m_spare)
        m_spare.reset(static_cast<char*>(::operator new[](kPieceBytes, std::align_val_t{kAlign}, std::nothrow)));
    if (!last && m_spare) {
        try {
            m_pending = std::async(std::launch::async, [this, piece = m_piece.get(), filled = m_filled,
                                                        at = m_written] { return writePiece(piece, filled, at); });
            std::swap(m_piece, m_spare);
            m_written += m_filled;
            m_filled = 0;
            return {};
        } catch (const std::system_error&) { // no thread: written here
        }
    }
    LV_TRY(writePiece(m_piece.get(), m_filled, m_written));
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
    m_spare.reset();
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
