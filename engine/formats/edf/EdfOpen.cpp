// Opening an EDF/BDF file: header, usable record count, TALs (time-keeping and annotations), record placement
// on each channel's grid, and the format-neutral description with segments and gaps.
#include "formats/edf/EdfIdentity.h"
#include "formats/edf/EdfRecording.h"
#include "formats/edf/Tal.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace lv::formats::edf {

class EdfOpener {
public:
    explicit EdfOpener(EdfRecording& r) : m_r(r), m_h(r.m_header), m_warnings(r.m_info.warnings) {}

    core::Status run(const std::string& path);

private:
    core::Status readHeader(const std::string& path);
    void countRecords();
    core::Status readAnnotations();
    void annotationsOfRecord(std::int64_t record, const std::uint8_t* bytes, bool& firstMissing);
    void placeRecords();
    void addChannel(std::size_t signal, std::set<std::string>& names);
    void describe();

    EdfRecording& m_r;
    EdfHeader& m_h;
    std::vector<std::string>& m_warnings;
    std::vector<std::size_t> m_annotationSignals;
    std::int64_t m_records = 0;
    std::vector<core::Uutc> m_recordTime; // per file record: start relative to the header's time (us)
    std::vector<bool> m_timeKept;         // per file record: had a time-keeping TAL
    std::size_t m_talProblems = 0;
};

core::Status EdfOpener::readHeader(const std::string& path)
{
    auto file = io::openFile(path);
    if (!file) return file.error();
    m_r.m_file = *file;
    const std::uint64_t size = m_r.m_file->size();
    std::vector<std::uint8_t> fixed(std::min<std::uint64_t>(size, kFixedHeaderBytes));
    LV_TRY(m_r.m_file->readAt(0, fixed));
    auto ns = signalCount(fixed, path);
    if (!ns) return ns.error();
    const std::uint64_t headerBytes = kFixedHeaderBytes + kSignalHeaderBytes * static_cast<std::uint64_t>(*ns);
    std::vector<std::uint8_t> header(std::min<std::uint64_t>(size, headerBytes));
    LV_TRY(m_r.m_file->readAt(0, header));
    auto parsed = parseHeader(header, path, m_warnings);
    if (!parsed) return parsed.error();
    m_h = std::move(*parsed);
    return {};
}

void EdfOpener::countRecords()
{
    const std::uint64_t size = m_r.m_file->size();
    const std::uint64_t data = size - static_cast<std::uint64_t>(m_h.headerBytes);
    if (m_h.recordBytes == 0) { // records of no bytes: their count is bounded by nothing the file holds
        if (m_h.recordCount > 0)
            m_warnings.push_back("no signal has samples: the " + std::to_string(m_h.recordCount) +
                                 " data records the header announces hold nothing");
        m_records = 0;
        return;
    }
    const auto whole = static_cast<std::int64_t>(data / m_h.recordBytes);
    if (data % m_h.recordBytes != 0)
        m_warnings.push_back("the last data record is cut off (" + std::to_string(data % m_h.recordBytes) + " of " +
                             std::to_string(m_h.recordBytes) + " bytes): ignored");
    if (m_h.recordCount == -1) {
        m_warnings.push_back("the number of data records is -1 (unknown): " + std::to_string(whole) +
                             " found from the file size");
        m_records = whole;
    } else if (m_h.recordCount > whole) {
        m_warnings.push_back("the header announces " + std::to_string(m_h.recordCount) +
                             " data records, the file holds " + std::to_string(whole) + ": read " +
                             std::to_string(whole));
        m_records = whole;
    } else {
        if (m_h.recordCount < whole)
            m_warnings.push_back("the file holds " + std::to_string(whole - m_h.recordCount) +
                                 " data records more than the header announces: ignored");
        m_records = m_h.recordCount;
    }
}

