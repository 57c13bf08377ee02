// Grid by grid, chunk by chunk: every channel of a grid read together, each grid point with a sample turned into a
// multiplexed data point, stretches of points without any sample cut out as segments. The data format is chosen up
// front and widened (to INT_32, or to IEEE_FLOAT_32) by writing the set again when the data need it.
#include "convert/BrainVisionExport.h"

#include "core/LittleEndian.h"
#include "core/TimeFormat.h"
#include "core/Version.h"
#include "formats/brainvision/BvWriter.h"
#include "io/Path.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;
namespace bv = formats::brainvision;

namespace {

constexpr std::int64_t kChunkValues = std::int64_t{1} << 20; // counts read per chunk over all channels

struct OutSet {
    double fs = 0;
    core::Uutc start = 0;
    std::vector<std::size_t> sources;
    std::vector<core::SampleSpan> spans;
    std::int64_t first = 0, end = 0; // grid indices written: the spans' union
    std::string header;
};

// Written stretches: grid points [gridFirst, gridFirst + count) as data points from `point` (0-based) on.
struct Stretch {
    std::int64_t gridFirst = 0, count = 0, point = 0;
};

struct Progress {
    const core::ReadControl& control;
    std::uint64_t done = 0, total = 0;
};

std::string rateText(double fs)
{
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, fs).ptr;
    return std::string(text, end);
}

core::Result<std::vector<OutSet>> setsOf(core::Recording& recording, const std::vector<std::size_t>& channels,
                                         core::TimeRange range, const std::string& output)
{
    const core::RecordingInfo& info = recording.info();
    std::vector<OutSet> sets;
    std::map<std::pair<double, core::Uutc>, std::size_t> byGrid;
    for (const std::size_t c : channels) {
        const core::ChannelInfo& ch = info.channels[c];
        const auto [it, added] = byGrid.try_emplace(std::pair(ch.fs, ch.start), sets.size());
        if (added) sets.push_back(OutSet{ch.fs, ch.start, {}, {}, 0, 0, {}});
        OutSet& s = sets[it->second];
        auto span = recording.samplesIn(c, range);
        if (!span) return span.error();
        if (span->count > 0) {
            const bool empty = s.end <= s.first;
            s.first = empty ? span->first : std::min(s.first, span->first);
            s.end = empty ? span->first + span->count : std::max(s.end, span->first + span->count);
        }
        s.sources.push_back(c);
        s.spans.push_back(*span);
    }
    std::map<double, int> sameRate;
    const std::filesystem::path out = io::toPath(output);
    for (OutSet& s : sets) {
        std::string name = io::toUtf8(out);
        if (sets.size() > 1) {
            const int n = ++sameRate[s.fs];
            name = io::toUtf8(out.parent_path() / io::toPath(io::toUtf8(out.stem()) + "_" + rateText(s.fs) + "Hz" +
                                                             (n > 1 ? "_" + std::to_string(n) : "") + ".vhdr"));
        }
        s.header = name;
    }
    return sets;
}

// The format the counts can be written in as they are: EDF's 16-bit or any 32-bit counts when the channels have no
// offset (physical = count x resolution), else physical values as floats.
bv::BinaryFormat firstFormat(const core::RecordingInfo& info, const OutSet& s)
{
    for (const std::size_t c : s.sources)
        if (info.channels[c].offset != 0.0 || !std::isfinite(info.channels[c].conversionFactor))
            return bv::BinaryFormat::Float32;
    return info.format.rfind("EDF", 0) == 0 ? bv::BinaryFormat::Int16 : bv::BinaryFormat::Int32;
}

// Appends the data points of a chunk; returns the wider format the chunk needs, or `format` when it fits.
bv::BinaryFormat appendPoints(const core::RecordingInfo& info, const OutSet& s, bv::BinaryFormat format,
                              const std::vector<std::vector<std::int32_t>>& in, std::int64_t at, std::int64_t n,
                              std::vector<Stretch>& stretches, std::int64_t& points, std::string& bytes)
{
    const std::size_t width = format == bv::BinaryFormat::Int16 ? 2 : 4;
    for (std::int64_t j = 0; j < n; ++j) {
        const auto k = static_cast<std::size_t>(j);
        std::size_t present = 0;
        for (const auto& counts : in) present += counts[k] != core::kNoSample;
        if (present == 0) continue;
        if (present < in.size() && format != bv::BinaryFormat::Float32) return bv::BinaryFormat::Float32;
        if (stretches.empty() || stretches.back().gridFirst + stretches.back().count != at + j)
            stretches.push_back({at + j, 0, points});
        ++stretches.back().count;
        ++points;
        const std::size_t base = bytes.size();
        bytes.resize(base + width * in.size());
        auto* out = reinterpret_cast<std::uint8_t*>(bytes.data() + base);
        for (std::size_t c = 0; c < in.size(); ++c) {
            const std::int32_t v = in[c][k];
            if (format == bv::BinaryFormat::Int16) {
                if (v < std::numeric_limits<std::int16_t>::min() || v > std::numeric_limits<std::int16_t>::max())
                    return bv::BinaryFormat::Int32;
                core::le::store(out + c * 2, static_cast<std::int16_t>(v));
            } else if (format == bv::BinaryFormat::Int32) {
                core::le::store(out + c * 4, v);
            } else {
                const core::ChannelInfo& ch = info.channels[s.sources[c]];
                const float f = v == core::kNoSample ? std::numeric_limits<float>::quiet_NaN()
                                                     : static_cast<float>(v * ch.conversionFactor + ch.offset);
                core::le::store(out + c * 4, f);
            }
        }
    }
    return format;
}

