// Test support: irregular channels held in memory (each sample at its own time in ns, counts with kNoSample where
// invalid), cut into blocks of sample indices, as a Recording and a BlockSource (what the viewer opens).
#pragma once

#include "core/BlockSource.h"
#include "core/IrregularTimes.h"
#include "core/Recording.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace lv::test {

class IrregularRecording final : public core::Recording, public core::BlockSource {
public:
    struct Channel {
        std::vector<std::int64_t> timesNs; // non-decreasing
        std::vector<std::int32_t> counts;
        std::vector<core::BlockSpan> blocks;
    };
    core::RecordingInfo description;
    std::vector<Channel> channels;
    std::shared_ptr<std::atomic<int>> decodeCount = std::make_shared<std::atomic<int>>(0); // movable

    int decodes() const { return decodeCount->load(); }

    // An irregular channel of these samples in blocks of `blockSamples`; fs, segments and gaps from the times.
    void addChannel(const std::string& name, std::vector<std::int64_t> timesNs, std::vector<std::int32_t> counts,
                    std::uint32_t blockSamples = 64, double factor = 0.5, std::string unit = "V")
    {
        core::ChannelInfo c;
        c.name = name;
        c.unit = std::move(unit); // (assigning a literal trips GCC 12's -Wrestrict here)
        c.conversionFactor = factor;
        c.irregular = true;
        c.timeBase = static_cast<int>(channels.size());
        const core::IrregularLayout layout = core::layoutOfTimes(timesNs, core::kIrregularGapFactor);
        c.fs = layout.fs;
        c.segments = layout.segments;
        c.gaps = layout.gaps;
        c.gridLength = c.sampleCount = static_cast<std::int64_t>(timesNs.size());
        c.start = timesNs.empty() ? 0 : core::nsToUs(timesNs.front());
        c.end = timesNs.empty() ? 0 : core::nsToUs(timesNs.back()) + 1;
        Channel ch{std::move(timesNs), std::move(counts), {}};
        for (std::int64_t at = 0; at < c.sampleCount; at += blockSamples)
            ch.blocks.push_back(
                {at, static_cast<std::uint32_t>(std::min<std::int64_t>(blockSamples, c.sampleCount - at))});
        description.channels.push_back(c);
        channels.push_back(std::move(ch));
        description.start = description.channels.front().start;
        description.end = description.channels.front().end;
        for (const core::ChannelInfo& i : description.channels) {
            description.start = std::min(description.start, i.start);
            description.end = std::max(description.end, i.end);
        }
    }

    const core::RecordingInfo& info() const override { return description; }
    const core::BlockSource* blockSource() const override { return this; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl&) override
    {
        for (const core::RawSlice& s : slices) {
            const std::vector<std::int32_t>& counts = channels.at(s.channel).counts;
            for (std::size_t i = 0; i < s.out.size(); ++i) {
                const std::int64_t at = s.firstSample + static_cast<std::int64_t>(i);
                s.out[i] = at >= 0 && at < std::ssize(counts) ? counts[static_cast<std::size_t>(at)] : core::kNoSample;
            }
        }
        return {};
    }
    core::Status readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl&) override
    {
        for (const core::TimeSlice& s : slices) {
            const std::vector<std::int64_t>& times = channels.at(s.channel).timesNs;
            if (s.firstSample < 0 || s.firstSample + std::ssize(s.outNs) > std::ssize(times))
                return core::makeError(core::ErrorCode::InvalidArgument, "samples beyond the channel");
            std::copy_n(times.begin() + s.firstSample, s.outNs.size(), s.outNs.begin());
        }
        return {};
    }
    core::Result<core::SampleSpan> samplesIn(std::size_t channel, core::TimeRange range) override
    {
        const std::vector<std::int64_t>& times = channels.at(channel).timesNs;
        const auto first = std::lower_bound(times.begin(), times.end(), core::usToNs(range.start));
        const auto last = std::lower_bound(first, times.end(), core::usToNs(range.end));
        return core::SampleSpan{first - times.begin(), last - first};
    }

    std::span<const core::BlockSpan> blocks(std::size_t channel) const override { return channels.at(channel).blocks; }
    bool storesExtrema() const override { return false; }
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl&) const override
    {
        ++*decodeCount;
        const Channel& ch = channels.at(channel);
        const core::BlockSpan& s = ch.blocks.at(block);
        std::copy_n(ch.counts.begin() + s.first, s.count, out.begin());
        return {};
    }
};

} // namespace lv::test