// The first TAL of a record's first annotation signal keeps its time ("+onset 20 20 0"); others are annotations.
void EdfOpener::annotationsOfRecord(std::int64_t record, const std::uint8_t* bytes, bool& firstMissing)
{
    std::vector<std::string> problems;
    for (std::size_t a = 0; a < m_annotationSignals.size(); ++a) {
        const EdfSignal& s = m_h.signals[m_annotationSignals[a]];
        const std::span<const std::uint8_t> area(bytes + s.offsetInRecord,
                                                 static_cast<std::size_t>(s.samplesPerRecord) * m_h.sampleBytes());
        std::vector<Tal> tals = parseTals(area, &problems);
        for (std::size_t t = 0; t < tals.size(); ++t) {
            Tal& tal = tals[t];
            std::size_t firstText = 0;
            if (a == 0 && t == 0 && !tal.texts.empty() && tal.texts[0].empty()) {
                m_recordTime[static_cast<std::size_t>(record)] = tal.onsetUs;
                m_timeKept[static_cast<std::size_t>(record)] = true;
                firstText = 1;
            }
            for (std::size_t k = firstText; k < tal.texts.size(); ++k) {
                if (tal.texts[k].empty()) continue;
                m_r.m_info.annotations.push_back(
                    {m_h.start + tal.onsetUs, tal.durationUs.value_or(0), "EDFA", tal.texts[k], std::nullopt});
            }
        }
    }
    if (!m_timeKept[static_cast<std::size_t>(record)] && !firstMissing) {
        firstMissing = true;
        m_warnings.push_back("data record " + std::to_string(record) +
                             " has no time-keeping annotation (and maybe others): placed after its predecessor");
    }
    m_talProblems += problems.size();
}

core::Status EdfOpener::readAnnotations()
{
    m_recordTime.resize(static_cast<std::size_t>(m_records));
    m_timeKept.assign(static_cast<std::size_t>(m_records), false);
    for (std::int64_t r = 0; r < m_records; ++r) m_recordTime[static_cast<std::size_t>(r)] = r * m_h.recordDurationUs;
    if (m_annotationSignals.empty() || m_records == 0) return {};
    const std::size_t perChunk = std::max<std::size_t>(1, (4u << 20) / m_h.recordBytes);
    std::vector<std::uint8_t> chunk;
    bool firstMissing = false;
    for (std::int64_t r = 0; r < m_records; r += static_cast<std::int64_t>(perChunk)) {
        const std::size_t n = std::min<std::size_t>(perChunk, static_cast<std::size_t>(m_records - r));
        chunk.resize(n * m_h.recordBytes);
        LV_TRY(m_r.m_file->readAt(
            static_cast<std::uint64_t>(m_h.headerBytes) + static_cast<std::uint64_t>(r) * m_h.recordBytes, chunk));
        for (std::size_t k = 0; k < n; ++k)
            annotationsOfRecord(r + static_cast<std::int64_t>(k), chunk.data() + k * m_h.recordBytes, firstMissing);
    }
    for (std::int64_t r = 1; r < m_records; ++r) // records without a time follow their predecessor
        if (!m_timeKept[static_cast<std::size_t>(r)])
            m_recordTime[static_cast<std::size_t>(r)] =
                m_recordTime[static_cast<std::size_t>(r) - 1] + m_h.recordDurationUs;
    if (m_talProblems > 0)
        m_warnings.push_back(std::to_string(m_talProblems) + " malformed annotation lists (TALs) were skipped");
    return {};
}