// Writes the data of one set in `format`; the format it turned out to need when that is wider (nothing kept then).
core::Result<bv::BinaryFormat> writeData(core::Recording& recording, const OutSet& s, bv::BinaryFormat format,
                                         bv::BvWriter& writer, std::vector<Stretch>& stretches, Progress& progress,
                                         std::vector<core::DamagedBlock>& damage)
{
    const auto members = static_cast<std::int64_t>(s.sources.size());
    const std::int64_t step = std::max<std::int64_t>(1024, kChunkValues / std::max<std::int64_t>(1, members));
    std::vector<std::vector<std::int32_t>> counts(s.sources.size());
    core::ReadControl chunk = progress.control;
    chunk.progress = nullptr;
    std::int64_t points = 0;
    std::string bytes;
    for (std::int64_t at = s.first; at < s.end; at += step) {
        const std::int64_t n = std::min(step, s.end - at);
        std::vector<core::RawSlice> slices;
        for (std::size_t k = 0; k < s.sources.size(); ++k) {
            counts[k].assign(static_cast<std::size_t>(n), core::kNoSample);
            const std::int64_t from = std::max(at, s.spans[k].first);
            const std::int64_t to = std::min(at + n, s.spans[k].first + s.spans[k].count);
            if (to > from)
                slices.push_back({s.sources[k], from,
                                  std::span(counts[k]).subspan(static_cast<std::size_t>(from - at),
                                                               static_cast<std::size_t>(to - from))});
        }
        LV_TRY(recording.readRaw(slices, chunk));
        for (core::DamagedBlock& d : recording.takeDamage()) damage.push_back(std::move(d));
        bytes.clear();
        const bv::BinaryFormat needed =
            appendPoints(recording.info(), s, format, counts, at, n, stretches, points, bytes);
        if (needed != format) return needed;
        LV_TRY(writer.appendData(bytes));
        progress.done += static_cast<std::uint64_t>(n * members);
        if (progress.control.progress) progress.control.progress(progress.done, progress.total);
        if (progress.control.cancel && progress.control.cancel->cancelled())
            return makeError(ErrorCode::Cancelled, "conversion cancelled");
    }
    return format;
}

// "New Segment" markers at each stretch, then the annotations (in the range, on all or on a written channel) and the
// damaged blocks at their nearest data point, by time.
std::vector<bv::BvMarker> markersOf(const core::RecordingInfo& info, const OutSet& s, core::TimeRange range,
                                    const std::vector<Stretch>& stretches,
                                    const std::vector<core::DamagedBlock>& damage, int& inGaps)
{
    const core::SampleGrid grid{s.start, s.fs};
    std::vector<bv::BvMarker> markers;
    markers.reserve(stretches.size() + info.annotations.size() + damage.size());
    for (const Stretch& st : stretches)
        markers.push_back({"New Segment", "", st.point + 1, 1, 0, grid.timeOf(st.gridFirst), 0});
    if (stretches.empty()) return markers;
    std::map<std::string, int> written;
    for (std::size_t k = 0; k < s.sources.size(); ++k)
        written.try_emplace(info.channels[s.sources[k]].name, static_cast<int>(k + 1));
    std::vector<core::Annotation> all;
    for (const core::Annotation& a : info.annotations)
        if (range.contains(a.time) && (!a.channel || written.contains(*a.channel))) all.push_back(a);
    for (const core::DamagedBlock& d : damage) all.push_back(core::damageAnnotation(info, d));
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.time < b.time; });
    for (const core::Annotation& a : all) {
        const std::int64_t g = grid.nearestIndex(a.time);
        auto st = std::upper_bound(stretches.begin(), stretches.end(), g,
                                   [](std::int64_t x, const Stretch& t) { return x < t.gridFirst; });
        std::int64_t point = 0;
        if (st == stretches.begin()) {
            point = 0; // before the first: at the first data point
        } else {
            const Stretch& t = *std::prev(st);
            if (g < t.gridFirst + t.count)
                point = t.point + (g - t.gridFirst);
            else if (st == stretches.end())
                point = t.point + t.count - 1;
            else // in a gap: at the nearer of the data points around it
                point = g - (t.gridFirst + t.count - 1) <= st->gridFirst - g ? t.point + t.count - 1 : st->point,
                ++inGaps;
        }
        const std::int64_t size =
            a.durationUs > 0 ? std::max<std::int64_t>(1, std::llround(static_cast<double>(a.durationUs) * s.fs / 1e6))
                             : 1;
        const int channel = a.channel ? written.at(*a.channel) : 0;
        markers.push_back({a.type.empty() ? "Comment" : a.type, a.text, point + 1, size, channel, std::nullopt, 0});
    }
    return markers;
}

