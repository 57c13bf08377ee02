// Opening a BrainVision file set: the header, the data and marker files it names (beside it, or where an absolute
// name says, or beside it under that name's last part), the data points the data file holds, the segments and
// markers placed on the grid, the step of float data.
#include "formats/brainvision/BvRecording.h"

#include "core/AsciiLower.h"
#include "core/LittleEndian.h"
#include "core/Quantization.h"
#include "formats/brainvision/BvMarkers.h"
#include "io/Path.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace lv::formats::brainvision {

using core::ErrorCode;

namespace {

constexpr std::uint64_t kMaxTextBytes = 64 << 20; // a header or marker file larger than this is not one
constexpr std::int64_t kStepFrames = 65'536;      // data points looked at to choose a float channel's step
constexpr std::uint64_t kStepBytes = 16 << 20;    // at most this much of the data file for it
constexpr std::int64_t kBlockBytes = 256 << 10;   // a block's frames at most (multiplexed)

core::Result<std::vector<std::uint8_t>> readText(const std::string& path)
{
    auto file = io::openFile(path);
    if (!file) return file.error();
    if ((*file)->size() > kMaxTextBytes)
        return core::makeError(
            ErrorCode::Corrupt,
            "is " + std::to_string((*file)->size()) + " bytes long: too long for a header or marker file", path);
    return (*file)->readAll();
}

// A file the header names: beside the header when relative; else where it says, or beside the header under its
// last part when the recording was moved (with a warning).
std::string locate(const std::string& header, const std::string& named, std::vector<std::string>& warnings)
{
    const std::filesystem::path folder = io::toPath(header).parent_path();
    std::string name = named;
    std::replace(name.begin(), name.end(), '\\', '/'); // written on Windows
    const std::filesystem::path p = io::toPath(name);
    const std::filesystem::path there = p.is_absolute() ? p : folder / p;
    std::error_code ec;
    if (std::filesystem::exists(there, ec)) return io::toUtf8(there);
    const std::filesystem::path beside = folder / p.filename();
    if (std::filesystem::exists(beside, ec)) {
        warnings.push_back("\"" + named + "\" is not where the header says: read the file of that name beside it");
        return io::toUtf8(beside);
    }
    return io::toUtf8(there);
}

} // namespace

class BvOpener {
public:
    explicit BvOpener(BvRecording& r) : m_r(r) {}
    core::Status run(const std::string& path);

private:
    core::Status openData(const std::string& path);
    void readMarkers(const std::string& path);
    void placeSegments();
    void cutBlocks();
    core::Status chooseSteps();
    void describe();
    core::Uutc timeOfPoint(std::int64_t point) const;

    BvRecording& m_r;
    std::vector<std::string> m_warnings;
    std::vector<BvMarker> m_markers;
    core::Uutc m_start = 0;
    bool m_dated = false;
};

core::Status BvOpener::openData(const std::string& path)
{
    const BvHeader& h = m_r.m_header;
    const std::string data = locate(path, h.dataFile, m_warnings);
    auto file = io::openFile(data);
    if (!file) {
        core::Error e = file.error();
        e.message = "the data file " + h.dataFile + " the header names: " + e.message;
        e.path = path;
        return e;
    }
    m_r.m_data = *file;
    const std::uint64_t frame = h.sampleBytes() * h.channels.size();
    const std::uint64_t size = m_r.m_data->size();
    m_r.m_points = static_cast<std::int64_t>(size / frame);
    if (size % frame != 0)
        m_warnings.push_back(data + " ends inside a data point (" + std::to_string(size) +
                             " bytes is not a multiple of " + std::to_string(frame) + "): its last " +
                             std::to_string(size % frame) + " bytes are not read");
    if (m_r.m_points == 0) m_warnings.push_back(data + " holds no data point");
    if (h.dataPoints >= 0 && h.dataPoints != m_r.m_points)
        m_warnings.push_back(data + " holds " + std::to_string(m_r.m_points) + " data points, the header announces " +
                             std::to_string(h.dataPoints) +
                             (h.dataPoints > m_r.m_points ? ": the data file is cut short" : ": the rest is read too"));
    return {};
}

void BvOpener::readMarkers(const std::string& path)
{
    const BvHeader& h = m_r.m_header;
    if (h.markerFile.empty()) {
        m_warnings.push_back("the header names no marker file: no markers, and the start time is unknown");
        return;
    }
    const std::string file = locate(path, h.markerFile, m_warnings);
    auto bytes = readText(file);
    if (!bytes) {
        m_warnings.push_back("the marker file " + h.markerFile + " cannot be read (" + bytes.error().describe() +
                             "): no markers, and the start time is unknown");
        return;
    }
    auto markers = parseMarkers(*bytes, file, m_warnings);
    if (!markers) {
        m_warnings.push_back(markers.error().describe() + ": no markers, and the start time is unknown");
        return;
    }
    m_markers = std::move(*markers);
}

