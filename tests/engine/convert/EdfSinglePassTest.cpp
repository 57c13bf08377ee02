// The EDF+ writer's one-pass path: where a block index predicts extrema and gaps, the output is byte for byte the
// two-pass output and every sample is read once; where the prediction is wrong (a NaN inside a block, extrema the
// index gets wrong, a range that cuts blocks), the writer notices and the output is still the two-pass output.
#include "convert/EdfExport.h"
#include "core/BlockSource.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <atomic>
#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

constexpr core::Uutc kT0 = 1'700'000'000'000'000;

// Channels in memory, stored in blocks of 100 samples wherever samples exist; reads are counted.
class MemoryRecording final : public core::Recording, public core::BlockSource {
public:
    // `samples[c]` on a 200 Hz grid from kT0 (kNoSample: none); blocks cover runs of present samples, except
    // that a block also covers the `nanInside` samples of channel 0 (a NaN stored inside a block).
    MemoryRecording(std::vector<std::vector<std::int32_t>> samples, std::vector<std::int64_t> nanInside = {})
        : m_samples(std::move(samples))
    {
        m_info.format = "memory";
        m_info.path = "memory";
        m_info.start = kT0;
        m_blocks.resize(m_samples.size());
        for (std::size_t c = 0; c < m_samples.size(); ++c) {
            core::ChannelInfo ch;
            ch.name = "c" + std::to_string(c);
            ch.fs = 200;
            ch.unit = "uV";
            ch.conversionFactor = 0.5;
            ch.start = kT0;
            ch.gridLength = static_cast<std::int64_t>(m_samples[c].size());
            ch.end = ch.grid().timeOf(ch.gridLength);
            const auto& s = m_samples[c];
            for (std::int64_t i = 0; i < ch.gridLength;) {
                const bool inside = c == 0 && std::count(nanInside.begin(), nanInside.end(), i);
                if (s[static_cast<std::size_t>(i)] == core::kNoSample && !inside) {
                    std::int64_t j = i;
                    while (j < ch.gridLength && s[static_cast<std::size_t>(j)] == core::kNoSample) ++j;
                    ch.gaps.push_back({ch.grid().timeOf(i), ch.grid().timeOf(j)});
                    i = j;
                    continue;
                }
                core::BlockSpan b{i, 0, INT32_MAX, INT32_MIN, true};
                while (b.count < 100 && i < ch.gridLength &&
                       (s[static_cast<std::size_t>(i)] != core::kNoSample ||
                        (c == 0 && std::count(nanInside.begin(), nanInside.end(), i)))) {
                    if (s[static_cast<std::size_t>(i)] != core::kNoSample)
                        b.minimum = std::min(b.minimum, s[static_cast<std::size_t>(i)]),
                        b.maximum = std::max(b.maximum, s[static_cast<std::size_t>(i)]), ++ch.sampleCount;
                    ++b.count, ++i;
                }
                m_blocks[c].push_back(b);
            }
            m_info.end = std::max(m_info.end, ch.end);
            m_info.channels.push_back(std::move(ch));
        }
        m_info.annotations.push_back({kT0 + 1'500'000, 0, "Note", "marker", std::nullopt});
    }

    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl&) override
    {
        for (const core::RawSlice& s : slices) {
            std::copy_n(m_samples[s.channel].begin() + s.firstSample, s.out.size(), s.out.begin());
            m_read += s.out.size();
        }
        return {};
    }
    const core::BlockSource* blockSource() const override { return m_offerBlocks ? this : nullptr; }
    std::span<const core::BlockSpan> blocks(std::size_t channel) const override { return m_blocks[channel]; }
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl&) const override
    {
        const core::BlockSpan& b = m_blocks[channel][block];
        std::copy_n(m_samples[channel].begin() + b.first, b.count, out.begin());
        m_decoded += b.count;
        return {};
    }

    void offerBlocks(bool on) { m_offerBlocks = on; }
    // The index of block `block` of channel c says these extrema (a damaged or stale index).
    void setStoredExtrema(std::size_t c, std::size_t block, std::int32_t minimum, std::int32_t maximum)
    {
        m_blocks[c][block].minimum = minimum, m_blocks[c][block].maximum = maximum;
    }
    std::uint64_t samplesRead() const { return m_read + m_decoded; }
    void resetCounts() { m_read = 0, m_decoded = 0; }

