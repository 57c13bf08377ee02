// One channel of a session being written: its segment's .tdat grows block by block; .tidx and .tmet at the end.
#pragma once

#include "core/Error.h"
#include "core/TaskRunner.h"
#include "core/Time.h"
#include "formats/mef3/Metadata.h"
#include "formats/mef3/TimeSeriesIndex.h"

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

struct ChannelWriterSetup {
    std::string channelDir; // the .timd directory (exists)
    std::string name;
    std::string sessionName;
    double fs = 0.0;
    std::string unit;
    double conversionFactor = 1.0;
    std::string description;
    std::int64_t acquisitionNumber = 1;
    std::uint32_t blockSamples = 256;
    ValidationFields validation;
    Access keys; // level-1 key encrypts section 2, level-2 key section 3
    core::TaskRunner* runner = nullptr;
};

class ChannelWriter {
public:
    explicit ChannelWriter(ChannelWriterSetup setup);
    ~ChannelWriter();
    ChannelWriter(const ChannelWriter&) = delete;
    ChannelWriter& operator=(const ChannelWriter&) = delete;

    core::Status open();
    core::Status append(core::SampleGrid grid, std::int64_t firstIndex, std::span<const std::int32_t> samples);
    core::Status finish();
    const std::string& name() const { return m_setup.name; }

private:
    struct Block {
        std::span<const std::int32_t> samples;
        core::Uutc start = 0;
        bool discontinuity = false;
    };
    std::vector<Block> splitIntoBlocks(core::SampleGrid grid, std::int64_t firstIndex,
                                       std::span<const std::int32_t> samples);
    core::Status writeBlocks(const std::vector<Block>& blocks);
    void account(const Block& block, std::uint32_t blockBytes, std::uint32_t differenceBytes, std::int32_t lo,
                 std::int32_t hi);
    TimeSeriesMetadata metadata() const;
    UniversalHeader header(const char* type, std::int64_t entries, std::int64_t maxEntry) const;
    std::string segmentPath(const char* extension) const;
    core::Status writeWhole(const std::string& path, const std::vector<std::uint8_t>& bytes) const;

    ChannelWriterSetup m_setup;
    std::FILE* m_data = nullptr;
    std::uint64_t m_dataBytes = 0;
    std::vector<std::uint8_t> m_index; // entries only
    std::int64_t m_blocks = 0;
    std::int64_t m_samples = 0;
    core::Uutc m_start = 0;
    core::Uutc m_end = 0; // exclusive end of the last block
    core::Uutc m_expectedNext = core::kNoTime;
    std::int32_t m_minimum = 0, m_maximum = 0;
    bool m_haveExtrema = false;
    std::uint32_t m_maxBlockBytes = 0, m_maxBlockSamples = 0, m_maxDifferenceBytes = 0;
    std::int64_t m_discontinuities = 0;
    std::int64_t m_runBlocks = 0, m_runBytes = 0, m_runSamples = 0;
    std::int64_t m_maxRunBlocks = 0, m_maxRunBytes = 0, m_maxRunSamples = 0;
    std::uint32_t m_bodyCrc = 0;
};

} // namespace lv::formats::mef3
