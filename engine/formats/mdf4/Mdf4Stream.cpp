// The leaf blocks of a data group's stream, found by walking its lists once, and byte ranges read from them
// (libdeflate for DZ; transposed DZ put back row by row).
#include "formats/mdf4/Mdf4Stream.h"

#include "core/LittleEndian.h"
#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4Transpose.h"

#include <algorithm>
#include <cstring>
#include <libdeflate.h>
#include <memory>
#include <set>
#include <zlib.h>

namespace lv::formats::mdf4 {

namespace le = core::le;

namespace {

struct Walk {
    const io::ByteSource& file;
    std::uint64_t maxBytes;
    DataStream stream;
    std::set<std::uint64_t> seen;
    bool reduction = false; // the leaves are RD blocks (a sample reduction's), not DT
};

core::Status add(Walk& w, Leaf leaf)
{
    if (leaf.bytes > w.maxBytes - w.stream.bytes)
        return core::makeError(core::ErrorCode::Unsupported,
                               "MDF4: the data group holds more than " + std::to_string(w.maxBytes) + " bytes",
                               w.file.path(), static_cast<std::int64_t>(leaf.block));
    leaf.streamOffset = w.stream.bytes;
    w.stream.bytes += leaf.bytes;
    w.stream.hasDz = w.stream.hasDz || leaf.dz;
    if (leaf.bytes > 0) w.stream.leaves.push_back(leaf);
    return {};
}

core::Status addDz(Walk& w, const Block& b)
{
    if (b.data.size() < 24) return corrupt(w.file, b.offset, "##DZ block is shorter than its header");
    const std::string original(reinterpret_cast<const char*>(b.data.data()), 2);
    const std::uint8_t zipType = le::u8(b.data, 2);
    const std::uint32_t parameter = le::u32(b.data, 4);
    const std::uint64_t originalBytes = le::u64(b.data, 8), zipped = le::u64(b.data, 16);
    if (original != "DT" && original != "SD" && original != "RD")
        return corrupt(w.file, b.offset, "##DZ holds a \"" + original + "\" block, not DT, SD or RD");
    if (zipType > 1)
        return corrupt(w.file, b.offset, "##DZ compression " + std::to_string(zipType) + " is not deflate");
    if (zipped != b.length - kHeaderBytes - b.links.size() * 8 - 24)
        return corrupt(w.file, b.offset, "##DZ data length does not match its block");
    if (originalBytes / 1032 > zipped + 1) // deflate expands 1032:1 at most: an absurd size, not a big one
        return corrupt(w.file, b.offset,
                       "##DZ cannot inflate " + std::to_string(zipped) + " bytes to " + std::to_string(originalBytes));
    const std::uint64_t dataAt = b.offset + kHeaderBytes + b.links.size() * 8 + 24;
    return add(w, Leaf{b.offset, dataAt, zipped, zipType == 1 ? parameter : 0u, 0, originalBytes, true});
}

core::Status walk(Walk& w, std::uint64_t at, int depth);

core::Status walkList(Walk& w, const Block& dl, int depth)
{
    for (std::uint64_t list = dl.offset; list != 0;) {
        auto b = list == dl.offset ? core::Result<Block>(dl) : readBlock(w.file, list, {"DL"});
        if (!b) return b.error();
        if (b->data.size() < 8) return corrupt(w.file, list, "##DL block is shorter than its header");
        const std::uint32_t count = le::u32(b->data, 4);
        if (b->links.size() < 1u + count)
            return corrupt(w.file, list, "##DL lists " + std::to_string(count) + " blocks but has room for fewer");
        for (std::uint32_t i = 0; i < count; ++i) LV_TRY(walk(w, b->links[1 + i], depth + 1));
        list = b->link(0);
        if (list != 0 && !w.seen.insert(list).second) return corrupt(w.file, list, "the data list loops back");
    }
    return {};
}

core::Status walk(Walk& w, std::uint64_t at, int depth)
{
    if (at == 0) return {};
    if (depth > 8) return corrupt(w.file, at, "data lists nest more than 8 deep");
    if (!w.seen.insert(at).second) return corrupt(w.file, at, "a data block is linked twice");
    auto b = w.reduction ? readBlock(w.file, at, {"RD", "DZ", "DL", "HL"}, 64)
                         : readBlock(w.file, at, {"DT", "DZ", "DL", "HL"}, 64);
    if (!b) return b.error();
    if (b->id == "DT" || b->id == "RD") {
        const std::uint64_t dataAt = b->offset + kHeaderBytes + b->links.size() * 8;
        return add(w, Leaf{b->offset, dataAt, 0, 0, 0, b->length - kHeaderBytes - b->links.size() * 8, false});
    }
    if (b->id == "DZ") return addDz(w, *b);
    if (b->id == "HL") return walk(w, b->link(0), depth + 1);
    return walkList(w, *b, depth);
}

using Decompressor = std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)>;

libdeflate_decompressor* threadDecompressor()
{
    thread_local Decompressor d(libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
    return d.get();
}

} // namespace

core::Result<DataStream> indexDataStream(const io::ByteSource& file, std::uint64_t dataLink, std::uint64_t maxBytes)
{
    Walk w{file, maxBytes, {}, {}};
    LV_TRY(walk(w, dataLink, 0));
    return std::move(w.stream);
}

core::Result<DataStream> indexReductionStream(const io::ByteSource& file, std::uint64_t dataLink,
                                              std::uint64_t maxBytes)
{
    Walk w{file, maxBytes, {}, {}, true};
    LV_TRY(walk(w, dataLink, 0));
    return std::move(w.stream);
}

core::Result<core::UninitializedBytes> readLeaf(const io::ByteSource& file, const Leaf& leaf)
{
    core::UninitializedBytes out(leaf.bytes);
    if (!leaf.dz) {
        LV_TRY(file.readAt(leaf.dataAt, {out.data(), out.size()}));
        return out;
    }
    // Per-thread buffers for the compressed bytes and, when transposed, the inflated columns: reused, not fresh
    // pages for each block.
    thread_local core::UninitializedBytes zipped, columnOrder;
    zipped.resize(leaf.zipped);
    LV_TRY(file.readAt(leaf.dataAt, {zipped.data(), zipped.size()}));
    const bool transposed = leaf.columns > 1 && leaf.bytes >= leaf.columns;
    if (transposed) columnOrder.resize(leaf.bytes);
    core::UninitializedBytes& inflated = transposed ? columnOrder : out;
    std::size_t got = 0;
    libdeflate_decompressor* d = threadDecompressor();
    if (!d ||
        libdeflate_zlib_decompress(d, zipped.data(), zipped.size(), inflated.data(), leaf.bytes, &got) !=
            LIBDEFLATE_SUCCESS ||
        got != leaf.bytes)
        return corrupt(file, leaf.block, "##DZ data does not inflate to its " + std::to_string(leaf.bytes) + " bytes");
    if (transposed) blockToRowOrder(columnOrder.data(), leaf.bytes, leaf.columns, out.data());
    return out;
}

core::Status readLeafPrefix(const io::ByteSource& file, const Leaf& leaf, std::uint64_t bytes,
                            std::vector<std::uint8_t>& out)
{
    bytes = std::min(bytes, leaf.bytes);
    if (bytes > 0xFFFFFFFFu) return corrupt(file, leaf.block, "##DZ: a prefix over 4 GiB is not read");
    out.resize(bytes);
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return corrupt(file, leaf.block, "##DZ: zlib cannot start");
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(bytes);
    std::vector<std::uint8_t> in(std::size_t{1} << 16);
    int result = Z_OK;
    for (std::uint64_t read = 0; z.avail_out > 0 && result == Z_OK && read < leaf.zipped;) {
        const std::uint64_t n = std::min<std::uint64_t>(in.size(), leaf.zipped - read);
        if (core::Status s = file.readAt(leaf.dataAt + read, {in.data(), n}); !s) {
            inflateEnd(&z);
            return s.error();
        }
        read += n;
        z.next_in = in.data();
        z.avail_in = static_cast<uInt>(n);
        while (z.avail_in > 0 && z.avail_out > 0 && result == Z_OK) result = inflate(&z, Z_NO_FLUSH);
    }
    inflateEnd(&z);
    if (z.avail_out != 0)
        return corrupt(file, leaf.block, "##DZ data does not inflate to its " + std::to_string(leaf.bytes) + " bytes");
    return {};
}

core::Status readStreamRange(const io::ByteSource& file, const DataStream& stream, std::uint64_t begin,
                             std::span<std::uint8_t> out, core::TaskRunner* runner)
{
    const std::uint64_t end = begin + out.size();
    if (end > stream.bytes || end < begin)
        return corrupt(file, stream.leaves.empty() ? 0 : stream.leaves.front().block,
                       "the data ends before byte " + std::to_string(end) + " of the records");
    const auto after = [](std::uint64_t at, const Leaf& l) { return at < l.streamOffset + l.bytes; };
    const auto first = std::upper_bound(stream.leaves.begin(), stream.leaves.end(), begin, after);
    std::vector<const Leaf*> involved;
    for (auto it = first; it != stream.leaves.end() && it->streamOffset < end; ++it) involved.push_back(&*it);
    std::vector<core::Status> results(involved.size());
    const auto job = [&](std::size_t i) {
        const Leaf& leaf = *involved[i];
        const std::uint64_t from = std::max(begin, leaf.streamOffset);
        const std::uint64_t to = std::min(end, leaf.streamOffset + leaf.bytes);
        std::span<std::uint8_t> slice = out.subspan(from - begin, to - from);
        if (!leaf.dz) {
            results[i] = file.readAt(leaf.dataAt + (from - leaf.streamOffset), slice);
            return;
        }
        auto bytes = readLeaf(file, leaf);
        if (!bytes) {
            results[i] = bytes.error();
            return;
        }
        std::memcpy(slice.data(), bytes->data() + (from - leaf.streamOffset), slice.size());
    };
    if (runner && involved.size() > 1)
        runner->parallelFor(involved.size(), job);
    else
        for (std::size_t i = 0; i < involved.size(); ++i) job(i);
    for (core::Status& s : results) LV_TRY(std::move(s));
    return {};
}

} // namespace lv::formats::mdf4
