// Chunk-by-chunk copy of groups of channels into a SessionWriter working in a temporary directory.
#include "convert/MefExport.h"

#include "convert/TempTarget.h"
#include "core/TimeFormat.h"
#include "formats/mef3/SessionWriter.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;
namespace fs = std::filesystem;

namespace {

// Channels are copied kGroupChannels at a time, kChunkSamples of each per read: the group's chunk buffers (4 MiB)
// and its channels' write buffers are what the copy holds, whatever the length or the channel count.
constexpr std::size_t kGroupChannels = 16;
constexpr std::int64_t kChunkSamples = 1 << 16;

struct CopyGroup {
    std::vector<std::size_t> sources; // channels of the recording
    std::vector<std::size_t> targets; // the writer's channels
    std::vector<core::SampleSpan> spans;
    std::vector<std::vector<std::int32_t>> buffers;
};

// MEF has no offset: a source's offset (EDF) is folded into the counts, to the nearest count (exact when the
// offset is a whole number of counts, as in most EDF files; else within half a count).
core::Status shiftCounts(std::vector<std::int32_t>& counts, const core::ChannelInfo& ch)
{
    if (ch.offset == 0.0 || ch.conversionFactor == 0.0) return {};
    const double shift = std::nearbyint(ch.offset / ch.conversionFactor);
    if (!(std::abs(shift) < 4294967296.0))
        return makeError(ErrorCode::Unsupported,
                         "channel \"" + ch.name + "\": its offset does not fit MEF's 32-bit counts");
    const auto by = static_cast<std::int64_t>(shift);
    bool fits = true;
    for (std::int32_t& v : counts) { // whole numbers: the same as the double sum, without its cost
        const std::int64_t shifted = static_cast<std::int64_t>(v) + by;
        const bool keep = v == core::kNoSample;
        fits = fits && (keep || (shifted > std::numeric_limits<std::int32_t>::min() &&
                                 shifted <= std::numeric_limits<std::int32_t>::max()));
        v = keep ? v : static_cast<std::int32_t>(shifted);
    }
    if (!fits)
        return makeError(ErrorCode::Unsupported,
                         "channel \"" + ch.name + "\": its offset does not fit MEF's 32-bit counts");
    return {};
}

// One chunk of each channel of a group: read together (one read of a run of EDF records serves every channel of
// the group, where a channel alone needs a pread per record), then appended channel by channel.
core::Status copyChunk(core::Recording& recording, CopyGroup& group, std::int64_t at,
                       formats::mef3::SessionWriter& writer, const core::ReadControl& control, std::uint64_t& done,
                       std::uint64_t total)
{
    const core::RecordingInfo& info = recording.info();
    std::vector<core::RawSlice> slices;
    std::vector<std::size_t> members; // of the group, with samples left at `at`
    for (std::size_t i = 0; i < group.sources.size(); ++i) {
        const std::int64_t n = std::min(kChunkSamples, group.spans[i].count - at);
        if (n <= 0) continue;
        group.buffers[i].resize(static_cast<std::size_t>(n)); // the read fills the slice whole
        slices.push_back({group.sources[i], group.spans[i].first + at, group.buffers[i]});
        members.push_back(i);
    }
    core::ReadControl chunk = control;
    chunk.progress = nullptr;
    LV_TRY(recording.readRaw(slices, chunk));
    for (const core::DamagedBlock& d : recording.takeDamage()) writer.addAnnotation(core::damageAnnotation(info, d));
    for (const std::size_t i : members) {
        const core::ChannelInfo& ch = info.channels[group.sources[i]];
        LV_TRY(shiftCounts(group.buffers[i], ch));
        LV_TRY(writer.append(group.targets[i], ch.grid(), group.spans[i].first + at, group.buffers[i]));
        done += group.buffers[i].size();
        if (control.progress) control.progress(done, total);
        if (control.cancel && control.cancel->cancelled())
            return makeError(ErrorCode::Cancelled, "conversion cancelled");
    }
    return {};
}

core::Status copyGroup(core::Recording& recording, CopyGroup& group, formats::mef3::SessionWriter& writer,
                       const core::ReadControl& control, std::uint64_t& done, std::uint64_t total)
{
    std::int64_t longest = 0;
    for (const core::SampleSpan& span : group.spans) longest = std::max(longest, span.count);
    for (std::int64_t at = 0; at < longest; at += kChunkSamples)
        LV_TRY(copyChunk(recording, group, at, writer, control, done, total));
    for (const std::size_t target : group.targets) LV_TRY(writer.commit(target)); // its buffers go
    return {};
}

// Times are stored offset (below zero, with the offset in level-2 section 3) when the output has a level-2
// password, so that its level-1 view hides the dates as the specification intends; and when the source knew only
// relative times, offset with an unknown offset, so that no reader of the output takes them for true dates.
formats::mef3::TimeOffset timeOffsetFor(const core::RecordingInfo& info, const MefExportOptions& options)
{
    formats::mef3::TimeOffset offset;
    if (info.timesKnown && options.level2Password.empty()) return offset;
    core::Uutc earliest = info.start;
    for (const core::ChannelInfo& ch : info.channels) earliest = std::min(earliest, ch.start);
    for (const core::Annotation& a : info.annotations) earliest = std::min(earliest, a.time);
    offset.on = true;
    offset.base = earliest - 1; // every stored time below zero, as readers tell offset times by their sign
    offset.field = info.timesKnown ? offset.base : formats::mef3::kUutcNoEntry;
    return offset;
}

// The earliest time the output would hold: MEF stores times below zero only as offset times, so true dates before
// 1970 (a far --shift-dates) cannot be written.
core::Status checkEarliest(const core::RecordingInfo& info, const std::vector<std::size_t>& channels,
                           const MefExportOptions& options, const std::string& outPath)
{
    if (!info.timesKnown) return {};
    core::Uutc earliest = std::numeric_limits<core::Uutc>::max();
    for (std::size_t c : channels) earliest = std::min(earliest, std::max(info.channels[c].start, options.range.start));
    for (const core::Annotation& a : info.annotations)
        if (options.range.contains(a.time)) earliest = std::min(earliest, a.time);
    if (earliest >= 0) return {};
    return makeError(
        ErrorCode::InvalidArgument,
        "MEF 3.0 holds times from 1970-01-01 on, and this output would start at " + core::formatIso(earliest), outPath);
}

} // namespace

