// Byte encoding of snapshot files (internal to the snapshot code): little-endian fields, bounds-checked reads,
// varint-coded block references, and the checksum over a whole file.
#pragma once

#include "core/ByteFields.h"
#include "core/Error.h"
#include "core/RecordingInfo.h"
#include "formats/mef3/BlockMap.h"
#include "formats/mef3/Fingerprint.h"
#include "io/FileTree.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

// A snapshot file held in memory, checked whole when read: where each channel's compressed frame lies.
struct SnapshotFrames {
    struct Frame {
        std::size_t offset = 0;
        std::size_t size = 0;
        std::uint64_t contentSize = 0; // decompressed bytes, from the frame header
    };
    std::string file; // for messages
    std::vector<std::uint8_t> bytes;
    std::vector<Frame> channels;
    std::vector<Frame> files; // per channel: its data paths and segment stamps (FilesFrame)
};

} // namespace lv::formats::mef3

namespace lv::formats::mef3::snapshot {

// The file format's version (after the magic "LVSNAP01"): bumped whenever the layout or what the reader computes
// changes. 6: every segment's files stamped (FilesFrame). 7: the origin of relative times kept. 8: the session
// description (RecordingInfo::description) kept.
inline constexpr std::uint32_t kSnapshotVersion = 8;

// One channel's frame: its data files' tree paths, its block references, and for an archive where each data file
// lies in it (empty otherwise, or when unknown: the archive is then indexed to find them).
struct ChannelFrame {
    std::vector<std::string> dataPaths;
    std::vector<BlockRef> blocks;
    std::vector<io::ByteRange> archiveRanges;
};
// Decompresses and decodes channel `channel` (rate `fs`); a Corrupt error when it does not decode whole.
core::Result<ChannelFrame> readChannelFrame(const SnapshotFrames& frames, std::size_t channel, double fs);

// One channel's files frame: its data files' tree paths and its segments' stamps (none for an archive, where the
// archive's own stamp counts), small so that the full check does not decode blocks.
struct FilesFrame {
    std::vector<std::string> dataPaths;
    std::vector<SegmentStamp> stamps;
};
core::Result<FilesFrame> readFilesFrame(const SnapshotFrames& frames, std::size_t channel);

using Out = core::ByteWriter;
using In = core::ByteReader;

void putStrings(Out& o, const std::vector<std::string>& list);
std::vector<std::string> getStrings(In& in);

void putByteRanges(Out& o, const std::vector<io::ByteRange>& ranges);
std::vector<io::ByteRange> getByteRanges(In& in);

void putStamps(Out& o, const std::vector<SegmentStamp>& stamps);
std::vector<SegmentStamp> getStamps(In& in);

void putFingerprint(Out& o, const Fingerprint& f);
Fingerprint getFingerprint(In& in);

void putChannel(Out& o, const core::ChannelInfo& c);
core::ChannelInfo getChannel(In& in);

void putAnnotation(Out& o, const core::Annotation& a);
core::Annotation getAnnotation(In& in);

// Block references as differences from what the previous block predicts; `fs` is the channel's rate.
void putBlocks(Out& o, const std::vector<BlockRef>& blocks, double fs);
std::vector<BlockRef> getBlocks(In& in, double fs);

// A 64-bit checksum of a whole file: any change of one 8-byte word changes it, others almost surely.
std::uint64_t checksum(std::span<const std::uint8_t> bytes);

} // namespace lv::formats::mef3::snapshot
