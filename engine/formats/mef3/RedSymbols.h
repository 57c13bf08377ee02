// RED range decoding, symbols only: one block's decoder state and the kernels (scalar, AVX2) that run many side by
// side.
#pragma once

#include "core/SimdLevel.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace lv::formats::mef3 {

// Packed per-block lookup entry for cumulative count c: (cum[s] << 16) | (count[s] << 8) | s.
using RedLookupEntry = std::uint32_t;

// Bytes a lane's symbol buffer must hold past `count`: kernels write whole chunks of steps and finish a block
// inside its last chunk.
inline constexpr std::size_t kRedSymbolSlack = 32;

// One block's range decoder: its table, its coded bytes [at, end), where its symbols go, and its state. A kernel
// may stop a block early (`done` < `count`) with its state saved here; the scalar code goes on from it.
struct RedSymbolLane {
    const RedLookupEntry* lookup = nullptr; // `total` entries, one per cumulative count
    std::uint32_t total = 0;                // sum of the block's statistics, 1 to 65,280
    std::uint32_t count = 0;                // symbols to decode
    std::uint8_t* symbols = nullptr;        // room for count + kRedSymbolSlack bytes
    const std::uint8_t* at = nullptr;       // the byte holding the next bit but one (meflib's in_byte)
    const std::uint8_t* end = nullptr;      // end of the coded bytes; zeros are read past it
    std::uint32_t low = 0;
    std::uint32_t range = 0;
    std::uint32_t done = 0; // symbols decoded so far
};

// Entries a lookup table needs past its total: fillRedLookup writes runs of 16, then of 8.
inline constexpr std::size_t kRedLookupSlack = 16;

// Fills a block's lookup table (its statistics' total entries, then kRedLookupSlack more of scratch) from its 256
// symbol counts.
void fillRedLookup(std::span<const std::uint8_t, 256> statistics, RedLookupEntry* table);

// A lane set up at the start of a block's coded bytes [in, end).
RedSymbolLane startRedSymbolLane(const RedLookupEntry* lookup, std::uint32_t total, const std::uint8_t* in,
                                 const std::uint8_t* end, std::uint8_t* symbols, std::uint32_t count);

// Decodes every lane's symbols with the kernel of `level` (the AVX2 one from SimdLevel::Avx2 up, where built),
// bit for bit as meflib's RED_decode; the scalar code finishes what a kernel leaves.
void decodeRedSymbols(std::span<RedSymbolLane> lanes, core::SimdLevel level);

namespace scalar {
// Decodes from each lane's state to its end, two lanes side by side.
void decodeRedSymbols(std::span<RedSymbolLane> lanes);
} // namespace scalar

namespace avx2 {
// Runs the lanes' decoders four to a register, refilling a register's lane when its block ends, until fewer than
// `stopBelow` blocks are left running: those are saved for the scalar code. Lanes with fewer than 4 coded bytes
// are left untouched.
void decodeRedSymbols(RedSymbolLane* lanes, std::size_t count, std::size_t stopBelow);
} // namespace avx2

} // namespace lv::formats::mef3