core::Status exportMef(core::Recording& recording, const MefExportOptions& options, const std::string& outPath,
                       const core::ReadControl& control)
{
    const core::RecordingInfo& info = recording.info();
    std::error_code ec;
    if (fs::exists(outPath, ec))
        return makeError(ErrorCode::InvalidArgument, "the output already exists; choose a new name", outPath);
    std::vector<std::size_t> channels = options.channels;
    if (channels.empty()) {
        channels.resize(info.channels.size());
        std::iota(channels.begin(), channels.end(), 0);
    }
    for (std::size_t c : channels)
        if (const core::ChannelInfo& ch = info.channels[c]; ch.sampleCount == 0 && !core::plausibleSamplingRate(ch.fs))
            return makeError(ErrorCode::Corrupt,
                             "channel " + ch.name +
                                 " has no samples and no sampling rate (its segments are missing): it cannot be "
                                 "written; leave it out with --channels",
                             info.path);
    LV_TRY(checkEarliest(info, channels, options, outPath));
    TempTarget temp;
    auto reserved = temp.reserve(outPath);
    if (!reserved) return reserved.error();
    const std::string work = *reserved;
    formats::mef3::WriterOptions writerOptions{
        options.blockSeconds, options.level1Password,          options.level2Password,
        control.runner,       formats::mef3::Durability::Fast, info.subject,
        info.site.location,   timeOffsetFor(info, options),    provenanceOr(options.provenance, info).text()};
    auto writer = formats::mef3::SessionWriter::create(work, writerOptions);
    if (!writer) return writer.error();

    std::uint64_t total = 0, done = 0;
    for (std::size_t c : channels)
        total += static_cast<std::uint64_t>(core::sampleSpan(info.channels[c], options.range).count);
    for (std::size_t first = 0; first < channels.size(); first += kGroupChannels) {
        CopyGroup group;
        for (std::size_t i = first; i < std::min(channels.size(), first + kGroupChannels); ++i) {
            const core::ChannelInfo& ch = info.channels[channels[i]];
            auto index = (*writer)->addChannel({ch.name, ch.fs, ch.unit, ch.conversionFactor, ch.description});
            if (!index) return index.error();
            group.sources.push_back(channels[i]);
            group.targets.push_back(*index);
            group.spans.push_back(core::sampleSpan(ch, options.range));
        }
        group.buffers.resize(group.sources.size());
        LV_TRY(copyGroup(recording, group, **writer, control, done, total));
        for (std::size_t target : group.targets) LV_TRY((*writer)->finishChannel(target)); // its files closed
    }
    for (const core::Annotation& a : info.annotations) {
        if (!options.range.contains(a.time)) continue;
        const bool kept = !a.channel || std::any_of(channels.begin(), channels.end(),
                                                    [&](std::size_t c) { return info.channels[c].name == *a.channel; });
        if (kept) (*writer)->addAnnotation(a);
    }
    LV_TRY((*writer)->finish());
    writer->reset();
    return temp.commit(outPath);
}

} // namespace lv::convert
