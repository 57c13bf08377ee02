// The blocks of an MDF 4 tree claimed so far, shared by the threads that read it: each DG, CG, CN and SR belongs
// to one list, so a block claimed twice is a loop or a shared list (which would multiply a small file's tree).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace lv::formats::mdf4 {

class BlockClaims {
public:
    // For a file of `fileSize` bytes: one bit per 8-byte offset, in pieces of the file allocated when first used.
    explicit BlockClaims(std::uint64_t fileSize);
    ~BlockClaims();
    BlockClaims(const BlockClaims&) = delete;
    BlockClaims& operator=(const BlockClaims&) = delete;

    // Claims the block at `offset`: false when it was claimed before, by any thread. Offsets off the 8-byte grid or
    // outside the file are never claimed (true): reading the block says what is wrong with them.
    bool claim(std::uint64_t offset);

private:
    static constexpr unsigned kPieceShift = 22;                                              // 4 MiB of file per piece
    static constexpr std::uint64_t kPieceWords = (std::uint64_t{1} << kPieceShift) / 8 / 64; // one bit per 8 bytes
    std::atomic<std::uint64_t>* piece(std::uint64_t index);

    std::uint64_t m_fileSize;
    std::unique_ptr<std::atomic<std::atomic<std::uint64_t>*>[]> m_pieces;
};

} // namespace lv::formats::mdf4