// Runs of data points between "New Segment" markers; a dated segment starts at its date when that lies after the end
// of the one before (the time between is a gap), else right after it.
void BvOpener::placeSegments()
{
    const double fs = m_r.m_header.fs();
    for (const BvMarker& m : m_markers)
        if (m.newSegment() && m.date && m.position <= std::max<std::int64_t>(m_r.m_points, 1)) {
            m_start = *m.date - std::llround(static_cast<double>(m.position - 1) * 1e6 / fs);
            m_dated = true;
            break;
        }
    std::int64_t offset = 0; // grid index minus data point in the current run
    std::int64_t runFirst = 0;
    int early = 0;
    for (const BvMarker& m : m_markers) {
        const std::int64_t point = m.position - 1;
        if (!m.newSegment() || point <= runFirst || point >= m_r.m_points) continue;
        std::int64_t next = offset;
        if (m.date && m_dated) {
            const std::int64_t grid = std::llround(static_cast<double>(*m.date - m_start) * fs / 1e6);
            if (grid >= point + offset)
                next = grid - point;
            else
                ++early;
        }
        m_r.m_runs.push_back({runFirst, point, runFirst + offset});
        runFirst = point;
        offset = next;
    }
    m_r.m_runs.push_back({runFirst, m_r.m_points, runFirst + offset});
    if (early > 0)
        m_warnings.push_back(std::to_string(early) +
                             " \"New Segment\" markers are dated before the end of the segment before them: each such "
                             "segment follows the one before without a gap");
}

