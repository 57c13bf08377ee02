// openMef3: walks the session, checks passwords and headers, places blocks, gathers records as annotations.
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Snapshot.h"

#include "formats/mef3/Records.h"
#include "formats/mef3/SessionLayout.h"
#include "formats/mef3/TimeSeriesIndex.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

// Stored times are negative once the recording time offset (RTO) is applied: true = -stored + RTO.
struct TimeBase {
    std::optional<std::int64_t> offset; // nullopt: protected by a password we do not have
    bool sawOffsetTimes = false;

    core::Uutc toTrue(std::int64_t stored)
    {
        if (stored == kUutcNoEntry || stored >= 0) return stored;
        sawOffsetTimes = true;
        const std::int64_t rto = offset && *offset != kUutcNoEntry ? *offset : 0;
        return -stored + rto;
    }
};

struct OpenState {
    SessionLayout layout;
    std::string password;
    Access access;
    bool accessDecided = false;
    TimeBase time;
    core::RecordingInfo info;
    std::vector<ChannelDetail> details;
};

core::Result<std::vector<std::uint8_t>> readWhole(const io::FileTree& tree, const std::string& file)
{
    auto source = tree.open(file);
    if (!source) return source.error();
    return (*source)->readAll();
}

// Decides the access level from the first metadata file's validation fields.
core::Status decideAccess(OpenState& s, const UniversalHeader& header, const std::string& path)
{
    if (s.accessDecided) return {};
    s.accessDecided = true;
    if (header.passwords.empty() || s.password.empty()) return {};
    s.access = validatePassword(s.password, header.passwords);
    if (s.access.level == 0)
        return makeError(ErrorCode::WrongPassword,
                         "wrong password: it is neither the level-1 nor the level-2 password of this session", path);
    return {};
}

core::Status requireReadable(const OpenState& s, const TimeSeriesMetadata& m, const std::string& path)
{
    if (m.section2Readable) return {};
    const std::string level = std::to_string(m.section2Encryption);
    if (s.password.empty())
        return makeError(ErrorCode::PasswordRequired,
                         "session is encrypted: its channel metadata needs the level-" + level + " password", path);
    return makeError(ErrorCode::WrongPassword,
                     "the password gives level-" + std::to_string(s.access.level) +
                         " access, but the channel metadata needs the level-" + level + " password",
                     path);
}

core::Result<TimeSeriesMetadata> loadMetadata(OpenState& s, const std::string& base)
{
    const io::FileTree& tree = *s.layout.tree;
    const std::string file = base + ".tmet";
    const std::string path = tree.displayPath(file);
    auto bytes = readWhole(tree, file);
    if (!bytes) return bytes.error();
    auto header = parseUniversalHeader(*bytes, path, "tmet");
    if (!header) return header.error();
    LV_TRY(decideAccess(s, *header, path));
    auto metadata = parseTimeSeriesMetadata(*bytes, path, s.access);
    if (!metadata) return metadata.error();
    LV_TRY(requireReadable(s, *metadata, path));
    if (!s.time.offset && metadata->section3Readable) s.time.offset = metadata->section3.recordingTimeOffset;
    return metadata;
}

