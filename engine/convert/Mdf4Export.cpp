// Group by group, chunk by chunk: a chunk of every channel of a group read together, turned into records (time,
// counts, invalidation bits; grid points without any sample left out; irregular channels at their own times) and
// handed to the MDF 4 writer.
#include "convert/Mdf4Export.h"

#include "core/Version.h"
#include "formats/mdf4/Mdf4Writer.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;
namespace mdf4 = formats::mdf4;

namespace {

// Counts read per chunk, over all channels of a group (4 MiB), whatever the length or the channel count.
constexpr std::int64_t kChunkValues = std::int64_t{1} << 20;

// Channels that share a sampling grid (rate and start), or irregular channels that share their times: one data
// group.
struct OutGroup {
    double fs = 0.0;
    core::Uutc start = 0;
    int timeBase = -1;                // irregular channels' shared times; -1: a grid
    std::vector<std::size_t> sources; // channels of the recording
    std::vector<core::SampleSpan> spans;
    std::int64_t first = 0, end = 0; // grid indices (sample numbers of irregular channels) written: the spans' union
    double base = 0.0;               // seconds from HD's start to grid index 0

    bool irregular() const { return timeBase >= 0; }
};

core::Result<std::vector<OutGroup>> groupsOf(core::Recording& recording, const std::vector<std::size_t>& channels,
                                             core::TimeRange range, core::Uutc hdStart)
{
    const core::RecordingInfo& info = recording.info();
    std::vector<OutGroup> groups;
    std::map<std::tuple<int, double, core::Uutc>, std::size_t> byGrid;
    for (const std::size_t c : channels) {
        const core::ChannelInfo& ch = info.channels[c];
        const int timeBase = ch.irregular ? std::max(ch.timeBase, 0) : -1;
        const auto key = ch.irregular ? std::tuple(timeBase, 0.0, core::Uutc{0}) : std::tuple(-1, ch.fs, ch.start);
        const auto [it, added] = byGrid.try_emplace(key, groups.size());
        if (added) {
            OutGroup g;
            g.fs = ch.fs;
            g.start = ch.start;
            g.timeBase = timeBase;
            g.base = static_cast<double>(ch.start - hdStart) / 1e6;
            groups.push_back(g);
        }
        OutGroup& g = groups[it->second];
        auto span = recording.samplesIn(c, range);
        if (!span) return span.error();
        if (span->count > 0) {
            const bool empty = g.end <= g.first;
            g.first = empty ? span->first : std::min(g.first, span->first);
            g.end = empty ? span->first + span->count : std::max(g.end, span->first + span->count);
        }
        g.sources.push_back(c);
        g.spans.push_back(*span);
    }
    return groups;
}

std::string rateName(double fs)
{
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, fs).ptr;
    return std::string(text, end) + " Hz";
}

mdf4::ChannelSpec channelSpec(const core::ChannelInfo& ch, bool edf)
{
    mdf4::ChannelSpec c;
    c.name = ch.name;
    c.unit = ch.unit;
    c.comment = ch.description;
    c.type = edf ? mdf4::ValueType::Int16 : mdf4::ValueType::Int32;
    c.linear = ch.conversionFactor != 1.0 || ch.offset != 0.0;
    if (ch.floatBits != 0) { // a source's floats as floats of its width: the physical values, no conversion
        c.type = ch.floatBits == 32 ? mdf4::ValueType::Float32 : mdf4::ValueType::Float64;
        c.linear = false;
    }
    c.factor = ch.conversionFactor;
    c.offset = ch.offset;
    return c;
}

struct Progress {
    const core::ReadControl& control;
    std::uint64_t done = 0, total = 0;
};

// How a channel's counts go into its records: as they are (16 or 32 bits), or as physical floats of floatBits.
struct ValueForm {
    std::uint8_t floatBits = 0;
    double factor = 1.0, offset = 0.0;
};

