// A data group's record stream as a list of its leaf blocks (DT, DZ) found through DL and HL lists, so that any
// byte range of the stream is read by touching only the blocks that hold it.
#pragma once

#include "core/Error.h"
#include "core/TaskRunner.h"
#include "core/UninitializedAllocator.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lv::formats::mdf4 {

// One DT or DZ block: bytes [streamOffset, streamOffset + bytes) of the uncompressed stream.
struct Leaf {
    std::uint64_t block = 0;   // the block's offset in the file
    std::uint64_t dataAt = 0;  // DT: where its bytes start; DZ: where the compressed bytes start
    std::uint64_t zipped = 0;  // DZ: compressed bytes; 0 for DT
    std::uint32_t columns = 0; // transposed DZ: bytes per row; 0 for none
    std::uint64_t streamOffset = 0;
    std::uint64_t bytes = 0;
    bool dz = false;
};

struct DataStream {
    std::vector<Leaf> leaves; // in stream order, back to back
    std::uint64_t bytes = 0;  // the whole stream
    bool hasDz = false;
};

// Walks the data group's DT/DZ/DL/HL tree (headers only). Loops, nesting beyond 8 lists, a DZ that cannot hold its
// size (deflate inflates 1032:1 at most) or a stream over `maxBytes` are errors naming the block.
core::Result<DataStream> indexDataStream(const io::ByteSource& file, std::uint64_t dataLink,
                                         std::uint64_t maxBytes = std::uint64_t{1} << 40);

// The same for a sample reduction's data (SR's link): RD blocks in place of DT.
core::Result<DataStream> indexReductionStream(const io::ByteSource& file, std::uint64_t dataLink,
                                              std::uint64_t maxBytes);

// The bytes of one leaf, uncompressed and (transposed DZ) back in row order.
core::Result<core::UninitializedBytes> readLeaf(const io::ByteSource& file, const Leaf& leaf);

// The first `bytes` of one DZ leaf's inflated bytes (transposed blocks still column by column): zlib stops
// inflating there, so the first columns of a transposed block cost a fraction of the whole.
// `out` is resized to them (its capacity kept, so that a caller going through many leaves reuses one buffer).
core::Status readLeafPrefix(const io::ByteSource& file, const Leaf& leaf, std::uint64_t bytes,
                            std::vector<std::uint8_t>& out);

// Stream bytes [begin, begin + out.size()) into `out`; the leaves involved are read on `runner` (nullptr: this
// thread), each into its own slice of `out`.
core::Status readStreamRange(const io::ByteSource& file, const DataStream& stream, std::uint64_t begin,
                             std::span<std::uint8_t> out, core::TaskRunner* runner = nullptr);

} // namespace lv::formats::mdf4
