// A CDF file as a recording: reads of counts and times.
#include "formats/cdf/CdfRecording.h"

#include "core/ReadJobs.h"
#include "core/UninitializedAllocator.h"
#include "formats/cdf/CdfCounts.h"
#include "formats/cdf/CdfTime.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace lv::formats::cdf {

namespace {

// Records read at a time: about 4 MiB of them.
std::int64_t recordsPerRead(const Variable& v)
{
    return std::max<std::int64_t>(
        1, static_cast<std::int64_t>((std::size_t{4} << 20) / std::max<std::size_t>(1, v.recordBytes())));
}

core::Error noChannel(std::size_t channel)
{
    return core::makeError(core::ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
}

} // namespace

core::Status CdfRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    for (const core::RawSlice& s : slices)
        if (s.channel >= m_channels.size()) return noChannel(s.channel);
    // Slices of one variable over the same samples read its records once (the viewer asks for every channel of a
    // window at a time).
    std::vector<std::vector<std::size_t>> groups;
    std::map<std::tuple<std::size_t, std::int64_t, std::size_t>, std::size_t> groupOf;
    for (std::size_t i = 0; i < slices.size(); ++i) {
        const auto key =
            std::tuple(m_channels[slices[i].channel].variable, slices[i].firstSample, slices[i].out.size());
        const auto [it, added] = groupOf.try_emplace(key, groups.size());
        if (added) groups.emplace_back();
        groups[it->second].push_back(i);
    }
    return core::runReadJobs(groups.size(), control, [&](std::size_t g) { return readGroup(slices, groups[g]); });
}

core::Status CdfRecording::readGroup(std::span<const core::RawSlice> slices, std::span<const std::size_t> group) const
{
    const core::RawSlice& s = slices[group.front()];
    for (std::size_t i : group) std::fill(slices[i].out.begin(), slices[i].out.end(), core::kNoSample);
    const TimeAxis& axis = m_axes[m_channels[s.channel].axis];
    const std::int64_t end = s.firstSample + static_cast<std::int64_t>(s.out.size());
    if (axis.irregular) {
        const std::int64_t from = std::max<std::int64_t>(s.firstSample, 0);
        const std::int64_t to = std::min<std::int64_t>(end, static_cast<std::int64_t>(axis.timesNs->size()));
        return to > from ? readCounts(slices, group, from, to - from, static_cast<std::size_t>(from - s.firstSample))
                         : core::Status();
    }
    for (const core::RasterRun& run : axis.runs) {
        const std::int64_t from = std::max(s.firstSample, run.firstGrid), to = std::min(end, run.firstGrid + run.count);
        if (to > from)
            LV_TRY(readCounts(slices, group, run.firstRecord + (from - run.firstGrid), to - from,
                              static_cast<std::size_t>(from - s.firstSample)));
    }
    return {};
}

core::Status CdfRecording::readCounts(std::span<const core::RawSlice> slices, std::span<const std::size_t> group,
                                      std::int64_t first, std::int64_t count, std::size_t at) const
{
    const Variable& v = m_file.structure().variables[m_channels[slices[group.front()].channel].variable];
    const std::size_t size = v.recordBytes();
    const std::int64_t chunk = recordsPerRead(v);
    // Tiles of records small enough to stay in the L1 cache while each channel takes its values from them.
    const auto tile =
        static_cast<std::int64_t>(std::max<std::size_t>(1, (std::size_t{16} << 10) / std::max<std::size_t>(1, size)));
    core::UninitializedBytes bytes, held;
    std::vector<bool> beyond(group.size());
    for (std::int64_t done = 0; done < count; done += chunk) {
        const std::int64_t n = std::min(chunk, count - done);
        bytes.resize(static_cast<std::size_t>(n) * size);
        held.resize(static_cast<std::size_t>(n));
        LV_TRY(m_file.records(v, first + done, n, bytes, held));
        for (std::int64_t t = 0; t < n; t += tile)
            for (std::size_t k = 0; k < group.size(); ++k) {
                const core::RawSlice& s = slices[group[k]];
                const std::int64_t records = std::min(tile, n - t);
                const std::size_t r0 = static_cast<std::size_t>(t);
                if (!toCounts(s.channel, bytes.data() + r0 * size, held.data() + r0, static_cast<std::size_t>(records),
                              s.out.data() + at + static_cast<std::size_t>(done) + r0))
                    beyond[k] = true;
            }
    }
    for (std::size_t k = 0; k < group.size(); ++k)
        if (beyond[k])
            warnOnce(slices[group[k]].channel, "channel " + m_info.channels[slices[group[k]].channel].name +
                                                   ": values beyond 2^31 steps of its resolution are read as missing");
    return {};
}

