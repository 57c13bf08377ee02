// Reading an MDF 4 recording: blocks of whole records, each channel's field taken out as counts; inflated DZ leaves
// kept in a small cache, since every channel of a group reads the same leaves.
#include "formats/mdf4/Mdf4Recording.h"

#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4Data.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

namespace lv::formats::mdf4 {

namespace {

constexpr std::uint64_t kLeafCacheBytes = std::uint64_t{64} << 20;

} // namespace

std::shared_ptr<const std::vector<std::uint8_t>> Mdf4Recording::leafBytes(const Group& group, std::size_t leaf) const
{
    const std::uint64_t key = group.stream.leaves[leaf].block; // the DZ block's offset: one leaf of the file
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_leafCache.begin(); it != m_leafCache.end(); ++it)
            if (it->first == key) {
                m_leafCache.splice(m_leafCache.begin(), m_leafCache, it);
                return it->second;
            }
    }
    auto bytes = readLeaf(*m_file, group.stream.leaves[leaf]);
    if (!bytes) return nullptr;
    auto shared = std::make_shared<const std::vector<std::uint8_t>>(std::move(*bytes));
    std::lock_guard lock(m_mutex);
    m_leafCache.emplace_front(key, shared);
    m_leafCacheBytes += shared->size();
    while (m_leafCacheBytes > kLeafCacheBytes && m_leafCache.size() > 1) {
        m_leafCacheBytes -= m_leafCache.back().second->size();
        m_leafCache.pop_back();
    }
    return shared;
}

core::Status Mdf4Recording::readRecords(const Group& group, std::int64_t first, std::int64_t count,
                                        std::vector<std::uint8_t>& out) const
{
    const std::uint64_t begin = static_cast<std::uint64_t>(first) * group.recordBytes;
    const std::uint64_t bytes = static_cast<std::uint64_t>(count) * group.recordBytes;
    out.resize(bytes);
    if (group.ownRecords) {
        if (begin + bytes > group.ownRecords->size()) return corrupt(*m_file, 0, "records beyond the data");
        std::memcpy(out.data(), group.ownRecords->data() + begin, bytes);
        return {};
    }
    const std::vector<Leaf>& leaves = group.stream.leaves;
    if (begin + bytes > group.stream.bytes) return corrupt(*m_file, 0, "records beyond the data");
    const auto after = [](std::uint64_t at, const Leaf& l) { return at < l.streamOffset + l.bytes; };
    for (auto it = std::upper_bound(leaves.begin(), leaves.end(), begin, after);
         it != leaves.end() && it->streamOffset < begin + bytes; ++it) {
        const std::uint64_t from = std::max(begin, it->streamOffset);
        const std::uint64_t to = std::min(begin + bytes, it->streamOffset + it->bytes);
        std::uint8_t* dst = out.data() + (from - begin);
        if (!it->dz) {
            LV_TRY(m_file->readAt(it->dataAt + (from - it->streamOffset), {dst, to - from}));
            continue;
        }
        const auto leaf = leafBytes(group, static_cast<std::size_t>(it - leaves.begin()));
        if (!leaf) return readLeaf(*m_file, *it).error(); // the cache keeps no failures: read again for the error
        std::memcpy(dst, leaf->data() + (from - it->streamOffset), to - from);
    }
    return {};
}

std::span<const core::BlockSpan> Mdf4Recording::blocks(std::size_t channel) const
{
    return m_groups[m_channels[channel].group].blocks;
}

void Mdf4Recording::warnOnce(std::size_t channel, const std::string& what) const
{
    std::lock_guard lock(m_mutex);
    if (m_warned[channel]) return;
    m_warned[channel] = true;
    m_warnings.push_back("channel " + m_info.channels[channel].name + ": " + what);
}

core::Status Mdf4Recording::decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                                        const core::ReadControl&) const
{
    const ChannelRef& ref = m_channels[channel];
    const Group& group = m_groups[ref.group];
    const ChannelGroup& cg = m_structure.dataGroups[group.dataGroup].groups[group.channelGroup];
    const Channel& c = cg.channels[ref.channel];
    const core::BlockSpan& span = group.blocks[block];
    const std::int64_t firstRecord = group.blockRecord[block];
    thread_local std::vector<std::uint8_t> bytes;
    LV_TRY(readRecords(group, firstRecord, span.count, bytes));
    const double factor = m_info.channels[channel].conversionFactor;
    bool outOfRange = false;
    for (std::uint32_t i = 0; i < span.count && i < out.size(); ++i) {
        const std::uint8_t* record = bytes.data() + i * group.recordBytes + group.idBytes;
        if (ref.mapping == Mapping::Counts) {
            out[i] = sampleInvalid(cg, c, record) ? core::kNoSample : static_cast<std::int32_t>(rawValue(c, record));
            continue;
        }
        const double v = physicalValue(cg, c, record, static_cast<std::uint64_t>(firstRecord) + i);
        const double q = std::round(v / factor);
        const bool fits = q > -2147483648.0 && q <= 2147483647.0;
        outOfRange = outOfRange || (std::isfinite(v) && !fits);
        out[i] = fits ? static_cast<std::int32_t>(q) : core::kNoSample;
    }
    if (outOfRange) warnOnce(channel, "values beyond 2^31 steps of its resolution are read as missing");
    return {};
}

core::Status Mdf4Recording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    struct Job {
        std::size_t slice = 0, block = 0;
    };
    std::vector<Job> jobs;
    for (std::size_t s = 0; s < slices.size(); ++s) {
        const core::RawSlice& slice = slices[s];
        std::fill(slice.out.begin(), slice.out.end(), core::kNoSample);
        const std::int64_t from = slice.firstSample, to = from + static_cast<std::int64_t>(slice.out.size());
        const std::vector<core::BlockSpan>& list = m_groups[m_channels[slice.channel].group].blocks;
        auto it = std::upper_bound(list.begin(), list.end(), from,
                                   [](std::int64_t at, const core::BlockSpan& b) { return at < b.first + b.count; });
        for (; it != list.end() && it->first < to; ++it)
            jobs.push_back({s, static_cast<std::size_t>(it - list.begin())});
    }
    std::vector<core::Status> results(jobs.size());
    std::atomic<std::uint64_t> done{0};
    const auto run = [&](std::size_t j) {
        if (control.cancel && control.cancel->cancelled()) {
            results[j] = core::makeError(core::ErrorCode::Cancelled, "cancelled", m_info.path);
            return;
        }
        const core::RawSlice& slice = slices[jobs[j].slice];
        const core::BlockSpan& b = m_groups[m_channels[slice.channel].group].blocks[jobs[j].block];
        thread_local std::vector<std::int32_t> counts;
        counts.resize(b.count);
        results[j] = decodeBlock(slice.channel, jobs[j].block, counts, control);
        const std::int64_t from = std::max(b.first, slice.firstSample);
        const std::int64_t to =
            std::min<std::int64_t>(b.first + b.count, slice.firstSample + static_cast<std::int64_t>(slice.out.size()));
        if (results[j].ok() && to > from)
            std::copy_n(counts.begin() + (from - b.first), to - from, slice.out.begin() + (from - slice.firstSample));
        if (control.progress) control.progress(++done, jobs.size());
    };
    if (control.runner)
        control.runner->parallelFor(jobs.size(), run);
    else
        for (std::size_t j = 0; j < jobs.size(); ++j) run(j);
    for (core::Status& s : results) LV_TRY(std::move(s));
    return {};
}

std::vector<std::string> Mdf4Recording::takeWarnings()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_warnings, {});
}

} // namespace lv::formats::mdf4