// Blocks of about a second (multiplexed: at most kBlockBytes of frames), never across a run's end.
void BvOpener::cutBlocks()
{
    const BvHeader& h = m_r.m_header;
    std::int64_t per = std::clamp<std::int64_t>(std::llround(h.fs()), 64, 65'536);
    if (h.orientation == Orientation::Multiplexed)
        per = std::clamp<std::int64_t>(kBlockBytes / static_cast<std::int64_t>(h.sampleBytes() * h.channels.size()), 16,
                                       per);
    for (const BvRecording::Run& run : m_r.m_runs)
        for (std::int64_t at = run.first; at < run.end; at += per) {
            const std::int64_t n = std::min(per, run.end - at);
            m_r.m_blocks.push_back({run.gridFirst + (at - run.first), static_cast<std::uint32_t>(n), 0, 0, false});
            m_r.m_blockPoint.push_back(at);
        }
}

// Float data as counts: each channel's step from its first data points (core::storedStepOf).
core::Status BvOpener::chooseSteps()
{
    const BvHeader& h = m_r.m_header;
    m_r.m_step.assign(h.channels.size(), 1.0);
    if (h.format != BinaryFormat::Float32) return {};
    const std::int64_t frames = std::min<std::int64_t>(
        {m_r.m_points, kStepFrames, static_cast<std::int64_t>(kStepBytes / (4 * h.channels.size()))});
    std::vector<std::uint8_t> bytes;
    if (h.orientation == Orientation::Multiplexed) {
        bytes.resize(static_cast<std::size_t>(frames) * 4 * h.channels.size());
        LV_TRY(m_r.m_data->readAt(0, bytes));
    }
    std::vector<double> values(static_cast<std::size_t>(frames));
    for (std::size_t c = 0; c < h.channels.size(); ++c) {
        std::size_t stride = 4 * h.channels.size(), first = c * 4;
        if (h.orientation == Orientation::Vectorized) {
            bytes.resize(static_cast<std::size_t>(frames) * 4);
            LV_TRY(m_r.m_data->readAt(m_r.offsetOf(c, 0), bytes));
            stride = 4;
            first = 0;
        }
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = core::le::load<float>(&bytes[first + i * stride]);
        m_r.m_step[c] = core::storedStepOf(values).factor;
    }
    return {};
}

core::Uutc BvOpener::timeOfPoint(std::int64_t point) const
{
    auto run = std::upper_bound(m_r.m_runs.begin(), m_r.m_runs.end(), point,
                                [](std::int64_t p, const BvRecording::Run& r) { return p < r.first; });
    if (run != m_r.m_runs.begin()) --run;
    return core::SampleGrid{m_start, m_r.m_header.fs()}.timeOf(run->gridFirst + (point - run->first));
}

void BvOpener::describe()
{
    const BvHeader& h = m_r.m_header;
    core::RecordingInfo& info = m_r.m_info;
    info.format = h.version == 2 ? "BrainVision 2.0" : "BrainVision";
    info.start = m_start;
    info.timesKnown = m_dated;
    if (!m_dated)
        m_warnings.push_back("no \"New Segment\" marker gives a date: times are relative to the first data point "
                             "(1970-01-01), not true dates");
    info.description = h.comment;
    const core::SampleGrid grid{m_start, h.fs()};
    core::ChannelInfo base;
    base.fs = h.fs();
    base.start = m_start;
    for (const BvRecording::Run& run : m_r.m_runs) {
        if (run.end <= run.first) continue;
        const std::int64_t end = run.gridFirst + (run.end - run.first);
        if (!base.segments.empty() && base.segments.back().end == grid.timeOf(run.gridFirst))
            base.segments.back().end = grid.timeOf(end);
        else {
            if (!base.segments.empty()) base.gaps.push_back({base.segments.back().end, grid.timeOf(run.gridFirst)});
            base.segments.push_back({grid.timeOf(run.gridFirst), grid.timeOf(end)});
        }
        base.gridLength = end;
    }
    base.sampleCount = m_r.m_points;
    base.end = grid.timeOf(base.gridLength);
    for (std::size_t c = 0; c < h.channels.size(); ++c) {
        const BvChannel& bc = h.channels[c];
        core::ChannelInfo ch = base;
        ch.name = bc.name;
        ch.unit = bc.unit;
        ch.conversionFactor = bc.resolution * m_r.m_step[c];
        ch.floatBits = h.format == BinaryFormat::Float32 ? 32 : 0;
        if (!bc.reference.empty()) ch.description = "reference " + bc.reference;
        if (bc.coordinates)
            ch.description += (ch.description.empty() ? "" : "; ") + std::string("coordinates ") + *bc.coordinates;
        info.channels.push_back(std::move(ch));
    }
    info.end = base.end;
    for (const BvMarker& m : m_markers) {
        if (m.newSegment()) continue;
        core::Annotation a;
        a.time = timeOfPoint(m.position - 1);
        a.durationUs = m.size > 1 ? std::llround(static_cast<double>(m.size) * 1e6 / h.fs()) : 0;
        a.type = m.type;
        a.text = m.description;
        if (m.channel > 0) {
            if (static_cast<std::size_t>(m.channel) > h.channels.size()) {
                m_warnings.push_back("marker file line " + std::to_string(m.line) + ": channel " +
                                     std::to_string(m.channel) +
                                     " does not exist: the marker is read as on all channels");
            } else {
                a.channel = h.channels[static_cast<std::size_t>(m.channel) - 1].name;
            }
        }
        info.end = std::max(info.end, a.time + a.durationUs);
        info.annotations.push_back(std::move(a));
    }
    if (m_dated)
        if (auto w = core::futureStartWarning(info, core::nowUutc(), "the first \"New Segment\" marker's date"))
            m_warnings.push_back(*w);
    info.warnings = std::move(m_warnings);
}

core::Status BvOpener::run(const std::string& path)
{
    m_r.m_info.path = path;
    auto bytes = readText(path);
    if (!bytes) return bytes.error();
    auto header = parseHeader(*bytes, path, m_warnings);
    if (!header) return header.error();
    m_r.m_header = std::move(*header);
    LV_TRY(openData(path));
    readMarkers(path);
    placeSegments();
    cutBlocks();
    LV_TRY(chooseSteps());
    describe();
    return {};
}

core::Result<std::unique_ptr<BvRecording>> openBrainVision(const std::string& path)
{
    std::unique_ptr<BvRecording> recording(new BvRecording());
    BvOpener opener(*recording);
    LV_TRY(opener.run(path));
    return recording;
}

bool looksLikeBrainVision(const std::string& path)
{
    std::error_code ec;
    const std::filesystem::path p = io::toPath(path);
    if (!std::filesystem::is_regular_file(p, ec)) return false;
    if (core::asciiLower(io::toUtf8(p.extension())) == ".vhdr") return true;
    char first[64] = {};
    std::ifstream in(p, std::ios::binary);
    in.read(first, sizeof first - 1);
    const std::string line = core::asciiLower(std::string(first, static_cast<std::size_t>(in.gcount())));
    return (line.starts_with("brain vision") || line.starts_with("brainvision")) &&
           line.find("header file") != std::string::npos;
}

} // namespace lv::formats::brainvision
