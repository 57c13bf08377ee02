// Field tables of the corruption corpus: MEF 3.0 offsets as engine/formats/mef3 reads them, EDF's ASCII
// header layout, ustar member headers.
#include "CaseFields.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <sstream>

namespace lv::corpus {

namespace {

constexpr std::size_t kHeader = 1024;
constexpr std::size_t kIndexEntry = 56;
constexpr std::size_t kRecordHeader = 24;
constexpr std::size_t kRecordIndexEntry = 24;
constexpr std::size_t kRedHeader = 304;
constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax64 = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t k55Years = 1'735'689'600'000'000; // microseconds

template <typename T>
std::vector<std::uint8_t> le(T v)
{
    std::vector<std::uint8_t> b(sizeof(T));
    std::memcpy(b.data(), &v, sizeof(T));
    return b;
}

template <typename T>
T load(const std::vector<std::uint8_t>& f, std::size_t at)
{
    T v{};
    if (at + sizeof(T) <= f.size()) std::memcpy(&v, &f[at], sizeof(T));
    return v;
}

std::string show(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

class Edits {
public:
    explicit Edits(const std::vector<std::uint8_t>& file) : m_file(file) {}
    void i64(const std::string& name, std::size_t at, std::initializer_list<std::int64_t> values)
    {
        for (std::int64_t v : values) add(name, at, std::to_string(v), le(v));
    }
    void i32(const std::string& name, std::size_t at, std::initializer_list<std::int32_t> values)
    {
        for (std::int32_t v : values) add(name, at, std::to_string(v), le(v));
    }
    void u32(const std::string& name, std::size_t at, std::initializer_list<std::uint32_t> values)
    {
        for (std::uint32_t v : values) add(name, at, std::to_string(v), le(v));
    }
    void f64(const std::string& name, std::size_t at, std::initializer_list<double> values)
    {
        for (double v : values) add(name, at, show(v), le(v));
    }
    void f32(const std::string& name, std::size_t at, std::initializer_list<float> values)
    {
        for (float v : values) add(name, at, show(v), le(v));
    }
    // Big-endian (CDF's internal records): the little-endian bytes reversed.
    void be(const std::string& name, std::size_t at, std::size_t size, std::initializer_list<std::int64_t> values,
            Seen seen = Seen::Always)
    {
        for (std::int64_t v : values) {
            std::vector<std::uint8_t> b = le(v);
            b.resize(size);
            std::reverse(b.begin(), b.end());
            add(name, at, std::to_string(v), std::move(b));
            if (!m_edits.empty() && m_edits.back().offset == at) m_edits.back().seen = seen;
        }
    }
    void u8(const std::string& name, std::size_t at, std::initializer_list<std::uint8_t> values)
    {
        for (std::uint8_t v : values) add(name, at, std::to_string(v), {v});
    }
    void text(const std::string& name, std::size_t at, std::size_t width, std::initializer_list<const char*> values)
    {
        for (const char* v : values) {
            std::vector<std::uint8_t> b(width, ' ');
            std::copy_n(v, std::min(width, std::strlen(v)), b.begin());
            add(name, at, std::string("\"") + v + "\"", b);
        }
    }
    void add(const std::string& name, std::size_t at, const std::string& value, std::vector<std::uint8_t> bytes)
    {
        if (at + bytes.size() > m_file.size()) return;
        if (std::equal(bytes.begin(), bytes.end(), m_file.begin() + static_cast<std::ptrdiff_t>(at))) return;
        m_edits.push_back({"field " + name + "@" + std::to_string(at) + "=" + value, at, std::move(bytes)});
    }
    std::vector<FieldEdit> take() { return std::move(m_edits); }
    // Marks the edits whose `what` ends with `suffix`.
    void mark(const std::string& suffix, Seen seen)
    {
        for (FieldEdit& e : m_edits)
            if (e.what.size() >= suffix.size() &&
                e.what.compare(e.what.size() - suffix.size(), suffix.size(), suffix) == 0)
                e.seen = seen;
    }

private:
    const std::vector<std::uint8_t>& m_file;
    std::vector<FieldEdit> m_edits;
};

// a + b as two's complement wraps (the fields hold whatever the file holds, INT64_MIN included).
std::int64_t wrapAdd(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

void universalHeader(Edits& e, const std::vector<std::uint8_t>& f)
{
    const std::int64_t start = load<std::int64_t>(f, 16);
    const std::int64_t entries = load<std::int64_t>(f, 32);
    e.i64("startTime", 16, {0, -1, kMin64, kMax64, wrapAdd(start, k55Years)});
    e.i64("endTime", 24, {0, kMin64, kMax64, wrapAdd(start, -1)});
    e.i64("numberOfEntries", 32, {0, -1, wrapAdd(entries, 1), std::int64_t{1} << 31, kMax64});
    e.i64("maximumEntrySize", 40, {0, -1, kMax64});
    e.i32("segmentNumber", 48, {-1, 999999, std::numeric_limits<std::int32_t>::max()});
}

void metadata(Edits& e, const std::vector<std::uint8_t>& f)
{
    e.u8("section2Encryption", 1024, {1, 2, 0xFF, 5});
    // Encryption bytes <= 0 mean "not encrypted" (negative: meant for that level, stored decrypted).
    if (load<std::int8_t>(f, 1024) <= 0) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        e.f64("samplingFrequency", 8720, {0, -1, nan, inf, 1e300, 1e-300, 1e9, 1e-5});
        e.f64("unitsConversionFactor", 8760, {0, nan, inf, 1e300});
        e.i64("recordingDuration", 6656, {0, -1, kMax64});
        e.i64("startSample", 8912, {-1, kMax64, std::int64_t{1} << 40});
        e.i64("numberOfSamples", 8920, {0, -1, kMax64, std::int64_t{1} << 40});
        e.i64("numberOfBlocks", 8928, {0, -1, kMax64});
        e.i64("maximumBlockBytes", 8936, {0, -1, kMax64});
        e.u32("maximumBlockSamples", 8944, {0, 0xFFFFFFFFu});
        e.u32("maximumDifferenceBytes", 8948, {0, 0xFFFFFFFFu});
        e.i64("blockInterval", 8952, {0, -1, kMax64});
        e.i64("numberOfDiscontinuities", 8960, {-1, kMax64});
    }
    if (load<std::int8_t>(f, 1025) <= 0) {
        e.i64("recordingTimeOffset", 13312, {kMin64, kMax64, k55Years});
        // No offset (UUTC_NO_ENTRY) with offset times is exactly what a copy of a level-1 view holds: times read
        // as relative, said so by every command, but nothing tells it from such a copy.
        e.mark("recordingTimeOffset@13312=" + std::to_string(kMin64), Seen::Never);
        e.i32("gmtOffset", 13336, {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()});
    }
}

void index(Edits& e, const std::vector<std::uint8_t>& f)
{
    const std::size_t n = f.size() > kHeader ? (f.size() - kHeader) / kIndexEntry : 0;
    std::set<std::size_t> entries;
    if (n > 0) entries = {0, n / 2, n - 1};
    for (std::size_t i : entries) {
        const std::size_t at = kHeader + i * kIndexEntry;
        const std::string name = "entry" + std::to_string(i) + ".";
        const std::int64_t time = load<std::int64_t>(f, at + 8);
        const std::int64_t sample = load<std::int64_t>(f, at + 16);
        e.i64(name + "fileOffset", at, {0, -1, kMax64, std::int64_t{1} << 40});
        e.i64(name + "startTime", at + 8, {0, kMin64, kMax64, wrapAdd(time, k55Years), wrapAdd(time, -1'000'000)});
        e.i64(name + "startSample", at + 16, {-1, kMax64, sample + (std::int64_t{1} << 32)});
        e.u32(name + "numberOfSamples", at + 24, {0, 0xFFFFFFFFu, 0x80000000u});
        e.u32(name + "blockBytes", at + 28, {0, 1, 0xFFFFFFFFu});
    }
}

void redBlocks(Edits& e, const std::vector<std::uint8_t>& f)
{
    std::size_t at = kHeader;
    for (int block = 0; block < 2 && at + kRedHeader <= f.size(); ++block) {
        const std::string name = "block" + std::to_string(block) + ".";
        const auto count = load<std::uint32_t>(f, at + 32);
        const auto bytes = load<std::uint32_t>(f, at + 36);
        const auto time = load<std::int64_t>(f, at + 40);
        e.u8(name + "flags", at + 4, {0xFF});
        e.f32(name + "detrendSlope", at + 16, {std::numeric_limits<float>::quiet_NaN()});
        e.f32(name + "scaleFactor", at + 24, {0, std::numeric_limits<float>::quiet_NaN(), 1e30f});
        e.u32(name + "differenceBytes", at + 28, {0, 0xFFFFFFFFu});
        e.u32(name + "numberOfSamples", at + 32, {0, count + 1, 0xFFFFFFFFu});
        e.u32(name + "blockBytes", at + 36, {0, bytes + 16, 0xFFFFFFFFu});
        e.i64(name + "startTime", at + 40, {kMin64, kMax64, wrapAdd(time, k55Years)});
        if (bytes == 0) break;
        at += bytes;
    }
}

void records(Edits& e, const std::vector<std::uint8_t>& f)
{
    std::size_t at = kHeader;
    for (int r = 0; r < 2 && at + kRecordHeader <= f.size(); ++r) {
        const std::string name = "record" + std::to_string(r) + ".";
        const auto bytes = load<std::uint32_t>(f, at + 12);
        e.text(name + "type", at + 4, 4, {"XXXX"});
        e.u8(name + "encryption", at + 11, {1, 2, 0xFF});
        e.u32(name + "bytes", at + 12, {0, bytes + 1, 0xFFFFFFFFu});
        e.i64(name + "time", at + 16, {kMin64, kMax64});
        at += kRecordHeader + bytes;
    }
}

void recordIndex(Edits& e)
{
    for (std::size_t i = 0; i < 2; ++i) {
        const std::size_t at = kHeader + i * kRecordIndexEntry;
        const std::string name = "entry" + std::to_string(i) + ".";
        e.text(name + "type", at, 4, {"XXXX"});
        e.i64(name + "fileOffset", at + 8, {-1, kMax64, std::int64_t{1} << 40});
        e.i64(name + "time", at + 16, {kMin64, kMax64});
    }
}

std::size_t edfNumber(const std::vector<std::uint8_t>& f, std::size_t at, std::size_t width)
{
    if (at + width > f.size()) return 0;
    try {
        return static_cast<std::size_t>(std::stoul(std::string(f.begin() + at, f.begin() + at + width)));
    } catch (...) {
        return 0;
    }
}

} // namespace

std::vector<FieldEdit> mefFieldEdits(const std::vector<std::uint8_t>& file, const std::string& type)
{
    Edits e(file);
    universalHeader(e, file);
    if (type == "tmet") metadata(e, file);
    if (type == "tidx") index(e, file);
    if (type == "tdat") redBlocks(e, file);
    if (type == "rdat") records(e, file);
    if (type == "ridx") recordIndex(e);
    return e.take();
}

std::vector<FieldEdit> edfFieldEdits(const std::vector<std::uint8_t>& file)
{
    Edits e(file);
    e.text("version", 0, 8, {"1", "abc"});
    e.text("startDate", 168, 8, {"99.99.99", "abc"});
    e.text("startTime", 176, 8, {"25.61.61"});
    e.text("headerBytes", 184, 8, {"0", "-1", "256", "99999999"});
    e.text("numberOfRecords", 236, 8, {"0", "-1", "1", "99999999", "abc"});
    e.text("recordDuration", 244, 8, {"0", "-1", "1e-300", "1e-5", "1e300", "nan", "abc"});
    e.text("numberOfSignals", 252, 4, {"0", "-1", "1", "9999"});
    const std::size_t ns = edfNumber(file, 252, 4);
    std::set<std::size_t> signals;
    if (ns > 0) signals = {0, ns - 1};
    for (std::size_t s : signals) {
        const std::string name = "signal" + std::to_string(s) + ".";
        e.text(name + "physicalMinimum", 256 + 104 * ns + 8 * s, 8, {"0", "nan", "-1e300"});
        e.text(name + "physicalMaximum", 256 + 112 * ns + 8 * s, 8, {"nan", "1e300"});
        e.text(name + "digitalMinimum", 256 + 120 * ns + 8 * s, 8, {"0", "-9999999", "abc"});
        e.text(name + "digitalMaximum", 256 + 128 * ns + 8 * s, 8, {"0", "99999999"});
        e.text(name + "samplesPerRecord", 256 + 216 * ns + 8 * s, 8, {"0", "-1", "1", "99999999"});
        // A physical minimum of 0 below a positive maximum is a valid header of another scale (EDF has no
        // checksum); a digital range of 0 at one end leaves samples outside it, which only a read sees.
        e.mark(name + "physicalMinimum@" + std::to_string(256 + 104 * ns + 8 * s) + "=\"0\"", Seen::Never);
        e.mark(name + "digitalMinimum@" + std::to_string(256 + 120 * ns + 8 * s) + "=\"0\"", Seen::ByReads);
        e.mark(name + "digitalMaximum@" + std::to_string(256 + 128 * ns + 8 * s) + "=\"0\"", Seen::ByReads);
    }
    return e.take();
}

std::size_t mdf4Block(const std::vector<std::uint8_t>& f, const char* id)
{
    for (std::size_t at = 64; at + 24 <= f.size(); at += 8)
        if (std::memcmp(&f[at], id, 4) == 0) return at;
    return 0;
}

std::vector<FieldEdit> mdf4FieldEdits(const std::vector<std::uint8_t>& f)
{
    Edits e(f);
    const auto data = [&](std::size_t block) { return block + 24 + 8 * load<std::uint64_t>(f, block + 16); };
    e.i64("HD.firstDataGroup", 88, {std::int64_t{1} << 50, 64, 12});
    if (const std::size_t dg = mdf4Block(f, "##DG"); dg != 0) {
        e.i64("DG.next", dg + 24, {static_cast<std::int64_t>(dg)}); // a loop
        e.i64("DG.length", dg + 8, {0, std::int64_t{1} << 60});
        e.i64("DG.data", dg + 40, {std::int64_t{1} << 50, static_cast<std::int64_t>(dg)});
    }
    if (const std::size_t cg = mdf4Block(f, "##CG"); cg != 0) {
        e.i64("CG.cycleCount", data(cg) + 8, {0, std::int64_t{1} << 40, -1});
        e.u32("CG.dataBytes", data(cg) + 24, {0, 0xFFFFFFFFu});
        e.i64("CG.linkCount", cg + 16, {std::int64_t{1} << 40});
    }
    if (const std::size_t cn = mdf4Block(f, "##CN"); cn != 0) {
        e.u8("CN.dataType", data(cn) + 2, {99});
        e.u32("CN.byteOffset", data(cn) + 4, {0xFFFFFFF0u});
        e.u32("CN.bitCount", data(cn) + 8, {0, 65, 0xFFFFFFFFu});
    }
    if (const std::size_t dz = mdf4Block(f, "##DZ"); dz != 0) {
        e.u8("DZ.zipType", data(dz) + 2, {7});
        e.u32("DZ.zipParameter", data(dz) + 4, {0, 0xFFFFFFFFu});
        e.i64("DZ.originalBytes", data(dz) + 8, {0, std::int64_t{1} << 40});
        e.i64("DZ.zippedBytes", data(dz) + 16, {0, std::int64_t{1} << 40});
    }
    if (const std::size_t dl = mdf4Block(f, "##DL"); dl != 0) e.u32("DL.count", data(dl) + 4, {0xFFFFFFFFu});
    if (const std::size_t cc = mdf4Block(f, "##CC"); cc != 0) e.u8("CC.type", data(cc), {99});
    if (const std::size_t ev = mdf4Block(f, "##EV"); ev != 0)
        e.i64("EV.next", ev + 24, {static_cast<std::int64_t>(ev)});
    return e.take();
}

std::vector<FieldEdit> tarFieldEdits(const std::vector<std::uint8_t>& file)
{
    Edits e(file);
    std::vector<std::size_t> headers;
    for (std::size_t at = 0; at + 512 <= file.size();) {
        if (std::all_of(file.begin() + at, file.begin() + at + 512, [](std::uint8_t b) { return b == 0; })) break;
        headers.push_back(at);
        std::size_t size = 0;
        for (std::size_t i = 124; i < 136 && file[at + i] >= '0' && file[at + i] <= '7'; ++i)
            size = size * 8 + (file[at + i] - '0');
        at += 512 + (size + 511) / 512 * 512;
    }
    std::set<std::size_t> chosen;
    for (std::size_t i = 0; i < headers.size() && i < 3; ++i) chosen.insert(i);
    if (!headers.empty()) chosen.insert(headers.size() - 1);
    for (std::size_t i : chosen) {
        const std::size_t at = headers[i];
        const std::string name = "member" + std::to_string(i) + ".";
        e.add(name + "header", at, "zeros", std::vector<std::uint8_t>(512, 0));
        e.text(name + "size", at + 124, 12, {"77777777777", "00000000000", "00000001000", "abc"});
        e.add(name + "name", at, "\"../x\"", {'.', '.', '/', 'x', 0});
        e.text(name + "typeflag", at + 156, 1, {"5", "x"});
    }
    return e.take();
}

std::vector<FieldEdit> cdfFieldEdits(const std::vector<std::uint8_t>& f)
{
    Edits e(f);
    if (f.size() < 8 || f[0] == 0 || f[4] == 0xCC) return e.take(); // CDF 2 edits need CDF 3 offsets; compressed: none
    const std::size_t o = 8, h = 12;                                // CDF 3: 8-byte offsets and sizes
    const auto be64 = [&](std::size_t at) {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < 8 && at + i < f.size(); ++i) v = v << 8 | f[at + i];
        return static_cast<std::size_t>(std::min<std::uint64_t>(v, f.size()));
    };
    const std::size_t gdr = be64(8 + h);
    e.be("CDR.GDRoffset", 8 + h, o, {std::int64_t{1} << 50, 8, 0});
    e.be("GDR.zVDRhead", gdr + h + o, o, {std::int64_t{1} << 50, static_cast<std::int64_t>(gdr)});
    e.be("GDR.NumAttr", gdr + h + 4 * o + 4, 4, {0x7FFFFFFF});
    e.be("GDR.NzVars", gdr + h + 4 * o + 16, 4, {0x7FFFFFFF, -1});
    const std::size_t vdr = be64(gdr + h + o);
    e.be("zVDR.DataType", vdr + h + o, 4, {99});
    e.be("zVDR.MaxRec", vdr + h + o + 4, 4, {0x7FFFFFFF}, Seen::Never); // records no leaf holds: pad values
    e.be("zVDR.VXRhead", vdr + h + o + 8, o, {std::int64_t{1} << 50, static_cast<std::int64_t>(vdr)});
    e.be("zVDR.NumElems", vdr + h + o + 8 + 2 * o + 20, 4, {0, 0x7FFFFFFF});
    return e.take();
}

std::vector<std::size_t> boundaries(const std::vector<std::uint8_t>& f, const std::string& type)
{
    std::vector<std::size_t> b;
    if (type == "edf") {
        const std::size_t ns = edfNumber(f, 252, 4);
        const std::size_t header = 256 * (ns + 1);
        b = {255, 256, header - 1, header, header + 1, header + 256};
    } else if (type == "tar") {
        b = {511, 512, 1024, 1536};
    } else if (type == "cdf") {
        b = {7, 8, 20, 319, 320, 321}; // the magic numbers, the CDR's header, a CDF 3 CDR's end
    } else if (type == "mdf4") {
        b = {63, 64, 87, 88, 167, 168}; // the identification, HD's header and links
        for (const char* id : {"##DG", "##CG", "##CN", "##DT", "##DZ", "##EV"})
            if (const std::size_t at = mdf4Block(f, id); at != 0) b.insert(b.end(), {at + 23, at + 24, at + 40});
    } else {
        b = {1023, 1024, 1025};
        if (type == "tmet") b.insert(b.end(), {2560, 13312, 16383});
        if (type == "tidx") b.insert(b.end(), {kHeader + kIndexEntry - 1, kHeader + kIndexEntry});
        if (type == "tdat") {
            const auto first = load<std::uint32_t>(f, kHeader + 36);
            b.insert(b.end(), {kHeader + kRedHeader - 1, kHeader + first / 2, kHeader + first - 1, kHeader + first});
        }
        if (type == "rdat") {
            const auto first = load<std::uint32_t>(f, kHeader + 12);
            b.insert(b.end(), {kHeader + kRecordHeader, kHeader + kRecordHeader + first - 1});
        }
        if (type == "ridx") b.insert(b.end(), {kHeader + kRecordIndexEntry - 1, kHeader + kRecordIndexEntry});
    }
    b.erase(std::remove_if(b.begin(), b.end(), [&](std::size_t x) { return x == 0 || x >= f.size(); }), b.end());
    return b;
}

namespace {

// The value of the first line "key=value": [first, end) before the line's end.
std::pair<std::size_t, std::size_t> valueOf(const std::vector<std::uint8_t>& f, const std::string& key)
{
    const std::string text(f.begin(), f.end());
    for (std::size_t at = text.find(key + "="); at != std::string::npos; at = text.find(key + "=", at + 1)) {
        if (at != 0 && text[at - 1] != '\n') continue;
        const std::size_t first = at + key.size() + 1;
        return {first, text.find_first_of("\r\n", first) == std::string::npos ? text.size()
                                                                              : text.find_first_of("\r\n", first)};
    }
    return {0, 0};
}

void textEdits(std::vector<FieldEdit>& out, const std::vector<std::uint8_t>& f, const std::string& key,
               const std::vector<std::string>& values, Seen seen = Seen::Always)
{
    const auto [first, end] = valueOf(f, key);
    if (first == 0) return;
    for (const std::string& v : values) {
        if (v.size() > end - first) continue;
        FieldEdit e;
        e.what = "field " + key + "=" + v;
        e.offset = first;
        e.bytes.assign(v.begin(), v.end());
        e.bytes.resize(end - first, ' ');
        e.seen = seen;
        out.push_back(std::move(e));
    }
}

} // namespace

std::vector<FieldEdit> brainVisionFieldEdits(const std::vector<std::uint8_t>& f, const std::string& type)
{
    std::vector<FieldEdit> out;
    if (type == "vmrk") {
        textEdits(out, f, "Mk1", {"x,,0,1,0", "New Segment,,1,1,0,99999999999999999999"});
        textEdits(out, f, "Mk2", {"a,b,-5,1,0", "a,b,1,-1,99999"});
        return out;
    }
    textEdits(out, f, "NumberOfChannels", {"0", "9", "-1"});
    textEdits(out, f, "SamplingInterval", {"0", "-1", "nan", "1e300", "1e-300"});
    textEdits(out, f, "BinaryFormat", {"XYZ", "INT_16", "INT_32"});
    textEdits(out, f, "DataOrientation", {"DIAGONAL"});
    textEdits(out, f, "DataOrientation", {"VECTORIZED"}, Seen::Never); // the same bytes read another way
    textEdits(out, f, "DataFile", {"", "x.eeg", "/"});
    textEdits(out, f, "DataPoints", {"-1", "0", "99999999"});
    textEdits(out, f, "Ch1", {"x,,0,uV", "x,,nan,uV", "x,,1e400,uV", ""});
    return out;
}

} // namespace lv::corpus
