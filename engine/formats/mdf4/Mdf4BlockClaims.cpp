// Claimed blocks as bits set atomically, pieces of the bitmap installed by compare-and-swap.
#include "formats/mdf4/Mdf4BlockClaims.h"

namespace lv::formats::mdf4 {

BlockClaims::BlockClaims(std::uint64_t fileSize)
    : m_fileSize(fileSize)
    , m_pieces(new std::atomic<std::atomic<std::uint64_t>*>[(fileSize >> kPieceShift) + 1]())
{}

BlockClaims::~BlockClaims()
{
    for (std::uint64_t i = 0; i <= m_fileSize >> kPieceShift; ++i) delete[] m_pieces[i].load();
}

std::atomic<std::uint64_t>* BlockClaims::piece(std::uint64_t index)
{
    std::atomic<std::uint64_t>* p = m_pieces[index].load(std::memory_order_acquire);
    if (p) return p;
    auto* fresh = new std::atomic<std::uint64_t>[kPieceWords]();
    if (m_pieces[index].compare_exchange_strong(p, fresh, std::memory_order_acq_rel)) return fresh;
    delete[] fresh; // another thread installed its piece first
    return p;
}

bool BlockClaims::claim(std::uint64_t offset)
{
    if (offset % 8 != 0 || offset >= m_fileSize) return true;
    const std::uint64_t slot = (offset & ((std::uint64_t{1} << kPieceShift) - 1)) / 8;
    const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
    return !(piece(offset >> kPieceShift)[slot / 64].fetch_or(bit, std::memory_order_relaxed) & bit);
}

} // namespace lv::formats::mdf4
