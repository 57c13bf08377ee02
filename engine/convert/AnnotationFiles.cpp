// CSV rows (RFC 4180, with the formula guard undone) and one-record EDF+ annotation files.
#include "convert/AnnotationFiles.h"

#include "convert/CsvSideFiles.h"
#include "convert/EdfExport.h"
#include "core/AsciiLower.h"
#include "core/TimeFormat.h"
#include "formats/RecordingOpener.h"
#include "formats/edf/EdfIdentity.h"
#include "formats/edf/EdfWriter.h"
#include "formats/edf/Tal.h"
#include "io/ByteSource.h"
#include "io/WritableFile.h"

#include <charconv>
#include <cmath>
#include <filesystem>

namespace lv::convert {

namespace {

using core::ErrorCode;
using core::makeError;
namespace edf = formats::edf;

std::string extensionOf(const std::string& path)
{
    return core::asciiLower(std::filesystem::path(path).extension().string());
}

core::Status replaceWith(const std::string& path, const std::string& bytes)
{
    return io::replaceFile(path, std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), true);
}

core::Status writeEdf(const std::vector<core::Annotation>& list, const core::RecordingInfo& info,
                      const std::string& path)
{
    const core::Uutc headerStart =
        static_cast<core::Uutc>(std::floor(static_cast<double>(info.start) / 1e6)) * 1'000'000;
    std::string tals = edf::formatTal(info.start - headerStart, std::nullopt, {""}); // the record's own time
    for (const core::Annotation& a : list)
        tals += edf::formatTal(a.time - headerStart,
                               a.durationUs > 0 ? std::optional<core::Uutc>(a.durationUs) : std::nullopt,
                               {edfAnnotationText(a)});
    if (tals.size() % 2) tals += '\0';
    edf::WriterHeader h;
    h.patient = "X X X X";
    h.recording = edf::recordingField(info.start, {}, info.timesKnown);
    h.start = headerStart;
    h.recordCount = 1;
    h.recordSeconds = 1; // EDF+ allows 0 for annotations only, but EDFbrowser refuses it (and the hypnograms so made)
    h.signals.push_back(
        {"EDF Annotations", "", "", "-1", "1", -32768, 32767, "", static_cast<std::int32_t>(tals.size() / 2)});
    auto header = edf::formatHeader(h);
    if (!header) return core::Error{header.error().code, header.error().message, path, -1};
    std::string bytes = *header;
    edf::appendRecord(bytes, false, {}, tals, tals.size());
    return replaceWith(path, bytes);
}

// One RFC 4180 record from `text` at `at` (advanced past its line end); false at the end.
bool nextRow(std::string_view text, std::size_t& at, char delimiter, std::vector<std::string>& cells)
{
    cells.clear();
    if (at >= text.size()) return false;
    std::string cell;
    bool quoted = false;
    for (; at < text.size(); ++at) {
        const char c = text[at];
        if (quoted) {
            if (c != '"')
                cell += c;
            else if (at + 1 < text.size() && text[at + 1] == '"')
                cell += '"', ++at;
            else
                quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == delimiter) {
            cells.push_back(std::move(cell)), cell.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && at + 1 < text.size() && text[at + 1] == '\n') ++at;
            ++at;
            break;
        } else {
            cell += c;
        }
    }
    cells.push_back(std::move(cell));
    return true;
}

// A text cell as written: a leading "'" before a formula character was the guard (csvTextCell).
std::string unguarded(std::string cell)
{
    if (cell.size() > 1 && cell[0] == '\'' && std::string_view("=+-@\t\r").find(cell[1]) != std::string_view::npos)
        cell.erase(0, 1);
    return cell;
}

std::optional<std::int64_t> microseconds(std::string cell)
{
    for (char& c : cell)
        if (c == ',') c = '.'; // a decimal comma
    double v = 0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(v) || std::abs(v) > 1e12)
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(v * 1e6));
}

} // namespace

