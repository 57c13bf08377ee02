// Test support: a recording held in memory (its description as given, each channel a grid of counts, kNoSample
// where missing), with damaged blocks to report; for writers and wrappers that need exact, known input.
#pragma once

#include "core/Recording.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace lv::test {

class MemoryRecording final : public core::Recording {
public:
    core::RecordingInfo description;
    std::vector<std::vector<std::int32_t>> grids; // per channel, gridLength counts
    std::vector<core::DamagedBlock> damage;       // reported once, by the first read that touches the block
    std::vector<std::string> warnings;            // given out by takeWarnings

    const core::RecordingInfo& info() const override { return description; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override
    {
        for (const core::RawSlice& s : slices) {
            const std::vector<std::int32_t>& grid = grids.at(s.channel);
            for (std::size_t i = 0; i < s.out.size(); ++i) {
                const std::int64_t at = s.firstSample + static_cast<std::int64_t>(i);
                s.out[i] = at >= 0 && at < static_cast<std::int64_t>(grid.size()) ? grid[static_cast<std::size_t>(at)]
                                                                                  : core::kNoSample;
            }
            for (core::DamagedBlock& d : damage) {
                const bool touched = d.channel == s.channel && d.firstSample < s.firstSample + std::ssize(s.out) &&
                                     s.firstSample < d.firstSample + d.sampleCount;
                if (!touched || d.path.empty() || !control.skipDamagedBlocks) continue;
                for (std::int64_t k = std::max(d.firstSample, s.firstSample);
                     k < std::min(d.firstSample + d.sampleCount, s.firstSample + std::ssize(s.out)); ++k)
                    s.out[static_cast<std::size_t>(k - s.firstSample)] = core::kNoSample;
                m_pending.push_back(d);
                d.path.clear(); // reported once
            }
        }
        return {};
    }
    std::vector<std::string> takeWarnings() override { return std::exchange(warnings, {}); }
    std::vector<core::DamagedBlock> takeDamage() override { return std::exchange(m_pending, {}); }

    // A channel of `samples` counts on the grid of `fs` from `start`, counts i * step (kNoSample in [gapFrom,
    // gapTo)), one segment or two around the gap.
    void addChannel(const std::string& name, double fs, core::Uutc start, std::int64_t samples, std::int32_t step = 1,
                    std::int64_t gapFrom = 0, std::int64_t gapTo = 0)
    {
        core::ChannelInfo c;
        c.name = name;
        c.fs = fs;
        c.unit = "uV";
        c.conversionFactor = 0.5;
        c.start = start;
        c.gridLength = samples;
        const core::SampleGrid grid = c.grid();
        c.end = grid.timeOf(samples);
        std::vector<std::int32_t> counts(static_cast<std::size_t>(samples));
        for (std::int64_t i = 0; i < samples; ++i)
            counts[static_cast<std::size_t>(i)] =
                i >= gapFrom && i < gapTo ? core::kNoSample : static_cast<std::int32_t>(i % 1000) * step;
        c.sampleCount = samples - (gapTo - gapFrom);
        if (gapTo > gapFrom) {
            c.segments = {{start, grid.timeOf(gapFrom)}, {grid.timeOf(gapTo), c.end}};
            c.gaps = {{grid.timeOf(gapFrom), grid.timeOf(gapTo)}};
        } else {
            c.segments = {{start, c.end}};
        }
        description.channels.push_back(c);
        grids.push_back(std::move(counts));
        description.start = description.channels.front().start;
        description.end = description.channels.front().end;
        for (const core::ChannelInfo& ch : description.channels) {
            description.start = std::min(description.start, ch.start);
            description.end = std::max(description.end, ch.end);
        }
    }

private:
    std::vector<core::DamagedBlock> m_pending;
};

} // namespace lv::test