bool CdfRecording::toCounts(std::size_t channel, const std::uint8_t* records, const std::uint8_t* held,
                            std::size_t count, std::int32_t* out) const
{
    const ChannelRef& ref = m_channels[channel];
    const Variable& v = m_file.structure().variables[ref.variable];
    const CountCoding coding{v.type, m_file.structure().order, m_info.channels[channel].conversionFactor, ref.fill,
                             ref.pad};
    return valuesToCounts(coding, records + ref.element * v.valueBytes(), v.recordBytes(), held, count, out);
}

std::span<const core::BlockSpan> CdfRecording::blocks(std::size_t channel) const
{
    if (channel >= m_channels.size()) return {};
    return m_axes[m_channels[channel].axis].blocks;
}

core::Status CdfRecording::decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                                       const core::ReadControl& /*control*/) const
{
    const std::span<const core::BlockSpan> all = blocks(channel);
    if (block >= all.size() || out.size() < all[block].count)
        return core::makeError(core::ErrorCode::InvalidArgument, "no block " + std::to_string(block) + " of channel " +
                                                                     std::to_string(channel) + " fits that buffer");
    const core::RawSlice slice{channel, all[block].first, out.first(all[block].count)};
    const std::size_t only = 0;
    return readGroup(std::span(&slice, 1), std::span(&only, 1));
}

core::Status CdfRecording::readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control)
{
    for (const core::TimeSlice& slice : slices) {
        if (slice.channel >= m_channels.size()) return noChannel(slice.channel);
        const TimeAxis& axis = m_axes[m_channels[slice.channel].axis];
        if (!axis.irregular) {
            LV_TRY(Recording::readTimes(std::span(&slice, 1), control));
            continue;
        }
        if (slice.firstSample < 0 || slice.firstSample + static_cast<std::int64_t>(slice.outNs.size()) >
                                         static_cast<std::int64_t>(axis.timesNs->size()))
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "samples beyond channel " + m_info.channels[slice.channel].name);
        std::copy_n(axis.timesNs->begin() + slice.firstSample, slice.outNs.size(), slice.outNs.begin());
    }
    return {};
}

core::Result<core::SampleSpan> CdfRecording::samplesIn(std::size_t channel, core::TimeRange range)
{
    if (channel >= m_channels.size() || !m_axes[m_channels[channel].axis].irregular)
        return Recording::samplesIn(channel, range);
    const std::vector<std::int64_t>& times = *m_axes[m_channels[channel].axis].timesNs;
    const auto first = std::lower_bound(times.begin(), times.end(), core::usToNs(range.start));
    const auto last = std::lower_bound(first, times.end(), core::usToNs(range.end));
    return core::SampleSpan{first - times.begin(), last - first};
}

void CdfRecording::warnOnce(std::size_t channel, const std::string& what) const
{
    std::lock_guard lock(m_mutex);
    if (m_warned.insert(channel).second) m_warnings.push_back(what);
}

std::vector<std::string> CdfRecording::takeWarnings()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_warnings, {});
}

} // namespace lv::formats::cdf