// The count `v` of a channel of form `f` at `to`: its low 16 or 32 bits, or its physical value as a float.
void putValue(const ValueForm& f, std::uint32_t width, std::int32_t v, std::uint8_t* to)
{
    if (f.floatBits == 64) { // the physical value (rounded once to the width)
        const double physical = static_cast<double>(v) * f.factor + f.offset;
        std::memcpy(to, &physical, 8);
    } else if (f.floatBits == 32) {
        const auto single = static_cast<float>(static_cast<double>(v) * f.factor + f.offset);
        std::memcpy(to, &single, 4);
    } else if (width == 2) {
        const auto narrow = static_cast<std::int16_t>(v);
        std::memcpy(to, &narrow, 2);
    } else {
        std::memcpy(to, &v, 4);
    }
}

// Appends point `j` of the chunk as a record at `time` (seconds since HD's start) unless no channel has a sample
// there (a grid point in a gap; an irregular sample is a record even when every value of it is invalid).
void appendRecord(bool irregular, double time, const mdf4::RecordLayout& layout, const std::vector<ValueForm>& forms,
                  const std::vector<std::vector<std::int32_t>>& in, std::size_t j, std::vector<std::uint8_t>& records)
{
    bool any = irregular;
    for (const auto& counts : in) any = any || counts[j] != core::kNoSample;
    if (!any) return;
    const std::size_t at = records.size();
    records.resize(at + layout.recordBytes(), 0);
    std::uint8_t* record = records.data() + at;
    std::memcpy(record, &time, 8);
    for (std::size_t k = 0; k < in.size(); ++k) {
        const std::int32_t v = in[k][j];
        if (v == core::kNoSample)
            record[layout.dataBytes + k / 8] |= static_cast<std::uint8_t>(1u << (k % 8));
        else
            putValue(forms[k], layout.widths[k], v, record + layout.offsets[k]);
    }
}

// A 16-bit channel's counts must fit (EDF's always do); a count that does not is refused, never wrapped.
core::Status checkNarrow(const core::RecordingInfo& info, const OutGroup& g, const mdf4::RecordLayout& layout,
                         const std::vector<std::vector<std::int32_t>>& in)
{
    for (std::size_t k = 0; k < in.size(); ++k) {
        if (layout.widths[k] != 2) continue;
        for (const std::int32_t v : in[k])
            if (v != core::kNoSample &&
                (v < std::numeric_limits<std::int16_t>::min() || v > std::numeric_limits<std::int16_t>::max()))
                return makeError(ErrorCode::Unsupported,
                                 "channel \"" + info.channels[g.sources[k]].name + "\": count " + std::to_string(v) +
                                     " does not fit the 16 bits of an EDF source",
                                 info.path);
    }
    return {};
}

