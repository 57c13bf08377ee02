// An opened CDF file: its descriptor records, and any variable's records read as numbers or times on demand.
#pragma once

#include "formats/cdf/CdfStructure.h"
#include "formats/cdf/CdfValues.h"

#include <memory>
#include <vector>

namespace lv::formats::cdf {

class CdfFile {
public:
    CdfFile() = default; // no file: an empty structure
    // Checks the magic numbers, inflates a compressed file and reads the descriptor records.
    static core::Result<CdfFile> open(const io::ByteSourcePtr& file);

    const Structure& structure() const { return m_structure; }
    const io::ByteSource& image() const { return *m_image; }
    LeafCache* cache() const { return m_cache.get(); }

    // Records [first, first + count) of `v` as stored, and whether each is held (see readRecords).
    core::Status records(const Variable& v, std::int64_t first, std::int64_t count, std::span<std::uint8_t> out,
                         std::span<std::uint8_t> held) const
    {
        return readRecords(*m_image, v, first, count, out, held, m_cache.get());
    }
    // Every record's value `index` (row-major over the varying dimensions) as a number, NaN for records the file
    // does not hold; a variable that does not vary by record has one record.
    core::Result<std::vector<double>> numbers(const Variable& v, std::size_t index) const;
    // The records of an epoch variable up to the last one held (Variable::heldRecords) as ns since 1970 UTC
    // (kNoTime for fill and pad values and records not held).
    core::Result<std::vector<std::int64_t>> times(const Variable& v) const;

private:
    io::ByteSourcePtr m_image;
    Structure m_structure;
    std::shared_ptr<LeafCache> m_cache;
};

} // namespace lv::formats::cdf