core::Result<std::vector<core::Annotation>> parseAnnotationsCsv(std::string_view text, const std::string& path,
                                                                const core::RecordingInfo& info)
{
    const std::string_view head = "onset_iso";
    if (text.substr(0, head.size()) != head || text.size() <= head.size())
        return makeError(ErrorCode::Corrupt, "not an annotations CSV: the first row must start with \"onset_iso\"",
                         path);
    const char delimiter = text[head.size()];
    std::size_t at = 0;
    std::vector<std::string> cells;
    nextRow(text, at, delimiter, cells); // the header
    std::vector<core::Annotation> out;
    for (int row = 2; nextRow(text, at, delimiter, cells); ++row) {
        if (cells.size() == 1 && cells[0].empty()) continue; // a blank line
        const auto bad = [&](const std::string& what) {
            return makeError(ErrorCode::Corrupt, "row " + std::to_string(row) + ": " + what, path);
        };
        if (cells.size() != 6) return bad("has " + std::to_string(cells.size()) + " cells, not 6");
        core::Annotation a;
        if (!cells[0].empty()) {
            const auto t = core::parseTimeArgument(cells[0], info.start);
            if (!t) return bad("the onset \"" + cells[0] + "\" is not an ISO 8601 time");
            a.time = *t;
        } else {
            const auto s = microseconds(cells[1]);
            if (!s) return bad("the onset \"" + cells[1] + "\" is not a number of seconds");
            a.time = info.start + *s;
        }
        const auto d = microseconds(cells[2]);
        if (!d || *d < 0) return bad("the duration \"" + cells[2] + "\" is not a number of seconds");
        a.durationUs = *d;
        a.type = unguarded(cells[3]);
        a.text = unguarded(cells[4]);
        if (const std::string channel = unguarded(cells[5]); !channel.empty()) {
            if (info.channelIndex(channel) < 0) return bad("this recording has no channel \"" + channel + "\"");
            a.channel = channel;
        }
        if (a.time < info.start || a.time > info.end) return bad("the onset lies outside this recording");
        out.push_back(std::move(a));
    }
    return out;
}

namespace {

core::Result<std::vector<core::Annotation>> readCsv(const std::string& path, const core::RecordingInfo& info)
{
    auto bytes = io::readFile(path);
    if (!bytes) return bytes.error();
    return parseAnnotationsCsv(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()), path,
                               info);
}

core::Result<std::vector<core::Annotation>> readEdf(const std::string& path, const core::RecordingInfo& info)
{
    auto recording = formats::openRecording({path, "", ""});
    if (!recording) return recording.error();
    std::vector<core::Annotation> out;
    for (core::Annotation a : (*recording)->info().annotations) {
        if (a.time < info.start || a.time > info.end)
            return makeError(ErrorCode::Corrupt,
                             "the annotation at " + core::formatIso(a.time) + " lies outside this recording", path);
        if (a.type == "EDFA") a.type = "Note";
        if (a.channel && info.channelIndex(*a.channel) < 0) a.channel.reset();
        out.push_back(std::move(a));
    }
    return out;
}

} // namespace

core::Status writeAnnotationFile(const std::vector<core::Annotation>& annotations, const core::RecordingInfo& info,
                                 const std::string& path)
{
    const std::string e = extensionOf(path);
    if (e == ".csv") return replaceWith(path, annotationsCsv(annotations, info.start, info.timesKnown));
    if (e == ".edf") return writeEdf(annotations, info, path);
    return makeError(ErrorCode::InvalidArgument, "annotations are written as .csv or .edf", path);
}

core::Result<std::vector<core::Annotation>> readAnnotationFile(const std::string& path, const core::RecordingInfo& info)
{
    const std::string e = extensionOf(path);
    if (e == ".csv") return readCsv(path, info);
    if (e == ".edf" || e == ".bdf") return readEdf(path, info);
    return makeError(ErrorCode::InvalidArgument, "annotations are read from .csv, .edf or .bdf files", path);
}

} // namespace lv::convert
