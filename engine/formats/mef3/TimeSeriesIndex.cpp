// Index entries read field by field; the entry count must fit the file.
#include "formats/mef3/TimeSeriesIndex.h"

#include "core/FieldReader.h"
#include "core/LittleEndian.h"

namespace lv::formats::mef3 {

namespace le = core::le;
using core::ErrorCode;
using core::makeError;

core::Result<TimeSeriesIndex> parseTimeSeriesIndex(std::span<const std::uint8_t> file, const std::string& path)
{
    auto header = parseUniversalHeader(file, path, "tidx");
    if (!header) return header.error();
    const std::size_t available = (file.size() - kUniversalHeaderBytes) / kIndexEntryBytes;
    if (header->numberOfEntries < 0 || static_cast<std::uint64_t>(header->numberOfEntries) > available)
        return makeError(ErrorCode::Truncated,
                         "index announces " + std::to_string(header->numberOfEntries) + " entries but holds " +
                             std::to_string(available),
                         path, 32);
    const std::size_t count = static_cast<std::size_t>(header->numberOfEntries);
    // Entries past the header's count are never read: an interrupted append leaves them (the body CRC then covers
    // the counted ones only), and a damaged count hides them (the CRC covers them all). Either way they are said.
    const std::size_t uncommitted = available - count;
    if (auto whole = checkBodyCrc(*header, file, path); !whole) {
        const auto counted = file.first(kUniversalHeaderBytes + count * kIndexEntryBytes);
        if (count == available || !checkBodyCrc(*header, counted, path)) return whole.error();
    }

    TimeSeriesIndex index;
    index.uncommittedEntries = uncommitted;
    index.header = std::move(*header);
    index.entries.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t at = kUniversalHeaderBytes + i * kIndexEntryBytes;
        core::FieldReader e(file.subspan(at, kIndexEntryBytes), path, static_cast<std::int64_t>(at));
        IndexEntry& x = index.entries[i];
        x.fileOffset = e.i64(0);
        x.startTime = e.i64(8);
        x.startSample = e.i64(16);
        x.sampleCount = e.u32(24);
        x.blockBytes = e.u32(28);
        x.maximumSampleValue = e.i32(32);
        x.minimumSampleValue = e.i32(36);
        x.redFlags = e.u8(44);
        LV_TRY(e.status());
    }
    return index;
}

void appendIndexEntry(const IndexEntry& e, std::vector<std::uint8_t>& out)
{
    const std::size_t at = out.size();
    out.resize(at + kIndexEntryBytes, 0);
    std::uint8_t* x = out.data() + at;
    le::store(x + 0, e.fileOffset);
    le::store(x + 8, e.startTime);
    le::store(x + 16, e.startSample);
    le::store(x + 24, e.sampleCount);
    le::store(x + 28, e.blockBytes);
    le::store(x + 32, e.maximumSampleValue);
    le::store(x + 36, e.minimumSampleValue);
    x[44] = e.redFlags;
}

} // namespace lv::formats::mef3