private:
    std::vector<std::vector<std::int32_t>> m_samples;
    std::vector<std::vector<core::BlockSpan>> m_blocks;
    core::RecordingInfo m_info;
    bool m_offerBlocks = true;
    std::uint64_t m_read = 0;
    mutable std::uint64_t m_decoded = 0;
};

// Three channels of 20 s at 200 Hz; channel 1 has a pause from 5 s to 7.5 s, channel 2 from 12 s to the end.
std::vector<std::vector<std::int32_t>> signal()
{
    std::vector<std::vector<std::int32_t>> s(3, std::vector<std::int32_t>(4000));
    for (std::size_t c = 0; c < 3; ++c)
        for (std::size_t i = 0; i < 4000; ++i)
            s[c][i] = static_cast<std::int32_t>((i * 37 + c * 1000) % 2001) - 1000 + static_cast<std::int32_t>(c);
    std::fill(s[1].begin() + 1000, s[1].begin() + 1500, core::kNoSample);
    std::fill(s[2].begin() + 2400, s[2].end(), core::kNoSample);
    return s;
}

class EdfSinglePass : public ::testing::TestWithParam<GapPolicy> {
protected:
    // The EDF written from `r` with and without its block index: the files' bytes, and how many samples each read.
    void compare(MemoryRecording& r, core::TimeRange range, std::uint64_t* fastReads = nullptr)
    {
        const EdfExportOptions options{{}, range, false, GetParam(), 7.5};
        std::vector<std::string> bytes[2];
        std::uint64_t reads[2] = {0, 0};
        for (int exact = 0; exact < 2; ++exact) {
            r.offerBlocks(exact == 0);
            r.resetCounts();
            const fs::path out = m_dir.path() / (std::to_string(m_count++) + ".edf");
            auto written = exportEdf(r, options, out.string(), {});
            ASSERT_TRUE(written.ok()) << written.error().describe();
            for (const std::string& f : written->files) {
                const auto b = test::readBytes(f);
                bytes[exact].emplace_back(b.begin(), b.end());
            }
            reads[exact] = r.samplesRead();
        }
        ASSERT_EQ(bytes[0].size(), bytes[1].size());
        for (std::size_t i = 0; i < bytes[0].size(); ++i) EXPECT_TRUE(bytes[0][i] == bytes[1][i]) << "file " << i;
        if (!fastReads) return;
        *fastReads = reads[0];
        EXPECT_LE(reads[0] * 2, reads[1] + 400); // the exact path reads everything twice
    }
    test::TempDir m_dir;
    int m_count = 0;
};

TEST_P(EdfSinglePass, ThePredictionWritesTheTwoPassBytesReadingEverySampleOnce)
{
    MemoryRecording r(signal());
    std::uint64_t reads = 0;
    compare(r, {kT0, kT0 + 20'000'000}, &reads);
    EXPECT_LE(reads, 3u * 4000u); // once (records past a channel's end are not read)
}

TEST_P(EdfSinglePass, ARangeThatCutsBlocksDecodesOnlyTheCutOnes)
{
    MemoryRecording r(signal());
    compare(r, {kT0 + 1'234'000, kT0 + 17'777'000});
}

TEST_P(EdfSinglePass, ANanInsideABlockIsNoticedAndTheOutputIsTheTwoPassOne)
{
    auto s = signal();
    s[0][333] = core::kNoSample; // inside a block: the index cannot tell
    s[0][334] = core::kNoSample;
    MemoryRecording r(s, {333, 334});
    compare(r, {kT0, kT0 + 20'000'000});
}

TEST_P(EdfSinglePass, AnIndexWhoseExtremaAreWrongIsNoticed)
{
    MemoryRecording r(signal());
    r.setStoredExtrema(0, 3, -5, 70000); // the data stays within +-1000: another range and scale if believed
    compare(r, {kT0, kT0 + 20'000'000});
}

INSTANTIATE_TEST_SUITE_P(Policies, EdfSinglePass,
                         ::testing::Values(GapPolicy::Discontinuous, GapPolicy::Split, GapPolicy::Fill));

} // namespace
} // namespace lv::convert