// Blocks in time order; EDF and EDF+C records follow each other (record r at tk0 + r * duration).
void EdfOpener::placeRecords()
{
    m_r.m_blockCount = static_cast<std::size_t>(m_records);
    if (m_h.variant != Variant::EdfPlusD) {
        m_r.m_layout = EdfRecording::Layout::Regular;
        for (std::int64_t r = 1; r < m_records; ++r)
            m_recordTime[static_cast<std::size_t>(r)] = m_recordTime[0] + r * m_h.recordDurationUs;
        return;
    }
    m_r.m_recordOf.resize(static_cast<std::size_t>(m_records));
    std::iota(m_r.m_recordOf.begin(), m_r.m_recordOf.end(), 0);
    const bool ordered = std::is_sorted(m_recordTime.begin(), m_recordTime.end());
    if (!ordered) {
        m_warnings.push_back("EDF+D data records are not in time order: read in time order");
        std::stable_sort(m_r.m_recordOf.begin(), m_r.m_recordOf.end(), [&](std::int64_t a, std::int64_t b) {
            return m_recordTime[static_cast<std::size_t>(a)] < m_recordTime[static_cast<std::size_t>(b)];
        });
    }
    // Records that never overlap their predecessor on any channel's grid are placed from their times alone (8 bytes
    // a record); otherwise every channel's blocks are listed (24 bytes a record and channel).
    const core::Uutc t0 = m_records > 0 ? m_recordTime[static_cast<std::size_t>(m_r.recordOf(0))] : 0;
    m_r.m_blockTime.resize(m_r.m_blockCount);
    for (std::size_t b = 0; b < m_r.m_blockCount; ++b)
        m_r.m_blockTime[b] = m_recordTime[static_cast<std::size_t>(m_r.recordOf(b))] - t0;
    bool overlaps = false;
    for (std::size_t k = 0; k < m_h.signals.size() && !overlaps; ++k) {
        const auto n = static_cast<std::uint32_t>(m_h.signals[k].samplesPerRecord);
        std::int64_t end = 0;
        for (std::size_t b = 0; b < m_r.m_blockCount && !overlaps; ++b) {
            const std::int64_t first = m_r.timedFirst(m_r.m_blockTime[b], n);
            overlaps = b > 0 && first < end;
            end = first + n;
        }
    }
    m_r.m_layout = overlaps ? EdfRecording::Layout::Listed : EdfRecording::Layout::Timed;
    if (overlaps) m_r.m_blockTime = {};
}

void EdfOpener::addChannel(std::size_t signal, std::set<std::string>& names)
{
    const EdfSignal& s = m_h.signals[signal];
    core::ChannelInfo ch;
    ch.name = s.label.empty() ? "signal " + std::to_string(signal + 1) : s.label;
    for (int n = 2; !names.insert(ch.name).second; ++n) ch.name = s.label + " (" + std::to_string(n) + ")";
    if (ch.name != s.label)
        m_warnings.push_back("signal " + std::to_string(signal + 1) + " is named \"" + ch.name + "\"");
    ch.fs = s.samplesPerRecord / m_h.recordSeconds;
    ch.unit = s.unit;
    ch.conversionFactor = s.factor;
    ch.offset = s.offset;
    ch.description = s.transducer + (s.prefilter.empty() ? "" : (s.transducer.empty() ? "" : "; ") + s.prefilter);
    ch.prefilter = s.prefilter;
    const core::Uutc t0 = m_recordTime.empty() ? 0 : m_recordTime[static_cast<std::size_t>(m_r.recordOf(0))];
    ch.start = m_h.start + t0;
    const core::SampleGrid grid = ch.grid();
    std::vector<core::BlockSpan> spans;
    std::int64_t end = 0, overlaps = 0;
    const auto n = static_cast<std::uint32_t>(s.samplesPerRecord);
    m_r.m_perRecord.push_back(n);
    if (m_r.m_layout == EdfRecording::Layout::Regular) { // back to back: one segment, spans computed when needed
        end = static_cast<std::int64_t>(m_r.m_blockCount) * n;
        if (end > 0) ch.segments.push_back({grid.timeOf(0), grid.timeOf(end)});
        ch.sampleCount = end;
    }
    const bool list = m_r.m_layout == EdfRecording::Layout::Listed;
    for (std::size_t b = 0; m_r.m_layout != EdfRecording::Layout::Regular && b < m_r.m_blockCount; ++b) {
        const core::Uutc t = m_recordTime[static_cast<std::size_t>(m_r.recordOf(b))] - t0;
        std::int64_t first = std::llround(static_cast<double>(t) * s.samplesPerRecord / (m_h.recordSeconds * 1e6));
        if (first < end) ++overlaps, first = end;
        if (list) spans.push_back({first, n, 0, 0, false});
        if (!ch.segments.empty() && first == end)
            ch.segments.back().end = grid.timeOf(first + n);
        else
            ch.segments.push_back({grid.timeOf(first), grid.timeOf(first + n)});
        if (b > 0 && first > end) ch.gaps.push_back({grid.timeOf(end), grid.timeOf(first)});
        end = first + n;
        ch.sampleCount += n;
    }
    if (overlaps > 0 && m_r.m_perRecord.size() == 1)
        m_warnings.push_back(std::to_string(overlaps) + " data records overlap their predecessor: moved after it");
    ch.gridLength = end;
    ch.end = grid.timeOf(end);
    m_r.m_spans.push_back(std::move(spans));
    m_r.m_signalOf.push_back(signal);
    m_r.m_info.channels.push_back(std::move(ch));
}