core::Status writeGroup(core::Recording& recording, const OutGroup& g, std::size_t index, core::Uutc hdStart,
                        mdf4::Mdf4Writer& writer, Progress& progress, std::vector<core::DamagedBlock>& damage)
{
    std::vector<std::int64_t> timesNs;
    const std::int64_t hdStartNs = core::usToNs(hdStart);
    const core::RecordingInfo& info = recording.info();
    const mdf4::RecordLayout& layout = writer.layout(index);
    const auto members = static_cast<std::int64_t>(g.sources.size());
    const std::int64_t step = std::max<std::int64_t>(1024, kChunkValues / std::max<std::int64_t>(1, members));
    std::vector<std::vector<std::int32_t>> counts(g.sources.size());
    std::vector<ValueForm> forms; // floats as the layout holds them (channelSpec made it): never wider than a slot
    for (std::size_t k = 0; k < g.sources.size(); ++k) {
        const core::ChannelInfo& ch = info.channels[g.sources[k]];
        const std::uint32_t width = layout.widths[k];
        const std::uint8_t bits = width == 8 ? 64 : width == 4 && ch.floatBits == 32 ? 32 : 0;
        forms.push_back({bits, ch.conversionFactor, ch.offset});
    }
    std::vector<std::uint8_t> records;
    core::ReadControl chunk = progress.control;
    chunk.progress = nullptr;
    for (std::int64_t at = g.first; at < g.end; at += step) {
        const std::int64_t n = std::min(step, g.end - at);
        std::vector<core::RawSlice> slices;
        for (std::size_t k = 0; k < g.sources.size(); ++k) {
            counts[k].assign(static_cast<std::size_t>(n), core::kNoSample);
            const std::int64_t from = std::max(at, g.spans[k].first);
            const std::int64_t to = std::min(at + n, g.spans[k].first + g.spans[k].count);
            if (to > from)
                slices.push_back({g.sources[k], from,
                                  std::span(counts[k]).subspan(static_cast<std::size_t>(from - at),
                                                               static_cast<std::size_t>(to - from))});
        }
        LV_TRY(recording.readRaw(slices, chunk));
        if (g.irregular()) { // the group's channels share their times: the first one's
            timesNs.resize(static_cast<std::size_t>(n));
            const core::TimeSlice times{g.sources.front(), at, timesNs};
            LV_TRY(recording.readTimes(std::span(&times, 1), chunk));
        }
        for (core::DamagedBlock& d : recording.takeDamage()) damage.push_back(std::move(d));
        LV_TRY(checkNarrow(info, g, layout, counts));
        records.clear();
        for (std::int64_t j = 0; j < n; ++j) {
            const auto k = static_cast<std::size_t>(j);
            const double time = g.irregular() ? static_cast<double>(timesNs[k] - hdStartNs) / 1e9
                                              : g.base + static_cast<double>(at + j) / g.fs;
            appendRecord(g.irregular(), time, layout, forms, counts, k, records);
        }
        LV_TRY(writer.append(index, records));
        progress.done += static_cast<std::uint64_t>(n * members);
        if (progress.control.progress) progress.control.progress(progress.done, progress.total);
        if (progress.control.cancel && progress.control.cancel->cancelled())
            return makeError(ErrorCode::Cancelled, "conversion cancelled");
    }
    return {};
}

// An event's time of `us` microseconds since HD's start as base x factor in the coarsest unit that holds it (s, ms,
// us), so that readers multiplying them get the decimal seconds (2500 x 0.001 = 2.5; 2500000 x 1e-6 is not).
void setSyncTime(mdf4::EventSpec& e, std::int64_t us)
{
    const bool seconds = us % 1'000'000 == 0, ms = us % 1000 == 0;
    e.baseValue = seconds ? us / 1'000'000 : ms ? us / 1000 : us;
    e.factor = seconds ? 1.0 : ms ? 1e-3 : 1e-6;
}

// The annotations written as events (in the range; on the whole recording or a written channel) and the damaged
// blocks, by time: a point event each, or a begin and an end event for one that lasts.
void addEvents(const core::RecordingInfo& info, const std::vector<OutGroup>& groups, core::TimeRange range,
               core::Uutc hdStart, const std::vector<core::DamagedBlock>& damage, mdf4::Mdf4Writer& writer)
{
    std::map<std::string, std::pair<std::size_t, std::size_t>> written; // channel name -> (group, channel)
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (std::size_t k = 0; k < groups[g].sources.size(); ++k)
            written.try_emplace(info.channels[groups[g].sources[k]].name, g, k);
    std::vector<std::pair<core::Annotation, bool>> all; // and whether the program made it
    for (const core::Annotation& a : info.annotations)
        if (range.contains(a.time) && (!a.channel || written.contains(*a.channel))) all.emplace_back(a, false);
    for (const core::DamagedBlock& d : damage) all.emplace_back(core::damageAnnotation(info, d), true);
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first.time < b.first.time; });
    std::size_t added = 0;
    for (const auto& [a, byTool] : all) {
        mdf4::EventSpec e;
        setSyncTime(e, a.time - hdStart);
        e.name = a.type.empty() ? "Annotation" : a.type;
        e.comment = a.text;
        e.byTool = byTool;
        if (a.channel)
            if (const auto it = written.find(*a.channel); it != written.end()) e.scope = it->second;
        if (a.durationUs > 0) {
            e.range = mdf4::EventSpec::Range::Begin;
            writer.addEvent(e);
            e.range = mdf4::EventSpec::Range::End;
            e.begin = added++;
            setSyncTime(e, a.time + a.durationUs - hdStart);
        }
        writer.addEvent(e);
        ++added;
    }
}

} // namespace

