// Tests of a snapshot's channel frame: block references a session's index would not admit are refused.
#include "formats/mef3/SnapshotFormat.h"
#include "formats/mef3/RedBlock.h"
#include "formats/mef3/UniversalHeader.h"

#include <gtest/gtest.h>
#include <zstd.h>

namespace lv::formats::mef3 {
namespace {

// A snapshot held in memory whose one channel frame holds `o`'s bytes.
SnapshotFrames framesOf(const snapshot::Out& o)
{
    SnapshotFrames frames;
    frames.file = "session.lvsnap";
    frames.bytes.resize(ZSTD_compressBound(o.b.size()));
    frames.bytes.resize(ZSTD_compress(frames.bytes.data(), frames.bytes.size(), o.b.data(), o.b.size(), 1));
    frames.channels.push_back({0, frames.bytes.size(), o.b.size()});
    return frames;
}

// One channel frame: one data file and `blocks`.
SnapshotFrames framesWith(const std::vector<BlockRef>& blocks, double fs)
{
    snapshot::Out o;
    snapshot::putStrings(o, {"ch.timd/ch-000000.segd/ch-000000.tdat"});
    snapshot::putBlocks(o, blocks, fs);
    snapshot::putByteRanges(o, {});
    return framesOf(o);
}

BlockRef saneBlock()
{
    BlockRef b;
    b.fileOffset = kUniversalHeaderBytes;
    b.blockBytes = 2000;
    b.sampleCount = 1000;
    return b;
}

TEST(SnapshotChannelFrame, ASaneBlockDecodes)
{
    const auto frame = snapshot::readChannelFrame(framesWith({saneBlock()}, 1000.0), 0, 1000.0);
    ASSERT_TRUE(frame.ok()) << frame.error().message;
    ASSERT_EQ(frame->blocks.size(), 1u);
    EXPECT_EQ(frame->blocks[0].blockBytes, 2000u);
    EXPECT_EQ(frame->blocks[0].sampleCount, 1000u);
}

// Found by fuzz_snapshot: a block shorter than its RED header was parsed past its end, and one of 2^32 samples
// made a read allocate 16 GiB. Neither comes from a session's index (MefLoad and BlockMap drop them).
TEST(SnapshotChannelFrame, BlocksAnIndexWouldNotAdmitAreCorrupt)
{
    const auto with = [](auto change) {
        BlockRef b = saneBlock();
        change(b);
        return b;
    };
    const std::vector<BlockRef> bad = {
        with([](BlockRef& b) { b.blockBytes = 0; }),
        with([](BlockRef& b) { b.blockBytes = kRedHeaderBytes - 1; }),
        with([](BlockRef& b) { b.sampleCount = 0; }),
        with([](BlockRef& b) { b.sampleCount = kMaxBlockSamples + 1; }),
        with([](BlockRef& b) { b.sampleCount = 0xFFFFFFFFu; }),
        with([](BlockRef& b) { b.fileOffset = kUniversalHeaderBytes - 1; }),
    };
    for (std::size_t i = 0; i < bad.size(); ++i) {
        SCOPED_TRACE(i);
        const auto frame = snapshot::readChannelFrame(framesWith({saneBlock(), bad[i]}, 1000.0), 0, 1000.0);
        ASSERT_FALSE(frame.ok());
        EXPECT_EQ(frame.error().code, core::ErrorCode::Corrupt);
        EXPECT_EQ(frame.error().message, "snapshot channel 0 does not decode");
        EXPECT_EQ(frame.error().path, "session.lvsnap");
    }
}

// Found by fuzz_snapshot: a field's delta of -2^63 overflowed the addition (UBSan, the asan preset). Deltas wrap,
// and the block they give is refused.
TEST(SnapshotChannelFrame, ExtremeDeltasWrapAndAreRefused)
{
    snapshot::Out o;
    snapshot::putStrings(o, {"ch.timd/ch-000000.segd/ch-000000.tdat"});
    o.put<std::uint64_t>(1);                  // one block
    o.put<std::uint8_t>(0);                   // every field as predicted but the three deltas
    for (int field = 0; field < 3; ++field) { // blockBytes, minimum, maximum: zig(-2^63) = 2^64 - 1
        for (int i = 0; i < 9; ++i) o.put<std::uint8_t>(0xFF);
        o.put<std::uint8_t>(0x01);
    }
    snapshot::putByteRanges(o, {});
    const auto frame = snapshot::readChannelFrame(framesOf(o), 0, 1000.0);
    ASSERT_FALSE(frame.ok());
    EXPECT_EQ(frame.error().message, "snapshot channel 0 does not decode");
}

} // namespace
} // namespace lv::formats::mef3