bv::BvFileSpec fileSpec(const core::RecordingInfo& info, const OutSet& s, bv::BinaryFormat format,
                        const std::string& comment, std::int64_t dataPoints)
{
    bv::BvFileSpec spec;
    spec.dataPoints = dataPoints;
    spec.format = format;
    spec.fs = s.fs;
    spec.comment = comment;
    spec.program = std::string("Longview ") + core::kVersion;
    for (const std::size_t c : s.sources) {
        const core::ChannelInfo& ch = info.channels[c];
        bv::BvChannel out;
        out.name = ch.name;
        out.unit = ch.unit.empty() ? "ARU" : ch.unit; // an empty unit would read as the format's default, uV
        out.resolution = format == bv::BinaryFormat::Float32 ? 1.0 : ch.conversionFactor;
        spec.channels.push_back(std::move(out));
    }
    return spec;
}

const char* formatWord(bv::BinaryFormat f)
{
    return f == bv::BinaryFormat::Int16 ? "INT_16" : f == bv::BinaryFormat::Int32 ? "INT_32" : "IEEE_FLOAT_32";
}

core::Status writeSet(core::Recording& recording, const OutSet& s, const Selection& selection,
                      const std::string& comment, Progress& progress, ExportOutcome& outcome)
{
    const core::RecordingInfo& info = recording.info();
    bv::BinaryFormat format = firstFormat(info, s);
    while (true) {
        auto writer = bv::BvWriter::create(s.header);
        if (!writer) return writer.error();
        std::vector<Stretch> stretches;
        std::vector<core::DamagedBlock> damage;
        auto written = writeData(recording, s, format, **writer, stretches, progress, damage);
        if (!written) return written.error();
        if (*written != format) { // the temporaries go with the writer; once more in the wider format
            outcome.warnings.push_back(s.header + ": written as " + formatWord(*written) + " (not " +
                                       formatWord(format) + "): " +
                                       (*written == bv::BinaryFormat::Float32
                                            ? "some data points miss a sample that others have, and only floats "
                                              "can hold NaN"
                                            : "counts exceed 16 bits"));
            format = *written;
            progress.total += static_cast<std::uint64_t>((s.end - s.first) * std::ssize(s.sources));
            continue;
        }
        int inGaps = 0;
        const auto markers = markersOf(info, s, selection.range, stretches, damage, inGaps);
        if (inGaps > 0)
            outcome.warnings.push_back(s.header + ": " + std::to_string(inGaps) +
                                       " annotations fall in gaps, which BrainVision cannot hold: each is placed at "
                                       "the nearest data point, before or after its gap");
        if (stretches.size() > 1)
            outcome.warnings.push_back(s.header + ": " + std::to_string(stretches.size() - 1) +
                                       " gaps are left out of the data (BrainVision holds no time between data "
                                       "points); each stretch after one starts with a \"New Segment\" marker "
                                       "dated at its first sample");
        const std::int64_t points = stretches.empty() ? 0 : stretches.back().point + stretches.back().count;
        LV_TRY((*writer)->commit(fileSpec(info, s, format, comment, points), markers));
        const std::string stem = io::toUtf8(io::toPath(s.header).replace_extension());
        outcome.files.push_back(s.header);
        outcome.sideFiles.push_back(stem + ".vmrk");
        outcome.sideFiles.push_back(stem + ".eeg");
        return {};
    }
}

} // namespace

core::Result<ExportOutcome> exportBrainVision(core::Recording& recording, const Selection& selection,
                                              const TargetOptions& options, const std::string& output,
                                              const core::ReadControl& control)
{
    const core::RecordingInfo& info = recording.info();
    std::vector<std::size_t> channels = selection.channels;
    if (channels.empty()) {
        channels.resize(info.channels.size());
        std::iota(channels.begin(), channels.end(), 0);
    }
    for (const std::size_t c : channels) {
        const core::ChannelInfo& ch = info.channels[c];
        if (!core::plausibleSamplingRate(ch.fs) || ch.irregular)
            return makeError(ErrorCode::InvalidArgument,
                             "channel " + ch.name +
                                 " has no sampling grid: BrainVision needs one (give --resample, or leave it out "
                                 "with --channels)",
                             info.path);
    }
    auto sets = setsOf(recording, channels, selection.range, output);
    if (!sets) return sets.error();
    ExportOutcome outcome;
    std::string comment = provenanceOr(options.provenance, info).text();
    if (!info.timesKnown) {
        comment +=
            (comment.empty() ? "" : "\n") + std::string("Times are relative: the source's true dates are unknown");
        outcome.warnings.push_back("the source's times are relative (its true dates are unknown): the segment dates "
                                   "are not true dates");
    }
    Progress progress{control};
    for (const OutSet& s : *sets)
        progress.total += static_cast<std::uint64_t>((s.end - s.first) * std::ssize(s.sources));
    for (const OutSet& s : *sets) LV_TRY(writeSet(recording, s, selection, comment, progress, outcome));
    return outcome;
}

} // namespace lv::convert