core::Result<ExportOutcome> exportMdf4(core::Recording& recording, const Selection& selection,
                                       const TargetOptions& options, const std::string& output,
                                       const core::ReadControl& control)
{
    const core::RecordingInfo& info = recording.info();
    ExportOutcome outcome;
    std::error_code ec;
    if (std::filesystem::exists(output, ec))
        return makeError(ErrorCode::InvalidArgument, "the output already exists; choose a new name", output);
    std::vector<std::size_t> channels = selection.channels;
    if (channels.empty()) {
        channels.resize(info.channels.size());
        std::iota(channels.begin(), channels.end(), 0);
    }
    for (const std::size_t c : channels)
        if (const core::ChannelInfo& ch = info.channels[c]; !ch.irregular && !core::plausibleSamplingRate(ch.fs))
            return makeError(ErrorCode::Corrupt,
                             "channel " + ch.name +
                                 " has no sampling rate (its segments are missing): it cannot be written; leave it "
                                 "out with --channels",
                             info.path);
    const core::Uutc hdStart = std::max(info.start, selection.range.start);
    if (hdStart < 0)
        return makeError(ErrorCode::InvalidArgument,
                         "MDF 4 holds start times from 1970-01-01 on, and this output would start before", output);
    auto grouped = groupsOf(recording, channels, selection.range, hdStart);
    if (!grouped) return grouped.error();
    const std::vector<OutGroup>& groups = *grouped;
    const bool edf = info.format.rfind("EDF", 0) == 0; // EDF, EDF+C, EDF+D: 16-bit counts

    mdf4::FileSpec spec;
    spec.startNs = static_cast<std::uint64_t>(hdStart) * 1000;
    spec.comment = provenanceOr(options.provenance, info).text();
    if (!info.timesKnown) {
        spec.comment +=
            (spec.comment.empty() ? "" : "; ") + std::string("times are relative: the source's true dates are unknown");
        outcome.warnings.push_back("the source's times are relative (its true dates are unknown): the MDF 4 start "
                                   "time is not a true date");
    }
    spec.compress = options.compress;
    spec.program = "Longview";
    spec.version = core::kVersion;
    spec.historyNs = static_cast<std::uint64_t>(std::max<core::Uutc>(0, core::nowUutc())) * 1000;
    std::map<double, int> sameRate; // groups at one rate with different starts
    for (const OutGroup& g : groups) {
        mdf4::GroupSpec group;
        group.acquisitionName = g.irregular() ? "irregular, median " + rateName(g.fs) : rateName(g.fs);
        if (const int n = ++sameRate[g.irregular() ? -g.fs : g.fs]; n > 1)
            group.acquisitionName += " (" + std::to_string(n) + ")";
        if (g.irregular()) group.comment = info.channels[g.sources.front()].group; // where the times came from
        for (const std::size_t c : g.sources) group.channels.push_back(channelSpec(info.channels[c], edf));
        spec.groups.push_back(std::move(group));
    }
    auto writer = mdf4::Mdf4Writer::create(output, std::move(spec), control.runner);
    if (!writer) return writer.error();

    Progress progress{control};
    for (const OutGroup& g : groups)
        progress.total += static_cast<std::uint64_t>((g.end - g.first) * std::ssize(g.sources));
    std::vector<core::DamagedBlock> damage;
    for (std::size_t i = 0; i < groups.size(); ++i)
        LV_TRY(writeGroup(recording, groups[i], i, hdStart, **writer, progress, damage));
    addEvents(info, groups, selection.range, hdStart, damage, **writer);
    LV_TRY((*writer)->commit());
    outcome.files.push_back(output);
    return outcome;
}

} // namespace lv::convert