// Adds one segment's blocks to `blocks`; blocks that run past the data file are dropped with a warning.
core::Status loadSegment(OpenState& s, const SegmentFiles& files, std::uint32_t segment, ChannelDetail& detail,
                         std::vector<BlockRef>& blocks)
{
    const io::FileTree& tree = *s.layout.tree;
    auto indexBytes = readWhole(tree, files.base + ".tidx");
    if (!indexBytes) return indexBytes.error();
    auto index = parseTimeSeriesIndex(*indexBytes, tree.displayPath(files.base + ".tidx"));
    if (!index) return index.error();
    if (index->uncommittedEntries)
        s.layout.warnings.push_back(tree.displayPath(files.base + ".tidx") + ": " +
                                    std::to_string(index->uncommittedEntries) +
                                    " index entries past the last commit ignored (an interrupted append; run recover)");
    auto data = tree.open(files.base + ".tdat");
    if (!data) return data.error();
    auto dataHeader = (*data)->read(0, std::min<std::uint64_t>((*data)->size(), kUniversalHeaderBytes));
    if (!dataHeader) return dataHeader.error();
    auto parsed = parseUniversalHeader(*dataHeader, (*data)->path(), "tdat");
    if (!parsed) return parsed.error();
    const std::uint64_t dataSize = (*data)->size();
    for (std::uint32_t i = 0; i < index->entries.size(); ++i) {
        const IndexEntry& e = index->entries[i];
        if (e.fileOffset < static_cast<std::int64_t>(kUniversalHeaderBytes) || e.blockBytes < 304 ||
            static_cast<std::uint64_t>(e.fileOffset) + e.blockBytes > dataSize) {
            s.layout.warnings.push_back((*data)->path() + ": block " + std::to_string(i) + " at byte " +
                                        std::to_string(e.fileOffset) + " (" + std::to_string(e.blockBytes) +
                                        " bytes) lies outside the file of " + std::to_string(dataSize) +
                                        " bytes: its samples are missing");
            continue;
        }
        BlockRef b;
        b.segment = segment;
        b.indexEntry = i;
        b.fileOffset = e.fileOffset;
        b.blockBytes = e.blockBytes;
        b.sampleCount = e.sampleCount;
        b.startTime = s.time.toTrue(e.startTime);
        b.minimum = e.minimumSampleValue;
        b.maximum = e.maximumSampleValue;
        b.flags = e.redFlags;
        blocks.push_back(b);
    }
    detail.dataFiles.push_back(*data);
    detail.dataPaths.push_back(files.base + ".tdat");
    return {};
}

void fillChannelInfo(core::ChannelInfo& info, const TimeSeriesMetadata& m, const BlockPlacement& p, double fs)
{
    info.fs = fs;
    info.unit = m.section2.unitsDescription;
    info.conversionFactor = m.section2.unitsConversionFactor == 0.0 ? 1.0 : m.section2.unitsConversionFactor;
    info.description = m.section2.channelDescription;
    info.start = p.origin;
    info.gridLength = p.gridLength;
    info.end = info.grid().timeOf(p.gridLength);
    info.sampleCount = p.storedSamples;
    info.gaps = p.gaps;
    info.segments = p.segments;
}

core::Status loadChannel(OpenState& s, const ChannelFiles& files)
{
    ChannelDetail detail;
    std::vector<BlockRef> blocks;
    for (const SegmentFiles& segment : files.segments) {
        auto metadata = loadMetadata(s, segment.base);
        if (!metadata) return metadata.error();
        detail.metadata.push_back(std::move(*metadata));
        LV_TRY(loadSegment(s, segment, static_cast<std::uint32_t>(detail.metadata.size() - 1), detail, blocks));
    }
    core::ChannelInfo info;
    info.name = files.name;
    if (detail.metadata.empty()) {
        s.layout.warnings.push_back("channel " + files.name + " has no segments");
    } else {
        const double fs = detail.metadata.front().section2.samplingFrequency;
        if (!(fs > 0.0) || !std::isfinite(fs))
            return makeError(ErrorCode::Corrupt, "sampling frequency " + std::to_string(fs) + " is impossible",
                             s.layout.tree->displayPath(files.segments.front().base + ".tmet"), 8720);
        const BlockPlacement placement = placeBlocks(blocks, fs, detail.metadata.size());
        if (placement.overlaps > 0)
            s.layout.warnings.push_back("channel " + files.name + ": " + std::to_string(placement.overlaps) +
                                        " blocks overlap their predecessor in time and were placed after it");
        fillChannelInfo(info, detail.metadata.front(), placement, fs);
    }
    detail.blocks = std::move(blocks);
    s.info.channels.push_back(std::move(info));
    s.details.push_back(std::move(detail));
    return {};
}

// Records of one level (session, channel or segment) become annotations.
core::Status loadRecords(OpenState& s, const std::string& base, const std::optional<std::string>& channel)
{
    if (base.empty()) return {};
    const io::FileTree& tree = *s.layout.tree;
    auto bytes = readWhole(tree, base + ".rdat");
    if (!bytes) return bytes.error();
    auto records = parseRecords(*bytes, tree.displayPath(base + ".rdat"), s.access);
    if (!records) return records.error();
    for (std::string& w : records->warnings) s.layout.warnings.push_back(std::move(w));
    std::size_t hidden = 0;
    for (const Record& r : records->records) {
        if (!r.readable) ++hidden;
        s.info.annotations.push_back(core::Annotation{s.time.toTrue(r.time), r.durationUs, r.type,
                                                      r.readable ? r.text : std::string(), channel});
    }
    if (hidden > 0)
        s.layout.warnings.push_back(tree.displayPath(base + ".rdat") + ": the text of " + std::to_string(hidden) +
                                    " records needs a higher-level password");
    return {};
}