void EdfOpener::describe()
{
    core::RecordingInfo& info = m_r.m_info;
    info.format = m_h.formatName();
    if (m_h.startDateUnknown) {
        info.timesKnown = false;
        m_warnings.push_back("the start date is unknown (EDF+ \"Startdate X\"): times are relative to 01.01.85 "
                             "00.00.00, not true dates");
    }
    const core::Uutc t0 = m_recordTime.empty() ? 0 : m_recordTime[static_cast<std::size_t>(m_r.recordOf(0))];
    info.start = m_h.start + t0;
    info.end = info.start + m_records * m_h.recordDurationUs;
    for (const core::ChannelInfo& ch : info.channels) {
        info.start = std::min(info.start, ch.start);
        info.end = std::max(info.end, ch.end);
    }
    std::stable_sort(info.annotations.begin(), info.annotations.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    for (const core::Annotation& a : info.annotations) info.end = std::max(info.end, a.time + a.durationUs);
    if (auto w = core::futureStartWarning(info, core::nowUutc(), "the start date and time (header byte 168)"))
        m_warnings.push_back(*w);
}

core::Status EdfOpener::run(const std::string& path)
{
    m_r.m_info.path = path;
    LV_TRY(readHeader(path));
    m_r.m_info.subject = readPatientField(m_h.patient, m_h.variant != Variant::Edf);
    m_r.m_info.site = readRecordingField(m_h.recording, m_h.variant != Variant::Edf);
    countRecords();
    for (std::size_t k = 0; k < m_h.signals.size(); ++k)
        if (m_h.signals[k].annotations) m_annotationSignals.push_back(k);
    if (m_h.variant != Variant::Edf && m_annotationSignals.empty()) {
        m_warnings.push_back(m_h.formatName() + " without an annotation signal: read as plain " +
                             (m_h.bdf ? "BDF" : "EDF") + " (records follow each other)");
        m_h.variant = Variant::Edf;
    }
    LV_TRY(readAnnotations());
    placeRecords();
    std::set<std::string> names;
    for (std::size_t k = 0; k < m_h.signals.size(); ++k) {
        const EdfSignal& s = m_h.signals[k];
        if (s.annotations) continue;
        if (s.samplesPerRecord == 0 || m_h.recordSeconds <= 0.0) {
            m_warnings.push_back("signal " + std::to_string(k + 1) + " (\"" + s.label +
                                 "\") has no samples per second (record duration " +
                                 trimmed(std::to_string(m_h.recordSeconds)) + " s, " +
                                 std::to_string(s.samplesPerRecord) + " samples a record): skipped");
            continue;
        }
        addChannel(k, names);
    }
    describe();
    return {};
}

core::Result<std::unique_ptr<EdfRecording>> openEdf(const std::string& path)
{
    std::unique_ptr<EdfRecording> recording(new EdfRecording());
    EdfOpener opener(*recording);
    LV_TRY(opener.run(path));
    return recording;
}

} // namespace lv::formats::edf
