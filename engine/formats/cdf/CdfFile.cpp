// An opened CDF file: numbers and times of any variable.
#include "formats/cdf/CdfFile.h"

#include "core/UninitializedAllocator.h"
#include "formats/cdf/CdfTime.h"

#include <limits>

namespace lv::formats::cdf {

namespace {

// The most records numbers() gives at once (what 512 MiB of doubles hold).
constexpr std::int64_t kMostRecords = std::int64_t{1} << 26;

std::int64_t recordsOf(const Variable& v)
{
    return v.recordVaries ? v.records() : std::min<std::int64_t>(v.records(), 1);
}

} // namespace

core::Result<CdfFile> CdfFile::open(const io::ByteSourcePtr& file)
{
    auto image = openImage(file);
    if (!image) return image.error();
    auto structure = readStructure(*image);
    if (!structure) return structure.error();
    CdfFile f;
    f.m_image = image->source;
    f.m_structure = std::move(*structure);
    f.m_cache = std::make_shared<LeafCache>();
    return f;
}

core::Result<std::vector<double>> CdfFile::numbers(const Variable& v, std::size_t index) const
{
    if (!isNumber(v.type) && v.type != kEpoch && v.type != kTimeTt2000)
        return core::makeError(core::ErrorCode::InvalidArgument, v.name + " holds no numbers", m_structure.path);
    if (index >= v.valuesPerRecord())
        return core::makeError(core::ErrorCode::InvalidArgument, v.name + " has no value " + std::to_string(index),
                               m_structure.path);
    const std::int64_t n = recordsOf(v);
    if (n > kMostRecords)
        return core::makeError(core::ErrorCode::Unsupported,
                               v.name + " has " + std::to_string(n) + " records, more than one read takes",
                               m_structure.path);
    const std::size_t size = v.recordBytes(), at = storedIndex(v, m_structure.rowMajor, index) * v.valueBytes();
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n) * size), held(static_cast<std::size_t>(n));
    LV_TRY(records(v, 0, n, bytes, held));
    std::vector<double> out(static_cast<std::size_t>(n), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t r = 0; r < out.size(); ++r)
        if (held[r]) out[r] = numberAt(v.type, m_structure.order, bytes.data() + r * size + at);
    return out;
}

core::Result<std::vector<std::int64_t>> CdfFile::times(const Variable& v) const
{
    if (!isEpoch(v.type))
        return core::makeError(core::ErrorCode::InvalidArgument, v.name + " holds no epochs", m_structure.path);
    const std::int64_t n = v.heldRecords();
    const std::size_t size = v.recordBytes();
    core::UninitializedBytes bytes(static_cast<std::size_t>(n) * size), held(static_cast<std::size_t>(n));
    LV_TRY(records(v, 0, n, bytes, held));
    std::vector<std::int64_t> out(static_cast<std::size_t>(n));
    epochsAt(v.type, m_structure.order, bytes.data(), size, out.size(), out.data());
    for (std::size_t r = 0; r < out.size(); ++r)
        if (!held[r]) out[r] = kNoTime;
    return out;
}

} // namespace lv::formats::cdf