core::Status loadAllRecords(OpenState& s)
{
    LV_TRY(loadRecords(s, s.layout.recordsBase, std::nullopt));
    for (const ChannelFiles& c : s.layout.channels) {
        LV_TRY(loadRecords(s, c.recordsBase, c.name));
        for (const SegmentFiles& seg : c.segments) LV_TRY(loadRecords(s, seg.recordsBase, c.name));
    }
    std::stable_sort(s.info.annotations.begin(), s.info.annotations.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    return {};
}

// Without the recording time offset, times are shifted to start at zero and flagged as relative.
void makeTimesRelative(OpenState& s)
{
    const core::Uutc origin = s.info.start;
    auto shift = [origin](core::TimeRange& r) { r.start -= origin, r.end -= origin; };
    for (std::size_t c = 0; c < s.info.channels.size(); ++c) {
        core::ChannelInfo& ch = s.info.channels[c];
        ch.start -= origin;
        ch.end -= origin;
        for (auto& r : ch.gaps) shift(r);
        for (auto& r : ch.segments) shift(r);
        for (BlockRef& b : s.details[c].blocks) b.startTime -= origin;
    }
    for (core::Annotation& a : s.info.annotations) a.time -= origin;
    s.info.start = 0;
    s.info.end -= origin;
    s.info.timesKnown = false;
    s.layout.warnings.push_back("the recording time offset is protected by the level-2 password: times are "
                                "relative to the recording start, not true dates");
}

void computeSpan(OpenState& s)
{
    bool first = true;
    for (const core::ChannelInfo& c : s.info.channels) {
        if (c.gridLength == 0) continue;
        s.info.start = first ? c.start : std::min(s.info.start, c.start);
        s.info.end = first ? c.end : std::max(s.info.end, c.end);
        first = false;
    }
}

} // namespace

void MefRecording::makeSpans()
{
    m_spans.clear();
    for (const ChannelDetail& d : m_details) {
        std::vector<core::BlockSpan>& spans = m_spans.emplace_back();
        for (const BlockRef& b : d.blocks)
            spans.push_back({b.gridIndex, b.sampleCount, b.minimum, b.maximum, b.minimum != INT32_MIN});
    }
}

core::Result<std::unique_ptr<MefRecording>> openMef3(const std::string& path, const OpenOptions& options)
{
    const bool snapshots = !options.snapshotDirectory.empty() && options.password.empty();
    if (snapshots)
        if (auto snapshot = loadSnapshot(path, options.snapshotDirectory)) return std::move(*snapshot);
    auto layout = discoverSession(path);
    if (!layout) return layout.error();
    const auto fingerprint = snapshots ? takeFingerprint(*layout) : core::Result<Fingerprint>(Fingerprint{});
    OpenState s;
    s.layout = std::move(*layout);
    s.password = options.password;
    for (const ChannelFiles& c : s.layout.channels) LV_TRY(loadChannel(s, c));
    LV_TRY(loadAllRecords(s));
    computeSpan(s);
    if (s.time.sawOffsetTimes && !s.time.offset) makeTimesRelative(s);

    auto recording = std::unique_ptr<MefRecording>(new MefRecording());
    s.info.format = "MEF 3.0";
    s.info.path = path;
    s.info.warnings = std::move(s.layout.warnings);
    recording->m_info = std::move(s.info);
    recording->m_details = std::move(s.details);
    recording->m_tree = s.layout.tree;
    recording->makeSpans();
    recording->m_access = s.access;
    if (snapshots && fingerprint && recording->accessLevel() == 0)
        (void)saveSnapshot(*recording, *fingerprint, options.snapshotDirectory); // a cache: failure only costs speed
    return recording;
}

} // namespace lv::formats::mef3
