// Record bodies decoded field by field at the offsets of the MEF 3.0 records specification.
#include "formats/mef3/Records.h"

#include "core/FieldReader.h"
#include "core/LittleEndian.h"
#include "core/TimeFormat.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/UniversalHeader.h"

#include <algorithm>
#include <vector>

namespace lv::formats::mef3 {

namespace le = core::le;
using Bytes = std::span<const std::uint8_t>;

namespace {

// A NUL-terminated string inside the body, bounded by the body and by `size`.
std::string bodyText(Bytes body, std::size_t at, std::size_t size)
{
    if (at >= body.size()) return {};
    return le::text(body, at, std::min(size, body.size() - at));
}

std::string number(double v) { return core::formatNumber(v, 6); }

void joinField(std::string& out, const std::string& label, const std::string& value)
{
    if (value.empty()) return;
    if (!out.empty()) out += "; ";
    out += label.empty() ? value : label + ": " + value;
}

void readSeiz(Bytes body, Record& r)
{
    if (body.size() < 1312) return;
    r.durationUs = le::i64(body, 16);
    r.text = bodyText(body, 288, 1024);
    joinField(r.text, "marker", bodyText(body, 32, 128));
    const std::int32_t channels = le::i32(body, 24);
    std::string names;
    for (std::int32_t i = 0; i < channels && 1312 + 272 * static_cast<std::size_t>(i + 1) <= body.size(); ++i)
        joinField(names, "", bodyText(body, 1312 + 272 * static_cast<std::size_t>(i), 256));
    joinField(r.text, "channels", names);
}

void readEsti(Bytes body, Record& r)
{
    if (body.size() < 416) return;
    joinField(r.text, "amplitude", number(le::f64(body, 0)));
    joinField(r.text, "frequency", number(le::f64(body, 8)));
    joinField(r.text, "pulse width", std::to_string(le::i64(body, 16)));
    joinField(r.text, "waveform", bodyText(body, 32, 128));
    joinField(r.text, "anode", bodyText(body, 160, 128));
    joinField(r.text, "cathode", bodyText(body, 288, 128));
}

void readBody(Bytes body, Record& r)
{
    if (r.type == "Note" || r.type == "SyLg") {
        r.text = bodyText(body, 0, body.size());
    } else if (r.type == "EDFA" && body.size() >= 8) {
        r.durationUs = le::i64(body, 0);
        r.text = bodyText(body, 8, body.size());
    } else if (r.type == "Seiz") {
        readSeiz(body, r);
    } else if (r.type == "Curs" && body.size() >= 160) {
        r.text = bodyText(body, 32, 128);
        joinField(r.text, "value", number(le::f64(body, 24)));
    } else if (r.type == "Epoc" && body.size() >= 192) {
        r.durationUs = le::i64(body, 24);
        r.text = bodyText(body, 64, 128);
        joinField(r.text, "epoch type", bodyText(body, 32, 32));
    } else if (r.type == "CSti" && body.size() >= 200) {
        r.durationUs = le::i64(body, 64);
        joinField(r.text, "task", bodyText(body, 0, 64));
        joinField(r.text, "stimulus", bodyText(body, 72, 64));
        joinField(r.text, "response", bodyText(body, 136, 64));
    } else if (r.type == "ESti") {
        readEsti(body, r);
    }
}

// Decrypts a body in place when its encryption level is positive; false when the access is too low.
bool openBody(std::vector<std::uint8_t>& body, int level, const Access& access)
{
    if (level <= 0) return true;
    const auto& key = level == 1 ? access.level1Key : access.level2Key;
    if (access.level < level || !key) return false;
    aesDecrypt(*key, std::span(body).first(body.size() / 16 * 16));
    return true;
}

} // namespace

core::Result<RecordsResult> parseRecords(Bytes file, const std::string& path, const Access& access)
{
    auto header = parseUniversalHeader(file, path, "rdat");
    if (!header) return header.error();
    RecordsResult result;
    std::size_t offset = kUniversalHeaderBytes;
    for (std::int64_t i = 0; i < header->numberOfEntries; ++i) {
        const std::string where = path + " (record " + std::to_string(i) + " at byte " + std::to_string(offset) + ")";
        if (offset + kRecordHeaderBytes > file.size()) {
            result.warnings.push_back(where + ": cut off; the remaining records are not read");
            break;
        }
        core::FieldReader h(file.subspan(offset, kRecordHeaderBytes), path, static_cast<std::int64_t>(offset));
        const std::uint32_t bytes = h.u32(12);
        if (bytes > file.size() - offset - kRecordHeaderBytes) {
            result.warnings.push_back(where +
                                      ": body runs past the end of the file; the remaining records are not read");
            break;
        }
        Record r;
        r.type = h.text(4, 4);
        r.time = h.i64(16);
        if (crc32(file.subspan(offset + 4, kRecordHeaderBytes - 4 + bytes)) != h.u32(0))
            result.warnings.push_back(where + ": record CRC mismatch");
        std::vector<std::uint8_t> body(file.begin() + static_cast<std::ptrdiff_t>(offset + kRecordHeaderBytes),
                                       file.begin() + static_cast<std::ptrdiff_t>(offset + kRecordHeaderBytes + bytes));
        r.readable = openBody(body, h.i8(11), access);
        if (r.readable) readBody(body, r);
        result.records.push_back(std::move(r));
        offset += kRecordHeaderBytes + bytes;
    }
    return result;
}

namespace {

// meflib's MEFREC_Seiz_1_0 without channel entries: onset, offset, duration, "no entry" onset code, the text as
// the annotation (at most 1023 bytes and a terminator).
std::vector<std::uint8_t> seizureBody(const Record& r)
{
    std::vector<std::uint8_t> body(1312, 0);
    le::store(&body[0], r.time);
    le::store(&body[8], r.time + r.durationUs);
    le::store(&body[16], r.durationUs);
    le::store(&body[24], std::int32_t{0});
    le::store(&body[28], std::int32_t{-1});
    std::copy_n(r.text.begin(), std::min<std::size_t>(r.text.size(), 1023), body.begin() + 288);
    return body;
}

bool writtenAsIs(const std::string& type)
{
    return type == "Note" || type == "SyLg" || type == "EDFA" || type == "Seiz";
}

// Other types go out as a Note ("Spike: text"), or with a duration as an EDFA record, which keeps it.
std::string writtenType(const Record& r)
{
    if (writtenAsIs(r.type) && !(r.type == "Note" && r.durationUs > 0)) return r.type;
    return r.durationUs > 0 ? "EDFA" : "Note";
}

std::vector<std::uint8_t> recordBody(const Record& r)
{
    if (r.type == "Seiz") return seizureBody(r);
    std::vector<std::uint8_t> body;
    if (writtenType(r) == "EDFA") {
        body.resize(8);
        le::store(body.data(), r.durationUs);
    }
    const std::string text =
        (r.type == "Note" || r.type == "SyLg" || r.type == "EDFA") ? r.text : r.type + ": " + r.text;
    body.insert(body.end(), text.begin(), text.end());
    body.push_back(0);
    while (body.size() % 16) body.push_back(0x7E);
    return body;
}

} // namespace

RecordFiles serializeRecords(const std::vector<Record>& records, const UniversalHeader& header, int level,
                             const Access& keys)
{
    RecordFiles f;
    f.rdat.assign(kUniversalHeaderBytes, 0);
    f.ridx.assign(kUniversalHeaderBytes, 0);
    std::int64_t largest = 0;
    for (const Record& r : records) {
        std::vector<std::uint8_t> body = recordBody(r);
        const auto& key = level == 1 ? keys.level1Key : keys.level2Key;
        if (level > 0 && key) aesEncrypt(*key, body);
        const std::string type = writtenType(r);
        const std::size_t at = f.rdat.size();
        f.rdat.resize(at + kRecordHeaderBytes, 0);
        std::copy(type.begin(), type.end(), f.rdat.begin() + static_cast<std::ptrdiff_t>(at + 4));
        f.rdat[at + 9] = 1; // record version 1.0
        f.rdat[at + 11] = static_cast<std::uint8_t>(static_cast<std::int8_t>(level));
        le::store(&f.rdat[at + 12], static_cast<std::uint32_t>(body.size()));
        le::store(&f.rdat[at + 16], r.time);
        f.rdat.insert(f.rdat.end(), body.begin(), body.end());
        le::store(&f.rdat[at], crc32(std::span(f.rdat).subspan(at + 4)));
        largest = std::max<std::int64_t>(largest, static_cast<std::int64_t>(kRecordHeaderBytes + body.size()));

        const std::size_t ix = f.ridx.size();
        f.ridx.resize(ix + 24, 0);
        std::copy(type.begin(), type.end(), f.ridx.begin() + static_cast<std::ptrdiff_t>(ix));
        f.ridx[ix + 5] = 1;
        f.ridx[ix + 7] = static_cast<std::uint8_t>(static_cast<std::int8_t>(level));
        le::store(&f.ridx[ix + 8], static_cast<std::int64_t>(at));
        le::store(&f.ridx[ix + 16], r.time);
    }
    UniversalHeader h = header;
    h.numberOfEntries = static_cast<std::int64_t>(records.size());
    if (!records.empty()) {
        h.startTime = records.front().time;
        h.endTime = records.back().time + 1;
    }
    h.fileType = "rdat";
    h.maximumEntrySize = largest;
    writeUniversalHeader(h, f.rdat);
    sealFile(f.rdat);
    h.fileType = "ridx";
    h.maximumEntrySize = 24;
    writeUniversalHeader(h, f.ridx);
    sealFile(f.ridx);
    return f;
}

} // namespace lv::formats::mef3
