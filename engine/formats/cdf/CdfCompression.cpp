// CDF's compressions: GZIP (libdeflate) and RLE of zero bytes.
#include "formats/cdf/CdfCompression.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace lv::formats::cdf {

namespace {

core::Status corrupt(const std::string& message, const std::string& path, std::uint64_t offset)
{
    return core::makeError(core::ErrorCode::Corrupt, message, path, static_cast<std::int64_t>(offset));
}

core::Status inflateGzip(std::span<const std::uint8_t> in, std::span<std::uint8_t> out, std::size_t needed,
                         const std::string& path, std::uint64_t offset)
{
    using Decompressor = std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)>;
    thread_local Decompressor d(libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
    if (!d) return core::makeError(core::ErrorCode::Io, "out of memory for a GZIP decompressor", path);
    std::size_t inflated = 0;
    const libdeflate_result r =
        libdeflate_gzip_decompress(d.get(), in.data(), in.size(), out.data(), out.size(), &inflated);
    if (r == LIBDEFLATE_BAD_DATA) return corrupt("GZIP data that does not inflate", path, offset);
    if (r == LIBDEFLATE_INSUFFICIENT_SPACE || (r == LIBDEFLATE_SUCCESS && inflated < needed))
        return corrupt("GZIP data that inflates to " + std::string(r == LIBDEFLATE_SUCCESS ? "" : "more than ") +
                           std::to_string(r == LIBDEFLATE_SUCCESS ? inflated : out.size()) + " bytes, not the " +
                           std::to_string(needed) + " its records need",
                       path, offset);
    if (r != LIBDEFLATE_SUCCESS) return corrupt("GZIP data that ends early", path, offset);
    return {};
}

// A zero byte followed by n stands for n + 1 zero bytes; any other byte for itself.
core::Status inflateRle(std::span<const std::uint8_t> in, std::span<std::uint8_t> out, std::size_t needed,
                        const std::string& path, std::uint64_t offset)
{
    std::size_t o = 0;
    for (std::size_t i = 0; i < in.size() && o < out.size(); ++i) {
        if (in[i] != 0) {
            out[o++] = in[i];
            continue;
        }
        if (i + 1 == in.size()) return corrupt("RLE data that ends inside a run of zeros", path, offset + i);
        const std::size_t run = std::size_t{in[++i]} + 1;
        if (run > out.size() - o)
            return corrupt("RLE data that inflates to more than the " + std::to_string(out.size()) +
                               " bytes its records need",
                           path, offset + i);
        std::memset(out.data() + o, 0, run);
        o += run;
    }
    if (o < needed)
        return corrupt("RLE data that inflates to " + std::to_string(o) + " bytes, not the " + std::to_string(needed) +
                           " its records need",
                       path, offset);
    return {};
}

} // namespace

core::Status inflate(std::int32_t compression, std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                     std::size_t needed, const std::string& path, std::uint64_t offset)
{
    if (compression == kGzip) return inflateGzip(in, out, needed, path, offset);
    if (compression == kRle) return inflateRle(in, out, needed, path, offset);
    return core::makeError(core::ErrorCode::Unsupported, compressionName(compression) + " compression is not read",
                           path, static_cast<std::int64_t>(offset));
}

std::uint64_t maxInflatedSize(std::int32_t compression, std::uint64_t compressedBytes)
{
    const std::uint64_t ratio = compression == kRle ? 128 : 1032;
    return compressedBytes > (std::uint64_t{1} << 50) / ratio ? std::uint64_t{1} << 50 : compressedBytes * ratio + 64;
}

std::string compressionName(std::int32_t compression)
{
    switch (compression) {
    case kNoCompression:
        return "none";
    case kRle:
        return "RLE";
    case kHuffman:
        return "Huffman";
    case kAdaptiveHuffman:
        return "adaptive Huffman";
    case kGzip:
        return "GZIP";
    default:
        return "compression " + std::to_string(compression);
    }
}

} // namespace lv::formats::cdf
