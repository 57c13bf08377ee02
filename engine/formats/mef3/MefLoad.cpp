// Reading a session's files for openMef3: passwords and headers checked, blocks placed, records as annotations.
#include "formats/mef3/MefLoad.h"

#include "core/TimeFormat.h"
#include "formats/mef3/MetadataChecks.h"
#include "formats/mef3/Records.h"
#include "formats/mef3/TimeSeriesIndex.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <thread>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

core::Uutc TimeBase::toTrue(std::int64_t stored)
{
    if (stored == kUutcNoEntry || stored >= 0) return stored;
    sawOffsetTimes = true;
    const std::int64_t rto = offset && *offset != kUutcNoEntry ? *offset : 0;
    return core::saturatingAdd(-stored, rto);
}

namespace {

std::string number(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", v);
    return text;
}

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

void readSubject(OpenState& s, const Section3& section)
{
    s.subjectRead = true;
    s.subject.id = section.subjectId;
    s.subject.name = section.subjectName1;
    if (!section.subjectName2.empty()) s.subject.name += (s.subject.name.empty() ? "" : " ") + section.subjectName2;
    s.site.location = section.recordingLocation;
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
    LV_TRY(checkMetadataFields(*metadata, path));
    LV_TRY(requireReadable(s, *metadata, path));
    if (!s.time.offset && metadata->section3Readable) s.time.offset = metadata->section3.recordingTimeOffset;
    if (!s.subjectRead && metadata->section3Readable) readSubject(s, metadata->section3);
    if (!s.descriptionRead && metadata->section2Readable) {
        s.descriptionRead = true;
        s.description = metadata->section2.sessionDescription;
    }
    return metadata;
}

// The segment's span from its metadata's universal header, when its times are stored as the index's are
// (meflib writes some headers in true times, the index in offset times: the two cannot be compared then).
SegmentSpan headerSpan(TimeBase& time, const UniversalHeader& h, const std::vector<IndexEntry>& entries)
{
    if (entries.empty() || h.startTime == kUutcNoEntry || h.endTime == kUutcNoEntry) return {};
    const bool offsetTimes = entries.front().startTime < 0;
    if ((h.startTime < 0) != offsetTimes || (h.endTime < 0) != offsetTimes) return {};
    return {time.toTrue(h.startTime), time.toTrue(h.endTime)};
}

// The segment's first block against the start time each of its three headers gives (meflib writes some in true
// times, the index in offset times: those are compared as true times, when the offset is known). All writers seen
// agree to the microsecond; a difference is a damaged time, said so (the index's times are kept).
void checkSegmentStart(OpenState& s, const std::vector<IndexEntry>& entries,
                       std::initializer_list<std::pair<const UniversalHeader*, std::string>> headers,
                       std::vector<std::string>& warnings)
{
    if (entries.empty() || entries.front().startTime == kUutcNoEntry) return;
    const std::int64_t first = entries.front().startTime;
    const bool offsetKnown = s.time.offset && *s.time.offset != kUutcNoEntry;
    for (const auto& [header, path] : headers) {
        const std::int64_t start = header->startTime;
        if (start == kUutcNoEntry) continue;
        const bool sameForm = (start < 0) == (first < 0);
        if (!sameForm && !offsetKnown) continue;
        const core::Uutc said = s.time.toTrue(start);
        const core::Uutc indexed = s.time.toTrue(first);
        if (said == indexed) continue;
        warnings.push_back(path + ": its header says the segment starts at " + core::formatIso(said) +
                           ", its index's first block at " + core::formatIso(indexed) +
                           (sameForm ? "" : " (with the recording time offset)") +
                           ": one of the times is damaged; the index's times are used");
    }
}

// The segment's samples at `fs` must fit in its header's span: blocks never overlap, gaps only lengthen the span.
// Half again longer is a damaged rate (or damaged header times), which would place every block outside the span.
// Blocks that start at or after the span's end are not counted: an append interrupted between its index and its
// metadata leaves them (screenSegmentBlocks keeps those that continue the blocks before them, drops the others).
core::Status checkRateAgainstSpan(const std::vector<BlockRef>& blocks, double fs, SegmentSpan span,
                                  const std::string& metadataPath)
{
    if (span.start == core::kNoTime || span.end == core::kNoTime || span.end <= span.start) return {};
    double samples = 0;
    for (const BlockRef& b : blocks)
        samples += b.sampleCount <= kMaxBlockSamples && b.startTime < span.end ? b.sampleCount : 0;
    const double lasts = samples / fs * 1e6;
    const double spanUs = static_cast<double>(span.end - span.start);
    if (lasts <= 1.5 * spanUs + 2e6 / fs + 1) return {};
    return makeError(ErrorCode::Corrupt,
                     "its " + number(samples) + " samples at the sampling frequency of " + number(fs) + " Hz last " +
                         number(lasts / 1e6) + " s, but its header's span is " + number(spanUs / 1e6) +
                         " s: the sampling frequency or the header times are damaged",
                     metadataPath, kSamplingFrequencyOffset);
}

// Adds one segment's blocks to `blocks`; blocks that run past the data file are dropped with a warning.
core::Status loadSegment(OpenState& s, const SegmentFiles& files, std::uint32_t segment, LoadedChannel& c,
                         std::vector<BlockRef>& blocks)
{
    const io::FileTree& tree = *s.layout.tree;
    auto indexBytes = readWhole(tree, files.base + ".tidx");
    if (!indexBytes) return indexBytes.error();
    auto index = parseTimeSeriesIndex(*indexBytes, tree.displayPath(files.base + ".tidx"));
    if (!index) return index.error();
    if (index->uncommittedEntries)
        c.warnings.push_back(tree.displayPath(files.base + ".tidx") + ": " + std::to_string(index->uncommittedEntries) +
                             " index entries past the last commit ignored (an interrupted append; run recover)");
    auto data = tree.open(files.base + ".tdat");
    if (!data) return data.error();
    auto dataHeader = (*data)->read(0, std::min<std::uint64_t>((*data)->size(), kUniversalHeaderBytes));
    if (!dataHeader) return dataHeader.error();
    auto parsed = parseUniversalHeader(*dataHeader, (*data)->path(), "tdat");
    if (!parsed) return parsed.error();
    const std::uint64_t dataSize = (*data)->size();
    checkSegmentStart(s, index->entries,
                      {{&c.detail.metadata.back().header, tree.displayPath(files.base + ".tmet")},
                       {&index->header, tree.displayPath(files.base + ".tidx")},
                       {&*parsed, (*data)->path()}},
                      c.warnings);
    std::vector<BlockRef> own;
    for (std::uint32_t i = 0; i < index->entries.size(); ++i) {
        const IndexEntry& e = index->entries[i];
        if (e.fileOffset < static_cast<std::int64_t>(kUniversalHeaderBytes) || e.blockBytes < 304 ||
            static_cast<std::uint64_t>(e.fileOffset) + e.blockBytes > dataSize) {
            c.warnings.push_back((*data)->path() + ": block " + std::to_string(i) + " at byte " +
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
        own.push_back(b);
    }
    const double fs = c.detail.metadata.front().section2.samplingFrequency;
    if (core::plausibleSamplingRate(fs)) {
        const SegmentSpan span = headerSpan(s.time, c.detail.metadata.back().header, index->entries);
        LV_TRY(checkRateAgainstSpan(own, fs, span, tree.displayPath(files.base + ".tmet")));
        for (std::string& w : screenSegmentBlocks(own, fs, span, tree.displayPath(files.base + ".tidx")))
            c.warnings.push_back(std::move(w));
    }
    blocks.insert(blocks.end(), own.begin(), own.end());
    c.detail.dataFiles.push_back(*data);
    c.detail.dataPaths.push_back(files.base + ".tdat");
    return {};
}

// The grid a read walks, bounded by what the files hold: gaps may be long (segments recorded apart), but not so
// long that walking them takes far longer than reading the samples. Longer: the block times are damaged in a way
// the header does not confine (its own times are missing or damaged too).
core::Status checkSpan(const BlockPlacement& p, const std::string& channel, const std::string& path)
{
    constexpr std::int64_t kGapAllowance = std::int64_t{1} << 32;
    if (p.gridLength <= kGapAllowance || (p.gridLength - kGapAllowance) / 1024 <= p.storedSamples) return {};
    return makeError(ErrorCode::Corrupt,
                     "channel " + channel + ": its block times span " + std::to_string(p.gridLength) +
                         " sample times but its blocks hold " + std::to_string(p.storedSamples) +
                         " samples: the block times are damaged",
                     path);
}

void fillChannelInfo(core::ChannelInfo& info, const TimeSeriesMetadata& m, const BlockPlacement& p, double fs)
{
    info.fs = fs;
    info.unit = m.section2.unitsDescription;
    info.conversionFactor = effectiveConversionFactor(m.section2);
    info.description = m.section2.channelDescription;
    info.start = p.origin;
    info.gridLength = p.gridLength;
    info.end = info.grid().timeOf(p.gridLength);
    info.sampleCount = p.storedSamples;
    info.gaps = p.gaps;
    info.segments = p.segments;
}

} // namespace

core::Result<LoadedChannel> loadChannel(OpenState& s, const ChannelFiles& files)
{
    LoadedChannel c;
    ChannelDetail& detail = c.detail;
    std::vector<BlockRef> blocks;
    for (const SegmentFiles& segment : files.segments) {
        auto metadata = loadMetadata(s, segment.base);
        if (!metadata) return metadata.error();
        if (auto note = conversionFactorNote(*metadata))
            c.warnings.push_back(s.layout.tree->displayPath(segment.base + ".tmet") + ": " + *note);
        detail.metadata.push_back(std::move(*metadata));
        LV_TRY(loadSegment(s, segment, static_cast<std::uint32_t>(detail.metadata.size() - 1), c, blocks));
    }
    c.info.name = files.name;
    if (detail.metadata.empty()) {
        c.warnings.push_back(s.layout.tree->displayPath(files.dir) + ": channel " + files.name + " has no segments");
    } else {
        const double fs = detail.metadata.front().section2.samplingFrequency;
        if (const std::string problem = core::samplingRateProblem(fs, "sampling frequency"); !problem.empty())
            return makeError(ErrorCode::Corrupt, problem,
                             s.layout.tree->displayPath(files.segments.front().base + ".tmet"),
                             kSamplingFrequencyOffset);
        for (std::size_t k = 1; k < detail.metadata.size(); ++k)
            if (const double other = detail.metadata[k].section2.samplingFrequency; other != fs)
                return makeError(ErrorCode::Corrupt,
                                 "sampling frequency " + number(other) + " Hz differs from the channel's " +
                                     number(fs) + " Hz (in " +
                                     std::filesystem::path(files.segments.front().base).filename().string() + ".tmet" +
                                     "): segments of one channel have one rate",
                                 s.layout.tree->displayPath(files.segments[k].base + ".tmet"), 8720);
        const BlockPlacement placement = placeBlocks(blocks, fs, detail.metadata.size());
        LV_TRY(checkSpan(placement, files.name, s.layout.tree->displayPath(files.segments.front().base + ".tidx")));
        if (placement.overlaps > 0)
            c.warnings.push_back("channel " + files.name + ": " + std::to_string(placement.overlaps) +
                                 " blocks overlap their predecessor in time and were placed after it");
        fillChannelInfo(c.info, detail.metadata.front(), placement, fs);
    }
    blocks.shrink_to_fit(); // grown by doubling: up to half of it unused (13 MB for 64 ch x 12 h of 10 s blocks)
    detail.blocks = std::move(blocks);
    return c;
}

namespace {

// What loadChannel reads and updates of the session state, without the session's file lists.
OpenState forkState(const OpenState& s)
{
    OpenState t;
    t.layout.tree = s.layout.tree;
    t.layout.sessionDir = s.layout.sessionDir;
    t.password = s.password;
    t.access = s.access;
    t.accessDecided = s.accessDecided;
    t.time = s.time;
    t.subjectRead = s.subjectRead;
    t.descriptionRead = s.descriptionRead;
    return t;
}

// Channels [1, n) on `threads` threads; results[c] holds channel c's outcome.
void loadRestInParallel(OpenState& s, unsigned threads, std::vector<core::Result<LoadedChannel>>& results)
{
    const std::size_t n = s.layout.channels.size();
    std::atomic<std::size_t> next{1};
    std::vector<char> sawOffsetTimes(n, 0); // not vector<bool>: threads write neighbours
    auto work = [&] {
        for (std::size_t c; (c = next.fetch_add(1)) < n;) {
            OpenState own = forkState(s);
            results[c] = loadChannel(own, s.layout.channels[c]);
            sawOffsetTimes[c] = own.time.sawOffsetTimes;
        }
    };
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < std::min<std::size_t>(threads, n - 1); ++i) {
        try {
            pool.emplace_back(work);
        } catch (const std::system_error&) { // no more threads to be had: fewer do the same work
            break;
        }
    }
    work();
    for (std::thread& t : pool) t.join();
    for (std::size_t c = 1; c < n; ++c)
        if (sawOffsetTimes[c]) s.time.sawOffsetTimes = true;
}

} // namespace

core::Result<std::vector<LoadedChannel>> loadChannels(OpenState& s, unsigned threads)
{
    const std::size_t n = s.layout.channels.size();
    std::vector<core::Result<LoadedChannel>> results(n, core::Result<LoadedChannel>(LoadedChannel{}));
    if (n > 0) results[0] = loadChannel(s, s.layout.channels[0]);
    // In parallel only once the first channel has settled what later ones would otherwise settle in order.
    const bool settled = n > 0 && results[0] && s.accessDecided && s.time.offset.has_value();
    if (settled && threads > 1 && n > 2)
        loadRestInParallel(s, threads, results);
    else
        for (std::size_t c = 1; c < n && results[c - 1]; ++c) results[c] = loadChannel(s, s.layout.channels[c]);
    std::vector<LoadedChannel> channels;
    channels.reserve(n);
    for (auto& r : results) {
        if (!r) return r.error();
        channels.push_back(std::move(*r));
    }
    return channels;
}

core::Status loadRecords(OpenState& s, const std::string& base, const std::optional<std::string>& channel,
                         std::vector<core::Annotation>& annotations, std::vector<std::string>& warnings)
{
    if (base.empty()) return {};
    const io::FileTree& tree = *s.layout.tree;
    // Records are annotations, not samples: a record file that cannot be read is a warning, the channels still read.
    const auto unread = [&](const core::Error& e) {
        warnings.push_back(e.describe() + ": its records are not read (recover moves the file aside)");
        return core::Status{};
    };
    auto bytes = readWhole(tree, base + ".rdat");
    if (!bytes) return unread(bytes.error());
    auto records = parseRecords(*bytes, tree.displayPath(base + ".rdat"), s.access);
    if (!records) return unread(records.error());
    for (std::string& w : records->warnings) warnings.push_back(std::move(w));
    std::size_t hidden = 0;
    for (const Record& r : records->records) {
        if (!r.readable) ++hidden;
        annotations.push_back(core::Annotation{s.time.toTrue(r.time), r.durationUs, r.type,
                                               r.readable ? r.text : std::string(), channel});
    }
    if (hidden > 0)
        warnings.push_back(tree.displayPath(base + ".rdat") + ": the text of " + std::to_string(hidden) +
                           " records needs a higher-level password");
    return {};
}

core::Status loadChannelRecords(OpenState& s, const ChannelFiles& files, LoadedChannel& c)
{
    LV_TRY(loadRecords(s, files.recordsBase, files.name, c.annotations, c.recordWarnings));
    for (const SegmentFiles& seg : files.segments)
        LV_TRY(loadRecords(s, seg.recordsBase, files.name, c.annotations, c.recordWarnings));
    return {};
}

std::vector<core::Annotation> mergeAnnotations(std::vector<core::Annotation> all,
                                               const std::vector<std::vector<core::Annotation>>& channels)
{
    for (const auto& list : channels) all.insert(all.end(), list.begin(), list.end());
    std::stable_sort(all.begin(), all.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    return all;
}

void computeSpan(core::RecordingInfo& info)
{
    info.start = info.end = 0;
    bool first = true;
    for (const core::ChannelInfo& c : info.channels) {
        if (c.gridLength == 0) continue;
        info.start = first ? c.start : std::min(info.start, c.start);
        info.end = first ? c.end : std::max(info.end, c.end);
        first = false;
    }
}

} // namespace lv::formats::mef3
