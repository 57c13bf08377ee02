// A CDF file's bytes as its records see them: the file itself, or the inflated image of a whole-file compressed CDF.
#include "formats/cdf/CdfImage.h"

#include "formats/cdf/CdfCompression.h"
#include "formats/cdf/CdfFields.h"

namespace lv::formats::cdf {

namespace {

constexpr std::int32_t kCcr = 10, kCpr = 11;
constexpr std::uint32_t kMagicV3 = 0xCDF30001u, kMagicV26 = 0xCDF26002u, kMagicOld = 0x0000FFFFu;
constexpr std::uint32_t kUncompressed = 0x0000FFFFu, kCompressed = 0xCCCC0001u;
constexpr std::uint64_t kMaxImage = std::uint64_t{16} << 30; // a whole-file compressed CDF inflated in memory

std::uint32_t be32(const std::uint8_t* p)
{
    return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}

core::Error corrupt(const std::string& message, const std::string& path, std::uint64_t offset)
{
    return core::makeError(core::ErrorCode::Corrupt, message, path, static_cast<std::int64_t>(offset));
}

core::Result<std::vector<std::uint8_t>> inflateImage(const io::ByteSource& file, bool wide, std::uint32_t magic,
                                                     std::int32_t& compression)
{
    const std::string& path = file.path();
    const std::size_t h = wide ? 12 : 8, o = wide ? 8 : 4;
    auto head = file.read(8, h + 2 * o + 4);
    if (!head) return head.error();
    CdfFields f(*head, path, 8, wide);
    const std::int64_t size = f.offset(0), cpr = f.offset(h);
    const std::int32_t type = f.i32(o);
    const std::int64_t inflated = f.offset(h + o);
    LV_TRY(f.status());
    const std::uint64_t dataAt = 8 + h + 2 * o + 4;
    if (type != kCcr || size < static_cast<std::int64_t>(h + 2 * o + 4) ||
        static_cast<std::uint64_t>(size) > file.size() - 8)
        return corrupt("a compressed CDF without a whole CCR after its magic numbers", path, 8);
    const std::uint64_t stored = static_cast<std::uint64_t>(size) - (h + 2 * o + 4);
    auto cprBytes = file.read(static_cast<std::uint64_t>(std::max<std::int64_t>(cpr, 0)), h + 8);
    if (cpr < 8 || !cprBytes)
        return corrupt("the CCR's CPR offset (" + std::to_string(cpr) + ") is not in the file", path, 8);
    CdfFields c(*cprBytes, path, static_cast<std::uint64_t>(cpr), wide);
    compression = c.i32(h);
    const std::int32_t cprType = c.i32(o);
    LV_TRY(c.status());
    if (cprType != kCpr)
        return corrupt("the CCR's CPR offset points at a record of type " + std::to_string(cprType), path,
                       static_cast<std::uint64_t>(cpr));
    if (inflated < 0 || static_cast<std::uint64_t>(inflated) > maxInflatedSize(compression, stored) ||
        static_cast<std::uint64_t>(inflated) > kMaxImage - 8)
        return corrupt("a compressed CDF of " + std::to_string(stored) + " bytes that claims to inflate to " +
                           std::to_string(inflated),
                       path, 8);
    auto data = file.read(dataAt, stored);
    if (!data) return data.error();
    std::vector<std::uint8_t> image(8 + static_cast<std::size_t>(inflated));
    for (int i = 0; i < 4; ++i) image[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(magic >> (24 - 8 * i));
    image[6] = image[7] = 0xFF;
    LV_TRY(inflate(compression, *data, std::span<std::uint8_t>(image).subspan(8), image.size() - 8, path, dataAt));
    return image;
}

} // namespace

bool hasCdfMagic(const std::uint8_t* first8)
{
    const std::uint32_t a = be32(first8), b = be32(first8 + 4);
    return (a == kMagicV3 || a == kMagicV26 || a == kMagicOld) && (b == kUncompressed || b == kCompressed);
}

core::Result<Image> openImage(const io::ByteSourcePtr& file)
{
    std::uint8_t magic[8] = {};
    if (file->size() < 8 || !file->readAt(0, magic).ok() || !hasCdfMagic(magic))
        return core::makeError(core::ErrorCode::Unsupported, "not a CDF file (no CDF magic number)", file->path(), 0);
    Image image{file, be32(magic) == kMagicV3, "none"};
    if (be32(magic + 4) == kCompressed) {
        std::int32_t compression = kNoCompression;
        auto inflated = inflateImage(*file, image.wideOffsets, be32(magic), compression);
        if (!inflated) return inflated.error();
        image.source = io::memorySource(std::move(*inflated), file->path());
        image.compression = compressionName(compression);
    }
    return image;
}

} // namespace lv::formats::cdf
