// A channel group's master times and first values: whole records where values are wanted, else the time column
// alone from the first columns of each transposed DZ block.
#include "formats/mdf4/Mdf4GroupScan.h"

#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4Conversion.h"
#include "formats/mdf4/Mdf4Counts.h"
#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4TextAnnotations.h"

#include <algorithm>
#include <bit>

namespace lv::formats::mdf4 {

namespace {

// Little-endian float64 values from eight byte columns of `rows` bytes each (a transposed DZ block's rows): value r
// is bytes columns[j * rows + r], j = 0..7, low byte first.
void joinDoubleColumns(const std::uint8_t* columns, std::uint64_t rows, std::span<double> out)
{
    for (std::size_t r = 0; r < out.size(); ++r) {
        std::uint64_t word = 0;
        for (std::uint64_t j = 0; j < 8; ++j) word |= std::uint64_t{columns[j * rows + r]} << (8 * j);
        out[r] = std::bit_cast<double>(word);
    }
}

} // namespace

core::Result<GroupScan> GroupScanner::scan(const Mdf4Recording::Group& group) const
{
    const ChannelGroup& cg = m_r.m_structure.dataGroups[group.dataGroup].groups[group.channelGroup];
    const std::uint64_t available =
        group.ownRecords ? group.ownRecords->size() : (group.recordBytes ? group.stream.bytes : 0);
    if (group.recordBytes == 0 || available / group.recordBytes < cg.cycleCount)
        return corrupt(*m_r.m_file, cg.offset,
                       "the data holds fewer records than its channel group's " + std::to_string(cg.cycleCount));
    GroupScan s;
    for (const Channel& c : cg.channels) {
        if (c.isMaster()) {
            if (!s.master) s.master = &c;
            continue;
        }
        if (isTextChannel(c)) {
            s.texts.push_back(&c);
            continue;
        }
        if (!isNumber(c)) {
            ++s.skipped;
            continue;
        }
        LV_TRY(checkChannelLayout(*m_r.m_file, cg, c));
        s.numbers.push_back(&c);
    }
    if ((s.numbers.empty() && s.texts.empty()) || cg.cycleCount == 0) return s;
    const Channel* master = s.master;
    if (master) LV_TRY(checkChannelLayout(*m_r.m_file, cg, *master));
    s.times = io::LargeArray<double>(cg.cycleCount); // 8 bytes a record: tens of MB for long files
    s.firstValues.resize(s.numbers.size());
    std::vector<std::size_t> quantized; // the channels whose first values choose their step
    for (std::size_t k = 0; k < s.numbers.size(); ++k)
        if (!storedAsCounts(*s.numbers[k])) quantized.push_back(k);
    const bool timed = master && master->sync == SyncKind::Time;
    const auto visit = [&](const std::uint8_t* record, std::uint64_t i) {
        s.times[i] = timed ? physicalValue(cg, *master, record, i) : static_cast<double>(i);
        if (i >= kFirstValueCount) return;
        for (std::size_t k : quantized) s.firstValues[k].push_back(physicalValue(cg, *s.numbers[k], record, i));
    };
    // Whole records as long as first values are wanted; then, where the blocks allow, the time column alone.
    const std::uint64_t whole = quantized.empty() ? 0 : std::min<std::uint64_t>(cg.cycleCount, kFirstValueCount);
    const std::uint64_t columnsFrom = timed ? mastersAloneFrom(group, *master, whole) : cg.cycleCount;
    LV_TRY(visitRecords(group, visit, 0, columnsFrom));
    if (columnsFrom < cg.cycleCount) LV_TRY(readMasters(group, *master, columnsFrom, s.times.span()));
    if (!s.numbers.empty()) s.raster = core::fitRaster(s.times.span());
    return s;
}

// The first record from which every DZ block is transposed in rows of whole records and starts on one, at or after
// record `from` on a block boundary, so that the time column can be inflated alone; the cycle count when there is
// none (DT, plain deflate, unsorted groups, a master with an invalidation bit, a virtual master).
std::uint64_t GroupScanner::mastersAloneFrom(const Mdf4Recording::Group& group, const Channel& master,
                                             std::uint64_t from) const
{
    const ChannelGroup& cg = m_r.m_structure.dataGroups[group.dataGroup].groups[group.channelGroup];
    const std::uint64_t rb = group.recordBytes;
    if (group.ownRecords || master.kind == ChannelKind::VirtualMaster || master.hasInvalidationBit() ||
        master.allInvalid())
        return cg.cycleCount;
    std::uint64_t start = cg.cycleCount;
    for (auto it = group.stream.leaves.rbegin(); it != group.stream.leaves.rend(); ++it) {
        const bool columns = it->dz && it->columns == rb && it->streamOffset % rb == 0 && it->bytes % rb == 0;
        if (!columns || it->streamOffset / rb < from) break;
        start = std::min(start, it->streamOffset / rb);
    }
    return start;
}

// Master times of records [from, cycle count) from the first columns of each transposed DZ block, the blocks side
// by side on the runner, each into its own records' times.
core::Status GroupScanner::readMasters(const Mdf4Recording::Group& group, const Channel& master, std::uint64_t from,
                                       std::span<double> times) const
{
    const ChannelGroup& cg = m_r.m_structure.dataGroups[group.dataGroup].groups[group.channelGroup];
    const std::uint64_t rb = group.recordBytes;
    std::vector<const Leaf*> leaves;
    for (const Leaf& leaf : group.stream.leaves)
        if (const std::uint64_t first = leaf.streamOffset / rb; first >= from && first < cg.cycleCount)
            leaves.push_back(&leaf);
    std::vector<core::Status> results(leaves.size());
    core::runEach(m_runner, leaves.size(), [&](std::size_t k) {
        thread_local std::vector<std::uint8_t> columns; // one buffer for every leaf: no fresh pages each time
        results[k] = readLeafMasters(group, master, *leaves[k], columns, times);
    });
    for (core::Status& status : results) LV_TRY(std::move(status));
    return {};
}

core::Status GroupScanner::readLeafMasters(const Mdf4Recording::Group& group, const Channel& master, const Leaf& leaf,
                                           std::vector<std::uint8_t>& columns, std::span<double> times) const
{
    const ChannelGroup& cg = m_r.m_structure.dataGroups[group.dataGroup].groups[group.channelGroup];
    const std::uint64_t rb = group.recordBytes;
    const std::uint64_t begin = group.idBytes + master.byteOffset;
    const std::uint64_t end = begin + (std::uint64_t{master.bitOffset} + master.bitCount + 7) / 8;
    const std::uint64_t first = leaf.streamOffset / rb, rows = leaf.bytes / rb;
    LV_TRY(readLeafPrefix(*m_r.m_file, leaf, end * rows, columns));
    // A little-endian float64 on whole bytes (the usual time master): its eight byte columns put together.
    if (master.dataType == DataType::FloatLe && master.bitCount == 64 && master.bitOffset == 0) {
        const std::uint64_t n = std::min(rows, cg.cycleCount - first);
        joinDoubleColumns(columns.data() + begin * rows, rows, {times.data() + first, n});
        if (master.hasConversion)
            for (double& t : std::span(times.data() + first, n)) t = convert(*master.conversion, t);
        return {};
    }
    std::vector<std::uint8_t> record(end);
    for (std::uint64_t r = 0; r < rows && first + r < cg.cycleCount; ++r) {
        for (std::uint64_t c = begin; c < end; ++c) record[c] = columns[c * rows + r];
        times[first + r] = physicalValue(cg, master, record.data() + group.idBytes, first + r);
    }
    return {};
}

template <class Visit>
core::Status GroupScanner::visitRecords(const Mdf4Recording::Group& group, Visit&& visit, std::uint64_t from,
                                        std::uint64_t to) const
{
    const std::uint64_t chunk = std::max<std::uint64_t>(1, (std::uint64_t{8} << 20) / group.recordBytes);
    core::UninitializedBytes bytes;
    for (std::uint64_t first = from; first < to; first += chunk) {
        const std::uint64_t n = std::min(chunk, to - first);
        LV_TRY(m_r.readRecords(group, static_cast<std::int64_t>(first), static_cast<std::int64_t>(n), bytes));
        for (std::uint64_t i = 0; i < n; ++i) visit(bytes.data() + i * group.recordBytes + group.idBytes, first + i);
    }
    return {};
}

} // namespace lv::formats::mdf4
